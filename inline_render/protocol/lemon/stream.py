"""Lemon's snapshot messages as normalized events (seed 001, 2.4.5), pure.

Every ``message_start``/``message_update``/``message_end`` carries the *whole*
message so far.  Its content blocks are taken in order: every block but the
last is finished (a thinking block becomes a ``ReasoningEvent``, a text block a
``FinalEvent`` that completes the streaming entry, a tool call a
``ToolCallEvent``), and the last one is in progress (its text a
``TextSnapshotEvent`` that *replaces* the streaming text, so it is shown once).
A block is finished once; a tool call is shown once per id, whether it came as
a block or only as ``tool_execution_start``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..display import compact_json
from ..events import AgentEvent, ErrorEvent, FinalEvent, ReasoningEvent, TextSnapshotEvent, ToolCallEvent
from ..messages import excerpt
from .codec import Block, message_blocks

__all__ = ["MessageStream", "tool_id"]


@dataclass(slots=True)
class _Message:
    done: int = 0  # blocks already finished in the log
    last: Any = None  # the latest snapshot: finished as it is if the next message starts first


def tool_id(value: Any) -> str | None:
    """A tool call id as a string (a runtime may send a number)."""
    return value if isinstance(value, str) else None if value is None else compact_json(value)


class MessageStream:
    """The assistant message in progress; ``update`` gives its new events and the spinner's text."""

    __slots__ = ("_ended", "_message")

    def __init__(self) -> None:
        self._message: _Message | None = None
        self._ended: Any = None  # the last message finished: the same one again is a repeat, not news

    def update(self, message: Any, shown: set[str], *, final: bool, start: bool) -> tuple[list[AgentEvent], str]:
        """A snapshot (``final``: message_end); ``shown`` holds the run's tool calls already in the log.

        Raises ``ValueError`` for a message that is not an object.
        """
        role, blocks = message_blocks(message)
        if role != "assistant":
            return [], ""  # the user's prompt is logged already; tool results come from tool_execution_end
        if self._message is None and not start and message == self._ended:
            return [], ""  # a repeated message_end (or a late update of it)
        events: list[AgentEvent] = []
        if start or self._message is None:
            events += self.finish(shown)
            self._message = _Message()
        current = self._message
        current.last = message
        finished = len(blocks) if final else max(len(blocks) - 1, 0)
        for block in blocks[current.done : finished]:
            events += _finished(block, shown)
        current.done = max(current.done, finished)
        working = ""
        if final:
            self._message, self._ended = None, message
            if message.get("stop_reason") == "error":
                reason = message.get("error_message")
                events.append(ErrorEvent(reason if isinstance(reason, str) and reason else "The model call failed."))
        elif len(blocks) > current.done:
            block = blocks[-1]
            if block.kind == "text":
                events.append(TextSnapshotEvent(block.text))
            elif block.kind == "thinking":
                working = "Thinking"
            elif block.kind == "tool_call":
                working = f"Preparing {excerpt(block.name, 40)}"
        return events, working

    def finish(self, shown: set[str]) -> list[AgentEvent]:
        """The message in progress ends as it last was (the next one started, a tool ran, the agent ended)."""
        current, self._message = self._message, None
        if current is None or current.last is None:
            return []
        self._message = current
        events, _ = self.update(current.last, shown, final=True, start=False)
        return events

    def tool_call(self, shown: set[str], call_id: Any, name: Any, args: Any) -> list[AgentEvent]:
        """``tool_execution_*``: the call, unless its block showed it already (the message is finished first)."""
        key = tool_id(call_id)
        if key is not None and key in shown:
            return []
        if key is not None:
            shown.add(key)
        return [*self.finish(shown), ToolCallEvent(str(name), key, args)]


def _finished(block: Block, shown: set[str]) -> list[AgentEvent]:
    if block.kind == "text":
        return [FinalEvent(block.text)]  # completes the streaming entry with exactly this text
    if block.kind == "thinking":
        return [ReasoningEvent(block.text)]
    if block.kind == "tool_call":
        if block.tool_id is not None:
            if block.tool_id in shown:
                return []
            shown.add(block.tool_id)
        return [ToolCallEvent(block.name, block.tool_id, block.args)]
    return []
