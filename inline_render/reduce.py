"""Stage 1, ``reduce_inputs``: inputs in, new state and outputs out (pure).

This module owns every transition of application state.  Its rules:

* A dialog opened this tick is ``pending``; it becomes ``active`` at the start
  of the next tick, and only if the effects stage reports that its frame was
  drawn completely.  While ``pending``, keys and pastes are consumed (blocked):
  they were typed before the dialog could be seen.  ``c-c`` always interrupts.
* One dialog at a time; further requests queue and open in order.
* Log text is sanitized on the way in; updates to unknown or finished entries
  are dropped with one visible error line (never an exception).
* ``log.clear`` is the only transition that resets ``inserted_until``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

from .app import RECENT_FRAMES, AppState, FrameRecord
from .composer import normalize_key
from .dialogs import FormDialog, PickDialog, PromptDialog, open_dialog
from .editor import apply_completions, composer_key, composer_paste, composer_set, with_history
from .evolve import copier, evolve
from .highlight import lexer_for
from .inputs import (
    Clock,
    Completions,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Fault,
    FormRequest,
    HistorySet,
    Input,
    Key,
    LegacyText,
    LogAppend,
    LogClear,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    Paste,
    PermissionPreview,
    PermissionReady,
    PickRequest,
    PromptRequest,
    Resize,
    Status,
    Widget,
    Working,
)
from .log import LogRow, LogState, continues_line, entry_rows, log_rows, same_line
from .ops import LineFeed, MoveBy
from .outputs import Interrupt, Output
from .preflight import is_diff_line, match_preview_header, match_ready, preview_header, ready_line
from .replay import clamped, damaged_lines, replay_frames
from .spans import ansi_row
from .state import ConfirmPhase, RenderState
from .style import Row, row_text, row_width
from .text import flatten
from .theme import draw_log_row

__all__ = ["reduce_inputs"]

MAX_WIDGET_ROWS = 5  # rows one widget may show: a widget is a small block, never a second log
Outputs = list[Output]
# The copies made on (nearly) every tick, made once (evolve.copier): a status, a delta, a keystroke.
_WITH_STATUS = copier(AppState, "status", "status_row")
_WITH_LOG = copier(AppState, "log")
_WITH_COMPOSER = copier(AppState, "composer")


def _log_error(state: AppState, message: str) -> AppState:
    return replace(state, log=state.log.append("error", message))


def _key(state: AppState, item: Key, out: Outputs) -> AppState:
    key = normalize_key(item.key)
    if key == "c-c":
        out.append(Interrupt("c-c"))
        return state
    if state.dialog is not None:
        if state.render.confirm_phase is ConfirmPhase.PENDING:
            return state  # blocked: typed before the dialog was on screen
        dialog, answer = state.dialog.handle_key(key)
        if answer is not None:
            out.append(answer)
        if dialog is None:
            return _next_dialog(replace(state, dialog=None))
        return replace(state, dialog=dialog)
    composer, output, submitted = composer_key(state.composer, key, vi=state.config.vi_mode)
    if output is not None:
        out.append(output)
    if submitted is not None and state.config.log_submit:  # else the app logs what it accepts (on_submit)
        return evolve(state, composer=composer, log=state.log.append("user", submitted))
    return state if composer is state.composer else _WITH_COMPOSER(state, composer)


def _paste(state: AppState, item: Paste, out: Outputs) -> AppState:
    dialog = state.dialog
    if dialog is None:
        return replace(state, composer=composer_paste(state.composer, item.text))
    if state.render.confirm_phase is ConfirmPhase.PENDING:
        return state
    if isinstance(dialog, (PromptDialog, PickDialog, FormDialog)):
        return replace(state, dialog=dialog.paste(item.text))
    return state


def _next_dialog(state: AppState) -> AppState:
    render = replace(state.render, confirm_phase=ConfirmPhase.NONE)
    if not state.queued:
        return replace(state, render=render)
    return _open(replace(state, render=render, queued=state.queued[1:]), state.queued[0])


def _open(state: AppState, request: ConfirmRequest | PromptRequest | PickRequest | FormRequest) -> AppState:
    if state.dialog is not None:
        return replace(state, queued=(*state.queued, request))
    render = replace(state.render, confirm_phase=ConfirmPhase.PENDING)
    return replace(state, dialog=open_dialog(request), render=render, screen=replace(state.screen, dialog_drawn=False))


def _dialog_request(state: AppState, item: Any, out: Outputs) -> AppState:
    return _open(state, item)


def _cancel(state: AppState, item: ConfirmCancel, out: Outputs) -> AppState:
    if state.dialog is not None and state.dialog.id == item.id:
        return _next_dialog(replace(state, dialog=None))
    return replace(state, queued=tuple(r for r in state.queued if r.id != item.id))


def _append(state: AppState, item: LogAppend, out: Outputs) -> AppState:
    if item.id is not None:
        index = state.log.find(item.id)
        if index >= 0 and not state.log.entries[index].final:
            return _log_error(state, f"log.append: entry {item.id!r} is still streaming; append ignored")
    return evolve(state, log=state.log.append(item.kind, item.text, item.id, item.final, styled=item.styled))


def _unfinished(state: AppState, entry_id: str, what: str) -> tuple[AppState, int]:
    index = state.log.find(entry_id)
    if index < 0 or state.log.entries[index].final:
        return _log_error(state, f"{what}: no unfinished entry {entry_id!r}; update ignored"), -1
    return state, index


def _delta(state: AppState, item: LogDelta, out: Outputs) -> AppState:
    state, index = _unfinished(state, item.id, "log.delta")
    return state if index < 0 else _WITH_LOG(state, state.log.delta(index, item.text))


def _replace(state: AppState, item: LogReplace, out: Outputs) -> AppState:
    state, index = _unfinished(state, item.id, "log.replace")
    return state if index < 0 else evolve(state, log=state.log.replace_text(index, item.text))


def _finish(state: AppState, item: LogFinish, out: Outputs) -> AppState:
    state, index = _unfinished(state, item.id, "log.finish")
    return state if index < 0 else evolve(state, log=state.log.finish(index))


def _clear(state: AppState, item: LogClear, out: Outputs) -> AppState:
    render = replace(state.render, wrapped_total=0, visible_start=0, visible_end=0, inserted_until=0)
    log = LogState(next_key=state.log.next_key, options=state.log.options)
    return replace(state, log=log, render=render, log_cleared=True, legacy_diff=False)


def _preview(state: AppState, item: PermissionPreview, out: Outputs) -> AppState:
    log = state.log.append("status", preview_header(item.tool))
    if item.summary:
        log = log.append("status", flatten(item.summary))  # the summary on its own detail line
    if item.diff:
        diff = item.diff[:-1] if item.diff.endswith("\n") else item.diff
        # The preview's language first, then its file's name (codelia sends "txt", which names no
        # lexer, beside "notes.txt", which does); neither known: the diff's own headers decide.
        known = [name for name in (item.language, item.file_path) if name and lexer_for(name) is not None]
        log = log.append("diff", diff, language=known[0] if known else None)
    if item.truncated:
        log = log.append("status", "\u2026 diff truncated")
    return replace(state, log=log)


def _ready(state: AppState, item: PermissionReady, out: Outputs) -> AppState:
    if item.tool_call_id is not None:
        if item.tool_call_id in state.ready_ids:
            return state  # one ready line per tool call: a repeated event is not shown twice
        ready_ids = (*state.ready_ids[-(_READY_IDS - 1) :], item.tool_call_id)
        state = replace(state, ready_ids=ready_ids)
    return replace(state, log=state.log.append("status", ready_line(item.tool)))


_READY_IDS = 256  # the tool calls remembered (a repeat comes right after the first, not hundreds of calls later)


def _legacy(state: AppState, item: LegacyText, out: Outputs) -> AppState:
    # Legacy runtimes print preflight as text; render it exactly like the structured events.
    log = state.log
    for line in item.text.replace("\r\n", "\n").split("\n"):
        preview, ready = match_preview_header(line), match_ready(line)
        if preview is not None:
            log, state = log.append("status", preview_header(preview)), replace(state, legacy_diff=True)
        elif ready is not None:
            log, state = log.append("status", ready_line(ready)), replace(state, legacy_diff=False)
        elif state.legacy_diff and is_diff_line(line):
            log = log.append("diff", line)
        elif line.strip():
            log, state = log.append("status", line.strip()), replace(state, legacy_diff=False)
    return replace(state, log=log)


def _notify(state: AppState, item: Notify, out: Outputs) -> AppState:
    kind = {"info": "info", "warn": "warn", "error": "error", "success": "success"}[item.notify_type]
    return replace(state, log=state.log.append(kind, item.message, styled=item.styled))


def _status(state: AppState, item: Status, out: Outputs) -> AppState:
    if item.styled:
        row = ansi_row(item.text)
        return _WITH_STATUS(state, row_text(row), row)
    text = item.text
    if not (text.isascii() and text.isprintable()):  # printable ASCII is flat and inert already (a counter)
        text = flatten(text)
    # A token counter sets the status on every update: one slot copy (evolve), none when it is unchanged.
    if text == state.status and not state.status_row:
        return state
    return _WITH_STATUS(state, text, ())


def _working(state: AppState, item: Working, out: Outputs) -> AppState:
    message = flatten(item.message)
    return replace(state, working=message, working_since=state.now)


def _editor(state: AppState, item: EditorSet, out: Outputs) -> AppState:
    return replace(state, composer=composer_set(state.composer, item.text))


def _widget(state: AppState, item: Widget, out: Outputs) -> AppState:
    """Replace widget ``key`` in place (a new one goes last); an empty text removes it."""
    rows = tuple(flatten(line) for line in item.text.splitlines()[:MAX_WIDGET_ROWS]) if item.text.strip() else ()
    entry = (item.key, rows, item.below)
    keys = [key for key, _, _ in state.widgets]
    if item.key in keys:
        index = keys.index(item.key)
        kept = state.widgets[:index] + ((entry,) if rows else ()) + state.widgets[index + 1 :]
    else:
        kept = state.widgets + ((entry,) if rows else ())
    return replace(state, widgets=kept)


def _completions(state: AppState, item: Completions, out: Outputs) -> AppState:
    return replace(state, composer=apply_completions(state.composer, item))


def _history(state: AppState, item: HistorySet, out: Outputs) -> AppState:
    return replace(state, composer=with_history(state.composer, item.lines))


def _clock(state: AppState, item: Clock, out: Outputs) -> AppState:
    return evolve(state, now=item.now)


def _fault(state: AppState, item: Fault, out: Outputs) -> AppState:
    return replace(state, fault=item.after_bytes)


def _resize(state: AppState, item: Resize, out: Outputs) -> AppState:
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
    if in_flight and screen.resized_from is None:
        replayed = _resize_replayed(state, item, column)
        if replayed is not None:
            return replayed
        if state.config.soft_wrap_lines:
            state = _soft_lines_in_flight(state, item)
            # A damaged line may continue into the row under it (screen's mark stays on a row that a narrowing
            # split): its copy must not be written there, or screen shows the two as one line.
            glued = state.replayed is not None
        else:
            state = _clamped_at_a_narrowing(state, item)
    # With a cursor report we know the cursor's row; without one, terminals keep it unless it falls off.
    now = item.cursor_row if item.cursor_row is not None else min(cursor_row, item.rows - 1)
    # Rows a frame still in flight wrote may have been clipped or re-wrapped by a narrowing it met, and its
    # moves up may then have landed on other rows: only the rows above the first one it wrote are where the
    # terminal had them, and the others are redrawn.  Unless every row from there to the cursor fits the
    # narrowest width of the tick: then no resize could cut or re-wrap them, and every move (up: CUU, down:
    # line feeds, which scroll rather than stop) kept its distance, so they are exactly as drawn.  The frames
    # acknowledged at the size they were drawn for came before the resize: only the later ones count.
    # The rows the frames in flight were planned over count too: a row of theirs a narrowing re-wrapped taller
    # between a row they moved up to and the cursor moved that row, and they wrote on a piece of it.
    trusted, first_written = index, screen.written_by(in_flight)
    if in_flight and (
        cursor_split
        or not _rows_fit(drawn[first_written : index + 1], narrowest, state)
        or not all(_reached_rows_fit(frame, narrowest, state) for frame in screen.recent_frames[-in_flight:])
    ):
        trusted = min(index, first_written)
    if state.config.resize_reflow:
        state = _commit_drawn_rows(state, trusted, kept=True)
    if now < index:
        # The terminal pushed the viewport's top rows into scrollback itself (one screen row each).
        state = _commit_drawn_rows(state, min(index - now, trusted), kept=False)
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
    )
    return replace(state, columns=item.columns, rows=item.rows, screen=screen)


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
    return _insert_again(state, inserted, range(len(inserted)) if damaged is None else damaged)


def _insert_again(state: AppState, inserted: list[LogRow], garbled: Sequence[int]) -> AppState:
    """The lines of the rows ``garbled`` (offsets among ``inserted``, the rows the frames in flight inserted) queued
    to be inserted again, whole, and named for whoever counts the rows (``AppState.replayed``, counted back from the
    last row inserted): their copies above are ghosts."""
    if not garbled:
        return state
    again = [inserted[index] for index in garbled]
    back = tuple(len(inserted) - index for index in garbled)
    return replace(state, log=state.log.reinsert(again), replayed=(back, ()))


def _clamped_at_a_narrowing(state: AppState, item: Resize) -> AppState:
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
    return _insert_again(state, inserted, range(len(inserted)))


def _resize_replayed(state: AppState, item: Resize, column: int) -> AppState | None:
    """The resize when a frame in flight may have met a screen too short for its moves up (see ``replay``):
    the frames in flight replayed on a model show which rows reached the terminal intact.  Rows they
    inserted that did not are queued again (each line whole); committed rows found intact after them
    count as inserted; the viewport starts below the last row found.  None: not that case, or the replay
    does not agree with the cursor report (the general rules of ``_resize`` apply)."""
    count, row = item.in_flight_frames, item.cursor_row
    if count is None or row is None or item.in_flight_columns is None or item.in_flight_rows is None:
        return None
    frames = state.screen.recent_frames[-count:] if count else ()
    met = (item.in_flight_columns, item.in_flight_rows)
    if len(frames) != count or not clamped(frames, met[1]):
        return None
    policy = state.config.width_policy
    try:
        replayed = replay_frames(frames, met, (item.columns, item.rows), policy)
    except Exception:  # a model consulted for a better guess: if it fails, the general rules still apply
        replayed = None
    if replayed is None or replayed.cursor[0] != row:
        return None
    theme = state.log.options.theme if state.log.options is not None else None
    inserted = [log_row for frame in frames for log_row in frame.inserted]
    width = frames[-1].columns
    pending, committed = log_rows(state.log, width, policy)
    candidates = [*inserted, *pending[: min(committed, frames[0].rows + len(inserted))]]
    texts = [row_text(draw_log_row(log_row, width, policy, theme)).rstrip(" ") for log_row in candidates]
    seen = [*replayed.history, *replayed.screen[:row]]
    found, ends = _found_in_order(candidates, texts, seen)
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
    after = ends.get(found, 0)  # where the rows found end in ``seen``
    top = max(0, after - len(replayed.history))
    screen = replace(
        state.screen, top=top, cursor=(row, column), broken=True, ghost_above=False, drawn=None, recent_frames=()
    )
    replay_note = (tuple(range(1, dropped + 1)), tuple(texts[done:found]))
    return replace(
        state, columns=item.columns, rows=item.rows, log=log, render=render, screen=screen, replayed=replay_note
    )


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


def _reached_rows_fit(frame: FrameRecord, columns: int, state: AppState) -> bool:
    """The rows ``frame`` was planned over, from the highest one it moved up to (``CUU`` from its cursor, line feeds
    at the bottom scrolling them up) down to the last drawn, are at most ``columns`` wide."""
    bottom = frame.rows - 1
    row = highest = frame.cursor[0]
    scrolled = 0
    for op in frame.ops:
        if type(op) is MoveBy:
            row = max(0, min(row + op.rows, bottom))
            highest = min(highest, row + scrolled)  # in the rows as they were before the frame
        elif type(op) is LineFeed:
            if row == bottom:
                scrolled += 1
            else:
                row += 1
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
    return _insert_again(state, earlier, range(len(earlier)))


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
    pending, committed = log_rows(state.log, width, state.config.width_policy)
    count = 0
    limit = min(upto - skip, state.screen.drawn_log_rows - skip, committed, len(pending), len(drawn) - skip)
    policy, theme = state.config.width_policy, state.log.options.theme if state.log.options is not None else None
    while count < limit and drawn[skip + count] == draw_log_row(pending[count], width, policy, theme):
        count += 1
    if kept:
        # Rows kept in place end with a line: a line kept in part and redrawn in part would read, after
        # any ghost piece of its redrawn rows, as two broken lines; redrawn whole, the re-wrapped copy of
        # its start above is a ghost and the line is shown intact once.
        while 0 < count < len(pending) and same_line(pending[count - 1], pending[count]):
            count -= 1
    if not count:
        return state
    inserted = render.inserted_until + count
    render = replace(render, inserted_until=inserted, visible_start=max(render.visible_start, inserted))
    state = replace(state, log=state.log.advance(pending[:count]), render=render)
    if kept:
        return replace(state, kept_rows=state.kept_rows + count)
    return replace(state, pushed_rows=state.pushed_rows + count)


_HANDLERS: dict[type[Any], Callable[[AppState, Any, Outputs], AppState]] = {
    Key: _key,
    Paste: _paste,
    LogAppend: _append,
    LogDelta: _delta,
    LogReplace: _replace,
    LogFinish: _finish,
    LogClear: _clear,
    Status: _status,
    ConfirmRequest: _dialog_request,
    PromptRequest: _dialog_request,
    PickRequest: _dialog_request,
    FormRequest: _dialog_request,
    ConfirmCancel: _cancel,
    PermissionPreview: _preview,
    PermissionReady: _ready,
    LegacyText: _legacy,
    Notify: _notify,
    Working: _working,
    EditorSet: _editor,
    Widget: _widget,
    Completions: _completions,
    HistorySet: _history,
    Clock: _clock,
    Fault: _fault,
    Resize: _resize,
}


def reduce_inputs(state: AppState, inputs: Iterable[Input]) -> tuple[AppState, list[Output]]:
    """Apply ``inputs`` in order; return the new state and the messages to send out."""
    render: RenderState = state.render
    if render.confirm_phase is ConfirmPhase.PENDING and state.screen.dialog_drawn:
        render = replace(render, confirm_phase=ConfirmPhase.ACTIVE)
    if render is not state.render or state.log_cleared or state.pushed_rows or state.kept_rows or state.replayed:
        state = evolve(state, render=render, log_cleared=False, pushed_rows=0, kept_rows=0, replayed=None)
    out: Outputs = []
    items = inputs if isinstance(inputs, (list, tuple)) else list(inputs)
    index = 0
    while index < len(items):
        item = items[index]
        if state.legacy_diff and not isinstance(item, (LegacyText, Clock)):
            state = replace(state, legacy_diff=False)  # a legacy diff ends at the next other message
        if type(item) is LogAppend and item.id is None and not item.styled:
            # A run of appends without ids (a burst of output) extends the log once, not entry by entry.
            run: list[tuple[str, str, bool]] = []
            while index < len(items):
                append = items[index]
                if type(append) is not LogAppend or append.id is not None or append.styled:
                    break
                run.append((append.kind, append.text, append.final))
                index += 1
            state = evolve(state, log=state.log.extend(run))
            continue
        state = _HANDLERS[type(item)](state, item, out)
        index += 1
    return state, out
