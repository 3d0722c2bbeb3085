"""The real-terminal shell around the pure core: ``InlineApp`` / ``run``, plain and JSON Lines output.

See ``runner`` for the application loop (``options``: how it runs; ``terminal``: the
inline terminal's plumbing; ``session`` and ``api``: its session features and the
application's side), ``keys`` for key mapping, ``probe`` for what the terminal says
about itself at startup, ``cursor`` for cursor-position queries, ``schedule`` for tick
coalescing, ``closing`` for the exit sequence and ``plain`` for the non-TTY transcript.
"""

from __future__ import annotations

from .api import Stream, WorkingScope, diff_preview
from .closing import ENTER_MODES, LEAVE_MODES, closing_plan
from .cursor import CursorQueries
from .keys import CursorReport, map_key_presses, parse_cursor_report
from .plain import AnswerTracker, PlainWriter
from .probe import TerminalFamily, TerminalInfo, parse_replies, probe_terminal
from .runner import AppOptions, InlineApp, Main, config_for, run
from .schedule import DEFAULT_MAX_RATE, TickScheduler
from .terminal_io import OutputMode, color_depth_for, resolve_mode, terminal_size
from .turns import TurnRunner

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
    "TerminalFamily",
    "TerminalInfo",
    "TickScheduler",
    "TurnRunner",
    "WorkingScope",
    "closing_plan",
    "color_depth_for",
    "config_for",
    "diff_preview",
    "map_key_presses",
    "parse_cursor_report",
    "parse_replies",
    "probe_terminal",
    "resolve_mode",
    "run",
    "terminal_size",
]
