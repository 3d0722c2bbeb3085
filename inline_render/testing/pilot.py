"""Test an app as it runs: ``run_app`` starts an ``InlineApp`` headless and hands you a ``Pilot``.

Like Textual's ``run_test``: the app's own ``main`` coroutine runs against an
in-memory terminal of the size you give, through the real runner (scheduler,
Ctrl-C window, awaited dialogs, streams); every tick goes through
``CheckedRenderer``, so every emulator property (history once and in order,
viewport equals frame, cursor only at the composer, no forbidden sequence) is
asserted after every tick, in the in-memory terminal and in pyte::

    from inline_render.testing.pilot import run_app

    async def test_echo() -> None:
        async with run_app(main, columns=60, rows=16) as pilot:
            await pilot.type("hello")
            await pilot.press("enter")
            await pilot.wait_for("You said: hello")
            await pilot.resize(40, 12)
            assert "You said: hello" in pilot.snapshot()

Under pytest such an ``async def`` test runs as it is: the package's pytest plugin runs coroutine tests
in a fresh event loop (``inline_render.pytest_plugin``).  ``wait_for`` checks only once what is queued has
been drawn; ``wait_idle`` waits until the app is idle (a turn finished, everything drawn).

A failed property check, or an exception in ``main``, is raised from the
``async with`` (and from ``wait_for`` as soon as it happens).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from ..core.state import Config
from ..inputs import Input, Key, Paste, Resize
from ..outputs import Output
from ..shell.probe import TerminalInfo
from ..shell.runner import AppOptions, InlineApp, Main, config_for
from ..shell.terminal_io import OutputMode
from ..terminals.resize import TerminalFamily
from .checks import CheckedRenderer

__all__ = ["Pilot", "run_app"]


class Pilot:
    """Drives a headless app: keys, pastes, resizes; reads its screen and scrollback."""

    def __init__(self, app: InlineApp, checked: CheckedRenderer, task: asyncio.Task[int]) -> None:
        self.app = app
        self.checked = checked
        self.task = task
        self.exit_code: int | None = None

    # --- acting -------------------------------------------------------------------------------

    async def press(self, *keys: str | Input) -> None:
        """Press keys (prompt_toolkit names: ``a``, ``enter``, ``c-c``, ``up``...), then let the app settle."""
        self.app.press(*keys)
        await self.settle()

    async def type(self, text: str) -> None:
        """Type ``text`` one key per character."""
        await self.press(*(Key(char) for char in text))

    async def paste(self, text: str) -> None:
        """A bracketed paste."""
        await self.press(Paste(text))

    async def resize(self, columns: int, rows: int) -> None:
        """The terminal changes size (the in-memory terminal first, as a real one would)."""
        await self.press(Resize(columns, rows))

    async def settle(self, timeout: float = 5.0) -> None:
        """Until every queued input has been ticked and drawn (and the app had a moment to react)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._raise_if_failed()
            for _ in range(3):
                await asyncio.sleep(0)  # let the app's tasks run on what the last tick produced
            if not self.app.scheduler.pending or self.task.done():
                self._raise_if_failed()
                return
            if loop.time() > deadline:
                raise TimeoutError(f"the app did not settle within {timeout} s")
            await asyncio.sleep(0.002)

    async def wait_for(self, text: str | Callable[[Pilot], bool], timeout: float = 5.0) -> None:
        """Until ``text`` is on the screen or in the scrollback (or the predicate holds), checked each time
        what is queued has been drawn: a predicate never sees a screen with a redraw still pending."""
        check = text if callable(text) else (lambda pilot: text in pilot.snapshot())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            with contextlib.suppress(TimeoutError):  # a flood that never settles: the check below still runs
                await self.settle(max(0.0, deadline - loop.time()))
            self._raise_if_failed()
            if check(self):
                return
            if self.task.done():
                raise AssertionError(f"the app ended before {text!r} appeared:\n{self.snapshot()}")
            if loop.time() > deadline:
                raise AssertionError(f"{text!r} did not appear within {timeout} s:\n{self.snapshot()}")
            await asyncio.sleep(0.005)

    def idle(self) -> bool:
        """Whether the app is idle: it waits for the user (``InlineApp.waiting_for_user``: no command or turn
        running, nothing unread, queued or undrawn), no stream is open and the spinner is off."""
        state = self.checked.state
        working = state is not None and bool(state.working)
        return self.app.waiting_for_user() and not self.app._streams and not working

    async def wait_idle(self, timeout: float = 5.0) -> None:
        """Until the app is idle (``idle``) and stays so while its tasks run once more: a turn has finished and
        everything it sent is drawn."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        calm = 0
        while calm < 2:
            await self.settle(max(0.0, deadline - loop.time()))
            if self.task.done():
                return
            calm = calm + 1 if self.idle() else 0
            if calm < 2 and loop.time() > deadline:
                raise AssertionError(f"the app was not idle within {timeout} s:\n{self.snapshot()}")
            await asyncio.sleep(0.002)

    # --- reading ------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The core state (``AppState``) after the last tick."""
        return self.checked.state

    @property
    def outputs(self) -> list[Output]:
        """Every output the core produced, in order (including those the API consumed)."""
        return self.checked.outputs

    def screen(self) -> list[str]:
        """The terminal's screen rows, right-trimmed."""
        return [line.rstrip() for line in self.checked.terminal.screen_lines()]

    def scrollback(self) -> list[str]:
        """The terminal's scrollback lines, oldest first."""
        return [line.rstrip() for line in self.checked.terminal.scrollback]

    def snapshot(self) -> str:
        """Scrollback, then the screen (trailing blank rows dropped): one string to compare or search."""
        screen = self.screen()
        while screen and not screen[-1]:
            screen.pop()
        return "\n".join([*self.scrollback(), *screen])

    def _raise_if_failed(self) -> None:
        if self.task.done() and not self.task.cancelled() and self.task.exception() is not None:
            raise self.task.exception()  # type: ignore[misc]


