"""``InlineApp``: the asyncio shell that owns the terminal around the pure core.

One loop, one writer.  Key presses come from prompt_toolkit's input (raw mode,
its vt100 parser) and are ticked at once; whatever the application ``send``\\ s
(runtime events, streaming text) is coalesced by ``TickScheduler`` to at most
``max_rate`` ticks per second, all inputs kept in order.  SIGWINCH holds the
ticks, asks the terminal where the cursor went (``ESC[6n``) and feeds one
``Resize`` carrying that row, so the core re-anchors the viewport where the
terminal's reflow left it.  Every exit path (normal, exception, Ctrl-C twice,
Ctrl-D, SIGTERM/SIGINT/SIGHUP) restores the terminal: the unfinished transcript
is written below the history, the modes are reset, the cursor is shown on the
line after it and raw mode is left.

A minimal application::

    async def main(app: InlineApp) -> None:
        async for output in app.outputs():
            if isinstance(output, Submit):
                app.send(LogAppend("assistant", f"You said: {output.text}"))

    raise SystemExit(asyncio.run(InlineApp().run(main)))
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import itertools
import math
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from prompt_toolkit.completion import Completer
from prompt_toolkit.history import History
from prompt_toolkit.input import Input as PtkInput

from ..core.app import AppState
from ..core.backend import StreamSink, Vt100Backend
from ..core.state import Config
from ..core.tick import Renderer
from ..inputs import Clock, Input, Key, LogAppend, LogDelta
from ..outputs import CompleteRequest, Interrupt, Output, Quit, Submit
from ..text.spans import StyledText
from ..widgets.composer import normalize_key
from .api import Answer, AppApi, Stream, SubmitHook
from .capture import OutputCapture
from .closing import ENTER_MODES
from .cursor import CursorQueries
from .options import AppOptions, config_for
from .plain import AnswerTracker, PlainWriter
from .probe import TerminalInfo
from .schedule import TickScheduler
from .session import CTRL_C_HINT, SessionFeatures
from .terminal import InlineTerminal
from .terminal_io import OutputMode, binary_stream, color_depth_for, resolve_mode, terminal_size
from .title import PUSH_TITLE, title_sequence

if TYPE_CHECKING:
    from ..commands.registry import CommandRegistry

__all__ = ["CTRL_C_HINT", "AppOptions", "InlineApp", "Main", "config_for", "run"]

Main = Callable[["InlineApp"], Awaitable[Any]]

_TICK_WORK = 0.02  # seconds of rendering streamed text per tick under a flood (keys wait at most about this)
_BUDGET_START, _BUDGET_MIN, _BUDGET_MAX = 16_384, 1_024, 4_000_000  # characters of streamed text per tick
_MEASURED_CHARS = 2_048  # a tick with less streamed text says little about its cost per character
_BACKLOG_MIN = 262_144  # characters of streamed text that may wait before readers are asked to pause


class InlineApp(AppApi, SessionFeatures, InlineTerminal):
    """Runs a ``main`` coroutine against a live inline viewport (or a plain/JSON Lines transcript).

    The application's side reads like the app: ``await app.confirm(...)``, ``await app.prompt(...)``,
    ``await app.pick(...)``, ``async with app.stream("assistant") as s``, ``app.status(...)``,
    ``app.working(...)``, ``app.on_submit`` (see ``inline_render.shell.api``); ``send`` and ``outputs()``
    give the raw inputs and outputs underneath.  The mixins hold the dialogs and streams (``api``), the
    session features (``session``) and the inline terminal's plumbing (``terminal``); every attribute is
    created here.
    """

    def __init__(
        self,
        options: AppOptions | None = None,
        *,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.options: AppOptions = options or AppOptions()
        self.stdin: TextIO = stdin if stdin is not None else sys.stdin
        self.stdout: TextIO = stdout if stdout is not None else sys.stdout
        self.stderr: TextIO = stderr if stderr is not None else sys.stderr
        self.env: Mapping[str, str] = env if env is not None else os.environ
        self.clock: Callable[[], float] = clock
        self.scheduler: TickScheduler = TickScheduler(self.options.max_rate)
        self.scheduler.budget = _BUDGET_START
        self._char_cost: float | None = None  # seconds a tick spent per streamed character (smoothed)
        self.mode: OutputMode = OutputMode.AUTO
        self.renderer: Renderer | None = None
        self.plain: PlainWriter | None = None
        self.answers: AnswerTracker = AnswerTracker()
        self.exit_code: int | None = None
        # The application's side (api): awaited dialogs, open streams, status fields, submit hook, commands.
        self.on_submit: SubmitHook | None = None
        self._submit_hooked: bool = False  # fixed at the start of a run (the core's config says it)
        self.commands: CommandRegistry | None = None
        self._commands_busy: int = 0  # commands running: line input waits for them (or for a dialog one opens)
        self._ids: itertools.count[int] = itertools.count(1)
        self._answers: dict[str, asyncio.Future[Answer]] = {}
        self._streams: dict[str, Stream] = {}
        self._status_fields: dict[str, StyledText] = {}
        # The session features: completion, key bindings, history, the Ctrl-C window, line input.
        self.completer: Completer | None = None
        """Asked on Tab in the composer (any prompt_toolkit ``Completer``; see ``inline_render.widgets.completion``)."""
        self._bindings: dict[str, Callable[[Any], object]] = {}  # normalized key -> handler(app)
        self._history: History | None = None
        self._headless: bool = False
        self._ctrl_c_at: float | None = None  # when the Ctrl-C that opened the exit window came
        self._ctrl_c_arrived: float | None = None  # when the last Ctrl-C came from the terminal (not ticked yet, maybe)
        self._status_before: str = ""
        self._hint_timer: asyncio.TimerHandle | None = None
        self._input_ended: bool = False
        # The loop.
        self._feed: Callable[[list[Input]], list[Output]] | None = None
        self._outputs: asyncio.Queue[Output] = asyncio.Queue()
        self._wake_event: asyncio.Event = asyncio.Event()
        self._t0: float = clock()
        self._waiting: int = 0  # coroutines waiting for the user (an output or a dialog answer)
        # Inline mode only (terminal).
        self._input: PtkInput | None = None
        self._ui: TextIO | None = None
        self._flush_timer: asyncio.TimerHandle | None = None
        self._cursor: CursorQueries = CursorQueries(self._write_raw, self.options.cpr_timeout)
        self.terminal_info: TerminalInfo = TerminalInfo()
        """What the terminal said about itself at startup (inline mode)."""
        self._resize_task: asyncio.Task[None] | None = None
        self._resize_epoch: int = 0
        self._queued_size: tuple[int, int] | None = None
        self._frames_written: int = 0  # ticks that wrote to the terminal (inline mode)
        self._frames_settled: int = 0  # how many of them are known processed before any resize
        self._first_met: tuple[int, int] | None = None  # the size the first frame not settled met (its acknowledgement)
        self._signals: list[tuple[signal.Signals, Any]] = []
        self._title_set: bool = False  # a title was set: the user's comes back at exit

    # --- the application's side ------------------------------------------------------------

    def send(self, *inputs: Input) -> None:
        """Queue inputs for the next tick (coalesced: at most ``max_rate`` ticks per second)."""
        self._api_inputs(inputs)
        self.scheduler.add(inputs)
        if self.options.result_stdout:  # the answer is kept only when it is to be printed
            self.answers.feed(inputs)
        self._wake()

    def press(self, *keys: str | Input) -> None:
        """Queue inputs as if the user typed them (ticked at once); strings are key names."""
        items = [Key(key) if isinstance(key, str) else key for key in keys]
        if self._bindings:
            items = self._run_bindings(items)
        self.scheduler.add(items, urgent=True)
        self._wake()

    def bind(self, key: str, handler: Callable[[InlineApp], object]) -> None:
        """Call ``handler(app)`` for ``key`` (a prompt_toolkit key name: ``c-o``, ``f2``, ``m-x``...) typed in
        the composer, instead of the key's own action; dialogs still get their keys."""
        self._bindings[normalize_key(key)] = handler

    def set_title(self, title: str) -> None:
        """Set the terminal's title (inline mode; printable text only); the user's title is restored at exit."""
        if self.mode is not OutputMode.INLINE or self._ui is None:
            return
        if not self._title_set:
            self._title_set = True
            self._write_raw(PUSH_TITLE)
        self._write_raw(title_sequence(title))

    def exit(self, code: int = 0) -> None:
        """Ask the app to stop: the main coroutine is cancelled and the terminal restored."""
        if self.exit_code is None:
            self.exit_code = code
        self._wake()

    async def next_output(self) -> Output:
        """The next message from the user side (submitted text, dialog answer, interrupt, quit)."""
        if self._input_ended and self._outputs.empty():
            self.exit(0)  # line input ended and its Quit was taken: asking for more means we are done
        self._waiting += 1
        try:
            return await self._outputs.get()
        finally:
            self._waiting -= 1

    async def outputs(self) -> AsyncIterator[Output]:
        """Every output, as it comes; ends after a ``Quit``."""
        while True:
            output = await self.next_output()
            yield output
            if isinstance(output, Quit):
                return

    @property
    def state(self) -> AppState | None:
        """The core state (None before the run started)."""
        if self.renderer is not None:
            return self.renderer.state
        return self.plain.state if self.plain is not None else None

    async def run(self, main: Main) -> int:
        """Run ``main(app)`` until it returns or the user exits; the exit code (``main``'s int result or 0)."""
        ui = self.stderr if self.options.result_stdout else self.stdout
        self.mode = resolve_mode(self.options.mode, ui, self.env)
        if self.mode is OutputMode.INLINE:
            code = await self._run_inline(main, ui)
        else:
            code = await self._run_plain(main, ui, jsonl=self.mode is OutputMode.JSONL)
        if self.options.result_stdout and self.answers.answer is not None:
            text = self.answers.answer
            self.stdout.write(text if text.endswith("\n") else text + "\n")
            self.stdout.flush()
        return code

    async def run_headless(
        self, main: Main, renderer: Renderer, feed: Callable[[list[Input]], list[Output]] | None = None
    ) -> int:
        """Run ``main`` against an in-memory renderer: no terminal, no signals, no stdin (for tests: see
        ``inline_render.testing.pilot``).  ``feed`` replaces ``renderer.feed`` (a checked renderer's)."""
        self.mode = OutputMode.INLINE
        self._headless = True
        config = self._session_config(renderer.state.config)
        renderer.state = replace(renderer.state, config=config)  # before the first tick: the header's config
        self.renderer = renderer
        self._feed = feed
        self.scheduler.request(urgent=True)  # draw the empty viewport at once
        return await self._drive(main)

    # --- the loop ----------------------------------------------------------------------------

    def _session_config(self, config: Config) -> Config:
        """The core's config from ``config`` (the options', the terminal's, or a headless renderer's): with an
        ``on_submit`` hook the app, not Enter, logs the submitted line; ``vi_mode`` from the options.  The
        hook is fixed from here on (set ``on_submit`` before ``run``)."""
        self._submit_hooked = self.on_submit is not None
        if self._submit_hooked:
            config = replace(config, log_submit=False)
        return replace(config, vi_mode=True) if self.options.vi_mode else config

    def _wake(self) -> None:
        self._wake_event.set()

    def _now(self) -> float:
        return self.clock()

    async def _drive(self, main: Main) -> int:
        """Tick until ``main`` ends or exit is requested; then give ``main`` its grace period."""
        task: asyncio.Task[Any] = asyncio.ensure_future(main(self))
        task.add_done_callback(lambda _: self._wake())
        lines = self._start_line_input()
        self._prepare_composer()
        # A full collection traverses every tracked object, most of them the imports' and the app's setup
        # (about 40,000): 30-50 ms of CPU here, and a key typed meanwhile waits for it.  While the UI runs,
        # the objects alive now are left out of collections (``gc.freeze``) and given back when it ends
        # (``gc.unfreeze``: a cycle among them dropped meanwhile is collected then).  Not when something
        # else froze objects already (the application's own use of it is left alone).
        frozen = gc.get_freeze_count() == 0
        if frozen:
            gc.freeze()
        try:
            while not task.done() and self.exit_code is None:
                delay = self._next_delay()
                if delay == 0:
                    self._tick(self.scheduler.take(self._now()))
                    # Let keys and the runtime's reader in between two ticks (under a flood they come back to back).
                    await asyncio.sleep(0)
                    continue
                self._wake_event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake_event.wait(), delay)
        finally:
            if frozen:
                gc.unfreeze()
            if lines is not None:
                lines.cancel()
            if self._hint_timer is not None:
                self._hint_timer.cancel()
            if not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=self.options.exit_grace)
        if task.done() and not task.cancelled():
            error = task.exception()
            if error is not None:
                raise error
            result = task.result()
            if self.exit_code is None and isinstance(result, int) and not isinstance(result, bool):
                return result
        return self.exit_code or 0

    def _next_delay(self) -> float | None:
        """0 when a tick should run now, else how long to wait (None: until woken)."""
        if self._resize_task is not None:
            return None  # hold every tick until the viewport is re-anchored
        if self.renderer is not None and self._ui is not None and self._input_size_changed():
            return None
        now = self._now()
        delay = self.scheduler.delay(now)
        state = self.state
        if state is not None and state.working and self.mode is OutputMode.INLINE:
            frame_due = self.scheduler.last_tick + 1.0 / self.options.spinner_rate
            if now >= frame_due:
                self.scheduler.request()
                delay = self.scheduler.delay(now)
            else:
                delay = frame_due - now if delay is None else min(delay, frame_due - now)
        return delay

    def behind(self) -> bool:
        """Whether more streamed text waits than a few ticks take: a reader (``RuntimeClient(backlog=...)``)
        stops reading until it is not, so a flood waits in the runtime's pipe, not in this process."""
        return self.scheduler.backlog > max(4 * (self.scheduler.budget or 0), _BACKLOG_MIN)

    def _tick(self, inputs: list[Input]) -> None:
        chars = sum(len(item.text) for item in inputs if type(item) is LogDelta)
        started = time.perf_counter()
        self._tick_inputs(inputs)
        if chars >= _MEASURED_CHARS:
            # Size the next ticks' share of streamed text to _TICK_WORK seconds: a key typed during a flood
            # waits for one such tick at most (the scheduler takes it past the text still waiting).
            cost = (time.perf_counter() - started) / chars
            self._char_cost = cost if self._char_cost is None else 0.7 * self._char_cost + 0.3 * cost
            budget = _TICK_WORK / max(self._char_cost, 1e-9)
            self.scheduler.budget = int(min(max(budget, _BUDGET_MIN), _BUDGET_MAX))

    def _tick_inputs(self, inputs: list[Input]) -> None:
        now = max(0.0, self._now() - self._t0)
        if self._ctrl_c_at is not None and any(
            isinstance(item, Key) and normalize_key(item.key) != "c-c" for item in inputs
        ):
            self._end_ctrl_c_hint()  # any other key: the next Ctrl-C is a first one again
        feed: list[Input] = [Clock(now) if math.isfinite(now) else Clock(0.0), *inputs]
        if self._feed is not None:
            outputs = self._feed(feed)
        elif self.renderer is not None:
            frames = self.renderer.frames
            outputs = self.renderer.feed(feed)
            if self.renderer.frames > frames:
                self._acknowledge_frame(self.renderer.frames - frames)
        elif self.plain is not None:
            outputs = self.plain.feed(feed)
        else:  # pragma: no cover - _drive runs only once a front end exists
            return
        for output in outputs:
            self._handle_output(output)

    def _handle_output(self, output: Output) -> None:
        if isinstance(output, Interrupt) and output.key == "c-c":
            self._on_ctrl_c()
        elif isinstance(output, Quit):
            self.exit(0)
        elif isinstance(output, CompleteRequest):
            self._complete(output)
            return
        elif isinstance(output, Submit):
            self._store_history(output.text)
        taken, inputs = self._api_output(output)
        if inputs:
            self.scheduler.add(inputs, urgent=True)
            self._wake()
        if taken is not None:
            self._outputs.put_nowait(taken)

    def _take_pending(self) -> list[Input]:
        return self.scheduler.take(self._now())

    # --- plain and JSON Lines -----------------------------------------------------------------

    async def _run_plain(self, main: Main, ui: TextIO, *, jsonl: bool) -> int:
        sink = ui if self.options.transcript else _Discard()
        self.plain = PlainWriter(
            sink, config=self._session_config(self.options.config), jsonl=jsonl, ascii=self.options.ascii
        )
        self._install_signals(resize=False)
        try:
            return await self._drive(main)
        finally:
            self._remove_signals()
            pending = self._take_pending()
            try:
                if pending:
                    self.plain.feed(pending)
            finally:
                self.plain.close()

    # --- inline -------------------------------------------------------------------------------

    async def _run_inline(self, main: Main, ui: TextIO) -> int:
        self._ui = ui
        capture = OutputCapture(self._captured)
        with contextlib.ExitStack() as stack:
            source = self._open_input(stack)
            try:
                self._write_raw(ENTER_MODES)
                self.terminal_info = info = self._probe(stack, source)
                columns, rows = terminal_size(ui.fileno())
                backend = Vt100Backend(StreamSink(binary_stream(ui)), color_depth_for(self.env))
                config = self._session_config(config_for(self.options, info, self.env))
                cursor_row = info.cursor.row if info.cursor else None
                self.renderer = Renderer(backend, columns, rows, config=config, cursor_row=cursor_row)
                if self.options.record:
                    self._start_recording(self.options.record)
                self._queued_size = (columns, rows)
                self._install_signals(resize=True)
                self.scheduler.request(urgent=True)  # draw the empty viewport at once
                if self.options.capture_output:
                    capture.start()
                return await self._drive(main)
            finally:
                capture.stop()  # first: the lines still held are drawn by the last tick
                self._remove_signals()
                if self._flush_timer is not None:
                    self._flush_timer.cancel()
                self._restore_inline()

    def _captured(self, lines: list[tuple[str, str]]) -> None:
        """Lines printed to the captured ``sys.stdout`` / ``sys.stderr``: one ``text`` entry above the viewport."""
        self.send(LogAppend("text", "\n".join(line for _, line in lines)))


class _Discard(io.StringIO):
    """A text stream that keeps nothing (the transcript nobody reads)."""

    def write(self, text: str) -> int:
        return len(text)


async def run(main: Main, options: AppOptions | None = None) -> int:
    """``InlineApp(options).run(main)``: the exit code."""
    return await InlineApp(options).run(main)
