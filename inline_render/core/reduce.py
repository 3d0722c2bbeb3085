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
* A ``Resize`` goes to ``reduce_resize`` (its own module: the transition and the helpers only it uses).
* Rows of open text a shrink pushed into history are adopted (counted as inserted, not written again) once the
  log commits them as they were drawn (``pushed``), checked after every tick's inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from ..inputs import (
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
from ..outputs import Interrupt, Output
from ..text.cells import flatten
from ..text.highlight import lexer_for
from ..text.spans import ansi_row
from ..text.style import row_text
from ..widgets.composer import normalize_key
from ..widgets.dialogs import FormDialog, PickDialog, PromptDialog, open_dialog
from ..widgets.editor import apply_completions, composer_key, composer_paste, composer_set, with_history
from .app import AppState
from .evolve import copier, evolve
from .preflight import is_diff_line, match_preview_header, match_ready, preview_header, ready_line
from .pushed import adopt_pushed_open
from .reduce_resize import reduce_resize
from .state import ConfirmPhase, RenderState

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
    pushed = state.pushed_open
    if pushed is not None:  # the rows after the last inserted one are the first the cleared log inserts
        pushed = replace(pushed, after=0) if pushed.after == state.render.inserted_until else None
    log = state.log.cleared()
    return replace(state, log=log, render=render, log_cleared=True, legacy_diff=False, pushed_open=pushed)


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
    Resize: reduce_resize,
}


def reduce_inputs(state: AppState, inputs: Iterable[Input]) -> tuple[AppState, list[Output]]:
    """Apply ``inputs`` in order; return the new state and the messages to send out."""
    render: RenderState = state.render
    if render.confirm_phase is ConfirmPhase.PENDING and state.screen.dialog_drawn:
        render = replace(render, confirm_phase=ConfirmPhase.ACTIVE)
    if (
        render is not state.render
        or state.log_cleared
        or state.pushed_rows
        or state.kept_rows
        or state.replayed
        or state.adopted_rows
    ):
        state = evolve(
            state, render=render, log_cleared=False, pushed_rows=0, kept_rows=0, replayed=None, adopted_rows=()
        )
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
    if state.pushed_open is not None:
        state = adopt_pushed_open(state)
    return state, out
