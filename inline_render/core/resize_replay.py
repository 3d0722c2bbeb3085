"""The resize's replays: what a terminal that re-wraps rows did with the viewport, read off its models.

``reduce_resize`` counts the rows above the cursor one screen row each, which cannot reach a committed row above
the viewport; where the terminal re-wrapped rows taller, or frames still in flight met the new size, that count
is a guess.  These replay what the terminal did on the models of the terminals measured (``inflight``): the
viewport as drawn, resized (``modelled_rows``), or with the frames in flight fed after the resize
(``resize_replayed``).  A replay is used only where its cursor lands on the row the terminal reported; where
the models differ, a row counts as intact only if every one of them shows it so, and the viewport starts at the
lowest top they give: a line shown twice is bad, a line cut is worse.

The models hold the viewport as drawn, one row per drawn row: not the pieces a resize made of rows wider than the
terminal it left (each continuing the one above), which the frame after it moves up over.  A widening that meets
that frame in flight joins them again and its move up lands higher, on rows above the viewport that no model shows
written; those are counted from the pieces instead (``joined_at_a_widening``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..inputs import Resize
from ..terminals.memory import TerminalFamily
from ..text.cells import WidthPolicy, wrap_cells
from ..text.style import row_text
from .app import AppState, FrameRecord, PushedOpen, Screen
from .inflight import Replayed, clamped, replay_frames, replay_resize, replay_resize_in_flight
from .log import LogRow, continues_line, log_rows
from .rows import draw_log_row

__all__ = [
    "clamped_at_a_narrowing",
    "insert_again",
    "joined_at_a_widening",
    "modelled_rows",
    "modelled_rows_in_flight",
    "resize_replayed",
]


def modelled_rows(state: AppState, screen: Screen, item: Resize) -> tuple[int, ...] | None:
    """The screen row where each row of the viewport as drawn now starts (negative: in history), after a resize
    with no frame in flight on a terminal that re-wraps rows: the resize replayed on every re-wrapping model of
    the screen as drawn (``inflight.replay_resize``).  Only where each puts the cursor on the row the terminal
    reported and all put every row in the same place; else None (rows counted one screen row each).

    The models hold the screen as drawn, not the history above it: a terminal that grew taller may pull history
    rows back onto the screen (tmux, VTE, each by its own rule), which moves every row below them down alike.  So a
    model whose cursor is above the reported row, by no more than the rows the screen grew, is read with its rows
    moved down by as much."""
    drawn = screen.drawn
    if drawn is None or screen.cursor is None or item.cursor_row is None:
        return None
    if not state.config.resize_reflow or state.config.soft_wrap_lines:
        return None
    columns = screen.drawn_columns or state.columns
    before = FrameRecord(screen.top, drawn, columns, state.rows, screen.cursor, (), ())
    grown = max(0, item.rows - state.rows)
    agreed: tuple[int, ...] | None = None
    for family in _REWRAPPING:
        try:
            replayed = replay_resize(before, (item.columns, item.rows), state.config.width_policy, family)
        except Exception:  # a model consulted for a better guess: if it fails, the counted rows stay
            return None
        if replayed is None:
            return None
        cursor, rows = replayed[0][0], replayed[1]
        pulled = item.cursor_row - cursor  # history rows the terminal pulled back above the rows drawn
        placed = tuple(row + pulled for row in rows)
        if not 0 <= pulled <= grown or (agreed is not None and placed != agreed):
            return None
        agreed = placed
    return agreed


def modelled_rows_in_flight(
    state: AppState, screen: Screen, item: Resize, trusted: int
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The screen row where each of the viewport's first ``trusted`` rows (those above the first row a frame in
    flight wrote) now starts, after a resize that met frames in flight, on a terminal that re-wraps rows: the
    resize replayed on every re-wrapping model at each point of their bytes where it may have landed
    (``inflight.replay_resize_in_flight``).  Each model must give at least one point that puts the cursor where
    the terminal reported it (history pulled back on growth as in ``modelled_rows``); of all such points, each
    row is taken at the lowest row any of them gives: the new viewport never starts above a row the terminal may
    still show, so a committed row is never erased (a ghost piece is bad; a lost row is worse).  Returned with the
    highest row any of them gives: where the two differ, a piece of the row may stay above the lowest.  None where
    a model does not apply or no point agrees with the report."""
    count, report = item.in_flight_frames or 0, item.cursor_row
    frames = screen.recent_frames[-count:] if count else ()
    if not trusted or report is None or len(frames) != count or not frames or screen.drawn is None:
        return None
    if not state.config.resize_reflow or state.config.soft_wrap_lines:
        return None
    first = frames[0]
    if first.top != screen.top:
        return None  # the frames moved the viewport: its rows are not where this reads them
    # Only the rows the frames left as they were: a row a frame rewrote may have been written after the resize.
    kept = zip(screen.drawn[:trusted], first.drawn, strict=False)
    trusted = next((index for index, (now, before) in enumerate(kept) if now != before), min(trusted, len(first.drawn)))
    if not trusted:
        return None
    grown = max(0, item.rows - first.rows)
    lowest: list[int] | None = None
    highest: list[int] = []
    for family in _REWRAPPING:
        try:
            size, policy = (item.columns, item.rows), state.config.width_policy
            landed = replay_resize_in_flight(frames, size, policy, family, trusted)
        except Exception:  # a model consulted for a better guess: if it fails, the counted rows stay
            return None
        agreeing = [
            tuple(start + report - cursor for start in starts)
            for cursor, starts in landed or ()
            if 0 <= report - cursor <= grown
        ]
        if not agreeing:
            return None
        for placed in agreeing:
            if lowest is None:
                lowest, highest = list(placed), list(placed)
            lowest = [max(a, b) for a, b in zip(lowest, placed, strict=True)]
            highest = [min(a, b) for a, b in zip(highest, placed, strict=True)]
    return (tuple(lowest), tuple(highest)) if lowest is not None else None


