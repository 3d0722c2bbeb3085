"""Markdown for display: blocks rendered to lines (``blocks``), tables fitted to the width (``table``), and the
streaming view with its commit rule (``stream``).  The names of ``blocks`` are here too (``inline_render.markdown``
was that module before it became this package).
"""

from __future__ import annotations

from .blocks import BULLETS, CODE_MARK, Line, Options, Refs, Renderer, Table, Wrap, definitions, merge, parse, safe_url

__all__ = [
    "BULLETS",
    "CODE_MARK",
    "Line",
    "Options",
    "Refs",
    "Renderer",
    "Table",
    "Wrap",
    "definitions",
    "merge",
    "parse",
    "safe_url",
]
