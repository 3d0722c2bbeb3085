"""Fuzz: no bytes and no JSON a runtime can send make the decoder or the session raise."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from protocol_support import note, running, wire

from inline_render import Renderer
from inline_render.inputs import Input, LogAppend, Working, input_from_json, input_to_json
from inline_render.outputs import ConfirmAnswer, Interrupt, PickAnswer, PromptAnswer, Submit
from inline_render.protocol import events
from inline_render.protocol.codec import Decoder, encode
from inline_render.protocol.codelia import methods as m
from inline_render.protocol.codelia.session import Session, Step

METHODS = [*sorted(m.PARAMS_BY_METHOD), "nope", ""]
EVENT_TYPES = [*sorted(events.EVENT_TYPES), "step_start"]
KEYS = [
    "jsonrpc",
    "id",
    "method",
    "params",
    "result",
    "error",
    "run_id",
    "seq",
    "event",
    "type",
    "content",
    "tool",
    "diff",
    "title",
    "options",
    "message",
    "status",
    "code",
    "text",
    "notify_type",
    "ids",
    "value",
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 1000)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["2.0", "r1", "text", "final", "cancelled", "completed", "running", "edit"])
    | st.sampled_from(METHODS)
    | st.sampled_from(EVENT_TYPES)
    | st.text(max_size=8)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), children, max_size=5)
    ),
    max_leaves=20,
)
# Objects shaped like protocol messages, so the fuzz reaches deep into the mapping.
envelopes = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "2.0", "2.0", "1.0"])},
    optional={
        "id": st.integers(0, 5) | st.sampled_from(["c1", "ui-1"]) | st.none(),
        "method": st.sampled_from(METHODS),
        "result": json_values,
        "error": json_values,
        "params": st.fixed_dictionaries(
            {},
            optional={
                "run_id": st.sampled_from(["r1", "r2"]),
                "seq": st.integers(-1, 6),
                "event": st.fixed_dictionaries(
                    {"type": st.sampled_from(EVENT_TYPES)},
                    optional={
                        k: json_values
                        for k in (
                            "content",
                            "tool",
                            "tool_call_id",
                            "args",
                            "result",
                            "is_error",
                            "diff",
                            "summary",
                            "truncated",
                            "message",
                        )
                    },
                ),
                **{
                    k: json_values
                    for k in (
                        "status",
                        "title",
                        "options",
                        "message",
                        "text",
                        "notify_type",
                        "context_left_percent",
                        "default",
                        "multi",
                        "allow_reason",
                    )
                },
            },
        ),
    },
)
outputs = st.one_of(
    st.builds(
        ConfirmAnswer,
        st.sampled_from(["c1", "ui-1", "1", "x"]),
        st.booleans(),
        st.booleans(),
        st.none() | st.text(max_size=5),
    ),
    st.builds(PromptAnswer, st.sampled_from(["c1", "ui-1", "2"]), st.none() | st.text(max_size=5)),
    st.builds(PickAnswer, st.sampled_from(["c1", "3"]), st.lists(st.text(max_size=3), max_size=2).map(tuple)),
    st.builds(Interrupt, st.just("escape")),
    st.builds(Submit, st.text(max_size=5)),
)


def check(step: Step) -> None:
    """Every input is a valid core input, every message encodes, and no internal error happened."""
    for item in step.inputs:
        assert input_from_json(input_to_json(item)) == item
        assert not (isinstance(item, LogAppend) and item.text.startswith("Internal error")), item
    for message in step.send:
        assert encode(message).count(b"\n") == 1


# Example counts scale with the active hypothesis profile (tests/conftest.py; INLINE_RENDER_PROFILE=long).
BASE = settings.default.max_examples


@settings(max_examples=5 * BASE)
@given(st.lists(st.binary(max_size=80), max_size=12), st.integers(1, 64))
def test_arbitrary_bytes_never_raise(chunks: list[bytes], limit: int) -> None:
    """Random bytes in random chunks through decoder and session: no exception, only valid inputs."""
    session = running(structured=False)
    decoder = Decoder(max_line_bytes=limit)
    for chunk in chunks:
        for item in decoder.feed(chunk):
            check(session.receive(item))
    for item in decoder.close():
        check(session.receive(item))
    check(session.runtime_exited(None))


@settings(max_examples=3 * BASE)
@given(st.lists(json_values | envelopes, max_size=15), st.lists(outputs, max_size=4))
def test_garbage_json_never_raises_and_later_messages_still_work(values: list[Any], answers: list[Any]) -> None:
    """Arbitrary JSON (much of it protocol-shaped) never raises; a valid message after it is processed."""
    session = running(structured=True)
    for value in values:
        check(session.receive(wire(value)))
    for answer in answers:
        check(session.handle_output(answer))
    step = session.receive(wire(note("ui.working", message="still alive")))
    check(step)
    assert Working("still alive") in step.inputs


@settings(max_examples=max(BASE // 2, 10))
@given(st.lists(envelopes, min_size=1, max_size=12))
def test_garbage_reaches_the_renderer_without_breaking_it(values: list[dict[str, Any]]) -> None:
    """What the session makes of protocol-shaped garbage is safe to feed to the core renderer."""
    session: Session = running(structured=False)
    renderer = Renderer.in_memory(40, 10)
    for value in values:
        inputs: list[Input] = list(session.receive(wire(json.loads(json.dumps(value)))).inputs)
        renderer.feed(inputs)
    renderer.feed(list(session.runtime_exited(1).inputs))
    assert not any("\x1b" in line for line in renderer.terminal.all_lines())  # no escape leaked through
