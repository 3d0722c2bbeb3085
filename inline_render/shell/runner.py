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
import logging
import math
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from prompt_toolkit.input import Input as PtkInput
from prompt_toolkit.input import create_input

from ..core.app import AppState
from ..core.backend import StreamSink, Vt100Backend
from ..core.state import Config
from ..core.tick import Renderer
from ..inputs import Clock, Input, Key, LogAppend, LogDelta, Resize
from ..outputs import CompleteRequest, Interrupt, Output, Quit, Submit
from ..terminals.memory import TerminalFamily
from ..text.themes import hyperlinks_supported
from ..widgets.composer import normalize_key
from .api import AppApi
from .closing import ENTER_MODES, LEAVE_MODES, closing_plan
from .cursor import CursorQueries
from .keys import CursorReport, map_key_presses
from .plain import AnswerTracker, PlainWriter
from .probe import TerminalInfo, probe_terminal, read_reports
from .schedule import DEFAULT_MAX_RATE, TickScheduler
from .session import CTRL_C_HINT, SessionFeatures
from .terminal_io import OutputMode, color_depth_for, resolve_mode, stream_is_tty, terminal_size
from .title import POP_TITLE, PUSH_TITLE, title_sequence

__all__ = ["CTRL_C_HINT", "AppOptions", "InlineApp", "Main", "config_for", "run"]

Main = Callable[["InlineApp"], Awaitable[Any]]
# Signals that end the app, with the exit status a shell reports for them; a platform without one
# (Windows has no SIGHUP nor SIGWINCH) simply goes without.
_EXIT_SIGNALS = {
    number: code
    for name, code in (("SIGTERM", 143), ("SIGINT", 130), ("SIGHUP", 129))
    if (number := getattr(signal, name, None)) is not None
}
_SIGWINCH: signal.Signals | None = getattr(signal, "SIGWINCH", None)
log = logging.getLogger(__name__)  # the library's own diagnostics; the application adds the handlers


@dataclass(frozen=True, slots=True)
class AppOptions:
    """How an ``InlineApp`` runs; every field has a sensible default."""

    mode: OutputMode = OutputMode.AUTO
    config: Config = field(default_factory=Config)
    max_rate: float = DEFAULT_MAX_RATE
    """Most ticks per second for streamed inputs (keys are never delayed)."""
    ascii: bool = False
    """Plain mode: strict ASCII (``[OK]``, ``[WARN]``, ``[ERROR]`` tokens)."""
    result_stdout: bool = False
    """The final assistant answer goes to stdout; the UI (progress) to stderr."""
    cpr_timeout: float = 0.5
    """Seconds to wait for a cursor-position report before falling back."""
    escape_timeout: float = 0.05
    """Seconds after which a lone ``ESC`` byte is the Esc key (not the start of a sequence)."""
    spinner_rate: float = 10.0
    """Status spinner frames per second while the app is working."""
    exit_grace: float = 3.0
    """Seconds the main coroutine gets to clean up (shut its runtime down) once exit is requested."""
    record: str | None = None
    """Inline mode: record every tick to this scenario file."""
    reflow: bool | None = None
    """Whether the terminal re-wraps rows on a width change; None (the default): asked of the terminal at
    startup (``TerminalFamily.reflows``).  Unknown terminals get the model that cannot erase a committed row."""
    ctrl_c_window: float = 2.0
    """Seconds after a Ctrl-C in which a second Ctrl-C exits (the status line says so meanwhile)."""
    history_file: str | None = None
    """The composer's history (Up/Down, Ctrl-R) is loaded from and saved to this file (prompt_toolkit's
    FileHistory format)."""
    vi_mode: bool = False
    """The composer edits with vi keys (Esc: normal mode) instead of emacs keys."""
    hyperlinks: bool | None = None
    """OSC 8 links for Markdown links; None (the default): where the environment names a terminal known to
    show them (``themes.hyperlinks_supported``) or ``Config(hyperlinks=True)`` asks; elsewhere ``text (url)``."""
    line_input: bool | None = None
    """Read input as lines from stdin (submitted in turn; end of input quits). None: when there is no
    terminal to read keys from (stdin not a TTY in plain/JSON Lines mode, TERM=dumb, or no /dev/tty)."""
    transcript: bool = True
    """Plain/JSON Lines mode: write the transcript.  False: the core still runs (dialogs are answered with
    keys as usual) but writes nothing; the application writes its own event stream (the llm-do modes)."""


_TICK_WORK = 0.02  # seconds of rendering streamed text per tick under a flood (keys wait at most about this)
_BUDGET_START, _BUDGET_MIN, _BUDGET_MAX = 16_384, 1_024, 4_000_000  # characters of streamed text per tick
_MEASURED_CHARS = 2_048  # a tick with less streamed text says little about its cost per character
_BACKLOG_MIN = 262_144  # characters of streamed text that may wait before readers are asked to pause


