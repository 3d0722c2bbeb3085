"""Stages 2 and 3: ``compute_layout`` (rows, regions, RenderState rows) and ``draw_frame`` (pure).

The viewport, top to bottom: the log tail, the dialog, the widgets above, the
status line, the composer, the widgets below.  The composer is never dropped;
widgets and then a dialog get the rows left after ``min_log_rows``; the log
tail gets the rest.  The log is top-aligned so new
rows appear right under the ones before, as they will in scrollback.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..text.cells import WidthPolicy, clip_to_width
from ..text.roles import DANGER, DIM, HINT, SELECTED, SPINNER, TITLE
from ..text.style import DEFAULT, Row, Segment, Style, clip_row, styled
from ..text.themes import Theme
from ..widgets.composer import TextField, render_field
from ..widgets.dialogs import DialogView, FormDialog, PromptDialog
from .app import AppState
from .evolve import fast_init, maker
from .log import Entry, LogRow, log_rows
from .rows import draw_log_row, draw_log_rows
from .state import Config, RenderState, SyncPhase

__all__ = ["Frame", "Layout", "compute_layout", "draw_frame"]

_new = tuple.__new__  # builds a NamedTuple (``Segment``) without its Python-level ``__new__``


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
    above: tuple[str, ...]  # widget rows shown above the status line
    below: tuple[str, ...]  # widget rows shown under the composer
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


# The last layout and what it was computed from (compared by identity: every input is a frozen value, so
# the same objects give the same layout).  A tick that changed none of them (no input, a status or clock
# change) reuses it whole: an unchanged viewport is not derived again.  One entry, strong references.
_LAST_LAYOUT: dict[None, tuple[Config, int, int, object, object, object, RenderState, Layout, object]] = {}


def compute_layout(state: AppState) -> Layout:
    """Wrap the pending log and the widgets for the current size; place the regions."""
    last = _LAST_LAYOUT.get(None)
    if (
        last is not None
        and last[6] is state.render
        and last[5] is state.log
        and last[8] is state.widgets
        and last[3] is state.composer
        and last[4] is state.dialog
        and last[0] is state.config
        and last[1] == state.columns
        and last[2] == state.rows
    ):
        return last[7]
    layout = _compute_layout(state)
    _LAST_LAYOUT[None] = (state.config, state.columns, state.rows, state.composer, state.dialog, state.log,
                          state.render, layout, state.widgets)  # fmt: skip
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


# The last regions and what they were placed from (compared by identity).  A streamed delta changes the log
# only: the composer's rows, the widgets and the dialog are not placed again (the composer's rows were a
# cache lookup that hashed and compared the composer by value on every tick).  One entry, strong references.
_LAST_REGIONS: dict[None, tuple[Config, int, int, object, object, object, _Regions]] = {}


def _regions(state: AppState) -> _Regions:
    """Place every region but the log tail (which gets the rows left: ``log_height``)."""
    last = _LAST_REGIONS.get(None)
    if (
        last is not None
        and last[3] is state.composer
        and last[5] is state.widgets
        and last[4] is state.dialog
        and last[0] is state.config
        and last[1] == state.columns
        and last[2] == state.rows
    ):
        return last[6]
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
    _LAST_REGIONS[None] = (config, state.columns, state.rows, state.composer, state.dialog, state.widgets, regions)
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
    # Only committed rows may enter scrollback; uncommitted rows above the tail wait unseen.
    insert_end = min(start, inserted + committed)
    if state.config.soft_wrap_lines:
        # GNU screen: every committed row goes into the terminal's own text at once, as printf's would.  Kept
        # in the tail they are rows the library drew one by one: a shrink pushes them into history unlinked,
        # where no widening joins them again and every narrowing splits them (tests/test_screen_reach.py).
        # The tail shows only the rows still open (committed rows end at a line's end, so a line goes in whole), and
        # the viewport is as tall as what it shows (effects._Planner.set_height):
        # no blank rows under the composer, which a shrink would keep on the screen and push text out for.
        insert_end = inserted + committed
        start = max(start, insert_end)
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


def _status_row(state: AppState, width: int) -> Row:
    if state.status_row and not state.working:
        return clip_row(state.status_row, width, state.config.width_policy)  # styled by the app (trusted SGR)
    if state.working:
        frame = SPINNER[int(max(0.0, state.now - state.working_since) * 10) % len(SPINNER)]
        return _dim_row(f"{frame} {state.working}", width, state.config.width_policy, _style(state, "status"))
    text = state.status
    if text.isascii():
        # What _dim_row gives for sanitized ASCII, without its cache: a token counter's texts are new every
        # update and would only push the rows worth keeping (placeholder, spinner) out of it.
        text = text[:width]
        return (_new(Segment, (text, _style(state, "status"))),) if text else ()  # Segment(...) is a Python call
    return _dim_row(text, width, state.config.width_policy, _style(state, "status"))


def _style(state: AppState, element: str) -> Style:
    """The theme's style of ``element``; dim (the built-in style) when the theme has none or there is no theme."""
    options = state.log.options
    return options.theme.styles.get(element, DIM) if options is not None else DIM


