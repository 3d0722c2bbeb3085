"""Tables fitted to the width: column widths by content, cells wrapped, a stacked layout when too narrow.

Columns get their natural width (their widest cell among the header and the first body rows, ``blocks.WIDTH_ROWS``
and ``WIDTH_CHARS``; later, wider cells wrap) when the table fits; otherwise the
widest columns give way first (a water level: every column is capped at one width, the cells
wrap).  When even a few cells per column do not fit, each row is stacked: one ``header: value``
block per cell, so nothing is cut.  A table row then takes one or more rows, and the row index
inside it is what its source positions count (markdown.py pads a row's text to allow it).

A limit: when a resize comes while a table row taller than one row is partly in scrollback,
the rest of that row is laid out again at the new width from the same row index, so that one
table row may show a cell fragment twice or miss one (rows before and after it are exact).
"""

from __future__ import annotations

import functools

from ..text.cells import WidthPolicy, text_width, wrap_line
from ..text.highlight import StyledLine
from ..text.style import Row, Segment
from .blocks import RULE, Table

__all__ = ["SEPARATOR", "cut", "table_rows"]

SEPARATOR = " \u254e "  # ╎ between columns
_MIN_COLUMN = 3


def cut(runs: tuple[Segment, ...] | StyledLine, start: int, end: int) -> list[Segment]:
    """The styled runs covering characters ``[start, end)`` of their concatenated text."""
    out: list[Segment] = []
    offset = 0
    for segment in runs:
        size = len(segment.text)
        low, high = max(start, offset), min(end, offset + size)
        if low < high:
            out.append(Segment(segment.text[low - offset : high - offset], segment.style))
        offset += size
        if offset >= end:
            break
    return out


def _text(cell: StyledLine) -> str:
    return "".join(segment.text for segment in cell)


@functools.lru_cache(maxsize=64)
def _natural(table: Table, policy: WidthPolicy) -> tuple[int, ...]:
    """Each column's widest cell among the header and the body rows that fix the widths (``Table.width_rows``)."""
    rows = table.rows[: table.width_rows + 1]
    return tuple(max(1, *(text_width(_text(row[c]), policy) for row in rows)) for c in range(len(table.rows[0])))


@functools.lru_cache(maxsize=256)
def _widths(table: Table, room: int, policy: WidthPolicy) -> tuple[int, ...] | None:
    # Cached per table: every row's layout needs them (measured per row, a 600-row table took minutes).
    columns = len(table.rows[0])
    natural = _natural(table, policy)
    avail = room - len(SEPARATOR) * (columns - 1)
    if sum(natural) <= avail:
        return tuple(natural)
    if avail < _MIN_COLUMN * columns:
        return None  # too narrow for columns: stacked
    level = max(_MIN_COLUMN, avail // columns)
    while sum(min(n, level + 1) for n in natural) <= avail:
        level += 1
    widths = [min(n, level) for n in natural]
    spare = avail - sum(widths)
    for c in range(columns):
        if spare and natural[c] > widths[c]:
            widths[c] += 1
            spare -= 1
    return tuple(widths)


def _wrap(cell: StyledLine, width: int, policy: WidthPolicy) -> list[list[Segment]]:
    text = _text(cell)
    rows, start = [], 0
    for end in wrap_line(text, width, policy):
        piece = cut(cell, start, end)
        if piece:
            piece[-1] = Segment(piece[-1].text.rstrip(" "), piece[-1].style)
        rows.append([segment for segment in piece if segment.text])
        start = end
    return rows


def _pad(segments: list[Segment], width: int, align: str, policy: WidthPolicy) -> list[Segment]:
    used = sum(text_width(segment.text, policy) for segment in segments)
    gap = max(0, width - used)
    left = gap // 2 if align == "center" else (gap if align == "right" else 0)
    return [Segment(" " * left), *segments, Segment(" " * (gap - left))]


@functools.lru_cache(maxsize=1024)
def table_rows(table: Table, row: int, room: int, policy: WidthPolicy) -> tuple[Row, ...]:
    """The rows table row ``row`` takes at ``room`` cells (``-1``: the rule under the header)."""
    border = table.theme.style("table_border")
    room = max(1, room)
    widths = _widths(table, room, policy)
    if row < 0:
        if widths is None:
            return ((Segment(RULE * min(room, 3), border),),)
        return ((Segment(RULE * (sum(widths) + len(SEPARATOR) * (len(widths) - 1)), border),),)
    cells = table.rows[row]
    if widths is None:
        out: list[Row] = []
        for header, cell in zip(table.rows[0], cells, strict=True):
            label = [Segment(f"{_text(header)}: ", border)] if row else []
            out.extend(tuple(line) for line in _wrap((*label, *cell), room, policy))
        return tuple(out)
    wrapped = [_wrap(cell, width, policy) for cell, width in zip(cells, widths, strict=True)]
    height = max(len(lines) for lines in wrapped)
    out = []
    for index in range(height):
        segments: list[Segment] = []
        for column, lines in enumerate(wrapped):
            if column:
                segments.append(Segment(SEPARATOR, border))
            align = table.aligns[column] if column < len(table.aligns) else "left"
            segments.extend(_pad(lines[index] if index < len(lines) else [], widths[column], align, policy))
        out.append(tuple(segment for segment in segments if segment.text))
    return tuple(out)
