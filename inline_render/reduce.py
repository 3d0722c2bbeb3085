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

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from .app import AppState
from .composer import normalize_key
from .dialogs import PickDialog, PromptDialog, open_dialog
from .evolve import evolve
from .inputs import (
    Clock,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Fault,
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
    Working,
)
from .log import LogState, log_rows
from .outputs import Interrupt, Output, Quit, Submit
from .preflight import is_diff_line, match_preview_header, match_ready, preview_header, ready_line
from .state import ConfirmPhase, RenderState
from .style import Row
from .text import WidthPolicy, flatten, iter_cells
from .theme import draw_log_row

__all__ = ["reduce_inputs"]

Outputs = list[Output]


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
    composer = state.composer
    if key == "enter":
        if not composer.text.strip():
            return state
        out.append(Submit(composer.text))
        return evolve(state, composer=composer.set(""), log=state.log.append("user", composer.text))
    if key == "escape":
        out.append(Interrupt("escape"))
        return state
    if key == "c-d" and not composer.text:
        out.append(Quit())
        return state
    edited = composer.edit(key)
    return state if edited is None else evolve(state, composer=edited)


def _paste(state: AppState, item: Paste, out: Outputs) -> AppState:
    dialog = state.dialog
    if dialog is None:
        return replace(state, composer=state.composer.insert(item.text.replace("\r\n", "\n")))
    if state.render.confirm_phase is ConfirmPhase.PENDING:
        return state
    if isinstance(dialog, (PromptDialog, PickDialog)):
        return replace(state, dialog=dialog.paste(item.text))
    return state


def _next_dialog(state: AppState) -> AppState:
    render = replace(state.render, confirm_phase=ConfirmPhase.NONE)
    if not state.queued:
        return replace(state, render=render)
    return _open(replace(state, render=render, queued=state.queued[1:]), state.queued[0])


def _open(state: AppState, request: ConfirmRequest | PromptRequest | PickRequest) -> AppState:
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
    return evolve(state, log=state.log.append(item.kind, item.text, item.id, item.final))


def _unfinished(state: AppState, entry_id: str, what: str) -> tuple[AppState, int]:
    index = state.log.find(entry_id)
    if index < 0 or state.log.entries[index].final:
        return _log_error(state, f"{what}: no unfinished entry {entry_id!r}; update ignored"), -1
    return state, index


def _delta(state: AppState, item: LogDelta, out: Outputs) -> AppState:
    state, index = _unfinished(state, item.id, "log.delta")
    return state if index < 0 else evolve(state, log=state.log.delta(index, item.text))


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
        log = log.append("diff", diff)
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
    return replace(state, log=state.log.append(kind, item.message))


def _status(state: AppState, item: Status, out: Outputs) -> AppState:
    return replace(state, status=flatten(item.text))


def _working(state: AppState, item: Working, out: Outputs) -> AppState:
    message = flatten(item.message)
    return replace(state, working=message, working_since=state.now)


def _editor(state: AppState, item: EditorSet, out: Outputs) -> AppState:
    return replace(state, composer=state.composer.set(item.text))


def _clock(state: AppState, item: Clock, out: Outputs) -> AppState:
    return replace(state, now=item.now)


def _fault(state: AppState, item: Fault, out: Outputs) -> AppState:
    return replace(state, fault=item.after_bytes)


def _reflowed(row: Row, columns: int, policy: WidthPolicy, column: int | None = None) -> int:
    """Screen rows a drawn row takes once a reflowing terminal re-wraps it at ``columns``.

    With ``column``: the index of the screen row where that old column (the cursor) lands.
    Clusters move whole to the next row, as terminals wrap them; cells past the text are blanks.
    """
    x = line = old = 0
    for segment in row:
        for _, width in iter_cells(segment.text, policy):
            if column is not None and old >= column:
                return line
            if x + width > columns:
                line, x = line + 1, 0
            x, old = x + width, old + width
    if column is not None and column > old:
        return line + (x + column - old) // columns
    return line if column is not None else line + 1


