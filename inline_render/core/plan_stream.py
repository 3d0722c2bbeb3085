"""GNU screen's stream frames (``Config.soft_wrap_lines``): the log's open text written as ``printf`` writes it.

``plan_frame`` asks ``plan_stream`` first on GNU screen; None leaves the frame to ``plan._plan``.  Its rules:

* While a line is open the cursor rests at the end of the log's text (``Screen.stream``), hidden.  A frame appends at
  the cursor, with autowrap on, and never writes at a column planned for the width: screen re-wraps the text and the
  cursor with it at a resize (a widening joins its rows and pulls history back into reach, as it does ``printf``'s),
  so a frame it reads after a resize continues the text where the text ends.
* Nothing above the text's end is written.  The rows under it (status, composer, a dialog) are erased and drawn
  again from a position saved at the end (``ESC 7``/``ESC 8``, ``ESC D`` down): screen keeps a pending wrap through
  them, so the next character still continues the text (measured, ``tests/test_screen_stream.py``).
* A frame whose text is not the old one plus more (a row changed above the end) is not a stream frame: the usual
  planner draws it row by row.  With no open line the cursor rests at the composer.
* Blank rows a line wrapped into at its end are not written (nothing would wrap onto them): the text waits at the
  pending wrap of the row before, and a line taller than the screen goes on with its head above it, as printf's.
"""

from __future__ import annotations

from typing import NamedTuple

from ..text.cells import WidthPolicy
from ..text.style import DEFAULT, Row, Segment, row_text, row_width
from .app import RECENT_FRAMES, AppState, Screen
from .bulk import draw_insert_rows, last_cell_start, write_last_cell
from .layout import Frame, Layout
from .log import LogRow, continues_line
from .log import log_rows as log_rows_of
from .ops import (
    AUTOWRAP_ON,
    BEGIN_SYNC,
    CARRIAGE_RETURN,
    END_SYNC,
    ERASE_DOWN,
    ERASE_LINE,
    HIDE_CURSOR,
    INDEX,
    RESTORE_CURSOR,
    ROW_UP,
    SAVE_CURSOR,
    SHOW_CURSOR,
    TOP_UP,
    AutowrapOff,
    Inserted,
    MoveBy,
    Op,
    Plan,
    Text,
)
from .stream_text import appends_at_cursor, held_rows, lines_of, rewrap_stream, row_tail, stream_rows

__all__ = ["appends_at_cursor", "plan_stream", "rewrap_stream", "stream_rows"]


class _Text(NamedTuple):
    """The rows of a stream frame's text (``_new_text``): the lines that ended, then the open line's."""

    rows: list[Row]  # the inserted lines' rows, the open rows the viewport does not show, then those it shows
    log: list[LogRow]  # the log rows they are drawn from
    lines: tuple[tuple[Row, ...], ...]  # ``rows`` grouped into logical lines
    hidden: int  # how many open rows the viewport does not show (above its top)
    flags: list[bool]  # each row continues the line of the row before it
    held: int  # the open line's last rows that show nothing (not written)
    unlinked: set[int]  # a finished line's last rows that show nothing (rows of their own)


class _Written(NamedTuple):
    """The terminal's text before the frame and where the frame continues it (``_continued``)."""

    rows: list[Row]  # the text's rows (``Screen.stream``); none when no line is open
    held: int  # its open line's held rows
    start: int  # the row the text ends on (0 without a text: the frame starts on the viewport's top row)
    tail: tuple[Segment, ...]  # what the frame writes first on that row
    on_next: int  # 1 when the cursor is on the first held row already (a resize re-wrapped the text)


