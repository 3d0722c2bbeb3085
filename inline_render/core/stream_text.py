"""GNU screen's streamed text (``Screen.stream``): its rows and lines, and the rows screen re-wraps it into."""

from __future__ import annotations

from collections.abc import Sequence

from ..text.cells import WidthPolicy
from ..text.style import DEFAULT, Row, Segment, Style, row_text, row_width
from .log import LogRow, continues_line
from .ops import (
    BeginSync,
    HideCursor,
    Index,
    Op,
)

__all__ = ["appends_at_cursor", "held_rows", "lines_of", "rewrap_stream", "row_tail", "stream_rows"]


def appends_at_cursor(ops: Sequence[Op]) -> bool:
    """Whether ``ops`` are a stream frame that writes where the text ends (its first move is ``ESC D`` from there)
    rather than one that starts the text on the viewport's top row."""
    for op in ops:
        if type(op) is Index:
            return True
        if type(op) is not HideCursor and type(op) is not BeginSync:
            return False
    return False


def stream_rows(stream: tuple[tuple[Row, ...], ...]) -> list[Row]:
    """The rows of ``Screen.stream``, line after line."""
    return [row for line in stream for row in line]


def row_tail(old: Row, new: Row) -> tuple[Segment, ...] | None:
    """What ``new`` adds at the end of ``old`` (``old`` followed by it is ``new``), None when it is not so."""
    count = len(old)
    if count > len(new):
        return None
    if count == 0:
        return tuple(new)
    if old[: count - 1] != new[: count - 1]:
        return None
    last, then = old[count - 1], new[count - 1]
    if last.style != then.style or not then.text.startswith(last.text):
        return None
    rest = then.text[len(last.text) :]
    head = (Segment(rest, then.style),) if rest else ()
    return head + tuple(new[count:])


def lines_of(rows: list[Row], log_rows: list[LogRow]) -> tuple[tuple[Row, ...], ...]:
    """``rows`` grouped into the logical lines ``log_rows`` (their rows) make."""
    lines: list[list[Row]] = []
    for index, row in enumerate(rows):
        if index and continues_line(log_rows[index - 1], log_rows[index]):
            lines[-1].append(row)
        else:
            lines.append([row])
    return tuple(tuple(line) for line in lines)


def held_rows(lines: tuple[tuple[Row, ...], ...]) -> int:
    """How many of the last line's rows after its first show nothing (the text waits before them)."""
    line = lines[-1] if lines else ()
    count = 0
    while count < len(line) - 1 and not row_text(line[len(line) - 1 - count]).strip(" "):
        count += 1
    return count


def rewrap_stream(
    stream: tuple[tuple[Row, ...], ...], width: int, columns: int, policy: WidthPolicy
) -> tuple[int, tuple[tuple[Row, ...], ...] | None, int | None]:
    """The rows GNU screen re-wraps ``stream`` (written at ``width``) into at ``columns``, the rows themselves and the
    column the text ends at (``columns`` at a pending wrap; both None unless every character is ASCII).  A line's rows
    but its last were written full (padded to the width), its last to its last cell: its cells fill rows of
    ``columns``.  With wide characters the count is the least it can be (one moved to the next row only adds rows),
    so the viewport's top is never put above the text's first row."""
    total, end = 0, 0
    rewrapped: list[tuple[Row, ...]] = []
    ascii_only = True
    for line in stream:
        held = held_rows((line,))
        line = line[: len(line) - held]  # not written: the text waits at the end of the full row before them
        cells = width * len(line) if held else width * (len(line) - 1) + row_width(line[-1], policy)
        total += max(1, -(-cells // columns))
        end = cells - (max(1, -(-cells // columns)) - 1) * columns
        if not ascii_only or not all(row_text(row).isascii() for row in line):
            ascii_only = False
            continue
        flat: list[tuple[str, Style]] = []
        for index, row in enumerate(line):
            for segment in row:
                flat += [(char, segment.style) for char in segment.text]
            if index < len(line) - 1 or held:
                flat += [(" ", DEFAULT)] * (width - row_width(row, policy))
        rows = [_trimmed(flat[begin : begin + columns]) for begin in range(0, max(1, len(flat)), columns)]
        rewrapped.append(tuple(rows))
    return total, (tuple(rewrapped) if ascii_only else None), (end if ascii_only else None)


def _trimmed(cells: list[tuple[str, Style]]) -> Row:
    """Cells as a row of segments, one per run of a style, right-trimmed as the log's rows are (``theme``)."""
    segments: list[Segment] = []
    for char, style in cells:
        if segments and segments[-1].style == style:
            segments[-1] = Segment(segments[-1].text + char, style)
        else:
            segments.append(Segment(char, style))
    while segments and not segments[-1].text.rstrip(" "):
        segments.pop()
    if segments and segments[-1].text.endswith(" "):
        segments[-1] = Segment(segments[-1].text.rstrip(" "), segments[-1].style)
    return tuple(segments)
