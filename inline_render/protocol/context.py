"""The user's working context (cwd, workspace, active file) that a UI tells its runtime, in any dialect."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .jsonobj import JsonObject

__all__ = ["UiContext"]


@dataclass(frozen=True, slots=True)
class UiContext(JsonObject):
    """``ui.context.update`` params, and ``run.start``'s ``ui_context`` snapshot: where the user works."""

    cwd: str | None = None
    workspace_root: str | None = None
    active_file: dict[str, Any] | None = None
    selection: dict[str, Any] | None = None
    extensions: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
