"""llm-do's non-interactive contract (seed 000): events to stderr, the final result to stdout.

Two output codecs over the one normalized model: ``LlmDoTranslator`` turns the
session's normalized events (``protocol.facts``: a run's start, its agent
events, its end) and the approval requests of the core into seed 000's events
(``llmdo_events``); ``LlmDoWriter`` writes them as ``--json`` (JSON Lines) or
``--headless`` (strict ASCII text at a verbosity of 0, 1 or 2) and, at the end,
the result.  Nothing here decides anything the session has not decided: the
translation is a pure mapping plus the little state the seed's shapes need (is
an answer streaming, which tool call an approval is about).

How the normalized events map:

=======================================  ==================================================
run asked for (``RunStarted``)           ``initial_request`` (``user_input``: the prompt)
first ``text`` of an answer              ``text_response`` start (``is_complete`` false), then a delta
each ``text``                            ``text_response`` delta (``is_delta``: what was appended)
Lemon's snapshot of the answer so far     ``text_response`` delta: what the snapshot appends (start first)
``final``, or the answer interrupted     ``text_response`` complete (the whole answer)
  by a tool call or an error
``tool_call`` / ``tool_result``          ``tool_call`` / ``tool_result``
``step_start`` / ``step_complete``       ``status`` phase ``step``, state ``start`` / ``end`` (duration)
``llm.retry``, ``compaction_*``          ``status`` phase ``model_request`` / ``compaction``
``error``                                ``error`` (``error_type`` ``agent_error``)
run ended (``RunEnded``)                 ``completion``; ``error`` (``run_error``); ``status`` run cancelled
a confirm dialog                         ``approval_request`` (tool and args of the call it is about)
=======================================  ==================================================

Reasoning, permission previews and hidden user messages have no seed 000 event and are not written;
``deferred_tool`` has no source in the codelia wire (``DeferredToolEvent`` is there for a dialect that has one).

The result (seed: "the last assistant message") is the last complete answer of the last run, if that run
completed (a failed or cancelled run has none).  ``--json`` writes it as
one JSON object ``{"worker": ..., "output": <text or null>}`` (the seed names no shape: this one is
ours); ``--headless`` writes the text itself, with control characters made visible.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Any, TextIO

from ...inputs import ConfirmRequest
from ...text.cells import sanitize
from ..display import compact_json
from ..events import (
    CompactionCompleteEvent,
    CompactionStartEvent,
    FinalEvent,
    LlmRetryEvent,
    PermissionPreviewEvent,
    StepCompleteEvent,
    StepStartEvent,
    TextEvent,
    TextSnapshotEvent,
)
from ..events import ErrorEvent as AgentErrorEvent
from ..events import ToolCallEvent as AgentToolCall
from ..events import ToolResultEvent as AgentToolResult
from ..facts import RunEnded, RunStarted, SessionEvent
from ..jsonl import ascii_json
from .events import (
    ApprovalOutcome,
    ApprovalRequestEvent,
    CompletionEvent,
    ErrorEvent,
    InitialRequestEvent,
    LlmDoEvent,
    StatusEvent,
    TextResponseEvent,
    ToolCallEvent,
    ToolResultEvent,
    Truncation,
    ascii_text,
    encode_json,
)

__all__ = ["DEFAULT_WORKER", "ApprovalPolicy", "EventFormat", "LlmDoTranslator", "LlmDoWriter"]

DEFAULT_WORKER = "worker"  # the seed parser's name for a worker that has none


class ApprovalPolicy(enum.Enum):
    """How approval requests are answered: by the user, or by ``--approve-all`` / ``--strict``."""

    ASK = "ask"  # interactive: the user answers; non-interactive: the run fails (nobody can answer)
    APPROVE_ALL = "approve_all"
    STRICT = "strict"

    @property
    def outcome(self) -> ApprovalOutcome:
        """What a non-interactive run makes of a request under this policy."""
        return {
            ApprovalPolicy.ASK: ApprovalOutcome.UNANSWERED,
            ApprovalPolicy.APPROVE_ALL: ApprovalOutcome.APPROVED,
            ApprovalPolicy.STRICT: ApprovalOutcome.DENIED,
        }[self]


class EventFormat(enum.Enum):
    """``--json`` or ``--headless``."""

    JSON = "json"
    TEXT = "text"


def _args(value: Any) -> dict[str, Any]:
    """A tool call's arguments as the seed's ``args`` object (a non-object value is kept under ``value``)."""
    if isinstance(value, dict):
        return value
    return {} if value is None or value == [] else {"value": value}


class LlmDoTranslator:
    """Normalized session events and approval requests in; seed 000 events out."""

    __slots__ = ("_calls", "_last_answer", "_preview", "_stream", "result", "worker")

    def __init__(self, worker: str = DEFAULT_WORKER) -> None:
        self.worker = worker
        self.result: str | None = None
        """The last complete answer of the last run, once that run completed (what goes to stdout)."""
        self._stream: str | None = None  # the answer streaming now
        self._last_answer: str | None = None  # the run's last complete answer (a ``final`` repeating it is no news)
        self._calls: dict[str, AgentToolCall] = {}  # tool_call_id (or tool) -> its call, for approvals
        self._preview: tuple[str, str | None] | None = None  # (tool, tool_call_id) of the last permission preview

    def events(self, facts: Iterable[SessionEvent]) -> list[LlmDoEvent]:
        """The seed events of a batch of normalized events, in order."""
        out: list[LlmDoEvent] = []
        for fact in facts:
            out += self._one(fact)
        return out

    def approval(self, request: ConfirmRequest, outcome: ApprovalOutcome) -> ApprovalRequestEvent:
        """The ``approval_request`` of a confirm dialog: the tool and arguments of the call it is about."""
        call: AgentToolCall | None = None
        if self._preview is not None:
            tool, call_id = self._preview
            call = self._calls.get(call_id or tool) or self._calls.get(tool)
        elif self._calls:
            call = list(self._calls.values())[-1]  # no preview: the latest call is the one waiting
        tool_name = call.tool if call is not None else (self._preview[0] if self._preview else request.title)
        args = _args(call.args) if call is not None else {}
        reason = request.message or request.title
        return ApprovalRequestEvent(self.worker, tool_name, reason, args, outcome)

    def _one(self, fact: SessionEvent) -> list[LlmDoEvent]:
        w = self.worker
        if isinstance(fact, RunStarted):
            self._stream, self._last_answer, self._preview = None, None, None
            self._calls.clear()
            return [InitialRequestEvent(w, user_input=fact.prompt)]
        if isinstance(fact, TextEvent):
            if not fact.content:
                return []
            if self._stream is None:
                self._stream = fact.content
                return [TextResponseEvent(w, is_complete=False), TextResponseEvent(w, fact.content, False, True)]
            part = "\n\n" + fact.content  # a new part is a new paragraph of the answer (as in the log)
            self._stream += part
            return [TextResponseEvent(w, part, False, True)]
        if isinstance(fact, TextSnapshotEvent):
            return self._snapshot(fact.content)
        if isinstance(fact, FinalEvent):
            return self._final(fact.content)
        if isinstance(fact, AgentToolCall):
            self._calls[fact.tool_call_id or fact.tool] = fact
            self._calls[fact.tool] = fact
            return [*self._complete(), ToolCallEvent(w, fact.tool, fact.tool_call_id or "", _args(fact.args))]
        if isinstance(fact, AgentToolResult):
            content = fact.result if isinstance(fact.result, str) else compact_json(fact.result)
            event = ToolResultEvent(w, fact.tool, fact.tool_call_id or "", content, fact.is_error)
            return [*self._complete(), event]
        if isinstance(fact, PermissionPreviewEvent):
            self._preview = (fact.tool, fact.tool_call_id)
            return self._complete()
        if isinstance(fact, AgentErrorEvent):
            return [*self._complete(), ErrorEvent(w, fact.message, "agent_error")]
        if isinstance(fact, RunEnded):
            return [*self._complete(), *self._ended(fact)]
        return self._status(fact)

    def _status(self, fact: SessionEvent) -> list[LlmDoEvent]:
        w = self.worker
        if isinstance(fact, StepStartEvent):
            return [StatusEvent(w, "step", "start")]
        if isinstance(fact, StepCompleteEvent):
            state = "end" if fact.status == "completed" else fact.status
            seconds = fact.duration_ms / 1000 if fact.duration_ms is not None else None
            return [StatusEvent(w, "step", state, duration_sec=seconds)]
        if isinstance(fact, LlmRetryEvent):
            return [StatusEvent(w, "model_request", "retry")]
        if isinstance(fact, CompactionStartEvent):
            return [StatusEvent(w, "compaction", "start")]
        if isinstance(fact, CompactionCompleteEvent):
            return [StatusEvent(w, "compaction", "end")]
        return []  # reasoning, permission.ready, hidden user messages, unknown types: no seed event

    def _ended(self, fact: RunEnded) -> list[LlmDoEvent]:
        # A run that failed or was cancelled has no output: its partial answer is not the result.
        self.result = self._last_answer if fact.status == "completed" else None
        if fact.status == "completed":
            return [CompletionEvent(self.worker)]
        if fact.status == "cancelled":
            return [StatusEvent(self.worker, "run", "cancelled")]
        return [ErrorEvent(self.worker, fact.message or f"The run ended: {fact.status}.", "run_error")]

    def _snapshot(self, content: str) -> list[LlmDoEvent]:
        """Lemon's answer so far (it replaces the streaming text): what it appends is the delta."""
        stream, w = self._stream, self.worker
        if not content:
            return []
        if stream is None:
            self._stream = content
            return [TextResponseEvent(w, is_complete=False), TextResponseEvent(w, content, False, True)]
        self._stream = content
        if content.startswith(stream) and len(content) > len(stream):
            return [TextResponseEvent(w, content[len(stream) :], False, True)]
        return []  # the same text again, or a rewrite: the complete answer will carry it

    def _final(self, content: str) -> list[LlmDoEvent]:
        stream = self._stream
        if stream is not None:
            # The same rule as the log: a final that only repeats what streamed is not new text.
            self._stream = content if content and not stream.endswith(content) else stream
            return self._complete()
        if not content or content == self._last_answer:
            return []
        self._stream = content
        return self._complete()

    def _complete(self) -> list[LlmDoEvent]:
        """The streaming answer is complete (a tool call, an error or the end interrupts it)."""
        if self._stream is None:
            return []
        text, self._stream = self._stream, None
        self._last_answer = text
        return [TextResponseEvent(self.worker, text, is_complete=True)]


