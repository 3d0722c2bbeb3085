"""The general planner (``Planner``): anchor the viewport, insert rows into scrollback, draw the frame.


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

from ..text.cells import text_width
from ..text.style import DEFAULT, Row, Segment, row_text
from .app import AppState
from .bulk import draw_insert_rows, last_cell_start, stage_blank, write_last_cell
from .diff import diff_row
from .layout import Frame, Layout
from .log import LogRow, continues_line
from .ops import (
    AUTOWRAP_ON,
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
    DeleteLines,
    MoveBy,
    Op,
    Text,
)

__all__ = ["Planner", "append_move"]


# Moves are values too, and a few of them (the composer's column, one row up) are most of them: shared.
_MOVES: dict[tuple[int, int | None], MoveBy] = {}


# The two kinds ``append_move`` emits, by their one number (an int key hashes without building a tuple).
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


class Planner:
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
        config = state.config
        variable = config.soft_wrap_lines or config.compact  # the viewport's height follows what it shows
        resizing = variable and screen.anchored and not screen.broken and screen.cursor is not None
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
        self.cursor = append_move(self.ops, current_row, current_col, row, col, self.rows - 1)

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
        """``Config.compact`` and ``Config.soft_wrap_lines``: the viewport made ``new`` rows tall, its top rows kept, as
        tall as what it shows (``layout._compute_layout``).  Taller: line feeds at its last row move it down over
        free rows or scroll the screen; shorter: the rows under its new last row are erased (the screen rows under
        the viewport are blank).  GNU screen's insertion stages a line's rows in the viewport as it was (made taller
        for a long line), so it changes after; a compact viewport grows before (``plan._plan``)."""
        old = self.height
        if new == old:
            return
        self.moved = True
        if new > old:
            if self.visible is not False:
                self.ops.append(HIDE_CURSOR)  # before any row moves, as ``insert``
                self.visible = False
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
        if show_cursor and frame.cursor_shown and self.visible is not True:
            self.ops.append(SHOW_CURSOR)
            self.visible = True
        elif self.visible is None or (show_cursor and not frame.cursor_shown and self.visible):
            # Unknown (the inserting frames hide it first), or shown where a dialog without a field has the keys.
            self.ops.append(HIDE_CURSOR)
            self.visible = False


def append_move(
    ops: list[Op] | list[Op | Segment], at_row: int, at_col: int, row: int, col: int, last: int
) -> tuple[int, int]:
    """The operations that move the cursor from (``at_row``, ``at_col``) to (``row``, ``col``), ``row`` within
    0..``last``, appended to ``ops``; the cursor after them.  Up is ``CUU``, down is line feeds, the column
    is its own operation after them (see ``Planner.move``)."""
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
