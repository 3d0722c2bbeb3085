"""Fuzz the scenario loader and the protocol decoder with hostile depth, size, number range and encoding.

The JSON is written as raw text, so it can hold what no Python value serializes to: integers of
thousands of digits, 1e400, NaN, nesting hundreds deep, invalid UTF-8 and escaped lone surrogates.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prompt_toolkit.output.color_depth import ColorDepth
from protocol_support import running
from wire_scanner import violations

from inline_render import Config, Renderer, Vt100Backend
from inline_render.errors import ScenarioError
from inline_render.inputs import INPUT_TYPES, LogAppend
from inline_render.protocol import events
from inline_render.protocol.codec import Decoder
from inline_render.protocol.codelia import methods as m
from inline_render.scenario import Scenario, load_scenario, parse_scenario, replay
from inline_render.scenario.cli import main

# Example counts: a few seconds each in the default profile; bounded in the long one too.
EXAMPLES = min(settings.default.max_examples, 600)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclasses.dataclass(frozen=True)
class Raw:
    """JSON text written as is (a number literal, a string with raw bytes, a deep nest)."""

    text: bytes


def dump(value: Any) -> bytes:
    """``value`` as JSON text, ``Raw`` pieces verbatim (ASCII escapes elsewhere: lone surrogates survive)."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return b"{" + b", ".join(dump(k) + b": " + dump(v) for k, v in value.items()) + b"}"
    if isinstance(value, list):
        return b"[" + b", ".join(dump(v) for v in value) + b"]"
    return json.dumps(value, ensure_ascii=True).encode("ascii")


_NUMBERS = ["0", "-1", "1", "3", "80", "10000", "10001", "1e400", "-1e400", "1.5e-400", "NaN", "Infinity", "-Infinity",
            "-0", "0.5", "9223372036854775808", "-9223372036854775809", "1e308", "DIGITS309", "DIGITS400",
            "DIGITS1000", "DIGITS4000", "DIGITS4400", "DIGITS400", "DIGITS4000"]  # fmt: skip


def _number(literal: str) -> Raw:
    digits = literal.removeprefix("DIGITS")  # built here, so hypothesis does not print 4,400 digits in reprs
    return Raw(("1" + "0" * int(digits)).encode() if digits != literal else literal.encode())


NUMBERS = st.sampled_from(_NUMBERS).map(_number)
TEXTS = st.text(max_size=12) | st.sampled_from(["\ud800", "\x1b[2J", "\x9b", "\u202e", "\ufeff", "LONG"]).map(
    lambda s: "a" * 5000 if s == "LONG" else s
)
BAD_STRINGS = st.sampled_from([b'"\xff\xfe"', b'"\xc0\xaf"', b'"\xed\xa0\x80"', b'"\\ud800\\udfff"', b'"\\u0000"'])
DEEP = st.integers(30, 3000).map(lambda n: Raw(b"[" * n + b"]" * n))
LEAVES = NUMBERS | TEXTS | BAD_STRINGS.map(Raw) | DEEP | st.booleans() | st.none()
VALUES = st.recursive(
    LEAVES, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3), max_leaves=6
)


