"""Lemon's dialect (seed 001), sans I/O: the codec's shapes, and the session's inputs and answers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inline_render.inputs import (
    ConfirmCancel,
    EditorSet,
    Input,
    LogAppend,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    PickRequest,
    PromptRequest,
    Status,
    Widget,
    Working,
)
from inline_render.outputs import Interrupt, PickAnswer, PromptAnswer, Submit
from inline_render.protocol.lemon import codec as w
from inline_render.protocol.lemon.session import LemonSession, LemonStep
from inline_render.testing.checks import CheckedRenderer

STRUCT = {"__struct__": "Elixir.Ai.Types.AssistantMessage"}


def line(obj: Any) -> bytes:
    return json.dumps(obj).encode()


def event(kind: str, *data: Any) -> bytes:
    return line({"type": "event", "event": {"type": kind, "data": list(data)}})


def assistant(*blocks: dict[str, Any], stop: str = "stop", error: str | None = None) -> dict[str, Any]:
    return {**STRUCT, "role": "assistant", "content": list(blocks), "stop_reason": stop, "error_message": error}


def text(value: str) -> dict[str, Any]:
    return {"__struct__": "Elixir.Ai.Types.TextContent", "type": "text", "text": value, "text_signature": None}


def feed(session: LemonSession, *lines: bytes) -> LemonStep:
    """All the inputs, sends and dialogs of ``lines``, as one step."""
    steps = [session.receive(w.decode_lemon_line(item)) for item in lines]
    return LemonStep(
        tuple(i for s in steps for i in s.inputs),
        tuple(m for s in steps for m in s.send),
        tuple(d for s in steps for d in s.dialogs),
        next((s.title for s in reversed(steps) if s.title is not None), None),
    )


def running(prompt: str = "hi") -> LemonSession:
    session = LemonSession()
    feed(session, line({"type": "ready", "cwd": "/w", "model": {"provider": "anthropic", "id": "claude-3-5"}}))
    assert session.start_run(prompt, echo=False).send == ({"type": "prompt", "text": prompt},)
    feed(session, event("agent_start"))
    return session


def test_codec_decodes_every_seed_shape_and_tolerates_structs_and_unknown_members() -> None:
    """Each 2.3/2.4 envelope becomes its typed value; __struct__ and extra members change nothing."""
    ready = w.decode_lemon_line(line({"type": "ready", "cwd": "/p", "model": {"provider": "a", "id": "m"}, "x": 1}))
    assert ready == w.LemonReady("/p", "a/m", None, {"x": 1})
    ev = w.decode_lemon_line(event("message_update", assistant(text("hi")), {"type": "text_delta"}))
    assert isinstance(ev, w.LemonEvent) and ev.kind == "message_update" and len(ev.data) == 2
    req = w.decode_lemon_line(line({"type": "ui_request", "id": "u1", "method": "select", "params": {"t": 1}}))
    assert req == w.LemonUiRequest("u1", "select", {"t": 1})
    notify = {"type": "ui_notify", "params": {"message": "m", "notify_type": "warn", "more": True}}
    assert w.decode_lemon_line(line(notify)) == w.LemonSignal("notify", notify["params"])
    assert w.decode_lemon_line(line({"type": "stats", "stats": {"a": 1}})) == w.LemonStats({"a": 1})
    assert w.decode_lemon_line(line({"type": "pong"})) == w.LemonPong()
    assert w.decode_lemon_line(line({"type": "error", "message": "no"})) == w.LemonError("no")
    assert isinstance(w.decode_lemon_line(line({"type": "debug", "x": 1})), w.LemonOther)


@pytest.mark.parametrize(
    "raw",
    [
        b"plain text",
        b"[1, 2]",
        b'{"no_type": 1}',
        b'{"type": 3}',
        b'{"type": "event", "event": {"type": "x"',
        b'{"type": "event", "event": {"type": "message_update", "data": {"a": 1}}}',
        b'{"type": "ui_request", "id": true, "method": "select"}',
        b'{"type": "ui_status", "params": {"key": "k"}}',
        b'{"type": "ui_widget", "params": {"key": "k", "content": "c", "opts": []}}',
        b"\xff\xfe",
        None,
    ],
)
def test_malformed_lines_are_one_quiet_status_line_and_nothing_is_written_back(raw: bytes | None) -> None:
    """A line that is not a Lemon message: exactly one status line, no reply to the runtime."""
    session = running()
    step = session.receive(w.decode_lemon_line(raw))
    assert step.send == ()
    assert [type(i) for i in step.inputs] == [LogAppend]
    assert isinstance(step.inputs[0], LogAppend) and step.inputs[0].kind == "status"
    assert "Ignored a malformed" in step.inputs[0].text


def test_first_line_recognition_accepts_only_lemon_ready() -> None:
    """Auto-detection: Lemon's ready line, not a JSON-RPC message, not text."""
    assert w.is_lemon_ready(b'{"type":"ready","cwd":"/p","model":{"provider":"a","id":"b"},"debug":false}')
    assert not w.is_lemon_ready(b'{"jsonrpc":"2.0","id":"1","result":{}}')
    assert not w.is_lemon_ready(b'{"type":"event","event":{"type":"agent_start","data":[]}}')
    assert not w.is_lemon_ready(b"ready")


