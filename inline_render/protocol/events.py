"""The agent events: the ``event`` member of an ``agent.event`` notification.

These dataclasses are the one normalized event model the rest of the UI works
on; ``parse_event`` is the codelia codec (seed 004: ``type`` names the class,
every other member is a field).  Another dialect adds its own thin codec that
builds the same classes.  Each event may carry a ``timestamp`` (kept in
``extra``).  Unknown event types are kept whole as ``UnknownEvent`` so a newer
runtime never breaks an older UI.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import InvalidInput
from .jsonobj import CONVERTERS, JsonObject

__all__ = [
    "EVENT_TYPES",
    "AgentEvent",
    "CompactionCompleteEvent",
    "CompactionStartEvent",
    "ErrorEvent",
    "FinalEvent",
    "HiddenUserMessageEvent",
    "LlmRetryEvent",
    "PermissionPreviewEvent",
    "PermissionReadyEvent",
    "ReasoningEvent",
    "StepCompleteEvent",
    "StepStartEvent",
    "TextEvent",
    "TextSnapshotEvent",
    "ToolCallEvent",
    "ToolResultEvent",
    "UnknownEvent",
    "parse_event",
]


@dataclass(frozen=True, slots=True)
class TextEvent(JsonObject):
    """Streamed assistant text, appended to the run's assistant entry."""

    TYPE: ClassVar[str] = "text"
    content: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TextSnapshotEvent(JsonObject):
    """The whole assistant text so far; it replaces the streaming entry's text (Lemon's ``message_update``).

    Not a codelia event (seed 004 streams parts): kept out of ``EVENT_TYPES`` so
    the codelia codec never builds it; the Lemon codec does.
    """

    TYPE: ClassVar[str] = "text_snapshot"
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
    file_path: str | None = None
    language: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PermissionReadyEvent(JsonObject):
    """The preflight of ``tool`` is complete; a confirm request usually follows."""

    TYPE: ClassVar[str] = "permission.ready"
    tool: str
    tool_call_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StepStartEvent(JsonObject):
    """A step of the agent (usually one tool call) begins: a quiet spinner change."""

    TYPE: ClassVar[str] = "step_start"
    step_id: str = ""
    title: str = ""
    step_number: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StepCompleteEvent(JsonObject):
    """A step ended (``status``: completed or error): quiet, the tool result tells the story."""

    TYPE: ClassVar[str] = "step_complete"
    step_id: str = ""
    status: str = "completed"
    duration_ms: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LlmRetryEvent(JsonObject):
    """The runtime retries a failed model call (its members vary by version: all optional)."""

    TYPE: ClassVar[str] = "llm.retry"
    attempt: int | None = None
    max_attempts: int | None = None
    delay_ms: float | None = None
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CompactionStartEvent(JsonObject):
    """The runtime starts compacting the conversation to free context."""

    TYPE: ClassVar[str] = "compaction_start"
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CompactionCompleteEvent(JsonObject):
    """Compaction ended; ``compacted`` says whether anything was compacted."""

    TYPE: ClassVar[str] = "compaction_complete"
    compacted: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HiddenUserMessageEvent(JsonObject):
    """A user-role message the runtime gave the model (never shown live; in a history replay it is the prompt)."""

    TYPE: ClassVar[str] = "hidden_user_message"
    content: str = ""
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
    TextEvent
    | TextSnapshotEvent
    | FinalEvent
    | ReasoningEvent
    | ToolCallEvent
    | ToolResultEvent
    | ErrorEvent
    | PermissionPreviewEvent
    | PermissionReadyEvent
    | StepStartEvent
    | StepCompleteEvent
    | LlmRetryEvent
    | CompactionStartEvent
    | CompactionCompleteEvent
    | HiddenUserMessageEvent
    | UnknownEvent
)

EVENT_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        TextEvent,
        FinalEvent,
        ReasoningEvent,
        ToolCallEvent,
        ToolResultEvent,
        ErrorEvent,
        PermissionPreviewEvent,
        PermissionReadyEvent,
        StepStartEvent,
        StepCompleteEvent,
        LlmRetryEvent,
        CompactionStartEvent,
        CompactionCompleteEvent,
        HiddenUserMessageEvent,
    )
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


CONVERTERS["AgentEvent"] = lambda where, value: parse_event(value, where)
