"""NDJSON framing: an incremental, bounded decoder and a one-line-per-message encoder.

The decoder takes bytes as they arrive from a pipe: a chunk may end mid-line
or hold many lines, and lines may end in ``\\r\\n``.  Memory is bounded by the
line limit: a line longer than ``max_line_bytes`` is reported once, the moment
it crosses the limit, and the rest of it is skipped as it streams past, never
buffered.  Nothing here raises on bad input; every line becomes a message, a
``TextLine`` (not JSON at all: legacy runtimes print plain text) or a
``Malformed`` value saying which JSON-RPC error it earns.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .messages import PARSE_ERROR, Decoded, Malformed, Message, TextLine, excerpt, message_from_json, message_to_json

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "MAX_JSON_DEPTH",
    "Decoder",
    "LineSplitter",
    "decode_line",
    "decode_split",
    "encode",
    "json_depth_ok",
    "loads_bounded",
]

DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024
# Nesting of one message, envelope included.  Python's recursion limit (1,000 frames) is shared by the C
# decoder, the encoders of the output modes and every recursive walk over a message: a message ~970 deep
# that the decoder accepted made llm-do's writer raise RecursionError later, deep inside a callback.  No
# runtime needs more than a few dozen levels (JSON-RPC envelope 3, an agent event and its args a few more).
MAX_JSON_DEPTH = 100
_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"')  # JSON string literals (possessive: linear on huge strings)
_BRACKETS = re.compile(r"[\[\]{}]")


class LineSplitter:
    """Bytes in, numbered lines out (without ``\\n`` or a final ``\\r``), in bounded memory.

    Each item is ``(line_no, content)``; ``content`` is ``None`` for a line over
    the limit, reported once when it crosses the limit and skipped to its end.
    """

    __slots__ = ("_buffer", "_discarding", "line_no", "max_line_bytes")

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        if max_line_bytes < 1:
            raise ValueError("max_line_bytes must be >= 1")
        self.max_line_bytes = max_line_bytes
        self.line_no = 0  # number of the last line started
        self._buffer = bytearray()  # the current line so far: at most max_line_bytes + 1 bytes
        self._discarding = False  # inside an overlong line (already reported), skipping to its end

    def feed(self, data: bytes) -> list[tuple[int, bytes | None]]:
        """Split ``data``; a partial last line is kept for the next call."""
        out: list[tuple[int, bytes | None]] = []
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            piece = data[start:end]
            start = end + 1
            if self._discarding:
                self._discarding = False
                continue
            self.line_no += 1
            out.append((self.line_no, self._complete(piece)))
        rest = data[start:]
        if rest and not self._discarding:
            # +1 leaves room for the \r of a \r\n ending, which is not part of the line.
            if len(self._buffer) + len(rest) > self.max_line_bytes + 1:
                self._buffer.clear()
                self._discarding = True
                self.line_no += 1
                out.append((self.line_no, None))  # report now: the newline may never come
            else:
                self._buffer += rest
        return out

    def close(self) -> list[tuple[int, bytes | None]]:
        """End of stream: an unterminated last line is still a line."""
        if self._discarding or not self._buffer:
            self._discarding = False
            self._buffer.clear()
            return []
        self.line_no += 1
        return [(self.line_no, self._complete(b""))]

    def _complete(self, piece: bytes) -> bytes | None:
        fits = len(self._buffer) + len(piece) <= self.max_line_bytes + 1
        line = bytes(self._buffer) + piece if fits else b""
        self._buffer.clear()
        if line.endswith(b"\r"):
            line = line[:-1]
        return line if fits and len(line) <= self.max_line_bytes else None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def json_depth_ok(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the JSON text nests at most ``limit`` deep (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= limit:
        return True  # the common case, at C speed
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return False
        else:
            depth -= 1
    return True


def loads_bounded(text: str) -> Any:
    """``json.loads`` that refuses NaN/Infinity and nesting over ``MAX_JSON_DEPTH``; raises only ValueError."""
    if not json_depth_ok(text):
        raise ValueError(f"nesting too deep (over {MAX_JSON_DEPTH} levels)")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:  # cannot happen below the depth limit; kept as the last line of defence
        raise ValueError("nesting too deep") from None


def decode_line(line: bytes, line_no: int = 0) -> Decoded:
    """One line (without its newline) as a message, a text line, or a ``Malformed`` value."""
    where = f"line {line_no}: " if line_no else ""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Malformed(PARSE_ERROR, f"Parse error: {where}invalid UTF-8 at byte {exc.start}", excerpt=excerpt(line))
    stripped = text.strip()
    if not stripped.startswith("{"):
        # A line that is not JSON at all is plain text (legacy runtimes print such lines);
        # valid JSON that is not an object (42, "x", [..]) is an invalid request.
        try:
            value = loads_bounded(stripped)
        except ValueError:
            return TextLine(text)
        return message_from_json(value)
    try:
        value = loads_bounded(stripped)
    except ValueError as exc:
        return Malformed(PARSE_ERROR, f"Parse error: {where}{exc}", excerpt=excerpt(stripped))
    return message_from_json(value)


class Decoder:
    """Incremental NDJSON decoder: ``feed(bytes) -> [message | TextLine | Malformed]``."""

    __slots__ = ("_lines",)

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self._lines = LineSplitter(max_line_bytes)

    @property
    def max_line_bytes(self) -> int:
        """The line limit in bytes (without the line terminator)."""
        return self._lines.max_line_bytes

    def feed(self, data: bytes) -> list[Decoded]:
        """Decode every line completed by ``data``."""
        return self._decode(self._lines.feed(data))

    def close(self) -> list[Decoded]:
        """End of stream: decode an unterminated last line."""
        return self._decode(self._lines.close())

    def _decode(self, lines: list[tuple[int, bytes | None]]) -> list[Decoded]:
        return [decode_split(line_no, line, self.max_line_bytes) for line_no, line in lines]


def decode_split(line_no: int, line: bytes | None, max_line_bytes: int) -> Decoded:
    """One item of ``LineSplitter``: the decoded line, or the error of a line over ``max_line_bytes``."""
    if line is not None:
        return decode_line(line, line_no)
    return Malformed(PARSE_ERROR, f"Parse error: line {line_no} is longer than {max_line_bytes} bytes; discarded")


def encode(message: Message) -> bytes:
    """One NDJSON line (compact JSON, UTF-8, ``\\n``-terminated) for ``message``."""
    obj = message_to_json(message)
    try:
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        # A lone surrogate (echoed from a runtime's own JSON) cannot be UTF-8: escape everything.
        return json.dumps(obj, separators=(",", ":")).encode("ascii") + b"\n"