def test_streamed_snapshots_replace_the_message_in_place_and_show_it_once() -> None:
    """message_update's data[0] is the whole message: one entry grows or is replaced, never appended twice."""
    session = running()
    step = feed(
        session,
        event("message_start", assistant()),
        event("message_update", assistant(text("Hel")), {"type": "text_delta"}),
        event("message_update", assistant(text("Hello wor")), {"type": "text_delta"}),
        event("message_update", assistant(text("Hello world")), {"type": "text_delta"}),
        event("message_update", assistant(text("Hello, world")), {"type": "text_delta"}),  # rewritten: replaced
        event("message_end", assistant(text("Hello, world"))),
    )
    logs = [i for i in step.inputs if isinstance(i, (LogAppend, LogDelta, LogReplace, LogFinish))]
    assert logs == [
        LogAppend("assistant", "Hel", "lemon-1#1", final=False),
        LogDelta("lemon-1#1", "lo wor"),
        LogDelta("lemon-1#1", "ld"),
        LogReplace("lemon-1#1", "Hello, world"),
        LogFinish("lemon-1#1"),
    ]
    renderer = CheckedRenderer(60, 12)
    renderer.feed(step.inputs)
    renderer.feed([])
    shown = renderer.renderer.terminal.all_lines()
    assert sum("Hello, world" in row for row in shown) == 1 and not any("Hello world" in row for row in shown)


def test_thinking_text_and_tool_call_blocks_then_the_tool_run_each_show_once() -> None:
    """Thinking is a reasoning entry, the call is shown once (block or execution start), then its result."""
    session = running()
    think = {"type": "thinking", "thinking": "Let me look.", "thinking_signature": None}
    call = {"type": "tool_call", "id": "c1", "name": "read", "arguments": {"path": "a.py"}}
    result = {"__struct__": "Elixir.AgentCore.Types.AgentToolResult", "content": [text("line 1")], "details": {}}
    step = feed(
        session,
        event("message_start", assistant()),
        event("message_update", assistant(think), {}),
        event("message_update", assistant(think, text("Reading.")), {}),
        event("message_update", assistant(think, text("Reading."), call), {}),
        event("message_end", assistant(think, text("Reading."), call, stop="tool_use")),
        event("tool_execution_start", "c1", "read", {"path": "a.py"}),
        event("tool_execution_update", "c1", "read", {"path": "a.py"}, result),
        event("tool_execution_end", "c1", "read", result, False),
        event("tool_execution_start", "c2", "bash", {"cmd": "ls"}),  # no block came for c2: shown here
        event("tool_execution_end", "c2", "bash", {"content": [text("boom")]}, True),
        event("turn_end", assistant(), []),
        event("agent_end", []),
    )
    finished = [(i.kind, i.text) for i in step.inputs if isinstance(i, LogAppend) and i.final]
    assert finished == [
        ("reasoning", "Let me look."),
        ("tool", "read path=a.py"),
        ("tool", "read: line 1"),
        ("tool", "bash cmd=ls"),
        ("error", "bash failed: boom"),
    ]
    assert [i for i in step.inputs if isinstance(i, LogAppend) and not i.final] == [
        LogAppend("assistant", "Reading.", "lemon-1#1", final=False)
    ]
    assert Working("Running read: line 1") in step.inputs and Working("") in step.inputs
    assert not session.busy and session.run_status("lemon-1") == "completed"


