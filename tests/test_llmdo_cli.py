"""``demo --json`` / ``--headless`` (seed 000) and the non-interactive approval flags, through the real demo.

Each test runs ``python -m inline_render demo`` as a subprocess against the scripted fake runtime (its
run asks to approve an edit of hello.py), parses stderr (the events) and stdout (the result), and reads
what the runtime received from its ``--log``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from llmdo_shapes import check_record

ANSWER = "Done: `hello.py` now says Hello."
DENIED = "Permission request was denied. Turn stopped."


def _demo(tmp_path: Path, *flags: str) -> tuple[subprocess.CompletedProcess[bytes], list[dict[str, Any]]]:
    """Run the demo with ``flags`` and one prompt; the process and the confirm answers the runtime got."""
    log = tmp_path / "received.ndjson"
    runtime = f"{sys.executable} -m inline_render.demo.fake_runtime --delay 0 --speed 0 --log {log}"
    command = [sys.executable, "-m", "inline_render", "demo", *flags, "--runtime", runtime, "--prompt", "Fix it"]
    done = subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, env={**os.environ, "TERM": "xterm"}
    )
    received = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    answers = [m["result"] for m in received if isinstance(m.get("result"), dict) and "ok" in m["result"]]
    return done, answers


def test_json_events_on_stderr_have_the_seed_shapes_and_the_result_is_json_on_stdout(tmp_path: Path) -> None:
    """--json --approve-all: every stderr line a seed 000 event (exact members, worker), in run order; stdout JSON."""
    done, answers = _demo(tmp_path, "--json", "--approve-all")
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr.isascii()
    records = [json.loads(line) for line in done.stderr.decode().splitlines()]
    kinds = [check_record(record) for record in records]
    assert all(record["worker"] == "worker" for record in records)
    assert kinds[0] == "initial_request" and records[0]["user_input"] == "Fix it"
    assert kinds[-1] == "completion"
    assert {"status", "text_response", "tool_call", "tool_result", "approval_request"} <= set(kinds)
    edit_call = kinds.index("tool_call", kinds.index("tool_call") + 1)
    approval = kinds.index("approval_request")
    edit_result = max(i for i, kind in enumerate(kinds) if kind == "tool_result")
    assert edit_call < approval < edit_result  # asked between the call and its result
    assert records[approval]["tool_name"] == "edit" and records[approval]["args"] == records[edit_call]["args"]
    assert records[edit_call]["args"]["file_path"] == "hello.py"
    complete = [r["content"] for r in records if r["type"] == "text_response" and r["is_complete"]]
    assert complete[-1] == ANSWER
    assert json.loads(done.stdout) == {"worker": "worker", "output": ANSWER}
    assert answers == [{"ok": True, "remember": False, "reason": None}]


def test_headless_is_strict_ascii_text_on_stderr_and_the_answer_on_stdout(tmp_path: Path) -> None:
    """--headless -vv --approve-all: seed 000's text (deltas included, [OK] markers), only the answer on stdout."""
    done, answers = _demo(tmp_path, "--headless", "-vv", "--approve-all")
    assert done.returncode == 0, done.stderr.decode()
    err = done.stderr.decode("ascii")  # strict ASCII: decoding fails otherwise
    assert all(ch == "\n" or " " <= ch <= "~" for ch in err), repr(err)
    lines = err.splitlines()
    assert lines[:2] == ["[worker] Starting...", "  Prompt: Fix it"]
    for expected in (
        "[worker] Generating response...",
        "[worker] Tool call: edit",
        "APPROVAL REQUIRED",
        "    Tool: edit",
        "    [OK] Approved (--approve-all)",
        "[worker] Tool result: edit",
        "[worker] step start",
        "[worker] Response:",
        f"  {ANSWER}",
        "[worker] [OK] Complete",
    ):
        assert expected in lines, (expected, err)
    assert "I will change the greeting to use an f-string." in lines  # a streamed delta, as it arrived (-vv)
    assert done.stdout.decode() == ANSWER + "\n"
    assert answers == [{"ok": True, "remember": False, "reason": None}]


def test_strict_denies_every_approval(tmp_path: Path) -> None:
    """--headless --strict: the runtime gets a denial, the text says so with [WARN], the run still completes."""
    done, answers = _demo(tmp_path, "--headless", "--strict")
    assert done.returncode == 0, done.stderr.decode()
    err = done.stderr.decode("ascii")
    assert "    [WARN] Denied (--strict)" in err.splitlines()
    assert "[worker] Tool error: edit" in err and "Generating response" not in err  # verbosity 0
    assert answers == [{"ok": False, "remember": False, "reason": None}]
    assert done.stdout.decode() == DENIED + "\n"


def test_without_a_flag_a_needed_approval_fails_the_run_instead_of_approving(tmp_path: Path) -> None:
    """--json, neither flag: an error event says which flag to pass, nothing is approved, exit 1, output null."""
    done, answers = _demo(tmp_path, "--json")
    assert done.returncode == 1, done.stderr.decode()
    records = [json.loads(line) for line in done.stderr.decode().splitlines()]
    for record in records:
        check_record(record)
    errors = [r for r in records if r["type"] == "error"]
    assert [e["error_type"] for e in errors] == ["approval_required"]
    assert "--approve-all" in errors[0]["message"] and "--strict" in errors[0]["message"]
    assert "completion" not in [r["type"] for r in records]
    assert all(answer["ok"] is False for answer in answers)  # dismissed by the cancel, never approved
    assert json.loads(done.stdout) == {"worker": "worker", "output": None}


def test_scripted_plain_play_no_longer_presses_yes(tmp_path: Path) -> None:
    """--script --mode plain without a flag: the confirm is not answered yes; an error line, exit 1."""
    done, answers = _demo(tmp_path, "--script", "--mode", "plain")
    assert done.returncode == 1, done.stdout.decode()
    out = done.stdout.decode()
    assert "-> yes" not in out and ANSWER not in out
    assert "pass --approve-all or --strict" in out
    assert all(answer["ok"] is False for answer in answers)


def test_a_runtime_that_cannot_start_is_an_error_event() -> None:
    """--json with a runtime that does not exist: a runtime_error event on stderr, output null, exit 1."""
    command = [sys.executable, "-m", "inline_render", "demo", "--json", "--runtime", "/nonexistent/runtime"]
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    assert done.returncode == 1
    records = [json.loads(line) for line in done.stderr.decode().splitlines()]
    assert [check_record(record) for record in records] == ["error"]
    assert records[0]["error_type"] == "runtime_error"
    assert json.loads(done.stdout) == {"worker": "worker", "output": None}
