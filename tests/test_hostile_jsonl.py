"""JSON Lines mode under hostile text: every record printable ASCII, every field the runtime's exact text."""

from __future__ import annotations

import io
import json

from inline_render import (
    ConfirmRequest,
    Key,
    LogAppend,
    LogDelta,
    LogFinish,
    Notify,
    PickOption,
    PickRequest,
    PromptRequest,
    Status,
)
from inline_render.outputs import ConfirmAnswer, PickAnswer
from inline_render.protocol.jsonl import carry, encode_record, uncarry
from inline_render.shell.plain import PlainWriter

NASTY = "a\ud800b\x1b[2J\x9b2J\x9d0;x\x07\u202eevil\x7f\t\r\x00\U00100000\U0010fffd\u2028z"


def _stream() -> io.TextIOWrapper:
    """What the runner writes to: a strict UTF-8 text stream over bytes (StringIO would accept surrogates)."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\n", write_through=True)


def _records(stream: io.TextIOWrapper) -> list[dict[str, object]]:
    assert isinstance(stream.buffer, io.BytesIO)
    text = stream.buffer.getvalue().decode("ascii")
    assert text.isascii() and all(" " <= c <= "~" for c in text.replace("\n", "")), repr(text)
    return [json.loads(line) for line in text.splitlines()]


def test_lone_surrogate_in_dialog_fields_is_written_and_round_trips() -> None:
    """A lone surrogate in a dialog's title, message and option ids is written (no crash) and read back exactly."""
    stream = _stream()
    writer = PlainWriter(stream, jsonl=True)
    writer.feed([ConfirmRequest("c\ud800", "t\ud800", "m\udfff")])
    outputs = writer.feed([Key("y")])
    assert outputs == [ConfirmAnswer("c\ud800", True)]
    writer.feed([PickRequest("p\ud800", "pick", options=(PickOption("o\ud800", "label"),))])
    outputs = writer.feed([Key("enter")])
    assert outputs == [PickAnswer("p\ud800", ("o\ud800",))]
    records = _records(stream)
    assert records[0] == {
        "type": "dialog",
        "dialog": "confirm",
        "id": "c\ud800",
        "title": "t\ud800",
        "message": "m\udfff",
    }
    assert {"type": "pick.answer", "id": "p\ud800", "ids": ["o\ud800"]} in records


def test_every_field_keeps_the_runtime_text_and_the_bytes_stay_printable_ascii() -> None:
    """C1 controls, bidi overrides, DEL, tabs, \\r and plane-16 characters: escaped on the wire, exact after loads."""
    stream = _stream()
    writer = PlainWriter(stream, jsonl=True)
    writer.feed([Status(NASTY + "\nsecond"), LogAppend("tool", NASTY), Notify(NASTY, "warn")])
    writer.feed([LogAppend("assistant", NASTY[:5], id="s", final=False), LogDelta("s", NASTY[5:]), LogFinish("s")])
    writer.feed([PromptRequest("q", NASTY, NASTY)])
    writer.close()
    records = _records(stream)
    assert {"type": "status", "text": NASTY + "\nsecond"} in records
    assert {"type": "log", "kind": "tool", "text": NASTY} in records
    assert {"type": "log", "kind": "warn", "text": NASTY} in records
    assert {"type": "log", "kind": "assistant", "text": NASTY} in records
    assert {"type": "dialog", "dialog": "prompt", "id": "q", "title": NASTY, "message": NASTY} in records


def test_carry_is_reversible_and_the_core_leaves_carried_text_alone() -> None:
    """carry/uncarry invert each other on every character class, and sanitize does not touch carried text."""
    from inline_render.text.cells import expand_tabs, flatten, sanitize

    for text in (NASTY, "", "plain", "\U0010fffd\U0010fffd", "\U00100041x", "\U0010ffff"):
        assert uncarry(carry(text)) == text
        assert uncarry(carry(text, lines=True)) == text
        assert sanitize(carry(text)) == carry(text) == expand_tabs(carry(text), 0)
        assert flatten(carry(text, lines=True)) == carry(text, lines=True)


def test_encode_record_escapes_del_and_c1() -> None:
    """The one record encoder writes DEL, C1 and bidi characters as \\u escapes."""
    line = encode_record({"text": "\x7f\x9b\u202e\u00e9"})
    assert line == '{"text": "\\u007f\\u009b\\u202e\\u00e9"}'
    assert json.loads(line) == {"text": "\x7f\x9b\u202e\u00e9"}