def test_an_error_event_and_an_error_stop_reason_are_error_entries() -> None:
    """2.4.1's error [reason, partial_state] and a message that stopped on error both show as errors."""
    session = running()
    step = feed(
        session,
        event("message_end", assistant(text("Part"), stop="error", error="overloaded")),
        event("error", {"__struct__": "Elixir.RuntimeError", "message": "provider down"}, {}),
    )
    errors = [i.text for i in step.inputs if isinstance(i, LogAppend) and i.kind == "error"]
    assert errors == ["overloaded", "provider down"]


def answer_of(session: LemonSession, request: dict[str, Any], output: Any) -> tuple[Input, Any]:
    step = feed(session, line({"type": "ui_request", **request}))
    assert step.send == () and step.dialogs == (f"lemon:{request['id']}",)
    assert Working("") in step.inputs  # the agent waits for the user: no spinner meanwhile
    answered = session.handle_output(output)
    (answer,) = answered.send
    assert answer["type"] == "ui_response" and answer["id"] == request["id"] and answer["error"] is None
    assert answered.inputs == (Working("Working"),)  # the run goes on
    return next(i for i in step.inputs if isinstance(i, (PickRequest, PromptRequest))), answer["result"]


def test_overlays_are_answered_in_the_shapes_of_2_2() -> None:
    """select: the option's value or null; confirm: true/false (null on Esc); input/editor: the string or null."""
    session = running()
    options = ["plain", {"label": "Big", "value": {"size": 3}, "description": "d"}]
    select = {"id": "s1", "method": "select", "params": {"title": "Pick", "options": options}}
    item, result = answer_of(session, select, PickAnswer("lemon:s1", ("1",)))
    assert isinstance(item, PickRequest) and [o.label for o in item.options] == ["plain", "Big"]
    assert result == {"size": 3}
    assert answer_of(session, {**select, "id": "s2"}, PickAnswer("lemon:s2", ()))[1] is None  # Esc
    confirm = {"id": 7, "method": "confirm", "params": {"title": "Sure?", "message": "Really"}}
    item, result = answer_of(session, confirm, PickAnswer("lemon:7", ("0",)))
    assert isinstance(item, PickRequest) and [o.label for o in item.options] == ["Yes", "No"]  # 4.4: a SelectList
    assert item.message == "Really" and result is True
    assert answer_of(session, {**confirm, "id": 8}, PickAnswer("lemon:8", ("1",)))[1] is False
    assert answer_of(session, {**confirm, "id": 9}, PickAnswer("lemon:9", ()))[1] is None  # Esc: null (4.4)
    ask = {"id": "i1", "method": "input", "params": {"title": "Name", "placeholder": "you"}}
    item, result = answer_of(session, ask, PromptAnswer("lemon:i1", "Ann"))
    assert isinstance(item, PromptRequest) and not item.multiline and item.placeholder == "you" and result == "Ann"
    assert answer_of(session, {**ask, "id": "i2"}, PromptAnswer("lemon:i2", None))[1] is None
    editor = {"id": "e1", "method": "editor", "params": {"title": "Plan", "prefill": "a\nb"}}
    item, result = answer_of(session, editor, PromptAnswer("lemon:e1", "a\nb\nc"))
    assert isinstance(item, PromptRequest) and item.multiline and item.default == "a\nb" and result == "a\nb\nc"


def test_unsupported_or_invalid_overlays_are_answered_with_an_error() -> None:
    """2.2's error shape: the runtime is never left waiting on an overlay this UI cannot show."""
    session = running()
    step = feed(
        session,
        line({"type": "ui_request", "id": "x", "method": "color_picker", "params": {}}),
        line({"type": "ui_request", "id": "y", "method": "select", "params": {"options": []}}),
    )
    assert [(m["id"], m["result"], bool(m["error"])) for m in step.send] == [("x", None, True), ("y", None, True)]
    assert step.dialogs == () and not any(isinstance(i, PickRequest) for i in step.inputs)


def test_ctrl_c_in_an_overlay_answers_null_and_closes_it_without_aborting() -> None:
    """4.4: Ctrl-C in an overlay sends result null (error null); the run goes on."""
    session = running()
    feed(session, line({"type": "ui_request", "id": "c", "method": "confirm", "params": {"title": "T"}}))
    step = session.handle_output(Interrupt("c-c"))
    assert step.send == ({"type": "ui_response", "id": "c", "result": None, "error": None},)
    assert step.inputs == (ConfirmCancel("lemon:c"), Working("Working")) and session.busy
    assert session.handle_output(PickAnswer("lemon:c", ("0",))).send == ()  # closed: nothing more


