"""Reusable test kit: emulator checks (and, with hypothesis, strategies and a state machine).

``CheckedRenderer`` runs a renderer against the in-memory terminal and pyte and
checks every emulator property after every tick.  pyte and hypothesis are
test dependencies (``pip install inline_render[test]``).
"""

from __future__ import annotations

from .checks import FORBIDDEN, CheckedRenderer, forbidden_sequences

__all__ = ["FORBIDDEN", "CheckedRenderer", "forbidden_sequences"]