def plan_stream(state: AppState, layout: Layout, frame: Frame) -> tuple[Plan, Screen] | None:
    """The stream frame for ``frame``: its plan and the screen after it (``recent_frames`` as before: the caller
    records the frame), or None."""
    if not _may_stream(state, layout, frame):
        return None
    screen = state.screen
    cursor = screen.cursor
    assert cursor is not None  # _may_stream checked it
    text = _new_text(state, layout, frame)
    if text is None:
        return None
    done = _continued(screen, cursor, text)
    if done is None:
        return None
    to_insert, log_rows = layout.to_insert, frame.log_rows
    chrome = frame.rows[log_rows:]
    if (
        done.rows
        and not done.tail
        and len(text.rows) == len(done.rows)
        and text.held == done.held
        and not to_insert
        and screen.drawn is not None
        and screen.drawn[log_rows:] == chrome
    ):
        return Plan((), state.fault), screen  # nothing changed
    last = state.rows - 1
    ops, top, row = _opening(screen, cursor[0], bool(done.rows), last)
    pending_insert = False
    first = done.start if done.rows else 0  # the first row this frame writes on
    if to_insert and len(to_insert) - 1 < first:
        # Lines that ended on rows above the text's end, on the screen already: the viewport starts under them.
        ops.append(Inserted(len(to_insert), top_delta=len(to_insert)))
        top += len(to_insert)
    elif to_insert and len(to_insert) - 1 == first:
        pending_insert = True  # they end on the text's row: counted once the row under it is reached
    count, held = len(text.rows), text.held
    if done.tail or count > done.start + 1 + done.held or held != done.held:
        top, row, pending_insert = _write_text(ops, state, text, done, len(to_insert), top, row, pending_insert)
    # The cursor still on the first held row (nothing written on it): the rows under it are one fewer.
    waiting = done.on_next if count - held <= done.start + 1 else 0
    held_below = held - waiting if held else 0
    # Rows for what goes under the text (line feeds at the bottom scroll the text up), then those rows drawn.
    below = held_below + len(chrome)  # the rows under the cursor: the held ones, then the status, composer...
    at, top = _rows_under(ops, row, below, last, top, pending_insert, len(to_insert))
    columns, policy = state.columns, state.config.width_policy
    stream: tuple[tuple[Row, ...], ...] | None
    if log_rows:
        new_top, cursor, stream = _rest_at_text_end(
            ops, text, log_rows, chrome, at, below, held_below, waiting, columns, policy
        )
        visible = False
    else:
        visible = not to_insert and frame.cursor_shown  # the opening hid it
        new_top, cursor = _rest_at_composer(ops, chrome, frame.cursor, at, below, visible, columns, policy)
        stream = None
    if new_top != top:
        ops.append(Inserted(0, top_delta=new_top - top))
    if state.config.synchronized_output:
        ops = [BEGIN_SYNC, *ops, END_SYNC]
    return Plan(tuple(ops), state.fault), _screen_after(state, layout, frame, new_top, cursor, visible, stream)


def _may_stream(state: AppState, layout: Layout, frame: Frame) -> bool:
    """Whether the screen is known as a stream frame needs it, and the frame has a text to stream."""
    screen = state.screen
    columns = state.columns
    if (
        not state.config.soft_wrap_lines
        or columns < 2
        or not screen.anchored
        or screen.broken
        or screen.lost_row
        or screen.cursor is None
        or screen.resized_from is not None
    ):
        return False
    old = screen.stream
    if old is None and screen.drawn is None:
        return False  # the viewport is not known: the usual planner anchors it (the text then starts on its top row)
    if old is not None and screen.drawn_columns != columns:
        return False
    to_insert, log_rows = layout.to_insert, frame.log_rows
    if old is None and not to_insert and not log_rows:
        return False  # nothing to stream: the usual planner draws the viewport
    return not (log_rows and len(layout.visible) != log_rows)


