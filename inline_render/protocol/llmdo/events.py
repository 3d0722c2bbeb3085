"""Seed 000's event stream (llm-do, "Event Type Hierarchy"): the events, their JSON and their plain text.

Each event knows how to render itself, as the seed asks: ``to_json`` gives the
record of ``--json`` (the seed's ``render_json`` members, verbatim, ``worker``
in every one) and ``to_text`` the lines of ``--headless`` (the seed's
``render_text``, verbosity 0/1/2, ``None`` when the event is not shown at that
verbosity).  What is ours, not the seed's:

* ``to_text`` is strict ASCII (the seed's "Output Stream Design"): every
  character that is not printable ASCII becomes ``?``, so no escape sequence or
  control from a runtime or a tool reaches the terminal, and a tab is spaces.
* The markers: an error line reads ``[worker] [ERROR] (type): message`` and an
  approval's outcome ``[OK] Approved (--approve-all)`` / ``[WARN] Denied (--strict)``
  where the seed prints ``(Cannot approve in non-interactive mode)``.
* Tool arguments are shown as JSON (the seed's ``args_json``), never as a Python repr.
* Only the library starts a line: a name a runtime chose (a tool's, a model's, a confirm's title standing
  for a tool) is one line, its line breaks shown as ``?``, and every further line of a runtime's or a
  user's text (an error message, the prompt, a traceback) is indented, so a tool called
  ``"x\n[worker] [OK] Complete"`` cannot print a line that reads like ours.  The streamed deltas of
  ``-vv`` are the seed's verbatim model text (a model's words, not a name).

``encode_json`` writes one record as printable ASCII JSON (``json.loads`` gives
the exact text back).  The truncation constants are the seed's "Rendering
Constants Reference", here and nowhere else.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Union

from ..jsonl import ascii_json

__all__ = [
    "MAX_ARGS_DISPLAY",
    "MAX_INPUT_DISPLAY",
    "MAX_RESULT_DISPLAY",
    "MAX_RESULT_LINES",
    "ApprovalOutcome",
    "ApprovalRequestEvent",
    "CompletionEvent",
    "DeferredToolEvent",
    "ErrorEvent",
    "InitialRequestEvent",
    "LlmDoEvent",
    "StatusEvent",
    "TextResponseEvent",
    "ToolCallEvent",
    "ToolResultEvent",
    "Truncation",
    "ascii_text",
    "encode_json",
]

# Seed 000, "Rendering Constants Reference".
MAX_INPUT_DISPLAY = 200  # characters of the user's prompt shown by initial_request
MAX_ARGS_DISPLAY = 200  # characters of a tool call's arguments
MAX_RESULT_DISPLAY = 500  # characters of a tool result
MAX_RESULT_LINES = 10  # lines of a tool result


@dataclass(frozen=True, slots=True)
class Truncation:
    """How much of a prompt, a tool call's arguments and a tool result the plain text shows."""

    max_input_display: int = MAX_INPUT_DISPLAY
    max_args_display: int = MAX_ARGS_DISPLAY
    max_result_display: int = MAX_RESULT_DISPLAY
    max_result_lines: int = MAX_RESULT_LINES


_DEFAULT = Truncation()


def ascii_text(text: str) -> str:
    """``text`` as strict printable ASCII lines: tabs become spaces, every other non-printable character ``?``."""
    text = text.replace("\r\n", "\n").expandtabs(4)
    return "".join(ch if ch == "\n" or " " <= ch <= "~" else "?" for ch in text)


def _name(text: str) -> str:
    """A runtime's name for something, on one line: a line break in it is shown as ``?`` (never a new line)."""
    return text.replace("\r\n", "?").replace("\n", "?")


def _hanging(text: str, indent: int) -> str:
    """``text`` whose every line after the first is indented by ``indent`` spaces (it never starts a line)."""
    return text.replace("\r\n", "\n").replace("\n", "\n" + " " * indent)


def _truncate(text: str, max_len: int) -> str:
    return text[:max_len] + "..." if len(text) > max_len else text


def _json_args(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False, default=repr)


