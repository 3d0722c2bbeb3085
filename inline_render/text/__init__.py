"""Text: untrusted text to safe cells (``cells``), styles, styled spans, roles, themes and highlighting.

The names of ``cells`` (what ``inline_render.text`` was before it became this package) are here too.
"""

from __future__ import annotations

from .cells import (
    TAB_SIZE,
    WidthPolicy,
    clip_to_width,
    common_prefix,
    expand_tabs,
    flatten,
    grapheme_width,
    iter_cells,
    sanitize,
    text_width,
    wrap_cells,
    wrap_line,
)

__all__ = [
    "TAB_SIZE",
    "WidthPolicy",
    "clip_to_width",
    "common_prefix",
    "expand_tabs",
    "flatten",
    "grapheme_width",
    "iter_cells",
    "sanitize",
    "text_width",
    "wrap_cells",
    "wrap_line",
]