# Dialogs draw with role styles (theme.py's TITLE, DANGER, HINT, SELECTED, DIM); the frame maps each
# role to the theme's element, so a theme restyles every dialog without the dialogs knowing about themes.
_DIALOG_ROLES = {TITLE: "dialog_title", DANGER: "dialog_danger", HINT: "dialog_hint", SELECTED: "dialog_selected"}
_DIALOG_ROLES[DIM] = "dialog_dim"


@functools.lru_cache(maxsize=256)
def _themed_dialog_row(row: Row, theme: Theme) -> Row:
    styles = theme.styles
    return tuple(
        Segment(s.text, styles.get(_DIALOG_ROLES[s.style], s.style)) if s.style in _DIALOG_ROLES else s for s in row
    )


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


# The last frame, the inputs it was drawn from besides the status line (compared by identity), the status
# row's index (-1: none) and its key.  A tick whose layout is the same object (nothing in the viewport
# moved) reuses the frame; when only the status line changed, only that row is drawn again.
_LAST_FRAME: dict[None, tuple[Layout, Config, object, object, object, int, object, Frame]] = {}


def draw_frame(state: AppState, layout: Layout) -> Frame:
    """The viewport's styled rows and where the cursor belongs (the focused text field)."""
    # What the status row is drawn from (besides the width, policy and theme): its key.
    working = state.working
    key = (working, state.now, state.working_since) if working else (state.status, state.status_row)
    last = _LAST_FRAME.get(None)
    if (
        last is not None
        and last[0] is layout
        and last[3] is state.composer
        and last[2] is state.dialog
        and last[4] is state.log.options
        and last[1] is state.config
    ):
        index, frame = last[5], last[7]
        if index < 0 or last[6] == key:
            return frame
        row = _status_row(state, layout.columns)
        rows = frame.rows
        if rows[index] != row:
            frame = _MAKE_FRAME((*rows[:index], row, *rows[index + 1 :]), frame.log_rows, frame.cursor)
    else:
        frame, index = _draw_frame(state, layout)
    _LAST_FRAME[None] = (layout, state.config, state.dialog, state.composer, state.log.options, index, key, frame)
    return frame


_MAKE_FRAME = maker(Frame)  # a Frame without calling the class (evolve.maker)

# The parts of the last frame drawn from scratch, each with what it was drawn from: the log tail (its log
# rows, compared by value: equal rows draw alike; a keystroke shows the very same rows), and the dialog,
# composer and widget rows with the cursor.  A part whose inputs did not change is not drawn again.
_LAST_TAIL: dict[None, tuple[tuple[LogRow, ...], int, int, WidthPolicy, tuple[Row, ...], Theme | None, int]] = {}
_LAST_BELOW: dict[
    None, tuple[tuple[object, ...], tuple[Row, ...], tuple[Row, ...], tuple[int, int], tuple[Row, ...], tuple[Row, ...]]
] = {}


def _tail_rows(layout: Layout, policy: WidthPolicy, theme: Theme | None) -> tuple[Row, ...]:
    """The log tail's rows, blank rows under a short log included."""
    visible, width, height = layout.visible, layout.columns, layout.log_height
    start = layout.render.visible_start
    last = _LAST_TAIL.get(None)
    if last is not None and last[1] == width and last[2] == height and last[3] is policy and last[5] is theme:
        if last[0] is visible or last[0] == visible:
            return last[4]
        tail = _reused_rows(visible, last[0], last[4], start - last[6], width, policy, theme)
    else:
        tail = draw_log_rows(visible, width, policy, theme)  # clipped already
    tail += [()] * (layout.log_height - len(tail))  # blank rows under a short log (none when negative)
    rows = tuple(tail)
    _LAST_TAIL[None] = (visible, width, height, policy, rows, theme, start)
    return rows


