"""Lemon's JSON-lines dialect (seed 001): the codec at the edge (``codec``), the sans-I/O session (``session``),
its snapshot messages as normalized events (``stream``) and its overlays as core dialogs (``dialogs``)."""

from __future__ import annotations

from ..._compat import moved_names

# ``inline_render.protocol.lemon`` was the codec module before it became this package.
__getattr__ = moved_names(__name__, "inline_render.protocol.lemon", "inline_render.protocol.lemon.codec")
