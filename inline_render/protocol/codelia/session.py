"""The sans-I/O session: runtime messages in; core inputs and messages to send back out.

``Session`` knows nothing of pipes, processes or clocks.  Every method returns
a ``Step``: the inputs to feed to the core renderer and the JSON-RPC messages
to write to the runtime.  The same calls in the same order always give the same
steps, so a recorded session replays exactly.  Bad input never raises: it earns
a JSON-RPC error response where one is owed, otherwise one visible status line,
and later messages are processed as usual.  What is merely unknown (a future
event type or notification) is quiet: a ``logging`` debug record.

The wire is seed 004's (codelia): string request ids, ``protocol_version``
"0", ``run.start {input: {type: "text", text}, session_id?, ui_context?, meta?}``.
The slash commands that talk to the runtime are in ``commands``.
"""

from __future__ import annotations

import importlib.metadata
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import InvalidInput
from ...inputs import (
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
from ...outputs import ConfirmAnswer, Interrupt, Output, PickAnswer, PromptAnswer, Submit
from ...widgets.approval import worker_names
from ..events import (
    CompactionCompleteEvent,
    CompactionStartEvent,
    LlmRetryEvent,
    StepCompleteEvent,
    StepStartEvent,
    UnknownEvent,
)
from ..facts import RunEnded, RunStarted, SessionEvent
from ..jsonobj import JsonObject
from ..legacy import LegacyPreflight
from ..messages import (
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
from ..runs import RunQueries
from ..transcript import Limits, Transcript
from . import catalog as c
from . import methods as m
from .commands import Commands

__all__ = ["MARKDOWN_RENDERS", "WORKING", "Session", "SessionConfig", "Step"]

log = logging.getLogger(__name__)


def _version() -> str:
    """The installed package's version (one source: pyproject.toml)."""
    try:
        return importlib.metadata.version("inline_render")
    except importlib.metadata.PackageNotFoundError:  # running from a checkout that was never installed
        return "0"


# Announced as ``supports_markdown``: assistant and reasoning entries render Markdown (inline_render.markdown.blocks).
MARKDOWN_RENDERS = True
WORKING = "Working"  # the spinner message while a run is going and the runtime said nothing better
DEFAULT_CLIENT = m.PeerInfo(name="inline_render", version=_version())
_DIALOG_METHODS = (m.UI_CONFIRM, m.UI_PROMPT, m.UI_PICK)
_DISMISSED: dict[str, JsonObject] = {  # the answer of a dialog closed without the user answering
    m.UI_CONFIRM: m.ConfirmResult(ok=False, remember=False, reason=None),
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
    supports_markdown: bool = MARKDOWN_RENDERS
    limits: Limits = field(default_factory=Limits)
    show_diagnostics: bool = False  # show codelia's ``run.diagnostics`` (one status line each) instead of ignoring
    cancel_reason: str = "cancelled by the user"  # ``run.cancel``'s reason

    def capabilities(self) -> m.Capabilities:
        """The ``ui_capabilities`` of ``initialize``."""
        return m.Capabilities(
            supports_permission_preflight_events=self.supports_permission_preflight_events,
            supports_confirm=self.supports_confirm,
            supports_prompt=self.supports_prompt,
            supports_pick=self.supports_pick,
            supports_markdown=self.supports_markdown,
        )


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of one session call: ``inputs`` for the core, ``send`` for the runtime.

    ``events``: what happened, as normalized events (``facts``), for observers such as the llm-do modes.
    """

    inputs: tuple[Input, ...] = ()
    send: tuple[Message, ...] = ()
    events: tuple[SessionEvent, ...] = ()


@dataclass(slots=True)
class _Run:
    id: str
    status: str = "running"
    last_seq: int | None = None
    gap_reported: bool = False
    cancel_sent: bool = False
    replayed: bool = False  # a past run shown by a session.history replay
    retry_shown: bool = False  # its one llm.retry line was shown

    @property
    def ended(self) -> bool:
        return self.status in m.TERMINAL_STATUSES


@dataclass(frozen=True, slots=True)
class _Dialog:
    rpc_id: RequestId
    method: str
    run_id: str | None


@dataclass(frozen=True, slots=True)
class _Pending:
    """A request of ours awaiting its answer; ``on_result`` handles a success (commands' requests)."""

    method: str
    run_id: str | None = None
    text: str | None = None  # run.start: the prompt, given back to the composer if the runtime is busy
    on_result: Callable[[Any, _Out], None] | None = None


@dataclass(slots=True)
class _Out:
    inputs: list[Input] = field(default_factory=list)
    send: list[Message] = field(default_factory=list)
    events: list[SessionEvent] = field(default_factory=list)

    def step(self) -> Step:
        return Step(tuple(self.inputs), tuple(self.send), tuple(self.events))


class Session(RunQueries):
    """One UI <-> runtime conversation, from ``initialize`` to ``runtime_exited``."""

    def __init__(self, config: SessionConfig | None = None) -> None:
        self.config = config or SessionConfig()
        self.server: m.InitializeResult | None = None  # the runtime's initialize answer, once it came
        self.exited = False
        self._next_id = 1
        self._outgoing: dict[RequestId, _Pending] = {}
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
        self.session_id: str | None = None  # the session runs continue (set by /resume)
        self._context: c.UiContext | None = None  # the latest ui.context.update, also run.start's ui_context
        self._context_sent: c.UiContext | None = None
        self.replaying: RequestId | None = None  # session.history sent, its replayed events arriving
        self.commands = Commands(self)

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
    def busy(self) -> bool:
        """A run is starting or in progress."""
        return self._starting is not None or self.current_run is not None

    def pending_requests(self) -> dict[RequestId, str]:
        """Requests sent to the runtime and not answered yet: id -> method."""
        return {rid: pending.method for rid, pending in self._outgoing.items()}

    @property
    def context(self) -> c.UiContext | None:
        """The latest UI context (``set_context``)."""
        return self._context

    @property
    def server_capabilities(self) -> m.Capabilities:
        """What the runtime announced (nothing optional before it answered ``initialize``)."""
        return self.server.server_capabilities if self.server is not None else m.Capabilities()

    # --- UI -> runtime ---------------------------------------------------------------------------

    def initialize(self) -> Step:
        """The ``initialize`` request that opens the session."""
        out = _Out()
        self.request(
            m.INITIALIZE, m.InitializeParams(m.PROTOCOL_VERSION, self.config.client, self.config.capabilities()), out
        )
        return out.step()

    def start_run(self, prompt: str, echo: bool = True, meta: dict[str, Any] | None = None) -> Step:
        """Start a run with ``prompt`` (refused while another run is in progress).

        ``echo`` logs the prompt as a 'user' entry; a ``Submit`` from the core
        does not need it, the core logged the composer's text itself.  The run
        continues ``session_id`` (after ``/resume``) and carries the latest UI
        context and ``meta``.
        """
        out = _Out()
        if self.exited:
            self._line(out, "error", "The runtime is not running.")
        elif self.busy:
            self._line(out, "status", "A run is in progress; press Esc to cancel it first.")
        else:
            if echo:
                self._line(out, "user", prompt)
            context = self._context.to_json() if self._context is not None else None
            params = m.RunStartParams(m.TextInput("text", prompt), self.session_id, context or None, meta)
            self._starting = self.request(m.RUN_START, params, out, text=prompt)
            out.events.append(RunStarted(prompt))
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

    def set_context(self, context: c.UiContext) -> Step:
        """The user's working context (cwd, workspace root...): ``ui.context.update`` when it changed.

        Sent once the runtime answered ``initialize`` (at once if it has); the
        client debounces frequent changes.  Runs carry the latest as ``ui_context``.
        """
        self._context = context
        out = _Out()
        self._send_context(out)
        return out.step()

    def command(self, text: str) -> Step | None:
        """A slash command that talks to the runtime (``/resume``, ``/model``, ``/skills``, ``/mcp``).

        None when ``text`` is not one of them (the application handles its own).
        """
        out = _Out()
        return out.step() if self.commands.run(text, out) else None

    def handle_output(self, output: Output) -> Step:
        """What a core output means for the runtime: a run, a dialog's answer, a cancel."""
        if isinstance(output, PickAnswer) and self.commands.owns(output.id):
            out = _Out()
            self.commands.picked(output.id, output.ids, out)
            return out.step()
        if isinstance(output, Submit):
            return self.start_run(output.text, echo=False) if output.text.strip() else Step()
        if isinstance(output, Interrupt):
            return self.cancel_run()
        if isinstance(output, ConfirmAnswer):
            reason = output.reason if not output.ok else None  # a reason explains a denial
            scope = output.scope if output.ok and output.remember else None
            return self._answer(output.id, m.ConfirmResult(output.ok, output.remember, reason, scope))
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
            method, run_id = pending.method, pending.run_id
            if request_id == self.replaying:
                self._replay_done(out)
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
        out.inputs += [ConfirmCancel(dialog_id) for dialog_id in [*self._dialogs, *self.commands.close_all()]]
        self._dialogs.clear()
        self.replaying = None
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
            else:  # a newer runtime's notification: nothing for the user to act on
                log.debug("ignored runtime notification %r", method)
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
        rid = message.id
        if rid is not None and rid not in self._outgoing and not isinstance(rid, str):
            rid = str(rid)  # a lenient runtime echoing our string id as a number
        pending = self._outgoing.pop(rid, None) if rid is not None else None
        if pending is None:
            if rid in self._timed_out:
                self._timed_out.discard(rid)  # its timeout was reported already
            elif isinstance(message, ErrorResponse):
                self._line(out, "status", f"The runtime reported an error: {excerpt(message.error.message, 200)}")
            else:
                self._line(out, "status", f"Ignored a response for unknown request id {excerpt(message.id)}.")
            return
        if rid == self.replaying:
            self._replay_done(out)
        if isinstance(message, ErrorResponse):
            self._request_failed(pending, message.error, out)
        elif pending.on_result is not None:
            pending.on_result(message.result, out)
        elif pending.method == m.INITIALIZE:
            self._initialized(message.result, out)
        elif pending.method == m.RUN_START:
            self._run_started(message.result, out)
        elif pending.method == m.RUN_CANCEL:
            self._cancel_answered(pending.run_id, message.result, out)

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
        if str(self.server.protocol_version) != m.PROTOCOL_VERSION:
            # Seed 004: the runtime answers the version it speaks, the same one when compatible.
            # Another one is no business of the user's while everything else works.
            log.debug("runtime protocol version %r, this UI %r", self.server.protocol_version, m.PROTOCOL_VERSION)
        self._send_context(out)

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

    def _cancel_answered(self, run_id: str | None, result: Any, out: _Out) -> None:
        """``run.cancel``'s ``{ok, status?}``: ok means a ``cancelled`` status follows; not ok, it may be over."""
        run = self._runs.get(run_id) if run_id is not None else None
        if run is None or run.ended or not isinstance(result, dict) or result.get("ok") is not False:
            return
        status = result.get("status")
        if status in m.TERMINAL_STATUSES or status is None:
            # Seed 004: a run that already ended answers ok: false (or its final status).
            self._end_run(run, status if isinstance(status, str) else "completed", out, None)
        else:
            run.cancel_sent = False  # still running: Esc may try again
            self._set_working(WORKING, out)
            self._line(out, "status", "The runtime could not cancel the run.")

    def _request_failed(self, pending: _Pending, error: ErrorInfo, out: _Out) -> None:
        method, run_id = pending.method, pending.run_id
        reason = excerpt(error.message, 200)
        run = self._runs.get(run_id) if run_id is not None else None
        if method == m.RUN_START:
            self._starting, self._cancel_on_start = None, False
            self._set_working("", out)
            if error.code == m.ERROR_RUNTIME_BUSY:
                self._line(out, "status", "The runtime is busy with another run; your prompt is back in the composer.")
                if pending.text:
                    out.inputs.append(EditorSet(pending.text))
            elif error.code == m.ERROR_USER_CANCELLED:
                self._line(out, "status", "Run cancelled.")
            else:
                self._line(out, "error", f"Could not start the run: {reason}")
        elif method == m.RUN_CANCEL:
            if run is not None and error.code == m.ERROR_RUN_NOT_FOUND:
                if not run.ended:  # the runtime knows no such run: it is over, stop waiting for it
                    self._end_run(run, "cancelled", out, ("status", "Run cancelled."))
            else:
                if run is not None:
                    run.cancel_sent = False
                    self._set_working(WORKING, out)
                self._line(out, "error", f"Could not cancel the run: {reason}")
        elif error.code == m.ERROR_RUNTIME_BUSY:
            self._line(out, "status", f"The runtime is busy ({method}); try again when the run is over.")
        elif error.code == m.ERROR_USER_CANCELLED:
            self._line(out, "status", "Cancelled.")
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
        if self.replaying is not None and (run is None or run.replayed):
            run = self._replayed_run(params.run_id)
            if run is not None:  # None: that run is in the scrollback already
                out.inputs += self._log.event(run.id, params.event, legacy=False, replay=True)
            return
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
        event = params.event
        out.events.append(event)
        if isinstance(event, UnknownEvent):
            log.debug("ignored agent event of unknown type %r", event.type)  # a newer runtime's: quiet
        elif isinstance(event, (StepStartEvent, StepCompleteEvent, LlmRetryEvent)):
            self._quiet_event(run, event, out)
        elif isinstance(event, CompactionStartEvent):
            self._set_working("Compacting the conversation", out)
        elif isinstance(event, CompactionCompleteEvent):
            self._set_working(WORKING, out)
            if event.compacted:
                self._line(out, "status", "The conversation was compacted to free context.")
        else:
            out.inputs += self._log.event(run.id, event, legacy=not self.structured_preflight)

    def _quiet_event(self, run: _Run, event: StepStartEvent | StepCompleteEvent | LlmRetryEvent, out: _Out) -> None:
        """Steps and retries change the spinner; a retry leaves at most one dim line per run."""
        if isinstance(event, StepStartEvent):
            self._set_working(event.title or WORKING, out)
        elif isinstance(event, StepCompleteEvent):
            self._set_working(WORKING, out)
        else:
            attempt = f" (attempt {event.attempt})" if event.attempt else ""
            self._set_working(f"Retrying the model call{attempt}", out)
            if not run.retry_shown:
                run.retry_shown = True
                why = f": {event.reason}" if event.reason else ""
                self._line(out, "status", f"The model call failed and is being retried{why}.")

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

    def _on_diagnostics(self, params: m.DiagnosticsParams, out: _Out) -> None:
        if self.config.show_diagnostics:
            self._line(out, "status", f"diagnostics: {excerpt(params.to_json(), 200)}")
        else:
            log.debug("run.diagnostics %s", params.to_json())

    def _on_notify(self, params: m.NotifyParams, out: _Out) -> None:
        kind = params.notify_type if params.notify_type in NOTIFY_TYPES else "info"
        out.inputs += [*self._log.finish_stream(), Notify(params.message, kind)]

    def _on_working(self, params: m.WorkingParams, out: _Out) -> None:
        self._set_working(params.message, out)

    def _on_set_editor_text(self, params: m.SetEditorTextParams, out: _Out) -> None:
        out.inputs.append(EditorSet(params.text))

    # --- helpers ---------------------------------------------------------------------------------

    def request(
        self,
        method: str,
        params: JsonObject,
        out: _Out,
        run_id: str | None = None,
        *,
        text: str | None = None,
        on_result: Callable[[Any, _Out], None] | None = None,
    ) -> RequestId:
        """Send request ``method``; a success goes to ``on_result``, an error is shown as a line."""
        rid = str(self._next_id)  # seed 004: RpcId = string
        self._next_id += 1
        self._outgoing[rid] = _Pending(method, run_id, text, on_result)
        out.send.append(Request(rid, method, params.to_json()))
        return rid

    def line(self, out: _Out, kind: str, text: str) -> None:
        """One line of the UI's own in the log."""
        self._line(out, kind, text)

    def _send_context(self, out: _Out) -> None:
        context = self._context
        if context is None or self.server is None or self.exited or context == self._context_sent:
            return
        self._context_sent = context
        out.send.append(Notification(c.UI_CONTEXT_UPDATE, context.to_json()))

    def _replayed_run(self, run_id: str) -> _Run | None:
        """The replayed run ``run_id``, or None when that run is in the scrollback already."""
        run = self._runs.get(run_id)
        if run is None:
            run = self._runs[run_id] = _Run(run_id, status="replaying", replayed=True)
        return run if run.status == "replaying" else None

    def _replay_done(self, out: _Out) -> None:
        """``session.history`` answered (or timed out): the replayed runs are over."""
        self.replaying = None
        out.inputs += self._log.finish_stream()
        for run in self._runs.values():
            if run.status == "replaying":
                run.status = "completed"

    def _cancel(self, run: _Run, out: _Out) -> None:
        if run.cancel_sent:
            return  # Esc pressed twice: one run.cancel is enough
        run.cancel_sent = True
        if self.server is not None and not self.server.server_capabilities.supports_run_cancel:
            self._line(out, "status", "This runtime cannot cancel runs.")
            return
        self.request(m.RUN_CANCEL, m.RunCancelParams(run.id, self.config.cancel_reason), out, run.id)
        # codelia answers {ok: true} at once but ends the run only once its pending dialog is
        # answered: a cancel dismisses the run's dialogs, as the user would.
        self._dismiss_dialogs(run, out)
        self._set_working("Cancelling", out)

    def _dismiss_dialogs(self, run: _Run, out: _Out) -> None:
        for dialog_id, dialog in list(self._dialogs.items()):
            if dialog.run_id == run.id:
                del self._dialogs[dialog_id]
                out.inputs.append(ConfirmCancel(dialog_id))
                if not self.exited:  # answer it, so the runtime is not left waiting
                    out.send.append(Response(dialog.rpc_id, _DISMISSED[dialog.method].to_json()))

    def _end_run(self, run: _Run, status: str, out: _Out, line: tuple[str, str] | None) -> None:
        run.status = status
        out.events.append(RunEnded(run.id, status, line[1] if line is not None else ""))
        out.inputs += self._log.finish_stream(run.id)
        self._dismiss_dialogs(run, out)
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
            risk=params.risk if isinstance(params.risk, str) else "",
            worker_path=worker_names(params.worker_path),
        )
    if isinstance(params, m.PromptParams):
        return PromptRequest(
            dialog_id,
            params.title,
            params.message,
            params.default_value,
            params.placeholder,
            params.secret,
            params.multiline,
        )
    assert isinstance(params, m.PickParams)
    options = tuple(item.option() for item in params.items)
    return PickRequest(dialog_id, params.title, options, params.message, params.multi)


_SIGNALS: dict[str, Any] = {
    m.AGENT_EVENT: Session._on_agent_event,
    m.RUN_STATUS: Session._on_run_status,
    m.RUN_CONTEXT: Session._on_run_context,
    m.RUN_DIAGNOSTICS: Session._on_diagnostics,
    m.UI_NOTIFY: Session._on_notify,
    m.UI_WORKING: Session._on_working,
    m.UI_SET_EDITOR_TEXT: Session._on_set_editor_text,
}
