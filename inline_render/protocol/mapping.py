"""The sans-I/O session: runtime messages in; core inputs and messages to send back out.

``Session`` knows nothing of pipes, processes or clocks.  Every method returns
a ``Step``: the inputs to feed to the core renderer and the JSON-RPC messages
to write to the runtime.  The same calls in the same order always give the same
steps, so a recorded session replays exactly.  Bad input never raises: it earns
a JSON-RPC error response where one is owed, otherwise one visible status line,
and later messages are processed as usual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput
from ..inputs import (
    NOTIFY_TYPES,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Input,
    Notify,
    PickRequest,
    PromptRequest,
    Status,
    Working,
)
from ..outputs import ConfirmAnswer, Interrupt, Output, PickAnswer, PromptAnswer, Submit
from . import methods as m
from .events import UnknownEvent
from .jsonobj import JsonObject
from .legacy import LegacyPreflight
from .messages import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    Decoded,
    ErrorInfo,
    ErrorResponse,
    Malformed,
    Message,
    Notification,
    Request,
    RequestId,
    Response,
    TextLine,
    excerpt,
)
from .transcript import Limits, Transcript

__all__ = ["WORKING", "Session", "SessionConfig", "Step"]

WORKING = "Working"  # the spinner message while a run is going and the runtime said nothing better
DEFAULT_CLIENT = m.PeerInfo(name="inline_render", version="0.1.0")
_DIALOG_METHODS = (m.UI_CONFIRM, m.UI_PROMPT, m.UI_PICK)
_DISMISSED: dict[str, JsonObject] = {  # the answer of a dialog closed without the user answering
    m.UI_CONFIRM: m.ConfirmResult(ok=False),
    m.UI_PROMPT: m.PromptResult(value=None),
    m.UI_PICK: m.PickResult(ids=()),
}
_RUN_LABELS = {
    "running": "running",
    "awaiting_ui": "waiting for you",
    "completed": "done",
    "error": "failed",
    "cancelled": "cancelled",
}


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """What this UI announces in ``initialize``, and how much of tool calls/results the log shows."""

    client: m.PeerInfo = DEFAULT_CLIENT
    supports_permission_preflight_events: bool = True
    supports_confirm: bool = True
    supports_prompt: bool = True
    supports_pick: bool = True
    limits: Limits = field(default_factory=Limits)

    def capabilities(self) -> m.Capabilities:
        """The ``ui_capabilities`` of ``initialize``."""
        return m.Capabilities(
            supports_permission_preflight_events=self.supports_permission_preflight_events,
            supports_confirm=self.supports_confirm,
            supports_prompt=self.supports_prompt,
            supports_pick=self.supports_pick,
            supports_run_cancel=True,
        )


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of one session call: ``inputs`` for the core, ``send`` for the runtime."""

    inputs: tuple[Input, ...] = ()
    send: tuple[Message, ...] = ()


@dataclass(slots=True)
class _Run:
    id: str
    status: str = "running"
    last_seq: int | None = None
    gap_reported: bool = False
    cancel_sent: bool = False

    @property
    def ended(self) -> bool:
        return self.status in m.TERMINAL_STATUSES


@dataclass(frozen=True, slots=True)
class _Dialog:
    rpc_id: RequestId
    method: str
    run_id: str | None


@dataclass(slots=True)
class _Out:
    inputs: list[Input] = field(default_factory=list)
    send: list[Message] = field(default_factory=list)

    def step(self) -> Step:
        return Step(tuple(self.inputs), tuple(self.send))