@contextlib.asynccontextmanager
async def run_app(
    main: Main,
    *,
    columns: int = 80,
    rows: int = 24,
    config: Config | None = None,
    options: AppOptions | None = None,
    app: InlineApp | None = None,
    use_pyte: bool = True,
    setup: Callable[[InlineApp], None] | None = None,
    family: TerminalFamily | None = None,
) -> AsyncIterator[Pilot]:
    """Run ``main`` headless at ``columns`` x ``rows``; yields a ``Pilot``; on exit the app is stopped.

    ``setup(app)`` runs before the app starts (set ``app.on_submit`` there).  ``family``
    (``TerminalFamily.XTERM``, ``VTE``, ``XTERMJS``, ``TMUX``, ``SCREEN``): the in-memory terminal resizes
    as that terminal was measured to, and the app gets the config the runner gives that terminal
    (``config_for``: its resize model); pyte is then not used.  The exit code is ``pilot.exit_code`` afterwards.
    """
    opts = options or AppOptions()
    opts = replace(opts, mode=OutputMode.INLINE, line_input=False, config=config or opts.config)
    app = app or InlineApp(opts)
    if setup is not None:
        setup(app)
    renderer_config = opts.config if family is None else config_for(opts, TerminalInfo(family=family))
    checked = CheckedRenderer(
        columns,
        rows,
        config=renderer_config,
        cursor_row=0,
        use_pyte=use_pyte,
        family=family or TerminalFamily.SIMPLE,
    )
    task = asyncio.ensure_future(app.run_headless(main, checked.renderer, checked.feed))
    pilot = Pilot(app, checked, task)
    await pilot.settle()
    try:
        yield pilot
    finally:
        if not task.done():
            app.exit(0)
        pilot.exit_code = await task