def shaped(keys: list[str], *fixed: tuple[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with the ``fixed`` fields and hostile values under known keys (so parsing gets deep)."""
    hostile = st.one_of(NUMBERS, NUMBERS, DEEP, VALUES)  # numbers and depth: often
    return st.fixed_dictionaries({k: st.just(v) for k, v in fixed}, optional=dict.fromkeys(keys, hostile))


# ---------------------------------------------------------------- scenario loader
_CONFIG_FIELDS = [f.name for f in dataclasses.fields(Config)]
hostile_headers = st.fixed_dictionaries(
    {"format": st.just("inline-render-scenario"), "version": st.just(1) | NUMBERS},
    optional={
        "terminal": shaped(["columns", "rows", "cursor_row"]),
        "config": shaped(_CONFIG_FIELDS),
        "name": TEXTS,
    },
)
valid_headers = st.fixed_dictionaries(
    {
        "format": st.just("inline-render-scenario"),
        "version": st.just(1),
        "terminal": st.just({"columns": 20, "rows": 6}),
    }
)
headers = st.one_of(valid_headers, valid_headers, hostile_headers)  # mostly valid: the ticks get parsed too
inputs = st.sampled_from(sorted(INPUT_TYPES)).flatmap(
    lambda t: shaped([f.name for f in dataclasses.fields(INPUT_TYPES[t])] + ["x"], ("type", t))
)
ticks = st.fixed_dictionaries(
    {"inputs": st.lists(inputs, max_size=4)},
    optional={"expect": shaped(["screen", "cursor", "wrapped_total", "inserted_until", "outputs", "sync_phase"])},
)


@FUZZ
@given(headers, st.lists(ticks, max_size=4), st.sampled_from([b"", b"\xef\xbb\xbf", b"\xff"]))
def test_scenario_loader_gives_a_scenario_or_a_scenario_error(header: Any, body: list[Any], prefix: bytes) -> None:
    """Any file: load gives a Scenario (which replays without raising) or a ScenarioError naming file:line."""
    import tempfile

    data = prefix + b"\n".join(dump(line) for line in [header, *body]) + b"\n"
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "f.jsonl"
        path.write_bytes(data)
        try:
            scenario = load_scenario(path)
        except ScenarioError as error:
            assert str(error).startswith(f"{path}:")
            return
    assert isinstance(scenario, Scenario)
    if scenario.columns * scenario.rows <= 10_000:
        result = replay(scenario, emulators=False)
        assert result.ticks_run <= len(scenario.ticks)
        assert all(f.field != "error" for f in result.failures), result.report()


@settings(FUZZ, max_examples=max(EXAMPLES // 4, 10))
@given(headers, st.lists(ticks, max_size=3))
def test_replay_cli_on_any_file_prints_inert_lines_and_exits_0_1_or_2(header: Any, body: list[Any]) -> None:
    """The replay CLI on any file (written to disk): exit 0, 1 or 2, no traceback, no control in its output."""
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "f.jsonl"
        path.write_bytes(b"\n".join(dump(line) for line in [header, *body]) + b"\n")
        try:
            scenario = parse_scenario(path.read_text("utf-8", "replace"))
            if scenario.columns * scenario.rows > 10_000:
                return  # a legal but large terminal: replayed in test_hostile_files, too slow for a fuzz loop
        except ScenarioError:
            pass
        out = io.StringIO()
        status = main(["--no-pyte", str(path)], out=out)
    assert status in (0, 1, 2)
    text = out.getvalue()
    assert "Traceback" not in text
    assert not [c for c in text if (c < " " and c != "\n") or "\x7f" <= c <= "\x9f" or "\ud800" <= c <= "\udfff"]


# ---------------------------------------------------------------- protocol decoder
_EVENT_FIELDS = ["content", "tool", "tool_call_id", "args", "result", "is_error", "diff", "summary", "message"]
events_ = st.sampled_from(sorted(events.EVENT_TYPES)).flatmap(lambda t: shaped(_EVENT_FIELDS, ("type", t)))


def _params(method: str) -> st.SearchStrategy[dict[str, Any]]:
    """Params of ``method`` with hostile values in its own fields (a run id that matches the running run)."""
    names = [f.name for f in dataclasses.fields(m.PARAMS_BY_METHOD[method]) if f.name not in ("run_id", "event")]
    fixed = st.fixed_dictionaries({"run_id": st.just("r1")}, optional={"event": events_})
    return st.tuples(fixed, shaped(names)).map(lambda pair: {**pair[0], **pair[1]})


messages = st.sampled_from(sorted(m.PARAMS_BY_METHOD)).flatmap(
    lambda method: st.fixed_dictionaries(
        {"jsonrpc": st.just("2.0"), "method": st.just(method), "params": _params(method)},
        optional={"id": NUMBERS | TEXTS},
    )
)


@FUZZ
@given(st.lists(messages | VALUES, min_size=1, max_size=6), st.sampled_from([4096, 1 << 20]))
def test_protocol_decoder_and_session_take_any_line(lines: list[Any], limit: int) -> None:
    """Hostile numbers, depth, size and encoding: no exception, no internal error, only the renderer's bytes."""
    session = running(structured=True)
    decoder = Decoder(max_line_bytes=limit)
    data = bytearray()
    renderer = Renderer(Vt100Backend(data.extend, ColorDepth.DEPTH_8_BIT), 30, 8)
    stream = b"".join(dump(line) + b"\n" for line in lines)
    for item in [*decoder.feed(stream), *decoder.close()]:
        step = session.receive(item)
        internal = [i.text for i in step.inputs if isinstance(i, LogAppend) and i.text.startswith("Internal error")]
        assert not internal, internal
        renderer.feed(list(step.inputs))
    assert violations(bytes(data)) == []


# ---------------------------------------------------------------- every number in every field
HOSTILE_NUMBERS = [_number(literal).text for literal in dict.fromkeys(_NUMBERS)]


def test_every_hostile_number_in_every_input_field_is_a_value_or_invalid_input() -> None:
    """Each hostile number literal in each field of each input type: an input or an InvalidInput, nothing else."""
    from inline_render import InvalidInput, input_from_json

    checked = 0
    for kind, cls in INPUT_TYPES.items():
        for field in dataclasses.fields(cls):
            for number in HOSTILE_NUMBERS:
                try:
                    value = json.loads(b'{"type": "%s", "%s": %s}' % (kind.encode(), field.name.encode(), number))
                except ValueError:
                    continue  # over 4,300 digits: the loaders report it (test_hostile_files.py)
                with contextlib.suppress(InvalidInput):
                    input_from_json(value)
                checked += 1
    assert checked > 500


def test_every_hostile_number_in_every_protocol_param_is_handled_without_internal_error() -> None:
    """Each hostile number in each param of each method (and in agent events): no internal error, clean bytes."""
    session = running(structured=True)
    decoder = Decoder()
    data = bytearray()
    renderer = Renderer(Vt100Backend(data.extend, ColorDepth.DEPTH_8_BIT), 30, 8)
    lines = []
    for method, cls in sorted(m.PARAMS_BY_METHOD.items()):
        for field in dataclasses.fields(cls):
            for number in HOSTILE_NUMBERS:
                params = b'{"run_id": "r1", "%s": %s}' % (field.name.encode(), number)
                lines.append(b'{"jsonrpc": "2.0", "method": "%s", "params": %s}' % (method.encode(), params))
    for kind in sorted(events.EVENT_TYPES):
        for name in ["seq", *_EVENT_FIELDS]:
            for number in HOSTILE_NUMBERS:
                event = b'{"type": "%s", "%s": %s}' % (kind.encode(), name.encode(), number)
                params = b'{"run_id": "r1", "seq": 1, "event": %s}' % event
                lines.append(b'{"jsonrpc": "2.0", "method": "agent.event", "params": %s}' % params)
    for item in decoder.feed(b"\n".join(lines) + b"\n"):
        step = session.receive(item)
        internal = [i.text for i in step.inputs if isinstance(i, LogAppend) and i.text.startswith("Internal error")]
        assert not internal, (item, internal)
        renderer.feed(list(step.inputs))
    assert violations(bytes(data)) == []
