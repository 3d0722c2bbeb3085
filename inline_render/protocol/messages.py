"""The JSON-RPC 2.0 envelope: requests, notifications, responses and errors, as values.

``message_from_json`` classifies one decoded JSON value.  It never raises: a
value that is not a valid JSON-RPC 2.0 message becomes a ``Malformed`` value
that says which error code it earns and whether an error response is owed (a
malformed *response* is never answered, JSON-RPC 2.0 section 5).  Unknown
top-level members are kept in ``extra`` so nothing a newer runtime sends is
silently dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "Decoded",
    "ErrorInfo",
    "ErrorResponse",
    "Malformed",
    "Message",
    "Notification",
    "Request",
    "RequestId",
    "Response",
    "TextLine",
    "excerpt",
    "message_from_json",
    "message_to_json",
]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

RequestId = int | str

_ENVELOPE_KEYS = frozenset({"jsonrpc", "id", "method", "params", "result", "error"})


@dataclass(frozen=True, slots=True)
class Request:
    """A call that expects exactly one response carrying the same ``id``."""

    id: RequestId
    method: str
    params: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Notification:
    """A one-way message: never answered, not even with an error."""

    method: str
    params: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Response:
    """The successful answer to request ``id``."""

    id: RequestId
    result: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ErrorInfo:
    """The ``error`` member of an error response."""

    code: int
    message: str
    data: Any = None


@dataclass(frozen=True, slots=True)
class ErrorResponse:
    """The failed answer to request ``id`` (``None`` when the request's id was unreadable)."""

    id: RequestId | None
    error: ErrorInfo
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TextLine:
    """A stdout line that is not JSON at all: legacy runtimes print plain text lines."""

    text: str


@dataclass(frozen=True, slots=True)
class Malformed:
    """Input that is not a valid message; ``reply`` says whether an error response is owed.

    ``id`` is the offending request's id when it could be read, so the runtime
    can match the error to its call; ``excerpt`` is a short, printable piece of
    the input for the visible status line.
    """

    code: int
    message: str
    id: RequestId | None = None
    reply: bool = True
    excerpt: str = ""

    def error_response(self) -> ErrorResponse | None:
        """The error response owed for this input, if one is."""
        return ErrorResponse(self.id, ErrorInfo(self.code, self.message)) if self.reply else None


Message = Request | Notification | Response | ErrorResponse
Decoded = Request | Notification | Response | ErrorResponse | TextLine | Malformed


def excerpt(value: Any, limit: int = 60) -> str:
    """A short one-line printable rendering of untrusted input for status lines."""
    text = value if isinstance(value, str) else repr(value)
    text = text.encode("ascii", "backslashreplace").decode("ascii")
    printable = "".join(ch if ch.isprintable() else "?" for ch in text)
    return printable if len(printable) <= limit else printable[: limit - 3] + "..."


def _valid_id(value: Any) -> bool:
    # bool is an int subclass, and fractional ids are discouraged by the spec: both refused.
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def message_from_json(obj: Any) -> Decoded:
    """Classify one decoded JSON value as a message, or a ``Malformed`` value (never raises)."""
    if not isinstance(obj, dict):
        what = "a batch (arrays are not supported)" if isinstance(obj, list) else type(obj).__name__
        return Malformed(INVALID_REQUEST, f"Invalid Request: expected a JSON object, got {what}", excerpt=excerpt(obj))
    raw_id = obj.get("id")
    has_id = "id" in obj
    rid: RequestId | None = raw_id if _valid_id(raw_id) else None
    is_response = "method" not in obj and ("result" in obj or "error" in obj)

    def bad(message: str) -> Malformed:
        # A broken response is reported but never answered; anything else is owed an error.
        return Malformed(INVALID_REQUEST, f"Invalid Request: {message}", rid, not is_response, excerpt(obj))

    if obj.get("jsonrpc") != "2.0":
        return bad("member 'jsonrpc' must be \"2.0\"")
    extra = {key: value for key, value in obj.items() if key not in _ENVELOPE_KEYS}
    if is_response:
        if "result" in obj and "error" in obj:
            return bad("a response has either 'result' or 'error', not both")
        if not has_id or (raw_id is not None and rid is None):
            return bad("a response needs an 'id' (string, integer or null)")
        if "result" in obj:
            if rid is None:
                return bad("a successful response needs a non-null 'id'")
            return Response(rid, obj["result"], extra)
        error = obj["error"]
        if not isinstance(error, dict):
            return bad("member 'error' must be an object")
        code, text = error.get("code"), error.get("message")
        if not isinstance(code, int) or isinstance(code, bool) or not isinstance(text, str):
            return bad("member 'error' needs an integer 'code' and a string 'message'")
        return ErrorResponse(rid, ErrorInfo(code, text, error.get("data")), extra)
    method = obj.get("method")
    if not isinstance(method, str):
        return bad("member 'method' must be a string")
    params = obj.get("params")
    if params is not None and not isinstance(params, (dict, list)):
        return bad("member 'params' must be an object or an array")
    if not has_id:
        return Notification(method, params, extra)
    if rid is None:
        return bad("member 'id' must be a string or an integer")
    return Request(rid, method, params, extra)


def message_to_json(message: Message) -> dict[str, Any]:
    """The JSON object of a message (``extra`` members first, envelope members win)."""
    out: dict[str, Any] = dict(message.extra)
    out["jsonrpc"] = "2.0"
    if isinstance(message, (Request, Notification)):
        if isinstance(message, Request):
            out["id"] = message.id
        out["method"] = message.method
        if message.params is not None:
            out["params"] = message.params
    elif isinstance(message, Response):
        out["id"] = message.id
        out["result"] = message.result
    else:
        out["id"] = message.id
        error: dict[str, Any] = {"code": message.error.code, "message": message.error.message}
        if message.error.data is not None:
            error["data"] = message.error.data
        out["error"] = error
    return out
