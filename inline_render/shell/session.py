"""The runner's session features, apart from the terminal plumbing: a mixin of ``InlineApp``.

* The Ctrl-C exit window: the first Ctrl-C cancels what runs and puts
  ``CTRL_C_HINT`` in the status line for ``ctrl_c_window`` seconds; a second one
  within it exits; any other key closes it (the app's status comes back).
* Line input: with no terminal to read keys from, stdin's lines are typed in
  turn, each once the app waits for input (``lines``), and the end of input is a
  ``Quit``.
* The composer's history file (prompt_toolkit ``FileHistory``), the app's
  completer (asked here, in the shell, on a ``CompleteRequest``) and the key bindings
  (``InlineApp.bind`` sets them: a handler gets the app itself).

The mixin declares what it uses of ``InlineApp`` (the attributes its constructor creates, the methods it
provides) and so never imports the runner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from prompt_toolkit.completion import Completer
from prompt_toolkit.history import History
from prompt_toolkit.input import Input as PtkInput

from ..core.app import AppState
from ..inputs import (
    Clock,
    HistorySet,
    Input,
    Key,
    LegacyText,
    LogAppend,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    PermissionPreview,
    PermissionReady,
    Resize,
    Status,
    Widget,
    Working,
)
from ..outputs import CompleteRequest, Output, Quit
from ..widgets.completion import complete
from ..widgets.composer import normalize_key
from .lines import LineReader, line_inputs
from .options import AppOptions
from .schedule import TickScheduler
from .terminal_io import OutputMode

__all__ = ["CTRL_C_HINT", "SessionFeatures"]

CTRL_C_HINT = "Press Ctrl-C again to exit"
# Inputs that change neither the composer nor a dialog: a quit key behind them means what it would mean now.
_BESIDE_THE_KEYS = (
    Clock,
    LegacyText,
    LogAppend,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    PermissionPreview,
    PermissionReady,
    Resize,
    Status,
    Widget,
    Working,
)
log = logging.getLogger(__name__)


class SessionFeatures:
    """Ctrl-C window, line input, history, completion and key bindings of ``InlineApp``."""

    # Created by ``InlineApp.__init__``: declared here for the methods below.
    options: AppOptions
    scheduler: TickScheduler
    stdin: TextIO
    mode: OutputMode
    completer: Completer | None
    _input: PtkInput | None
    _outputs: asyncio.Queue[Output]
    _waiting: int
    _commands_busy: int
    _history: History | None
    _headless: bool
    _ctrl_c_at: float | None
    _ctrl_c_arrived: float | None
    _status_before: str
    _hint_timer: asyncio.TimerHandle | None
    _input_ended: bool
    _bindings: dict[str, Callable[[Any], object]]

    if TYPE_CHECKING:  # provided by InlineApp

        @property
        def state(self) -> AppState | None: ...
        def press(self, *keys: str | Input) -> None: ...
        def exit(self, code: int = 0) -> None: ...
        def _wake(self) -> None: ...
        def _now(self) -> float: ...

    def _on_ctrl_c(self) -> None:
        """A Ctrl-C: the second one within ``ctrl_c_window`` exits; a first one shows the hint (and cancels what
        runs: the app gets the ``Interrupt``)."""
        now = self._now()
        if self._ctrl_c_at is not None and now - self._ctrl_c_at <= self.options.ctrl_c_window:
            self.exit(0)
        else:
            self._start_ctrl_c_hint(now)

    def _exits_on_arrival(self, keys: list[Input]) -> bool:
        """Keys from the terminal: a second Ctrl-C within the window, or Ctrl-D on an empty composer, exits now.

        Not when its tick comes: under a flood a key waits behind every input that is not streamed text (a
        finished entry, a status), and those wait behind the text before them; the second Ctrl-C came after
        the window and counted as a first one (issue 33: the app never quit).  Keys typed in between (or
        waiting) leave it to the core, as before; so does a Ctrl-D while a dialog or the composer may take it.
        """
        now = self._now()
        window = self.options.ctrl_c_window
        waiting = self.scheduler.pending
        for index, item in enumerate(keys):
            if not isinstance(item, Key):
                return False
            key = normalize_key(item.key)
            ahead = [*waiting, *keys[:index]]
            if key == "c-c":
                others = any(not (_is_ctrl_c(i) or _beside(i)) for i in ahead)
                opened = self._ctrl_c_at is not None and now - self._ctrl_c_at <= window
                queued = self._ctrl_c_arrived is not None and now - self._ctrl_c_arrived <= window
                queued = queued and any(_is_ctrl_c(i) for i in ahead)  # the first one is still waiting
                if (opened or queued) and not others:
                    self.exit(0)
                    return True
                self._ctrl_c_arrived = now
            elif key == "c-d" and self._composer_empty() and all(_beside(i) for i in ahead):
                self.exit(0)
                return True
            else:
                return False
        return False

    def _composer_empty(self) -> bool:
        state = self.state
        return state is not None and state.dialog is None and not state.queued and not state.composer.text

    def _store_history(self, text: str) -> None:
        if self._history is not None:
            try:
                self._history.store_string(text)
            except OSError as error:
                log.warning("cannot save the history: %s", error)

    def _complete(self, request: CompleteRequest) -> None:
        """Tab: ask the app's completer (here in the shell: completers may read the disk) and feed the answer."""
        if self.completer is None:
            return
        try:
            answer = complete(self.completer, request)
        except Exception:  # an app's completer must not take the UI down
            log.exception("the completer failed")
            return
        self.scheduler.add([answer], urgent=True)
        self._wake()

    def _prepare_composer(self) -> None:
        """Send the history file's lines (oldest first) with the first tick: an input, so a recording has it."""
        path = self.options.history_file
        if path is None:
            return
        from prompt_toolkit.history import FileHistory

        self._history = FileHistory(path)
        try:
            lines = tuple(reversed(list(self._history.load_history_strings())))
        except OSError as error:
            log.warning("cannot read the history file %s: %s", path, error)
            return
        if lines:
            self.scheduler.add([HistorySet(lines)], urgent=True)

    def _start_ctrl_c_hint(self, now: float) -> None:
        """The first Ctrl-C (it cancels what runs): say in the status line how to exit, for the window."""
        state = self.state
        if self._ctrl_c_at is None:
            self._status_before = state.status if state is not None else ""
        self._ctrl_c_at = now
        self.scheduler.add([Status(CTRL_C_HINT)], urgent=True)
        if self._hint_timer is not None:
            self._hint_timer.cancel()
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to time out
            loop = asyncio.get_running_loop()
            self._hint_timer = loop.call_later(self.options.ctrl_c_window, self._end_ctrl_c_hint)
        self._wake()

    def _end_ctrl_c_hint(self) -> None:
        """The window is over (or another key came): the status line gets back what the app had put there."""
        self._ctrl_c_at = None
        if self._hint_timer is not None:
            self._hint_timer.cancel()
            self._hint_timer = None
        state = self.state
        if state is not None and state.status == CTRL_C_HINT:
            self.scheduler.add([Status(self._status_before)], urgent=True)
            self._wake()

    def _start_line_input(self) -> asyncio.Task[None] | None:
        wanted = self.options.line_input
        if wanted is None:
            # plain/JSON Lines modes, or inline without any terminal for keys (headless runs have no stdin)
            wanted = self._input is None and not self._headless
        if not wanted:
            return None
        return asyncio.ensure_future(self._feed_lines(LineReader(self.stdin)))

    async def _feed_lines(self, reader: LineReader) -> None:
        """Type each line once the app waits for input and the previous line's effects are drawn."""
        while True:
            line = await reader.get()
            await self._until_ready_for_input()
            if line is not None:
                self.press(*line_inputs(line, self.state, jsonl=self.mode is OutputMode.JSONL))
                continue
            state = self.state
            if state is not None and state.dialog is not None:
                self.press(Key("escape"))  # the end of input dismisses an open dialog first
                await self._until_ready_for_input()
            self._input_ended = True
            self._outputs.put_nowait(Quit())  # as Ctrl-D on an empty composer, but the app ends by itself
            return

    def waiting_for_user(self) -> bool:
        """Whether the app waits for the user with nothing unread or undrawn: something awaits an output or a
        dialog's answer (a slash command or a turn running counts as busy, unless it opened a dialog), no output
        is unread, no input is queued and an open dialog is drawn.  Line input types its next line then."""
        state = self.state
        pending = state is not None and state.dialog is not None and not state.screen.dialog_drawn
        # A running slash command holds one waiter (the app's outputs() loop) busy, unless it opened a dialog.
        ready = self._waiting > self._commands_busy
        return ready and self._outputs.empty() and not self.scheduler.pending and not pending

    async def _until_ready_for_input(self) -> None:
        """Until the app waits for the user with nothing unread or undrawn (and no dialog still pending)."""
        while not self.waiting_for_user():
            await asyncio.sleep(0.005)

    def _run_bindings(self, items: list[Input]) -> list[Input]:
        """Keys the app bound are taken out of the stream and run its handler (not while a dialog is open)."""
        state = self.state
        if state is not None and state.dialog is not None:
            return items
        kept: list[Input] = []
        for item in items:
            handler = self._bindings.get(normalize_key(item.key)) if isinstance(item, Key) else None
            if handler is None:
                kept.append(item)
                continue
            try:
                handler(self)
            except Exception:
                log.exception("the handler bound to %s failed", item.key)  # type: ignore[union-attr]
        return kept


def _beside(item: Input) -> bool:
    """``item`` changes neither the composer nor a dialog (see ``_BESIDE_THE_KEYS``)."""
    return isinstance(item, _BESIDE_THE_KEYS)


def _is_ctrl_c(item: Input) -> bool:
    return isinstance(item, Key) and normalize_key(item.key) == "c-c"
