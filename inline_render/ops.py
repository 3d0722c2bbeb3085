"""Terminal operations: the pure-data plan that a backend turns into bytes.

Coordinates are 0-based screen rows/columns.  ``Inserted`` and ``Anchored``
write nothing: they mark the point in the stream after which rows count as
inserted into scrollback (or the viewport as placed), so a write that fails
part-way tells exactly what happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .evolve import fast_init
from .style import Style

__all__ = [
    "Anchored",
    "BeginSync",
    "Cancel",
    "EndSync",
    "EraseDown",
    "EraseLine",
    "HideCursor",
    "Inserted",
    "LineFeed",
    "MoveTo",
    "Op",
    "Plan",
    "ResetRegion",
    "ResetStyle",
    "SetRegion",
    "ShowCursor",
    "Text",
]


@dataclass(frozen=True, slots=True)
class BeginSync:
    """``ESC[?2026h``: the terminal may hold the display until EndSync."""


@dataclass(frozen=True, slots=True)
class EndSync:
    """``ESC[?2026l``."""


@dataclass(frozen=True, slots=True)
class Cancel:
    """``CAN``: aborts an escape sequence left incomplete by a failed write."""


@dataclass(frozen=True, slots=True)
class HideCursor:
    """``ESC[?25l``."""


@dataclass(frozen=True, slots=True)
class ShowCursor:
    """``ESC[?25h``."""


@fast_init
@dataclass(frozen=True, slots=True)
class MoveTo:
    """Cursor to (``row``, ``col``)."""

    row: int
    col: int


@fast_init
@dataclass(frozen=True, slots=True)
class Text:
    """Sanitized text in a style, at the cursor."""

    text: str
    style: Style


@dataclass(frozen=True, slots=True)
class ResetStyle:
    """Default attributes (``ESC[0m``)."""


@dataclass(frozen=True, slots=True)
class EraseLine:
    """Erase from the cursor to the end of the row (``ESC[K``), in the default style."""


@dataclass(frozen=True, slots=True)
class EraseDown:
    """Erase from the cursor to the end of the screen (``ESC[J``), never ``ESC[2J``."""


@dataclass(frozen=True, slots=True)
class SetRegion:
    """Scroll region rows ``top``..``bottom`` inclusive (0-based; ``top`` is always 0 here)."""

    top: int
    bottom: int


@dataclass(frozen=True, slots=True)
class ResetRegion:
    """``ESC[r``: the whole screen scrolls again (and the cursor goes home)."""


@dataclass(frozen=True, slots=True)
class LineFeed:
    """One ``\\n`` at the bottom of the scroll region: the region scrolls up by one row."""


@fast_init
@dataclass(frozen=True, slots=True)
class Inserted:
    """Marker: ``rows`` more log rows are in scrollback once everything before is written."""

    rows: int
    top_delta: int = 0


@fast_init
@dataclass(frozen=True, slots=True)
class Anchored:
    """Marker: the viewport is placed at screen row ``top``."""

    top: int


Op = Union[
    BeginSync,
    EndSync,
    Cancel,
    HideCursor,
    ShowCursor,
    MoveTo,
    Text,
    ResetStyle,
    EraseLine,
    EraseDown,
    SetRegion,
    ResetRegion,
    LineFeed,
    Inserted,
    Anchored,
]


@fast_init
@dataclass(frozen=True, slots=True)
class Plan:
    """The operations of one tick; ``fail_after`` makes a replay backend fail after that many bytes."""

    ops: tuple[Op, ...]
    fail_after: int | None = None