class Session:
    """One UI <-> runtime conversation, from ``initialize`` to ``runtime_exited``."""

    def __init__(self, config: SessionConfig | None = None) -> None:
        self.config = config or SessionConfig()
        self.server: m.InitializeResult | None = None  # the runtime's initialize answer, once it came
        self.exited = False
        self._next_id = 1
        self._outgoing: dict[RequestId, tuple[str, str | None]] = {}  # id -> (method, run_id)
        self._timed_out: set[RequestId] = set()
        self._runs: dict[str, _Run] = {}
        self._current: str | None = None
        self._starting: RequestId | None = None  # run.start sent, not answered yet
        self._cancel_on_start = False
        self._dialogs: dict[str, _Dialog] = {}
        self._log = Transcript(self.config.limits)
        self._legacy = LegacyPreflight()
        self._reported: set[str] = set()
        self._status_parts = {"run": "", "context": ""}
        self._status_shown = ""
        self._working = ""

    # --- queries ---------------------------------------------------------------------------------

    @property
    def structured_preflight(self) -> bool:
        """Both sides announced ``supports_permission_preflight_events``: legacy text is not parsed."""
        return (
            self.config.supports_permission_preflight_events
            and self.server is not None
            and self.server.server_capabilities.supports_permission_preflight_events
        )

    @property
    def current_run(self) -> str | None:
        """The id of the run in progress, if any."""
        run = self._runs.get(self._current) if self._current is not None else None
        return run.id if run is not None and not run.ended else None

    @property
    def busy(self) -> bool:
        """A run is starting or in progress."""
        return self._starting is not None or self.current_run is not None

    def run_status(self, run_id: str) -> str | None:
        """The last ``run.status`` of ``run_id`` (None if unknown)."""
        run = self._runs.get(run_id)
        return run.status if run is not None else None

    def pending_requests(self) -> dict[RequestId, str]:
        """Requests sent to the runtime and not answered yet: id -> method."""
        return {rid: method for rid, (method, _) in self._outgoing.items()}

    # --- UI -> runtime ---------------------------------------------------------------------------

    def initialize(self) -> Step:
        """The ``initialize`` request that opens the session."""
        out = _Out()
        self._request(
            m.INITIALIZE, m.InitializeParams(m.PROTOCOL_VERSION, self.config.client, self.config.capabilities()), out
        )
        return out.step()

    def start_run(self, prompt: str, echo: bool = True) -> Step:
        """Start a run with ``prompt`` (refused while another run is in progress).

        ``echo`` logs the prompt as a 'user' entry; a ``Submit`` from the core
        does not need it, the core logged the composer's text itself.
        """
        out = _Out()
        if self.exited:
            self._line(out, "error", "The runtime is not running.")
        elif self.busy:
            self._line(out, "status", "A run is in progress; press Esc to cancel it first.")
        else:
            if echo:
                self._line(out, "user", prompt)
            self._starting = self._request(m.RUN_START, m.RunStartParams(prompt), out)
            self._set_working(WORKING, out)
        return out.step()

    def cancel_run(self) -> Step:
        """Ask the runtime to cancel the run in progress; calling it again does nothing."""
        out = _Out()
        if self._starting is not None:
            if not self._cancel_on_start:
                self._cancel_on_start = True  # sent as soon as the runtime names the run
                self._set_working("Cancelling", out)
        elif (run_id := self.current_run) is not None:
            self._cancel(self._runs[run_id], out)
        return out.step()

    def handle_output(self, output: Output) -> Step:
        """What a core output means for the runtime: a run, a dialog's answer, a cancel."""
        if isinstance(output, Submit):
            return self.start_run(output.text, echo=False) if output.text.strip() else Step()
        if isinstance(output, Interrupt):
            return self.cancel_run()
        if isinstance(output, ConfirmAnswer):
            return self._answer(output.id, m.ConfirmResult(output.ok, output.remember, output.reason))
        if isinstance(output, PromptAnswer):
            return self._answer(output.id, m.PromptResult(output.value))
        if isinstance(output, PickAnswer):
            return self._answer(output.id, m.PickResult(tuple(output.ids)))
        return Step()  # Quit: ending the session is the client's business

    # --- runtime -> UI ---------------------------------------------------------------------------

    def receive(self, item: Decoded) -> Step:
        """Handle one decoded stdout line of the runtime."""
        out = _Out()
        try:
            if not isinstance(item, TextLine):  # a message ends a legacy diff block
                out.inputs += self._log.legacy(self._legacy.flush(), self.current_run)
            self._dispatch(item, out)
        except Exception as exc:  # last line of defence: the UI never dies of its runtime
            self._line(out, "status", f"Internal error while handling a runtime message: {excerpt(exc)}")
        return out.step()

    def stderr_line(self, text: str) -> Step:
        """A line the runtime wrote to stderr: shown as a status line."""
        out = _Out()
        if text.strip():
            self._line(out, "status", text.rstrip())
        return out.step()

    def request_timed_out(self, request_id: RequestId, seconds: float) -> Step:
        """The runtime did not answer ``request_id`` in time (the client measures the time)."""
        out = _Out()
        pending = self._outgoing.pop(request_id, None)
        if pending is not None:
            self._timed_out.add(request_id)  # so a late answer is dropped quietly
            method, run_id = pending
            if request_id == self._starting:
                self._starting, self._cancel_on_start = None, False
                self._set_working("", out)
            elif method == m.RUN_CANCEL and run_id in self._runs:
                self._runs[run_id].cancel_sent = False  # pressing Esc again retries
            self._line(out, "error", f"The runtime did not answer {method} within {seconds:g} s.")
        return out.step()

    def runtime_exited(self, returncode: int | None, expected: bool = False) -> Step:
        """The runtime process is gone: end its runs with an error line and close its dialogs."""
        out = _Out()
        out.inputs += self._log.legacy(self._legacy.flush(), self.current_run)
        if self.exited:
            return out.step()
        self.exited = True
        how = "The runtime exited" + ("" if returncode is None else f" (exit code {returncode})")
        reported = False
        for run in [run for run in self._runs.values() if not run.ended]:
            self._end_run(run, "error", out, ("error", f"{how} during run {run.id}."))
            reported = True
        if self._starting is not None:
            self._starting = None
            self._line(out, "error", f"{how} before the run started.")
            reported = True
        out.inputs += [ConfirmCancel(dialog_id) for dialog_id in self._dialogs]
        self._dialogs.clear()
        self._outgoing.clear()
        if not reported and not expected:
            self._line(out, "error" if returncode else "status", f"{how}.")
        self._set_working("", out)
        return out.step()

    # --- dispatch --------------------------------------------------------------------------------

    def _dispatch(self, item: Decoded, out: _Out) -> None:
        if isinstance(item, TextLine):
            if not self.structured_preflight:
                out.inputs += self._log.legacy(self._legacy.feed(item.text), self.current_run)
            elif item.text.strip():
                self._line(out, "status", item.text.strip())
        elif isinstance(item, Malformed):
            if (reply := item.error_response()) is not None:
                out.send.append(reply)
            suffix = f": {item.excerpt}" if item.excerpt else ""
            self._line(out, "status", f"Ignored a bad message from the runtime ({item.message}){suffix}")
        elif isinstance(item, Request):
            if item.method in _DIALOG_METHODS:
                self._on_dialog(item, out)
            elif item.method in _SIGNALS:
                # A signal sent as a request still gets an answer: the runtime is not left waiting.
                self._on_signal(item.method, item.params, out, item.id)
            else:
                out.send.append(
                    ErrorResponse(item.id, ErrorInfo(METHOD_NOT_FOUND, f"Method not found: {excerpt(item.method)}"))
                )
        elif isinstance(item, Notification):
            self._on_signal(item.method, item.params, out, None)
        else:
            self._on_response(item, out)

    def _on_signal(self, method: str, params: Any, out: _Out, rid: RequestId | None) -> None:
        handler = _SIGNALS.get(method)
        if handler is None:
            if method in _DIALOG_METHODS:
                self._line(out, "status", f"Ignored {method} without an id: it cannot be answered.")
            else:
                self._once(f"method:{method}", f"Ignored unknown runtime notification {excerpt(method)}.", out)
            return
        try:
            typed = m.PARAMS_BY_METHOD[method].from_json({} if params is None else params, f"{method} params")
        except InvalidInput as exc:
            if rid is not None:
                out.send.append(ErrorResponse(rid, ErrorInfo(INVALID_PARAMS, f"Invalid params: {exc}")))
            else:
                self._line(out, "status", f"Ignored a bad message from the runtime (invalid params: {exc})")
            return
        handler(self, typed, out)
        if rid is not None:
            out.send.append(Response(rid, {}))

    def _on_response(self, message: Response | ErrorResponse, out: _Out) -> None:
        pending = self._outgoing.pop(message.id, None) if message.id is not None else None
        if pending is None:
            if message.id in self._timed_out:
                self._timed_out.discard(message.id)  # its timeout was reported already
            elif isinstance(message, ErrorResponse):
                self._line(out, "status", f"The runtime reported an error: {excerpt(message.error.message, 200)}")
            else:
                self._line(out, "status", f"Ignored a response for unknown request id {excerpt(message.id)}.")
            return
        method, run_id = pending
        if isinstance(message, ErrorResponse):
            self._request_failed(method, run_id, message.error, out)
        elif method == m.INITIALIZE:
            self._initialized(message.result, out)
        elif method == m.RUN_START:
            self._run_started(message.result, out)

    # --- answers to our requests -----------------------------------------------------------------

    def _initialized(self, result: Any, out: _Out) -> None:
        try:
            self.server = m.InitializeResult.from_json(result, "initialize result")
        except InvalidInput as exc:
            self.server = m.InitializeResult(protocol_version=m.PROTOCOL_VERSION)
            self._line(
                out,
                "status",
                f"Invalid initialize answer from the runtime ({exc}); assuming it supports nothing optional.",
            )
            return
        if str(self.server.protocol_version) != str(m.PROTOCOL_VERSION):
            self._line(
                out,
                "status",
                "The runtime speaks protocol version "
                f"{excerpt(self.server.protocol_version)}, this UI {m.PROTOCOL_VERSION}; continuing.",
            )

    def _run_started(self, result: Any, out: _Out) -> None:
        self._starting = None
        try:
            run_id = m.RunStartResult.from_json(result, "run.start result").run_id
        except InvalidInput as exc:
            self._cancel_on_start = False
            self._set_working("", out)
            self._line(out, "error", f"Could not start the run: {exc}")
            return
        run = self._runs.setdefault(run_id, _Run(run_id))
        self._current = run_id
        if self._cancel_on_start:
            self._cancel_on_start = False
            self._cancel(run, out)

    def _request_failed(self, method: str, run_id: str | None, error: ErrorInfo, out: _Out) -> None:
        reason = excerpt(error.message, 200)
        if method == m.RUN_START:
            self._starting, self._cancel_on_start = None, False
            self._set_working("", out)
            self._line(out, "error", f"Could not start the run: {reason}")
        elif method == m.RUN_CANCEL:
            if run_id in self._runs:
                self._runs[run_id].cancel_sent = False
            self._line(out, "error", f"Could not cancel the run: {reason}")
        else:
            self._line(out, "error", f"The runtime refused {method}: {reason}")

    # --- dialogs ---------------------------------------------------------------------------------

    def _on_dialog(self, request: Request, out: _Out) -> None:
        method, rid, dialog_id = request.method, request.id, str(request.id)
        try:
            params = m.PARAMS_BY_METHOD[method].from_json(
                {} if request.params is None else request.params, f"{method} params"
            )
        except InvalidInput as exc:
            out.send.append(ErrorResponse(rid, ErrorInfo(INVALID_PARAMS, f"Invalid params: {exc}")))
            return
        supported = {
            m.UI_CONFIRM: self.config.supports_confirm,
            m.UI_PROMPT: self.config.supports_prompt,
            m.UI_PICK: self.config.supports_pick,
        }[method]
        if not supported:
            out.send.append(ErrorResponse(rid, ErrorInfo(METHOD_NOT_FOUND, f"This UI does not support {method}")))
            return
        if dialog_id in self._dialogs:
            out.send.append(ErrorResponse(rid, ErrorInfo(INVALID_REQUEST, "Request id already used by an open dialog")))
            return
        run_id = params.run_id or self._current
        run = self._runs.get(run_id) if run_id is not None else None
        if run is not None and run.ended:
            out.send.append(Response(rid, _DISMISSED[method].to_json()))  # too late: the run is over
            return
        self._dialogs[dialog_id] = _Dialog(rid, method, run_id)
        out.inputs.append(_dialog_input(dialog_id, params))

    def _answer(self, dialog_id: str, result: JsonObject) -> Step:
        dialog = self._dialogs.pop(dialog_id, None)
        if dialog is None or self.exited:
            return Step()  # closed meanwhile (run cancelled, runtime gone): nobody is waiting
        return Step(send=(Response(dialog.rpc_id, result.to_json()),))

    # --- signals ---------------------------------------------------------------------------------

    def _on_agent_event(self, params: m.AgentEventParams, out: _Out) -> None:
        run = self._runs.get(params.run_id)
        if run is None:
            self._once(f"run:{params.run_id}", f"Ignored events of unknown run {excerpt(params.run_id)}.", out)
            return
        if run.ended:
            return  # e.g. events still in flight when a cancel took effect
        if run.last_seq is not None:
            if params.seq <= run.last_seq:
                return  # a duplicate
            if params.seq > run.last_seq + 1 and not run.gap_reported:
                run.gap_reported = True
                missing = f"{run.last_seq + 1}" + (f"-{params.seq - 1}" if params.seq > run.last_seq + 2 else "")
                self._line(out, "status", f"Some events of run {excerpt(run.id)} were lost (seq {missing}).")
        run.last_seq = params.seq
        if isinstance(params.event, UnknownEvent):
            self._once(
                f"event:{params.event.type}", f"Ignored agent events of unknown type {excerpt(params.event.type)}.", out
            )
        else:
            out.inputs += self._log.event(run.id, params.event, legacy=not self.structured_preflight)

    def _on_run_status(self, params: m.RunStatusParams, out: _Out) -> None:
        run = self._runs.get(params.run_id)
        if run is None:
            if params.status in m.TERMINAL_STATUSES:
                return  # nothing to end
            run = self._runs[params.run_id] = _Run(params.run_id)  # a run the runtime started itself
            self._current = run.id
        if run.ended:
            return  # cancelled (or otherwise over) is final
        if params.status in m.TERMINAL_STATUSES:
            message = f" {params.message}" if params.message else ""
            lines = {
                "cancelled": ("status", f"Run cancelled.{message}"),
                "error": ("error", f"Run failed:{message or ' the runtime reported an error.'}"),
            }
            self._end_run(run, params.status, out, lines.get(params.status))
            return
        run.status = params.status
        self._set_status("run", _RUN_LABELS.get(params.status, excerpt(params.status)), out)
        self._set_working("" if params.status == "awaiting_ui" else params.message or WORKING, out)

    def _on_run_context(self, params: m.RunContextParams, out: _Out) -> None:
        left = params.context_left_percent
        self._set_status("context", "" if left is None else f"{min(max(round(left), 0), 100)}% context left", out)

    def _on_notify(self, params: m.NotifyParams, out: _Out) -> None:
        kind = params.notify_type if params.notify_type in NOTIFY_TYPES else "info"
        out.inputs += [*self._log.finish_stream(), Notify(params.message, kind)]

    def _on_working(self, params: m.WorkingParams, out: _Out) -> None:
        self._set_working(params.message, out)

    def _on_set_editor_text(self, params: m.SetEditorTextParams, out: _Out) -> None:
        out.inputs.append(EditorSet(params.text))

    # --- helpers ---------------------------------------------------------------------------------

    def _request(self, method: str, params: JsonObject, out: _Out, run_id: str | None = None) -> RequestId:
        rid = self._next_id
        self._next_id += 1
        self._outgoing[rid] = (method, run_id)
        out.send.append(Request(rid, method, params.to_json()))
        return rid

    def _cancel(self, run: _Run, out: _Out) -> None:
        if run.cancel_sent:
            return  # Esc pressed twice: one run.cancel is enough
        run.cancel_sent = True
        if self.server is not None and not self.server.server_capabilities.supports_run_cancel:
            self._line(out, "status", "This runtime cannot cancel runs.")
            return
        self._request(m.RUN_CANCEL, m.RunCancelParams(run.id), out, run.id)
        self._set_working("Cancelling", out)

    def _end_run(self, run: _Run, status: str, out: _Out, line: tuple[str, str] | None) -> None:
        run.status = status
        out.inputs += self._log.finish_stream(run.id)
        for dialog_id, dialog in list(self._dialogs.items()):
            if dialog.run_id == run.id:
                del self._dialogs[dialog_id]
                out.inputs.append(ConfirmCancel(dialog_id))
                if not self.exited:  # answer it, so the runtime is not left waiting
                    out.send.append(Response(dialog.rpc_id, _DISMISSED[dialog.method].to_json()))
        self._set_working("", out)
        if line is not None:
            self._line(out, *line)
        self._set_status("run", _RUN_LABELS[status], out)

    def _line(self, out: _Out, kind: str, text: str) -> None:
        out.inputs += self._log.note(kind, text)

    def _once(self, key: str, text: str, out: _Out) -> None:
        if key not in self._reported:
            self._reported.add(key)
            self._line(out, "status", text)

    def _set_working(self, message: str, out: _Out) -> None:
        if message != self._working:
            self._working = message
            out.inputs.append(Working(message))

    def _set_status(self, part: str, text: str, out: _Out) -> None:
        self._status_parts[part] = text
        shown = " \u00b7 ".join(value for value in self._status_parts.values() if value)
        if shown != self._status_shown:
            self._status_shown = shown
            out.inputs.append(Status(shown))


def _dialog_input(dialog_id: str, params: Any) -> Input:
    if isinstance(params, m.ConfirmParams):
        return ConfirmRequest(
            dialog_id,
            params.title,
            params.message,
            params.confirm_label,
            params.cancel_label,
            params.danger_level,
            params.allow_remember,
            params.allow_reason,
        )
    if isinstance(params, m.PromptParams):
        return PromptRequest(
            dialog_id, params.title, params.message, params.default, params.placeholder, params.secret, params.multiline
        )
    assert isinstance(params, m.PickParams)
    return PickRequest(dialog_id, params.title, params.options, params.message, params.multi)


_SIGNALS: dict[str, Any] = {
    m.AGENT_EVENT: Session._on_agent_event,
    m.RUN_STATUS: Session._on_run_status,
    m.RUN_CONTEXT: Session._on_run_context,
    m.UI_NOTIFY: Session._on_notify,
    m.UI_WORKING: Session._on_working,
    m.UI_SET_EDITOR_TEXT: Session._on_set_editor_text,
}
