"""Stage 3: ``draw_frame`` (pure), the viewport's styled rows and the cursor, drawn from the ``Layout``.

Top to bottom: the log tail (blank rows under a short log), the dialog, the widgets above, the status line,
the composer, the widgets below.  Each part is kept from the last frame while what it is drawn from is the
same, so an unchanged row is the same object tick after tick (which the effects planner skips).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ..text.cells import WidthPolicy, clip_to_width
from ..text.roles import DANGER, DIM, HINT, SELECTED, SPINNER, TITLE
from ..text.style import DEFAULT, Row, Segment, Style, clip_row, styled
from ..text.themes import Theme
from ..widgets.composer import Composer
from ..widgets.dialogs import Dialog
from .app import AppState
from .evolve import fast_init, maker
from .log import Entry, LogRow, RenderOptions
from .rows import draw_log_row, draw_log_rows
from .state import Config
from .viewport import Layout, composer_prompt

__all__ = ["Frame", "draw_frame"]

_new = tuple.__new__  # builds a NamedTuple (``Segment``) without its Python-level ``__new__``


@fast_init
@dataclass(frozen=True, slots=True)
class Frame:
    """The viewport's rows (exactly ``height`` of them, right-trimmed), the cursor, and whether it is shown.

    While a dialog without a text field (a confirm, a pick) has the keys, the cursor is hidden, parked at the
    composer: shown there it would say the keys go to the composer, which ignores them.  It is not moved onto the
    dialog: on the screen's last rows, where it always is, a resize re-wraps and pushes rows as the storms measured
    (a terminal keeps the cursor's row on the screen; rows under it are what a shrink drops first)."""

    rows: tuple[Row, ...]
    log_rows: int
    cursor: tuple[int, int]
    cursor_shown: bool = True


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


# The last frame and what it was drawn from.  A tick whose layout is the same object (nothing in the viewport
# moved) reuses the frame; when only the status line changed, only that row is drawn again.  Valid because the
# inputs besides the status line are frozen values compared by identity, and the status row's key by value.
@dataclass(frozen=True, slots=True)
class _FrameMemo:
    """The last frame (``frame``), the inputs it was drawn from besides the status line, and the status row."""

    layout: Layout
    config: Config
    dialog: Dialog | None
    composer: Composer
    options: RenderOptions | None  # the log's (its theme)
    status_index: int  # the status row's index in ``frame.rows`` (-1: none)
    status_key: tuple[object, ...]  # what the status row was drawn from (``draw_frame``)
    frame: Frame


_MAKE_FRAME_MEMO = maker(_FrameMemo)  # built on every changed tick: without calling the class (evolve.maker)
_last_frame: _FrameMemo | None = None  # one snapshot (None: none yet), strong references, replaced whole


def draw_frame(state: AppState, layout: Layout) -> Frame:
    """The viewport's styled rows and where the cursor belongs (the focused text field)."""
    global _last_frame
    # What the status row is drawn from (besides the width, policy and theme): its key.
    working = state.working
    key = (working, state.now, state.working_since) if working else (state.status, state.status_row)
    last = _last_frame
    if (
        last is not None
        and last.layout is layout
        and last.composer is state.composer
        and last.dialog is state.dialog
        and last.options is state.log.options
        and last.config is state.config
    ):
        index, frame = last.status_index, last.frame
        if index < 0 or last.status_key == key:
            return frame
        row = _status_row(state, layout.columns)
        rows = frame.rows
        if rows[index] != row:
            frame = _MAKE_FRAME(
                (*rows[:index], row, *rows[index + 1 :]), frame.log_rows, frame.cursor, frame.cursor_shown
            )
    else:
        frame, index = _draw_frame(state, layout)
    _last_frame = _MAKE_FRAME_MEMO(
        layout, state.config, state.dialog, state.composer, state.log.options, index, key, frame
    )
    return frame


_MAKE_FRAME = maker(Frame)  # a Frame without calling the class (evolve.maker)


# The parts of the last frame drawn from scratch, each with what it was drawn from: the log tail (``_TailMemo``)
# and the dialog, composer and widget rows with the cursor (``_BelowMemo``).  A part whose inputs did not change
# is not drawn again; a tail whose rows changed takes from the last one the rows that draw alike.
@dataclass(frozen=True, slots=True)
class _TailMemo:
    """The last tail's rows (``rows``) and what they were drawn from.  Its log rows are compared by value (equal
    rows draw alike; a keystroke shows the very same rows), the policy and theme by identity."""

    visible: tuple[LogRow, ...]
    width: int
    height: int
    policy: WidthPolicy
    rows: tuple[Row, ...]
    theme: Theme | None
    start: int  # the tail's first row in the log (``RenderState.visible_start``): how far it moved since


@dataclass(frozen=True, slots=True)
class _BelowMemo:
    """The last rows under the tail (the dialog's, the composer's, the widgets') and the cursor, drawn from
    ``key`` (compared by value: ``_draw_frame``)."""

    key: tuple[object, ...]
    dialog: tuple[Row, ...]
    composer: tuple[Row, ...]
    cursor: tuple[int, int]
    above: tuple[Row, ...]
    below: tuple[Row, ...]


_MAKE_TAIL_MEMO = maker(_TailMemo)
_MAKE_BELOW_MEMO = maker(_BelowMemo)
_last_tail: _TailMemo | None = None  # one snapshot each (None: none yet), strong references, replaced whole
_last_below: _BelowMemo | None = None


def _tail_rows(layout: Layout, policy: WidthPolicy, theme: Theme | None) -> tuple[Row, ...]:
    """The log tail's rows, blank rows under a short log included."""
    global _last_tail
    visible, width, height = layout.visible, layout.columns, layout.log_height
    start = layout.render.visible_start
    last = _last_tail
    if (
        last is not None
        and last.width == width
        and last.height == height
        and last.policy is policy
        and last.theme is theme
    ):
        if last.visible is visible or last.visible == visible:
            return last.rows
        tail = _reused_rows(visible, last.visible, last.rows, start - last.start, width, policy, theme)
    else:
        tail = draw_log_rows(visible, width, policy, theme)  # clipped already
    tail += [()] * (layout.log_height - len(tail))  # blank rows under a short log (none when negative)
    rows = tuple(tail)
    _last_tail = _MAKE_TAIL_MEMO(visible, width, height, policy, rows, theme, start)
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
    global _last_below
    width, policy = layout.columns, state.config.width_policy
    theme = state.log.options.theme if state.log.options is not None else None
    tail = _tail_rows(layout, policy, theme)
    key = (
        layout.columns, layout.height, len(tail), layout.dialog, layout.dialog_height, layout.dialog_shown,
        layout.composer, layout.composer_offset, layout.composer_height, layout.composer_cursor,
        state.config, state.dialog, state.log.options, not state.composer.text, layout.above, layout.below,
    )  # fmt: skip
    last = _last_below
    if last is not None and last.key == key:
        dialog, composer, cursor, above, below = last.dialog, last.composer, last.cursor, last.above, last.below
    else:
        dialog, composer, cursor = _below(state, layout, len(tail))
        style = _style(state, "status")  # widget rows are drawn like the status line
        above = tuple(_dim_row(text, width, policy, style) for text in layout.above)
        below = tuple(_dim_row(text, width, policy, style) for text in layout.below)
        _last_below = _MAKE_BELOW_MEMO(key, dialog, composer, cursor, above, below)
    status: tuple[Row, ...] = (_status_row(state, width),) if layout.status_height else ()
    # A dialog drawn without a text field has the keys, and no cursor (``Frame``).
    shown = layout.dialog is None or not layout.dialog_height or layout.dialog.cursor is not None
    frame = Frame((*tail, *dialog, *above, *status, *composer, *below), layout.log_height, cursor, shown)
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
        if layout.dialog.cursor is not None:  # a text field: a prompt's, a form's, a denial's reason
            row, col = layout.dialog.cursor
            if row in layout.dialog_shown:
                cursor = (top + layout.dialog_shown.index(row), col)
    prompt = composer_prompt(state.config, width)
    styles = (_style(state, "composer_prompt"), _style(state, "placeholder"))
    visible = layout.composer[layout.composer_offset : layout.composer_offset + layout.composer_height]
    placeholder = state.config.placeholder if not state.composer.text else ""
    composer: list[Row] = []
    for index, text in enumerate(visible):
        lead = prompt if index + layout.composer_offset == 0 else " " * len(prompt)
        composer.append(_composer_row(lead, text, placeholder if index == 0 else "", width, policy, styles))
    return tuple(dialog), tuple(composer), (min(cursor[0], layout.height - 1), min(cursor[1], width - 1))
