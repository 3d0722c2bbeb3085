"""Seed 004's session, model, MCP, skills and context methods: names and typed params/results.

The UI calls these for its slash commands (``/resume``, ``/model``, ``/mcp``,
``/skills``) and sends ``ui.context.update`` (a notification: codelia's
runtime answers nothing).  Results are read leniently: members the UI does not
need are optional, unknown ones are kept in ``extra``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..context import UiContext  # shared with the other dialects; imported from here too
from ..jsonobj import JsonObject

__all__ = [
    "MCP_LIST",
    "MODEL_LIST",
    "MODEL_SET",
    "SESSION_HISTORY",
    "SESSION_LIST",
    "SKILLS_LIST",
    "UI_CONTEXT_UPDATE",
    "McpListParams",
    "McpListResult",
    "McpServer",
    "ModelListParams",
    "ModelListResult",
    "ModelSetParams",
    "ModelSetResult",
    "SessionHistoryParams",
    "SessionHistoryResult",
    "SessionInfo",
    "SessionListParams",
    "SessionListResult",
    "Skill",
    "SkillsListParams",
    "SkillsListResult",
    "UiContext",
]

SESSION_LIST = "session.list"
SESSION_HISTORY = "session.history"
MODEL_LIST = "model.list"
MODEL_SET = "model.set"
MCP_LIST = "mcp.list"
SKILLS_LIST = "skills.list"
UI_CONTEXT_UPDATE = "ui.context.update"


@dataclass(frozen=True, slots=True)
class SessionListParams(JsonObject):
    """``session.list``: the sessions to offer for resuming (the runtime's default limit is 50)."""

    limit: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionInfo(JsonObject):
    """One session of ``session.list``."""

    session_id: str
    updated_at: str = ""
    run_id: str | None = None
    message_count: int | None = None
    last_user_message: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionListResult(JsonObject):
    """``session.list``'s answer."""

    sessions: tuple[SessionInfo, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionHistoryParams(JsonObject):
    """``session.history``: the runtime replays the session's ``agent.event`` s, then answers."""

    session_id: str
    max_runs: int | None = None
    max_events: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SessionHistoryResult(JsonObject):
    """``session.history``'s answer, sent after the replayed events."""

    runs: int = 0
    events_sent: int = 0
    truncated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ModelListParams(JsonObject):
    """``model.list`` (the runtime's default provider is ``openai``)."""

    provider: str | None = None
    include_details: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ModelListResult(JsonObject):
    """``model.list``'s answer."""

    provider: str = ""
    models: tuple[str, ...] = ()
    current: str | None = None
    details: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ModelSetParams(JsonObject):
    """``model.set``."""

    name: str
    provider: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ModelSetResult(JsonObject):
    """``model.set``'s answer."""

    name: str = ""
    provider: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class McpListParams(JsonObject):
    """``mcp.list`` (``/mcp`` asks for ``loaded``)."""

    scope: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class McpServer(JsonObject):
    """One MCP server of ``mcp.list``."""

    id: str
    transport: str = ""
    source: str | None = None
    enabled: bool = True
    state: str = ""
    tools: int | None = None
    last_error: str | None = None
    last_connected_at: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class McpListResult(JsonObject):
    """``mcp.list``'s answer."""

    servers: tuple[McpServer, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SkillsListParams(JsonObject):
    """``skills.list``."""

    cwd: str | None = None
    force_reload: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Skill(JsonObject):
    """One skill of ``skills.list``."""

    id: str
    name: str = ""
    description: str = ""
    path: str = ""
    dir: str = ""
    scope: str = ""
    mtime_ms: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SkillsListResult(JsonObject):
    """``skills.list``'s answer."""

    skills: tuple[Skill, ...] = ()
    errors: tuple[dict[str, Any], ...] = ()
    truncated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
