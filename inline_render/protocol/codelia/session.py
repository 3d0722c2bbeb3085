"""The sans-I/O session: runtime messages in; core inputs and messages to send back out.

``Session`` knows nothing of pipes, processes or clocks.  Every method returns
a ``Step``: the inputs to feed to the core renderer and the JSON-RPC messages
to write to the runtime.  The same calls in the same order always give the same
steps, so a recorded session replays exactly.  Bad input never raises: it earns
a JSON-RPC error response where one is owed, otherwise one visible status line,
and later messages are processed as usual.  What is merely unknown (a future
event type or notification) is quiet: a ``logging`` debug record.

The wire is seed 004's (codelia): string request ids, ``protocol_version``
"0", ``run.start {input: {type: "text", text}, session_id?, ui_context?, meta?}``.
The slash commands that talk to the runtime are in ``commands``; the session's
state and run bookkeeping in ``state``, the runtime's notifications in
``signals``, the answers to our requests in ``answers``, the runtime's dialogs
in ``dialogs``.
"""

from typing import Any

from ...inputs import ConfirmCancel
from ...outputs import ConfirmAnswer, Interrupt, Output, PickAnswer, PromptAnswer, Submit
from ..context import UiContext
from ..facts import RunStarted
from ..jsonobj import JsonObject
from ..messages import (
    METHOD_NOT_FOUND,
    Decoded,
    ErrorInfo,
    ErrorResponse,
    Malformed,
    Notification,
    Request,
    RequestId,
    TextLine,
    excerpt,
)
from . import methods as m
from .answers import Answers
from .config import MARKDOWN_RENDERS, WORKING, SessionConfig
from .dialogs import DIALOG_METHODS
from .signals import SIGNALS, Signals
from .step import Out, Step

__all__ = ["MARKDOWN_RENDERS", "WORKING", "Session", "SessionConfig", "Step"]


