"""A codelia session's notifications from the runtime: agent events, run status and context, notices, the spinner.

``Signals`` maps each to core inputs (log entries, spinner, status line);
``SIGNALS`` names its handler for each method.  A signal sent as a request is
answered too, so the runtime is not left waiting.
"""

from __future__ import annotations

from typing import Any

from ...errors import InvalidInput
from ...inputs import NOTIFY_TYPES, EditorSet, Notify
from ..events import (
    CompactionCompleteEvent,
    CompactionStartEvent,
    LlmRetryEvent,
    StepCompleteEvent,
    StepStartEvent,
    UnknownEvent,
)
from ..messages import INVALID_PARAMS, ErrorInfo, ErrorResponse, RequestId, Response, excerpt
from . import methods as m
from .config import WORKING
from .dialogs import DIALOG_METHODS
from .state import RUN_LABELS, Run, SessionState, log
from .step import Out

__all__ = ["SIGNALS", "Signals"]


class Signals(SessionState):
    """The session's handlers of the runtime's notifications (a mixin of ``Session``)."""

    def _on_signal(self, method: str, params: Any, out: Out, rid: RequestId | None) -> None:
        handler = SIGNALS.get(method)
        if handler is None:
            if method in DIALOG_METHODS:
                self._line(out, "status", f"Ignored {method} without an id: it cannot be answered.")
            else:  # a newer runtime's notification: nothing for the user to act on
                log.debug("ignored runtime notification %r", method)
            return
        try:
            typed = m.PARAMS_BY_METHOD[method].from_json({} if params is None else params, f"{method} params")
        except InvalidInput as exc:
            if rid is not None:
                out.send.append(ErrorResponse(rid, ErrorInfo(INVALID_PARAMS, f"Invalid params: {exc}")))
            else:
                self._line(out, "status", f"Ignored a bad message from the runtime (invalid params: {exc})")
            return
        handler(self, typed, out)
        if rid is not None:
            out.send.append(Response(rid, {}))

    def _on_agent_event(self, params: m.AgentEventParams, out: Out) -> None:
        run = self._runs.get(params.run_id)
        if self.replaying is not None and (run is None or run.replayed):
            run = self._replayed_run(params.run_id)
            if run is not None:  # None: that run is in the scrollback already
                out.inputs += self._log.event(run.id, params.event, legacy=False, replay=True)
            return
        if run is None:
            self._once(f"run:{params.run_id}", f"Ignored events of unknown run {excerpt(params.run_id)}.", out)
            return
        if run.ended:
            return  # e.g. events still in flight when a cancel took effect
        if run.last_seq is not None:
            if params.seq <= run.last_seq:
                return  # a duplicate
            if params.seq > run.last_seq + 1 and not run.gap_reported:
                run.gap_reported = True
                missing = f"{run.last_seq + 1}" + (f"-{params.seq - 1}" if params.seq > run.last_seq + 2 else "")
                self._line(out, "status", f"Some events of run {excerpt(run.id)} were lost (seq {missing}).")
        run.last_seq = params.seq
        event = params.event
        out.events.append(event)
        if isinstance(event, UnknownEvent):
            log.debug("ignored agent event of unknown type %r", event.type)  # a newer runtime's: quiet
        elif isinstance(event, (StepStartEvent, StepCompleteEvent, LlmRetryEvent)):
            self._quiet_event(run, event, out)
        elif isinstance(event, CompactionStartEvent):
            self._set_working("Compacting the conversation", out)
        elif isinstance(event, CompactionCompleteEvent):
            self._set_working(WORKING, out)
            if event.compacted:
                self._line(out, "status", "The conversation was compacted to free context.")
        else:
            out.inputs += self._log.event(run.id, event, legacy=not self.structured_preflight)

    def _quiet_event(self, run: Run, event: StepStartEvent | StepCompleteEvent | LlmRetryEvent, out: Out) -> None:
        """Steps and retries change the spinner; a retry leaves at most one dim line per run."""
        if isinstance(event, StepStartEvent):
            self._set_working(event.title or WORKING, out)
        elif isinstance(event, StepCompleteEvent):
            self._set_working(WORKING, out)
        else:
            attempt = f" (attempt {event.attempt})" if event.attempt else ""
            self._set_working(f"Retrying the model call{attempt}", out)
            if not run.retry_shown:
                run.retry_shown = True
                why = f": {event.reason}" if event.reason else ""
                self._line(out, "status", f"The model call failed and is being retried{why}.")

    def _on_run_status(self, params: m.RunStatusParams, out: Out) -> None:
        run = self._runs.get(params.run_id)
        if run is None:
            if params.status in m.TERMINAL_STATUSES:
                return  # nothing to end
            run = self._runs[params.run_id] = Run(params.run_id)  # a run the runtime started itself
            self._current = run.id
        if run.ended:
            return  # cancelled (or otherwise over) is final
        if params.status in m.TERMINAL_STATUSES:
            message = f" {params.message}" if params.message else ""
            lines = {
                "cancelled": ("status", f"Run cancelled.{message}"),
                "error": ("error", f"Run failed:{message or ' the runtime reported an error.'}"),
            }
            self._end_run(run, params.status, out, lines.get(params.status))
            return
        run.status = params.status
        self._set_status("run", RUN_LABELS.get(params.status, excerpt(params.status)), out)
        self._set_working("" if params.status == "awaiting_ui" else params.message or WORKING, out)

    def _on_run_context(self, params: m.RunContextParams, out: Out) -> None:
        left = params.context_left_percent
        self._set_status("context", "" if left is None else f"{min(max(round(left), 0), 100)}% context left", out)

    def _on_diagnostics(self, params: m.DiagnosticsParams, out: Out) -> None:
        if self.config.show_diagnostics:
            self._line(out, "status", f"diagnostics: {excerpt(params.to_json(), 200)}")
        else:
            log.debug("run.diagnostics %s", params.to_json())

    def _on_notify(self, params: m.NotifyParams, out: Out) -> None:
        kind = params.notify_type if params.notify_type in NOTIFY_TYPES else "info"
        out.inputs += [*self._log.finish_stream(), Notify(params.message, kind)]

    def _on_working(self, params: m.WorkingParams, out: Out) -> None:
        self._set_working(params.message, out)

    def _on_set_editor_text(self, params: m.SetEditorTextParams, out: Out) -> None:
        out.inputs.append(EditorSet(params.text))


SIGNALS: dict[str, Any] = {
    m.AGENT_EVENT: Signals._on_agent_event,
    m.RUN_STATUS: Signals._on_run_status,
    m.RUN_CONTEXT: Signals._on_run_context,
    m.RUN_DIAGNOSTICS: Signals._on_diagnostics,
    m.UI_NOTIFY: Signals._on_notify,
    m.UI_WORKING: Signals._on_working,
    m.UI_SET_EDITOR_TEXT: Signals._on_set_editor_text,
}
