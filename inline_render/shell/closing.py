"""Leaving the terminal as the user expects (pure): the transcript flushed, every mode restored.

At exit the viewport still shows log rows that never reached scrollback (the
tail, perhaps a streaming answer).  ``closing_plan`` erases the viewport from
its top (found relative to the cursor) and writes the not-yet-inserted log rows there, at the current width,
as ordinary lines: history, then the tail, in order, each exactly once.  The
dialog, status line and composer are live widgets and simply disappear.  The
cursor ends on the line below the last row, visible, where the shell prompt
will follow.  The terminal's modes are reset around it (a write cut short by
an exception may have left an escape sequence or a synchronized update open).
"""

from __future__ import annotations

from ..core.app import AppState
from ..core.log import log_rows
from ..core.ops import Cancel, EndSync, EraseDown, EraseLine, LineFeed, MoveBy, Op, Plan, ResetStyle, ShowCursor
from ..core.ops import Text as TextOp
from ..core.rows import draw_log_row

__all__ = ["ENTER_MODES", "LEAVE_MODES", "closing_plan"]

# Bracketed paste on (pastes arrive whole), autowrap off (a frame drawn a moment before a
# resize is clipped at the right edge instead of wrapping into the rows below it).
ENTER_MODES = b"\x1b[?2004h\x1b[?7l"
# Everything ENTER_MODES and the renderer may have changed, back to the defaults.
LEAVE_MODES = b"\x1b[0m\x1b[?7h\x1b[?2004l\x1b[?25h"


def closing_plan(state: AppState) -> Plan:
    """The operations that replace the viewport by the rest of the transcript and park the cursor below.

    Relative moves only (a resize may have moved the viewport since the last frame); the viewport is erased
    once from its top, so no row is erased after its text is written (``ESC[K`` at the last column erases
    the last cell on xterm, tmux and screen).
    """
    screen = state.screen
    columns = state.columns
    ops: list[Op] = [Cancel(), EndSync(), ResetStyle()]
    if screen.anchored and screen.cursor is not None:
        up = screen.cursor[0] - max(0, min(screen.top, state.rows - 1))
    else:
        up = 0  # never drawn: the viewport would have started at the cursor's row
    if columns > 1:
        # ESC[J from column 1, then the first row: ESC[J at the home position makes tmux push the screen.
        ops += [MoveBy(-up, 1), EraseDown(), MoveBy(0, 0), EraseLine()]
    else:
        ops += [MoveBy(-up, 0), EraseDown()]
    config = state.config
    pending, _ = log_rows(state.log, columns, config.width_policy)
    theme = state.log.options.theme if state.log.options is not None else None
    # GNU screen's streamed line taller than the viewport (``Screen.stream``): its rows above the viewport's top are
    # in the terminal's text already, continuing into the rows written here.
    above = sum(len(line) for line in screen.stream) - screen.drawn_log_rows if screen.stream is not None else 0
    for row in pending[max(0, above) :]:
        for segment in draw_log_row(row, columns, config.width_policy, theme):
            ops.append(TextOp(segment.text, segment.style))
        ops += [MoveBy(0, 0), LineFeed()]  # the screen scrolls at its bottom and the top row enters history
    ops += [ResetStyle(), ShowCursor()]
    return Plan(tuple(ops))
