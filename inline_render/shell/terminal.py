"""The inline terminal's plumbing, a mixin of ``InlineApp``: raw-mode input and its keys, the startup probe,
writing, resizes (cursor queries, frame acknowledgements), signals, recording and the restore at exit.

The mixin declares what it uses of ``InlineApp`` (the attributes its constructor creates, the methods it
provides) and so never imports the runner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

from prompt_toolkit.input import Input as PtkInput
from prompt_toolkit.input import create_input

from ..core.tick import Renderer
from ..inputs import Input, LogAppend, Resize
from .closing import LEAVE_MODES, closing_plan
from .cursor import CursorQueries
from .keys import CursorReport, map_key_presses
from .options import AppOptions
from .probe import TerminalInfo, cooked_keys, probe_terminal, read_pending, read_reports
from .schedule import TickScheduler
from .terminal_io import binary_stream, stream_is_tty, terminal_size
from .title import POP_TITLE

__all__ = ["InlineTerminal"]

# Signals that end the app, with the exit status a shell reports for them; a platform without one
# (Windows has no SIGHUP nor SIGWINCH) simply goes without.
_EXIT_SIGNALS = {
    number: code
    for name, code in (("SIGTERM", 143), ("SIGINT", 130), ("SIGHUP", 129))
    if (number := getattr(signal, name, None)) is not None
}
_SIGWINCH: signal.Signals | None = getattr(signal, "SIGWINCH", None)
# The runner's logger, as before the split: applications filter the library's diagnostics by this name.
log = logging.getLogger(f"{__package__}.runner")


class InlineTerminal:
    """Raw mode, keys, probe, writing, resizes, signals, recording and the restore of ``InlineApp``."""

    # Created by ``InlineApp.__init__``: declared here for the methods below.
    options: AppOptions
    scheduler: TickScheduler
    renderer: Renderer | None
    stdin: TextIO
    env: Mapping[str, str]
    _ui: TextIO | None
    _input: PtkInput | None
    _flush_timer: asyncio.TimerHandle | None
    _cursor: CursorQueries
    _resize_task: asyncio.Task[None] | None
    _resize_epoch: int
    _queued_size: tuple[int, int] | None
    _frames_written: int
    _frames_settled: int
    _first_met: tuple[int, int] | None
    _signals: list[tuple[signal.Signals, Any]]
    _title_set: bool

    if TYPE_CHECKING:  # provided by InlineApp

        def press(self, *keys: str | Input) -> None: ...
        def exit(self, code: int = 0) -> None: ...
        def _wake(self) -> None: ...
        def _take_pending(self) -> list[Input]: ...
        def _exits_on_arrival(self, keys: list[Input]) -> bool: ...

    # --- input, probe, recording --------------------------------------------------------------

    def _open_input(self, stack: contextlib.ExitStack) -> TextIO | None:
        """The stream keys come from (stdin, else the controlling terminal), in raw mode until ``stack`` ends."""
        source = self.stdin if stream_is_tty(self.stdin) else _open_tty()
        if source is not None:
            if source is not self.stdin:
                stack.callback(source.close)
            self._input = create_input(source)
            stack.enter_context(self._input.raw_mode())
        return source

    def _probe(self, stack: contextlib.ExitStack, source: TextIO | None) -> TerminalInfo:
        """Ask the terminal about itself, then attach the key parser (until ``stack`` ends)."""
        info = TerminalInfo()
        if self._input is not None and source is not None:
            # Typed before raw mode began (``sleep 2; app`` with keys typed meanwhile): read before any query.
            ahead = cooked_keys(read_pending(source.fileno()))
            # Asked before the key parser is attached: the replies are not keys.
            info, typed = probe_terminal(source.fileno(), self._write_raw, self.options.cpr_timeout, self.env)
            typed = ahead + typed
            self._cursor.answered = info.cursor is not None
            stack.enter_context(self._input.attach(self._on_input_ready))
            if typed:
                self._input.vt100_parser.feed(typed.decode("utf-8", "replace"))  # type: ignore[attr-defined]
                asyncio.get_running_loop().call_soon(self._flush_keys)
        return info

    def _start_recording(self, path: str) -> None:
        """Record to ``path``; a file that cannot be opened is an error line, not a crash."""
        assert self.renderer is not None
        try:
            self.renderer.record_to(path)
        except OSError as error:
            log.warning("cannot record to %s: %s", path, error)
            self.scheduler.add([LogAppend("error", f"Cannot record to {path}: {error.strerror or error}")])

    # --- writing and the restore at exit --------------------------------------------------------

    def _restore_inline(self) -> None:
        """Flush the transcript below the history and reset the terminal; never raises."""
        renderer = self.renderer
        if renderer is not None:
            try:
                # What was drawn stays; of the streamed text not drawn yet, one tick's share is (a quit under a
                # flood must not wait for the backlog), the rest is dropped with one line saying so.
                pending, dropped = self.scheduler.take_at_exit()
                if dropped:
                    note = f"({dropped:,} characters of streamed text were not shown: the app quit before drawing them)"
                    pending.append(LogAppend("status", note))
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
            stream = binary_stream(self._ui)
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
        if keys and not self._exits_on_arrival(keys):
            self.press(*keys)

    # --- cursor reports and resizes -----------------------------------------------------------

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


def _open_tty() -> TextIO | None:
    """The controlling terminal for keys when stdin is a pipe; None when there is none."""
    try:
        return open("/dev/tty", encoding="utf-8")  # closed by the ExitStack
    except OSError:
        return None