class Session(Signals, Answers):
    """One UI <-> runtime conversation, from ``initialize`` to ``runtime_exited``."""

    # --- UI -> runtime ---------------------------------------------------------------------------

    def initialize(self) -> Step:
        """The ``initialize`` request that opens the session."""
        out = Out()
        self.request(
            m.INITIALIZE, m.InitializeParams(m.PROTOCOL_VERSION, self.config.client, self.config.capabilities()), out
        )
        return out.step()

    def start_run(self, prompt: str, echo: bool = True, meta: dict[str, Any] | None = None) -> Step:
        """Start a run with ``prompt`` (refused while another run is in progress).

        ``echo`` logs the prompt as a 'user' entry; a ``Submit`` from the core
        does not need it, the core logged the composer's text itself.  The run
        continues ``session_id`` (after ``/resume``) and carries the latest UI
        context and ``meta``.
        """
        out = Out()
        if self.exited:
            self._line(out, "error", "The runtime is not running.")
        elif self.busy:
            self._line(out, "status", "A run is in progress; press Esc to cancel it first.")
        else:
            if echo:
                self._line(out, "user", prompt)
            context = self._context.to_json() if self._context is not None else None
            params = m.RunStartParams(m.TextInput("text", prompt), self.session_id, context or None, meta)
            self._starting = self.request(m.RUN_START, params, out, text=prompt)
            out.events.append(RunStarted(prompt))
            self._set_working(WORKING, out)
        return out.step()

    def cancel_run(self) -> Step:
        """Ask the runtime to cancel the run in progress; calling it again does nothing."""
        out = Out()
        if self._starting is not None:
            if not self._cancel_on_start:
                self._cancel_on_start = True  # sent as soon as the runtime names the run
                self._set_working("Cancelling", out)
        elif (run_id := self.current_run) is not None:
            self._cancel(self._runs[run_id], out)
        return out.step()

    def set_context(self, context: UiContext) -> Step:
        """The user's working context (cwd, workspace root...): ``ui.context.update`` when it changed.

        Sent once the runtime answered ``initialize`` (at once if it has); the
        client debounces frequent changes.  Runs carry the latest as ``ui_context``.
        """
        self._context = context
        out = Out()
        self._send_context(out)
        return out.step()

    def command(self, text: str) -> Step | None:
        """A slash command that talks to the runtime (``/resume``, ``/model``, ``/skills``, ``/mcp``).

        None when ``text`` is not one of them (the application handles its own).
        """
        out = Out()
        return out.step() if self.commands.run(text, out) else None

    def handle_output(self, output: Output) -> Step:
        """What a core output means for the runtime: a run, a dialog's answer, a cancel."""
        if isinstance(output, PickAnswer) and self.commands.owns(output.id):
            out = Out()
            self.commands.picked(output.id, output.ids, out)
            return out.step()
        if isinstance(output, Submit):
            return self.start_run(output.text, echo=False) if output.text.strip() else Step()
        if isinstance(output, Interrupt):
            return self.cancel_run()
        if isinstance(output, ConfirmAnswer):
            reason = output.reason if not output.ok else None  # a reason explains a denial
            scope = output.scope if output.ok and output.remember else None
            return self._answer(output.id, m.ConfirmResult(output.ok, output.remember, reason, scope))
        if isinstance(output, PromptAnswer):
            return self._answer(output.id, m.PromptResult(output.value))
        if isinstance(output, PickAnswer):
            return self._answer(output.id, m.PickResult(tuple(output.ids)))
        return Step()  # Quit: ending the session is the client's business

    # --- runtime -> UI ---------------------------------------------------------------------------

    def receive(self, item: Decoded) -> Step:
        """Handle one decoded stdout line of the runtime."""
        out = Out()
        try:
            if not isinstance(item, TextLine):  # a message ends a legacy diff block
                out.inputs += self._log.legacy(self._legacy.flush(), self.current_run)
            self._dispatch(item, out)
        except Exception as exc:  # last line of defence: the UI never dies of its runtime
            self._line(out, "status", f"Internal error while handling a runtime message: {excerpt(exc)}")
        return out.step()

    def stderr_line(self, text: str) -> Step:
        """A line the runtime wrote to stderr: shown as a status line."""
        out = Out()
        if text.strip():
            self._line(out, "status", text.rstrip())
        return out.step()

    def request_timed_out(self, request_id: RequestId, seconds: float) -> Step:
        """The runtime did not answer ``request_id`` in time (the client measures the time)."""
        out = Out()
        pending = self._outgoing.pop(request_id, None)
        if pending is not None:
            self._timed_out.add(request_id)  # so a late answer is dropped quietly
            method, run_id = pending.method, pending.run_id
            if request_id == self.replaying:
                self._replay_done(out)
            if request_id == self._starting:
                self._starting, self._cancel_on_start = None, False
                self._set_working("", out)
            elif method == m.RUN_CANCEL and run_id in self._runs:
                self._runs[run_id].cancel_sent = False  # pressing Esc again retries
            self._line(out, "error", f"The runtime did not answer {method} within {seconds:g} s.")
        return out.step()

    def runtime_exited(self, returncode: int | None, expected: bool = False) -> Step:
        """The runtime process is gone: end its runs with an error line and close its dialogs."""
        out = Out()
        out.inputs += self._log.legacy(self._legacy.flush(), self.current_run)
        if self.exited:
            return out.step()
        self.exited = True
        how = "The runtime exited" + ("" if returncode is None else f" (exit code {returncode})")
        reported = False
        for run in [run for run in self._runs.values() if not run.ended]:
            self._end_run(run, "error", out, ("error", f"{how} during run {run.id}."))
            reported = True
        if self._starting is not None:
            self._starting = None
            self._line(out, "error", f"{how} before the run started.")
            reported = True
        closed = [*self._dialogs.close_all(), *self.commands.close_all()]
        out.inputs += [ConfirmCancel(dialog_id) for dialog_id in closed]
        self.replaying = None
        self._outgoing.clear()
        if not reported and not expected:
            self._line(out, "error" if returncode else "status", f"{how}.")
        self._set_working("", out)
        return out.step()

    # --- dispatch --------------------------------------------------------------------------------

    def _dispatch(self, item: Decoded, out: Out) -> None:
        if isinstance(item, TextLine):
            if not self.structured_preflight:
                out.inputs += self._log.legacy(self._legacy.feed(item.text), self.current_run)
            elif item.text.strip():
                self._line(out, "status", item.text.strip())
        elif isinstance(item, Malformed):
            if (reply := item.error_response()) is not None:
                out.send.append(reply)
            suffix = f": {item.excerpt}" if item.excerpt else ""
            self._line(out, "status", f"Ignored a bad message from the runtime ({item.message}){suffix}")
        elif isinstance(item, Request):
            if item.method in DIALOG_METHODS:
                self._dialogs.open(item, out, self._current, self._run_ended)
            elif item.method in SIGNALS:
                # A signal sent as a request still gets an answer: the runtime is not left waiting.
                self._on_signal(item.method, item.params, out, item.id)
            else:
                out.send.append(
                    ErrorResponse(item.id, ErrorInfo(METHOD_NOT_FOUND, f"Method not found: {excerpt(item.method)}"))
                )
        elif isinstance(item, Notification):
            self._on_signal(item.method, item.params, out, None)
        else:
            self._on_response(item, out)

    def _answer(self, dialog_id: str, result: JsonObject) -> Step:
        response = self._dialogs.answer(dialog_id, result)
        if response is None or self.exited:
            return Step()  # closed meanwhile (run cancelled, runtime gone): nobody is waiting
        return Step(send=(response,))
