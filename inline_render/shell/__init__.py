"""The real-terminal shell around the pure core: ``InlineApp`` / ``run``, plain and JSON Lines output.

See ``runner`` for the application loop, ``keys`` for key mapping, ``cursor``
for cursor-position queries, ``schedule`` for tick coalescing, ``closing`` for
the exit sequence and ``plain`` for the non-TTY transcript.
"""

from __future__ import annotations

from .api import Stream, WorkingScope
from .closing import ENTER_MODES, LEAVE_MODES, closing_plan
from .cursor import CursorQueries
from .keys import CursorReport, map_key_presses, parse_cursor_report
from .plain import AnswerTracker, PlainWriter
from .runner import AppOptions, InlineApp, Main, run
from .schedule import DEFAULT_MAX_RATE, TickScheduler
from .terminal_io import OutputMode, color_depth_for, resolve_mode, terminal_size

__all__ = [
    "DEFAULT_MAX_RATE",
    "ENTER_MODES",
    "LEAVE_MODES",
    "AnswerTracker",
    "AppOptions",
    "CursorQueries",
    "CursorReport",
    "InlineApp",
    "Main",
    "OutputMode",
    "PlainWriter",
    "Stream",
    "TickScheduler",
    "WorkingScope",
    "closing_plan",
    "color_depth_for",
    "map_key_presses",
    "parse_cursor_report",
    "resolve_mode",
    "run",
    "terminal_size",
]
