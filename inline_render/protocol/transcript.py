"""Agent events as log entries: the streaming assistant entry, tools, errors, preflight.

``Transcript`` is the log-writing half of the session (pure, no I/O).  It keeps
one invariant that makes the core's job simple: at most one entry is streaming
at a time, and any other agent entry first finishes it (``LogFinish``), so text
streamed after a tool call starts a new assistant entry *below* the tool entry
instead of growing one above it.  The UI's own lines (``note``) do not.

A ``text`` event carries a whole part of the answer (seed 004), not a token
delta: consecutive parts of one answer are separate paragraphs of one entry.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from ..inputs import Input, LogAppend, LogDelta, LogFinish, LogReplace, PermissionPreview, PermissionReady
from .display import format_tool_call, format_tool_result
from .events import (
    AgentEvent,
    ErrorEvent,
    FinalEvent,
    HiddenUserMessageEvent,
    PermissionPreviewEvent,
    PermissionReadyEvent,
    ReasoningEvent,
    TextEvent,
    TextSnapshotEvent,
    ToolCallEvent,
    ToolResultEvent,
)
from .legacy import legacy_block, normalize_diff

__all__ = ["Limits", "Transcript"]


@dataclass(frozen=True, slots=True)
class Limits:
    """How much of a tool call / tool result is shown in the log."""

    max_args_chars: int = 160
    max_result_lines: int = 12
    max_result_chars: int = 2000


@dataclass(slots=True)
class _RunLog:
    entries: int = 0  # assistant entries so far, for unique entry ids
    last_assistant: Fingerprint | None = None  # of the last finished assistant entry
    open_tools: dict[str, str] = field(default_factory=dict)  # tool -> id of its call awaiting a result
    ready: set[str] = field(default_factory=set)  # tool_call_ids whose permission.ready was shown


_TAIL = 1 << 16  # characters of the answer's end kept for a ``final`` that repeats its last part(s)

Fingerprint = tuple[int, bytes]  # an answer's length and SHA-256: what a later ``final`` is compared with


def fingerprint(text: str) -> Fingerprint:
    """The length and digest of ``text`` (surrogates kept, as JSON may carry them)."""
    return len(text), hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class _Stream:
    """The streaming answer, as what ``final`` needs of it: its length, digest and end (not its text).

    Keeping the text itself made a long answer cost its length per part (and its size in memory).
    """

    __slots__ = ("_hash", "_tail", "_tail_size", "entry_id", "run_id", "size")

    def __init__(self, run_id: str, entry_id: str, text: str) -> None:
        self.run_id, self.entry_id = run_id, entry_id
        self.reset(text)

    def add(self, part: str) -> None:
        self.size += len(part)
        self._hash.update(part.encode("utf-8", "surrogatepass"))
        self._tail.append(part)
        self._tail_size += len(part)
        while self._tail_size - len(self._tail[0]) >= _TAIL:  # the parts that end the last _TAIL characters
            self._tail_size -= len(self._tail.popleft())

    def reset(self, text: str) -> None:
        self.size, self._hash = 0, hashlib.sha256()
        self._tail: deque[str] = deque()
        self._tail_size = 0
        self.add(text)

    @property
    def fingerprint(self) -> Fingerprint:
        return self.size, self._hash.digest()

    def extended_by(self, content: str) -> bool:
        """Whether ``content`` is the answer so far and more."""
        return len(content) > self.size and fingerprint(content[: self.size]) == self.fingerprint

    def ends_with(self, content: str) -> bool:
        """Whether the answer so far ends with ``content`` (longer than the kept end: only if it is all of it)."""
        if len(content) <= self._tail_size:
            return "".join(self._tail).endswith(content)
        return fingerprint(content) == self.fingerprint


class Transcript:
    """Turns agent events into log inputs (unknown event types give none)."""

    __slots__ = ("_runs", "_stream", "limits")

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._runs: dict[str, _RunLog] = {}
        self._stream: _Stream | None = None

    def event(self, run_id: str, event: AgentEvent, legacy: bool, replay: bool = False) -> list[Input]:
        """The inputs of one agent event; ``legacy``: recognize legacy preflight text.

        ``replay``: the event is part of a ``session.history`` replay, where a
        ``hidden_user_message`` is the run's prompt (shown as the user's line).
        """
        run = self._runs.setdefault(run_id, _RunLog())
        limits = self.limits
        if isinstance(event, TextEvent):
            block = legacy_block(event.content) if legacy else None
            return self.legacy(block, run_id) if block is not None else self._text(run_id, run, event.content)
        if isinstance(event, TextSnapshotEvent):
            return self._snapshot(run_id, run, event.content)
        if isinstance(event, FinalEvent):
            return self._final(run_id, run, event.content)
        if isinstance(event, ReasoningEvent):
            return self.log("reasoning", event.content) if event.content.strip() else []
        if isinstance(event, ToolCallEvent):
            if event.tool_call_id is not None:
                run.open_tools[event.tool] = event.tool_call_id
            return self.log("tool", format_tool_call(event.tool, event.args, limits.max_args_chars))
        if isinstance(event, ToolResultEvent):
            if run.open_tools.get(event.tool) in (event.tool_call_id, None):
                run.open_tools.pop(event.tool, None)
            text = format_tool_result(
                event.tool,
                _readable_result(event.result),
                event.is_error,
                max_lines=limits.max_result_lines,
                max_chars=limits.max_result_chars,
            )
            return self.log("error" if event.is_error else "tool", text)
        if isinstance(event, ErrorEvent):
            return self.log("error", event.message)
        if isinstance(event, PermissionPreviewEvent):
            preview = PermissionPreview(
                event.tool,
                normalize_diff(event.diff),
                event.summary,
                event.truncated,
                event.tool_call_id,
                event.file_path,
                event.language,
            )
            return [*self.finish_stream(), preview]
        if isinstance(event, PermissionReadyEvent):
            if event.tool_call_id is not None:
                if event.tool_call_id in run.ready:
                    return []  # once per tool call, however often the runtime repeats it
                run.ready.add(event.tool_call_id)
            return [*self.finish_stream(), PermissionReady(event.tool, event.tool_call_id)]
        if isinstance(event, HiddenUserMessageEvent):
            return self.log("user", event.content) if replay and event.content.strip() else []
        return []  # the quiet and unknown types: the session decides

    def legacy(self, items: list[Input], run_id: str | None) -> list[Input]:
        """Inputs recognized from legacy text, with the ids the structured events would carry."""
        run = self._runs.get(run_id) if run_id is not None else None
        out: list[Input] = []
        for item in items:
            out += self.finish_stream()
            # Legacy lines name no tool call: it is the tool's call still awaiting its result.
            if (
                isinstance(item, (PermissionPreview, PermissionReady))
                and run is not None
                and item.tool_call_id is None
                and item.tool in run.open_tools
            ):
                item = replace(item, tool_call_id=run.open_tools[item.tool])
            out.append(item)
        return out

    def log(self, kind: str, text: str) -> list[Input]:
        """A finished entry of ``kind`` (any streaming entry is finished first)."""
        return [*self.finish_stream(), LogAppend(kind, text)]

    def note(self, kind: str, text: str) -> list[Input]:
        """A line of the UI's own (stderr, a refused prompt, a lost event) that leaves a streaming answer open.

        The core keeps it below the streaming entry until that entry is done (scrollback stays in order), and
        the answer goes on growing in place, so a later ``final`` is not mistaken for new text.
        """
        return [LogAppend(kind, text)]

    def finish_stream(self, run_id: str | None = None) -> list[Input]:
        """Finish the streaming entry (only if it belongs to ``run_id``, when given)."""
        stream = self._stream
        if stream is None or (run_id is not None and stream.run_id != run_id):
            return []
        self._stream = None
        self._runs.setdefault(stream.run_id, _RunLog()).last_assistant = stream.fingerprint
        return [LogFinish(stream.entry_id)]

    def _text(self, run_id: str, run: _RunLog, text: str) -> list[Input]:
        if not text:
            return []
        stream = self._stream
        if stream is not None and stream.run_id == run_id:
            part = text if not stream.size else "\n\n" + text  # a new part is a new paragraph
            stream.add(part)
            return [LogDelta(stream.entry_id, part)]
        out = self.finish_stream()
        entry_id = self._entry_id(run_id, run)
        self._stream = _Stream(run_id, entry_id, text)
        return [*out, LogAppend("assistant", text, entry_id, final=False)]

    def _snapshot(self, run_id: str, run: _RunLog, content: str) -> list[Input]:
        """The whole text so far: the streaming entry grows by the new tail, or is replaced (never appended twice)."""
        stream = self._stream
        if stream is None or stream.run_id != run_id:
            return self._text(run_id, run, content)
        if len(content) == stream.size and fingerprint(content) == stream.fingerprint:
            return []
        if stream.extended_by(content):
            tail = content[stream.size :]
            stream.add(tail)
            return [LogDelta(stream.entry_id, tail)]
        stream.reset(content)  # the core replaces what is not committed yet; committed rows stay
        return [LogReplace(stream.entry_id, content)]

    def _final(self, run_id: str, run: _RunLog, content: str) -> list[Input]:
        stream = self._stream
        if stream is not None and stream.run_id == run_id:
            out: list[Input] = []
            if stream.extended_by(content):
                out.append(LogDelta(stream.entry_id, content[stream.size :]))  # the rest of the answer
                stream.reset(content)
            elif content and not stream.ends_with(content):
                # What streamed differs: the core replaces the part not yet committed.  (A final that
                # repeats only the last part is not news: the parts already shown stay.)
                out.append(LogReplace(stream.entry_id, content))
                stream.reset(content)
            return out + self.finish_stream()
        if not content or (run.last_assistant is not None and fingerprint(content) == run.last_assistant):
            return []  # nothing new (e.g. final repeats the text a tool call already finished)
        run.last_assistant = fingerprint(content)
        return [*self.finish_stream(), LogAppend("assistant", content, self._entry_id(run_id, run))]

    @staticmethod
    def _entry_id(run_id: str, run: _RunLog) -> str:
        run.entries += 1
        return f"{run_id}#{run.entries}"


def _readable_result(result: Any) -> Any:
    """A tool result as people read it: codelia's tools answer a JSON string, whose ``summary`` says it all."""
    if isinstance(result, str) and result.startswith("{"):
        try:
            value = json.loads(result)
        except ValueError:
            return result
        if isinstance(value, dict) and isinstance(value.get("summary"), str) and value["summary"].strip():
            return value["summary"]
    return result