def test_an_unanswered_overlay_times_out_with_the_fallback_of_2_1() -> None:
    """After the timeout: confirm answers false, select null; the overlay closes with one status line."""
    session = running()
    feed(
        session,
        line({"type": "ui_request", "id": "a", "method": "confirm", "params": {"title": "Go?"}}),
        line({"type": "ui_request", "id": "b", "method": "select", "params": {"options": ["x"]}}),
    )
    first = session.dialog_timed_out("lemon:a", 25)
    assert first.send == ({"type": "ui_response", "id": "a", "result": False, "error": None},)
    assert first.inputs[0] == ConfirmCancel("lemon:a")
    assert any(isinstance(i, LogAppend) and "No answer to Go? within 25 s" in i.text for i in first.inputs)
    assert session.dialog_timed_out("lemon:b", 25).send[0]["result"] is None
    assert session.dialog_timed_out("lemon:a", 25) == LemonStep()  # already answered: nothing twice


def test_signals_become_notices_status_fields_spinner_editor_text_and_title() -> None:
    """ui_notify, ui_status (named fields; empty text removes), ui_working, ui_set_editor_text, ui_set_title."""
    session = running()
    step = feed(
        session,
        line({"type": "ui_notify", "params": {"message": "Saved", "notify_type": "success"}}),
        line({"type": "ui_notify", "params": {"message": "Odd", "notify_type": "weird"}}),
        line({"type": "ui_status", "params": {"key": "tokens", "text": "46 tokens"}}),
        line({"type": "ui_status", "params": {"key": "branch", "text": "main\nx"}}),
        line({"type": "ui_status", "params": {"key": "tokens", "text": ""}}),
        line({"type": "ui_working", "params": {"message": "Indexing"}}),
        line({"type": "ui_set_editor_text", "params": {"text": "draft"}}),
        line({"type": "ui_set_title", "params": {"title": "My title"}}),
    )
    assert Notify("Saved", "success") in step.inputs and Notify("Odd", "info") in step.inputs
    statuses = [i.text for i in step.inputs if isinstance(i, Status)]
    assert statuses == [
        "running \u00b7 anthropic/claude-3-5 \u00b7 46 tokens",
        "running \u00b7 anthropic/claude-3-5 \u00b7 46 tokens \u00b7 main x",
        "running \u00b7 anthropic/claude-3-5 \u00b7 main x",
    ]
    assert Working("Indexing") in step.inputs and EditorSet("draft") in step.inputs
    assert step.title == "My title" and step.send == ()


def test_ui_widget_becomes_a_widget_placed_by_its_opts() -> None:
    """ui_widget {key, content, opts}: above the composer by default, below for a below placement."""
    session = running()
    step = feed(
        session,
        line({"type": "ui_widget", "params": {"key": "todo", "content": "- a", "opts": {}}}),
        line({"type": "ui_widget", "params": {"key": "tip", "content": "hi", "opts": {"placement": "belowEditor"}}}),
        line({"type": "ui_widget", "params": {"key": "todo", "content": ""}}),
    )
    assert [i for i in step.inputs if isinstance(i, Widget)] == [
        Widget("todo", "- a", False),
        Widget("tip", "hi", True),
        Widget("todo", "", False),
    ]


def test_prompts_and_client_commands_are_sent_as_their_type() -> None:
    """A submitted message is {type: prompt, text}; /abort /reset /save /stats /ping /quit their type."""
    session = LemonSession()
    assert session.handle_output(Submit("hi")).send == ({"type": "prompt", "text": "hi"},)
    assert session.busy and session.start_run("again").send == ()  # one run at a time
    for name in ("abort", "reset", "save", "stats", "ping", "quit"):
        step = session.command(f"/{name}")
        assert step is not None and step.send == ({"type": name},), name
    assert session.command("/help") is None and session.command("hello") is None
    assert session.handle_output(Interrupt("escape")).send == ()  # /abort was sent already: not twice


def test_replies_to_commands_and_runtime_errors_are_shown() -> None:
    """pong and stats are status lines; an error before agent_start ends the prompt's run as failed."""
    session = LemonSession()
    session.start_run("hi")
    step = feed(session, line({"type": "pong"}), line({"type": "stats", "stats": {"turns": 2}}))
    assert [i.text for i in step.inputs if isinstance(i, LogAppend)] == ["pong", 'stats: {"turns":2}']
    step = feed(session, line({"type": "error", "message": "busy"}))
    assert any(isinstance(i, LogAppend) and i.kind == "error" and "busy" in i.text for i in step.inputs)
    assert not session.busy and session.run_status("lemon-1") == "error"


