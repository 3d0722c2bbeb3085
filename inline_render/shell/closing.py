"""Leaving the terminal as the user expects (pure): the transcript flushed, every mode restored.

At exit the viewport still shows log rows that never reached scrollback (the
tail, perhaps a streaming answer).  ``closing_plan`` erases the viewport from
its top and writes the not-yet-inserted log rows there, at the current width,
as ordinary lines: history, then the tail, in order, each exactly once.  The
dialog, status line and composer are live widgets and simply disappear.  The
cursor ends on the line below the last row, visible, where the shell prompt
will follow.  The terminal's modes are reset around it (a write cut short by
an exception may have left an escape sequence or a synchronized update open).
"""

from __future__ import annotations

from ..app import AppState
from ..log import log_rows
from ..ops import Cancel, EndSync, EraseDown, EraseLine, LineFeed, MoveTo, Op, Plan, ResetRegion, ResetStyle, ShowCursor
from ..ops import Text as TextOp
from ..theme import draw_log_row

__all__ = ["ENTER_MODES", "LEAVE_MODES", "closing_plan"]

# Bracketed paste on (pastes arrive whole), autowrap off (a frame drawn a moment before a
# resize is clipped at the right edge instead of wrapping into the rows below it).
ENTER_MODES = b"\x1b[?2004h\x1b[?7l"
# Everything ENTER_MODES and the renderer may have changed, back to the defaults.
LEAVE_MODES = b"\x1b[0m\x1b[?7h\x1b[?2004l\x1b[?25h"


def closing_plan(state: AppState) -> Plan:
    """The operations that replace the viewport by the rest of the transcript and park the cursor below."""
    screen = state.screen
    rows = state.rows
    ops: list[Op] = [Cancel(), EndSync(), ResetRegion(), ResetStyle()]
    if screen.anchored:
        top = screen.top
    elif screen.start_row is not None:
        top = screen.start_row
    else:
        top = rows - 1
    line = max(0, min(top, rows - 1))
    ops += [MoveTo(line, 0), EraseLine()]  # not ESC[J at home: tmux would push the screen into history
    if line + 1 < rows:
        ops += [MoveTo(line + 1, 0), EraseDown()]
    config = state.config
    pending, _ = log_rows(state.log, state.columns, config.width_policy)
    for row in pending:
        ops.append(MoveTo(line, 0))
        for segment in draw_log_row(row, state.columns, config.width_policy):
            ops.append(TextOp(segment.text, segment.style))
        ops.append(EraseLine())
        if line < rows - 1:
            line += 1
        else:
            ops.append(LineFeed())  # at the bottom: the screen scrolls and the top row enters history
    ops += [MoveTo(line, 0), ResetStyle(), ShowCursor()]
    return Plan(tuple(ops))
