"""Stages 2 and 3: ``compute_layout`` (rows, regions, RenderState rows) and ``draw_frame`` (pure).

The viewport, top to bottom: the log tail, the dialog, the status line, the
composer.  The composer is never dropped; a dialog gets the rows left after
``min_log_rows``; the log tail gets the rest.  The log is top-aligned so new
rows appear right under the ones before, as they will in scrollback.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .app import AppState
from .composer import TextField, render_field
from .dialogs import DialogView, FormDialog, PromptDialog
from .evolve import fast_init
from .log import LogRow, log_rows
from .state import Config, RenderState, SyncPhase
from .style import DEFAULT, Row, Segment, Style, clip_row, styled
from .text import WidthPolicy, clip_to_width
from .theme import DIM, SPINNER, draw_log_rows

__all__ = ["Frame", "Layout", "compute_layout", "draw_frame"]


@fast_init
@dataclass(frozen=True, slots=True)
class Layout:
    """Region sizes, the wrapped pending log, and the RenderState rows for this tick."""

    columns: int
    height: int
    log_height: int
    dialog_height: int
    status_height: int
    composer_height: int
    render: RenderState
    visible: tuple[LogRow, ...]
    to_insert: tuple[LogRow, ...]
    dialog: DialogView | None
    dialog_shown: tuple[int, ...]
    composer: tuple[str, ...]
    composer_offset: int
    composer_cursor: tuple[int, int]


@fast_init
@dataclass(frozen=True, slots=True)
class Frame:
    """The viewport's rows (exactly ``height`` of them, right-trimmed) and the cursor."""

    rows: tuple[Row, ...]
    log_rows: int
    cursor: tuple[int, int]


def _window(total: int, size: int, focus: int) -> int:
    """First row of a ``size``-row window on ``total`` rows that shows ``focus`` (bottom-most)."""
    return max(0, min(total - size, focus - size + 1)) if total > size else 0


@functools.lru_cache(maxsize=256)
def _composer_rows(field: TextField, width: int, policy: WidthPolicy) -> tuple[tuple[str, ...], int, int]:
    texts, cursor_row, cursor_col = render_field(field, width, policy)
    return tuple(texts), cursor_row, cursor_col


def _prompt(config: Config, width: int) -> str:
    """The composer's prompt, dropped when the terminal is too narrow for it and any text."""
    return config.composer_prompt if width > len(config.composer_prompt) else ""


def _dialog_rows(total: int, size: int, focus: int) -> tuple[int, ...]:
    """Which dialog rows to show in ``size`` rows: all, or the title kept on top of a window that shows ``focus``."""
    if total <= size:
        return tuple(range(total))
    if size < 2 or focus == 0:
        start = _window(total, size, focus)
        return tuple(range(start, start + size))
    start = 1 + _window(total - 1, size - 1, focus - 1)
    return (0, *range(start, start + size - 1))


def compute_layout(state: AppState) -> Layout:
    """Wrap the pending log and the widgets for the current size; place the regions."""
    config = state.config
    width, policy = state.columns, config.width_policy
    height = min(config.viewport_height, state.rows)
    prompt = _prompt(config, width)
    texts, cursor_row, cursor_col = _composer_rows(state.composer, max(1, width - len(prompt)), policy)
    composer_height = min(len(texts), config.max_composer_rows, height)
    composer_offset = _window(len(texts), composer_height, cursor_row)
    rest = height - composer_height
    status_height = 1 if rest >= 1 else 0
    rest -= status_height
    dialog = state.dialog.render(width, policy) if state.dialog is not None else None
    dialog_height = 0
    dialog_shown: tuple[int, ...] = ()
    if dialog is not None:
        # A dialog gets what the log tail can spare, but at least its title and focus row when there is room.
        room = max(rest - config.min_log_rows, min(2, rest))
        dialog_height = min(len(dialog.rows), room)
        dialog_shown = _dialog_rows(len(dialog.rows), dialog_height, dialog.focus)
    log_height = rest - dialog_height

    pending, committed = log_rows(state.log, width, policy)
    render = state.render
    inserted = render.inserted_until
    total = inserted + len(pending)
    start = max(total - log_height, inserted)
    # Only committed rows may enter scrollback; uncommitted rows above the tail wait unseen.
    insert_end = min(start, inserted + committed)
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
            wrapped_total=total,
            visible_start=start,
            visible_end=total,
            inserted_until=inserted,
            sync_phase=sync,
            confirm_phase=render.confirm_phase,
            cursor_phase=render.cursor_phase,
        )
    return Layout(
        columns=width,
        height=height,
        log_height=log_height,
        dialog_height=dialog_height,
        status_height=status_height,
        composer_height=composer_height,
        render=render,
        visible=pending[start - inserted :],
        to_insert=pending[: insert_end - inserted],
        dialog=dialog,
        dialog_shown=dialog_shown,
        composer=texts,
        composer_offset=composer_offset,
        composer_cursor=(cursor_row - composer_offset, cursor_col + len(prompt)),
    )


