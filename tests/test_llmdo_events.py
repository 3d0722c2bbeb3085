"""Seed 000's events: JSON shapes, ASCII text per verbosity, truncation constants, translation, approvals."""

from __future__ import annotations

import asyncio
import io
import json
import sys

from hostile_corpus import STRINGS
from llmdo_shapes import SEED_SHAPES, check_record
from protocol_support import connected, event, running, status, wire

from inline_render.demo.scripted import Demo
from inline_render.inputs import ConfirmRequest
from inline_render.protocol.events import FinalEvent, TextEvent, ToolCallEvent, ToolResultEvent
from inline_render.protocol.facts import RunEnded, RunStarted
from inline_render.protocol.llmdo.events import (
    MAX_ARGS_DISPLAY,
    MAX_INPUT_DISPLAY,
    MAX_RESULT_DISPLAY,
    MAX_RESULT_LINES,
    ApprovalOutcome,
    ApprovalRequestEvent,
    CompletionEvent,
    DeferredToolEvent,
    ErrorEvent,
    InitialRequestEvent,
    StatusEvent,
    TextResponseEvent,
    Truncation,
    encode_json,
)
from inline_render.protocol.llmdo.events import ToolCallEvent as LlmToolCall
from inline_render.protocol.llmdo.events import ToolResultEvent as LlmToolResult
from inline_render.protocol.llmdo.output import ApprovalPolicy, EventFormat, LlmDoTranslator, LlmDoWriter
from inline_render.testing.pilot import run_app

W = "worker"
ONE_OF_EACH = [
    InitialRequestEvent(W, "be brief", "fix it", ("a.txt",)),
    StatusEvent(W, "step", "end", "m", 1.5),
    TextResponseEvent(W, "hi", is_complete=False, is_delta=True),
    LlmToolCall(W, "edit", "c1", {"path": "a"}),
    LlmToolResult(W, "edit", "c1", "ok", False),
    DeferredToolEvent(W, "build", "running"),
    CompletionEvent(W),
    ErrorEvent(W, "boom", "run_error", "trace"),
    ApprovalRequestEvent(W, "shell", "rm -rf /tmp/cache", {"command": "rm -rf /tmp/cache"}),
]
RUN = [
    RunStarted("Fix it"),
    TextEvent("Looking."),
    TextEvent("Still looking."),
    ToolCallEvent("edit", "c1", {"path": "a.py"}),
    ToolResultEvent("edit", "c1", "done"),
    FinalEvent("All done."),
    RunEnded("r1", "completed"),
]


def _write(fmt: EventFormat, verbosity: int = 0) -> tuple[str, str]:
    err, out = io.StringIO(), io.StringIO()
    writer = LlmDoWriter(fmt, err, out, verbosity=verbosity)
    writer.facts(RUN)
    writer.finish()
    return err.getvalue(), out.getvalue()


def test_every_event_type_has_the_seed_shape_and_a_worker() -> None:
    """Each of the nine event types encodes to exactly the seed's members and types, worker included."""
    kinds = {check_record(json.loads(encode_json(e))) for e in ONE_OF_EACH}
    assert kinds == set(SEED_SHAPES)
    assert all(json.loads(encode_json(e))["worker"] == W for e in ONE_OF_EACH)


def test_json_is_printable_ascii_and_gives_the_exact_text_back() -> None:
    """Escape sequences, C1 controls, DEL and emoji travel escaped; json.loads returns the runtime's text."""
    hostile = "\x1b]52;c;Zm9v\x07\x9b31m\x7f \u202e \U0001f600 \udc80"
    line = encode_json(LlmToolResult(W, "t", "", hostile))
    assert line.isascii() and all(" " <= ch <= "~" for ch in line)
    assert json.loads(line)["content"] == hostile


def test_text_is_strict_ascii_whatever_the_content() -> None:
    """--headless text: no escape byte, no control, no Unicode, even from hostile tool output."""
    err = io.StringIO()
    writer = LlmDoWriter(EventFormat.TEXT, err, io.StringIO(), verbosity=2)
    writer.write([LlmToolResult(W, "t", "", "\x1b[2Jbad \u00e9\r\tz"), TextResponseEvent(W, "\x9b6n", False, True)])
    text = err.getvalue()
    assert all(ch == "\n" or " " <= ch <= "~" for ch in text), repr(text)
    assert "?[2Jbad ??    z" in text and "?6n" in text


