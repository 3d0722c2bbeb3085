"""Approvals (seed 003): risk and worker path of a confirm, and the remember scopes of its answer.

A confirm request may carry seed 003's approval context: ``risk`` (``low``,
``medium``, ``high``) and ``worker_path`` (the workers from the root to the one
that asks: ``refactor-db -> update-schema -> migrate-prod``).  The dialog shows
them under the message, the risk styled by the theme (``risk_low``,
``risk_medium``, ``risk_high``).  When the request allows remembering, the
dialog offers ``[y]es / [n]o / [a]lways / [s]ession`` and the answer says
which: ``remember=True`` plus ``scope`` "always" or "session".

``approval_result`` turns an answer into seed 003's ``ApprovalResult`` shape.
"""

from __future__ import annotations

from typing import Any

from ..inputs import ConfirmRequest
from ..outputs import ConfirmAnswer
from ..text.cells import WidthPolicy, clip_to_width, flatten, wrap_line
from ..text.style import DEFAULT, Row, Segment
from ..text.themes import DEFAULT_THEME, Theme

__all__ = [
    "DANGER_LEVELS",
    "PATH_SEPARATOR",
    "REMEMBER_SCOPES",
    "RISKS",
    "approval_json",
    "approval_lines",
    "approval_result",
    "approval_rows",
    "is_dangerous",
    "worker_names",
]

DANGER_LEVELS = frozenset({"high", "danger", "critical", "destructive"})
RISKS = ("low", "medium", "high")
REMEMBER_SCOPES = ("always", "session")
PATH_SEPARATOR = " -> "  # ASCII: the path reads the same in --ascii transcripts


def is_dangerous(request: ConfirmRequest) -> bool:
    """A dangerous question (``danger_level`` or ``risk`` high): a red title, and Enter denies by default."""
    return request.danger_level in DANGER_LEVELS or request.risk.lower() in DANGER_LEVELS


def approval_rows(
    request: ConfirmRequest, width: int, policy: WidthPolicy, theme: Theme = DEFAULT_THEME
) -> tuple[Row, ...]:
    """The ``Risk:`` and ``Path:`` rows of an approval (none for a plain confirm)."""
    rows: list[Row] = []
    if request.risk:
        risk = flatten(request.risk)
        # An unknown level (a runtime's own word) is shown as sent, unstyled: never dropped.
        style = theme.style(f"risk_{risk.lower()}") if risk.lower() in RISKS else DEFAULT
        label, used = clip_to_width("  Risk: ", width, policy)
        piece, _ = clip_to_width(risk, max(0, width - used), policy)
        rows.append((Segment(label), Segment(piece, style)) if piece else (Segment(label),))
    names = [flatten(name).strip() for name in request.worker_path]
    path = PATH_SEPARATOR.join(name for name in names if name)
    if path:
        rows.extend(_wrapped_label("Path: ", path, width, policy))
    return tuple(rows)


def _wrapped_label(label: str, text: str, width: int, policy: WidthPolicy) -> list[Row]:
    """``label`` then ``text`` word-wrapped under a hanging indent (a deep path is not cut off)."""
    indent = "  " + " " * len(label)
    room = max(1, width - len(indent))
    rows: list[Row] = []
    start = 0
    for end in wrap_line(text, room, policy):
        piece, _ = clip_to_width(text[start:end].rstrip(" "), room, policy)
        head = "  " + label if not rows else indent
        head, used = clip_to_width(head, width, policy)
        piece, _ = clip_to_width(piece, max(0, width - used), policy)
        rows.append((Segment(head), Segment(piece)) if piece else (Segment(head),))
        start = end
    return rows


def approval_lines(request: ConfirmRequest) -> list[str]:
    """The approval context as plain transcript lines (seed 003's CLI: ``Risk:``, ``Path:``, the choices)."""
    lines: list[str] = []
    if request.risk:
        lines.append(f"  Risk: {request.risk}")
    path = PATH_SEPARATOR.join(name for name in request.worker_path if name.strip())
    if path:
        lines.append(f"  Path: {path}")
    if request.allow_remember:
        lines.append("  [y]es / [n]o / [a]lways / [s]ession")
    return lines


def approval_json(request: ConfirmRequest) -> dict[str, Any]:
    """The approval members of a JSON Lines ``dialog`` record (none for a plain confirm)."""
    data: dict[str, Any] = {}
    if request.risk:
        data["risk"] = request.risk
    if request.worker_path:
        data["worker_path"] = list(request.worker_path)
    if request.allow_remember:
        data["choices"] = ["yes", "no", "always", "session"]
    return data


def worker_names(path: Any) -> tuple[str, ...]:
    """A worker path from the wire: names, or seed 003 ``WorkerInfo`` objects (their ``id``; else ``task``).

    Anything else (not a list, an item of another shape) is left out: the path is context for the
    user, and a malformed one must not cost the question.
    """
    if not isinstance(path, list):
        return ()
    names: list[str] = []
    for item in path:
        if isinstance(item, dict):
            item = item.get("id") if isinstance(item.get("id"), str) else item.get("task")
        if isinstance(item, str) and item.strip():
            names.append(item)
    return tuple(names)


def approval_result(answer: ConfirmAnswer) -> dict[str, Any]:
    """Seed 003's ``ApprovalResult``: ``{approved: true | false | "always" | "session", reason?}``."""
    if not answer.ok:
        return {"approved": False, "reason": answer.reason} if answer.reason else {"approved": False}
    if answer.remember and answer.scope in REMEMBER_SCOPES:
        return {"approved": answer.scope}
    return {"approved": True}