def _status_row(state: AppState, width: int) -> Row:
    if state.working:
        frame = SPINNER[int(max(0.0, state.now - state.working_since) * 10) % len(SPINNER)]
        return _dim_row(f"{frame} {state.working}", width, state.config.width_policy, _style(state, "status"))
    return _dim_row(state.status, width, state.config.width_policy, _style(state, "status"))


def _style(state: AppState, element: str) -> Style:
    """The theme's style of ``element`` (dim when the log has no rendering options, as before themes)."""
    options = state.log.options
    return options.theme.style(element) if options is not None else DIM


# Rows are cached by content (and clipped inside the cache) so an unchanged row is the same object
# tick after tick, which the effects planner skips without comparing it.
@functools.lru_cache(maxsize=256)
def _dim_row(text: str, width: int, policy: WidthPolicy, style: Style = DIM) -> Row:
    return clip_row(styled(clip_to_width(text, width, policy)[0], style), width, policy)


@functools.lru_cache(maxsize=1024)
def _composer_row(
    lead: str, text: str, placeholder: str, width: int, policy: WidthPolicy, styles: tuple[Style, Style] = (DIM, DIM)
) -> Row:
    segments: list[Segment] = [Segment(lead, styles[0])] if lead.strip() else ([Segment(lead)] if lead and text else [])
    if text:
        segments.append(Segment(text, DEFAULT))
    elif placeholder:
        segments.append(Segment(clip_to_width(placeholder, width - len(lead), policy)[0], styles[1]))
    return clip_row(tuple(segments), width, policy)


def draw_frame(state: AppState, layout: Layout) -> Frame:
    """The viewport's styled rows and where the cursor belongs (the focused text field)."""
    width, policy = layout.columns, state.config.width_policy
    tail = draw_log_rows(layout.visible, width, policy)  # clipped already
    tail += [()] * (layout.log_height - len(tail))  # blank rows under a short log (none when negative)
    rows: list[Row] = []  # the rest of the viewport, below the log tail (every row clipped to the width)
    cursor_row, cursor_col = layout.composer_cursor
    cursor = (layout.height - layout.composer_height + cursor_row, cursor_col)
    if layout.dialog is not None and layout.dialog_height:
        top = len(tail)
        rows.extend(clip_row(layout.dialog.rows[index], width, policy) for index in layout.dialog_shown)
        if isinstance(state.dialog, (PromptDialog, FormDialog)) and layout.dialog.cursor is not None:
            row, col = layout.dialog.cursor
            if row in layout.dialog_shown:
                cursor = (top + layout.dialog_shown.index(row), col)
    if layout.status_height:
        rows.append(_status_row(state, width))
    prompt = _prompt(state.config, width)
    styles = (_style(state, "composer_prompt"), _style(state, "placeholder"))
    visible = layout.composer[layout.composer_offset : layout.composer_offset + layout.composer_height]
    placeholder = state.config.placeholder if not state.composer.text else ""
    for index, text in enumerate(visible):
        lead = prompt if index + layout.composer_offset == 0 else " " * len(prompt)
        rows.append(_composer_row(lead, text, placeholder if index == 0 else "", width, policy, styles))
    tail.extend(rows)
    return Frame(
        rows=tuple(tail),
        log_rows=layout.log_height,
        cursor=(min(cursor[0], layout.height - 1), min(cursor[1], width - 1)),
    )