def test_truncation_defaults_are_the_seed_constants() -> None:
    """200/200/500/10 (Rendering Constants Reference) cut the prompt, the arguments and the result."""
    assert (MAX_INPUT_DISPLAY, MAX_ARGS_DISPLAY, MAX_RESULT_DISPLAY, MAX_RESULT_LINES) == (200, 200, 500, 10)
    assert Truncation() == Truncation(200, 200, 500, 10)
    prompt = InitialRequestEvent(W, user_input="p" * 250).to_text()
    assert prompt is not None and prompt.splitlines()[1] == "  Prompt: " + "p" * 200 + "..."
    call = LlmToolCall(W, "t", args={"k": "v" * 300}).to_text()
    assert call is not None and call.splitlines()[-1] == "  Args: " + ('{"k": "' + "v" * 300)[:200] + "..."
    long = LlmToolResult(W, "t", content="r" * 600).to_text()
    assert long is not None and long.splitlines()[-1] == "  " + "r" * 500 + "..."
    many = LlmToolResult(W, "t", content="\n".join(f"line {i}" for i in range(15))).to_text()
    assert many is not None and many.splitlines()[2:] == [*(f"  line {i}" for i in range(10)), "  ... (5 more lines)"]
    # The JSON record is never truncated: a program gets the whole content.
    assert json.loads(encode_json(LlmToolResult(W, "t", content="r" * 600)))["content"] == "r" * 600


def test_verbosity_levels() -> None:
    """0: no "Generating"/"Complete" and no deltas; 1: + those indicators; 2: + the streamed deltas."""
    quiet, _ = _write(EventFormat.TEXT, 0)
    normal, _ = _write(EventFormat.TEXT, 1)
    verbose, _ = _write(EventFormat.TEXT, 2)
    for text in (quiet, normal, verbose):
        assert "[worker] Starting...\n  Prompt: Fix it" in text
        assert '[worker] Tool call: edit\n  Args: {"path": "a.py"}' in text
        assert "[worker] Response:\n  Looking.\n\n  Still looking." in text
    assert "Generating response..." not in quiet and "[OK] Complete" not in quiet
    assert "[worker] Generating response..." in normal and "[worker] [OK] Complete" in normal
    assert "\nLooking.\n" not in normal and "\nLooking.\n" in verbose  # a delta, unindented
    assert "\n\n\nStill looking.\n" in verbose  # the second part's delta carries its paragraph break


def test_a_run_as_json_events_and_the_result() -> None:
    """Start, streaming start, deltas, complete, tool call/result, final answer, completion; the result as JSON."""
    err, out = _write(EventFormat.JSON)
    records = [json.loads(line) for line in err.splitlines()]
    assert [check_record(r) for r in records] == [
        "initial_request",
        "text_response",
        "text_response",
        "text_response",
        "text_response",
        "tool_call",
        "tool_result",
        "text_response",
        "completion",
    ]
    starts = [(r["is_complete"], r["is_delta"], r["content"]) for r in records if r["type"] == "text_response"]
    assert starts == [
        (False, False, ""),
        (False, True, "Looking."),
        (False, True, "\n\nStill looking."),
        (True, False, "Looking.\n\nStill looking."),
        (True, False, "All done."),
    ]
    assert records[5]["args"] == {"path": "a.py"} and records[5]["tool_call_id"] == "c1"
    assert json.loads(out) == {"worker": "worker", "output": "All done."}


def test_a_final_that_repeats_the_stream_is_not_a_second_answer() -> None:
    """Streamed parts then a final with the same text: one complete text_response, not two."""
    facts = [RunStarted("x"), TextEvent("Hi."), FinalEvent("Hi."), RunEnded("r", "completed")]
    events = LlmDoTranslator().events(facts)
    complete = [e for e in events if isinstance(e, TextResponseEvent) and e.is_complete]
    assert complete == [TextResponseEvent(W, "Hi.", is_complete=True)]


def test_a_failed_or_cancelled_run_has_no_result() -> None:
    """The partial answer of a run that did not complete is not written as the result (null in JSON)."""
    translator = LlmDoTranslator()
    events = translator.events([RunStarted("x"), TextEvent("Half"), RunEnded("r", "error", "Run failed: quota")])
    assert events[-1] == ErrorEvent(W, "Run failed: quota", "run_error")
    assert translator.result is None
    err, out = io.StringIO(), io.StringIO()
    writer = LlmDoWriter(EventFormat.JSON, err, out)
    writer.facts([RunStarted("x"), TextEvent("Half"), RunEnded("r", "cancelled")])
    writer.finish()
    assert json.loads(out.getvalue()) == {"worker": "worker", "output": None}
    assert json.loads(err.getvalue().splitlines()[-1])["state"] == "cancelled"


