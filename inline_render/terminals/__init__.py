"""What terminals do: an in-memory terminal that parses the exact bytes written (``memory``) and, per family,
what a resize does to its screen, history and cursor (``resize``), and what a terminal does as one object
(``behaviour``: built from its answers, turned into the renderer's config by the shell)."""

from __future__ import annotations

from .behaviour import TerminalBehaviour
from .memory import Cursor, TerminalFamily, TestTerminal

__all__ = ["Cursor", "TerminalBehaviour", "TerminalFamily", "TestTerminal"]