def _reused_rows(
    visible: Sequence[LogRow],
    old: Sequence[LogRow],
    drawn: tuple[Row, ...],
    shift: int,
    width: int,
    policy: WidthPolicy,
    theme: Theme | None,
) -> list[Row]:
    """The tail's rows, each taken from the last tail where a row there draws alike (``shift``: how far the
    tail moved down the log since), else drawn.  A delta makes a new version of the streaming entry, so its
    rows are new objects every tick, but all of them except the one the text was added to draw alike.

    Rows come in runs of one entry (old) against one entry (new): what the two entries allow
    (``_alike_until``) is found once per run, so a row costs the comparison of its offsets only."""
    rows: list[Row] = []
    pair: tuple[Entry, Entry] | None = None
    until = -1
    for index, row in enumerate(visible):
        at = index + shift
        if 0 <= at < len(old):
            a, line_start, start, end = old[at]
            b, row_line_start, row_start, row_end = row  # unpacked: cheaper than four NamedTuple attribute reads
            if start == row_start and end == row_end and line_start == row_line_start:
                if pair is None or pair[0] is not a or pair[1] is not b:
                    pair, until = (a, b), _alike_until(a, b)
                if (row_end if b.kind != "diff" else max(row_end, row_line_start + 5)) <= until:
                    rows.append(drawn[at])
                    continue
        rows.append(draw_log_row(row, width, policy, theme))
    return rows


def _alike_until(a: Entry, b: Entry) -> int:
    """Up to which text offset a row of ``b`` draws as the row of ``a`` at the same offsets does (-1: none),
    known without drawing (same width, policy and theme); for a diff, the line's head that picks its style
    must lie inside that offset too.

    The same entry: any row.  Two versions of a streaming entry's text in one ``lineage`` (of two such texts
    one is a prefix of the other): rows inside both texts, as they draw the same characters the same way.
    Entries are compared by identity only (comparing two versions by value compares their texts).
    """
    if a is b:
        return sys.maxsize
    if a.lineage is None or a.lineage is not b.lineage or a.view is not None or b.view is not None:
        return -1
    if a.base != b.base or a.kind != b.kind:
        return -1
    return min(a.size, b.size)


def _draw_frame(state: AppState, layout: Layout) -> tuple[Frame, int]:
    width, policy = layout.columns, state.config.width_policy
    theme = state.log.options.theme if state.log.options is not None else None
    tail = _tail_rows(layout, policy, theme)
    key = (
        layout.columns, layout.height, len(tail), layout.dialog, layout.dialog_height, layout.dialog_shown,
        layout.composer, layout.composer_offset, layout.composer_height, layout.composer_cursor,
        state.config, state.dialog, state.log.options, not state.composer.text, layout.above, layout.below,
    )  # fmt: skip
    last = _LAST_BELOW.get(None)
    if last is not None and last[0] == key:
        dialog, composer, cursor, above, below = last[1:]
    else:
        dialog, composer, cursor = _below(state, layout, len(tail))
        style = _style(state, "status")  # widget rows are drawn like the status line
        above = tuple(_dim_row(text, width, policy, style) for text in layout.above)
        below = tuple(_dim_row(text, width, policy, style) for text in layout.below)
        _LAST_BELOW[None] = (key, dialog, composer, cursor, above, below)
    status: tuple[Row, ...] = (_status_row(state, width),) if layout.status_height else ()
    frame = Frame((*tail, *dialog, *above, *status, *composer, *below), layout.log_height, cursor)
    return frame, len(tail) + len(dialog) + len(above) if status else -1


def _below(state: AppState, layout: Layout, top: int) -> tuple[tuple[Row, ...], tuple[Row, ...], tuple[int, int]]:
    """The dialog's rows, the composer's rows, and the cursor (the focused text field's; ``top``: the dialog's row)."""
    width, policy = layout.columns, state.config.width_policy
    dialog: list[Row] = []  # every row clipped to the width
    cursor_row, cursor_col = layout.composer_cursor
    cursor = (layout.height - len(layout.below) - layout.composer_height + cursor_row, cursor_col)
    if layout.dialog is not None and layout.dialog_height:
        theme = state.log.options.theme if state.log.options is not None else None
        shown = (layout.dialog.rows[index] for index in layout.dialog_shown)
        dialog.extend(clip_row(_themed_dialog_row(row, theme) if theme else row, width, policy) for row in shown)
        if isinstance(state.dialog, (PromptDialog, FormDialog)) and layout.dialog.cursor is not None:
            row, col = layout.dialog.cursor
            if row in layout.dialog_shown:
                cursor = (top + layout.dialog_shown.index(row), col)
    prompt = _prompt(state.config, width)
    styles = (_style(state, "composer_prompt"), _style(state, "placeholder"))
    visible = layout.composer[layout.composer_offset : layout.composer_offset + layout.composer_height]
    placeholder = state.config.placeholder if not state.composer.text else ""
    composer: list[Row] = []
    for index, text in enumerate(visible):
        lead = prompt if index + layout.composer_offset == 0 else " " * len(prompt)
        composer.append(_composer_row(lead, text, placeholder if index == 0 else "", width, policy, styles))
    return tuple(dialog), tuple(composer), (min(cursor[0], layout.height - 1), min(cursor[1], width - 1))
