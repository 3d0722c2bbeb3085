"""The turn runner: each submitted line is a turn of the app, one at a time, cancelled by Esc or Ctrl-C.

Every chat or agent app writes the same loop by hand: run the answer as a task, so an
``Interrupt`` can cancel it; wait for it before the next line; say "cancelled"; and tell
line input that the app is busy (without that, piped lines are typed while a turn streams:
``> hello > world``, then both answers).  ``TurnRunner`` is that loop::

    async def answer(app: InlineApp, text: str) -> None:
        async with app.stream("assistant") as reply:
            reply.write(f"You said: {text}")

    app = InlineApp()
    turns = TurnRunner(answer)          # while_busy="queue" (default) or "refuse"
    turns.install(app)                  # before run, after CommandRegistry.install and on_submit
    raise SystemExit(asyncio.run(app.run(turns.main)))

* A line is logged (as the user's entry) when its turn starts, not when it is typed, so a queued line
  never lands among the entries of the turn still running.
* While a turn runs, a typed line is queued (shown above the status line as ``queued: …``)
  or refused (its text goes back into the composer with a note), as the app chose.  Slash
  lines still go to the ``CommandRegistry`` at once.
* Esc or the first Ctrl-C cancels the running turn: its streams are finished, the spinner
  stopped and a "cancelled" line logged; queued lines go back into the composer, not lost.
* Line input (piped stdin) waits while a turn runs, as it waits for a slash command, and
  still answers a dialog the turn opens.
* An exception in a turn is one error line (and a log record); the app goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal

from ..inputs import EditorSet, LogAppend, Widget
from ..outputs import Interrupt, Quit
from .api import SubmitHook

if TYPE_CHECKING:
    from .runner import InlineApp

__all__ = ["QUEUED_WIDGET", "Turn", "TurnRunner", "WhileBusy"]

Turn = Callable[["InlineApp", str], Awaitable[object]]
WhileBusy = Literal["queue", "refuse"]
QUEUED_WIDGET = "turns.queued"  # the widget key of the queued lines (or the refusal note)
log = logging.getLogger(__name__)


class TurnRunner:
    """Runs ``turn(app, line)`` for each submitted line, one at a time (see the module's docstring)."""

    def __init__(self, turn: Turn, *, while_busy: WhileBusy = "queue", cancelled: str = "cancelled") -> None:
        if while_busy not in ("queue", "refuse"):
            raise ValueError(f"while_busy must be 'queue' or 'refuse', not {while_busy!r}")
        self.turn = turn
        self.while_busy: WhileBusy = while_busy
        self.cancelled = cancelled
        self.app: InlineApp | None = None
        self.queued: deque[str] = deque()
        self._task: asyncio.Task[None] | None = None
        self._hook: SubmitHook | None = None
        self._idle = asyncio.Event()

    @property
    def busy(self) -> bool:
        """Whether a turn is running."""
        return self._task is not None and not self._task.done()

    def install(self, app: InlineApp) -> None:
        """Take the submitted lines of ``app`` (before ``app.run``; an ``on_submit`` already set runs first)."""
        if app.state is not None:
            raise RuntimeError("install the turn runner before app.run: the core logs submitted lines otherwise")
        self.app = app
        self._hook = app.on_submit
        app.on_submit = self._submitted

    async def main(self, app: InlineApp) -> int:
        """An app's whole ``main``: ``app.run(turns.main)``."""
        await self.run()
        return 0

    async def run(self) -> None:
        """Until ``Quit``: Esc / Ctrl-C cancel the running turn.  On the way out a running turn is cancelled."""
        app = self._installed()
        try:
            async for output in app.outputs():
                if isinstance(output, Interrupt):
                    self.cancel()
                elif isinstance(output, Quit):
                    break
        finally:
            self.queued.clear()
            if self._task is not None and not self._task.done():
                self._task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._task

    def cancel(self) -> bool:
        """Cancel the running turn (True if one ran); queued lines go back into the composer."""
        app = self._installed()
        if self.queued:
            state = app.state
            typed = state.composer.text if state is not None else ""
            app.send(EditorSet("\n".join([*self.queued, *([typed] if typed else [])])))
            self.queued.clear()
            self._show_queue()
        if not self.busy:
            return False
        assert self._task is not None
        self._task.cancel()
        return True

    async def wait_idle(self) -> None:
        """Until no turn runs and none is queued."""
        while self.busy or self.queued:
            self._idle.clear()
            await self._idle.wait()

    # --- the submit hook ------------------------------------------------------------------------

    def _submitted(self, text: str) -> str | None:
        """Every submitted line: slash lines pass to the registry; a turn starts, is queued, or is refused."""
        if self._hook is not None:
            accepted = self._hook(text)
            if accepted is None or not accepted.strip():
                return accepted
            text = accepted
        app = self._installed()
        if app.commands is not None and app.commands.handles(text):
            return text  # logged, and run by the registry (also while a turn runs)
        if not self.busy:
            self._start(text)
        elif self.while_busy == "queue":
            self.queued.append(text)
            self._show_queue()
        else:
            app.send(Widget(QUEUED_WIDGET, "busy: the answer is not finished (Esc cancels it)"))
            return None  # refused: the text goes back into the composer
        return ""  # taken: the line is logged when its turn starts

    def _show_queue(self) -> None:
        lines = [f"queued: {line.strip().splitlines()[0]}" for line in self.queued]
        self._installed().send(Widget(QUEUED_WIDGET, "\n".join(lines)))

    # --- running a turn -------------------------------------------------------------------------

    def _start(self, text: str) -> None:
        app = self._installed()
        app.send(LogAppend("user", text))
        app.command_started()  # line input waits for the turn, or for a dialog it opens
        self._task = asyncio.ensure_future(self._guarded(app, text))
        self._task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        app = self._installed()
        app.command_finished()
        if self.queued:
            self._start(self.queued.popleft())
            self._show_queue()
        else:
            if self.while_busy == "refuse":
                app.send(Widget(QUEUED_WIDGET, ""))
            self._idle.set()

    async def _guarded(self, app: InlineApp, text: str) -> None:
        opened = set(app._streams)
        try:
            await self.turn(app, text)
        except asyncio.CancelledError:
            _close_streams(app, opened)
            app.working("")
            app.log("status", self.cancelled)
        except Exception as error:  # an app's turn must not take the UI down
            log.exception("a turn failed")
            _close_streams(app, opened)
            app.working("")
            app.log("error", f"the turn failed: {type(error).__name__}: {error}")
        finally:
            _close_streams(app, opened)

    def _installed(self) -> InlineApp:
        if self.app is None:
            raise RuntimeError("the turn runner is not installed: call turns.install(app) before app.run")
        return self.app


def _close_streams(app: InlineApp, before: set[str]) -> None:
    """Finish the streams a turn opened and left open (one not used as a context manager)."""
    for key in [key for key in app._streams if key not in before]:
        app._streams[key].close()
