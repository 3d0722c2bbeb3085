"""The bulk path of an insertion of many rows (issue 14's flood): the same rows and operations, built in one go.

A flood inserts about 1,350 rows per 100 KB of text, ``height`` rows at a time: the rows of every chunk but
the first are staged on viewport rows that the previous chunk's line feeds left blank, so what
``effects._Planner.update_row`` does for each (diff against the blank row, move there, write it) is known
without diffing: a move to the row's column 0, then one ``Text`` per segment.  ``stage_blank`` appends
exactly those operations, and ``draw_insert_rows`` draws the rows as ``theme.draw_log_rows`` does, without
its per-row cache (rows that leave for scrollback are drawn once, so caching them only evicts the
viewport's rows) and with each entry's prefix looked up once, the rows of rendered (Markdown, diff) entries
included.  Output is byte-identical:
``tests/test_bulk_insert.py`` compares both with the per-row path.
"""

from __future__ import annotations

from collections.abc import Sequence

import wcwidth

from ..markdown.stream import View, draw_line_row
from ..text.cells import WidthPolicy, clip_to_width, text_width
from ..text.style import DEFAULT, Row, Segment, Style, clip_row
from ..text.themes import Theme
from .log import LogRow
from .ops import AutowrapOff, AutowrapOn, LineFeed, MoveBy, Op, Text
from .rows import draw_log_rows, prefix_for

__all__ = ["draw_insert_rows", "last_cell_start", "split_last_cell", "stage_blank", "write_last_cell"]

_LINE_FEED = LineFeed()
_TO_COLUMN_0 = MoveBy(0, 0)
_DOWN_ONE = (_LINE_FEED, _TO_COLUMN_0)
_AUTOWRAP_ON, _AUTOWRAP_OFF = AutowrapOn(), AutowrapOff()
_new = tuple.__new__  # a NamedTuple's own __new__ is a Python call per segment


def draw_insert_rows(rows: Sequence[LogRow], width: int, policy: WidthPolicy, theme: Theme | None = None) -> list[Row]:
    """``theme.draw_log_rows(rows, ...)``, equal row for row (rows of a ``diff`` entry without a view drawn by
    ``draw_log_rows``, the others here)."""
    out: list[Row] = []
    append = out.append
    current: object = None
    fast = False
    view: View | None = None
    base = 0
    first_prefix = rest_prefix = ""
    first_lead: Segment | None = None  # the prefix segment of a first row; None: no prefix segment
    rest_lead: Segment | None = None  # the same for continuation rows (written only before some text)
    text_style: Style = DEFAULT
    for row in rows:
        entry, line_start, start, end = row
        if entry is not current:
            current = entry
            view = entry.view
            fast = view is not None or entry.kind != "diff"
            if fast:
                # What theme._draw_row / _draw_view_row decide per row from the kind alone, decided once per entry.
                glyph, prefix_style, text_style = prefix_for(
                    entry.kind, view.options.theme if view is not None else theme
                )
                first_prefix = "" if width <= len(glyph) else glyph
                rest_prefix = "" if width <= len(glyph) else " " * len(glyph)
                first_lead = _lead(first_prefix, prefix_style)
                rest_lead = _lead(rest_prefix, prefix_style)
                base = entry.base
        if not fast:
            append(draw_log_rows((row,), width, policy, theme)[0])
            continue
        if start == 0 and base == 0:
            prefix, lead = first_prefix, first_lead
        else:
            prefix, lead = rest_prefix, rest_lead
        room = width - len(prefix)
        if view is not None:
            append(_view_row(view, line_start, start, end, room, policy, lead, prefix))
            continue
        text = entry.piece(start, end).rstrip("\n")
        if len(text) > room or not text.isascii():
            text, _ = clip_to_width(text, room, policy)
        text = text.rstrip(" ")
        if text:
            segment: Segment = _new(Segment, (text, text_style))
            append((segment,) if lead is None else (lead, segment))
        elif lead is not None and prefix.strip():
            append((lead,))
        else:
            append(())
    return out


def _view_row(
    view: View, line_start: int, start: int, end: int, room: int, policy: WidthPolicy, lead: Segment | None, prefix: str
) -> Row:
    """``theme._draw_view_row`` of a row, its prefix segment given (``draw_line_row``'s cache is kept: the rows of
    the viewport's tail are drawn there before they leave for scrollback)."""
    body: Row = ()
    if start < len(view.text) or start != end:
        line, first, _ = view.line_at(line_start)
        body = clip_row(draw_line_row(line, start - first, end - first, room, policy), room, policy)
    segments = list(body) if lead is None or not (body or prefix.strip()) else [lead, *body]
    while segments and not segments[-1].text.rstrip(" "):
        segments.pop()
    if segments:
        last = segments[-1]
        if last.text.endswith(" "):
            segments[-1] = _new(Segment, (last.text.rstrip(" "), last.style))
    return tuple(segments)


