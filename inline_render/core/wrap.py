"""An entry's rows at a width: a final entry's (cached), a streaming one's (resumed), a view's, a piece's again."""

from __future__ import annotations

import functools

from ..markdown.stream import view_spans
from ..text.cells import WidthPolicy, wrap_cells, wrap_line
from .entry import DECORATED_PREFIX_WIDTH, Again, Entry, LogRow, within_piece
from .rowseq import Part

__all__ = ["Span", "again_rows", "entry_rows", "has_rows_from", "make_row", "streaming_part"]


Span = tuple[int, int, int]  # a row's (line_start, start, end)  (rowseq.Span)


def entry_rows(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool = False) -> tuple[LogRow, ...]:
    """The wrapped rows of ``entry`` from source offset ``start`` at terminal ``width``; ``cells``: verbatim text
    wraps by cells (``RenderOptions.wrap_cells``; a view keeps its own wrapping)."""
    if entry.view is not None:
        return _view_rows(entry, start, width, policy)
    if entry.final:
        return _final_rows(entry, start, width, policy, cells)
    return _streaming_rows(entry, start, width, policy, cells)


def _view_rows(entry: Entry, start: int, width: int, policy: WidthPolicy) -> tuple[LogRow, ...]:
    assert entry.view is not None
    spans = view_spans(entry.view, start, _cap(entry.kind, width), policy, entry.final)
    return tuple([_new_row(LogRow, (entry, *span)) for span in spans])


def has_rows_from(entry: Entry, offset: int) -> bool:
    """Whether the final ``entry`` (its text shown up to ``shown_end``) has a row from ``offset`` on: a Markdown
    view may end with an empty line starting at the end of its text (the separator before an empty code block),
    which a plain text's trailing newline does not make."""
    view = entry.view
    if view is None:
        return offset < entry.shown_end
    if offset < len(view.text):
        return True
    return view.count > 0 and view.line(view.count - 1)[1] >= offset  # an empty last line starting at the end


def _cap(kind: str, width: int) -> int:
    return width - DECORATED_PREFIX_WIDTH if kind not in _UNDECORATED and width > DECORATED_PREFIX_WIDTH else width


_UNDECORATED = ("text", "ansi")  # verbatim kinds: no prefix column


def _spans(
    text: str, line_start: int, position: int, cap: int, policy: WidthPolicy, cells: bool, out: list[Span]
) -> list[Span]:
    """Append the spans of the rows of ``text`` from ``position`` (a row start in the line at ``line_start``)."""
    # An ASCII line that fits is one row, as ``wrap_line`` gives (a flood's lines mostly are): no slice, no call.
    fits = max(1, cap) if text.isascii() else -1
    append = out.append
    while True:
        newline = text.find("\n", position)
        line_end = len(text) if newline < 0 else newline
        if line_end - position <= fits:
            if newline < 0:
                append((line_start, position, line_end))
                return out
            append((line_start, position, newline + 1))  # the newline belongs to the line's last row
            position = line_start = newline + 1
            continue
        base = position
        for end in (wrap_cells if cells else wrap_line)(text[base:line_end], cap, policy):
            append((line_start, position, base + end))
            position = base + end
        if newline < 0:
            return out
        # The newline belongs to the line's last row, so row ranges tile the text.
        out[-1] = (out[-1][0], out[-1][1], newline + 1)
        position = line_start = newline + 1


@functools.lru_cache(maxsize=4096)
def _final_rows(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool) -> tuple[LogRow, ...]:
    text = entry.shown
    if len(text) - start <= _cap(entry.kind, width) and text.isascii() and "\n" not in text:
        return (LogRow(entry, 0, start, len(text)),)  # one short line: one row (what the wrap below gives)
    spans = _spans(text, text.rfind("\n", 0, start) + 1, start, _cap(entry.kind, width), policy, cells, [])
    return tuple(LogRow(entry, line_start, row_start, row_end) for line_start, row_start, row_end in spans)


# Every delta makes a new version of a streaming entry, so its rows are not cached by entry.  Its
# text grows by appends, and greedy wrapping keeps every row but a line's last when text is appended
# and wraps the rest of a line alike from any row start: the previous version's spans are reused but
# the last, which is wrapped again with what came since.  Reused only for a version of the same
# ``lineage`` (the same text grown by appends only: ``LogState.delta``), so no text is compared.
# The spans list is shared with the next version when it is the newest (a list only ever truncated
# by its last span and appended to): a delta then costs the rows it changes, not the rows of the line.
_STREAMS: dict[tuple[object, ...], tuple[int, list[Span]]] = {}


_STREAMS_MAX = 64


def streaming_part(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool) -> Part:
    size = entry.size  # all of the text is shown while the entry streams
    key = (entry.lineage, entry.kind, start, width, policy, cells)
    memo = _STREAMS.get(key) if entry.lineage is not None else None
    cap = _cap(entry.kind, width)
    if memo is not None and memo[0] <= size and memo[1]:
        spans = memo[1]
        resume_line, resume, _ = spans.pop()
        if entry.tail is not None and resume >= entry.lines_end:
            # The resumed row is in the open line kept in pieces: wrap only what follows its start (no
            # newline there), read as a slice, then shift the spans back to offsets in the text.
            window = _spans(entry.piece(resume, size), resume_line - resume, 0, cap, policy, cells, [])
            spans.extend([(line + resume, row + resume, end + resume) for line, row, end in window])
        else:
            _spans(entry.text, resume_line, resume, cap, policy, cells, spans)
    else:
        text = entry.text
        spans = _spans(text, text.rfind("\n", 0, start) + 1, start, cap, policy, cells, [])
    if len(_STREAMS) >= _STREAMS_MAX and key not in _STREAMS:
        _STREAMS.clear()
    if entry.lineage is not None:
        _STREAMS[key] = (size, spans)
    # The list is shared with later versions, which may replace its last span: keep ours aside.
    return (entry, spans, len(spans), spans[-1])


def _streaming_rows(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool) -> tuple[LogRow, ...]:
    _, spans, _, _ = streaming_part(entry, start, width, policy, cells)
    # tuple.__new__ directly: a NamedTuple's own __new__ is a Python call per row.
    return tuple([_new_row(LogRow, (entry, *span)) for span in spans])


def make_row(entry: object, span: Span) -> LogRow:
    row: LogRow = _new_row(LogRow, (entry, *span))
    return row


_new_row = tuple.__new__


def again_rows(piece: Again, width: int, policy: WidthPolicy, cells: bool) -> tuple[LogRow, ...]:
    """The rows of a piece at ``width``: the entry's rows from ``start``, cut at ``end``."""
    rows = [row for row in entry_rows(piece.entry, piece.start, width, policy, cells) if within_piece(row, piece)]
    if rows and rows[-1].end > piece.end:
        rows[-1] = rows[-1]._replace(end=piece.end)
    return tuple(rows)
