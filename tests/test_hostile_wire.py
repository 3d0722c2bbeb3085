"""The hostile corpus through every output mode, checked by an independent scanner of the bytes on the wire.

inline: every control function on the wire is one the renderer emits (tests/wire_scanner.py);
plain: no control function at all but newlines; jsonl: printable ASCII lines, each a JSON object.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from hostile_corpus import STRINGS, hostile_inputs, split_deltas
from prompt_toolkit.output.color_depth import ColorDepth
from wire_scanner import Token, scan, violations

from inline_render import Config, Renderer, Resize, Vt100Backend
from inline_render.shell.plain import PlainWriter

PLAIN_ONLY = {"C0": re.compile("\n")}  # plain transcript: lines of text, nothing else
# Split-delta streaming through every cut of these (the rest are one or two characters long).
SPLIT = [s for s in STRINGS if len(s) > 2 and len(s) < 100]


def _inline_bytes(batches: list[list[object]], columns: int, rows: int) -> bytes:
    data = bytearray()
    renderer = Renderer(Vt100Backend(data.extend, ColorDepth.DEPTH_24_BIT), columns, rows, config=Config())
    renderer.feed([])
    for batch in batches:
        renderer.feed(batch)  # type: ignore[arg-type]
    renderer.feed([Resize(max(columns // 2, 1), rows)])
    renderer.feed([Resize(columns, rows)])
    return bytes(data)


def _all_batches() -> list[list[object]]:
    batches: list[list[object]] = []
    for n, text in enumerate(STRINGS):
        batches += hostile_inputs(text, n)
    return batches


def _split_batches() -> list[list[object]]:
    return [batch for n, text in enumerate(SPLIT) for batch in split_deltas(text, n)]


def test_the_scanner_finds_what_it_must() -> None:
    """The scanner itself: it flags 2J, OSC 52, 8-bit CSI, bidi, bad UTF-8; it passes the renderer's moves."""
    bad = violations(b"\x1b[2J\x1b]52;c;x\x07\xc2\x9b2J\xe2\x80\xae\xed\xa0\x80\x1b[5;3H\x1b[3;20r\x1b[?2026h")
    # Absolute moves and scroll regions are foreign too: the renderer moves only relative to the cursor.
    assert [t.kind for t in bad] == ["CSI", "OSC", "C1", "BIDI", "BAD", "BAD", "BAD", "CSI", "CSI"]
    assert scan(b"\x1b[1;31mred\x1b[0m\r\n") == [Token("CSI", "\x1b[1;31m"), Token("CSI", "\x1b[0m"),
                                                 Token("C0", "\r"), Token("C0", "\n")]  # fmt: skip
    assert violations(b"\x1b[1;31mred\x1b[0m\x1b[?25h\x1b[3A\x1b[A\x1b[12G\x1b[K\x1b[J\r\n") == []
    # Down is line feeds: CUD is foreign too (a shrink mid-frame stops it at the bottom, see ops.MoveBy).
    assert [t.raw for t in violations(b"\x1b[2B\x1b[B")] == ["\x1b[2B", "\x1b[B"]


@pytest.mark.parametrize("size", [(40, 12), (8, 3)])
def test_inline_mode_emits_only_the_renderers_own_sequences(size: tuple[int, int]) -> None:
    """Every hostile string in every field, on a normal and a tiny terminal: only the renderer's sequences."""
    data = _inline_bytes(_all_batches(), *size)
    assert len(data) > 10_000
    assert violations(data) == []


def test_inline_mode_with_sequences_split_across_deltas() -> None:
    """Each hostile sequence streamed in two deltas cut at every position: only the renderer's sequences."""
    data = _inline_bytes(_split_batches(), 30, 8)
    assert violations(data) == []


@pytest.mark.parametrize("ascii_only", [False, True])
def test_plain_mode_writes_no_control_at_all(ascii_only: bool) -> None:
    """Plain transcript (and --ascii): valid UTF-8 with no control function but the newline."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", newline="\n", write_through=True)
    writer = PlainWriter(stream, ascii=ascii_only)
    for batch in _all_batches() + _split_batches():
        writer.feed(batch)  # type: ignore[arg-type]
    writer.close()
    data = raw.getvalue()
    assert data.count(b"\n") > 500
    assert violations(data, PLAIN_ONLY) == []
    if ascii_only:
        assert data.isascii()


def test_jsonl_mode_writes_printable_ascii_json_lines() -> None:
    """JSON Lines: every line printable ASCII and one JSON object; every hostile string comes back exactly."""
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", newline="\n", write_through=True)
    writer = PlainWriter(stream, jsonl=True)
    for batch in _all_batches() + _split_batches():
        writer.feed(batch)  # type: ignore[arg-type]
    writer.close()
    data = raw.getvalue()
    assert violations(data, PLAIN_ONLY) == []
    lines = data.decode("ascii").splitlines()
    assert all(re.fullmatch("[ -~]+", line) for line in lines)
    records = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) and isinstance(r.get("type"), str) for r in records)
    log_texts = {r["text"] for r in records if r["type"] == "log"}
    titles = {r["title"] for r in records if r["type"] == "dialog"}
    for text in STRINGS:
        assert text in titles, text
        if not text.endswith("\n"):  # a final entry's one trailing newline ends its last line
            assert text in log_texts, text
