"""A strict seed-004 runtime end to end through ``python -m inline_render demo``: several prompts, one session."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROMPTS = ("/resume", "Fix the greeting", "pick a file", "ask me for a commit message", "retry", "/model", "/mcp")
ANSWERS = (  # each exactly once in the output
    "hello.py defines greet(), which prints a greeting.",  # the resumed session's history
    "You're welcome.",
    "Resumed session session-saved-1: 2 runs.",
    "Done: `hello.py` now says Hello.",
    "You picked: hello.py.",
    "Commit message: Update greeting",
    "Recovered after two retries and a compaction.",
    "Model set to openai/gpt-5.",
    "jira        http       error",
)


def demo(tmp_path: Path, *flags: str, prompts: tuple[str, ...] = PROMPTS) -> tuple[str, list[dict[str, Any]]]:
    """Run the unattended demo against the fake runtime; its output and every message the runtime received."""
    log = tmp_path / "received.ndjson"
    runtime = f"{sys.executable} -m inline_render.demo.fake_runtime --delay 0 --speed 0 --log {log} {' '.join(flags)}"
    command = [
        sys.executable,
        "-m",
        "inline_render",
        "demo",
        "--script",
        "--approve-all",
        "--mode",
        "plain",
        "--runtime",
        runtime,
    ]
    for prompt in prompts:
        command += ["--prompt", prompt]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout, [json.loads(line) for line in log.read_text().splitlines()]


def test_every_run_starts_completes_and_renders_once(tmp_path: Path) -> None:
    """Runs, dialogs, history and commands: all complete, nothing refused or ignored, each answer once."""
    out, received = demo(tmp_path, "--onboarding")
    for answer in ANSWERS:
        assert out.count(answer) == 1, f"{answer!r} {out.count(answer)} times:\n{out}"
    for bad in ("Ignored", "invalid answer", "Invalid params", "Could not", "refused", "Run failed", "unknown"):
        assert bad not in out, out
    assert "What does hello.py do?" in out and "keep it short" not in out  # hidden_user_message only in history
    assert out.index("hello.py defines greet()") < out.index("Resumed session") < out.index("Fix the greeting")

    requests = [m for m in received if "method" in m and "id" in m]
    assert all(isinstance(m["id"], str) for m in received if "id" in m)  # seed 004: RpcId = string
    assert requests[0]["method"] == "initialize" and requests[0]["params"]["protocol_version"] == "0"
    context = next(m for m in received if m.get("method") == "ui.context.update")
    assert "id" not in context and context["params"]["cwd"] and context["params"]["workspace_root"]
    starts = [m["params"] for m in requests if m["method"] == "run.start"]
    assert [s["input"] for s in starts] == [{"type": "text", "text": p} for p in PROMPTS if not p.startswith("/")]
    assert all(s["session_id"] == "session-saved-1" for s in starts)  # later runs continue the resumed session
    assert all(s["ui_context"] == context["params"] for s in starts)
    methods = [m["method"] for m in requests]
    assert [m for m in methods if m != "run.start"] == [
        "initialize",
        "session.list",
        "session.history",
        "model.list",
        "model.set",
        "mcp.list",
    ]
    answers = [m["result"] for m in received if "result" in m]
    assert answers == [  # the onboarding pick, the confirm, the file pick, the commit message
        {"ids": ["openai"]},
        {"ok": True, "remember": False, "reason": None},
        {"ids": ["hello.py"]},
        {"value": "Update greeting"},
    ]


def test_a_runtime_without_mcp_and_skills_lists_says_so(tmp_path: Path) -> None:
    """--no-mcp / --no-skills: /mcp and /skills say the list is unavailable and send nothing."""
    out, received = demo(tmp_path, "--no-mcp", "--no-skills", prompts=("/mcp", "/skills"))
    assert "MCP status unavailable" in out and "Skills list unavailable" in out
    assert [m.get("method") for m in received] == ["initialize", "ui.context.update"]


@pytest.mark.parametrize("flags", [(), ("--legacy",)])
def test_structured_and_legacy_preflight_render_the_same(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """The legacy text preflight path still works through the demo, rendered as the structured one."""
    out, _ = demo(tmp_path, *flags, prompts=("Fix the greeting",))
    assert out.count("Planned edit diff preview") == 1 and out.count("Permission preflight ready (edit)") == 1
    assert out.count("Done: `hello.py` now says Hello.") == 1


def test_the_real_runtime_s_recorded_bytes_through_the_demo() -> None:
    """The recorded codelia session played back as a runtime process: the demo's messages match it, exit 0."""
    here = Path(__file__).parent
    recording = here / "protocol_recordings" / "codelia-observed.ndjson"
    runtime = f"{sys.executable} {here / 'replay_runtime.py'} {recording}"
    prompt = "Show me numbered lines and a code block, then mark notes.txt as reviewed."
    command = [
        sys.executable,
        "-m",
        "inline_render",
        "demo",
        "--script",
        "--approve-all",
        "--mode",
        "plain",
        "--runtime",
        runtime,
    ]
    done = subprocess.run([*command, "--prompt", prompt], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replay_runtime" not in done.stdout, done.stdout  # no mismatch reported
    for text in ("#0001 Plan for run 1", "Permission preflight ready (edit)", "edit: Replaced 1 occurrence(s)"):
        assert done.stdout.count(text) == 1, done.stdout
    assert done.stdout.count("#0103 End of the scripted answer.") == 1
