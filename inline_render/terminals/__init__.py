"""What terminals do: an in-memory terminal that parses the exact bytes written (``memory``) and, per family,
what a resize does to its screen, history and cursor (``resize``)."""

from __future__ import annotations

from .memory import Cursor, TerminalFamily, TestTerminal

__all__ = ["Cursor", "TerminalFamily", "TestTerminal"]
