"""What a dialog renders to (``DialogView``) and its wrapped plain message: shared by ``dialogs`` and ``forms``."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..text.cells import WidthPolicy, clip_to_width, sanitize, wrap_line
from ..text.style import DEFAULT, Row, Segment

__all__ = ["DialogView", "wrapped_message"]


@dataclass(frozen=True, slots=True)
class DialogView:
    """A rendered dialog: rows, the row that must stay visible, the cursor (row, col) or None."""

    rows: tuple[Row, ...]
    focus: int
    cursor: tuple[int, int] | None = None


@functools.lru_cache(maxsize=16)
def _wrapped(text: str, width: int, policy: WidthPolicy, style: object, indent: str = "  ") -> tuple[Row, ...]:
    """Sanitized ``text`` word-wrapped under an indent, one row per wrapped row.

    Cached: a dialog is drawn on every tick while it is open, and a runtime's message can be
    megabytes; re-wrapping it each tick made a tick cost its length (issue 15).
    """
    rows: list[Row] = []
    room = max(1, width - len(indent))
    for line in sanitize(text).replace("\t", "    ").split("\n"):
        start = 0
        for end in wrap_line(line, room, policy):
            piece, _ = clip_to_width(line[start:end].rstrip(" "), room, policy)
            rows.append((Segment(indent, DEFAULT), Segment(piece, style)) if piece else ())  # type: ignore[arg-type]
            start = end
    return tuple(rows)


def wrapped_message(text: str, width: int, policy: WidthPolicy) -> tuple[Row, ...]:
    """A dialog's plain message: sanitized, tabs expanded, word-wrapped under a two-space indent."""
    return _wrapped(text, width, policy, DEFAULT)