def test_approval_request_names_the_call_it_is_about_and_its_outcome() -> None:
    """The confirm's tool and args come from the tool call; the text says what the flag decided."""
    translator = LlmDoTranslator()
    translator.events([RunStarted("x"), ToolCallEvent("shell", "c9", {"command": "rm -rf /tmp/cache"})])
    request = ConfirmRequest("7", "Run tool?", "Execute shell command: rm -rf /tmp/cache")
    approval = translator.approval(request, ApprovalPolicy.STRICT.outcome)
    assert approval.to_json() == {
        "type": "approval_request",
        "worker": "worker",
        "tool_name": "shell",
        "reason": "Execute shell command: rm -rf /tmp/cache",
        "args": {"command": "rm -rf /tmp/cache"},
    }
    assert approval.to_text() == (
        "APPROVAL REQUIRED\n    Tool: shell\n    Reason: Execute shell command: rm -rf /tmp/cache\n"
        '    Args: {"command": "rm -rf /tmp/cache"}\n    [WARN] Denied (--strict)'
    )
    approved = translator.approval(request, ApprovalOutcome.APPROVED).to_text()
    unanswered = translator.approval(request, ApprovalOutcome.UNANSWERED).to_text()
    assert approved is not None and approved.endswith("    [OK] Approved (--approve-all)")
    assert unanswered is not None and unanswered.endswith("    (Cannot approve in non-interactive mode)")


def test_the_session_reports_its_normalized_events() -> None:
    """Step.events: the run's start, each accepted agent event once (a duplicate seq is dropped), its end."""
    session = running()
    started = session.start_run("ignored while busy")
    assert started.events == ()
    first = session.receive(wire(event("r1", 1, type="text", content="Hi")))
    again = session.receive(wire(event("r1", 1, type="text", content="Hi")))
    done = session.receive(wire(status("r1", "completed")))
    assert first.events == (TextEvent("Hi"),) and again.events == ()
    assert done.events == (RunEnded("r1", "completed"),)
    assert connected().start_run("Fix it").events == (RunStarted("Fix it"),)


def test_approve_all_answers_the_confirm_in_the_interactive_viewport_too() -> None:
    """Inline (a pilot, nobody pressing a key): with --approve-all the confirm is approved and the run completes."""
    runtime = [sys.executable, "-m", "inline_render.demo.fake_runtime", "--delay", "0", "--speed", "0"]
    demo = Demo(runtime, ["Fix it"], unattended=False, first_auto=True, policy=ApprovalPolicy.APPROVE_ALL)

    async def scenario() -> str:
        async with run_app(demo.main, columns=100, rows=30) as pilot:
            await pilot.wait_for("now says Hello", timeout=30)
            return pilot.snapshot()

    snapshot = asyncio.run(scenario())
    assert snapshot.count("Done: hello.py now says Hello.") == 1  # Markdown: the code span has no backticks


def test_hostile_text_in_every_field_is_inert_in_both_formats() -> None:
    """The hostile corpus in every text field of a run: --headless stays printable ASCII, --json exact and ASCII."""
    for text in STRINGS:
        facts = [
            RunStarted(text),
            TextEvent(text),
            ToolCallEvent(text, text, {text: text}),
            ToolResultEvent(text, text, text, True),
            FinalEvent(text + "!"),
            RunEnded(text, "error", text),
        ]
        for verbosity in (0, 2):
            err = io.StringIO()
            writer = LlmDoWriter(EventFormat.TEXT, err, io.StringIO(), verbosity=verbosity)
            writer.facts(facts)
            writer.write([writer.translator.approval(ConfirmRequest("1", text, text), ApprovalOutcome.DENIED)])
            assert all(ch == "\n" or " " <= ch <= "~" for ch in err.getvalue()), repr(text)
        err = io.StringIO()
        writer = LlmDoWriter(EventFormat.JSON, err, io.StringIO())
        writer.facts(facts)
        lines = err.getvalue().splitlines()
        assert all(line.isascii() and line.isprintable() for line in lines), repr(text)
        records = [json.loads(line) for line in lines]
        assert records[0]["user_input"] == text
        call = next(r for r in records if r["type"] == "tool_call")
        assert call["tool_name"] == text and call["args"] == {text: text}
