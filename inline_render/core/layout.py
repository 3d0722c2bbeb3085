"""Stage 2: ``compute_layout`` (pure), the rows of each region of the viewport and the RenderState rows.

The viewport, top to bottom: the log tail, the dialog, the widgets above, the
status line, the composer, the widgets below.  The composer is never dropped;
widgets and then a dialog get the rows left after ``min_log_rows``; the log
tail gets the rest.  The log is top-aligned so new
rows appear right under the ones before, as they will in scrollback.

``Frame`` and ``draw_frame`` (stage 3, ``frame``) are importable from here too, where they were first.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from ..text.cells import WidthPolicy
from ..widgets.composer import Composer, TextField, render_field
from ..widgets.dialogs import Dialog, DialogView
from .app import AppState
from .evolve import maker
from .frame import Frame, draw_frame
from .log import LogState, flushed_rows, log_rows
from .pushed import hidden_rows
from .state import Config, RenderState, SyncPhase
from .viewport import Layout, composer_prompt

__all__ = ["Frame", "Layout", "compute_layout", "draw_frame"]


def _window(total: int, size: int, focus: int) -> int:
    """First row of a ``size``-row window on ``total`` rows that shows ``focus`` (bottom-most)."""
    return max(0, min(total - size, focus - size + 1)) if total > size else 0


@functools.lru_cache(maxsize=256)
def _composer_rows(field: TextField, width: int, policy: WidthPolicy) -> tuple[tuple[str, ...], int, int]:
    texts, cursor_row, cursor_col = render_field(field, width, policy)
    return tuple(texts), cursor_row, cursor_col


def _dialog_rows(total: int, size: int, focus: int) -> tuple[int, ...]:
    """Which dialog rows to show in ``size`` rows: all, or the title kept on top of a window that shows ``focus``."""
    if total <= size:
        return tuple(range(total))
    if size < 2 or focus == 0:
        start = _window(total, size, focus)
        return tuple(range(start, start + size))
    start = 1 + _window(total - 1, size - 1, focus - 1)
    return (0, *range(start, start + size - 1))


# The last layout and what it was computed from.  A tick that changed none of its inputs (no input, a status
# or clock change) reuses it whole: an unchanged viewport is not derived again.  Valid because the inputs are
# frozen values compared by identity (the same objects give the same layout) and the size compared by value.
@dataclass(frozen=True, slots=True)
class _LayoutMemo:
    """The last layout (``layout``) and the inputs it was computed from (the other fields)."""

    config: Config
    columns: int
    rows: int
    composer: Composer
    dialog: Dialog | None
    log: LogState
    render: RenderState
    widgets: tuple[tuple[str, tuple[str, ...], bool], ...]
    layout: Layout


_MAKE_LAYOUT_MEMO = maker(_LayoutMemo)  # built on every changed tick: without calling the class (evolve.maker)
# One snapshot (None: none yet), with strong references; replaced whole, so its inputs and layout are of one call.
_last_layout: _LayoutMemo | None = None


def compute_layout(state: AppState) -> Layout:
    """Wrap the pending log and the widgets for the current size; place the regions."""
    global _last_layout
    last = _last_layout
    if (
        last is not None
        and last.render is state.render
        and last.log is state.log
        and last.widgets is state.widgets
        and last.composer is state.composer
        and last.dialog is state.dialog
        and last.config is state.config
        and last.columns == state.columns
        and last.rows == state.rows
    ):
        return last.layout
    layout = _compute_layout(state)
    _last_layout = _MAKE_LAYOUT_MEMO(
        state.config, state.columns, state.rows, state.composer, state.dialog, state.log, state.render, state.widgets,
        layout,
    )  # fmt: skip
    return layout


class _Regions(NamedTuple):
    """The viewport's regions other than the log tail, and the composer's rows."""

    height: int
    prompt: str
    composer: tuple[str, ...]
    cursor_row: int
    cursor_col: int
    composer_height: int
    composer_offset: int
    status_height: int
    above: tuple[str, ...]
    below: tuple[str, ...]
    dialog: DialogView | None
    dialog_height: int
    dialog_shown: tuple[int, ...]
    log_height: int


# The last regions and what they were placed from.  A streamed delta changes the log only: the composer's
# rows, the widgets and the dialog are not placed again (the composer's rows were a cache lookup that hashed
# and compared the composer by value on every tick).  Valid as ``_LayoutMemo`` is: inputs compared by identity.
@dataclass(frozen=True, slots=True)
class _RegionsMemo:
    """The last regions (``regions``) and the inputs they were placed from (the other fields)."""

    config: Config
    columns: int
    rows: int
    composer: Composer
    dialog: Dialog | None
    widgets: tuple[tuple[str, tuple[str, ...], bool], ...]
    regions: _Regions


_MAKE_REGIONS_MEMO = maker(_RegionsMemo)
_last_regions: _RegionsMemo | None = None  # one snapshot (None: none yet), replaced whole


def _regions(state: AppState) -> _Regions:
    """Place every region but the log tail (which gets the rows left: ``log_height``)."""
    global _last_regions
    last = _last_regions
    if (
        last is not None
        and last.composer is state.composer
        and last.widgets is state.widgets
        and last.dialog is state.dialog
        and last.config is state.config
        and last.columns == state.columns
        and last.rows == state.rows
    ):
        return last.regions
    config = state.config
    width, policy = state.columns, config.width_policy
    height = min(config.viewport_height, state.rows)
    prompt = composer_prompt(config, width)
    texts, cursor_row, cursor_col = _composer_rows(state.composer, max(1, width - len(prompt)), policy)
    composer_height = min(len(texts), config.max_composer_rows, height)
    composer_offset = _window(len(texts), composer_height, cursor_row)
    rest = height - composer_height
    # An open dialog's first row comes before the status line: keys wait until a dialog is drawn, so at two rows
    # a dialog behind the status line could never be answered.
    status_height = 1 if rest >= (2 if state.dialog is not None else 1) else 0
    rest -= status_height
    above, below = _widget_rows(state, max(rest - config.min_log_rows, 0))
    rest -= len(above) + len(below)
    dialog = state.dialog.render(width, policy) if state.dialog is not None else None
    dialog_height = 0
    dialog_shown: tuple[int, ...] = ()
    if dialog is not None:
        # A dialog gets what the log tail can spare, but at least its title and focus row when there is room.
        room = max(rest - config.min_log_rows, min(2, rest))
        dialog_height = min(len(dialog.rows), room)
        dialog_shown = _dialog_rows(len(dialog.rows), dialog_height, dialog.focus)
    regions = _Regions(
        height, prompt, texts, cursor_row, cursor_col, composer_height, composer_offset, status_height,
        above, below, dialog, dialog_height, dialog_shown, rest - dialog_height,
    )  # fmt: skip
    _last_regions = _MAKE_REGIONS_MEMO(
        config, state.columns, state.rows, state.composer, state.dialog, state.widgets, regions
    )
    return regions


def _compute_layout(state: AppState) -> Layout:
    width, policy = state.columns, state.config.width_policy
    regions = _regions(state)
    height, log_height = regions.height, regions.log_height
    pending, committed = log_rows(state.log, width, policy)
    render = state.render
    inserted = render.inserted_until
    total = inserted + len(pending)
    start = max(total - log_height, inserted)
    if state.log.flush:  # a /clear: what the log showed goes into scrollback now (LogState.cleared)
        start = max(start, inserted + flushed_rows(state.log, width, policy))
    # Only committed rows may enter scrollback; uncommitted rows above the tail wait unseen.
    insert_end = min(start, inserted + committed)
    hidden = hidden_rows(state, pending) if state.pushed_open is not None else 0
    if hidden:
        # Lines a shrink pushed into history as they still read wait there to be adopted, not drawn again, and
        # nothing after them is inserted before they are (``pushed``).
        start, insert_end = max(start, inserted + hidden), inserted
    if state.config.soft_wrap_lines:
        # GNU screen: every committed row goes into the terminal's own text at once, as printf's would.  Kept
        # in the tail they are rows the library drew one by one: a shrink pushes them into history unlinked,
        # where no widening joins them again and every narrowing splits them (tests/test_screen_reach.py).
        # The tail shows only the rows still open (committed rows end at a line's end, so a line goes in whole), and
        # the viewport is as tall as what it shows (effects._Planner.set_height):
        # no blank rows under the composer, which a shrink would keep on the screen and push text out for.
        insert_end = inserted + committed
        start = max(start, insert_end)
    if state.config.compact or state.config.soft_wrap_lines:
        # As tall as what it shows: the log tail's rows are its last rows not yet in history (committed or open;
        # on GNU screen open only).  The planner grows a compact viewport before it inserts and shrinks it after
        # (``Planner.set_height``).
        height -= max(0, log_height - (total - start))
        log_height = min(log_height, total - start)
    if insert_end > inserted:
        sync = SyncPhase.NEEDS_INSERT
    elif render.sync_phase is SyncPhase.NEEDS_INSERT:
        sync = SyncPhase.IDLE  # what a failed write left to insert is gone (cleared or now visible)
    else:
        sync = render.sync_phase
    if not (
        render.wrapped_total == total
        and render.visible_start == start
        and render.visible_end == total
        and render.sync_phase is sync
    ):  # else the same seven fields: keep the object (a tick that adds no row builds none)
        render = RenderState(
            total,  # wrapped_total
            start,  # visible_start
            total,  # visible_end
            inserted,  # inserted_until
            sync,  # sync_phase
            render.confirm_phase,  # confirm_phase
            render.cursor_phase,  # cursor_phase
        )
    # Positional arguments, named in the comments: binding 14 keywords cost more than setting the fields.
    return Layout(
        width,  # columns
        height,  # height
        log_height,  # log_height
        regions.dialog_height,  # dialog_height
        regions.status_height,  # status_height
        regions.composer_height,  # composer_height
        regions.above,  # above
        regions.below,  # below
        render,  # render
        pending[start - inserted :],  # visible
        pending[: insert_end - inserted] if insert_end > inserted else (),  # to_insert (usually none)
        regions.dialog,  # dialog
        regions.dialog_shown,  # dialog_shown
        regions.composer,  # composer
        regions.composer_offset,  # composer_offset
        (regions.cursor_row - regions.composer_offset, regions.cursor_col + len(regions.prompt)),  # composer_cursor
    )


def _widget_rows(state: AppState, room: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The widgets' rows that fit in ``room`` rows: those above the composer first, then those below."""
    if not state.widgets or room <= 0:
        return (), ()
    above = tuple(row for _, rows, below in state.widgets if not below for row in rows)[:room]
    under = tuple(row for _, rows, below in state.widgets if below for row in rows)[: room - len(above)]
    return above, under
