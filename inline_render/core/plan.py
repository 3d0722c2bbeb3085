"""Planning a frame (pure): ``plan_frame`` picks the stream, rows-only or general plan; ``Projection``, ``RowsPlan``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from ..text.cells import text_width
from ..text.style import Segment
from .app import RECENT_FRAMES, AppState, FrameRecord, Screen
from .bulk import last_cell_start, split_last_cell
from .diff import diff_row
from .evolve import fast_init, maker
from .layout import Frame, Layout
from .log import LogRow
from .ops import (
    AUTOWRAP_OFF,
    AUTOWRAP_ON,
    BEGIN_SYNC,
    CANCEL,
    END_SYNC,
    ERASE_LINE,
    HIDE_CURSOR,
    SHOW_CURSOR,
    Op,
    Plan,
    as_ops,
)
from .plan_stream import plan_stream
from .planner import Planner, append_move

__all__ = ["Projection", "RowsPlan", "plan_frame", "plan_terminal_effects"]

_new = tuple.__new__  # a NamedTuple's own __new__ is a Python call


@fast_init
@dataclass(frozen=True, slots=True)
class Projection:
    """The terminal knowledge after the whole plan is written."""

    screen: Screen
    rows_planned: int


def _unchanged(state: AppState, layout: Layout, frame: Frame) -> bool:
    """The terminal shows ``frame`` already, the cursor where it belongs, shown or hidden as the frame wants: the
    plan is empty and the screen knowledge is ``state.screen`` as it is (the fields ``plan_terminal_effects``
    would set, compared)."""
    screen = state.screen
    cursor = screen.cursor
    if (
        screen.drawn is not frame.rows
        or layout.to_insert
        or cursor is None
        or screen.broken
        or not screen.anchored
        or screen.cursor_visible is not frame.cursor_shown
        or state.fault is not None
    ):
        return False
    row, col = frame.cursor
    return (
        cursor[0] == max(0, min(screen.top + row, state.rows - 1))
        and cursor[1] == col
        and screen.first_written == layout.height  # the last frames wrote nothing (they aged out, see plan)
        and screen.resized_from is None
        and screen.start_row is None
        and screen.drawn_columns == state.columns
        and screen.drawn_log_rows == frame.log_rows
        and screen.dialog_drawn == (state.dialog is not None and layout.dialog_height > 0)
    )


_NO_OPS = Plan((), None)
_LAST_UNCHANGED: dict[None, Projection] = {}  # the projection of the last unchanged screen (idle ticks reuse it)


def plan_terminal_effects(state: AppState, layout: Layout, frame: Frame) -> tuple[Plan, Projection]:
    """The operations that bring the terminal to ``frame``, inserting ``layout.to_insert`` first (pure)."""
    planned = plan_frame(state, layout, frame)
    if isinstance(planned, RowsPlan):
        return planned.plan(), Projection(planned.screen, 0)
    return planned


def plan_frame(state: AppState, layout: Layout, frame: Frame) -> RowsPlan | tuple[Plan, Projection]:
    """``plan_terminal_effects``, except that a frame whose only change is rows is planned as a ``RowsPlan``
    (the backend's ``write_rows`` encodes it, ``settle_rows`` folds it in): the tick's path."""
    if _unchanged(state, layout, frame):
        # The usual idle tick (no input, or one that changed nothing on screen): nothing to plan or diff.
        last = _LAST_UNCHANGED.get(None)
        if last is None or last.screen is not state.screen:
            last = _LAST_UNCHANGED[None] = Projection(state.screen, 0)
        return _NO_OPS, last
    screen = state.screen
    if state.config.soft_wrap_lines:
        streamed = plan_stream(state, layout, frame)
        if streamed is not None:
            plan, after = streamed
            if plan.ops:
                frames = _recent_frames(state, screen.recent_frames, plan, layout.to_insert)
                after = replace(after, recent_frames=frames)
            return plan, Projection(after, len(layout.to_insert))
        if screen.stream is not None:
            # A streamed text the frame does not continue (a Markdown line re-rendered): drawn again from the
            # viewport's top as an anchoring does, so the marks that link its rows (no erase clears them on GNU
            # screen) are deleted with them.
            # Its rows above the viewport's top are open rows too: the viewport is anchored from the text's first row.
            above = sum(len(line) for line in screen.stream) - screen.drawn_log_rows
            top = max(0, screen.top - max(0, above))
            state = replace(state, screen=replace(screen, broken=True, stream=None, top=top))
    if (
        not layout.to_insert
        and screen.anchored
        and not screen.broken
        and screen.cursor is not None
        and screen.drawn is not None
        and len(screen.drawn) == layout.height
        and state.config.synchronized_output
    ):
        return _plan_rows(state, layout, frame)
    return _plan(state, layout, frame)


def _plan(state: AppState, layout: Layout, frame: Frame) -> tuple[Plan, Projection]:
    """The general plan: anchor when needed, insert, then draw the frame (``Planner``)."""
    planner = Planner(state, layout)
    planner.anchor()
    if layout.height > planner.height and not state.config.soft_wrap_lines:
        # A compact viewport grows first: the rows to insert are staged in its top rows, where they are drawn, and
        # leave through its top in as few batches as its new height allows.
        planner.set_height(layout.height)
    if layout.to_insert:
        planner.insert(layout)
    planner.set_height(layout.height)  # differs only with Config.compact or Config.soft_wrap_lines
    planner.finish(frame, show_cursor=not layout.to_insert)
    ops = planner.ops
    if ops and state.config.synchronized_output:
        ops = [BEGIN_SYNC, *ops, END_SYNC]
    if state.screen.broken:
        ops = [CANCEL, *ops]  # first: ends any escape sequence a failed write left open
        if state.config.soft_wrap_lines or state.screen.lost_row:
            ops.insert(1, AUTOWRAP_OFF)  # the failed write may have stopped inside a text written with autowrap
    plan = Plan(tuple(ops), state.fault)
    # The first rows the last frames wrote to, moved up by the rows this one inserted (see
    # Screen.recent_written).  A frame that writes no row counts too (as ``height``): it ages the older
    # entries, which keeps the distrust to the frames the terminal may not have read yet.  A tick that writes
    # nothing is no frame (the shell counts the ticks that wrote): it ages nothing.
    moved = planner.inserted_rows
    recent = state.screen.recent_written if state.screen.anchored else ()
    older = recent[1 - RECENT_FRAMES :]
    written = (*(max(0, row - moved) for row in older), planner.first_written) if plan.ops else recent
    frames = _recent_frames(state, state.screen.recent_frames if state.screen.anchored else (), plan, layout.to_insert)
    # Positional arguments, named in the comments: binding 11 keywords cost more than setting the fields.
    screen = Screen(
        planner.top,  # top
        frame.rows,  # drawn; finish() drew every row of the frame: the planner's rows are these very objects
        state.columns,  # drawn_columns
        frame.log_rows,  # drawn_log_rows
        planner.cursor,  # cursor
        planner.visible,  # cursor_visible
        True,  # anchored
        None,  # start_row
        state.dialog is not None and layout.dialog_height > 0,  # dialog_drawn; a dialog with no row on screen is unseen
        False,  # broken
        written,  # recent_written
        frames,  # recent_frames
        False,  # ghost_above
        None,  # resized_from
        False,  # lost_row
        None,  # stream: the planner draws rows one by one (``plan_stream`` writes the open line as one text)
    )
    return plan, Projection(screen, len(layout.to_insert))


class RowsPlan(NamedTuple):
    """The plan of a rows-only frame (``plan_frame``), in the form the backend encodes straight to bytes.

    ``items`` are the plan's operations, except that a text is its ``Segment`` (text, style) rather than a
    ``Text`` made for it: a status tick writes one text, and neither the ``Text`` nor a ``Plan`` or
    ``Projection`` is built for it (``plan`` makes them when asked: a failed write, a test, the replay
    through ``FrameRecord.ops``).  ``screen`` is the screen after it; ``fail_after`` is ``Plan``'s.
    """

    items: tuple[Op | Segment, ...]
    screen: Screen
    fail_after: int | None

    def plan(self) -> Plan:
        """The same plan as a ``Plan`` of operations (what ``_plan`` gives for this frame)."""
        return Plan(as_ops(self.items) if self.items else (), self.fail_after)


def _plan_rows(state: AppState, layout: Layout, frame: Frame) -> RowsPlan:
    """The plan of a frame whose only change is rows: what ``_plan`` gives, without a planner.

    The viewport is anchored and known, nothing is inserted, and synchronized output hides every move
    (so no cursor is hidden on the way): each changed row is diffed, moved to and written, then the
    cursor goes where the frame wants it.  A token counter or a streamed delta plans here, and
    ``tests/test_perf_equivalence.py`` checks it against ``_plan`` on every tick of several workloads.
    """
    screen = state.screen
    drawn, cursor = screen.drawn, screen.cursor
    assert drawn is not None and cursor is not None  # plan_frame checked both (no cast: a call)
    columns, last = state.columns, state.rows - 1
    policy = state.config.width_policy
    top = screen.top
    at_row, at_col = cursor
    items: list[Op | Segment] = [BEGIN_SYNC]
    first = layout.height
    for index, new in enumerate(frame.rows):
        old = drawn[index]
        if old is not new and (change := diff_row(old, new, columns, policy)) is not None:
            column, segments, erase = change
            if segments or erase:
                if index < first:
                    first = index
                row = top + index
                if erase:
                    at_row, at_col = append_move(items, at_row, at_col, row, 0, last)
                    items.append(ERASE_LINE)
                    column, segments = 0, list(new)
                at_row, at_col = append_move(items, at_row, at_col, row, column, last)
                for segment in segments:
                    items.append(segment)  # written as it is: the Text it stands for is made only when asked
                    text = segment[0]
                    column += len(text) if text.isascii() else text_width(text, policy)
                if column >= columns and (split := last_cell_start(segments)) is not None:
                    before, after = split_last_cell(segments, split)  # as ``bulk.write_last_cell`` in ``update_row``
                    items[len(items) - len(segments) :] = [*before, AUTOWRAP_ON, *after, AUTOWRAP_OFF]
                at_row, at_col = row, column if column < columns else columns
    cursor_row, cursor_col = frame.cursor
    at_row, at_col = append_move(items, at_row, at_col, top + cursor_row, cursor_col, last)
    shown = frame.cursor_shown
    if screen.cursor_visible is not shown:
        items.append(SHOW_CURSOR if shown else HIDE_CURSOR)
    if len(items) > 1:
        items.append(END_SYNC)
        planned = tuple(items)
        frames = (*screen.recent_frames[1 - RECENT_FRAMES :], _record(state, planned, ()))
    else:
        planned, frames = (), screen.recent_frames  # nothing written: no frame for the shell to count
    screen = _MAKE_SCREEN(
        top,  # top
        frame.rows,  # drawn
        columns,  # drawn_columns
        frame.log_rows,  # drawn_log_rows
        (at_row, at_col),  # cursor
        shown,  # cursor_visible
        True,  # anchored
        None,  # start_row
        state.dialog is not None and layout.dialog_height > 0,  # dialog_drawn
        False,  # broken
        (*screen.recent_written[1 - RECENT_FRAMES :], first) if planned else screen.recent_written,  # recent_written
        frames,  # recent_frames
        False,  # ghost_above (the default, as in _plan)
        None,  # resized_from (the default, as in _plan)
        False,  # lost_row (the default, as in _plan)
        None,  # stream (rows-only frames are not stream frames)
        (),  # split_rows: the frame redrew what a resize split, or none was
    )
    return _new(RowsPlan, (planned, screen, state.fault))


_MAKE_SCREEN = maker(Screen)  # a Screen from all its fields, without calling the class (evolve.maker)


def _record(state: AppState, ops: tuple[Op | Segment, ...], inserted: tuple[LogRow, ...]) -> FrameRecord:
    """The record of a frame that writes ``ops``, with the screen it was planned for (``Screen.recent_frames``)."""
    screen = state.screen
    drawn = screen.drawn or ()
    cursor = screen.cursor if screen.cursor is not None else (screen.top + max(0, len(drawn) - 1), 0)
    return _new(FrameRecord, (screen.top, drawn, state.columns, state.rows, cursor, ops, inserted, screen.split_rows))


def _recent_frames(
    state: AppState, frames: tuple[FrameRecord, ...], plan: Plan, inserted: tuple[LogRow, ...]
) -> tuple[FrameRecord, ...]:
    """``Screen.recent_frames`` after ``plan``: the frame as written, with the screen it was planned for, added
    when it writes (a frame that writes nothing is not one the shell acknowledges and counts)."""
    if not plan.ops:
        return frames
    return (*frames[1 - RECENT_FRAMES :], _record(state, plan.ops, inserted))