def test_the_runtime_exiting_mid_run_ends_it_and_closes_its_overlays() -> None:
    """A crash: the run fails with one error line, an open overlay closes, nothing is sent."""
    session = running()
    feed(session, line({"type": "ui_request", "id": "q", "method": "input", "params": {}}))
    step = session.runtime_exited(1)
    assert ConfirmCancel("lemon:q") in step.inputs and step.send == ()
    assert session.run_status("lemon-1") == "error" and not session.busy


def test_a_message_left_open_is_finished_by_the_next_one_and_nothing_is_emitted_twice() -> None:
    """Out of order: an update without start streams; a new start finishes the old; a shorter snapshot adds nothing."""
    session = running()
    step = feed(
        session,
        event("message_update", assistant(text("First")), {}),  # no message_start
        event("message_start", assistant()),  # the first never ended: finished as it last was
        event("message_update", assistant(text("A"), text("B")), {}),
        event("message_update", assistant(text("A")), {}),  # fewer blocks than finished: nothing new
        event("message_end", assistant(text("A"), text("B2"))),
        event("message_end", assistant(text("A"), text("B2"))),  # a repeated end: nothing twice
    )
    appended = [(i.text, i.final) for i in step.inputs if isinstance(i, LogAppend)]
    assert appended == [("First", False), ("A", True), ("B", False)]
    assert [i for i in step.inputs if isinstance(i, (LogDelta, LogFinish))] == [
        LogFinish("lemon-1#1"),
        LogDelta("lemon-1#3", "2"),
        LogFinish("lemon-1#3"),
    ]


def _json(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """JSON containers, biased towards Lemon's envelopes (a type, an event, params)."""
    kinds = st.sampled_from(["ready", "event", "ui_request", "ui_notify", "ui_status", "ui_widget", "error", "x"])
    keys = st.sampled_from(["type", "event", "data", "params", "id", "method", "message", "key", "text", "content"])
    return st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(keys, children, max_size=4),
        st.fixed_dictionaries({"type": kinds}, optional={"event": children, "params": children, "id": children}),
    )


EVIL = "x\x1b]52;c;ZXZpbA==\x07\x1b[2J\x9b31m\x1b[3Jy"


def test_hostile_text_in_every_lemon_field_never_reaches_the_terminal_as_a_sequence() -> None:
    """Escapes in streamed text, thinking, tool calls/results, notices, status, widgets, options: neutralized."""
    session = running()
    evil_text = {"type": "text", "text": EVIL}
    call = {"type": "tool_call", "id": "c", "name": EVIL, "arguments": {"p": EVIL}}
    step = feed(
        session,
        event("message_update", assistant({"type": "thinking", "thinking": EVIL}, evil_text), {}),
        event("message_end", assistant({"type": "thinking", "thinking": EVIL}, evil_text, call)),
        event("tool_execution_update", "c", EVIL, {}, {"content": [text(EVIL)]}),
        event("tool_execution_end", "c", EVIL, {"content": [text(EVIL)]}, True),
        event("error", EVIL, {}),
        line({"type": "ui_notify", "params": {"message": EVIL, "notify_type": "warn"}}),
        line({"type": "ui_status", "params": {"key": "k", "text": EVIL}}),
        line({"type": "ui_working", "params": {"message": EVIL}}),
        line({"type": "ui_widget", "params": {"key": "w", "content": EVIL, "opts": {}}}),
        line({"type": "ui_request", "id": "s", "method": "select", "params": {"title": EVIL, "options": [EVIL]}}),
        line({"type": "error", "message": EVIL}),
    )
    renderer = CheckedRenderer(60, 16)  # fails on any forbidden sequence written, after every tick
    renderer.feed(step.inputs)
    renderer.feed([])
    shown = "\n".join(renderer.renderer.terminal.all_lines())
    assert shown.count("ZXZpbA==") >= 5 and "\x1b" not in shown


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.binary(max_size=80), st.recursive(st.none() | st.booleans() | st.text(max_size=8), _json, max_leaves=12)
    )
)
def test_no_line_crashes_the_session_or_earns_a_reply_unless_it_is_an_overlay(raw: Any) -> None:
    """Fuzz: any bytes or JSON value is decoded and handled without raising; only a ui_request is answered."""
    session = running()
    data = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
    step = session.receive(w.decode_lemon_line(data))
    if step.send:
        assert isinstance(raw, dict) and raw.get("type") == "ui_request"
