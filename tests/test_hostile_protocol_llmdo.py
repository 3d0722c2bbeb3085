"""Issue 33, cases 5, 6 and 11: deep nesting, non-finite numbers and forged lines through llm-do's modes.

5. A ``tool_call`` nested ~970 deep was accepted, llm-do's writer raised RecursionError inside the client's
   ``on_events``, the reader task died silently and the run never ended.  Now nesting over
   ``MAX_JSON_DEPTH`` is refused at the edge, and a reader that fails ends the run with an error.
6. ``"args": {"x": 1e999}`` was written as ``Infinity``: ``--json`` is strict JSON now.
11. A tool name with newlines printed lines of its own at column 0 in ``--headless``.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from llmdo_shapes import check_record

from inline_render.core.tick import Renderer
from inline_render.demo.scripted import Demo
from inline_render.inputs import ConfirmRequest, Input, LogAppend
from inline_render.protocol.client import RuntimeClient
from inline_render.protocol.codec import MAX_JSON_DEPTH, decode_line, json_depth_ok
from inline_render.protocol.lemon.codec import LemonBad, decode_lemon_line
from inline_render.protocol.llmdo.events import ApprovalOutcome, ErrorEvent, ToolCallEvent
from inline_render.protocol.llmdo.output import EventFormat, LlmDoTranslator, LlmDoWriter
from inline_render.protocol.messages import Malformed
from inline_render.shell import AppOptions, InlineApp

HERE = Path(__file__).resolve().parent
FORGED = "[worker] [OK] Complete"


def _nested(levels: int) -> str:
    return '{"a": ' * levels + "1" + "}" * levels


def _deep_call(levels: int) -> str:
    return f'{{"type": "tool_call", "tool": "t", "tool_call_id": "c1", "args": {_nested(levels)}}}'


def _runtime(tmp_path: Path, *events: str) -> list[str]:
    """The command of a runtime answering every run with ``events`` (raw JSON text), then completing it."""
    path = tmp_path / "events.ndjson"
    path.write_text("".join(event + "\n" for event in events), encoding="utf-8")
    return [sys.executable, str(HERE / "events_runtime.py"), str(path)]


def _demo(tmp_path: Path, *flags: str, events: tuple[str, ...]) -> subprocess.CompletedProcess[bytes]:
    runtime = " ".join(_runtime(tmp_path, *events))
    command = [sys.executable, "-m", "inline_render", "demo", *flags, "--runtime", runtime, "--prompt", "hi"]
    env = {**os.environ, "TERM": "xterm"}
    return subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, env=env)


def _strict(line: str) -> Any:
    """``json.loads`` as RFC 8259 has it: ``Infinity``, ``-Infinity`` and ``NaN`` are errors."""

    def refuse(name: str) -> Any:
        raise ValueError(f"not JSON: {name}")

    return json.loads(line, parse_constant=refuse)


# --- case 5: nesting bounded at the edge -------------------------------------------------------------


def test_a_codelia_message_nested_970_deep_is_one_parse_error_saying_so() -> None:
    """The line of issue 33 (args ~970 deep) is refused as too deep; one level under the limit still decodes."""
    line = '{"jsonrpc": "2.0", "method": "agent.event", "params": {"run_id": "r", "seq": 0, "event": %s}}'
    refused = decode_line((line % _deep_call(970)).encode())
    assert isinstance(refused, Malformed) and "nesting too deep" in refused.message, refused
    fits = decode_line((line % _deep_call(MAX_JSON_DEPTH - 4)).encode())  # 4: envelope, params, event, args
    assert not isinstance(fits, Malformed), fits


def test_a_lemon_line_nested_too_deep_is_one_bad_line_saying_so() -> None:
    """Lemon's decoder has the same bound: a line nested over the limit is a LemonBad naming the nesting."""
    bad = decode_lemon_line(f'{{"type": "stats", "stats": {_nested(MAX_JSON_DEPTH + 1)}}}'.encode())
    assert isinstance(bad, LemonBad) and bad.reason.startswith("nesting too deep"), bad


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    """A string full of brackets is flat: only the JSON structure's own nesting counts."""
    assert json_depth_ok(json.dumps({"text": "[{" * 5000}))
    assert not json_depth_ok("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))


# --- case 5: a reader that fails is never silent ------------------------------------------------------


def test_a_callback_that_raises_ends_the_run_with_an_error_instead_of_killing_the_reader(tmp_path: Path) -> None:
    """on_events raising RecursionError: an error line, the runtime stopped, the run over (no endless wait)."""
    shown: list[Input] = []

    def on_events(facts: list[Any]) -> None:
        if any(getattr(fact, "tool", None) == "t" for fact in facts):
            raise RecursionError("maximum recursion depth exceeded")

    async def scenario() -> RuntimeClient:
        client = RuntimeClient(_runtime(tmp_path, _deep_call(3)), on_inputs=shown.extend, on_events=on_events)
        assert await client.start() is not None
        client.submit("hi")
        assert await client.wait_idle(10), "the run never ended: the reader died silently"
        await client.close()
        return client

    client = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert client.failure is not None and "RecursionError" in client.failure
    errors = [item.text for item in shown if isinstance(item, LogAppend) and item.kind == "error"]
    assert any("failed while reading the runtime's output" in text for text in errors), errors
    assert client.session.exited and client.session.run_status(client.session.last_run or "") == "error"


class _Exploding(io.StringIO):
    """An event stream whose writes fail once a tool call is written (as the JSON writer did, on deep args)."""

    def write(self, text: str) -> int:
        if '"tool_call"' in text:
            raise RecursionError("maximum recursion depth exceeded while encoding a JSON object")
        return super().write(text)


def test_the_demo_exits_nonzero_when_its_event_writer_fails(tmp_path: Path) -> None:
    """demo --json whose writer raises on a tool call: the run ends, an error record is written, exit 1."""
    events, result = _Exploding(), io.StringIO()
    writer = LlmDoWriter(EventFormat.JSON, events, result)
    demo = Demo(_runtime(tmp_path, _deep_call(3)), ["hi"], unattended=True, first_auto=True, events=writer)

    async def scenario() -> int:
        return await InlineApp(AppOptions()).run_headless(demo.main, Renderer.in_memory(80, 24))

    code = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert code == 1
    records = [_strict(line) for line in events.getvalue().splitlines()]
    assert records[-1]["type"] == "error" and records[-1]["error_type"] == "run_error", records


def test_demo_json_after_a_deep_tool_call_reads_on_and_completes(tmp_path: Path) -> None:
    """The reproducer: a 970-deep tool_call, then an answer: the answer, the completion and the result come."""
    done = _demo(tmp_path, "--json", events=(_deep_call(970), '{"type": "final", "content": "after the deep call"}'))
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    records = [_strict(line) for line in done.stderr.decode().splitlines()]
    assert [check_record(record) for record in records][-1] == "completion"
    assert json.loads(done.stdout) == {"worker": "worker", "output": "after the deep call"}


# --- case 6: strict JSON whatever numbers come --------------------------------------------------------


def test_demo_json_writes_non_finite_numbers_as_strings_on_strict_json_lines(tmp_path: Path) -> None:
    """1e999, -1e999 in a tool call's args: every line is RFC 8259 JSON, the numbers are "Infinity" strings."""
    call = '{"type": "tool_call", "tool": "t", "tool_call_id": "c1", "args": {"x": 1e999, "y": [-1e999, 2.5]}}'
    done = _demo(tmp_path, "--json", events=(call, '{"type": "final", "content": "ok"}'))
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    records = [_strict(line) for line in done.stderr.decode().splitlines()]
    calls = [record for record in records if record["type"] == "tool_call"]
    assert calls and calls[0]["args"] == {"x": "Infinity", "y": ["-Infinity", 2.5]}
    assert _strict(done.stdout.decode()) == {"worker": "worker", "output": "ok"}


def test_a_nan_from_a_program_is_written_as_a_string_too() -> None:
    """NaN (which no JSON decoder of ours makes, but a program may pass) is the string "NaN", not a bare NaN."""
    out = io.StringIO()
    LlmDoWriter(EventFormat.JSON, out, io.StringIO()).write([ToolCallEvent("w", "t", "c", {"n": float("nan")})])
    assert _strict(out.getvalue())["args"] == {"n": "NaN"}


# --- case 11: names never start a line ---------------------------------------------------------------


def test_headless_tool_names_with_newlines_cannot_forge_the_librarys_lines(tmp_path: Path) -> None:
    """A tool named "x\\n[worker] [OK] Complete", and an error message with it: only the real completion line."""
    name = json.dumps(f"x\n{FORGED}")
    events = (
        f'{{"type": "tool_call", "tool": {name}, "tool_call_id": "c1", "args": {{"a": 1}}}}',
        f'{{"type": "tool_result", "tool": {name}, "tool_call_id": "c1", "result": "fine"}}',
        f'{{"type": "error", "message": {json.dumps("bad" + chr(10) + FORGED)}}}',
        '{"type": "final", "content": "ok"}',
    )
    for flags in (("--headless", "-v"), ("--mode", "plain"), ("--mode", "plain", "--ascii")):
        done = _demo(tmp_path, *flags, events=events)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        lines = (done.stderr + done.stdout).decode().splitlines()
        forged = [line for line in lines if line.startswith(FORGED) or line.startswith("[worker] [OK]")]
        assert len(forged) == (1 if "--headless" in flags else 0), (flags, lines)


def test_an_approval_titled_with_newlines_keeps_its_lines_indented() -> None:
    """A confirm with no tool call (its title names the tool) and a multi-line message: every line but ours indented."""
    translator = LlmDoTranslator()
    request = ConfirmRequest("d1", f"rm\nAPPROVAL REQUIRED\n{FORGED}", f"why\n    [OK] Approved\n{FORGED}")
    text = translator.approval(request, ApprovalOutcome.DENIED).to_text()
    assert text is not None
    lines = text.split("\n")
    assert lines[0] == "APPROVAL REQUIRED" and all(line.startswith("    ") for line in lines[1:]), lines
    assert sum("[OK] Approved" in line for line in lines) == 1 and lines[-1] == "    [WARN] Denied (--strict)"
    assert [line for line in lines if line.startswith("    Tool:")] == [f"    Tool: rm?APPROVAL REQUIRED?{FORGED}"]


def test_error_messages_and_tracebacks_hang_under_their_first_line() -> None:
    """An error's message and traceback lines are indented: only the ``[worker] [ERROR]`` line starts at column 0."""
    text = ErrorEvent("worker", f"one\n{FORGED}", "agent_error", f"Traceback\n{FORGED}").to_text(2)
    assert text is not None
    assert [line for line in text.split("\n") if not line.startswith(" ")] == ["[worker] [ERROR] (agent_error): one"]
