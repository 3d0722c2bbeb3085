"""Log rows as drawn: each kind's prefix and styles, diff colours, a Markdown line's spans cut to the row.

Glyphs are chosen with East Asian Width "N" (never "A"), so they are one cell
wide in every locale.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from ..markdown.stream import draw_line_row
from ..text.cells import WidthPolicy, clip_to_width
from ..text.roles import DIM
from ..text.style import DEFAULT, Row, Segment, Style, clip_row, row_text
from ..text.themes import Theme
from .log import Entry, LogRow

__all__ = [
    "draw_log_row",
    "draw_log_rows",
    "drawn_as",
    "prefix_for",
]


# kind -> (first-row prefix, prefix style, text style); continuation rows get two spaces.
_KINDS: dict[str, tuple[str, Style, Style]] = {
    "text": ("", DEFAULT, DEFAULT),
    "ansi": ("", DEFAULT, DEFAULT),
    "user": ("\u203a ", Style(fg="ansicyan", bold=True), Style(bold=True)),
    "assistant": ("\u25b8 ", Style(fg="ansigreen"), DEFAULT),
    "status": ("  ", DIM, DIM),
    "tool": ("\u2699 ", Style(fg="ansimagenta"), Style(fg="ansimagenta")),
    "error": ("\u2717 ", Style(fg="ansired", bold=True), Style(fg="ansired")),
    "diff": ("  ", DEFAULT, DEFAULT),
    "reasoning": ("\u22ee ", DIM, Style(dim=True, italic=True)),
    "info": ("i ", Style(fg="ansiblue", bold=True), DEFAULT),
    "warn": ("! ", Style(fg="ansiyellow", bold=True), Style(fg="ansiyellow")),
    "success": ("\u2713 ", Style(fg="ansigreen", bold=True), DEFAULT),
}

_DIFF_STYLES = (
    ("+++", Style(bold=True)),
    ("---", Style(bold=True)),
    ("+", Style(fg="ansigreen")),
    ("-", Style(fg="ansired")),
    ("@@", Style(fg="ansicyan")),
    ("diff ", Style(bold=True)),
)


def prefix_for(kind: str, theme: Theme | None = None) -> tuple[str, Style, Style]:
    """The first-row prefix, its style and the text style of a log kind.

    A theme's ``prefix.<kind>`` and ``kind.<kind>`` styles replace the built-in ones (the glyphs
    stay: they are chosen for their width, see the module docstring).
    """
    glyph, prefix_style, text_style = _KINDS.get(kind, _KINDS["status"])
    if theme is None or not theme.styles:
        return glyph, prefix_style, text_style
    styles = theme.styles
    return glyph, styles.get(f"prefix.{kind}", prefix_style), styles.get(f"kind.{kind}", text_style)


def _line_style(kind: str, head: str, base: Style) -> Style:
    if kind != "diff":
        return base
    for marker, style in _DIFF_STYLES:
        if head.startswith(marker):
            return style
    return base


def draw_log_row(row: LogRow, width: int, policy: WidthPolicy, theme: Theme | None = None) -> Row:
    """The styled cells of one wrapped log row, clipped to ``width`` (``theme``: the log's, for plain kinds)."""
    entry = row.entry
    kind = entry.kind
    if entry.view is not None:
        return _draw_view_row(entry, row.line_start, row.start, row.end, width, policy)
    head = entry.piece(row.line_start, row.line_start + 5) if kind == "diff" else ""
    return _draw_row(
        kind, entry.piece(row.start, row.end), row.start == 0 and entry.base == 0, head, width, policy, theme
    )


def draw_log_rows(rows: Iterable[LogRow], width: int, policy: WidthPolicy, theme: Theme | None = None) -> list[Row]:
    """``draw_log_row`` of every row (the viewport's tail and insertions draw runs of rows every tick)."""
    out: list[Row] = []
    for entry, line_start, start, end in rows:
        if entry.view is not None:
            out.append(_draw_view_row(entry, line_start, start, end, width, policy))
            continue
        kind = entry.kind
        # ``piece``: a long open line is kept in pieces (``Entry.tail``); the row reads its slice only.
        head = entry.piece(line_start, line_start + 5) if kind == "diff" else ""
        out.append(_draw_row(kind, entry.piece(start, end), start == 0 and entry.base == 0, head, width, policy, theme))
    return out


def _draw_view_row(entry: Entry, line_start: int, start: int, end: int, width: int, policy: WidthPolicy) -> Row:
    """A row of a rendered (Markdown) entry: the kind's prefix, then the line's styled cells."""
    view = entry.view
    assert view is not None
    prefix, prefix_style, _ = prefix_for(entry.kind, view.options.theme)
    if width <= len(prefix):
        prefix = ""
    elif start != 0 or entry.base != 0:
        prefix = " " * len(prefix)
    room = width - len(prefix)
    body: Row = ()
    if start < len(view.text) or start != end:
        line, first, _ = view.line_at(line_start)
        body = clip_row(draw_line_row(line, start - first, end - first, room, policy), room, policy)
    segments: list[Segment] = []
    if prefix.strip():
        segments.append(Segment(prefix, prefix_style))
    elif prefix and body:
        segments.append(Segment(prefix, DEFAULT))
    segments.extend(body)
    while segments and not segments[-1].text.rstrip(" "):
        segments.pop()
    if segments and segments[-1].text.endswith(" "):
        segments[-1] = Segment(segments[-1].text.rstrip(" "), segments[-1].style)
    return tuple(segments)


@functools.lru_cache(maxsize=4096)
def _draw_row(
    kind: str, text: str, first: bool, head: str, width: int, policy: WidthPolicy, theme: Theme | None = None
) -> Row:
    # Keyed by content, not by entry: a streaming entry is a new Entry every delta, its rows are not.
    prefix, prefix_style, text_style = prefix_for(kind, theme)
    if width <= len(prefix):
        prefix = ""  # too narrow for decoration: the wrap used the full width too
    elif not first:
        prefix = " " * len(prefix)
    text = text.rstrip("\n")
    room = width - len(prefix)
    if len(text) > room or not text.isascii():
        text, _ = clip_to_width(text, room, policy)
    text = text.rstrip(" ")
    segments: list[Segment] = []
    if prefix.strip():
        segments.append(Segment(prefix, prefix_style))
    elif prefix and text:
        segments.append(Segment(prefix, DEFAULT))
    if text:
        segments.append(Segment(text, _line_style(kind, head, text_style)))
    # Fits by construction (prefixes are as wide as they are long, the text is clipped to the room
    # left), so frames need not clip it again: tests/test_bench.py checks clip_row leaves it alone.
    return tuple(segments)


def drawn_as(
    rows: Sequence[Row], pending: Sequence[LogRow], limit: int, width: int, policy: WidthPolicy, theme: Theme | None
) -> int:
    """How many of the first ``limit`` ``rows`` (rows on the terminal) are the ``pending`` log rows drawn at ``width``,
    in order: what a resize may count as the log's, where a terminal kept or pushed them.

    Rows are compared by their text: an open code block's last line is drawn plain until the lexer has the next
    line, so the row on the terminal may lack the colours the log now gives it; it still says what the log says,
    and drawing it again would show its text twice."""
    count = 0
    while count < limit and row_text(rows[count]) == row_text(draw_log_row(pending[count], width, policy, theme)):
        count += 1
    return count
