"""The sans-I/O Lemon session: Lemon lines in; core inputs and Lemon commands out.

The same shape as the codelia ``Session`` (the client drives either): every
call returns a ``LemonStep``.  Lemon's events are turned into the one
normalized event model (``events``) and rendered by the shared ``Transcript``,
so both dialects stream, finish and print entries the same way.  What is
Lemon's own lives here: there are no run ids (a prompt is a run, from
``prompt`` to ``agent_end``), ``message_update`` carries the *whole* partial
message (seed 001, 2.4.5: it replaces the in-progress one), overlays are
answered with ``ui_response`` (2.2), and a malformed line is one quiet status
line; nothing is ever written back to the runtime about it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ...inputs import NOTIFY_TYPES, ConfirmCancel, EditorSet, Input, Notify, Status, Widget, Working
from ...outputs import Interrupt, Output, PickAnswer, PromptAnswer, Submit
from ..context import UiContext
from ..display import clip, compact_json
from ..events import AgentEvent, ErrorEvent, ToolResultEvent
from ..facts import RunEnded, RunStarted, SessionEvent
from ..messages import excerpt
from ..runs import RunQueries
from ..transcript import Limits, Transcript
from . import codec as w
from .dialogs import FALLBACK, Dialog, answer_result, dialog_input
from .stream import MessageStream, tool_id

__all__ = ["MAX_FIELDS", "LemonConfig", "LemonSession", "LemonStep"]

log = logging.getLogger(__name__)
WORKING = "Working"
# Distinct ui_status / ui_widget keys kept (issue 33, case 8: every key was kept and every update rebuilt the
# status line from all of them, 40,000 keys took 180 s); past the cap the oldest key is dropped.
MAX_FIELDS = 32


@dataclass(frozen=True, slots=True)
class LemonConfig:
    """How much of tool calls/results the log shows; ``probed``: a codelia handshake was sent first."""

    limits: Limits = field(default_factory=Limits)
    probed: bool = False


@dataclass(frozen=True, slots=True)
class LemonStep:
    """The outcome of one call: ``inputs`` for the core, ``send`` (JSON objects) for the runtime.

    ``dialogs``: ids of overlays opened by this step (the client times them);
    ``title``: a terminal title the runtime asked for (the shell sets it, sanitized);
    ``events``: what happened, as the normalized events (``facts``) codelia's ``Step`` carries, for observers
    such as the llm-do modes (a run's start, the agent events of the log, its end).
    """

    inputs: tuple[Input, ...] = ()
    send: tuple[dict[str, Any], ...] = ()
    dialogs: tuple[str, ...] = ()
    title: str | None = None
    events: tuple[SessionEvent, ...] = ()


@dataclass(slots=True)
class _Out:
    inputs: list[Input] = field(default_factory=list)
    send: list[dict[str, Any]] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    title: str | None = None
    events: list[SessionEvent] = field(default_factory=list)

    def step(self) -> LemonStep:
        return LemonStep(tuple(self.inputs), tuple(self.send), tuple(self.dialogs), self.title, tuple(self.events))


@dataclass(slots=True)
class _Run:
    id: str
    status: str = "running"
    started: bool = False  # agent_start seen
    abort_sent: bool = False
    shown_calls: set[str] = field(default_factory=set)  # tool calls already in the log

    @property
    def ended(self) -> bool:
        return self.status in ("completed", "error", "cancelled")


class LemonSession(RunQueries):
    """One UI <-> Lemon runtime conversation, from ``ready`` to ``runtime_exited``."""

    def __init__(self, config: LemonConfig | None = None) -> None:
        self.config = config or LemonConfig()
        self.server: w.LemonReady | None = None  # the runtime's ready line, once it came
        self.exited = False
        self._runs: dict[str, _Run] = {}
        self._current: str | None = None
        self._count = 0
        self._stream = MessageStream()
        self._dialogs: dict[str, Dialog] = {}  # in arrival order: the first is the one on screen
        self._log = Transcript(self.config.limits)
        self._status: dict[str, str] = {"run": "", "model": ""}
        self._status_shown = ""
        self._widgets: dict[str, None] = {}  # widget keys shown, oldest first
        self._working = ""
        self._prompted = False  # a prompt was sent (the probe's error can only come before)

    # --- queries (the codelia Session's) ---------------------------------------------------------

    @property
    def busy(self) -> bool:
        """A prompt was sent and its ``agent_end`` has not come."""
        return self.current_run is not None

    def pending_requests(self) -> dict[str, str]:
        """Lemon commands are not requests: nothing is ever awaited."""
        return {}

    def open_dialogs(self) -> list[str]:
        """Ids of the overlays not answered yet, the one on screen first."""
        return list(self._dialogs)

    # --- UI -> runtime ---------------------------------------------------------------------------

    def initialize(self) -> LemonStep:
        """Nothing to send: a Lemon runtime speaks first (``ready``)."""
        return LemonStep()

    def set_context(self, context: UiContext) -> LemonStep:
        """Lemon has no context message: the runtime knows its cwd (it says so in ``ready``)."""
        return LemonStep()

    def start_run(self, prompt: str, echo: bool = True, meta: dict[str, Any] | None = None) -> LemonStep:
        """``{"type": "prompt", "text": ...}`` (refused while a run is in progress)."""
        out = _Out()
        if self.exited:
            self._line(out, "error", "The runtime is not running.")
        elif self.busy:
            self._line(out, "status", "A run is in progress; press Esc (or /abort) to stop it first.")
        else:
            if echo:
                self._line(out, "user", prompt)
            self._count += 1
            run = _Run(f"lemon-{self._count}")
            self._runs[run.id] = run
            self._current = run.id
            self._prompted = True
            out.events.append(RunStarted(prompt))
            out.send.append({"type": "prompt", "text": prompt})
            self._set_status("run", "running", out)
            self._set_working(WORKING, out)
        return out.step()

    def cancel_run(self) -> LemonStep:
        """``{"type": "abort"}`` for the run in progress; pressing Esc again sends nothing more."""
        out = _Out()
        run = self._runs.get(self.current_run or "")
        if run is not None and not run.abort_sent and not self.exited:
            run.abort_sent = True
            out.send.append({"type": "abort"})
            self._set_working("Aborting", out)
        return out.step()

    def command(self, text: str) -> LemonStep | None:
        """``/abort``, ``/reset``, ``/save``, ``/stats``, ``/ping``, ``/quit``: sent as their ``type`` (4.6)."""
        words = text.split()
        name = words[0].lower().removeprefix("/") if words and words[0].startswith("/") else ""
        if name not in w.COMMANDS:
            return None
        if name == "abort" and self.busy:
            return self.cancel_run()
        out = _Out()
        if self.exited:
            self._line(out, "error", "The runtime is not running.")
        else:
            out.send.append({"type": name})
        return out.step()

    def handle_output(self, output: Output) -> LemonStep:
        """A core output: a prompt, an overlay's answer, Esc/Ctrl-C."""
        if isinstance(output, Submit):
            return self.start_run(output.text, echo=False) if output.text.strip() else LemonStep()
        if isinstance(output, Interrupt):
            if output.key == "c-c" and self._dialogs:
                # Ctrl-C in an overlay cancels the overlay (4.4: result null), not the run.
                return self._close_dialog(next(iter(self._dialogs)), None, None)
            return self.cancel_run()
        if isinstance(output, (PromptAnswer, PickAnswer)):  # every Lemon overlay is a pick or a prompt
            dialog = self._dialogs.get(output.id)
            if dialog is None:
                return LemonStep()  # closed meanwhile (timed out, runtime gone)
            out = _Out()
            del self._dialogs[output.id]
            if not self.exited:
                out.send.append(w.ui_response(dialog.wire_id, answer_result(dialog, output)))
            self._resume_working(out)
            return out.step()
        return LemonStep()

    # --- runtime -> UI ---------------------------------------------------------------------------

    def receive(self, item: w.LemonDecoded) -> LemonStep:
        """Handle one decoded stdout line of the runtime."""
        out = _Out()
        try:
            self._dispatch(item, out)
        except Exception as exc:  # last line of defence: the UI never dies of its runtime
            self._line(out, "status", f"Ignored a bad Lemon message ({excerpt(exc, 120)})")
        return out.step()

    def stderr_line(self, text: str) -> LemonStep:
        """A line the runtime wrote to stderr: a status line."""
        out = _Out()
        if text.strip():
            self._line(out, "status", text.rstrip())
        return out.step()

    def request_timed_out(self, request_id: Any, seconds: float) -> LemonStep:
        """Never called: Lemon commands await no answer."""
        return LemonStep()

    def dialog_timed_out(self, dialog_id: str, seconds: float) -> LemonStep:
        """Nobody answered overlay ``dialog_id`` in time: close it, answer 2.1's fallback (null / false)."""
        dialog = self._dialogs.get(dialog_id)
        if dialog is None:
            return LemonStep()
        step = self._close_dialog(dialog_id, FALLBACK[dialog.method], None)
        shown = "false" if FALLBACK[dialog.method] is False else "nothing"
        line = f"No answer to {excerpt(dialog.title or dialog.method, 60)} within {seconds:g} s: answered {shown}."
        return LemonStep((*step.inputs, *self._log.note("status", line)), step.send)

    def runtime_exited(self, returncode: int | None, expected: bool = False) -> LemonStep:
        """The runtime is gone: end its run with an error line and close its overlays."""
        out = _Out()
        if self.exited:
            return out.step()
        self.exited = True
        how = "The runtime exited" + ("" if returncode is None else f" (exit code {returncode})")
        run = self._runs.get(self.current_run or "")
        if run is not None:
            self._end_run(run, "error", out, ("error", f"{how} during the run."))
        elif not expected:
            self._line(out, "error" if returncode else "status", f"{how}.")
        out.inputs += [ConfirmCancel(dialog_id) for dialog_id in self._dialogs]
        self._dialogs.clear()
        self._set_working("", out)
        return out.step()

    # --- dispatch --------------------------------------------------------------------------------

    def _dispatch(self, item: w.LemonDecoded, out: _Out) -> None:
        if isinstance(item, w.LemonBad):
            self._line(out, "status", f"Ignored a malformed line from the runtime ({item.reason})")
        elif isinstance(item, w.LemonReady):
            self._on_ready(item, out)
        elif isinstance(item, w.LemonEvent):
            self._on_event(item, out)
        elif isinstance(item, w.LemonUiRequest):
            self._on_ui_request(item, out)
        elif isinstance(item, w.LemonSignal):
            self._on_signal(item, out)
        elif isinstance(item, w.LemonStats):
            self._line(out, "status", f"stats: {clip(compact_json(item.stats), 400)}")
        elif isinstance(item, w.LemonPong):
            self._line(out, "status", "pong")
        elif isinstance(item, w.LemonError):
            self._on_error(item, out)
        elif item.type:
            log.debug("ignored Lemon message of type %r", item.type)  # debug, a newer runtime's: quiet

    def _on_ready(self, ready: w.LemonReady, out: _Out) -> None:
        first = self.server is None
        self.server = ready
        if first:
            where = f" in {ready.cwd}" if ready.cwd else ""
            model = f" \u00b7 model {ready.model}" if ready.model else ""
            self._line(out, "status", f"Lemon runtime ready{where}{model}")
        self._set_status("model", ready.model, out)

    def _on_error(self, error: w.LemonError, out: _Out) -> None:
        if self.config.probed and not self._prompted:
            # The codelia handshake sent before the runtime was recognised: not the user's concern.
            said = excerpt(error.message, 80)
            self._line(out, "status", f"The runtime speaks Lemon's protocol (it answered our handshake: {said})")
            return
        run = self._runs.get(self.current_run or "")
        if run is not None and not run.started:
            self._end_run(run, "error", out, ("error", f"The runtime refused the prompt: {error.message}"))
        else:
            self._line(out, "error", error.message)

    def _on_event(self, event: w.LemonEvent, out: _Out) -> None:
        kind, data = event.kind, event.data
        run = self._runs.get(self.current_run or "")
        if run is None:
            if kind == "agent_start":
                run = self._run_of_runtime(out)  # the runtime started work itself
            else:  # late events of a run that ended (after an abort): rendered, nothing revived
                orphan = _Run("lemon-0", "completed")
                run = self._runs.get(self._current or "") or self._runs.setdefault(orphan.id, orphan)
        try:
            if kind == "agent_start":
                run.started = True
                self._set_working(WORKING, out)
            elif kind == "agent_end":
                self._finish_message(out)
                if not run.ended:
                    self._end_run(run, "cancelled" if run.abort_sent else "completed", out, None)
            elif kind in ("message_start", "message_update"):
                self._on_message(run, data[0], final=False, start=kind == "message_start", out=out)
            elif kind == "message_end":
                self._on_message(run, data[0], final=True, start=False, out=out)
            elif kind == "tool_execution_start":
                self._tool_call(run, data[0], data[1], data[2], out)
                self._set_working(f"Running {excerpt(data[1], 40)}", out)
            elif kind == "tool_execution_update":
                self._set_working(_progress(data[1], w.result_text(data[3])), out)
            elif kind == "tool_execution_end":
                self._tool_call(run, data[0], data[1], None, out)
                result = ToolResultEvent(str(data[1]), tool_id(data[0]), w.result_text(data[2]), data[3] is True)
                self._events(run, [result], out)
                self._set_working(WORKING, out)
            elif kind == "error":
                self._finish_message(out)
                self._events(run, [ErrorEvent(w.reason_text(data[0]))], out)
            else:  # turn_start / turn_end (the tool results came one by one), a newer runtime's event
                log.debug("Lemon event %r", kind)
        except (IndexError, ValueError, TypeError) as exc:
            why = "its data array is too short" if isinstance(exc, IndexError) else str(exc)
            self._line(out, "status", f"Ignored a malformed {excerpt(kind, 40)} event from the runtime ({why})")

    def _on_message(self, run: _Run, message: Any, *, final: bool, start: bool, out: _Out) -> None:
        events, working = self._stream.update(message, run.shown_calls, final=final, start=start)
        if working:
            self._set_working(working, out)
        self._events(run, events, out)

    def _finish_message(self, out: _Out) -> None:
        run = self._runs.get(self._current or "")
        self._events(run, self._stream.finish(run.shown_calls if run is not None else set()), out)

    def _tool_call(self, run: _Run, call_id: Any, name: Any, args: Any, out: _Out) -> None:
        self._events(run, self._stream.tool_call(run.shown_calls, call_id, name, args), out)

    def _events(self, run: _Run | None, events: list[AgentEvent], out: _Out) -> None:
        for event in events:
            out.inputs += self._log.event(run.id if run is not None else "lemon-0", event, legacy=False)
        if run is not None and not run.ended:  # a run's own events (late ones of an ended run are only shown)
            out.events += events

    # --- overlays and signals --------------------------------------------------------------------

    def _on_ui_request(self, request: w.LemonUiRequest, out: _Out) -> None:
        dialog_id = f"lemon:{request.id}"
        if dialog_id in self._dialogs:
            self._line(out, "status", f"Ignored a second ui_request with id {excerpt(request.id)} (one is open).")
            return
        try:
            dialog, item = dialog_input(dialog_id, request)
        except ValueError as exc:  # 2.2: answered with an error, so the runtime is not left waiting
            out.send.append(w.ui_response(request.id, None, f"{excerpt(request.method, 40)}: {exc}"))
            return
        self._dialogs[dialog_id] = dialog
        out.inputs += [*self._log.finish_stream(), item]
        out.dialogs.append(dialog_id)
        self._set_working("", out)  # the agent waits for the user, not the other way round

    def _close_dialog(self, dialog_id: str, result: Any, error: str | None) -> LemonStep:
        dialog = self._dialogs.pop(dialog_id)
        out = _Out(inputs=[ConfirmCancel(dialog_id)])
        if not self.exited:
            out.send.append(w.ui_response(dialog.wire_id, result, error))
        self._resume_working(out)
        return out.step()

    def _resume_working(self, out: _Out) -> None:
        """The last overlay answered during a run: the spinner comes back."""
        if self.busy and not self._dialogs:
            self._set_working(WORKING, out)

    def _on_signal(self, signal: w.LemonSignal, out: _Out) -> None:
        params, kind = signal.params, signal.kind
        if kind == "notify":
            notify_type = params.get("notify_type")
            level = notify_type if notify_type in NOTIFY_TYPES else "info"
            out.inputs += [*self._log.finish_stream(), Notify(params["message"], level)]
        elif kind == "status":
            key = params["key"]
            if key in ("run", "model") or key not in self._status or params["text"]:
                self._set_status(key, params["text"], out)
            else:
                self._set_status(key, "", out)
                del self._status[key]  # an empty text removes the field
        elif kind == "working":
            self._set_working(params["message"], out)
        elif kind == "set_editor_text":
            out.inputs.append(EditorSet(params["text"]))
        elif kind == "set_title":
            out.title = params["title"]
        else:  # widget: opts is a map (2.3); its placement names the side of the composer
            opts = params.get("opts") or {}
            where = opts.get("placement", opts.get("position")) if isinstance(opts, dict) else None
            below = isinstance(where, str) and where.lower().replace("_", "").startswith("below")
            self._widget(Widget(params["key"], params["content"], below), out)

    # --- helpers ---------------------------------------------------------------------------------

    def _run_of_runtime(self, out: _Out) -> _Run:
        self._count += 1
        run = _Run(f"lemon-{self._count}")
        self._runs[run.id] = run
        self._current = run.id
        self._set_status("run", "running", out)
        return run

    def _end_run(self, run: _Run, status: str, out: _Out, line: tuple[str, str] | None) -> None:
        run.status = status
        out.events.append(RunEnded(run.id, status, line[1] if line is not None else ""))
        out.inputs += self._log.finish_stream(run.id)
        self._set_working("", out)
        if line is not None:
            self._line(out, *line)
        if status == "cancelled":
            self._line(out, "status", "Run aborted.")
        self._set_status("run", {"completed": "done", "error": "failed", "cancelled": "aborted"}[status], out)

    def _line(self, out: _Out, kind: str, text: str) -> None:
        out.inputs += self._log.note(kind, text)

    def _set_working(self, message: str, out: _Out) -> None:
        if message != self._working:
            self._working = message
            out.inputs.append(Working(message))

    def _widget(self, widget: Widget, out: _Out) -> None:
        self._widgets.pop(widget.key, None)
        if widget.text:
            self._widgets[widget.key] = None
            while len(self._widgets) > MAX_FIELDS:  # the oldest widget goes (an empty content removes it)
                oldest = next(iter(self._widgets))
                del self._widgets[oldest]
                out.inputs.append(Widget(oldest, ""))
        out.inputs.append(widget)

    def _set_status(self, key: str, text: str, out: _Out) -> None:
        if key not in self._status and len(self._status) >= MAX_FIELDS + 2:  # (+2: our run and model fields)
            del self._status[next(k for k in self._status if k not in ("run", "model"))]  # the oldest field goes
        self._status[key] = " ".join(text.split())  # one line
        shown = " \u00b7 ".join(value for value in self._status.values() if value)
        if shown != self._status_shown:
            self._status_shown = shown
            out.inputs.append(Status(shown))


def _progress(name: Any, partial: Any) -> str:
    """The spinner's text while a tool runs: its name and the last line of its partial output."""
    text = partial if isinstance(partial, str) else ""
    last = text.strip().splitlines()[-1] if text.strip() else ""
    return f"Running {excerpt(name, 40)}" + (f": {excerpt(last, 60)}" if last else "")
