"""Styles, styled segments and rows: what a frame is made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import wcwidth

from .cells import WidthPolicy, clip_to_width, grapheme_width, text_width

__all__ = ["DEFAULT", "Row", "Segment", "Style", "clip_row", "row_text", "row_width", "styled"]


@dataclass(frozen=True, slots=True)
class Style:
    """Character attributes; colours are prompt_toolkit colour names (``ansired``) or ``#rrggbb``."""

    fg: str | None = None
    bg: str | None = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False
    strike: bool = False
    link: str | None = None
    """An OSC 8 hyperlink target (set only by the Markdown renderer, for a validated URL)."""


DEFAULT = Style()


class Segment(NamedTuple):
    """A run of sanitized text in one style (a tuple: cheap to build, hash and compare)."""

    text: str
    style: Style = DEFAULT


Row = tuple[Segment, ...]


def styled(text: str, style: Style = DEFAULT) -> Row:
    """A one-segment row (empty text gives the empty row)."""
    return (Segment(text, style),) if text else ()


def row_text(row: Row) -> str:
    """The plain characters of a row."""
    return "".join(segment.text for segment in row)


def row_width(row: Row, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> int:
    """Display width of a row."""
    return sum(text_width(segment.text, policy) for segment in row)


def _fits(row: Row, width: int, policy: WidthPolicy) -> bool:
    """The loop of ``clip_row`` would keep every segment whole: each fits, none is empty, none starts
    with a zero-width cluster (``clip_to_width`` gives it a base) and none follows a full row."""
    room = width
    for index, segment in enumerate(row):
        text = segment.text
        if not text or (index and room <= 0):
            return False
        if text.isascii():
            room -= len(text)
        else:
            if grapheme_width(next(wcwidth.iter_graphemes(text)), policy) == 0:
                return False
            room -= text_width(text, policy)
        if room < 0:
            return False
    return True


def clip_row(row: Row, width: int, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> Row:
    """``row`` cut to ``width`` cells at a cluster boundary (a row never relies on autowrap)."""
    if sum(len(segment.text) for segment in row) <= width and all(segment.text.isascii() for segment in row):
        return row
    if _fits(row, width, policy):
        return row
    return _clip(row, width, policy)


def _clip(row: Row, width: int, policy: WidthPolicy) -> Row:
    out: list[Segment] = []
    room = width
    for segment in row:
        piece, used = clip_to_width(segment.text, room, policy)
        if piece:
            out.append(Segment(piece, segment.style))
        room -= used
        if used < text_width(segment.text, policy) or room <= 0:
            break
    return tuple(out)
