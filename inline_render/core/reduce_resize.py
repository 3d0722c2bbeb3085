"""Stage 1's resize transition, ``reduce_resize``: where the terminal put the viewport, and what stays above it.

``reduce`` owns every transition and dispatches a ``Resize`` here; this module holds that one transition and the
helpers only it uses (they are most of stage 1's code).  Its rules:

* Every count is one that cannot reach a committed row: one screen row per drawn row, counted up from the cursor,
  unless the terminal models of ``resize_replay`` (replays of the screen, or of the frames in flight) agree with the
  terminal's cursor report on where the rows went.
* A row a frame still in flight may have written at a width the terminal no longer had is redrawn, not trusted.
* Where it cannot be known whether a committed line reached the terminal whole, the line is inserted again (a
  line shown twice is bad; a line cut is worse).
* The rows a resize leaves split under the next frame (``Screen.split_rows``) are remembered with it: a widening
  that meets it in flight joins them again, its move up lands higher, on the committed rows above the viewport, and
  their lines are inserted again (``resize_replay.joined_at_a_widening``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..inputs import Resize
from ..outputs import Output
from ..text.style import Row, row_width
from .app import RECENT_FRAMES, AppState, FrameRecord, Screen
from .inflight import damaged_lines
from .log import entry_rows, log_rows, same_line
from .ops import Index, LineFeed, MoveBy, RestoreCursor, SaveCursor, Text
from .plan_stream import appends_at_cursor, rewrap_stream
from .pushed import record_pushed_open
from .resize_replay import (
    clamped_at_a_narrowing,
    insert_again,
    joined_at_a_widening,
    modelled_rows,
    modelled_rows_in_flight,
    resize_replayed,
)
from .rows import drawn_as

__all__ = ["reduce_resize"]


def reduce_resize(state: AppState, item: Resize, out: list[Output]) -> AppState:
    """The ``Resize`` transition (``reduce``'s handler for it): the viewport re-anchored where the terminal put it."""
    # Every frame moves the cursor relative to itself, so the terminal carried the cursor along with our
    # rows through whatever it did (reflow, rows pulled back from history on growth, pushed on a shrink):
    # the old viewport's top is found by counting up from the cursor, and erased from there.  The count
    # is the one that cannot reach a committed row above the viewport: one screen row per drawn row.
    # A terminal that re-wraps rows (tmux, VTE, xterm.js) may have made them taller, and whether a frame
    # still in flight was re-wrapped or clipped cannot be known (tmux applies the new size before the pty
    # hears of it), so there the committed log rows at the viewport's top stay where the terminal put
    # them, re-wrapped and whole, and count as inserted; the new viewport starts below them.  Pieces of
    # uncommitted rows may stay above it (a ghost is bad; erasing a committed row is worse).  Until the
    # next frame ``drawn`` keeps the rows as they were drawn, so several resizes are measured as one.
    screen = state.screen
    if not screen.anchored:
        return replace(state, columns=item.columns, rows=item.rows)
    if screen.stream is not None:
        # Without a report (screen answers one: its family is known by its DA2) the cursor's row is taken as kept;
        # the stream's frames move relative to the cursor, which screen keeps at the text's end, whatever the row.
        row = item.cursor_row if item.cursor_row is not None else (screen.cursor or (screen.top, 0))[0]
        return _resize_stream(state, item, row)
    drawn = screen.drawn or ()
    cursor_row, column = screen.cursor if screen.cursor is not None else (screen.top + (len(drawn) or 1) - 1, 0)
    in_flight, narrowest = _frames_in_flight(item), item.columns
    if screen.resized_from is not None:
        index, column, earlier_in_flight, earlier_narrowest = screen.resized_from
        in_flight, narrowest = max(in_flight, earlier_in_flight), min(narrowest, earlier_narrowest)
    else:
        index = max(0, cursor_row - screen.top)  # the viewport's rows above the cursor
    # GNU screen re-wraps the cursor's line up to the cursor: past a row's last cell (after a row as wide as the
    # narrowest width, a full composer), the cursor is put on a new row under it, which the row continues into.
    cursor_split = state.config.soft_wrap_lines and column >= narrowest
    column = min(max(0, column), item.columns - 1)
    glued = False
    streamed = _appended_at_cursor(state, screen, in_flight)
    if in_flight and screen.resized_from is None and not streamed:
        replayed = resize_replayed(state, item, column)
        if replayed is not None:
            return replayed
        if state.config.soft_wrap_lines:
            state = _soft_lines_in_flight(state, item)
            # A damaged line may continue into the row under it (screen's mark stays on a row that a narrowing
            # split): its copy must not be written there, or screen shows the two as one line.
            glued = state.replayed is not None
        else:
            state = clamped_at_a_narrowing(state, item)
            if state.replayed is None:
                # A frame in flight that moves up over rows an earlier resize split may land higher at a widening.
                state = joined_at_a_widening(state, item, in_flight)
    # With a cursor report we know the cursor's row; without one, terminals keep it unless it falls off.
    now = item.cursor_row if item.cursor_row is not None else min(cursor_row, item.rows - 1)
    trusted = _trusted_rows(state, screen, index, in_flight, narrowest, cursor_split)
    if state.config.resize_reflow:
        state = _commit_drawn_rows(state, trusted, kept=True)
    # Without frames in flight, where every re-wrapping model agrees with the cursor report, they tell where each
    # drawn row went (a row re-wrapped taller pushed more of them into history than one screen row each).
    modelled = modelled_rows(state, screen, item) if not in_flight and screen.resized_from is None else None
    highest = modelled
    if in_flight and screen.resized_from is None and not streamed and state.replayed is None:
        # With frames in flight, the rows above the first one they wrote, read at every point they may have met it.
        modelled, highest = modelled_rows_in_flight(state, screen, item, min(trusted, index)) or (None, None)
    # Rows the terminal pushed into history, and of those the rows it pushed whole (a row starting in history may
    # end on the screen: there, committed, it counts as pushed; open, it is no piece to adopt).
    pushed = whole = index - now
    if modelled is not None:
        pushed = sum(1 for start in modelled if start < 0)
        whole = sum(1 for start in modelled[1:] if start <= 0)
    if pushed > 0:
        # The terminal pushed the viewport's top rows into scrollback itself.
        state = _commit_drawn_rows(state, min(pushed, trusted), kept=False)
        state = record_pushed_open(state, min(whole, trusted))
    if trusted < index and state.config.resize_reflow and not glued:
        state = _redrawn_line_again(state)
    # Rows this tick counted as inserted (kept or pushed, by this resize or an earlier one of the tick) are no
    # longer the viewport's: it starts below them.
    counted = state.kept_rows + state.pushed_rows
    top = max(0, now - (index - counted))
    # Rows counted one screen row each that a re-wrapping terminal may have made taller (wider than the
    # narrowest width of the tick): the old viewport's top is then higher than counted, and the row just
    # above the new one may be a soft-wrapped piece of a redrawn row.
    ghost = glued or (
        state.config.resize_reflow and (cursor_split or not _rows_fit(drawn[counted : index + 1], narrowest, state))
    )
    if modelled is not None and counted < len(modelled) and max(0, modelled[counted]) <= top:
        # The first row not counted starts there; when it starts in history, a piece of it stays above as a ghost,
        # soft-wrapped into the top row.
        # So may one where the points a resize in flight may have landed put that row at different heights.
        start = modelled[counted]
        top, ghost = max(0, start), start < 0 or (highest or modelled)[counted] < start
    resized_from = (index, column, in_flight, narrowest)
    # The frames before a resize are settled or were accounted for by it: none is replayed at a later one.
    screen = replace(
        state.screen,
        top=top,
        cursor=(now, column),
        broken=True,
        ghost_above=ghost,
        resized_from=resized_from,
        recent_frames=(),
        split_rows=_split_rows(state, screen, counted, index, in_flight),
    )
    return replace(state, columns=item.columns, rows=item.rows, screen=screen)


def _split_rows(state: AppState, screen: Screen, counted: int, index: int, in_flight: int) -> tuple[Row, ...]:
    """``Screen.split_rows`` after a resize (``screen``: as the resize found it) that counted the viewport's first
    ``counted`` drawn rows as inserted, the cursor on its drawn row ``index``: the rows from there to the cursor's,
    each the widest of the ways it was drawn (a frame in flight may have rewritten a row after the terminal split
    the one it found there, whose pieces may remain).  Empty where the rows are not known or not re-wrapped (a
    terminal that cuts rows; GNU screen's soft lines have their own rules)."""
    if not state.config.resize_reflow or state.config.soft_wrap_lines or screen.drawn is None:
        return ()
    policy = state.config.width_policy
    flight = screen.recent_frames[-in_flight:] if in_flight else ()
    versions = [screen.drawn, *(frame.drawn for frame in flight if frame.top == screen.top)]
    rows: list[Row] = []
    for at in range(counted, min(index + 1, len(screen.drawn))):
        drawn = [version[at] for version in versions if at < len(version)]
        rows.append(max(drawn, key=lambda row: row_width(row, policy)))
    return tuple(rows)


def _appended_at_cursor(state: AppState, screen: Screen, in_flight: int) -> bool:
    """GNU screen: every frame in flight that inserted lines appended them at the cursor (and one did).

    Those frames (``effects_stream``) append at the cursor, which screen carries with the text, never at a planned
    column: replaying them on a model of rows drawn one by one would find damage that is not there (and insert
    lines again).  A frame that started the text moved up to the viewport's top first, as the row-by-row frames
    do, and is replayed as they are."""
    flight = screen.recent_frames[-in_flight:] if in_flight else ()
    appended = [appends_at_cursor(frame.ops) for frame in flight]
    return (
        state.config.soft_wrap_lines
        and len(flight) == in_flight > 0
        and any(appended)
        and all(append for append, frame in zip(appended, flight, strict=True) if frame.inserted)
    )


def _trusted_rows(
    state: AppState, screen: Screen, index: int, in_flight: int, narrowest: int, cursor_split: bool
) -> int:
    """How many of the viewport's rows above the cursor's (``index``; ``screen``: as the resize found it) are where
    the terminal had them: all of them, or only those above the first row a frame still in flight wrote.

    Rows a frame still in flight wrote may have been clipped or re-wrapped by a narrowing it met, and its
    moves up may then have landed on other rows: only the rows above the first one it wrote are where the
    terminal had them, and the others are redrawn.  Unless every row from there to the cursor fits the
    narrowest width of the tick: then no resize could cut or re-wrap them, and every move (up: CUU, down:
    line feeds, which scroll rather than stop) kept its distance, so they are exactly as drawn.  The frames
    acknowledged at the size they were drawn for came before the resize: only the later ones count.
    The rows the frames in flight were planned over count too: a row of theirs a narrowing re-wrapped taller
    between a row they moved up to and the cursor moved that row, and they wrote on a piece of it."""
    drawn = screen.drawn or ()
    trusted, first_written = index, screen.written_by(in_flight)
    if not in_flight:
        return trusted
    flight = screen.recent_frames[-in_flight:]
    if cursor_split or not all(_reached_rows_fit(frame, narrowest, state) for frame in flight):
        return min(index, first_written)
    written = drawn[first_written : index + 1]
    if _rows_fit(written, narrowest, state):
        return trusted
    # Some row they wrote is wider than the narrowest width: it and the rows under it may have been re-wrapped or
    # clipped.  The rows they wrote above the first such row fit that width (no resize cut or re-wrapped them) and
    # were reached by moves over rows that fit: where no frame moved up after writing (a move up past a row it had
    # written, re-wrapped taller by then, would land on another row), they are where they were drawn.  Redrawn
    # instead, their copies above the new viewport would stay (it is counted one screen row a drawn row, and the
    # taller rows under them make it start lower): whole committed lines shown twice.
    if any(_moves_up_after_writing(frame) for frame in flight):
        return min(index, first_written)
    fitting = next(offset for offset, row in enumerate(written) if not _rows_fit((row,), narrowest, state))
    return min(index, first_written + fitting)


def _moves_up_after_writing(frame: FrameRecord) -> bool:
    """``frame`` moves the cursor up (``CUU``, or back to a saved position) after it wrote text."""
    wrote = False
    for op in frame.ops:
        if type(op) is Text:
            wrote = True
        elif wrote and ((type(op) is MoveBy and op.rows < 0) or type(op) is RestoreCursor):
            return True
    return False


def _resize_stream(state: AppState, item: Resize, now: int) -> AppState:
    """GNU screen, the cursor at the end of the open text (``Screen.stream``, ``effects_stream``): screen re-wrapped
    that text as one, with the cursor, and every frame in flight appended at the cursor, so the text ends where the
    cursor report says and takes the rows its cells fill at the new width (``rewrap_stream``; the least it can be
    with wide characters: the viewport's top is never counted above the text's first row).  Nothing in the viewport
    is committed and nothing is redrawn: the next frame draws the rows under the text again.  Where the text's head
    went into history (more rows than the cursor has above it), the text is drawn again from the screen's top."""
    screen = state.screen
    assert screen.stream is not None
    policy = state.config.width_policy
    width = screen.drawn_columns or state.columns
    taken, rewrapped, column = rewrap_stream(screen.stream, width, item.columns, policy)
    now = max(0, min(now, item.rows - 1))
    top = now - (taken - 1)
    # A frame in flight whose ``ESC 7`` came before the resize and its ``ESC 8`` after put its text where screen
    # moved the saved position, not where the text ended: never above the text's row (the rows between it and the
    # cursor then were hard rows), but within a row of it.  The report's column tells: then the text is not known
    # and its top is counted one row lower (never above the text's first row; a piece of it may stay above).
    in_flight = item.frames_in_flight or bool(item.in_flight_frames)
    last = item.columns - 1
    reported = item.cursor_column
    # A text that now ends on the last column: screen puts the cursor at the start of the row under it (measured,
    # ``terminal_resize``), which the text continues on; without the column, so counted (the lower top).
    on_next = column == item.columns and (reported is None or reported == 0) and taken > 0
    damaged = in_flight and (
        reported is None or column is None or (not on_next and min(reported, last) != min(column, last))
    )
    if on_next and rewrapped is not None:
        top = now - taken  # the text's rows end on the row above the cursor
        rewrapped = (*rewrapped[:-1], (*rewrapped[-1], ()))  # the row the cursor is on, nothing on it yet
        taken += 1
    if damaged:
        rewrapped, top = None, top + 1
    if rewrapped is None:
        top = max(0, min(top, now))  # the lowest top the text can have
    # A text taller than the screen went up into history with its head (the viewport shows its last rows).
    shown = taken - max(0, -top)
    top = max(0, top)
    after = replace(
        screen,
        top=top,
        drawn=None,
        drawn_columns=item.columns,
        drawn_log_rows=shown if rewrapped is not None else 0,
        cursor=(now, 0 if on_next and rewrapped is not None else -1),
        recent_written=(),
        recent_frames=(),
        resized_from=None,
        stream=rewrapped,
        # Not known row for row: anchored again from that top, one blank row above it (a piece of the text that
        # the count left above would otherwise continue into the viewport's first row).
        broken=rewrapped is None,
        ghost_above=rewrapped is None,
    )
    return replace(state, columns=item.columns, rows=item.rows, screen=after)


def _soft_lines_in_flight(state: AppState, item: Resize) -> AppState:
    """GNU screen (``Config.soft_wrap_lines``): a line that frames in flight at a narrowing inserted and that did
    not end up whole in screen's text (``replay.damaged_lines``: glued to a piece of a row the narrowing split, or
    clipped) is inserted again, whole; the copy above is a ghost.  Only the damaged lines: the whole lines after
    one stay where they are, so it comes after them (out of order) instead of every one of them showing twice.
    Without a cursor report every resize point counts; without the count of frames in flight or the size they
    met, every recent frame is replayed at the new size.  Where the replay fails or no point agrees with the
    report, every line they inserted is inserted again (a line shown twice is bad; a line cut is worse)."""
    count, met, rows = item.in_flight_frames, item.in_flight_columns, item.in_flight_rows
    recent = state.screen.recent_frames
    frames = recent[-count:] if count else recent if count is None else ()
    narrowest = met if met is not None else item.columns
    if not any(frame.inserted and frame.columns > narrowest for frame in frames):
        return state
    size, report = (item.columns, item.rows), None  # unknown: every recent frame after the resize, every point
    if count and len(frames) == count and met is not None and rows is not None:
        size, report = (met, rows), item.cursor_row
    else:  # the recent frames from the first that inserted (the ones before changed no committed row)
        frames = frames[next(index for index, frame in enumerate(frames) if frame.inserted) :]
    inserted = [log_row for frame in frames for log_row in frame.inserted]
    try:
        damaged = damaged_lines(frames, size, (item.columns, item.rows), state.config.width_policy, report)
    except Exception:  # a model consulted for a better guess: if it fails, the safe rule applies
        damaged = None
    return insert_again(state, inserted, range(len(inserted)) if damaged is None else damaged)


def _reached_rows_fit(frame: FrameRecord, columns: int, state: AppState) -> bool:
    """The rows ``frame`` was planned over, from the highest one it moved up to (``CUU`` from its cursor, line feeds
    at the bottom scrolling them up) down to the last drawn, are at most ``columns`` wide."""
    bottom = frame.rows - 1
    row = highest = frame.cursor[0]
    scrolled = 0
    saved = row
    for op in frame.ops:
        if type(op) is MoveBy:
            row = max(0, min(row + op.rows, bottom))
            highest = min(highest, row + scrolled)  # in the rows as they were before the frame
        elif type(op) is LineFeed or type(op) is Index:
            if row == bottom:
                scrolled += 1
            else:
                row += 1
        elif type(op) is SaveCursor:
            saved = row
        elif type(op) is RestoreCursor:
            row = saved
    return _rows_fit(frame.drawn[max(0, highest - frame.top) :], columns, state)


def _redrawn_line_again(state: AppState) -> AppState:
    """The viewport is redrawn from a row that continues a line whose first rows are in scrollback already: pieces
    of rows the terminal re-wrapped taller may stay between the two, and the line would read cut.  It is inserted
    again, whole (its first rows, counted back from the last row inserted, are a ghost copy now)."""
    if state.log.again:
        return state  # a line is queued again already: the first pending row starts it
    width, policy = state.screen.drawn_columns or state.columns, state.config.width_policy
    pending, _ = log_rows(state.log, width, policy)
    if not pending or pending[0].start <= pending[0].line_start:
        return state
    first = pending[0]
    cells = state.log.options is not None and state.log.options.wrap_cells
    rows = entry_rows(first.entry, first.line_start, width, policy, cells)
    earlier = [row for row in rows if row.end <= first.start and row.line_start == first.line_start]
    return insert_again(state, earlier, range(len(earlier)))


def _frames_in_flight(item: Resize) -> int:
    """How many of the last frames the terminal may have read only after this resize (0: none)."""
    if not item.frames_in_flight:
        return 0
    known = item.in_flight_frames
    return RECENT_FRAMES if known is None else max(1, min(known, RECENT_FRAMES))


def _rows_fit(rows: Iterable[Row], columns: int, state: AppState) -> bool:
    """Every row is at most ``columns`` wide."""
    policy = state.config.width_policy
    return all(row_width(row, policy) <= columns for row in rows)


def _commit_drawn_rows(state: AppState, upto: int, *, kept: bool) -> AppState:
    """The viewport's top drawn rows up to ``upto`` stay in the terminal: committed log rows count as inserted.

    ``kept``: they stay on screen above the re-anchored viewport, else a shrink pushed them into history.
    Only rows drawn exactly as they would be inserted, right after the rows already inserted, qualify;
    anything else (uncommitted text, dialog, status) is beyond our reach.
    """
    drawn = state.screen.drawn
    render = state.render
    if drawn is None or render.visible_start != render.inserted_until:
        return state
    skip = state.pushed_rows + state.kept_rows  # drawn rows an earlier resize of this tick accounted for already
    width = state.screen.drawn_columns or state.columns
    log = state.log
    pending, committed = log_rows(log, width, state.config.width_policy)
    limit = min(upto - skip, state.screen.drawn_log_rows - skip, len(pending), len(drawn) - skip)
    theme = log.options.theme if log.options is not None else None
    count = drawn_as(drawn[skip:], pending, limit, width, state.config.width_policy, theme)
    if count > committed and not kept:
        # Rows the commit rule still held back that a shrink pushed into the terminal's history are there all the
        # same: their text is kept as it is from now on (a Markdown paragraph's held lines settle; a verbatim line
        # is split after its pushed open row and goes on below it), so that they count as inserted and are never
        # inserted again; what cannot be kept so stays uncounted.  Held rows a
        # re-wrapping terminal kept on the screen are still in reach: the new viewport starts at them and draws
        # them again, so their text may still change (a held line that becomes a table's header: settled, the
        # table was drawn as its Markdown source).
        log = log.freeze(pending[count - 1])
        pending, committed = log_rows(log, width, state.config.width_policy)
    count = min(count, committed)
    if kept or min(upto, state.screen.drawn_log_rows) - skip > count:
        # Rows kept in place end with a line: a line kept in part and redrawn in part would read, after
        # any ghost piece of its redrawn rows, as two broken lines; redrawn whole, the re-wrapped copy of
        # its start above is a ghost and the line is shown intact once.  So do pushed rows when the shrink pushed
        # log rows past them (the line's open row): those stay in history after them as ghosts, and the rest of the
        # line drawn below would read as another line.  Not counted, the rows pushed from the
        # line's start are remembered whole (``record_pushed_open``): adopted if the line ends as they show it.
        while 0 < count < len(pending) and same_line(pending[count - 1], pending[count]):
            count -= 1
    if not count:
        return state
    inserted = render.inserted_until + count
    render = replace(render, inserted_until=inserted, visible_start=max(render.visible_start, inserted))
    state = replace(state, log=log.advance(pending[:count]), render=render)
    if kept:
        return replace(state, kept_rows=state.kept_rows + count)
    return replace(state, pushed_rows=state.pushed_rows + count)
