"""The protocol's methods (seed 004, codelia): names, and the typed params and results of each.

The wire shapes are seed 004's, verbatim; members marked *addition* are this
UI's and optional on the wire.  Every type is a frozen, slotted ``JsonObject`` dataclass (see ``jsonobj``):
``from_json`` validates and keeps unknown members in ``extra``, ``to_json``
writes the same JSON back.  The agent events carried by ``agent.event`` are in
``events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...inputs import PickOption
from ..events import AgentEvent
from ..jsonobj import JsonObject

__all__ = [
    "AGENT_EVENT",
    "ERROR_RUN_NOT_FOUND",
    "ERROR_RUNTIME_BUSY",
    "ERROR_USER_CANCELLED",
    "INITIALIZE",
    "PARAMS_BY_METHOD",
    "PROTOCOL_VERSION",
    "RUN_CANCEL",
    "RUN_CONTEXT",
    "RUN_DIAGNOSTICS",
    "RUN_START",
    "RUN_STATUS",
    "TERMINAL_STATUSES",
    "UI_CONFIRM",
    "UI_NOTIFY",
    "UI_PICK",
    "UI_PROMPT",
    "UI_SET_EDITOR_TEXT",
    "UI_WORKING",
    "AgentEventParams",
    "Capabilities",
    "ConfirmParams",
    "ConfirmResult",
    "DiagnosticsParams",
    "InitializeParams",
    "InitializeResult",
    "NotifyParams",
    "PeerInfo",
    "PickItem",
    "PickParams",
    "PickResult",
    "PromptParams",
    "PromptResult",
    "RunCancelParams",
    "RunContextParams",
    "RunStartParams",
    "RunStartResult",
    "RunStatusParams",
    "SetEditorTextParams",
    "TextInput",
    "WorkingParams",
]

PROTOCOL_VERSION = "0"  # seed 004: a string; the runtime answers the version it speaks

# Seed 004 section 9 (beside JSON-RPC's own -32601 / -32602).
ERROR_RUNTIME_BUSY = -32001  # simultaneous run limit: the prompt is kept for later
ERROR_RUN_NOT_FOUND = -32002  # e.g. run.cancel of a run that already ended
ERROR_USER_CANCELLED = -32003

INITIALIZE = "initialize"
RUN_START = "run.start"
RUN_CANCEL = "run.cancel"
RUN_STATUS = "run.status"
RUN_CONTEXT = "run.context"
RUN_DIAGNOSTICS = "run.diagnostics"  # codelia sends it only when diagnostics are on: ignored
AGENT_EVENT = "agent.event"
UI_CONFIRM = "ui.confirm.request"
UI_PROMPT = "ui.prompt.request"
UI_PICK = "ui.pick.request"
UI_NOTIFY = "ui.notify"  # addition
UI_WORKING = "ui.working"  # addition
UI_SET_EDITOR_TEXT = "ui.set_editor_text"  # addition

# `run.status` values: running, awaiting_ui, then exactly one of these terminal ones.
TERMINAL_STATUSES = frozenset({"completed", "error", "cancelled"})


# --- initialize ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeerInfo(JsonObject):
    """``client`` / ``server`` of ``initialize``: who is talking."""

    name: str
    version: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Capabilities(JsonObject):
    """``ui_capabilities`` / ``server_capabilities``: a missing flag means unsupported.

    UI side: confirm/prompt/pick, markdown, images; runtime side: run_cancel,
    ui_requests, mcp_list, skills_list; both: permission preflight events
    (seed 002).  Flags of either side not named here are kept in ``extra``.
    """

    supports_permission_preflight_events: bool = False
    supports_confirm: bool = False
    supports_prompt: bool = False
    supports_pick: bool = False
    supports_markdown: bool = False
    supports_images: bool = False
    supports_run_cancel: bool = False
    supports_ui_requests: bool = False
    supports_mcp_list: bool = False
    supports_skills_list: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class InitializeParams(JsonObject):
    """UI -> runtime ``initialize`` request, the first message of a session."""

    protocol_version: int | str
    client: PeerInfo
    ui_capabilities: Capabilities = Capabilities()
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class InitializeResult(JsonObject):
    """The runtime's answer to ``initialize``."""

    protocol_version: int | str
    server: PeerInfo = PeerInfo(name="")
    server_capabilities: Capabilities = Capabilities()
    extra: dict[str, Any] = field(default_factory=dict)