def _new_text(state: AppState, layout: Layout, frame: Frame) -> _Text | None:
    """The rows of the frame's text, or None when a stream frame does not write it (an open view, a row wider than
    the screen, open rows above the viewport that no streamed text put there)."""
    columns, policy = state.columns, state.config.width_policy
    to_insert, log_rows = layout.to_insert, frame.log_rows
    render = layout.render
    theme = state.log.options.theme if state.log.options is not None else None
    # The open line's rows the viewport does not show (longer than the screen: its head went up with the text, as
    # printf's does); only a text streamed so continues so.
    gap = render.visible_start - (render.inserted_until + len(to_insert)) if log_rows else 0
    if gap < 0 or (gap and state.screen.stream is None):
        return None
    hidden = list(log_rows_of(state.log, columns, policy)[0][len(to_insert) : len(to_insert) + gap]) if gap else []
    new_rows: list[Row] = [
        *draw_insert_rows(to_insert, columns, policy, theme),
        *(draw_insert_rows(hidden, columns, policy, theme) if hidden else ()),
        *frame.rows[:log_rows],
    ]
    new_log = [*to_insert, *hidden, *layout.visible[:log_rows]]
    if any(row.entry.view is not None for row in new_log[len(to_insert) :]):
        # An open Markdown line (or other view) changes above its end as it streams (a word re-wrapped, emphasis
        # closed): drawn row by row, as before.  Verbatim text only grows at its end.
        return None
    lines = lines_of(new_rows, new_log)
    if any(row_width(row, policy) > columns for row in new_rows):
        return None
    count = len(new_rows)
    flags = [index > 0 and continues_line(new_log[index - 1], new_log[index]) for index in range(count)]
    # The open line's last rows that show nothing (blanks it wrapped into) are not written: nothing would wrap onto
    # them, so the text waits at the pending wrap of the row before, which the next character continues.
    held = held_rows(lines) if log_rows else 0
    # A finished line's last rows that show nothing are rows of their own, not linked (as ``insert_soft_wrapped``):
    # linked, a widening would take them into the line, and they would no longer be the rows it inserted.
    unlinked: set[int] = set()
    offset = 0
    for number, line in enumerate(lines):
        if not (log_rows and number == len(lines) - 1):
            blank = held_rows((line,))
            unlinked.update(range(offset + len(line) - blank, offset + len(line)))
        offset += len(line)
    return _Text(new_rows, new_log, lines, len(hidden), flags, held, unlinked)


def _continued(screen: Screen, cursor: tuple[int, int], text: _Text) -> _Written | None:
    """Where the frame continues the terminal's text, or None when it cannot append at the cursor: its text is
    not the old one plus more (a row changed above the old end), or the cursor is not at the old end."""
    old = screen.stream
    new_rows = text.rows
    written = stream_rows(old) if old is not None else []
    old_held = held_rows(old) if old is not None else 0
    start = len(written) - 1 - old_held if written else 0  # the row the text ends on
    tail: tuple[Segment, ...] = tuple(new_rows[0]) if new_rows else ()
    # A resize that re-wrapped the text to end on its last column put the cursor at the start of the row under it
    # (``reduce_resize``): a held row the cursor is on, which the next character continues the text on.
    on_next = int(bool(written) and old_held > 0 and cursor[1] == 0)
    if written:
        assert old is not None
        old_lines = [len(line) for line in old]
        new_lines = [len(line) for line in text.lines]
        if (
            len(new_rows) < len(written)
            or new_rows[:start] != written[:start]
            or new_lines[: len(old_lines) - 1] != old_lines[:-1]
            or new_lines[len(old_lines) - 1] < old_lines[-1]
            or cursor[0] != screen.top + start - (len(written) - screen.drawn_log_rows) + on_next
        ):  # (the rows of the text above the viewport's top counted out)
            return None
        found = row_tail(written[start], new_rows[start])
        if found is None or (found and old_held):
            return None
        tail = found
    return _Written(written, old_held, start, tail, on_next)


def _opening(screen: Screen, row: int, written: bool, last: int) -> tuple[list[Op], int, int]:
    """A stream frame's first operations (the cursor hidden, then the rows under the text's end erased, or with no
    text yet the viewport from its top row), and the viewport's top and the cursor's row after them."""
    ops: list[Op] = []
    if screen.cursor_visible is not False:
        ops.append(HIDE_CURSOR)
    top = screen.top
    if written:
        # A row under the text's end (a line feed at the screen's bottom scrolls it up), then every row under it
        # erased from there: an erase at the text's end would take the cell of a pending wrap.
        ops.append(INDEX)
        if row == last:
            ops.append(TOP_UP)
            top -= 1
        ops += [ROW_UP, SAVE_CURSOR, CARRIAGE_RETURN, INDEX, ERASE_DOWN, RESTORE_CURSOR]
    else:
        # The text starts on the viewport's top row (the composer's rows under it are drawn again below).
        # Each move its own operation, the column last (a write cut between them tells where the cursor went).
        if top != row:
            ops.append(MoveBy(top - row, None))
        ops += [MoveBy(0, 1), ERASE_DOWN, CARRIAGE_RETURN, ERASE_LINE]
        row = top
    return ops, top, row