def _lead(prefix: str, style: Style) -> Segment | None:
    """The segment a prefix is written as: in its style when it shows a glyph, blanks in the default style."""
    if not prefix:
        return None
    lead: Segment = _new(Segment, (prefix, style if prefix.strip() else DEFAULT))
    return lead


def stage_blank(
    ops: list[Op], rows: Sequence[Row], top: int, cursor: tuple[int, int], columns: int, last: int, policy: WidthPolicy
) -> tuple[tuple[int, int], int]:
    """Append the operations that write ``rows`` onto the blank viewport rows ``top``, ``top + 1``, ...

    What ``_Planner.update_row`` gives for each row on a blank one: nothing for an empty row; else a move
    to the row's column 0 (up: ``CUU`` then the column; down: line feeds then the column), then each
    segment.  Returns the cursor afterwards and the index of the first row written (``len(rows)``: none).
    """
    at_row, at_col = cursor
    first = len(rows)
    written: Row = ()
    lead: Segment | None = None  # the last row's first segment when more followed it (a prefix) ...
    lead_op: Op = _TO_COLUMN_0  # ... and its operation
    for index, row in enumerate(rows):
        if not row:
            continue
        target = max(0, min(top + index, last))
        if index < first:
            first = index
        if written and target <= at_row:  # (a viewport cut by the screen's end) the cursor's column matters
            at_col = _end_column(written, columns, policy)
        if target == at_row + 1:  # the row below the last one written: the usual case
            ops += _DOWN_ONE
        elif target > at_row:
            ops.extend([_LINE_FEED] * (target - at_row))
            ops.append(_TO_COLUMN_0)
        elif target < at_row:
            ops.append(MoveBy(target - at_row, None))
            if at_col != 0:
                ops.append(_TO_COLUMN_0)
        elif at_col != 0:
            ops.append(_TO_COLUMN_0)
        split = last_cell_start(row)
        if split is not None and _end_column(row, columns, policy) >= columns:
            write_last_cell(ops, row, split)
            at_row, written = target, row
            continue
        for segment in row:
            if segment is lead:
                ops.append(lead_op)  # a prefix (one segment object per entry in draw_insert_rows): one operation
            else:
                ops.append(Text(segment[0], segment[1]))
                if len(row) > 1 and segment is row[0]:
                    lead, lead_op = segment, ops[-1]
        at_row, written = target, row  # the column is measured when needed: once, for the last row written
    if written:
        at_col = _end_column(written, columns, policy)
    return (at_row, at_col), first


def last_cell_start(segments: Sequence[Segment]) -> tuple[int, int] | None:
    """Where the character of a row's last cluster starts (segment, offset) when zero-width code points follow it
    (a combining mark, a joiner, a variation selector, U+FEFF); None when none do.

    Written at the last column with autowrap off, tmux and GNU screen keep the cursor on that cell and put what
    follows it on the cell before (measured, ``tests/termprobe`` ``combining-last-column``): such a character is
    written with autowrap on (``write_last_cell``), where they put it on the last cell, as xterm, VTE and xterm.js
    do either way."""
    if not segments:
        return None
    text = segments[-1][0]
    if not text or text.isascii() or wcwidth.wcwidth(text[-1]) != 0:
        return None
    for index in range(len(segments) - 1, -1, -1):
        text = segments[index][0]
        at = len(text)
        while at > 0 and wcwidth.wcwidth(text[at - 1]) == 0:
            at -= 1
        if at:
            return index, at - 1
    return None


def write_last_cell(ops: list[Op], segments: Sequence[Segment], split: tuple[int, int]) -> None:
    """Append the segments of a row that reaches the last column, its last character (at ``split``, from
    ``last_cell_start``) and what follows it with autowrap on: the cursor then waits past the last cell, where
    every terminal puts a zero-width code point on that cell; nothing is written after it, so nothing wraps."""
    before, after = split_last_cell(segments, split)
    ops.extend(Text(text, style) for text, style in before)
    ops.append(_AUTOWRAP_ON)
    ops.extend(Text(text, style) for text, style in after)
    ops.append(_AUTOWRAP_OFF)


def split_last_cell(segments: Sequence[Segment], split: tuple[int, int]) -> tuple[list[Segment], list[Segment]]:
    """``segments`` cut at ``split`` (``last_cell_start``): what goes before the last character, and the rest."""
    index, at = split
    text, style = segments[index]
    before, after = list(segments[:index]), list(segments[index + 1 :])
    if at:
        before.append(_new(Segment, (text[:at], style)))
    after.insert(0, _new(Segment, (text[at:], style)))
    return before, after


def _end_column(row: Row, columns: int, policy: WidthPolicy) -> int:
    """The cursor's column after writing ``row`` from column 0 (``columns``: the pending wrap past the end)."""
    column = 0
    for text, _ in row:
        column += text_width(text, policy)
    return column if column < columns else columns