def _resize(state: AppState, item: Resize, out: Outputs) -> AppState:
    # What the terminal did to our rows decides where the viewport is now; what we drew is forgotten
    # and redrawn after clearing from the new top (DESIGN, terminal facts: re-anchor + ESC[J).
    screen = state.screen
    if not screen.anchored:
        return replace(state, columns=item.columns, rows=item.rows)
    drawn = screen.drawn or ()
    cursor_row = screen.cursor[0] if screen.cursor is not None else screen.top + (len(drawn) or 1) - 1
    column = screen.cursor[1] if screen.cursor is not None else 0
    index = cursor_row - screen.top
    policy = state.config.width_policy
    reflow = state.config.resize_reflow and item.columns != screen.drawn_columns and 0 <= index < len(drawn)
    # With a cursor report we know the cursor's row; without one, terminals keep it unless it falls off.
    now = item.cursor_row if item.cursor_row is not None else min(cursor_row, item.rows - 1)
    if reflow:
        # A reflowing terminal re-wrapped every row at the new width; the cursor kept its cell.
        heights = [_reflowed(row, item.columns, policy) for row in drawn]
        line = _reflowed(drawn[index], item.columns, policy, column)
        above = sum(heights[:index]) + line
        column %= item.columns
        if item.rows == state.rows:
            # tmux keeps the screen's bottom line in place: the cursor rises by the rows gained below it.
            gained = heights[index] - 1 - line + sum(heights[index + 1 :]) - (len(drawn) - 1 - index)
            if item.cursor_row is None or (gained and item.cursor_row == cursor_row):
                # No report, or one that shows the cursor where a frame still in flight at the resize put it
                # (a stale absolute move), not where the reflow did.
                now = max(0, cursor_row - gained)
    else:
        heights = [1] * len(drawn)
        above = index
        column = min(column, item.columns - 1)
    top = now - above
    if top < 0:
        # The terminal pushed the viewport's top rows (whole or in part) into scrollback itself.
        pushed = 0
        while pushed < len(heights) and top + sum(heights[:pushed]) < 0:
            pushed += 1
        before = state.pushed_rows
        state = _account_pushed_rows(state, pushed)
        top = max(0, top + sum(heights[: state.pushed_rows - before]))
    screen = replace(state.screen, top=top, drawn=None, cursor=(now, column), broken=True)
    return replace(state, columns=item.columns, rows=item.rows, screen=screen)


def _account_pushed_rows(state: AppState, pushed: int) -> AppState:
    """The terminal pushed the viewport's top ``pushed`` rows into scrollback: committed log rows count as inserted.

    Only rows drawn exactly as they would be inserted, right after the rows already inserted, qualify;
    anything else the terminal pushed (uncommitted text, dialog, status) is beyond our reach.
    """
    drawn = state.screen.drawn
    render = state.render
    if drawn is None or render.visible_start != render.inserted_until:
        return state
    pending, committed = log_rows(state.log, state.columns, state.config.width_policy)
    count = 0
    limit = min(pushed, state.screen.drawn_log_rows, committed, len(pending), len(drawn))
    while count < limit and drawn[count] == draw_log_row(pending[count], state.columns, state.config.width_policy):
        count += 1
    if not count:
        return state
    inserted = render.inserted_until + count
    render = replace(render, inserted_until=inserted, visible_start=max(render.visible_start, inserted))
    return replace(state, log=state.log.advance(pending[:count]), render=render, pushed_rows=state.pushed_rows + count)


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
    ConfirmCancel: _cancel,
    PermissionPreview: _preview,
    PermissionReady: _ready,
    LegacyText: _legacy,
    Notify: _notify,
    Working: _working,
    EditorSet: _editor,
    Clock: _clock,
    Fault: _fault,
    Resize: _resize,
}


def reduce_inputs(state: AppState, inputs: Iterable[Input]) -> tuple[AppState, list[Output]]:
    """Apply ``inputs`` in order; return the new state and the messages to send out."""
    render: RenderState = state.render
    if render.confirm_phase is ConfirmPhase.PENDING and state.screen.dialog_drawn:
        render = replace(render, confirm_phase=ConfirmPhase.ACTIVE)
    if render is not state.render or state.log_cleared or state.pushed_rows:
        state = evolve(state, render=render, log_cleared=False, pushed_rows=0)
    out: Outputs = []
    items = inputs if isinstance(inputs, (list, tuple)) else list(inputs)
    index = 0
    while index < len(items):
        item = items[index]
        if state.legacy_diff and not isinstance(item, (LegacyText, Clock)):
            state = replace(state, legacy_diff=False)  # a legacy diff ends at the next other message
        if type(item) is LogAppend and item.id is None:
            # A run of appends without ids (a burst of output) extends the log once, not entry by entry.
            run: list[tuple[str, str, bool]] = []
            while index < len(items):
                append = items[index]
                if type(append) is not LogAppend or append.id is not None:
                    break
                run.append((append.kind, append.text, append.final))
                index += 1
            state = evolve(state, log=state.log.extend(run))
            continue
        state = _HANDLERS[type(item)](state, item, out)
        index += 1
    return state, out