class LlmDoWriter:
    """Writes seed 000 events to ``events`` (stderr) and the result to ``result`` (stdout)."""

    def __init__(
        self,
        fmt: EventFormat,
        events: TextIO,
        result: TextIO,
        *,
        verbosity: int = 0,
        limits: Truncation | None = None,
        worker: str = DEFAULT_WORKER,
    ) -> None:
        self.format = fmt
        self.stream = events
        self.result_stream = result
        self.verbosity = verbosity
        self.limits = limits or Truncation()
        self.translator = LlmDoTranslator(worker)

    def facts(self, facts: Iterable[SessionEvent]) -> None:
        """Translate and write a batch of normalized events."""
        self.write(self.translator.events(facts))

    def write(self, events: Iterable[LlmDoEvent]) -> None:
        """Write events: one JSON record each, or their text at this verbosity (strict ASCII)."""
        for event in events:
            if self.format is EventFormat.JSON:
                self.stream.write(encode_json(event) + "\n")
                continue
            text = event.to_text(self.verbosity, self.limits)
            if text is not None:  # trailing blanks of indented empty lines are dropped, as in plain mode
                self.stream.write("\n".join(line.rstrip(" ") for line in ascii_text(text).split("\n")) + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """Write the result: ``{"worker", "output"}`` as JSON, or the answer's text (nothing when there is none)."""
        answer = self.translator.result
        if self.format is EventFormat.JSON:
            self.result_stream.write(ascii_json({"worker": self.translator.worker, "output": answer}) + "\n")
        elif answer is not None:
            text = sanitize(answer)  # the answer as written, controls made visible (it may reach a terminal)
            self.result_stream.write(text if text.endswith("\n") else text + "\n")
        self.result_stream.flush()
