"""A codelia session's state, its run bookkeeping and the helpers its handlers share (``SessionState``).

``Session`` is built on it: ``signals`` maps the runtime's notifications (agent
events, run status...) and ``answers`` the answers to our requests, each a
mixin over this state; ``session`` holds the public calls and the dispatch.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...inputs import Status, Working
from ..context import UiContext
from ..facts import RunEnded
from ..jsonobj import JsonObject
from ..legacy import LegacyPreflight
from ..messages import Notification, Request, RequestId
from ..runs import RunQueries
from ..transcript import Transcript
from . import catalog as c
from . import methods as m
from .commands import Commands
from .config import SessionConfig
from .dialogs import Dialogs
from .step import Out, Pending

__all__ = ["RUN_LABELS", "Run", "SessionState", "log"]

# One logger for the whole session, whichever of its modules logs (``codelia.session``, as before the split).
log = logging.getLogger(__name__.rpartition(".")[0] + ".session")

RUN_LABELS = {
    "running": "running",
    "awaiting_ui": "waiting for you",
    "completed": "done",
    "error": "failed",
    "cancelled": "cancelled",
}


@dataclass(slots=True)
class Run:
    """One run of the runtime's, as this session follows it."""

    id: str
    status: str = "running"
    last_seq: int | None = None
    gap_reported: bool = False
    cancel_sent: bool = False
    replayed: bool = False  # a past run shown by a session.history replay
    retry_shown: bool = False  # its one llm.retry line was shown

    @property
    def ended(self) -> bool:
        return self.status in m.TERMINAL_STATUSES


class SessionState(RunQueries):
    """What one session knows, and the bookkeeping its handlers share (runs, log lines, spinner, status)."""

    def __init__(self, config: SessionConfig | None = None) -> None:
        self.config = config or SessionConfig()
        self.server: m.InitializeResult | None = None  # the runtime's initialize answer, once it came
        self.exited = False
        self._next_id = 1
        self._outgoing: dict[RequestId, Pending] = {}
        self._timed_out: set[RequestId] = set()
        self._runs: dict[str, Run] = {}
        self._current: str | None = None
        self._starting: RequestId | None = None  # run.start sent, not answered yet
        self._cancel_on_start = False
        self._dialogs = Dialogs(self.config)
        self._log = Transcript(self.config.limits)
        self._legacy = LegacyPreflight()
        self._reported: set[str] = set()
        self._status_parts = {"run": "", "context": ""}
        self._status_shown = ""
        self._working = ""
        self.session_id: str | None = None  # the session runs continue (set by /resume)
        self._context: UiContext | None = None  # the latest ui.context.update, also run.start's ui_context
        self._context_sent: UiContext | None = None
        self.replaying: RequestId | None = None  # session.history sent, its replayed events arriving
        self.commands = Commands(self)

    # --- queries ---------------------------------------------------------------------------------

    @property
    def structured_preflight(self) -> bool:
        """Both sides announced ``supports_permission_preflight_events``: legacy text is not parsed."""
        return (
            self.config.supports_permission_preflight_events
            and self.server is not None
            and self.server.server_capabilities.supports_permission_preflight_events
        )

    @property
    def busy(self) -> bool:
        """A run is starting or in progress."""
        return self._starting is not None or self.current_run is not None

    def pending_requests(self) -> dict[RequestId, str]:
        """Requests sent to the runtime and not answered yet: id -> method."""
        return {rid: pending.method for rid, pending in self._outgoing.items()}

    @property
    def context(self) -> UiContext | None:
        """The latest UI context (``set_context``)."""
        return self._context

    @property
    def server_capabilities(self) -> m.Capabilities:
        """What the runtime announced (nothing optional before it answered ``initialize``)."""
        return self.server.server_capabilities if self.server is not None else m.Capabilities()

    # --- helpers ---------------------------------------------------------------------------------

    def request(
        self,
        method: str,
        params: JsonObject,
        out: Out,
        run_id: str | None = None,
        *,
        text: str | None = None,
        on_result: Callable[[Any, Out], None] | None = None,
    ) -> RequestId:
        """Send request ``method``; a success goes to ``on_result``, an error is shown as a line."""
        rid = str(self._next_id)  # seed 004: RpcId = string
        self._next_id += 1
        self._outgoing[rid] = Pending(method, run_id, text, on_result)
        out.send.append(Request(rid, method, params.to_json()))
        return rid

    def line(self, out: Out, kind: str, text: str) -> None:
        """One line of the UI's own in the log."""
        self._line(out, kind, text)

    def _send_context(self, out: Out) -> None:
        context = self._context
        if context is None or self.server is None or self.exited or context == self._context_sent:
            return
        self._context_sent = context
        out.send.append(Notification(c.UI_CONTEXT_UPDATE, context.to_json()))

    def _replayed_run(self, run_id: str) -> Run | None:
        """The replayed run ``run_id``, or None when that run is in the scrollback already."""
        run = self._runs.get(run_id)
        if run is None:
            run = self._runs[run_id] = Run(run_id, status="replaying", replayed=True)
        return run if run.status == "replaying" else None

    def _replay_done(self, out: Out) -> None:
        """``session.history`` answered (or timed out): the replayed runs are over."""
        self.replaying = None
        out.inputs += self._log.finish_stream()
        for run in self._runs.values():
            if run.status == "replaying":
                run.status = "completed"

    def _cancel(self, run: Run, out: Out) -> None:
        if run.cancel_sent:
            return  # Esc pressed twice: one run.cancel is enough
        run.cancel_sent = True
        if self.server is not None and not self.server.server_capabilities.supports_run_cancel:
            self._line(out, "status", "This runtime cannot cancel runs.")
            return
        self.request(m.RUN_CANCEL, m.RunCancelParams(run.id, self.config.cancel_reason), out, run.id)
        # codelia answers {ok: true} at once but ends the run only once its pending dialog is
        # answered: a cancel dismisses the run's dialogs, as the user would.
        self._dismiss_dialogs(run, out)
        self._set_working("Cancelling", out)

    def _dismiss_dialogs(self, run: Run, out: Out) -> None:
        self._dialogs.dismiss(run.id, out, answer=not self.exited)

    def _run_ended(self, run_id: str) -> bool:
        """Run ``run_id`` is known and over."""
        run = self._runs.get(run_id)
        return run is not None and run.ended

    def _end_run(self, run: Run, status: str, out: Out, line: tuple[str, str] | None) -> None:
        run.status = status
        out.events.append(RunEnded(run.id, status, line[1] if line is not None else ""))
        out.inputs += self._log.finish_stream(run.id)
        self._dismiss_dialogs(run, out)
        self._set_working("", out)
        if line is not None:
            self._line(out, *line)
        self._set_status("run", RUN_LABELS[status], out)

    def _line(self, out: Out, kind: str, text: str) -> None:
        out.inputs += self._log.note(kind, text)

    def _once(self, key: str, text: str, out: Out) -> None:
        if key not in self._reported:
            self._reported.add(key)
            self._line(out, "status", text)

    def _set_working(self, message: str, out: Out) -> None:
        if message != self._working:
            self._working = message
            out.inputs.append(Working(message))

    def _set_status(self, part: str, text: str, out: Out) -> None:
        self._status_parts[part] = text
        shown = " \u00b7 ".join(value for value in self._status_parts.values() if value)
        if shown != self._status_shown:
            self._status_shown = shown
            out.inputs.append(Status(shown))