# --- runs ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextInput(JsonObject):
    """``run.start``'s ``input``: ``{"type": "text", "text": ...}``."""

    type: str
    text: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunStartParams(JsonObject):
    """UI -> runtime ``run.start``: the user's prompt starts a run (of session ``session_id`` when resuming)."""

    input: TextInput
    session_id: str | None = None
    ui_context: dict[str, Any] | None = None  # a ``ui.context.update`` snapshot: cwd, workspace_root...
    meta: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunStartResult(JsonObject):
    """The runtime names the run (codelia adds ``session_log_path``, kept in ``extra``)."""

    run_id: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunCancelParams(JsonObject):
    """UI -> runtime ``run.cancel`` (Esc during a run); the runtime confirms with ``run.status``."""

    run_id: str
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunStatusParams(JsonObject):
    """Runtime -> UI ``run.status``: running, awaiting_ui, completed, error or cancelled."""

    run_id: str
    status: str
    message: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunContextParams(JsonObject):
    """Runtime -> UI ``run.context``: how much of the model's context window is left."""

    run_id: str
    context_left_percent: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DiagnosticsParams(JsonObject):
    """Runtime -> UI ``run.diagnostics`` (codelia, diagnostics on): ignored unless asked for."""

    run_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AgentEventParams(JsonObject):
    """Runtime -> UI ``agent.event``: event number ``seq`` (increasing by one) of run ``run_id``."""

    run_id: str
    seq: int
    event: AgentEvent
    meta: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


# --- UI requests and signals --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConfirmParams(JsonObject):
    """Runtime -> UI ``ui.confirm.request``: a yes/no dialog (``danger_level``: normal/danger)."""

    title: str
    message: str = ""
    confirm_label: str = "OK"
    cancel_label: str = "Cancel"
    danger_level: str = "normal"
    allow_remember: bool = False
    allow_reason: bool = False
    run_id: str | None = None
    # Additions (seed 003's approvals): "low"/"medium"/"high", and the worker path as names or
    # seed 003 WorkerInfo objects ({id, depth, task}).  Any other shape of either is ignored (they
    # are context for the user: a malformed one must not cost the question).
    risk: Any = None
    worker_path: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfirmResult(JsonObject):
    """The answer: ``{"ok": bool, "remember": bool, "reason": str | null}`` (all three always, as codelia's TUI).

    Addition: ``scope`` ("always" or "session") with ``remember: true``, only when the request
    allowed remembering and the user chose ``[a]lways`` / ``[s]ession``; absent otherwise.
    """

    ok: bool
    remember: bool
    reason: str | None
    scope: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PromptParams(JsonObject):
    """Runtime -> UI ``ui.prompt.request``: a text-input dialog (``placeholder`` is an addition)."""

    title: str
    message: str = ""
    default_value: str = ""
    placeholder: str = ""
    secret: bool = False
    multiline: bool = False
    run_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PromptResult(JsonObject):
    """The answer: ``{"value": str | null}`` (null when dismissed)."""

    value: str | None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PickItem(JsonObject):
    """One item of ``ui.pick.request``: ``{id, label, detail?}`` (the detail shows under the label)."""

    id: str
    label: str
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def option(self) -> PickOption:
        """The core's pick option."""
        return PickOption(self.id, self.label, self.detail)


@dataclass(frozen=True, slots=True)
class PickParams(JsonObject):
    """Runtime -> UI ``ui.pick.request`` (``message`` is an addition)."""

    title: str
    items: tuple[PickItem, ...]
    message: str = ""
    multi: bool = False
    run_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PickResult(JsonObject):
    """The answer: ``{"ids": [...]}`` (empty when dismissed)."""

    ids: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class NotifyParams(JsonObject):
    """Runtime -> UI ``ui.notify``: one styled line (info, warn, error, success)."""

    message: str
    notify_type: str = "info"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WorkingParams(JsonObject):
    """Runtime -> UI ``ui.working``: spinner plus message; empty stops the spinner."""

    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SetEditorTextParams(JsonObject):
    """Runtime -> UI ``ui.set_editor_text``: replaces the composer's text."""

    text: str
    extra: dict[str, Any] = field(default_factory=dict)


PARAMS_BY_METHOD: dict[str, type[Any]] = {
    INITIALIZE: InitializeParams,
    RUN_START: RunStartParams,
    RUN_CANCEL: RunCancelParams,
    RUN_STATUS: RunStatusParams,
    RUN_CONTEXT: RunContextParams,
    RUN_DIAGNOSTICS: DiagnosticsParams,
    AGENT_EVENT: AgentEventParams,
    UI_CONFIRM: ConfirmParams,
    UI_PROMPT: PromptParams,
    UI_PICK: PickParams,
    UI_NOTIFY: NotifyParams,
    UI_WORKING: WorkingParams,
    UI_SET_EDITOR_TEXT: SetEditorTextParams,
}
