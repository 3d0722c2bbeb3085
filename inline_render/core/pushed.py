"""Rows a shrinking terminal pushed into its history while their text could still change, and their adoption.

A shrink pushes the viewport's top rows into the terminal's history itself.  Committed rows among them count as
inserted at once (``reduce_resize``); rows of text the commit rule still holds (the open line of a stream, a
Markdown block still open) cannot: their text may still grow, and the viewport draws them again below.  What
they said stays in history as a ghost piece, and when the text then ends exactly as those rows showed it (the
stream finishes with no more text, ``/clear`` ends it), inserting it would show the same line twice.

So the resize remembers those rows (``AppState.pushed_open``), and every tick after it compares them with the
rows the log would insert next: once the rows are committed and the same, and end a line, they are adopted, counted
as inserted without being written again.  Its rules:

* Only rows right after the last inserted one, with nothing inserted since: history holds them in their place.
* Compared at the width they were drawn at (history keeps them so, or re-wrapped, or cut where the terminal cuts
  every row).  A later resize moves them as it moves the inserted rows before them (a growth pulls both back
  onto the screen above the viewport, which a re-anchor never erases), so they stay adoptable; a later shrink that
  pushes rows of the same open text again replaces them.
* Only whole lines, the first of the pushed rows on: a line adopted in part and inserted in part would read as two
  broken lines.  Pushed rows after those that no longer read as the log's next rows stay ghosts.
* While the pushed rows hold whole lines that still read as the log's next rows, the viewport does not draw those
  lines again (``hidden_rows``): they are in history right above it.  Drawn again, a later shrink would push that
  copy too, and the line would be in history twice, adopted or not.  Once the text changes under them they are
  forgotten and the viewport draws the line whole (the rows above are then a ghost piece, as before).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..text.style import row_text
from .app import AppState, PushedOpen
from .log import LogRow, log_rows, same_line
from .rows import draw_log_row, drawn_as

__all__ = ["adopt_pushed_open", "hidden_rows", "record_pushed_open"]


def record_pushed_open(state: AppState, upto: int) -> AppState:
    """After a shrink pushed the viewport's top ``upto`` drawn rows into history and the committed ones among them
    were counted: remember the log rows after those, drawn exactly as the log would draw them."""
    drawn, render = state.screen.drawn, state.render
    if drawn is None or render.visible_start != render.inserted_until:
        return state
    skip = state.pushed_rows + state.kept_rows
    width = state.screen.drawn_columns or state.columns
    policy = state.config.width_policy
    theme = state.log.options.theme if state.log.options is not None else None
    pending, _ = log_rows(state.log, width, policy)
    limit = min(upto - skip, state.screen.drawn_log_rows - skip, len(pending), len(drawn) - skip)
    count = drawn_as(drawn[skip:], pending, limit, width, policy, theme)
    if not count:
        return state
    rows = tuple(drawn[skip : skip + count])
    return replace(state, pushed_open=PushedOpen(width, rows, render.inserted_until))


def adopt_pushed_open(state: AppState) -> AppState:
    """The tick's state with the remembered pushed rows counted as inserted once the log commits them as they were
    drawn (and as a whole line); forgotten as soon as it cannot be so."""
    pushed = state.pushed_open
    if pushed is None:
        return state
    render = state.render
    policy = state.config.width_policy
    if render.inserted_until != pushed.after:
        return replace(state, pushed_open=None)  # rows went into history after them: they are out of place
    theme = state.log.options.theme if state.log.options is not None else None
    pending, committed = log_rows(state.log, pushed.columns, policy)
    if not pending:
        return state if state.log.entries else replace(state, pushed_open=None)
    # The first pushed row the log's next row reads as: a clear may have dropped an empty entry's rows before it
    # (they stay in history as the ghosts they were) or after it.
    first = draw_log_row(pending[0], pushed.columns, policy, theme)
    skip = next((index for index, row in enumerate(pushed.rows) if row_text(row) == row_text(first)), -1)
    if skip < 0:
        return replace(state, pushed_open=None)  # the text changed under them: they stay a ghost piece
    rows = pushed.rows[skip:]
    count = drawn_as(rows, pending, min(len(rows), len(pending)), pushed.columns, policy, theme)
    if committed < count:
        return state if count == len(pushed.rows) else replace(state, pushed_open=None)  # open: wait while the same
    if count < len(pending) and same_line(pending[count - 1], pending[count]):
        return replace(state, pushed_open=None)  # the line goes on past them: inserted whole, they are a ghost
    inserted = render.inserted_until + count
    render = replace(render, inserted_until=inserted, visible_start=max(render.visible_start, inserted))
    adopted = tuple(row_text(row).rstrip(" ") for row in rows[:count])
    return replace(state, log=state.log.advance(pending[:count]), render=render, pushed_open=None, adopted_rows=adopted)


def hidden_rows(state: AppState, pending: Sequence[LogRow]) -> int:
    """How many of ``pending`` (the log rows after the last inserted one, at the screen's width) the viewport leaves
    out: the rows of the whole lines a shrink pushed into history that still read as the log's next rows."""
    pushed = state.pushed_open
    if pushed is None or pushed.after != state.render.inserted_until or state.config.soft_wrap_lines or not pending:
        return 0
    policy = state.config.width_policy
    theme = state.log.options.theme if state.log.options is not None else None
    drawn, _ = log_rows(state.log, pushed.columns, policy)
    count = len(pushed.rows)
    if len(drawn) < count or drawn_as(pushed.rows, drawn, count, pushed.columns, policy, theme) < count:
        return 0
    if count < len(drawn) and same_line(drawn[count - 1], drawn[count]):
        return 0  # a line goes on past them: drawn whole
    lines = {(row.entry.key, row.line_start) for row in drawn[:count]}
    hidden = 0
    while hidden < len(pending) and (pending[hidden].entry.key, pending[hidden].line_start) in lines:
        hidden += 1
    return hidden
