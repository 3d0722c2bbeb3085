"""A codelia session's answers to its own requests: ``initialize``, ``run.start``, ``run.cancel`` and errors.

A command's request (``commands``) carries its own ``on_result``; a late answer
to a request that timed out is dropped quietly.
"""

from __future__ import annotations

from typing import Any

from ...errors import InvalidInput
from ...inputs import EditorSet
from ..messages import ErrorInfo, ErrorResponse, Response, excerpt
from . import methods as m
from .config import WORKING
from .state import Run, SessionState, log
from .step import Out, Pending

__all__ = ["Answers"]


class Answers(SessionState):
    """The session's handling of the runtime's responses (a mixin of ``Session``)."""

    def _on_response(self, message: Response | ErrorResponse, out: Out) -> None:
        rid = message.id
        if rid is not None and rid not in self._outgoing and not isinstance(rid, str):
            rid = str(rid)  # a lenient runtime echoing our string id as a number
        pending = self._outgoing.pop(rid, None) if rid is not None else None
        if pending is None:
            if rid in self._timed_out:
                self._timed_out.discard(rid)  # its timeout was reported already
            elif isinstance(message, ErrorResponse):
                self._line(out, "status", f"The runtime reported an error: {excerpt(message.error.message, 200)}")
            else:
                self._line(out, "status", f"Ignored a response for unknown request id {excerpt(message.id)}.")
            return
        if rid == self.replaying:
            self._replay_done(out)
        if isinstance(message, ErrorResponse):
            self._request_failed(pending, message.error, out)
        elif pending.on_result is not None:
            pending.on_result(message.result, out)
        elif pending.method == m.INITIALIZE:
            self._initialized(message.result, out)
        elif pending.method == m.RUN_START:
            self._run_started(message.result, out)
        elif pending.method == m.RUN_CANCEL:
            self._cancel_answered(pending.run_id, message.result, out)

    # --- answers to our requests -----------------------------------------------------------------

    def _initialized(self, result: Any, out: Out) -> None:
        try:
            self.server = m.InitializeResult.from_json(result, "initialize result")
        except InvalidInput as exc:
            self.server = m.InitializeResult(protocol_version=m.PROTOCOL_VERSION)
            self._line(
                out,
                "status",
                f"Invalid initialize answer from the runtime ({exc}); assuming it supports nothing optional.",
            )
            return
        if str(self.server.protocol_version) != m.PROTOCOL_VERSION:
            # Seed 004: the runtime answers the version it speaks, the same one when compatible.
            # Another one is no business of the user's while everything else works.
            log.debug("runtime protocol version %r, this UI %r", self.server.protocol_version, m.PROTOCOL_VERSION)
        self._send_context(out)

    def _run_started(self, result: Any, out: Out) -> None:
        self._starting = None
        try:
            run_id = m.RunStartResult.from_json(result, "run.start result").run_id
        except InvalidInput as exc:
            self._cancel_on_start = False
            self._set_working("", out)
            self._line(out, "error", f"Could not start the run: {exc}")
            return
        run = self._runs.setdefault(run_id, Run(run_id))
        self._current = run_id
        if self._cancel_on_start:
            self._cancel_on_start = False
            self._cancel(run, out)

    def _cancel_answered(self, run_id: str | None, result: Any, out: Out) -> None:
        """``run.cancel``'s ``{ok, status?}``: ok means a ``cancelled`` status follows; not ok, it may be over."""
        run = self._runs.get(run_id) if run_id is not None else None
        if run is None or run.ended or not isinstance(result, dict) or result.get("ok") is not False:
            return
        status = result.get("status")
        if status in m.TERMINAL_STATUSES or status is None:
            # Seed 004: a run that already ended answers ok: false (or its final status).
            self._end_run(run, status if isinstance(status, str) else "completed", out, None)
        else:
            run.cancel_sent = False  # still running: Esc may try again
            self._set_working(WORKING, out)
            self._line(out, "status", "The runtime could not cancel the run.")

    def _request_failed(self, pending: Pending, error: ErrorInfo, out: Out) -> None:
        method, run_id = pending.method, pending.run_id
        reason = excerpt(error.message, 200)
        run = self._runs.get(run_id) if run_id is not None else None
        if method == m.RUN_START:
            self._starting, self._cancel_on_start = None, False
            self._set_working("", out)
            if error.code == m.ERROR_RUNTIME_BUSY:
                self._line(out, "status", "The runtime is busy with another run; your prompt is back in the composer.")
                if pending.text:
                    out.inputs.append(EditorSet(pending.text))
            elif error.code == m.ERROR_USER_CANCELLED:
                self._line(out, "status", "Run cancelled.")
            else:
                self._line(out, "error", f"Could not start the run: {reason}")
        elif method == m.RUN_CANCEL:
            if run is not None and error.code == m.ERROR_RUN_NOT_FOUND:
                if not run.ended:  # the runtime knows no such run: it is over, stop waiting for it
                    self._end_run(run, "cancelled", out, ("status", "Run cancelled."))
            else:
                if run is not None:
                    run.cancel_sent = False
                    self._set_working(WORKING, out)
                self._line(out, "error", f"Could not cancel the run: {reason}")
        elif error.code == m.ERROR_RUNTIME_BUSY:
            self._line(out, "status", f"The runtime is busy ({method}); try again when the run is over.")
        elif error.code == m.ERROR_USER_CANCELLED:
            self._line(out, "status", "Cancelled.")
        else:
            self._line(out, "error", f"The runtime refused {method}: {reason}")
