"""Typed params and results of every protocol method, and the agent events.

Each type is a frozen, slotted dataclass with ``from_json`` (validates, names
the offending field in an ``InvalidInput``, keeps unknown members in ``extra``)
and ``to_json`` (members at their default value are omitted, ``extra`` is
written back).  A ``null`` for a member that has a default means "absent":
JavaScript runtimes often send ``null`` where they mean ``undefined``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from ..errors import InvalidInput
from ..inputs import PickOption, PickRequest, input_from_json

__all__ = [
    "AGENT_EVENT",
    "EVENT_TYPES",
    "INITIALIZE",
    "PARAMS_BY_METHOD",
    "PROTOCOL_VERSION",
    "RUN_CANCEL",
    "RUN_CONTEXT",
    "RUN_START",
    "RUN_STATUS",
    "TERMINAL_STATUSES",
    "UI_CONFIRM",
    "UI_NOTIFY",
    "UI_PICK",
    "UI_PROMPT",
    "UI_SET_EDITOR_TEXT",
    "UI_WORKING",
    "AgentEvent",
    "AgentEventParams",
    "Capabilities",
    "ConfirmParams",
    "ConfirmResult",
    "ErrorEvent",
    "FinalEvent",
    "InitializeParams",
    "InitializeResult",
    "JsonObject",
    "NotifyParams",
    "PeerInfo",
    "PermissionPreviewEvent",
    "PermissionReadyEvent",
    "PickParams",
    "PickResult",
    "PromptParams",
    "PromptResult",
    "ReasoningEvent",
    "RunCancelParams",
    "RunContextParams",
    "RunStartParams",
    "RunStartResult",
    "RunStatusParams",
    "SetEditorTextParams",
    "TextEvent",
    "ToolCallEvent",
    "ToolResultEvent",
    "UnknownEvent",
    "WorkingParams",
    "parse_event",
]

PROTOCOL_VERSION = 1

INITIALIZE = "initialize"
RUN_START = "run.start"
RUN_CANCEL = "run.cancel"
RUN_STATUS = "run.status"
RUN_CONTEXT = "run.context"
AGENT_EVENT = "agent.event"
UI_CONFIRM = "ui.confirm.request"
UI_PROMPT = "ui.prompt.request"
UI_PICK = "ui.pick.request"
UI_NOTIFY = "ui.notify"
UI_WORKING = "ui.working"
UI_SET_EDITOR_TEXT = "ui.set_editor_text"

# `run.status` values: running, awaiting_ui, then exactly one of these terminal ones.
TERMINAL_STATUSES = frozenset({"completed", "error", "cancelled"})


class JsonObject:
    """Mixin of the protocol dataclasses: JSON conversion driven by the field annotations."""

    __slots__ = ()

    @classmethod
    def from_json(cls, obj: Any, where: str | None = None) -> Self:
        """Validate a JSON object; unknown members go to ``extra``; raise ``InvalidInput``."""
        result: Self = _from_json(cls, obj, where or cls.__name__)
        return result

    def to_json(self) -> dict[str, Any]:
        """The JSON object (members at their default are omitted, ``extra`` is kept)."""
        return _to_json(self)


# --- initialize ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PeerInfo(JsonObject):
    """``client`` / ``server`` of ``initialize``: who is talking."""

    name: str
    version: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Capabilities(JsonObject):
    """``ui_capabilities`` / ``server_capabilities``: a missing flag means unsupported."""

    supports_permission_preflight_events: bool = False
    supports_confirm: bool = False
    supports_prompt: bool = False
    supports_pick: bool = False
    supports_run_cancel: bool = False
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
class RunStartParams(JsonObject):
    """UI -> runtime ``run.start``: the user's prompt starts a run."""

    prompt: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RunStartResult(JsonObject):
    """The runtime names the run; it answers before it sends any event of that run."""

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


# --- agent events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextEvent(JsonObject):
    """Streamed assistant text, appended to the run's assistant entry."""

    TYPE: ClassVar[str] = "text"
    content: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FinalEvent(JsonObject):
    """The assistant entry is complete; ``content`` is its full text."""

    TYPE: ClassVar[str] = "final"
    content: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReasoningEvent(JsonObject):
    """One block of model reasoning (a dim entry of its own)."""

    TYPE: ClassVar[str] = "reasoning"
    content: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolCallEvent(JsonObject):
    """The agent calls ``tool`` with ``args`` (any JSON value)."""

    TYPE: ClassVar[str] = "tool_call"
    tool: str
    tool_call_id: str | None = None
    args: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolResultEvent(JsonObject):
    """The result of a tool call (any JSON value; strings are shown as text)."""

    TYPE: ClassVar[str] = "tool_result"
    tool: str
    tool_call_id: str | None = None
    result: Any = None
    is_error: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ErrorEvent(JsonObject):
    """An error the agent reports inside a run (the run may go on)."""

    TYPE: ClassVar[str] = "error"
    message: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PermissionPreviewEvent(JsonObject):
    """Structured permission preflight: what ``tool`` is about to change."""

    TYPE: ClassVar[str] = "permission.preview"
    tool: str
    diff: str | None = None
    summary: str | None = None
    truncated: bool = False
    tool_call_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PermissionReadyEvent(JsonObject):
    """The preflight of ``tool`` is complete; a confirm request usually follows."""

    TYPE: ClassVar[str] = "permission.ready"
    tool: str
    tool_call_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UnknownEvent:
    """An event type this UI does not know; all its members are kept in ``extra``."""

    type: str
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The event's JSON object, as received."""
        return {**self.extra, "type": self.type}


