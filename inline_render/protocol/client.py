"""The asyncio stdio client: the thin I/O shell around ``Session``.

It spawns the runtime command, writes the session's messages to its stdin,
decodes its stdout, turns its stderr lines into status lines, measures request
timeouts, and hands every batch of core inputs to a callback::

    renderer = ...                                   # the core, e.g. Renderer.in_memory(80, 24)
    client = RuntimeClient(["my-runtime", "--stdio"], on_inputs=renderer.feed)
    await client.start()                             # spawn + initialize
    client.submit("Fix the greeting")                # run.start
    ...                                              # keys go to the renderer as usual
    client.handle_output(output)                     # outputs of renderer.feed for key input
    await client.close()

Whatever the callback returns (the core's outputs: a dialog's answer, a
submitted prompt, an interrupt) is handled as if passed to ``handle_output``,
so ``on_inputs=renderer.feed`` closes the loop.  All decisions are the
session's; this module only moves bytes and keeps time.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal

from ..inputs import Input, LogAppend
from ..outputs import Output
from .codec import DEFAULT_MAX_LINE_BYTES, LineSplitter, decode_split, encode
from .codelia.methods import InitializeResult
from .codelia.session import Session, SessionConfig, Step
from .context import UiContext
from .facts import SessionEvent
from .lemon.codec import LemonReady, decode_lemon_line, encode_command, is_lemon_ready
from .lemon.session import LemonConfig, LemonSession, LemonStep
from .messages import Decoded, ErrorResponse, Message, Request, RequestId, Response, excerpt
from .stdin_writer import StdinWriter

__all__ = ["PROTOCOLS", "ClientConfig", "EventSink", "InputSink", "Protocol", "RuntimeClient", "workspace_context"]

InputSink = Callable[[list[Input]], Iterable[Output] | None]
EventSink = Callable[[list[SessionEvent]], None]
Protocol = Literal["auto", "codelia", "lemon"]
PROTOCOLS: tuple[Protocol, ...] = ("auto", "codelia", "lemon")
_READ_SIZE = 16 * 1024  # one chunk's messages are handled without a pause: keep it a few milliseconds
_BACKLOG_POLL = 0.002  # seconds between looks at a UI that is behind
# Shares of ``shutdown_timeout``: the runtime's own exit after EOF, then after SIGTERM, then after SIGKILL.
_EOF_SHARE, _TERM_SHARE, _KILL_SHARE = 2 / 3, 1 / 6, 1 / 6
_PIPES_MIN = 0.05  # seconds the pipes' readers get after the runtime is gone, even past the deadline
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """Process and timing settings (the protocol ones are in ``session``)."""

    session: SessionConfig = field(default_factory=SessionConfig)
    request_timeout: float = 30.0  # seconds for the runtime to answer initialize/run.start/run.cancel
    # Seconds the whole shutdown takes at most (issue 33: a quit ends the runtime within 1 s whatever it does):
    # two thirds for the runtime to exit after its stdin closes, then SIGTERM and a sixth, then SIGKILL.
    shutdown_timeout: float = 0.6
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    cwd: str | None = None
    env: Mapping[str, str] | None = None
    context_debounce: float = 0.3  # seconds a working-directory change waits before ui.context.update
    # The wire dialect: codelia's JSON-RPC (seed 004), Lemon's JSON lines (seed 001), or auto: codelia,
    # unless the runtime's first line is Lemon's ``{"type": "ready", ...}``.
    protocol: Protocol = "auto"
    ui_request_timeout: float | None = 25.0  # seconds a Lemon overlay waits; then 2.1's fallback answers it


class RuntimeClient:
    """One runtime child process speaking the protocol on stdin/stdout."""

    def __init__(
        self,
        command: Sequence[str],
        on_inputs: InputSink,
        config: ClientConfig | None = None,
        on_events: EventSink | None = None,
        on_title: Callable[[str], None] | None = None,
        backlog: Callable[[], bool] | None = None,
    ) -> None:
        self.command = list(command)
        self.config = config or ClientConfig()
        self.session: Session | LemonSession = (
            LemonSession(self._lemon_config(False)) if self.config.protocol == "lemon" else Session(self.config.session)
        )
        self._on_inputs = on_inputs
        self._on_events = on_events  # the session's normalized events (``facts``), before their inputs
        self._on_title = on_title  # a Lemon runtime's ui_set_title (the shell sanitizes and restores it)
        self._detecting = self.config.protocol == "auto"  # the first stdout line decides
        self._dialog_timers: list[asyncio.TimerHandle] = []
        self._backlog = backlog  # true while the UI is behind: read no more runtime output for now
        self._proc: asyncio.subprocess.Process | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._timers: dict[RequestId, asyncio.TimerHandle] = {}
        self._closing = False
        self._changed = asyncio.Event()
        self._stdin: StdinWriter | None = None
        self._context_timer: asyncio.TimerHandle | None = None
        self._dropping = False  # closing while the UI is behind: the runtime's output is read and dropped
        self.failure: str | None = None
        """Why a reader of the runtime failed (the runtime was stopped and its run ended with an error)."""

    @property
    def returncode(self) -> int | None:
        """The runtime's exit status once it has exited."""
        return self._proc.returncode if self._proc is not None else None

    async def __aenter__(self) -> RuntimeClient:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def protocol(self) -> Protocol:
        """The dialect spoken (``auto`` until the first line came)."""
        return "lemon" if isinstance(self.session, LemonSession) else "auto" if self._detecting else "codelia"

    async def start(self) -> InitializeResult | LemonReady | None:
        """Spawn the runtime and ``initialize`` (Lemon: wait for ``ready``); None if it failed or did not answer."""
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=self.config.cwd,
                env=dict(self.config.env) if self.config.env is not None else None,
            )
        except OSError as exc:
            line = LogAppend("error", f"Could not start the runtime {self.command[:1]}: {exc}")
            self._apply(Step(inputs=(line,)))
            self._apply(self.session.runtime_exited(None, expected=True))
            return None
        assert self._proc.stdin is not None
        self._stdin = StdinWriter(self._proc.stdin, lambda text: self._apply(Step(inputs=(LogAppend("status", text),))))
        self._tasks = [asyncio.create_task(self._read_stdout()), asyncio.create_task(self._read_stderr())]
        if isinstance(self.session, LemonSession):
            session = self.session
            await self._wait_for(lambda: session.server is not None, self.config.request_timeout)
            return session.server
        step = self.session.initialize()
        request_id = next(m.id for m in step.send if isinstance(m, Request))
        self._apply(step)
        # Where the user works: sent as ui.context.update as soon as initialize is answered.
        self._apply(self.session.set_context(workspace_context(self.config.cwd or os.getcwd())))
        await self._wait_for(lambda: request_id not in self.session.pending_requests())
        return self.session.server

    def _lemon_config(self, probed: bool) -> LemonConfig:
        return LemonConfig(limits=self.config.session.limits, probed=probed)

    def submit(self, prompt: str) -> None:
        """Start a run with ``prompt`` typed elsewhere than the composer (it is logged as 'user')."""
        self._apply(self.session.start_run(prompt))

    def cancel(self) -> None:
        """Cancel the run in progress (``run.cancel``; repeated calls send nothing more)."""
        self._apply(self.session.cancel_run())

    def set_cwd(self, cwd: str) -> None:
        """The user's working directory changed: ``ui.context.update``, debounced (many changes, one message)."""
        if self._context_timer is not None:
            self._context_timer.cancel()
        self._context_timer = asyncio.get_running_loop().call_later(
            self.config.context_debounce, lambda: self._apply(self.session.set_context(workspace_context(cwd)))
        )

    def run_command(self, text: str) -> bool:
        """Run a slash command that talks to the runtime (``/resume``, ``/model``, ...); False if ``text`` is none."""
        step = self.session.command(text)
        if step is None:
            return False
        self._apply(step)
        return True

    def handle_output(self, output: Output) -> None:
        """Pass on one output of the core: a dialog's answer, a submitted prompt, an interrupt."""
        self._apply(self.session.handle_output(output))

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no run is starting or in progress; False on timeout."""
        return await self._wait_for(lambda: not self.session.busy, timeout)

    async def close(self) -> int | None:
        """Shut the runtime down: close its stdin, wait, then terminate, then kill.

        A cancel that arrives meanwhile (an app that exits cancels its ``main``, which may be closing the
        client already) does not stop the shutdown half-way: the runtime is still stopped and reaped (all of
        it within ``shutdown_timeout``: stdin's EOF, SIGTERM, SIGKILL, then the readers of its pipes, which a
        process it started may hold open), then the cancel goes on.  A second cancel cuts it short.  A
        runtime flooding a UI that is behind is not left blocked on a full pipe: its output is read and
        dropped from now on, so it sees the EOF and can exit.
        """
        proc = self._proc
        if proc is None:
            return None
        self._closing = True
        shutdown = asyncio.ensure_future(self._shutdown(proc))
        try:
            return await asyncio.shield(shutdown)
        except asyncio.CancelledError:
            await shutdown
            raise

    async def _shutdown(self, proc: asyncio.subprocess.Process) -> int | None:
        loop = asyncio.get_running_loop()
        total = self.config.shutdown_timeout
        deadline = loop.time() + total
        if proc.returncode is None:
            if proc.stdin is not None:
                proc.stdin.close()  # EOF on stdin asks the runtime to exit
            for stop, share in ((None, _EOF_SHARE), (proc.terminate, _TERM_SHARE), (proc.kill, _KILL_SHARE)):
                if stop is not None:
                    with contextlib.suppress(ProcessLookupError):
                        stop()
                try:
                    await asyncio.wait_for(proc.wait(), total * share)
                    break
                except TimeoutError:
                    continue
        readers = [task for task in self._tasks if not task.done()]
        stuck: set[asyncio.Task[None]] = set()
        if readers:
            _, stuck = await asyncio.wait(readers, timeout=max(_PIPES_MIN, deadline - loop.time()))
        # A process the runtime started may hold its pipes open after it exited: they are read no longer, and
        # closed (``Process`` does not expose its transport, whose ``close`` is public API; without it the
        # transport is collected later, after the loop closed, with an 'Event loop is closed' error).
        for task in stuck:
            task.cancel()
        await asyncio.gather(*stuck, return_exceptions=True)
        transport = getattr(proc, "_transport", None)
        if stuck and isinstance(transport, asyncio.SubprocessTransport):
            transport.close()
        if stuck and not self.session.exited:
            self._apply(self.session.runtime_exited(proc.returncode, expected=True))
        await asyncio.gather(*(task for task in self._tasks if task not in stuck))
        for timer in [*self._timers.values(), *self._dialog_timers]:
            timer.cancel()
        self._timers.clear()
        self._dialog_timers.clear()
        if self._context_timer is not None:
            self._context_timer.cancel()
        return proc.returncode

    # --- internals ---------------------------------------------------------------------------

    async def _wait_for(self, done: Callable[[], bool], timeout: float | None = None) -> bool:
        async def until_done() -> None:
            while not done() and not self.session.exited:
                await self._changed.wait()

        try:
            await asyncio.wait_for(until_done(), timeout)
        except TimeoutError:
            return False
        return done()

    def _apply(self, step: Step | LemonStep) -> None:
        """Send a step's messages, feed its inputs, and handle the outputs the callback returns."""
        steps: deque[Step | LemonStep] = deque([step])
        while steps:
            current = steps.popleft()
            for message in current.send:
                self._write(message)
            if current.events and self._on_events is not None:
                self._on_events(list(current.events))
            if isinstance(current, LemonStep):
                self._lemon_effects(current)
            if current.inputs:
                for output in self._on_inputs(list(current.inputs)) or ():
                    steps.append(self.session.handle_output(output))
        # Wake every waiter; they re-check their condition against the session.
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def _lemon_effects(self, step: LemonStep) -> None:
        """A Lemon step's timed overlays (2.1's timeout) and its terminal title."""
        timeout = self.config.ui_request_timeout
        if timeout is not None:
            loop = asyncio.get_running_loop()
            for dialog_id in step.dialogs:
                self._dialog_timers.append(loop.call_later(timeout, self._dialog_timed_out, dialog_id, timeout))
        if step.title is not None and self._on_title is not None:
            self._on_title(step.title)

    def _dialog_timed_out(self, dialog_id: str, seconds: float) -> None:
        if isinstance(self.session, LemonSession):
            self._apply(self.session.dialog_timed_out(dialog_id, seconds))

    def _write(self, message: Message | dict[str, Any]) -> None:
        if self._stdin is None or self._stdin.closed:
            return  # the runtime is gone: its exit is reported by the stdout reader
        if isinstance(message, dict):  # a Lemon command
            self._stdin.write(encode_command(message))
            return
        self._stdin.write(encode(message))  # bounded: a runtime that does not read is reported once
        if isinstance(message, Request):
            timeout = self.config.request_timeout
            self._timers[message.id] = asyncio.get_running_loop().call_later(
                timeout, functools.partial(self._timed_out, message.id, timeout)
            )

    def _timed_out(self, request_id: RequestId, seconds: float) -> None:
        self._timers.pop(request_id, None)
        self._apply(self.session.request_timed_out(request_id, seconds))

    def _receive(self, item: Decoded) -> None:
        if isinstance(item, (Response, ErrorResponse)) and item.id is not None:
            timer = self._timers.pop(item.id, None)
            if timer is not None:
                timer.cancel()
        if isinstance(self.session, Session):
            self._apply(self.session.receive(item))

    def _line(self, line_no: int, line: bytes | None) -> None:
        """One stdout line, in the dialect spoken (the first line of ``auto`` decides which)."""
        if self._detecting:
            self._detecting = False
            if is_lemon_ready(line):
                # Lemon speaks first: drop the codelia handshake (its timer) and speak Lemon from now on.
                for timer in self._timers.values():
                    timer.cancel()
                self._timers.clear()
                self.session = LemonSession(self._lemon_config(True))
        if isinstance(self.session, LemonSession):
            self._apply(self.session.receive(decode_lemon_line(line)))
        else:
            self._receive(decode_split(line_no, line, self.config.max_line_bytes))

    def _behind(self) -> bool:
        return self._backlog is not None and self._backlog()

    async def _read_stdout(self) -> None:
        try:
            await self._read_stdout_lines()
        except Exception as exc:  # a bug or a callback's failure: never a reader that dies silently
            await self._reader_failed("output", exc)

    async def _read_stdout_lines(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        lines = LineSplitter(self.config.max_line_bytes)
        while data := await self._proc.stdout.read(_READ_SIZE):
            # Closing while the UI is behind (a quit under a flood): nobody will draw this any more, and a
            # runtime blocked on its full pipe would never see its stdin's EOF.  Dropped from here to the end.
            self._dropping = self._dropping or (self._closing and self._behind())
            if self._dropping:
                continue
            for line_no, line in lines.feed(data):
                self._line(line_no, line)
            if self._stdin is not None:
                await self._stdin.wait_writable()  # backpressure: read no more while it does not read our answers
            # ``read`` returns at once while the runtime floods (its data is buffered already): let the loop
            # run between chunks, so a key or a tick never waits behind more than one chunk of output;
            # and while the UI is behind (``backlog``), read no more: the flood waits in the pipe.
            await asyncio.sleep(0)
            while self._behind() and not self._closing:
                await asyncio.sleep(_BACKLOG_POLL)
        if not self._dropping:
            for line_no, line in lines.close():
                self._line(line_no, line)
        returncode = await self._proc.wait()
        # Let stderr's last lines (often the reason of a crash) show before the exit line.
        await asyncio.wait(self._tasks[1:], timeout=self.config.shutdown_timeout)
        self._apply(self.session.runtime_exited(returncode, expected=self._closing))

    async def _read_stderr(self) -> None:
        assert self._proc is not None and self._proc.stderr is not None
        lines = LineSplitter(self.config.max_line_bytes)
        try:
            while data := await self._proc.stderr.read(_READ_SIZE):
                self._stderr_lines(lines.feed(data))
            self._stderr_lines(lines.close())
        except Exception as exc:
            await self._reader_failed("stderr", exc)

    async def _reader_failed(self, stream: str, exc: Exception) -> None:
        """A reader of the runtime failed: say so, stop the runtime (nobody reads it now), end its run with an error.

        Seen once: a writer of the llm-do modes raised RecursionError inside ``on_events``, the reader task died
        with it, nothing after that line was read and the run never ended.
        """
        log.error("reading the runtime's %s failed", stream, exc_info=exc)
        first = self.failure is None
        if first:
            self.failure = f"{type(exc).__name__}: {excerpt(str(exc), 200)}"
        proc = self._proc
        with contextlib.suppress(ProcessLookupError):
            if proc is not None and proc.returncode is None:
                proc.kill()  # its output can no longer be read: it must not block on a full pipe, nor run on
        returncode = await proc.wait() if proc is not None else None
        if not first:
            return
        message = f"The UI failed while reading the runtime's {stream} ({self.failure}); the runtime was stopped."
        for step in (Step(inputs=(LogAppend("error", message),)), self.session.runtime_exited(returncode)):
            try:
                self._apply(step)
            except Exception as again:  # the callback failing again: the log has it, the run is over anyway
                log.error("reporting the failure failed too", exc_info=again)

    def _stderr_lines(self, lines: list[tuple[int, bytes | None]]) -> None:
        for _, line in lines:
            text = "(an overlong stderr line was discarded)" if line is None else line.decode("utf-8", "replace")
            self._apply(self.session.stderr_line(text))


def workspace_context(cwd: str) -> UiContext:
    """``cwd`` and its workspace root: the nearest directory above it holding ``.git`` (else ``cwd`` itself)."""
    cwd = os.path.abspath(cwd)
    root = cwd
    while not os.path.exists(os.path.join(root, ".git")):
        parent = os.path.dirname(root)
        if parent == root:
            root = cwd
            break
        root = parent
    return UiContext(cwd=cwd, workspace_root=root)
