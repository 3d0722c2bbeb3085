"""The styles of the viewport's roles: dim text, titles, danger, the selected row, hints, the spinner's glyphs.

Glyphs are chosen with East Asian Width "N" (never "A"), so they are one cell wide in every locale.
"""

from __future__ import annotations

from .style import Style

__all__ = ["DANGER", "DIM", "HINT", "SELECTED", "SPINNER", "TITLE"]

DIM = Style(dim=True)
TITLE = Style(bold=True)
DANGER = Style(fg="ansired", bold=True)
SELECTED = Style(reverse=True)
HINT = Style(dim=True, italic=True)
SPINNER = "\u280b\u2819\u2839\u2838\u283c\u2834\u2826\u2827\u2807\u280f"  # braille dots, one cell each
