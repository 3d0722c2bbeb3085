"""Issue 33, case 7: llm-do's ``--headless`` and ``--json`` speak for every dialect.

With a Lemon runtime both modes wrote nothing and exited 0 (the Lemon session's steps carried no normalized
events), and ``--json`` claimed ``"output": null`` for a run that completed.  Now a Lemon run gives the same
records as the same run from a codelia runtime.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from llmdo_shapes import check_record

from inline_render.protocol.codelia.session import Session
from inline_render.protocol.codelia.step import Step
from inline_render.protocol.lemon import codec as w
from inline_render.protocol.lemon.session import LemonSession
from inline_render.protocol.llmdo.output import LlmDoTranslator
from inline_render.protocol.messages import message_from_json

ANSWER = "The greeting in **hello.py** already uses an f-string, so it is fine."


def _lemon(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj).encode()


def _assistant(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks), "stop_reason": "stop"}


def _records(facts: list[Any]) -> list[dict[str, Any]]:
    """The ``--json`` records of normalized events, deltas joined (a dialect streams in its own pieces)."""
    records: list[dict[str, Any]] = []
    for event in LlmDoTranslator().events(facts):
        record = event.to_json()
        if record["type"] == "text_response" and record["is_delta"] and records and records[-1].get("is_delta"):
            records[-1] = {**records[-1], "content": records[-1]["content"] + record["content"]}
        else:
            records.append(record)
    return records


def _lemon_run() -> list[Any]:
    session = LemonSession()
    facts: list[Any] = []
    facts += session.receive(w.decode_lemon_line(_lemon({"type": "ready", "cwd": "/w", "model": "m"}))).events
    facts += session.start_run("Check it", echo=False).events
    call = {"type": "tool_call", "id": "c1", "name": "read", "arguments": {"path": "hello.py"}}
    lines = [
        {"type": "event", "event": {"type": "agent_start", "data": []}},
        {"type": "event", "event": {"type": "message_start", "data": [_assistant({"type": "text", "text": "I'll"})]}},
        {
            "type": "event",
            "event": {"type": "message_update", "data": [_assistant({"type": "text", "text": "I'll read"})]},
        },
        {
            "type": "event",
            "event": {"type": "message_end", "data": [_assistant({"type": "text", "text": "I'll read"}, call)]},
        },
        {"type": "event", "event": {"type": "tool_execution_end", "data": ["c1", "read", "def greet(): ...", False]}},
        {"type": "event", "event": {"type": "message_start", "data": [_assistant({"type": "text", "text": ANSWER})]}},
        {"type": "event", "event": {"type": "message_end", "data": [_assistant({"type": "text", "text": ANSWER})]}},
        {"type": "event", "event": {"type": "agent_end", "data": [[]]}},
    ]
    for item in lines:
        facts += session.receive(w.decode_lemon_line(_lemon(item))).events
    return facts


def _codelia_run() -> list[Any]:
    session = Session()
    facts: list[Any] = []

    def take(step: Step) -> None:
        facts.extend(step.events)

    init = session.initialize()
    init_id = init.send[0].id  # type: ignore[union-attr]
    hello = {"protocol_version": "0", "server": {"name": "x"}}
    take(session.receive(message_from_json({"jsonrpc": "2.0", "id": init_id, "result": hello})))
    start = session.start_run("Check it")
    take(start)
    start_id = start.send[0].id  # type: ignore[union-attr]
    take(session.receive(message_from_json({"jsonrpc": "2.0", "id": start_id, "result": {"run_id": "r"}})))
    events = [
        {"type": "text", "content": "I'll read"},
        {"type": "tool_call", "tool": "read", "tool_call_id": "c1", "args": {"path": "hello.py"}},
        {"type": "tool_result", "tool": "read", "tool_call_id": "c1", "result": "def greet(): ..."},
        {"type": "text", "content": ANSWER},
        {"type": "final", "content": ANSWER},
    ]
    for seq, event in enumerate(events):
        params = {"run_id": "r", "seq": seq, "event": event}
        take(session.receive(message_from_json({"jsonrpc": "2.0", "method": "agent.event", "params": params})))
    done = {"run_id": "r", "status": "completed"}
    take(session.receive(message_from_json({"jsonrpc": "2.0", "method": "run.status", "params": done})))
    return facts


def test_a_lemon_run_gives_the_records_the_same_codelia_run_gives() -> None:
    """Prompt, text, a tool call and its result, the answer, the end: the same seed 000 records from both."""
    lemon, codelia = _records(_lemon_run()), _records(_codelia_run())
    assert [check_record(record) for record in lemon][:1] == ["initial_request"]
    assert lemon == codelia


def test_demo_json_with_the_lemon_runtime_writes_the_run_and_its_result() -> None:
    """demo --json --protocol lemon: records on stderr (prompt to completion), the last answer on stdout, exit 0."""
    command = [sys.executable, "-m", "inline_render", "demo", "--json", "--approve-all", "--protocol", "lemon"]
    command += ["--prompt", "Check the greeting"]
    env = {**os.environ, "TERM": "xterm"}
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    kinds = [check_record(json.loads(line)) for line in done.stderr.decode().splitlines()]
    assert kinds[0] == "initial_request" and kinds[-1] == "completion", kinds
    assert {"text_response", "tool_call", "tool_result"} <= set(kinds)
    assert json.loads(done.stdout) == {"worker": "worker", "output": ANSWER}


def test_demo_headless_with_the_lemon_runtime_prints_the_run_and_the_answer() -> None:
    """demo --headless --protocol lemon: the seed's text lines on stderr, the answer alone on stdout."""
    command = [sys.executable, "-m", "inline_render", "demo", "--headless", "-v", "--protocol", "lemon"]
    command += ["--approve-all", "--prompt", "Check the greeting"]
    env = {**os.environ, "TERM": "xterm"}
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    lines = done.stderr.decode().splitlines()
    assert lines[0] == "[worker] Starting..." and "[worker] Tool call: read" in lines
    assert lines[-1] == "[worker] [OK] Complete" and done.stdout.decode() == ANSWER + "\n"