def insert_again(state: AppState, inserted: list[LogRow], garbled: Sequence[int]) -> AppState:
    """The lines of the rows ``garbled`` (offsets among ``inserted``, the rows the frames in flight inserted) queued
    to be inserted again, whole, and named for whoever counts the rows (``AppState.replayed``, counted back from the
    last row inserted): their copies above are ghosts."""
    if not garbled:
        return state
    again = [inserted[index] for index in garbled]
    back = tuple(len(inserted) - index for index in garbled)
    return replace(state, log=state.log.reinsert(again), replayed=(back, ()))


def clamped_at_a_narrowing(state: AppState, item: Resize) -> AppState:
    """Frames in flight whose move up stopped at the top row of a screen that also narrowed: ``replay`` models only a
    shrink that keeps the width (where the terminals measured agree), so where their rows went is not known.  Every
    line they inserted is inserted again, whole, from its first row: a line shown twice is bad; a line cut (its rows
    counted as inserted, some of them garbled) is worse."""
    count, columns, rows = item.in_flight_frames, item.in_flight_columns, item.in_flight_rows
    if not count or columns is None or rows is None:
        return state
    frames = state.screen.recent_frames[-count:]
    if len(frames) != count or columns >= frames[0].columns or not clamped(frames, rows):
        return state
    inserted = [log_row for frame in frames for log_row in frame.inserted]
    return insert_again(state, inserted, range(len(inserted)))


def joined_at_a_widening(state: AppState, item: Resize, in_flight: int) -> AppState:
    """Frames in flight at a widening, the first of them planned right after a resize that left rows split under it
    (``FrameRecord.split``): their committed rows above the viewport that its moves up may have written over are
    queued to be inserted again, each line whole, with every row inserted after them (in order: shown twice at worst).

    A narrowing re-wraps a row wider than the new width into pieces, each continuing the one above; the frame after
    it moves up from the cursor as many rows as the pieces take (``CUU``), to the viewport's top.  A terminal that
    widens before reading it joins the pieces again: the rows between the cursor and the top get fewer, the move up
    lands that many rows higher, and the frame erases and writes from there, over the rows right above the viewport.
    The cursor report cannot tell (the frame ends on the bottom row either way, and a frame the terminal read before
    the widening leaves the same report): at most as many rows as the widening joins (``_joined``) are reached, and
    the rows above the viewport take a row each at least, so the lines of the last that many committed rows
    (``LogState.last_inserted``) are the ones that may be gone."""
    frames = state.screen.recent_frames[-in_flight:] if in_flight else ()
    policy = state.config.width_policy
    split = next((index for index, frame in enumerate(frames) if _joined(frame, item.columns, policy) > 0), None)
    if split is None:
        return state
    reached = _joined(frames[split], item.columns, policy)
    # Rows the frames from that one on inserted were written where it landed, above the viewport, after the rows it
    # reached: inserted again too, so that the lines stay in order.
    later = sum(len(frame.inserted) for frame in frames[split:])
    last = state.log.last_inserted
    rows = list(last[max(0, len(last) - later - reached) :])
    return insert_again(state, rows, range(len(rows)))


