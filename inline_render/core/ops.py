"""Terminal operations: the pure-data plan that a backend turns into bytes.

Every cursor motion is *relative* (``MoveBy``: rows up or down, then a column):
a terminal carries the cursor along with the content when it reflows, pulls
rows back from history or pushes them into it on a resize, so a frame the
terminal reads only after such a resize still lands on the rows it was meant
for, and never on committed rows above the viewport (absolute moves and scroll
regions would).  Coordinates in the planner are 0-based screen rows/columns as
the library believes them.  ``Inserted`` and ``Anchored``
write nothing: they mark the point in the stream after which rows count as
inserted into scrollback (or the viewport as placed), so a write that fails
part-way tells exactly what happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..text.style import Segment, Style
from .evolve import fast_init

__all__ = [
    "AUTOWRAP_OFF",
    "AUTOWRAP_ON",
    "BEGIN_SYNC",
    "CANCEL",
    "CARRIAGE_RETURN",
    "END_SYNC",
    "ERASE_DOWN",
    "ERASE_LINE",
    "HIDE_CURSOR",
    "INDEX",
    "INSERTED_MOVED",
    "INSERTED_SCROLLED",
    "LINE_FEED",
    "RESET_STYLE",
    "RESTORE_CURSOR",
    "ROW_UP",
    "SAVE_CURSOR",
    "SHOW_CURSOR",
    "TOP_UP",
    "Anchored",
    "AutowrapOff",
    "AutowrapOn",
    "BeginSync",
    "Cancel",
    "DeleteLines",
    "EffectResult",
    "EndSync",
    "EraseDown",
    "EraseLine",
    "HideCursor",
    "Index",
    "Inserted",
    "LineFeed",
    "MoveBy",
    "Op",
    "Plan",
    "ResetStyle",
    "RestoreCursor",
    "SaveCursor",
    "ShowCursor",
    "Text",
    "as_ops",
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
class DeleteLines:
    """``ESC[{count}M`` at column 0 of the viewport's top row when anchoring on GNU screen (``Config.soft_wrap_lines``):
    the rows from there down are erased already, and deleting them brings in new blank rows, without the mark
    screen keeps on a row that continues into the next (no erase clears it: a row an earlier resize split, then
    erased and redrawn, would join the row below it on the next widening).  Never on the screen's top row, from
    which screen moves the deleted rows into history."""

    count: int


@dataclass(frozen=True, slots=True)
class AutowrapOn:
    """``ESC[?7h``: the rows of a logical line that follow are written as one text, which the terminal wraps
    itself (GNU screen, ``Config.soft_wrap_lines``); autowrap is off otherwise (``shell.closing.ENTER_MODES``)."""


@dataclass(frozen=True, slots=True)
class AutowrapOff:
    """``ESC[?7l``: after such a text, and after a failed write, which may have stopped inside one.  ``wrapped``:
    the rows the text moved the cursor down (its rows but the first), for whoever follows the cursor by the
    operations (``settle.cursor_after``)."""

    wrapped: int = 0


@dataclass(frozen=True, slots=True)
class Index:
    """``ESC D`` (IND): down a row, scrolling the screen at its bottom row, the column kept (a line feed may return
    to column 0: onlcr).  GNU screen keeps a pending wrap through it, as through ``CUU`` and ``SaveCursor``: the
    streamed text's end (``plan_stream``) stays where the next character continues the text."""


@dataclass(frozen=True, slots=True)
class SaveCursor:
    """``ESC 7`` (DECSC): the streamed text's end, before the rows under it are drawn (``plan_stream``)."""


@dataclass(frozen=True, slots=True)
class RestoreCursor:
    """``ESC 8`` (DECRC): back to the streamed text's end (``plan_stream``)."""


@dataclass(frozen=True, slots=True)
class HideCursor:
    """``ESC[?25l``."""


@dataclass(frozen=True, slots=True)
class ShowCursor:
    """``ESC[?25h``."""


@fast_init
@dataclass(frozen=True, slots=True)
class MoveBy:
    """Cursor ``rows`` up (``CUU``, which never scrolls) or down (line feeds), and to column ``col``.

    Down is line feeds, not ``CUD``: when the terminal has fewer rows below the cursor than the plan
    believes (a shrink applied while the frame was in flight; tmux deletes the rows below the cursor),
    ``CUD`` stops at the bottom and the cursor ends closer to the viewport's top than planned, so the
    next re-anchor would count up into committed rows; a line feed at the bottom scrolls instead and
    keeps the distance.  Line feeds may return to column 0 (onlcr), so a move down always has a
    ``col``.  ``col`` 0 is a carriage return, others ``CHA``; ``col`` None keeps the column.
    """

    rows: int
    col: int | None


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
class LineFeed:
    """One ``\\n``: the cursor moves down a row, or the whole screen scrolls up at its bottom row
    (the top row enters history).  A pty with ``onlcr`` also returns the cursor to column 0."""


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
    AutowrapOff,
    AutowrapOn,
    BeginSync,
    EndSync,
    Cancel,
    DeleteLines,
    HideCursor,
    ShowCursor,
    Index,
    SaveCursor,
    RestoreCursor,
    MoveBy,
    Text,
    ResetStyle,
    EraseLine,
    EraseDown,
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


# Operations without fields are values: one instance each, not one per tick (the planners share them).
BEGIN_SYNC, END_SYNC, CANCEL = BeginSync(), EndSync(), Cancel()
HIDE_CURSOR, SHOW_CURSOR = HideCursor(), ShowCursor()
ERASE_LINE, ERASE_DOWN, LINE_FEED = EraseLine(), EraseDown(), LineFeed()
RESET_STYLE = ResetStyle()
AUTOWRAP_OFF, AUTOWRAP_ON = AutowrapOff(), AutowrapOn()
INDEX, SAVE_CURSOR, RESTORE_CURSOR = Index(), SaveCursor(), RestoreCursor()
CARRIAGE_RETURN, ROW_UP = MoveBy(0, 0), MoveBy(-1, None)
INSERTED_MOVED, INSERTED_SCROLLED = Inserted(1, top_delta=1), Inserted(1)
TOP_UP = Inserted(0, top_delta=-1)  # a line feed at the screen's bottom row scrolled it: the viewport's top went up


@fast_init
@dataclass(frozen=True, slots=True)
class EffectResult:
    """What really reached the terminal in a tick."""

    bytes_written: int
    ops_written: int
    rows_inserted: int
    complete: bool
    error: str | None = None


def as_ops(items: tuple[Op | Segment, ...]) -> tuple[Op, ...]:
    """Operations where a text may be given as its ``Segment`` (text, style), as operations: each such
    ``Segment`` a ``Text``.  The rows-only plan (``plan.RowsPlan``) keeps its texts as the segments it
    diffed, and the backend writes them as such: the ``Text`` objects are made only when something reads
    the operations (the replay of frames in flight, a failed write)."""
    return tuple([Text(item[0], item[1]) if type(item) is Segment else item for item in items])  # type: ignore[misc]
