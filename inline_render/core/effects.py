"""Stage 4, ``apply_terminal_effects``: plan terminal operations (pure), write them, settle the result.

Insertion (DESIGN, terminal facts): rows leave the viewport through its top.
The rows to insert are first *staged* in the viewport's top rows (usually they
are already there, drawn by earlier ticks), then line feeds at the viewport's
last row move it down over free screen rows or scroll the whole screen, so the
staged rows end up above it.  No scroll region and no absolute cursor move is
ever written: a terminal that resizes while a frame is still on its way
carries the cursor along with the content (reflow, rows pulled back from
history on growth, rows pushed into it on a shrink), so relative motion keeps
the frame on the viewport's rows and off the committed rows above them.
Rows already on screen move without being rewritten, and every ``\\n`` is one
byte, so a failed write tells exactly how many rows made it.
The cursor is hidden before the first region write and not shown again in an
inserting tick; the follow-up redraw shows it at the composer.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace
from typing import NamedTuple, cast

import wcwidth

from ..text.cells import WidthPolicy, common_prefix, text_width
from ..text.style import DEFAULT, Row, Segment, row_text, row_width
from .app import RECENT_FRAMES, AppState, FrameRecord, Screen
from .bulk import draw_insert_rows, last_cell_start, split_last_cell, stage_blank, write_last_cell
from .evolve import copier, fast_init, maker
from .layout import Frame, Layout
from .log import LogRow, continues_line
from .ops import (
    AUTOWRAP_OFF,
    AUTOWRAP_ON,
    BEGIN_SYNC,
    CANCEL,
    END_SYNC,
    ERASE_DOWN,
    ERASE_LINE,
    HIDE_CURSOR,
    INSERTED_MOVED,
    INSERTED_SCROLLED,
    LINE_FEED,
    RESET_STYLE,
    SHOW_CURSOR,
    TOP_UP,
    Anchored,
    AutowrapOff,
    AutowrapOn,
    DeleteLines,
    EffectResult,
    HideCursor,
    Index,
    Inserted,
    LineFeed,
    MoveBy,
    Op,
    Plan,
    RestoreCursor,
    SaveCursor,
    Text,
    as_ops,
)
from .plan_stream import plan_stream
from .state import CursorPhase, RenderState, SyncPhase

__all__ = [
    "EffectResult",
    "Projection",
    "RowsPlan",
    "plan_frame",
    "plan_terminal_effects",
    "settle",
    "settle_rows",
]

_new = tuple.__new__  # a NamedTuple's own __new__ is a Python call

# Moves are values too, and a few of them (the composer's column, one row up) are most of them: shared.
_MOVES: dict[tuple[int, int | None], MoveBy] = {}
# The two kinds ``_move`` emits, by their one number (an int key hashes without building a tuple).
_COLUMNS: dict[int, MoveBy] = {}  # MoveBy(0, col) by col
_UPS: dict[int, MoveBy] = {}  # MoveBy(rows, None) by rows (negative)


def _move_by(rows: int, col: int | None) -> MoveBy:
    """The ``MoveBy(rows, col)`` value (one object per distinct move; bounded by the terminal's size)."""
    op = _MOVES.get((rows, col))
    if op is None:
        if len(_MOVES) >= 4096:
            _MOVES.clear()
            _COLUMNS.clear()
            _UPS.clear()
        op = _MOVES[rows, col] = MoveBy(rows, col)
    if rows == 0 and col is not None:
        _COLUMNS[col] = op
    elif col is None:
        _UPS[rows] = op
    return op


@fast_init
@dataclass(frozen=True, slots=True)
class Projection:
    """The terminal knowledge after the whole plan is written."""

    screen: Screen
    rows_planned: int


def _common_prefix(a: str, b: str) -> int:
    i = common_prefix(a, b)
    if i and not (a.isascii() and b.isascii()):
        # Back off to a cluster start in both texts: "e" -> "e\u0301" changes the cell at "e".
        if i < len(a):
            i = min(i, wcwidth.grapheme_boundary_before(a, i + 1))
        if i < len(b):
            i = min(i, wcwidth.grapheme_boundary_before(b, i + 1))
    return i


def _zero_width_first(text: str, policy: WidthPolicy) -> bool:
    """``text`` starts with a grapheme cluster of width 0 (a format character such as U+202E or U+200B)."""
    if not text or text.isascii():
        return False
    first = next(iter(wcwidth.iter_graphemes(text)))
    return text_width(first, policy) == 0


def diff_row(old: Row | None, new: Row, width: int, policy: WidthPolicy) -> tuple[int, list[Segment], bool] | None:
    """How to turn ``old`` into ``new``: (start column, segments to write, erase the rest), or None."""
    if old is None:
        return 0, list(new), row_width(new, policy) < width
    if old == new:
        return None
    if not old:
        return 0, list(new), False  # onto a blank row (as every row scrolled in is): write it all, erase nothing
    count = len(old)
    if count == len(new):
        a, old_style = old[-1]  # unpacked: cheaper than the NamedTuple's attributes
        b, new_style = new[-1]
        if old_style is new_style and b.isascii() and (count == 1 or old[:-1] == new[:-1]):
            # Only the last segment changed, in the same style object, into ASCII text: a token counter in the
            # status line (at equal length) or a streamed row (text added at its end).  What the general path
            # below gives for both, without its loop and bookkeeping; past the last column it decides.
            column = 0
            if count > 1:
                for segment in old[:-1]:
                    column += text_width(segment[0], policy)
            if len(a) == len(b) and a.isascii():
                # The XOR branch below: the texts differ (the rows do), so the XOR has a set bit.
                xor = int.from_bytes(a.encode(), "big") ^ int.from_bytes(b.encode(), "big")
                cut = len(a) - (xor.bit_length() + 7) // 8
                if column + cut < width:
                    end = len(b) - ((xor & -xor).bit_length() - 1) // 8
                    return column + cut, [_new(Segment, (b[cut:end], new_style))], False
            elif len(b) > len(a) and b.startswith(a) and column + len(a) < width:
                # Every old cell kept (ASCII: one column each), the addition written after them, nothing erased.
                return column + len(a), [_new(Segment, (b[len(a) :], new_style))], False
    column = index = 0
    size = min(len(old), len(new))
    while index < size and old[index] == new[index]:
        column += text_width(new[index].text, policy)
        index += 1
    segments = list(new[index:])
    cut = unchanged_tail = 0
    kept_all = index == len(old)  # every old cell is kept (the usual keystroke: text added at the end)
    if index < size:
        kept, changed = old[index], new[index]
        if kept.style is changed.style or kept.style == changed.style:  # styles are shared objects: identity first
            a, b = kept.text, changed.text
            if len(a) == len(b) and a != b and a.isascii() and b.isascii():
                # Equal-width ASCII texts (a counter in a status line): where they differ, seen from both ends, is
                # where the XOR of their bytes read as big integers has its highest and its lowest set bit.
                xor = int.from_bytes(a.encode(), "big") ^ int.from_bytes(b.encode(), "big")
                cut = len(a) - (xor.bit_length() + 7) // 8
                if index == len(old) - 1 == len(new) - 1:
                    # The last segment changed inside and kept its width: the cells after the change are left
                    # as they are on screen, so only the changed cells are written; the row keeps its width
                    # (ASCII cells are one column each), so nothing is erased and no zero-width cell follows.
                    unchanged_tail = ((xor & -xor).bit_length() - 1) // 8
                    column += cut
                    if column < width:
                        return column, [Segment(b[cut : len(b) - unchanged_tail], changed.style)], False
                    return 0, list(new), row_width(new, policy) < width  # after the last column: see below
            else:
                cut = _common_prefix(a, b)
            if cut:
                if cut == len(a):
                    column += text_width(a, policy)  # b[:cut] is a: the text measured before, not a new one
                    kept_all = index == len(old) - 1
                else:
                    column += text_width(b[:cut], policy)
            if cut or unchanged_tail:
                if cut < len(b):
                    segments[0] = Segment(b[cut : len(b) - unchanged_tail], changed.style)
                else:
                    segments.pop(0)
    if segments and column >= width:
        return 0, list(new), row_width(new, policy) < width  # an addition after the last column: see below
    # What follows the kept cells on screen; all ASCII (the usual case) cannot start zero-wide.
    rest = old[index:]
    for segment in rest:
        if not segment.text.isascii():
            if _zero_width_first("".join([segment.text for segment in rest])[cut:], policy):
                # A zero-width character lives in the cell before it: only rewriting that cell removes it, and
                # one added after the last column cannot be reached by a cursor move (it would attach to the
                # wrong cell).
                return 0, list(new), row_width(new, policy) < width
            break
    new_width = column + unchanged_tail
    for segment in segments:
        new_width += text_width(segment.text, policy)
    # The old row was as wide as the kept cells when all of it was kept: nothing of it is left to erase.
    return column, segments, new_width < width and not kept_all and row_width(old, policy) > new_width


class _Planner:
    """Builds one tick's operations while tracking what the screen will show.

    Rows are screen rows as the library believes them; every motion is emitted relative to the cursor,
    whose row is always known (its column may not be: -1), so a wrong belief about where the terminal
    put the viewport shifts a frame as a whole instead of landing it on committed rows.
    """

    def __init__(self, state: AppState, layout: Layout) -> None:
        self.state = state
        self.columns, self.rows, self.height = state.columns, state.rows, layout.height
        self.policy = state.config.width_policy
        screen = state.screen
        self.screen = screen
        self.ops: list[Op] = []
        self.top = screen.top
        if screen.lost_row:  # a failed write stopped inside a line written with autowrap (Screen.lost_row)
            self.ops.append(MoveBy(-self.rows, None))
            self.cursor = (0, -1)
        elif screen.cursor is not None:
            self.cursor = screen.cursor
        else:  # not anchored yet: the cursor is where the shell left it
            start = screen.start_row if screen.start_row is not None else self.rows - 1
            self.cursor = (max(0, min(start, self.rows - 1)), -1)
        self.visible = screen.cursor_visible
        # Without synchronized output every move of a visible cursor shows: hide it before the first one.
        self.hide_before_change = not state.config.synchronized_output
        drawn = screen.drawn
        resizing = state.config.soft_wrap_lines and screen.anchored and not screen.broken and screen.cursor is not None
        if resizing and drawn is not None and len(drawn) != self.height:
            self.height = len(drawn)  # the viewport as it is, until ``set_height`` makes it the layout's
        self.drawn: list[Row | None] = (
            list(drawn) if drawn is not None and len(drawn) == self.height else [None] * self.height
        )
        self.drawn_log_rows = screen.drawn_log_rows
        self.first_written = self.height  # the first viewport row this plan writes to
        self.inserted_rows = 0  # rows this plan moves into scrollback through the viewport's top
        self.moved = False  # anchoring or inserting changed the rows on screen from ``screen.drawn``

    def change(self) -> None:
        """Something is about to be drawn or moved."""
        if self.hide_before_change:
            self.hide_before_change = False
            if self.visible is not False:
                self.ops.append(HIDE_CURSOR)
                self.visible = False

    def move(self, row: int, col: int | None) -> None:
        """Cursor to ``row`` (and column ``col``; None keeps it), as a relative move.

        Up is ``CUU``; down is line feeds (see ops.MoveBy for why not CUD), which return to column 0 where
        the pty has onlcr and keep the column where it has not, so the column is always set after them.
        Each is its own operation, the column last, so a write cut part-way tells where the cursor went.
        """
        row = max(0, min(row, self.rows - 1))
        current_row, current_col = self.cursor
        if col is None:  # keep the column (inside the screen: line feeds need it set again)
            col = current_col if row <= current_row else max(0, min(current_col, self.columns - 1))
        if row == current_row and col == current_col:
            return
        self.change()
        self.cursor = _move(self.ops, current_row, current_col, row, col, self.rows - 1)

    def line_feeds(self, count: int, inserted: bool) -> int:
        """``count`` line feeds; returns how many moved the cursor down (the others scrolled the screen)."""
        self.change()
        row = self.cursor[0]
        moved = 0
        for _ in range(count):
            step = 1 if row < self.rows - 1 else 0
            row += step
            moved += step
            self.ops.append(LINE_FEED)
            if inserted:
                self.ops.append(INSERTED_MOVED if step else INSERTED_SCROLLED)
        self.cursor = (row, -1)  # onlcr returns to column 0; without it the column stays: unknown
        return moved

    def update_row(self, index: int, new: Row, whole: bool = False) -> None:
        change = diff_row(self.drawn[index], new, self.columns, self.policy)
        self.drawn[index] = new
        if change is None:
            return
        column, segments, erase = change
        if not segments and not erase:
            return
        # ``whole``: a row staged on the viewport to go into history.  A frame the terminal read after a resize that
        # re-wrapped the viewport's rows lands on other rows than ``drawn`` says, and a diff written there would
        # keep cells of what is there (``line 1.1`` over a dialog's split ``  Path: t`` went into history as
        # ``line 1.1t``): the row is erased and written whole.  Rows it already shows as drawn are not written.
        erase = erase or whole
        self.change()
        self.first_written = min(self.first_written, index)
        if erase:
            # Erase the whole line, then write the row: a reflowing terminal (tmux) keeps the width of
            # cells erased after text, so a resize would re-wrap a row wider than what it shows.
            self.move(self.top + index, 0)
            self.ops.append(ERASE_LINE)
            column, segments = 0, list(new)
        self.move(self.top + index, column)
        for segment in segments:
            column += text_width(segment.text, self.policy)
        split = last_cell_start(segments) if column >= self.columns else None
        if split is not None:
            write_last_cell(self.ops, segments, split)
        else:
            self.ops.extend(Text(segment.text, segment.style) for segment in segments)
        # A write that reaches the last column leaves a pending wrap; the column is then "past the end".
        self.cursor = (self.top + index, column if column < self.columns else self.columns)

    def erase_from(self, row: int) -> None:
        """Erase screen ``row`` and every row below it: ``ESC[J`` from column 1, then the row itself (tmux and GNU
        screen push the whole screen into history on ``ESC[J`` at the home position).  The terminal is at least
        two columns wide."""
        self.move(row, 1)
        self.ops.append(ERASE_DOWN)
        self.move(row, 0)
        self.ops.append(ERASE_LINE)

    def anchor(self) -> None:
        """Place the viewport: at startup at the shell's cursor row, after a resize or failure where it now is.

        The rows from the top down are erased (``ESC[J`` from column 1, then the top row: tmux pushes the
        whole screen into history on ``ESC[J`` at the home position), then ``height - 1`` line feeds
        reserve the viewport's rows: where the screen ends they scroll it, its top rows entering history.
        """
        screen, height = self.screen, self.height
        if screen.anchored and not screen.broken:
            return
        if screen.broken:
            self.ops.append(RESET_STYLE)
        if self.visible is not False:
            self.ops.append(HIDE_CURSOR)  # the whole viewport is redrawn: no visible cursor on the way
            self.visible = False
        self.hide_before_change = False
        self.moved = True
        top = screen.top if screen.anchored else self.cursor[0]
        top = max(0, min(top, self.rows - 1))
        if self.columns > 1:
            self.erase_from(top)  # clears leftovers of an old frame; never ESC[2J
            if self.state.config.soft_wrap_lines:
                # GNU screen moves rows deleted from its top row into history (as its ESC[J there): from the
                # row below it then, whose mark is the one that would join the viewport's first row to the next.
                start = top if top > 0 else 1
                if start < self.rows:
                    self.move(start, 0)
                    self.ops.append(DeleteLines(self.rows - start))
                    self.move(top, 0)
        else:
            self.move(top, 0)
            self.ops.append(ERASE_DOWN)
        # After a resize that may have left a soft-wrapped piece of a re-wrapped row just above (see
        # Screen.ghost_above), the erased top row stays blank: the piece ends there instead of running on
        # into our first row (the terminal would show both as one line).
        reserve = height - 1 + (1 if screen.broken and screen.ghost_above else 0)
        if self.state.config.soft_wrap_lines and screen.broken and top == 0:
            # GNU screen: the top row keeps the mark that it continues into the next one (no erase clears it, and
            # the rows are deleted from the row below), so a row the resize split there would join our first
            # row: two blank rows, the second without a mark, go above the viewport instead.
            reserve = height + 1
        if reserve:
            self.line_feeds(reserve, inserted=False)
            top = self.cursor[0] - (height - 1)
            self.move(top, 0)
        self.top = top
        self.ops.append(Anchored(top))
        self.drawn = [()] * height

    def insert(self, layout: Layout) -> None:
        """Move ``layout.to_insert`` into scrollback through the top of the viewport.

        The rows are staged in the viewport's top rows (usually drawn there already), then line feeds at
        the viewport's last row move it down over free screen rows or scroll the whole screen: either way
        the staged rows end up above the viewport, in history or on screen, each line feed one row.
        """
        options = self.state.log.options
        theme = options.theme if options is not None else None
        rows = draw_insert_rows(layout.to_insert, self.columns, self.policy, theme)
        if not rows:
            return
        self.moved = True
        if self.visible is not False:
            self.ops.append(HIDE_CURSOR)  # before any row moves
            self.visible = False
        self.hide_before_change = False
        if self.state.config.soft_wrap_lines:
            self.insert_soft_wrapped(layout.to_insert, rows)
            return
        height = self.height
        position = 0
        while position < len(rows):
            count = min(len(rows) - position, height)
            if position:  # the last line feeds left every viewport row blank: the bulk path (bulk.py)
                chunk, at, last = rows[position : position + count], self.cursor, self.rows - 1
                self.cursor, first = stage_blank(self.ops, chunk, self.top, at, self.columns, last, self.policy)
                self.first_written = min(self.first_written, first)
            else:
                for index in range(count):
                    self.update_row(index, rows[position + index], whole=True)
            self.push_staged(count)
            position += count

    def push_staged(self, count: int) -> None:
        """Line feeds at the viewport's last row move the ``count`` rows staged at its top above it, into
        history or onto the screen rows above: they count as inserted, and the viewport's rows move up.

        The viewport's rows under the log's (status, composer, a dialog) are erased first.  A terminal that shrank
        before it read this frame has fewer rows above them than planned, and the line feeds push them into its
        history: they would stay there as a ghost of the composer.  Erased, a blank row goes instead.  They are
        drawn again anyway (the line feeds move them up, where the frame has other rows)."""
        chrome = max(count, self.drawn_log_rows)
        if any(row is None or row for row in self.drawn[chrome:]):  # None: not known to be blank
            # Never the home position (``chrome`` is at least 1), where ``ESC[J`` is ``erase_from``'s concern.
            self.move(self.top + chrome, 0)
            self.ops.append(ERASE_DOWN)
            self.drawn[chrome:] = [()] * (self.height - chrome)
        self.move(self.top + self.height - 1, None)
        self.top += self.line_feeds(count, inserted=True)
        self.drawn = self.drawn[count:] + [()] * count
        self.first_written = max(0, self.first_written - count)
        self.inserted_rows += count

    def insert_soft_wrapped(self, to_insert: tuple[LogRow, ...], rows: list[Row]) -> None:
        """``insert`` for ``Config.soft_wrap_lines``: the staged rows of a logical line are written as one text with
        autowrap on (``write_line``), so the terminal holds them soft-wrapped into each other as it holds
        ``printf``'s, and a batch ends at the end of a line where one fits, so a line is linked whole.

        Only staged rows, in the viewport, are linked, never to a row an earlier batch or frame left above the
        viewport: nothing is written to a committed row.  Moves are relative to the cursor and no text is put at
        a column planned for the width: a terminal that narrowed before it read the frame wraps the text at its
        width, as the rows of any frame in flight then (``reduce_resize``).  The layout inserts only whole lines."""
        # Where each line ends (one past its last row), found once.
        ends = [
            index for index in range(1, len(to_insert)) if not continues_line(to_insert[index - 1], to_insert[index])
        ]
        ends.append(len(to_insert))
        # Staged rows go on the viewport's rows, which show only what is open (``layout._compute_layout``): it is
        # first made as tall as the longest line, so each is staged, and linked, whole (then shrunk again).
        longest = max(end - start for start, end in zip([0, *ends], ends, strict=False))
        if longest > self.height:
            self.set_height(min(longest, self.rows))
        height = self.height
        position = 0
        while position < len(rows):
            # A batch ends at the end of the last line that ends within it, else at the viewport's height (a line
            # longer than the screen is linked batch by batch).
            limit = position + min(len(rows) - position, height)
            within = bisect.bisect_right(ends, limit)  # the line ends within it
            last = ends[within - 1] if within else position
            count = (last if last > position else limit) - position
            index = 0
            while index < count:
                end = min(ends[bisect.bisect_right(ends, position + index)], position + count) - position
                # A line's last rows that show nothing are not linked: nothing of them would wrap onto them, so the
                # row before would keep its pending wrap, where the erase takes its last cell, and the cursor would
                # stay a row above where ``AutowrapOff.wrapped`` puts it (a line ending narrower than its indent, a
                # trailing blank's mark that does not fit); a widening would join them to the line, unseen.
                linked = end
                while linked - index > 1 and not row_text(rows[position + linked - 1]).strip(" "):
                    linked -= 1
                # A line of one row is left to ``update_row`` (a diff, autowrap off): written again with autowrap on
                # and the viewport below it erased, every inserting frame redrew the whole viewport, and a narrowing
                # that met one distrusted all of it: 17 and 22 lines duplicated in ten storms on the real screen,
                # against 2 without (README, Known limits: such a row clipped by a frame in flight stays clipped).
                if linked - index > 1 and self.columns > 1:
                    self.write_line(index, rows[position + index : position + linked])
                    index = linked
                for at in range(index, end):
                    self.update_row(at, rows[position + at], whole=True)
                index = end
            self.push_staged(count)
            position += count

    def write_line(self, index: int, rows: list[Row]) -> None:
        """Write ``rows``, the wrapped rows of one line, on the viewport's rows from ``index`` down as one text:
        autowrap on, each row but the last filled to the width with blanks (the next row's first cell then wraps,
        and the terminal marks the row as continuing), autowrap off.

        The rows from there down are erased first (``ESC[J``: the rest of the viewport, which ``finish`` draws
        again), not the rest of the last row after it: where the text ends on the terminal's last column (a full
        row, or a narrowing the terminal applied before it read the frame) an erase at the pending wrap would take
        that cell on GNU screen (``erase_from``)."""
        self.change()
        self.first_written = min(self.first_written, index)
        row = self.top + index
        self.erase_from(row)
        self.drawn[index:] = [()] * (self.height - index)
        self.ops.append(AUTOWRAP_ON)
        last, column = len(rows) - 1, 0
        for offset, line_row in enumerate(rows):
            column = 0
            for segment in line_row:
                self.ops.append(Text(segment.text, segment.style))
                column += text_width(segment.text, self.policy)
            if column < self.columns and offset < last:
                self.ops.append(Text(" " * (self.columns - column), DEFAULT))
            self.drawn[index + offset] = line_row
        self.ops.append(AutowrapOff(last))
        self.cursor = (row + last, min(column, self.columns))  # a full row: pending wrap

    def set_height(self, new: int) -> None:
        """``Config.soft_wrap_lines``: the viewport made ``new`` rows tall, its top rows kept, as tall as what it shows
        (``layout._compute_layout``).  Taller: line feeds at its last row move it down over free rows or scroll the
        screen; shorter: the rows under its new last row are erased (the screen rows under the viewport are blank).
        After the insertion, which stages a line's rows in the viewport as it was (made taller for a long line)."""
        old = self.height
        if new == old:
            return
        self.moved = True
        if new > old:
            self.move(self.top + old - 1, None)
            self.change()
            row = self.cursor[0]
            for _ in range(new - old):
                self.ops.append(LINE_FEED)
                if row < self.rows - 1:
                    row += 1
                else:  # it scrolled the screen: the viewport's top went up a row (as a failed write's retry reads)
                    self.top -= 1
                    self.ops.append(TOP_UP)
            self.cursor = (row, -1)
            self.drawn += [()] * (new - old)
        else:
            self.erase_from(self.top + new)
            del self.drawn[new:]
        self.height = new

    def finish(self, frame: Frame, show_cursor: bool) -> None:
        """Draw ``frame``'s rows that differ from what is on screen; every row is then ``frame.rows``'s."""
        if self.moved or self.screen.drawn is not frame.rows:
            drawn = self.drawn
            for index, row in enumerate(frame.rows):
                if drawn[index] is not row:  # the very row object (cached) is on screen already: no change
                    self.update_row(index, row)
        cursor_row, cursor_col = frame.cursor
        self.move(self.top + cursor_row, cursor_col)
        if show_cursor and self.visible is not True:
            self.ops.append(SHOW_CURSOR)
            self.visible = True
        elif not show_cursor and self.visible is None:
            self.ops.append(HIDE_CURSOR)
            self.visible = False


def _unchanged(state: AppState, layout: Layout, frame: Frame) -> bool:
    """The terminal shows ``frame`` already, the cursor visible where it belongs: the plan is empty and the
    screen knowledge is ``state.screen`` as it is (the fields ``plan_terminal_effects`` would set, compared)."""
    screen = state.screen
    cursor = screen.cursor
    if (
        screen.drawn is not frame.rows
        or layout.to_insert
        or cursor is None
        or screen.broken
        or not screen.anchored
        or screen.cursor_visible is not True
        or state.fault is not None
    ):
        return False
    row, col = frame.cursor
    return (
        cursor[0] == max(0, min(screen.top + row, state.rows - 1))
        and cursor[1] == col
        and screen.first_written == layout.height  # the last frames wrote nothing (they aged out, see plan)
        and screen.resized_from is None
        and screen.start_row is None
        and screen.drawn_columns == state.columns
        and screen.drawn_log_rows == frame.log_rows
        and screen.dialog_drawn == (state.dialog is not None and layout.dialog_height > 0)
    )


_NO_OPS = Plan((), None)
_LAST_UNCHANGED: dict[None, Projection] = {}  # the projection of the last unchanged screen (idle ticks reuse it)


def plan_terminal_effects(state: AppState, layout: Layout, frame: Frame) -> tuple[Plan, Projection]:
    """The operations that bring the terminal to ``frame``, inserting ``layout.to_insert`` first (pure)."""
    planned = plan_frame(state, layout, frame)
    if isinstance(planned, RowsPlan):
        return planned.plan(), Projection(planned.screen, 0)
    return planned


def plan_frame(state: AppState, layout: Layout, frame: Frame) -> RowsPlan | tuple[Plan, Projection]:
    """``plan_terminal_effects``, except that a frame whose only change is rows is planned as a ``RowsPlan``
    (the backend's ``write_rows`` encodes it, ``settle_rows`` folds it in): the tick's path."""
    if _unchanged(state, layout, frame):
        # The usual idle tick (no input, or one that changed nothing on screen): nothing to plan or diff.
        last = _LAST_UNCHANGED.get(None)
        if last is None or last.screen is not state.screen:
            last = _LAST_UNCHANGED[None] = Projection(state.screen, 0)
        return _NO_OPS, last
    screen = state.screen
    if state.config.soft_wrap_lines:
        streamed = plan_stream(state, layout, frame)
        if streamed is not None:
            plan, after = streamed
            if plan.ops:
                frames = _recent_frames(state, screen.recent_frames, plan, layout.to_insert)
                after = replace(after, recent_frames=frames)
            return plan, Projection(after, len(layout.to_insert))
        if screen.stream is not None:
            # A streamed text the frame does not continue (a Markdown line re-rendered): drawn again from the
            # viewport's top as an anchoring does, so the marks that link its rows (no erase clears them on GNU
            # screen) are deleted with them.
            # Its rows above the viewport's top are open rows too: the viewport is anchored from the text's first row.
            above = sum(len(line) for line in screen.stream) - screen.drawn_log_rows
            top = max(0, screen.top - max(0, above))
            state = replace(state, screen=replace(screen, broken=True, stream=None, top=top))
    if (
        not layout.to_insert
        and screen.anchored
        and not screen.broken
        and screen.cursor is not None
        and screen.drawn is not None
        and len(screen.drawn) == layout.height
        and state.config.synchronized_output
    ):
        return _plan_rows(state, layout, frame)
    return _plan(state, layout, frame)


def _plan(state: AppState, layout: Layout, frame: Frame) -> tuple[Plan, Projection]:
    """The general plan: anchor when needed, insert, then draw the frame (``_Planner``)."""
    planner = _Planner(state, layout)
    planner.anchor()
    if layout.to_insert:
        planner.insert(layout)
    planner.set_height(layout.height)  # only ever differs with Config.soft_wrap_lines
    planner.finish(frame, show_cursor=not layout.to_insert)
    ops = planner.ops
    if ops and state.config.synchronized_output:
        ops = [BEGIN_SYNC, *ops, END_SYNC]
    if state.screen.broken:
        ops = [CANCEL, *ops]  # first: ends any escape sequence a failed write left open
        if state.config.soft_wrap_lines or state.screen.lost_row:
            ops.insert(1, AUTOWRAP_OFF)  # the failed write may have stopped inside a text written with autowrap
    plan = Plan(tuple(ops), state.fault)
    # The first rows the last frames wrote to, moved up by the rows this one inserted (see
    # Screen.recent_written).  A frame that writes no row counts too (as ``height``): it ages the older
    # entries, which keeps the distrust to the frames the terminal may not have read yet.  A tick that writes
    # nothing is no frame (the shell counts the ticks that wrote): it ages nothing.
    moved = planner.inserted_rows
    recent = state.screen.recent_written if state.screen.anchored else ()
    older = recent[1 - RECENT_FRAMES :]
    written = (*(max(0, row - moved) for row in older), planner.first_written) if plan.ops else recent
    frames = _recent_frames(state, state.screen.recent_frames if state.screen.anchored else (), plan, layout.to_insert)
    # Positional arguments, named in the comments: binding 11 keywords cost more than setting the fields.
    screen = Screen(
        planner.top,  # top
        frame.rows,  # drawn; finish() drew every row of the frame: the planner's rows are these very objects
        state.columns,  # drawn_columns
        frame.log_rows,  # drawn_log_rows
        planner.cursor,  # cursor
        planner.visible,  # cursor_visible
        True,  # anchored
        None,  # start_row
        state.dialog is not None and layout.dialog_height > 0,  # dialog_drawn; a dialog with no row on screen is unseen
        False,  # broken
        written,  # recent_written
        frames,  # recent_frames
        False,  # ghost_above
        None,  # resized_from
        False,  # lost_row
        None,  # stream: the planner draws rows one by one (``effects_stream`` writes the open line as one text)
    )
    return plan, Projection(screen, len(layout.to_insert))


class RowsPlan(NamedTuple):
    """The plan of a rows-only frame (``plan_frame``), in the form the backend encodes straight to bytes.

    ``items`` are the plan's operations, except that a text is its ``Segment`` (text, style) rather than a
    ``Text`` made for it: a status tick writes one text, and neither the ``Text`` nor a ``Plan`` or
    ``Projection`` is built for it (``plan`` makes them when asked: a failed write, a test, the replay
    through ``FrameRecord.ops``).  ``screen`` is the screen after it; ``fail_after`` is ``Plan``'s.
    """

    items: tuple[Op | Segment, ...]
    screen: Screen
    fail_after: int | None

    def plan(self) -> Plan:
        """The same plan as a ``Plan`` of operations (what ``_plan`` gives for this frame)."""
        return Plan(as_ops(self.items) if self.items else (), self.fail_after)


def _plan_rows(state: AppState, layout: Layout, frame: Frame) -> RowsPlan:
    """The plan of a frame whose only change is rows: what ``_plan`` gives, without a planner.

    The viewport is anchored and known, nothing is inserted, and synchronized output hides every move
    (so no cursor is hidden on the way): each changed row is diffed, moved to and written, then the
    cursor goes where the frame wants it.  A token counter or a streamed delta plans here, and
    ``tests/test_perf_equivalence.py`` checks it against ``_plan`` on every tick of several workloads.
    """
    screen = state.screen
    drawn, cursor = screen.drawn, screen.cursor
    assert drawn is not None and cursor is not None  # plan_frame checked both (no cast: a call)
    columns, last = state.columns, state.rows - 1
    policy = state.config.width_policy
    top = screen.top
    at_row, at_col = cursor
    items: list[Op | Segment] = [BEGIN_SYNC]
    first = layout.height
    for index, new in enumerate(frame.rows):
        old = drawn[index]
        if old is not new and (change := diff_row(old, new, columns, policy)) is not None:
            column, segments, erase = change
            if segments or erase:
                if index < first:
                    first = index
                row = top + index
                if erase:
                    at_row, at_col = _move(items, at_row, at_col, row, 0, last)
                    items.append(ERASE_LINE)
                    column, segments = 0, list(new)
                at_row, at_col = _move(items, at_row, at_col, row, column, last)
                for segment in segments:
                    items.append(segment)  # written as it is: the Text it stands for is made only when asked
                    text = segment[0]
                    column += len(text) if text.isascii() else text_width(text, policy)
                if column >= columns and (split := last_cell_start(segments)) is not None:
                    before, after = split_last_cell(segments, split)  # as ``bulk.write_last_cell`` in ``update_row``
                    items[len(items) - len(segments) :] = [*before, AUTOWRAP_ON, *after, AUTOWRAP_OFF]
                at_row, at_col = row, column if column < columns else columns
    cursor_row, cursor_col = frame.cursor
    at_row, at_col = _move(items, at_row, at_col, top + cursor_row, cursor_col, last)
    if screen.cursor_visible is not True:
        items.append(SHOW_CURSOR)
    if len(items) > 1:
        items.append(END_SYNC)
        planned = tuple(items)
        frames = (*screen.recent_frames[1 - RECENT_FRAMES :], _record(state, planned, ()))
    else:
        planned, frames = (), screen.recent_frames  # nothing written: no frame for the shell to count
    screen = _MAKE_SCREEN(
        top,  # top
        frame.rows,  # drawn
        columns,  # drawn_columns
        frame.log_rows,  # drawn_log_rows
        (at_row, at_col),  # cursor
        True,  # cursor_visible
        True,  # anchored
        None,  # start_row
        state.dialog is not None and layout.dialog_height > 0,  # dialog_drawn
        False,  # broken
        (*screen.recent_written[1 - RECENT_FRAMES :], first) if planned else screen.recent_written,  # recent_written
        frames,  # recent_frames
        False,  # ghost_above (the default, as in _plan)
        None,  # resized_from (the default, as in _plan)
        False,  # lost_row (the default, as in _plan)
        None,  # stream (rows-only frames are not stream frames)
    )
    return _new(RowsPlan, (planned, screen, state.fault))


_MAKE_SCREEN = maker(Screen)  # a Screen from all its fields, without calling the class (evolve.maker)


def settle_rows(state: AppState, layout: Layout, screen: Screen) -> AppState:
    """``settle`` after a rows-only plan (``RowsPlan``) was written completely: what ``settle`` gives for it
    (nothing inserted, the phases idle and visible), without the ``Plan`` and ``Projection`` it reads."""
    planned = layout.render
    if planned.sync_phase is not SyncPhase.IDLE or planned.cursor_phase is not CursorPhase.VISIBLE_AT_COMPOSER:
        planned = RenderState(
            planned.wrapped_total,  # wrapped_total
            max(planned.visible_start, planned.inserted_until),  # visible_start
            planned.visible_end,  # visible_end
            planned.inserted_until,  # inserted_until
            SyncPhase.IDLE,  # sync_phase
            planned.confirm_phase,  # confirm_phase
            CursorPhase.VISIBLE_AT_COMPOSER,  # cursor_phase
        )
    return _SETTLED(state, state.log, planned, screen, None)


def _record(state: AppState, ops: tuple[Op | Segment, ...], inserted: tuple[LogRow, ...]) -> FrameRecord:
    """The record of a frame that writes ``ops``, with the screen it was planned for (``Screen.recent_frames``)."""
    screen = state.screen
    drawn = screen.drawn or ()
    cursor = screen.cursor if screen.cursor is not None else (screen.top + max(0, len(drawn) - 1), 0)
    return _new(FrameRecord, (screen.top, drawn, state.columns, state.rows, cursor, ops, inserted))


def _recent_frames(
    state: AppState, frames: tuple[FrameRecord, ...], plan: Plan, inserted: tuple[LogRow, ...]
) -> tuple[FrameRecord, ...]:
    """``Screen.recent_frames`` after ``plan``: the frame as written, with the screen it was planned for, added
    when it writes (a frame that writes nothing is not one the shell acknowledges and counts)."""
    if not plan.ops:
        return frames
    return (*frames[1 - RECENT_FRAMES :], _record(state, plan.ops, inserted))


def _move(
    ops: list[Op] | list[Op | Segment], at_row: int, at_col: int, row: int, col: int, last: int
) -> tuple[int, int]:
    """The operations that move the cursor from (``at_row``, ``at_col``) to (``row``, ``col``), ``row`` within
    0..``last``, appended to ``ops``; the cursor after them.  Up is ``CUU``, down is line feeds, the column
    is its own operation after them (see ``_Planner.move``)."""
    row = max(0, min(row, last))
    if row > at_row:
        ops.extend([LINE_FEED] * (row - at_row))
        ops.append(_COLUMNS.get(col) or _move_by(0, col))
        return row, col
    if row < at_row:
        ops.append(_UPS.get(row - at_row) or _move_by(row - at_row, None))
    elif col == at_col:
        return row, col
    if col != at_col:
        ops.append(_COLUMNS.get(col) or _move_by(0, col))
    return row, col


def cursor_after(state: AppState, ops: tuple[Op, ...]) -> tuple[int, int, bool, bool]:
    """Viewport top, cursor row, whether anchored, after ``ops`` (a plan's written prefix), as believed; and
    whether they stop inside a line written with autowrap on (the row is then not known: ``Screen.lost_row``)."""
    screen = state.screen
    top, anchored = screen.top, screen.anchored
    if screen.cursor is not None:
        row = screen.cursor[0]
    else:
        row = screen.start_row if screen.start_row is not None else state.rows - 1
    last, inside, saved = state.rows - 1, False, row
    for op in ops:
        kind = type(op)
        if kind is MoveBy:
            row = max(0, min(row + cast(MoveBy, op).rows, last))
        elif kind is LineFeed or kind is Index:
            row = min(row + 1, last)
        elif kind is SaveCursor:
            saved = row
        elif kind is RestoreCursor:
            row = saved
        elif kind is Anchored:
            top, anchored = cast(Anchored, op).top, True
        elif kind is Inserted:
            top += cast(Inserted, op).top_delta
        elif kind is AutowrapOn:
            inside = True
        elif kind is AutowrapOff:
            row, inside = min(row + cast(AutowrapOff, op).wrapped, last), False
    return top, row, anchored, inside


def settle(state: AppState, layout: Layout, plan: Plan, projection: Projection, result: EffectResult) -> AppState:
    """Fold what was really written into the state (only effect-result fields change)."""
    inserted = result.rows_inserted
    log = state.log.advance(layout.to_insert[:inserted]) if inserted else state.log
    planned = layout.render
    inserted_until = planned.inserted_until + inserted
    sync, cursor = planned.sync_phase, planned.cursor_phase
    if result.complete:
        screen = projection.screen
        if inserted:
            sync, cursor = SyncPhase.INSERTED_NEEDS_REDRAW, CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
        elif screen.stream is not None:
            # GNU screen: the open line goes into the terminal's own text as it streams (effects_stream), and the
            # cursor stays hidden at its end until the line is finished; the frame after that shows it.
            sync, cursor = SyncPhase.IDLE, CursorPhase.HIDDEN_AT_TEXT_END
        else:
            sync, cursor = SyncPhase.IDLE, CursorPhase.VISIBLE_AT_COMPOSER
    else:
        # The cursor's row after the written operations is known (all motion is relative); the column is not.
        top, row, anchored, lost = cursor_after(state, plan.ops[: result.ops_written])
        screen = replace(
            state.screen, top=top, anchored=anchored, drawn=None, cursor=(row, -1), cursor_visible=None, broken=True,
            lost_row=lost, stream=None,
            # A stream frame (effects_stream) cut inside its text may have scrolled the screen once more than its
            # operations tell: the piece of the line above the top may continue into it; one blank row between.
            ghost_above=lost and any(type(op) is Index for op in plan.ops),
        )  # fmt: skip
        if inserted < projection.rows_planned:
            sync = SyncPhase.NEEDS_INSERT
            if any(isinstance(op, HideCursor) for op in plan.ops[: result.ops_written]):
                cursor = CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT  # as it is on screen; the retry shows it
        elif inserted:
            sync, cursor = SyncPhase.INSERTED_NEEDS_REDRAW, CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
        else:
            sync, cursor = state.render.sync_phase, state.render.cursor_phase
    if not inserted and sync is planned.sync_phase and cursor is planned.cursor_phase:
        if planned is state.render and screen is state.screen and state.fault is None:
            return state  # nothing changed (an idle tick): no copy
        render = planned  # the usual tick: nothing inserted, the phases as planned (visible_start >= inserted_until)
    else:
        # One RenderState built directly (the seven fields), not a chain of copies.
        render = RenderState(
            planned.wrapped_total,  # wrapped_total
            max(planned.visible_start, inserted_until),  # visible_start
            planned.visible_end,  # visible_end
            inserted_until,  # inserted_until
            sync,  # sync_phase
            planned.confirm_phase,  # confirm_phase
            cursor,  # cursor_phase
        )
    return _SETTLED(state, log, render, screen, None)


_SETTLED = copier(AppState, "log", "render", "screen", "fault")
