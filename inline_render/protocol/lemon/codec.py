"""Lemon's JSON-lines dialect (seed 001): the codec at the edge of the normalized model.

Every line of a Lemon runtime is one JSON object with a top-level ``type``
(seed 001, 2.4): ``ready``, ``event`` (``event.type`` plus a ``data`` *array*,
2.4.1), ``ui_request``, the ``ui_*`` signals of 2.3, ``stats``, ``pong``,
``debug`` and ``error``.  ``decode_lemon_line`` turns one line into a typed
value or a ``LemonBad`` (what was wrong, for one quiet status line: a Lemon
runtime has no error channel for our complaints).  Unknown ``type`` values and
unknown members are tolerated; Elixir's ``__struct__`` members are ignored.

The helpers below normalize Lemon's message structs (2.4.2-2.4.4) into what the
shared transcript renders: content blocks, tool-result text, an error reason.
``encode_command`` and ``ui_response`` build the UI -> runtime lines.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from ..codec import loads_bounded
from ..display import compact_json
from ..messages import excerpt

__all__ = [
    "COMMANDS",
    "Block",
    "LemonBad",
    "LemonDecoded",
    "LemonError",
    "LemonEvent",
    "LemonOther",
    "LemonPong",
    "LemonReady",
    "LemonSignal",
    "LemonStats",
    "LemonUiRequest",
    "SIGNALS",
    "content_text",
    "decode_lemon_line",
    "encode_command",
    "is_lemon_ready",
    "message_blocks",
    "reason_text",
    "result_text",
    "ui_response",
]

# The client commands of seed 001 (4.6), each sent as ``{"type": name}``.
COMMANDS = ("abort", "reset", "save", "stats", "ping", "quit")
# ui_* signal -> its required string params (2.3); ``opts`` of ui_widget is checked separately.
SIGNALS: dict[str, tuple[str, ...]] = {
    "ui_notify": ("message",),
    "ui_status": ("key", "text"),
    "ui_widget": ("key", "content"),
    "ui_working": ("message",),
    "ui_set_title": ("title",),
    "ui_set_editor_text": ("text",),
}


@dataclass(frozen=True, slots=True)
class LemonReady:
    """``ready``: the runtime is up; ``model`` is shown as ``provider/id``."""

    cwd: str = ""
    model: str = ""
    ui: bool | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LemonEvent:
    """``event``: ``kind`` is ``event.type``; ``data`` its array, never named fields (2.4)."""

    kind: str
    data: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class LemonUiRequest:
    """``ui_request``: an overlay the runtime waits on; ``id`` is echoed exactly in the ``ui_response``."""

    id: str | int
    method: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LemonSignal:
    """A ``ui_*`` signal of 2.3 (``kind`` without the ``ui_`` prefix), its params checked."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LemonStats:
    """``stats``: the answer to ``/stats`` (any JSON value)."""

    stats: Any = None


@dataclass(frozen=True, slots=True)
class LemonPong:
    """``pong``: the answer to ``/ping``."""


@dataclass(frozen=True, slots=True)
class LemonError:
    """``error``: the runtime could not do what it was asked (a command, a prompt)."""

    message: str


@dataclass(frozen=True, slots=True)
class LemonOther:
    """A ``type`` this UI does not know (``debug``, a newer runtime's): quiet."""

    type: str
    obj: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LemonBad:
    """A line that is not a Lemon message; ``reason`` says why, for one quiet status line."""

    reason: str


LemonDecoded = (
    LemonReady | LemonEvent | LemonUiRequest | LemonSignal | LemonStats | LemonPong | LemonError | LemonOther | LemonBad
)


def _object(line: bytes) -> dict[str, Any] | str:
    """The line's JSON object, or why it is none."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"invalid UTF-8 at byte {exc.start}"
    try:
        value = loads_bounded(text)
    except ValueError as exc:
        why = str(exc) if str(exc).startswith("nesting too deep") else "not JSON"
        return f"{why}: {excerpt(text.strip())}"
    if not isinstance(value, dict):
        return f"not a JSON object: {excerpt(compact_json(value))}"
    return value


def is_lemon_ready(line: bytes | None) -> bool:
    """``line`` is Lemon's ``{"type": "ready", ...}`` (how a Lemon runtime is recognised: its first line)."""
    if line is None:
        return False
    obj = _object(line)
    return isinstance(obj, dict) and obj.get("type") == "ready" and "jsonrpc" not in obj


def decode_lemon_line(line: bytes | None) -> LemonDecoded:
    """One stdout line (``None``: a line over the size limit) as a Lemon message; never raises."""
    if line is None:
        return LemonBad("a line over the size limit was discarded")
    if not line.strip():
        return LemonOther("", {})  # a blank line: nothing at all
    obj = _object(line)
    if isinstance(obj, str):
        return LemonBad(obj)
    kind = obj.get("type")
    if not isinstance(kind, str):
        return LemonBad("member 'type' must be a string")
    try:
        return _decode(kind, obj)
    except ValueError as exc:
        return LemonBad(f"{excerpt(kind, 40)}: {exc}")


def _str(obj: dict[str, Any], key: str, default: str | None = None) -> str:
    value = obj.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"member '{key}' must be a string")
    return value