def config_for(options: AppOptions, info: TerminalInfo, env: Mapping[str, str] | None = None) -> Config:
    """The renderer's config for this terminal: resize model, synchronized output, grapheme widths, links."""
    config = options.config
    links = options.hyperlinks
    if links is None:
        links = config.hyperlinks or hyperlinks_supported({} if env is None else env)
    config = replace(config, hyperlinks=links)
    reflow = options.reflow if options.reflow is not None else info.family.reflows
    # Synchronized output only where the terminal says it knows mode 2026: elsewhere a frame hides the cursor
    # while it moves it (else every streamed token would show the cursor jumping to its row and back).
    sync = config.synchronized_output and info.synchronized_output is True
    # GNU screen shows only as many history rows as line feeds scrolled in, and a widening that joins
    # soft-wrapped rows brings back those a shrink put out of reach: there a wrapped line is inserted
    # soft-wrapped, as printf leaves it (tests/test_screen_reach.py, tests/test_screen_softwrap.py).
    soft = config.soft_wrap_lines or info.family is TerminalFamily.SCREEN
    return replace(config, resize_reflow=reflow, synchronized_output=sync, soft_wrap_lines=soft)


class InlineApp(AppApi, SessionFeatures):
    """Runs a ``main`` coroutine against a live inline viewport (or a plain/JSON Lines transcript).

    The application's side reads like the app: ``await app.confirm(...)``, ``await app.prompt(...)``,
    ``await app.pick(...)``, ``async with app.stream("assistant") as s``, ``app.status(...)``,
    ``app.working(...)``, ``app.on_submit`` (see ``inline_render.shell.api``); ``send`` and ``outputs()``
    give the raw inputs and outputs underneath.
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
        self.options = options or AppOptions()
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        self.env: Mapping[str, str] = env if env is not None else os.environ
        self.clock = clock
        self.scheduler = TickScheduler(self.options.max_rate)
        self.scheduler.budget = _BUDGET_START
        self._char_cost: float | None = None  # seconds a tick spent per streamed character (smoothed)
        self.mode = OutputMode.AUTO
        self.renderer: Renderer | None = None
        self.plain: PlainWriter | None = None
        self.answers = AnswerTracker()
        self.exit_code: int | None = None
        self._api_init()
        self._session_init()
        self._feed: Callable[[list[Input]], list[Output]] | None = None
        self._outputs: asyncio.Queue[Output] = asyncio.Queue()
        self._wake_event = asyncio.Event()
        self._t0 = clock()
        self._waiting = 0  # coroutines waiting for the user (an output or a dialog answer)
        # Inline mode only.
        self._input: PtkInput | None = None
        self._ui: TextIO | None = None
        self._flush_timer: asyncio.TimerHandle | None = None
        self._cursor = CursorQueries(self._write_raw, self.options.cpr_timeout)
        self.terminal_info = TerminalInfo()
        """What the terminal said about itself at startup (inline mode)."""
        self._resize_task: asyncio.Task[None] | None = None
        self._resize_epoch = 0
        self._queued_size: tuple[int, int] | None = None
        self._frames_written = 0  # ticks that wrote to the terminal (inline mode)
        self._frames_settled = 0  # how many of them are known processed before any resize
        self._first_met: tuple[int, int] | None = None  # the size the first frame not settled met (its acknowledgement)
        self._signals: list[tuple[signal.Signals, Any]] = []
        self._title_set = False  # a title was set: the user's comes back at exit

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
        self._submit_hooked = self.on_submit is not None
        config = renderer.state.config
        config = replace(config, log_submit=config.log_submit and not self._submit_hooked)
        config = replace(config, vi_mode=config.vi_mode or self.options.vi_mode)
        renderer.state = replace(renderer.state, config=config)  # before the first tick: the header's config
        self.renderer = renderer
        self._feed = feed
        self.scheduler.request(urgent=True)  # draw the empty viewport at once
        return await self._drive(main)

    # --- the loop ----------------------------------------------------------------------------

    def _config(self) -> Config:
        """The core's config: with an ``on_submit`` hook the app, not Enter, logs the submitted line;
        ``vi_mode`` from the options."""
        self._submit_hooked = self.on_submit is not None
        config = self.options.config
        if self.on_submit is not None:
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

    def _acknowledge_frame(self, frames: int) -> None:
        """Ask the terminal to acknowledge the ``frames`` ticks that just wrote (one feed: a tick and its follow-up;
        a tick that wrote nothing is no frame), with the size it met (``SIZE_PROBE``).

        Frames the terminal processed at the size they were drawn for came before any later resize: a resize
        then knows how many of the last frames may have been in flight (see ``Resize.in_flight_frames``).
        """
        self._frames_written += frames
        written, size = self._frames_written, self._queued_size

        def acknowledged(report: CursorReport) -> None:
            met = (report.col + 1, report.row + 1)
            if met == size:
                self._frames_settled = max(self._frames_settled, written)
            elif written > self._frames_settled and self._first_met is None:
                self._first_met = met  # in flight at a resize not fed yet: the size it met

        self._cursor.acknowledge(acknowledged)

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
        self.plain = PlainWriter(sink, config=self._config(), jsonl=jsonl, ascii=self.options.ascii)
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
        source = self.stdin if stream_is_tty(self.stdin) else _open_tty()
        with contextlib.ExitStack() as stack:
            if source is not None:
                if source is not self.stdin:
                    stack.callback(source.close)
                self._input = create_input(source)
                stack.enter_context(self._input.raw_mode())
            try:
                self._write_raw(ENTER_MODES)
                info = TerminalInfo()
                if self._input is not None and source is not None:
                    # Asked before the key parser is attached: the replies are not keys.
                    info, typed = probe_terminal(source.fileno(), self._write_raw, self.options.cpr_timeout, self.env)
                    self._cursor.answered = info.cursor is not None
                    stack.enter_context(self._input.attach(self._on_input_ready))
                    if typed:
                        self._input.vt100_parser.feed(typed.decode("utf-8", "replace"))  # type: ignore[attr-defined]
                        asyncio.get_running_loop().call_soon(self._flush_keys)
                self.terminal_info = info
                columns, rows = terminal_size(ui.fileno())
                backend = Vt100Backend(StreamSink(_binary(ui)), color_depth_for(self.env))
                self.renderer = Renderer(
                    backend,
                    columns,
                    rows,
                    config=config_for(replace(self.options, config=self._config()), info, self.env),
                    cursor_row=info.cursor.row if info.cursor else None,
                )
                if self.options.record:
                    self._start_recording(self.options.record)
                self._queued_size = (columns, rows)
                self._install_signals(resize=True)
                self.scheduler.request(urgent=True)  # draw the empty viewport at once
                return await self._drive(main)
            finally:
                self._remove_signals()
                if self._flush_timer is not None:
                    self._flush_timer.cancel()
                self._restore_inline()

    def _start_recording(self, path: str) -> None:
        """Record to ``path``; a file that cannot be opened is an error line, not a crash."""
        assert self.renderer is not None
        try:
            self.renderer.record_to(path)
        except OSError as error:
            log.warning("cannot record to %s: %s", path, error)
            self.scheduler.add([LogAppend("error", f"Cannot record to {path}: {error.strerror or error}")])

    def _restore_inline(self) -> None:
        """Flush the transcript below the history and reset the terminal; never raises."""
        renderer = self.renderer
        if renderer is not None:
            try:
                pending = self._take_pending()
                assert self._ui is not None
                size = terminal_size(self._ui.fileno(), (renderer.state.columns, renderer.state.rows))
                if size != (renderer.state.columns, renderer.state.rows):
                    pending.append(Resize(*size, frames_in_flight=True))
                if pending:
                    renderer.feed(pending)
            except Exception:  # the transcript is still written below; an error here must not stop that
                log.exception("the last tick before exit failed")
            with contextlib.suppress(Exception):
                renderer.backend.write(closing_plan(renderer.state))
            recorder = getattr(renderer, "recorder", None)
            if recorder is not None and hasattr(recorder, "close"):
                with contextlib.suppress(Exception):
                    recorder.close()
        if self._title_set:
            self._write_raw(POP_TITLE)
        self._write_raw(LEAVE_MODES)
        self._drain_replies()

    def _drain_replies(self) -> None:
        """Wait (at most ``cpr_timeout``) for the cursor reports still owed: one arriving after raw mode ends
        would be echoed onto the screen (``^[[5;1R``) and left for the shell to read as typed text."""
        owed = self._cursor.outstanding
        if not owed or self._input is None:
            return
        try:
            fd = self._input.fileno()
        except Exception:
            return
        read_reports(fd, owed, self.options.cpr_timeout)  # read and dropped: nobody waits for them any more

    def _write_raw(self, data: bytes) -> None:
        if self._ui is None:
            return
        with contextlib.suppress(OSError, ValueError):
            stream = _binary(self._ui)
            stream.write(data)
            stream.flush()

    # --- keys ---------------------------------------------------------------------------------

    def _on_input_ready(self) -> None:
        assert self._input is not None
        self._handle_presses(self._input.read_keys())
        if self._input.closed:
            self.exit(129)  # the terminal is gone
            return
        # A lone ESC stays in the parser until we flush it (it may start a sequence).
        if self._flush_timer is not None:
            self._flush_timer.cancel()
        loop = asyncio.get_running_loop()
        self._flush_timer = loop.call_later(self.options.escape_timeout, self._flush_keys)

    def _flush_keys(self) -> None:
        self._flush_timer = None
        if self._input is not None:
            self._handle_presses(self._input.flush_keys())

    def _handle_presses(self, presses: list[Any]) -> None:
        keys: list[Input] = []
        for item in map_key_presses(presses):
            if isinstance(item, CursorReport):
                self._cursor.on_report(item)
            else:
                keys.append(item)
        if keys:
            self.press(*keys)

    # --- cursor reports and resizes -----------------------------------------------------------

    def _input_size_changed(self) -> bool:
        """A missed SIGWINCH: the size differs from the last one given to the core; start a resize."""
        assert self._ui is not None
        size = terminal_size(self._ui.fileno(), self._queued_size or (80, 24))
        if size != self._queued_size:
            self._on_resize_signal()
            return True
        return False

    def _on_resize_signal(self) -> None:
        self._resize_epoch += 1
        if self._resize_task is None:
            self._resize_task = asyncio.ensure_future(self._resize())

    async def _resize(self) -> None:
        """Ask where the cursor is now, then feed one ``Resize`` (again if another resize came meanwhile)."""
        try:
            while True:
                epoch = self._resize_epoch
                # A terminal that never answered is not asked again (each query would hold the ticks).
                asked = self._input is not None and self._cursor.answered
                report = await self._cursor.query() if asked else None
                if epoch == self._resize_epoch:
                    break
            assert self._ui is not None
            size = terminal_size(self._ui.fileno(), self._queued_size or (80, 24))
            self._queued_size = size
            # The report came after every acknowledgement asked before it: a frame not acknowledged as
            # processed at its own size may have been read after the resize (or the terminal never says).
            unsettled = self._frames_written - self._frames_settled
            in_flight = report is None or unsettled > 0
            self._frames_settled = self._frames_written
            row, count = (report.row, unsettled) if report is not None else (None, None)
            met_columns, met_rows = (self._first_met if unsettled else None) or (None, None)
            self._first_met = None
            column = report.col if report is not None else None
            resize = Resize(size[0], size[1], row, in_flight, count, met_columns, met_rows, column)
            self.scheduler.add([resize], urgent=True)
        finally:
            self._resize_task = None
            self._wake()

    # --- signals ------------------------------------------------------------------------------

    def _install_signals(self, *, resize: bool) -> None:
        loop = asyncio.get_running_loop()
        wanted: dict[signal.Signals, Callable[[], None]] = {}
        for number, code in _EXIT_SIGNALS.items():
            wanted[number] = lambda code=code: self.exit(code)  # type: ignore[misc]
        if resize and _SIGWINCH is not None:
            wanted[_SIGWINCH] = self._on_resize_signal
        for number, handler in wanted.items():
            saved = _saved_handler(loop, number)
            try:
                loop.add_signal_handler(number, handler)
            except (ValueError, RuntimeError, NotImplementedError):
                continue  # not the main thread, or no signals here: the app still runs
            self._signals.append((number, saved))

    def _remove_signals(self) -> None:
        """Give each signal back to whoever had it before: the host loop's handler or the process's."""
        loop = asyncio.get_running_loop()
        for number, saved in self._signals:
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(number)
                if isinstance(saved, asyncio.Handle):
                    loop.add_signal_handler(number, getattr(saved, "_callback"), *getattr(saved, "_args"))  # noqa: B009
                elif saved is not None:
                    signal.signal(number, saved)
        self._signals.clear()


class _Discard(io.StringIO):
    """A text stream that keeps nothing (the transcript nobody reads)."""

    def write(self, text: str) -> int:
        return len(text)


def _saved_handler(loop: asyncio.AbstractEventLoop, number: signal.Signals) -> Any:
    """What handles ``number`` now: the loop's own handler (a ``Handle``) or the process-level one."""
    # asyncio has no public getter for a loop's signal handlers; the Unix loops keep them in this dict.
    handle = getattr(loop, "_signal_handlers", {}).get(number)
    if handle is not None:
        return handle
    try:
        return signal.getsignal(number)
    except (ValueError, OSError):
        return None


def _binary(stream: TextIO) -> Any:
    """The byte stream under a text stream (flushing pending text first)."""
    with contextlib.suppress(Exception):
        stream.flush()
    return getattr(stream, "buffer", stream)


def _open_tty() -> TextIO | None:
    """The controlling terminal for keys when stdin is a pipe; None when there is none."""
    try:
        return open("/dev/tty", encoding="utf-8")  # closed by the ExitStack
    except OSError:
        return None


async def run(main: Main, options: AppOptions | None = None) -> int:
    """``InlineApp(options).run(main)``: the exit code."""
    return await InlineApp(options).run(main)