AgentEvent = (
    TextEvent | FinalEvent | ReasoningEvent | ToolCallEvent | ToolResultEvent | ErrorEvent
    | PermissionPreviewEvent | PermissionReadyEvent | UnknownEvent
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (TextEvent, FinalEvent, ReasoningEvent, ToolCallEvent, ToolResultEvent, ErrorEvent,
                PermissionPreviewEvent, PermissionReadyEvent)
}


def parse_event(obj: Any, where: str = "event") -> AgentEvent:
    """The typed event of an ``agent.event``'s ``event`` member; raise ``InvalidInput``."""
    if not isinstance(obj, dict):
        raise InvalidInput(f"{where}: must be an object, got {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise InvalidInput(f"{where}: field 'type' must be a string")
    rest = {key: value for key, value in obj.items() if key != "type"}
    cls = EVENT_TYPES.get(kind)
    if cls is None:
        return UnknownEvent(kind, rest)
    event: AgentEvent = cls.from_json(rest, f"{where} ({kind})")
    return event


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
    confirm_label: str = "Yes"
    cancel_label: str = "No"
    danger_level: str = "normal"
    allow_remember: bool = False
    allow_reason: bool = False
    run_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ConfirmResult(JsonObject):
    """The answer: ``{"ok": bool, "remember"?: true, "reason"?: str}``."""

    ok: bool
    remember: bool = False
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PromptParams(JsonObject):
    """Runtime -> UI ``ui.prompt.request``: a text-input dialog."""

    title: str
    message: str = ""
    default: str = ""
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
class PickParams(JsonObject):
    """Runtime -> UI ``ui.pick.request``: options are strings or ``{id, label, description?}``."""

    title: str
    options: tuple[PickOption, ...]
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
    AGENT_EVENT: AgentEventParams,
    UI_CONFIRM: ConfirmParams,
    UI_PROMPT: PromptParams,
    UI_PICK: PickParams,
    UI_NOTIFY: NotifyParams,
    UI_WORKING: WorkingParams,
    UI_SET_EDITOR_TEXT: SetEditorTextParams,
}


# --- the conversion machinery -------------------------------------------------------------------


def _scalar(what: str, accepts: Callable[[Any], bool], cast: Callable[[Any], Any] = lambda v: v) -> Any:
    def convert(where: str, value: Any) -> Any:
        if not accepts(value):
            raise InvalidInput(f"{where} must be {what}, got {type(value).__name__}")
        return cast(value)

    return convert


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _options(where: str, value: Any) -> tuple[PickOption, ...]:
    # The core's pick.request input defines what an option is: reuse its validation.
    try:
        request = input_from_json({"type": "pick.request", "id": "", "title": "", "options": value})
    except InvalidInput as exc:
        raise InvalidInput(f"{where} is invalid: {exc}") from None
    assert isinstance(request, PickRequest)
    return request.options


def _nested(cls: type[Any]) -> Callable[[str, Any], Any]:
    return lambda where, value: cls.from_json(value, where)


_CONVERTERS: dict[str, Callable[[str, Any], Any]] = {
    "str": _scalar("a string", lambda v: isinstance(v, str)),
    "bool": _scalar("a boolean", lambda v: isinstance(v, bool)),
    "int": _scalar("an integer", _is_int),
    "float": _scalar("a finite number", lambda v: (_is_int(v) or isinstance(v, float)) and math.isfinite(v),
                     float),
    "int | str": _scalar("an integer or a string", lambda v: _is_int(v) or isinstance(v, str)),
    "dict[str, Any]": _scalar("an object", lambda v: isinstance(v, dict)),
    "tuple[str, ...]": _scalar("an array of strings",
                               lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v), tuple),
    "tuple[PickOption, ...]": _options,
    "PeerInfo": _nested(PeerInfo),
    "Capabilities": _nested(Capabilities),
    "AgentEvent": lambda where, value: parse_event(value, where),
}


def _from_json(cls: type[Any], obj: Any, where: str) -> Any:
    if not isinstance(obj, dict):
        raise InvalidInput(f"{where}: must be an object, got {type(obj).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name != "extra"}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in obj.items():
        spec = fields.get(key)
        if spec is None:
            extra[key] = value
            continue
        annotation = str(spec.type)
        if value is None:
            if annotation.endswith(" | None"):
                values[key] = None
            elif spec.default is dataclasses.MISSING and annotation != "Any":
                raise InvalidInput(f"{where}: field '{key}' must not be null")
            continue  # otherwise null means absent: the default
        base = annotation.removesuffix(" | None")
        values[key] = value if base == "Any" else _CONVERTERS[base](f"{where}: field '{key}'", value)
    for name, spec in fields.items():
        if name not in values and spec.default is dataclasses.MISSING and str(spec.type) != "Any":
            raise InvalidInput(f"{where}: missing field '{name}'")
    return cls(**values, extra=extra)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (JsonObject, UnknownEvent)):
        return value.to_json()
    if isinstance(value, PickOption):
        option = {"id": value.id, "label": value.label}
        return {**option, "description": value.description} if value.description else option
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    return value


def _to_json(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kind = getattr(type(obj), "TYPE", None)
    if kind is not None:
        out["type"] = kind
    out.update(obj.extra)
    for spec in dataclasses.fields(obj):
        if spec.name == "extra":
            continue
        value = getattr(obj, spec.name)
        if spec.default is not dataclasses.MISSING and value == spec.default:
            continue
        out[spec.name] = _jsonable(value)
    if kind is not None:
        out["type"] = kind
    return out
