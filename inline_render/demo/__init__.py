"""What runs in your terminal to show the library: the scripted agent session (``scripted``, ``python -m
inline_render demo``), the chat app on the public API (``chat``), the README example (``example``), and the
scripted runtimes they talk to (``fake_runtime`` for codelia, ``fake_lemon`` for Lemon)."""

from __future__ import annotations

from .._compat import moved_names

# ``inline_render.demo`` was the scripted session's module before it became this package.
__getattr__ = moved_names(__name__, "inline_render.demo", "inline_render.demo.scripted")