def _decode(kind: str, obj: dict[str, Any]) -> LemonDecoded:
    if kind == "ready":
        cwd = obj.get("cwd")
        ui = obj.get("ui")
        return LemonReady(
            cwd if isinstance(cwd, str) else "",
            model_name(obj.get("model")),
            ui if isinstance(ui, bool) else None,
            {k: v for k, v in obj.items() if k not in ("type", "cwd", "model", "ui")},
        )
    if kind == "event":
        event = obj.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise ValueError("member 'event' must be an object with a string 'type'")
        data = event.get("data", [])
        if not isinstance(data, list):
            raise ValueError(f"'data' of {excerpt(event['type'], 40)} must be an array")
        return LemonEvent(event["type"], tuple(data))
    if kind == "ui_request":
        rid = obj.get("id")
        if not isinstance(rid, (str, int)) or isinstance(rid, bool):
            raise ValueError("member 'id' must be a string")
        params = obj.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise ValueError("member 'params' must be an object")
        return LemonUiRequest(rid, _str(obj, "method"), params)
    if kind in SIGNALS:
        params = obj.get("params")
        if not isinstance(params, dict):
            raise ValueError("member 'params' must be an object")
        for key in SIGNALS[kind]:
            _str(params, key)
        if kind == "ui_widget" and not isinstance(params.get("opts", {}), dict):
            raise ValueError("'opts' must be an object")  # seed 001: always a map
        return LemonSignal(kind.removeprefix("ui_"), params)
    if kind == "stats":
        return LemonStats(obj.get("stats"))
    if kind == "pong":
        return LemonPong()
    if kind == "error":
        message = obj.get("message")
        return LemonError(message if isinstance(message, str) else compact_json(message))
    return LemonOther(kind, obj)


# --- normalization of the wire structs (2.4.2-2.4.5) ------------------------------------------


@dataclass(frozen=True, slots=True)
class Block:
    """One content block of a message: ``text``, ``thinking``, ``tool_call``, ``image`` or ``other``."""

    kind: Literal["text", "thinking", "tool_call", "image", "other"]
    text: str = ""
    tool_id: str | None = None
    name: str = ""
    args: Any = None


def model_name(model: Any) -> str:
    """``ready.model`` as shown: ``provider/id`` (a bare string as it is)."""
    if isinstance(model, str):
        return model
    if isinstance(model, dict):
        parts = [model.get(key) for key in ("provider", "id")]
        return "/".join(part for part in parts if isinstance(part, str) and part)
    return ""


def _block(raw: Any) -> Block:
    if isinstance(raw, str):
        return Block("text", raw)
    if not isinstance(raw, dict):
        return Block("other")
    kind = raw.get("type")
    if kind == "text":
        text = raw.get("text")
        return Block("text", text if isinstance(text, str) else "")
    if kind == "thinking":
        text = raw.get("thinking")
        return Block("thinking", text if isinstance(text, str) else "")
    if kind == "tool_call":
        tool_id, name = raw.get("id"), raw.get("name")
        return Block(
            "tool_call",
            tool_id=tool_id if isinstance(tool_id, str) else None,
            name=name if isinstance(name, str) else "tool",
            args=raw.get("arguments"),
        )
    if kind == "image":
        return Block("image", "[image]")  # seed 001: a placeholder in v1
    return Block("other")


def message_blocks(message: Any) -> tuple[str, list[Block]]:
    """A message struct's ``role`` and content blocks (``content`` may be a string or a list)."""
    if not isinstance(message, dict):
        raise ValueError("a message must be an object")
    role = message.get("role")
    content = message.get("content")
    blocks = [_block(content)] if isinstance(content, str) else [_block(item) for item in content or []]
    if not isinstance(content, (str, list)) and content is not None:
        raise ValueError("a message's 'content' must be a string or an array")
    return (role if isinstance(role, str) else ""), blocks


def content_text(content: Any) -> str:
    """The readable text of a content list (text blocks; images as a placeholder)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(block.text for block in map(_block, content) if block.kind in ("text", "image"))


def result_text(result: Any) -> Any:
    """A tool result (``AgentToolResult``, a content list, or any JSON value) as the log shows it."""
    if isinstance(result, dict) and "content" in result:
        return content_text(result["content"])
    if isinstance(result, list):
        return content_text(result)
    return result


def reason_text(reason: Any) -> str:
    """An ``error`` event's reason (a string, an exception struct with ``message``, anything) as one line."""
    if isinstance(reason, str):
        return reason
    if isinstance(reason, dict) and isinstance(reason.get("message"), str):
        return str(reason["message"])
    return compact_json(reason)


# --- UI -> runtime -----------------------------------------------------------------------------


def encode_command(obj: dict[str, Any]) -> bytes:
    """One JSON line for the runtime's stdin (compact, UTF-8; lone surrogates escaped)."""
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        return json.dumps(obj, separators=(",", ":")).encode("ascii") + b"\n"


def ui_response(rid: str | int, result: Any, error: str | None = None) -> dict[str, Any]:
    """2.2's ``ui_response`` (``result`` null when ``error`` says why)."""
    return {"type": "ui_response", "id": rid, "result": None if error is not None else result, "error": error}