def _write_text(
    ops: list[Op], state: AppState, text: _Text, done: _Written, inserting: int, top: int, row: int, pending: bool
) -> tuple[int, int, bool]:
    """The text's rows from the one the old text ends on, with autowrap on: what the frame adds there, then each row
    linked to the one before (it wraps into it) or on its own (``CR``, ``ESC D``), the held rows left out.  Returns
    the viewport's top, the cursor's row and whether the ``inserting`` lines that ended wait to be counted."""
    columns, last, policy = state.columns, state.rows - 1, state.config.width_policy
    new_rows, flags, unlinked, held = text.rows, text.flags, text.unlinked, text.held
    written, old_held, start, on_next = bool(done.rows), done.held, done.start, done.on_next
    count = len(new_rows)
    wrapped = 0
    # Whether the cursor waits at a pending wrap (the text fills its row: the next character goes on the next row).
    full = written and (old_held > 0 or row_width(done.rows[start], policy) >= columns)
    ops.append(AUTOWRAP_ON)
    for index in range(start, count - held):
        scrolls = False  # the row's first character scrolls the screen (a wrap at its bottom row)
        if index == start and written:
            segments = done.tail
        else:
            if flags[index] and on_next and index == start + 1:
                pass  # the cursor is on this row already
            elif flags[index] and index not in unlinked:
                if not full:  # the row before is full of cells, its trailing blanks trimmed: written now
                    pad = columns - row_width(new_rows[index - 1], policy)
                    if pad > 0:
                        ops.append(Text(" " * pad, DEFAULT))
                wrapped += 1
                scrolls = row == last
                if row == last:
                    top -= 1
                else:
                    row += 1
            elif index > 0 or written:
                ops += [CARRIAGE_RETURN, INDEX]
                if row == last:
                    ops.append(TOP_UP)  # the line feed scrolled
                    top -= 1
                else:
                    row += 1
                if pending:
                    # The lines that ended are in the terminal's text: the viewport starts on this row.
                    ops.append(Inserted(inserting, top_delta=row - top))
                    top, pending = row, False
            segments = tuple(new_rows[index])
            if flags[index] and index not in unlinked and not row_text(new_rows[index]).strip(" "):
                segments = (Segment(" " * columns, DEFAULT),)  # blanks a later row continues: written
        for segment in segments:
            if segment.text:
                ops.append(Text(segment.text, segment.style))
                if scrolls:
                    # After the text that wrapped: a write cut before it leaves the top where it was (a cut
                    # inside it, lower than it is: the side that erases no committed row).
                    ops.append(TOP_UP)
                    scrolls = False
        if index == start and written:
            full = old_held > 0 or row_width(new_rows[start], policy) >= columns
        else:
            full = row_width(segments, policy) >= columns
        # Counted as inserted once the next row is reached (the row under them may not exist yet).
        pending = pending or (inserting > 0 and index == inserting - 1)
    if held and not full:
        pad = columns - row_width(new_rows[count - held - 1], policy)
        ops.append(Text(" " * pad, DEFAULT))  # the row before the held ones is full: the text waits at its end
    ops.append(AutowrapOff(wrapped))
    return top, row, pending


def _rows_under(
    ops: list[Op], row: int, below: int, last: int, top: int, pending: bool, inserting: int
) -> tuple[int, int]:
    """``below`` rows under the cursor's ``row`` (``ESC D``: at the screen's bottom each scrolls the screen), the
    ``inserting`` lines that ended counted once a row under them is reached; the row reached and the top."""
    at = row
    for _ in range(below):
        ops.append(INDEX)
        if at == last:
            ops.append(TOP_UP)
            top -= 1
        else:
            at += 1
        if pending:
            ops.append(Inserted(inserting, top_delta=at - top))
            top, pending = at, False
    if pending:  # nothing under the text
        ops.append(Inserted(inserting, top_delta=row + 1 - top))
        top = row + 1
    return at, top