def _joined(frame: FrameRecord, columns: int, policy: WidthPolicy) -> int:
    """How many rows the terminal joins, at a widening to ``columns``, among the rows split under ``frame`` between
    the viewport's top and the cursor (``FrameRecord.split``, re-wrapped at ``frame.columns``): each as many as its
    pieces at the frame's width and at the new one differ, cut as a terminal's autowrap cuts (``wrap_cells``; a
    row's first pieces may be above the top: all counted), and never more than the rows the frame moves up over."""
    if not frame.split or columns <= frame.columns:
        return 0
    joined = 0
    for row in frame.split:
        text = row_text(row)
        joined += max(0, len(wrap_cells(text, frame.columns, policy)) - len(wrap_cells(text, columns, policy)))
    return min(joined, max(0, frame.cursor[0] - frame.top))


def resize_replayed(state: AppState, item: Resize, column: int) -> AppState | None:
    """The resize when a frame in flight may have met a screen too short for its moves up (see ``replay``):
    the frames in flight replayed on a model show which rows reached the terminal intact.  Rows they
    inserted that did not are queued again (each line whole); committed rows found intact after them
    count as inserted; the viewport starts below the last row found.  None: not that case, or the replay
    does not agree with the cursor report (the general rules of ``reduce_resize`` apply)."""
    count, row = item.in_flight_frames, item.cursor_row
    if count is None or row is None or item.in_flight_columns is None or item.in_flight_rows is None:
        return None
    frames = state.screen.recent_frames[-count:] if count else ()
    met = (item.in_flight_columns, item.in_flight_rows)
    if len(frames) != count or not clamped(frames, met[1]):
        return None
    policy = state.config.width_policy
    narrowed = met[0] < frames[0].columns
    if narrowed and (not state.config.resize_reflow or state.config.soft_wrap_lines):
        return None  # a terminal that cuts rows (xterm), or screen's soft lines (``_soft_lines_in_flight``)
    replays = _replays(frames, met, (item.columns, item.rows), policy, narrowed=narrowed)
    replays = [replayed for replayed in replays or () if replayed.cursor[0] == row]
    if not replays:
        return None
    theme = state.log.options.theme if state.log.options is not None else None
    inserted = [log_row for frame in frames for log_row in frame.inserted]
    width = frames[-1].columns
    pending, committed = log_rows(state.log, width, policy)
    candidates = [*inserted, *pending[: min(committed, frames[0].rows + len(inserted))]]
    texts = [row_text(draw_log_row(log_row, width, policy, theme)).rstrip(" ") for log_row in candidates]
    # Every model whose replay the cursor report allows may be what the terminal did (they differ in rows that are
    # not the log's, a composer row one pushed into history): a row counts as intact only where it is in all of
    # them (the others are inserted again: shown twice at worst, never lost), and the viewport starts at the
    # lowest top of them (erasing the fewest rows).
    placed = [_placed(candidates, texts, replayed, row) for replayed in replays]
    found, top = min(found for found, _, _ in placed), max(top for _, top, _ in placed)
    # Rows of text the commit rule still holds that every replay shows intact in history right after them: the
    # shrink pushed them there, out of reach; remembered, they are adopted if the text ends as they show it.
    held = pending[committed : committed + frames[0].rows] if found == len(candidates) else []
    held_rows = [draw_log_row(log_row, width, policy, theme) for log_row in held]
    held_texts = [row_text(drawn).rstrip(" ") for drawn in held_rows]
    afters = [after for _, _, after in placed]
    pushed = min(_pushed_intact(held_texts, replayed, after) for replayed, after in zip(replays, afters, strict=True))
    done, log, render = len(inserted), state.log, state.render
    dropped = 0
    if found < done:
        while found > 0 and continues_line(candidates[found - 1], candidates[found]):
            found -= 1  # back to the start of its line: the line is inserted again whole
        log, dropped = log.reinsert(inserted[found:]), done - found
    elif found > done:
        counted = found - done
        log = log.advance(tuple(pending[:counted]))
        until = render.inserted_until + counted
        render = replace(render, inserted_until=until, visible_start=max(render.visible_start, until))
    screen = replace(
        state.screen, top=top, cursor=(row, column), broken=True, ghost_above=False, drawn=None, recent_frames=()
    )
    replay_note = (tuple(range(1, dropped + 1)), tuple(texts[done:found]))
    held_open = PushedOpen(width, tuple(held_rows[:pushed]), render.inserted_until) if pushed else state.pushed_open
    return replace(
        state,
        columns=item.columns,
        rows=item.rows,
        log=log,
        render=render,
        screen=screen,
        replayed=replay_note,
        pushed_open=held_open,
    )


