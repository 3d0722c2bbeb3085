"""The NDJSON decoder (incremental, bounded) and encoder."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inline_render.protocol.codec import DEFAULT_MAX_LINE_BYTES, Decoder, LineSplitter, decode_line, encode
from inline_render.protocol.messages import (
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorInfo,
    ErrorResponse,
    Malformed,
    Notification,
    Request,
    Response,
    TextLine,
)

PING = b'{"jsonrpc":"2.0","method":"ui.working","params":{"message":"x"}}'


def test_default_limit_is_8_mib() -> None:
    """The default line limit is 8 MiB."""
    assert DEFAULT_MAX_LINE_BYTES == 8 * 1024 * 1024
    assert Decoder().max_line_bytes == DEFAULT_MAX_LINE_BYTES


def test_partial_lines_are_joined_across_chunks() -> None:
    """A line split over several chunks decodes once, when its newline arrives."""
    decoder = Decoder()
    assert decoder.feed(PING[:10]) == []
    assert decoder.feed(PING[10:30]) == []
    assert decoder.feed(PING[30:] + b"\n") == [Notification("ui.working", {"message": "x"})]


def test_many_lines_in_one_chunk_keep_their_order() -> None:
    """Several lines in one chunk decode in order; a trailing partial line waits."""
    chunk = b"\n".join(json.dumps({"jsonrpc": "2.0", "id": n, "result": n}).encode() for n in range(5)) + b'\n{"js'
    decoder = Decoder()
    assert decoder.feed(chunk) == [Response(n, n) for n in range(5)]
    assert decoder.feed(b'onrpc":"2.0","id":9,"result":0}\n') == [Response(9, 0)]


def test_crlf_line_endings() -> None:
    """``\\r\\n`` endings decode like ``\\n``, also when the ``\\r`` ends one chunk and ``\\n`` starts the next."""
    decoder = Decoder()
    assert decoder.feed(PING + b"\r") == []
    assert decoder.feed(b"\nplain\r\n") == [Notification("ui.working", {"message": "x"}), TextLine("plain")]


def test_invalid_utf8_is_a_parse_error_and_later_lines_still_decode() -> None:
    """Invalid UTF-8 gives one -32700 item; the next line decodes normally."""
    items = Decoder().feed(b'{"jsonrpc":"2.0","method":"\xff\xfe"}\n' + PING + b"\n")
    assert len(items) == 2
    assert isinstance(items[0], Malformed) and items[0].code == PARSE_ERROR
    assert "UTF-8" in items[0].message
    assert items[1] == Notification("ui.working", {"message": "x"})


@pytest.mark.parametrize(
    "line",
    [b"{", b'{"a": }', b'{"jsonrpc": "2.0", "id": NaN, "result": 1}', b"{" * 100_000, b'{"x": 1' + b"0" * 5000 + b"}"],
)
def test_malformed_json_object_is_a_parse_error(line: bytes) -> None:
    """Broken JSON objects (incl. NaN, absurd nesting, huge numbers) are -32700, never an exception."""
    item = decode_line(line)
    assert isinstance(item, Malformed)
    assert item.code == PARSE_ERROR
    assert item.reply


@pytest.mark.parametrize("line", [b"42", b'"text"', b"[1, 2]", b"null", b"true"])
def test_json_that_is_not_an_object_is_an_invalid_request(line: bytes) -> None:
    """Valid JSON that is not an object is -32600 (arrays: batches are not supported)."""
    item = decode_line(line)
    assert isinstance(item, Malformed)
    assert item.code == INVALID_REQUEST


@pytest.mark.parametrize("line", [b"Planned edit diff preview:", b"[runtime] starting", b"  indented", b""])
def test_lines_that_are_not_json_are_text_lines(line: bytes) -> None:
    """Plain text lines (what legacy runtimes print) are kept verbatim as ``TextLine``."""
    assert decode_line(line) == TextLine(line.decode())


def test_overlong_line_is_reported_once_when_it_crosses_the_limit() -> None:
    """An overlong line is reported as soon as it passes the limit, once, then skipped to its end."""
    decoder = Decoder(max_line_bytes=100)
    first = decoder.feed(b"x" * 60)
    assert first == []
    crossing = decoder.feed(b"x" * 60)
    assert len(crossing) == 1
    assert isinstance(crossing[0], Malformed) and crossing[0].code == PARSE_ERROR
    assert "longer than 100 bytes" in crossing[0].message
    assert decoder.feed(b"y" * 10_000) == []
    assert decoder.feed(b"z" * 10 + b"\n" + PING + b"\n") == [Notification("ui.working", {"message": "x"})]


def test_overlong_line_is_never_buffered() -> None:
    """While skipping an overlong line, the decoder holds no more than the limit (+1 for a \\r)."""
    splitter = LineSplitter(max_line_bytes=1000)
    for _ in range(100):
        splitter.feed(b"x" * 999)
        assert len(splitter._buffer) <= 1001
    assert splitter.feed(b"\nok\n") == [(2, b"ok")]


def test_overlong_complete_line_in_one_chunk() -> None:
    """A whole overlong line inside one chunk gives one error and the neighbours decode."""
    items = Decoder(max_line_bytes=20).feed(b"short\n" + b"a" * 21 + b"\nafter\n")
    assert items[0] == TextLine("short")
    assert isinstance(items[1], Malformed) and "line 2" in items[1].message
    assert items[2] == TextLine("after")


def test_limit_is_inclusive_and_excludes_the_crlf() -> None:
    """A line of exactly the limit is fine, with ``\\n`` or ``\\r\\n``; one byte more is not."""
    decoder = Decoder(max_line_bytes=5)
    items = decoder.feed(b"abcde\nabcde\r\nabcdef\n")
    assert items[:2] == [TextLine("abcde"), TextLine("abcde")]
    assert isinstance(items[2], Malformed)


def test_close_decodes_an_unterminated_last_line() -> None:
    """At end of stream the last line without a newline still counts."""
    decoder = Decoder()
    assert decoder.feed(PING) == []
    assert decoder.close() == [Notification("ui.working", {"message": "x"})]
    assert decoder.close() == []


def test_line_numbers_count_every_line() -> None:
    """Error messages carry the 1-based line number of the offending line."""
    items = Decoder().feed(b"ok\nok\n{bad\n")
    assert isinstance(items[2], Malformed)
    assert "line 3" in items[2].message


def test_encode_writes_exactly_one_compact_line() -> None:
    """Each message is one UTF-8 line; newlines inside strings are escaped."""
    data = encode(Request(1, "run.start", {"prompt": "two\nlines \u00e9"}))
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert json.loads(data) == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "run.start",
        "params": {"prompt": "two\nlines \u00e9"},
    }
    assert "\u00e9".encode() in data


def test_encode_survives_lone_surrogates() -> None:
    """A lone surrogate echoed from a runtime's JSON falls back to ASCII escapes instead of raising."""
    data = encode(ErrorResponse("\ud800", ErrorInfo(-32600, "x")))
    assert json.loads(data)["id"] == "\ud800"


@given(st.lists(st.binary(max_size=50), max_size=20), st.integers(min_value=1, max_value=40))
def test_chunking_does_not_change_the_result(chunks: list[bytes], limit: int) -> None:
    """Feeding bytes in any chunking gives the same items as feeding them at once."""
    data = b"".join(chunks)
    whole = Decoder(limit)
    expected = whole.feed(data) + whole.close()
    pieces = Decoder(limit)
    got = [item for chunk in chunks for item in pieces.feed(chunk)] + pieces.close()
    assert got == expected


@given(st.lists(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=3), max_size=5))
def test_encode_decode_round_trip(params: list[dict[str, object]]) -> None:
    """What the encoder writes, the decoder reads back as the same messages."""
    messages = [Notification("m", p) for p in params]
    decoder = Decoder()
    assert decoder.feed(b"".join(encode(message) for message in messages)) == messages