def _rest_at_text_end(
    ops: list[Op],
    text: _Text,
    log_rows: int,
    chrome: tuple[Row, ...],
    at: int,
    below: int,
    held_below: int,
    waiting: int,
    columns: int,
    policy: WidthPolicy,
) -> tuple[int, tuple[int, int], tuple[tuple[Row, ...], ...]]:
    """A line is open: the rows under the text drawn from its end, saved there (``ESC 7``/``ESC 8``), where the
    cursor rests.  Returns the viewport's top, the cursor and the open text (``Screen.stream``)."""
    # Back to the text's end (it stays on the screen: the viewport, its rows and these, fits), saved there.
    row = at - below
    if below:
        ops.append(MoveBy(-below, None))
    if chrome:
        ops += [SAVE_CURSOR, CARRIAGE_RETURN, *[INDEX] * held_below]  # the held rows stay blank (erased above)
        for chrome_row in chrome:
            ops += [CARRIAGE_RETURN, INDEX, ERASE_LINE, *_texts(chrome_row, columns, policy)]
        ops.append(RESTORE_CURSOR)
    new_top = row + held_below - (log_rows - 1)
    # The text after the lines that ended: the open rows, those above the viewport's top included.
    inserted = len(text.rows) - log_rows - text.hidden
    return new_top, (row, 0 if waiting else -1), lines_of(text.rows[inserted:], text.log[inserted:])


def _rest_at_composer(
    ops: list[Op],
    chrome: tuple[Row, ...],
    target_in_frame: tuple[int, int],
    at: int,
    below: int,
    show: bool,
    columns: int,
    policy: WidthPolicy,
) -> tuple[int, tuple[int, int]]:
    """Nothing open: the rows under the text drawn from the first down, then the cursor to the composer, shown when
    ``show``.  Returns the viewport's top and the cursor."""
    # The text's end may have scrolled off the screen; the follow-up frame of an inserting one shows the cursor.
    new_top = at - below + 1 if below else at + 1
    if below > 1:
        ops.append(MoveBy(1 - below, None))
    for index, chrome_row in enumerate(chrome):
        ops += [CARRIAGE_RETURN, INDEX] if index else [CARRIAGE_RETURN]
        ops += [ERASE_LINE, *_texts(chrome_row, columns, policy)]
    row = new_top + below - 1
    target = (new_top + target_in_frame[0], target_in_frame[1])
    if target[0] != row:
        ops.append(MoveBy(target[0] - row, None))
    ops.append(MoveBy(0, target[1]))
    if show:
        ops.append(SHOW_CURSOR)
    return new_top, target


def _screen_after(
    state: AppState,
    layout: Layout,
    frame: Frame,
    top: int,
    cursor: tuple[int, int],
    visible: bool,
    stream: tuple[tuple[Row, ...], ...] | None,
) -> Screen:
    """The screen after a stream frame (``recent_frames`` as before: the caller records the frame)."""
    screen = state.screen
    return Screen(
        top,
        frame.rows,
        state.columns,
        frame.log_rows,
        cursor,
        visible,
        True,
        None,
        state.dialog is not None and layout.dialog_height > 0,
        False,
        (*screen.recent_written[1 - RECENT_FRAMES :], 0),  # a resize distrusts every row (none is redrawn here)
        screen.recent_frames,
        False,
        None,
        False,
        stream,
    )


def _texts(row: Row, columns: int, policy: WidthPolicy) -> list[Op]:
    """A row's segments as texts (empty ones left out); a row that reaches the last column with zero-width code
    points after its last character writes that character with autowrap on (``bulk.write_last_cell``: written with
    it off, tmux and screen put them on the cell before)."""
    ops: list[Op] = []
    split = last_cell_start(row) if row_width(row, policy) >= columns else None
    if split is not None:
        write_last_cell(ops, row, split)
    else:
        ops += [Text(segment.text, segment.style) for segment in row if segment.text]
    return ops