def _record(event: Any, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """An event's seed record: its ``type``, then its fields in order (tuples as JSON arrays)."""
    record: dict[str, Any] = {"type": event.TYPE}
    for item in fields(event):
        if item.name not in skip:
            value = getattr(event, item.name)
            record[item.name] = list(value) if isinstance(value, tuple) else value
    return record


@dataclass(frozen=True, slots=True)
class InitialRequestEvent:
    """A worker received its request (the prompt)."""

    TYPE: ClassVar[str] = "initial_request"
    worker: str
    instructions: str = ""
    user_input: str = ""
    attachments: tuple[str, ...] = ()

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``[worker] Starting...`` and the prompt, truncated."""
        lines = [f"[{_name(self.worker)}] Starting..."]
        if self.user_input:
            lines.append(f"  Prompt: {_hanging(_truncate(self.user_input, limits.max_input_display), 10)}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class StatusEvent:
    """A phase changed state (``model_request start``, ``step end`` with its duration...)."""

    TYPE: ClassVar[str] = "status"
    worker: str
    phase: str = ""
    state: str = ""
    model: str = ""
    duration_sec: float | None = None

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``[worker] phase state (model) [1.25s]``; nothing without a phase."""
        if not self.phase:
            return None
        result = f"[{_name(self.worker)}] {_name(self.phase)} {_name(self.state)}"
        if self.model:
            result += f" ({_name(self.model)})"
        if self.duration_sec is not None:
            result += f" [{self.duration_sec:.2f}s]"
        return result

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class TextResponseEvent:
    """Model text: the start of a streamed answer, a delta, or the complete answer."""

    TYPE: ClassVar[str] = "text_response"
    worker: str
    content: str = ""
    is_complete: bool = True
    is_delta: bool = False

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """Deltas at verbosity 2, "Generating response..." from 1, the complete answer always."""
        if self.is_delta:
            return self.content if verbosity >= 2 else None
        if self.is_complete:
            lines = [f"\n[{_name(self.worker)}] Response:"]
            lines.extend(f"  {line}" for line in self.content.split("\n"))
            return "\n".join(lines)
        return f"[{_name(self.worker)}] Generating response..." if verbosity >= 1 else None

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class ToolCallEvent:
    """A tool is called with ``args``."""

    TYPE: ClassVar[str] = "tool_call"
    worker: str
    tool_name: str = ""
    tool_call_id: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``Tool call: name`` and the arguments as JSON, truncated."""
        lines = [f"\n[{_name(self.worker)}] Tool call: {_name(self.tool_name)}"]
        if self.args:
            lines.append(f"  Args: {_truncate(_json_args(self.args), limits.max_args_display)}")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class ToolResultEvent:
    """A tool returned (``is_error``: it failed)."""

    TYPE: ClassVar[str] = "tool_result"
    worker: str
    tool_name: str = ""
    tool_call_id: str = ""
    content: str = ""
    is_error: bool = False

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``Tool result: name`` (or ``Tool error``) and the content, cut by characters then by lines."""
        label = "Tool error" if self.is_error else "Tool result"
        text = _truncate(self.content, limits.max_result_display)
        lines = text.split("\n")
        if len(lines) > limits.max_result_lines:
            remaining = len(lines) - limits.max_result_lines
            text = "\n".join(lines[: limits.max_result_lines]) + f"\n... ({remaining} more lines)"
        head = f"\n[{_name(self.worker)}] {label}: {_name(self.tool_name)}"
        return "\n".join([head, *(f"  {line}" for line in text.split("\n"))])

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class DeferredToolEvent:
    """An asynchronous tool's status: ``pending``, ``running``, ``complete`` or ``error``."""

    TYPE: ClassVar[str] = "deferred_tool"
    worker: str
    tool_name: str = ""
    status: str = ""

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``  Deferred tool 'name': status``."""
        return f"  Deferred tool '{_name(self.tool_name)}': {_name(self.status)}"

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class CompletionEvent:
    """The worker completed successfully."""

    TYPE: ClassVar[str] = "completion"
    worker: str

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``[worker] [OK] Complete`` from verbosity 1."""
        return f"[{_name(self.worker)}] [OK] Complete" if verbosity >= 1 else None

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return _record(self)


@dataclass(frozen=True, slots=True)
class ErrorEvent:
    """Something failed: ``error_type`` says what kind (``run_error``, ``approval_required``...)."""

    TYPE: ClassVar[str] = "error"
    worker: str
    message: str = ""
    error_type: str = ""
    traceback: str | None = None

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``[worker] [ERROR] (type): message``, the traceback at verbosity 2."""
        lines = [f"[{_name(self.worker)}] [ERROR] ({_name(self.error_type)}): {_hanging(self.message, 4)}"]
        if verbosity >= 2 and self.traceback:
            lines.append("    " + _hanging(self.traceback, 4))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The seed's record."""
        return {
            "type": self.TYPE,
            "worker": self.worker,
            "error_type": self.error_type,
            "message": self.message,
            "traceback": self.traceback,
        }


class ApprovalOutcome(enum.Enum):
    """What became of an approval request in a non-interactive run."""

    APPROVED = "approved"  # --approve-all
    DENIED = "denied"  # --strict
    UNANSWERED = "unanswered"  # neither flag: the run fails


_OUTCOME_LINES = {
    ApprovalOutcome.APPROVED: "    [OK] Approved (--approve-all)",
    ApprovalOutcome.DENIED: "    [WARN] Denied (--strict)",
    ApprovalOutcome.UNANSWERED: "    (Cannot approve in non-interactive mode)",
}


@dataclass(frozen=True, slots=True)
class ApprovalRequestEvent:
    """A tool asks to be approved; ``outcome`` (not part of the record) is what the run's flags decided."""

    TYPE: ClassVar[str] = "approval_request"
    worker: str
    tool_name: str = ""
    reason: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    outcome: ApprovalOutcome = ApprovalOutcome.UNANSWERED

    def to_text(self, verbosity: int = 0, limits: Truncation = _DEFAULT) -> str | None:
        """``APPROVAL REQUIRED``, the tool, the reason, the arguments and the outcome."""
        lines = ["APPROVAL REQUIRED", f"    Tool: {_name(self.tool_name)}"]
        if self.reason:
            lines.append(f"    Reason: {_hanging(self.reason, 12)}")  # continuation lines under the first
        if self.args:
            lines.append(f"    Args: {_json_args(self.args)}")
        lines.append(_OUTCOME_LINES[self.outcome])
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """The seed's record (the outcome is ours: it shows only in the text)."""
        return _record(self, skip=("outcome",))


LlmDoEvent = Union[
    InitialRequestEvent,
    StatusEvent,
    TextResponseEvent,
    ToolCallEvent,
    ToolResultEvent,
    DeferredToolEvent,
    CompletionEvent,
    ErrorEvent,
    ApprovalRequestEvent,
]


def encode_json(event: LlmDoEvent) -> str:
    """One JSON Lines record of ``event`` (no newline), printable ASCII."""
    return ascii_json(event.to_json())
