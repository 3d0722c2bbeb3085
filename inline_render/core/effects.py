"""Stage 4, ``apply_terminal_effects``: plan the frame's terminal operations (pure), write them, settle the result.

Planning is ``plan`` (the rows-only and general plans, ``planner``, ``diff``) and ``plan_stream`` (GNU screen);
settling is ``settle``.  This module runs them in order around the backend's write, the tick's only I/O.
"""

from __future__ import annotations

from .app import AppState
from .backend import Vt100Backend
from .diff import diff_row
from .layout import Frame, Layout
from .ops import EffectResult
from .plan import Projection, RowsPlan, plan_frame, plan_terminal_effects
from .settle import cursor_after, settle, settle_rows

__all__ = [
    "EffectResult",
    "Projection",
    "RowsPlan",
    "apply_terminal_effects",
    "cursor_after",
    "diff_row",
    "plan_frame",
    "plan_terminal_effects",
    "settle",
    "settle_rows",
]


def apply_terminal_effects(
    state: AppState, layout: Layout, frame: Frame, backend: Vt100Backend
) -> tuple[AppState, EffectResult]:
    """Stage 4: plan (pure), write (the only I/O), and fold the effect result into the state."""
    planned = plan_frame(state, layout, frame)
    if isinstance(planned, RowsPlan):
        # A frame whose only change is rows (a status line, a streamed delta): encoded straight from the
        # rows-only plan, without the Plan and Projection objects of the general path (its result is the same).
        effect = backend.write_rows(planned.items, planned.fail_after)
        if effect.complete:
            return settle_rows(state, layout, planned.screen), effect
        plan, projection = planned.plan(), Projection(planned.screen, 0)
    else:  # no cast(): its type argument would be built on every tick
        plan, projection = planned
        effect = backend.write(plan)
    return settle(state, layout, plan, projection, effect), effect