# At a narrowing the terminals measured to re-wrap rows do it each its own way: a row counts as intact only where
# every one of their models shows it so (a terminal the library has no model for re-wraps as one of them, or its
# cursor report disagrees).
_REWRAPPING = (TerminalFamily.TMUX, TerminalFamily.VTE, TerminalFamily.XTERMJS)


def _replays(
    frames: Sequence[FrameRecord], met: tuple[int, int], now: tuple[int, int], policy: WidthPolicy, *, narrowed: bool
) -> list[Replayed] | None:
    """The frames in flight replayed (``inflight.replay_frames``): on xterm's model, or at a narrowing on every
    re-wrapping model; None where one of them does not apply."""
    replays: list[Replayed] = []
    for family in _REWRAPPING if narrowed else (TerminalFamily.XTERM,):
        try:
            replayed = replay_frames(frames, met, now, policy, family)
        except Exception:  # a model consulted for a better guess: if it fails, the general rules still apply
            return None
        if replayed is None:
            return None
        replays.append(replayed)
    return replays


def _placed(candidates: list[LogRow], texts: list[str], replayed: Replayed, row: int) -> tuple[int, int, int]:
    """How many of ``candidates`` the replay shows intact, in order, above the cursor's row ``row``; the screen
    row under the last of them (where the viewport starts); and the index in ``replayed.joined`` after them.  Rows
    are compared as the terminal joins them, so a row a narrowing re-wrapped is found whole."""
    bottom = len(replayed.history) + row  # rows above the cursor's, counted in ``history + screen``
    seen = [(text, first) for text, first in replayed.joined if first < bottom]
    found, ends = _found_in_order(candidates, texts, [text for text, _ in seen])
    after = ends.get(found, 0)  # where the lines found end in ``seen``
    under = seen[after][1] if after < len(seen) else bottom
    return found, max(0, under - len(replayed.history)), after


def _pushed_intact(texts: list[str], replayed: Replayed, after: int) -> int:
    """How many of ``texts`` follow one another in the replay's history from its joined row ``after`` on."""
    joined = replayed.joined
    count = 0
    while (
        count < len(texts)
        and after + count < len(joined)
        and joined[after + count][0] == texts[count]
        and (after + count + 1 < len(joined) and joined[after + count + 1][1] <= len(replayed.history))
    ):
        count += 1
    return count


def _found_in_order(rows: list[LogRow], texts: list[str], seen: list[str]) -> tuple[int, dict[int, int]]:
    """How many of ``rows`` (from the first) are in ``seen`` in order, the rows of each line one after
    another (the last line found may run on past the end of ``seen``); and, for each line start found
    (and the count found), where in ``seen`` the rows found before it end."""
    ends = {0: 0}
    found, at = 0, 0
    while found < len(rows):
        line_end = found + 1
        while line_end < len(rows) and continues_line(rows[line_end - 1], rows[line_end]):
            line_end += 1
        match = None
        for start in range(at, len(seen)):
            length = 0
            while (
                found + length < line_end
                and start + length < len(seen)
                and seen[start + length] == texts[found + length]
            ):
                length += 1
            if length == line_end - found or (length and start + length == len(seen)):
                match = start, length
                break
        if match is None:
            break
        start, length = match
        found, at = found + length, start + length
        ends[found] = at
        if found < line_end:
            break  # the line runs on past the end of what was seen
    return found, ends
