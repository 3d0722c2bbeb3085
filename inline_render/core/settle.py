"""Settling (``settle``, ``settle_rows``): what really reached the terminal folded into the state."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from .app import AppState, Screen
from .evolve import copier
from .layout import Layout
from .ops import (
    Anchored,
    AutowrapOff,
    AutowrapOn,
    EffectResult,
    HideCursor,
    Index,
    Inserted,
    LineFeed,
    MoveBy,
    Op,
    Plan,
    RestoreCursor,
    SaveCursor,
)
from .plan import Projection
from .state import CursorPhase, RenderState, SyncPhase

__all__ = ["cursor_after", "settle", "settle_rows"]


def settle_rows(state: AppState, layout: Layout, screen: Screen) -> AppState:
    """``settle`` after a rows-only plan (``RowsPlan``) was written completely: what ``settle`` gives for it
    (nothing inserted, the phases idle, the cursor shown or hidden as the frame wants), without the ``Plan`` and
    ``Projection`` it reads."""
    planned = layout.render
    phase = CursorPhase.VISIBLE_AT_COMPOSER if screen.cursor_visible else CursorPhase.HIDDEN_AT_DIALOG
    if planned.sync_phase is not SyncPhase.IDLE or planned.cursor_phase is not phase:
        planned = RenderState(
            planned.wrapped_total,  # wrapped_total
            max(planned.visible_start, planned.inserted_until),  # visible_start
            planned.visible_end,  # visible_end
            planned.inserted_until,  # inserted_until
            SyncPhase.IDLE,  # sync_phase
            planned.confirm_phase,  # confirm_phase
            phase,  # cursor_phase
        )
    return _SETTLED(state, state.log, planned, screen, None)


def cursor_after(state: AppState, ops: tuple[Op, ...]) -> tuple[int, int, bool, bool]:
    """Viewport top, cursor row, whether anchored, after ``ops`` (a plan's written prefix), as believed; and
    whether they stop inside a line written with autowrap on (the row is then not known: ``Screen.lost_row``)."""
    screen = state.screen
    top, anchored = screen.top, screen.anchored
    if screen.cursor is not None:
        row = screen.cursor[0]
    else:
        row = screen.start_row if screen.start_row is not None else state.rows - 1
    last, inside, saved = state.rows - 1, False, row
    for op in ops:
        kind = type(op)
        if kind is MoveBy:
            row = max(0, min(row + cast(MoveBy, op).rows, last))
        elif kind is LineFeed or kind is Index:
            row = min(row + 1, last)
        elif kind is SaveCursor:
            saved = row
        elif kind is RestoreCursor:
            row = saved
        elif kind is Anchored:
            top, anchored = cast(Anchored, op).top, True
        elif kind is Inserted:
            top += cast(Inserted, op).top_delta
        elif kind is AutowrapOn:
            inside = True
        elif kind is AutowrapOff:
            row, inside = min(row + cast(AutowrapOff, op).wrapped, last), False
    return top, row, anchored, inside


def settle(state: AppState, layout: Layout, plan: Plan, projection: Projection, result: EffectResult) -> AppState:
    """Fold what was really written into the state (only effect-result fields change)."""
    inserted = result.rows_inserted
    log = state.log.advance(layout.to_insert[:inserted]) if inserted else state.log
    planned = layout.render
    inserted_until = planned.inserted_until + inserted
    sync, cursor = planned.sync_phase, planned.cursor_phase
    if result.complete:
        screen = projection.screen
        if inserted:
            sync, cursor = SyncPhase.INSERTED_NEEDS_REDRAW, CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
        elif screen.stream is not None:
            # GNU screen: the open line goes into the terminal's own text as it streams (plan_stream), and the
            # cursor stays hidden at its end until the line is finished; the frame after that shows it.
            sync, cursor = SyncPhase.IDLE, CursorPhase.HIDDEN_AT_TEXT_END
        elif screen.cursor_visible is False:  # a dialog without a text field has the keys (``frame.Frame``)
            sync, cursor = SyncPhase.IDLE, CursorPhase.HIDDEN_AT_DIALOG
        else:
            sync, cursor = SyncPhase.IDLE, CursorPhase.VISIBLE_AT_COMPOSER
    else:
        # The cursor's row after the written operations is known (all motion is relative); the column is not.
        top, row, anchored, lost = cursor_after(state, plan.ops[: result.ops_written])
        screen = replace(
            state.screen, top=top, anchored=anchored, drawn=None, cursor=(row, -1), cursor_visible=None, broken=True,
            lost_row=lost, stream=None,
            # A stream frame (plan_stream) cut inside its text may have scrolled the screen once more than its
            # operations tell: the piece of the line above the top may continue into it; one blank row between.
            ghost_above=lost and any(type(op) is Index for op in plan.ops),
        )  # fmt: skip
        if inserted < projection.rows_planned:
            sync = SyncPhase.NEEDS_INSERT
            if any(isinstance(op, HideCursor) for op in plan.ops[: result.ops_written]):
                cursor = CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT  # as it is on screen; the retry shows it
        elif inserted:
            sync, cursor = SyncPhase.INSERTED_NEEDS_REDRAW, CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
        else:
            sync, cursor = state.render.sync_phase, state.render.cursor_phase
    if not inserted and sync is planned.sync_phase and cursor is planned.cursor_phase:
        if planned is state.render and screen is state.screen and state.fault is None:
            return state  # nothing changed (an idle tick): no copy
        render = planned  # the usual tick: nothing inserted, the phases as planned (visible_start >= inserted_until)
    else:
        # One RenderState built directly (the seven fields), not a chain of copies.
        render = RenderState(
            planned.wrapped_total,  # wrapped_total
            max(planned.visible_start, inserted_until),  # visible_start
            planned.visible_end,  # visible_end
            inserted_until,  # inserted_until
            sync,  # sync_phase
            planned.confirm_phase,  # confirm_phase
            cursor,  # cursor_phase
        )
    return _SETTLED(state, log, render, screen, None)


_SETTLED = copier(AppState, "log", "render", "screen", "fault")
