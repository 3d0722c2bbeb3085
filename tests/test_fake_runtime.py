"""The scripted runtime is a strict seed-004 reference: exact shapes in, codelia's order and errors out."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

RUNTIME = [sys.executable, "-m", "inline_render.demo.fake_runtime", "--delay", "0", "--speed", "0"]
INIT = {"id": "1", "method": "initialize", "params": {"protocol_version": "0", "client": {"name": "t", "version": "0"}}}
PREFLIGHT = {"supports_permission_preflight_events": True}
INIT_STRUCTURED = {**INIT, "params": {**INIT["params"], "ui_capabilities": PREFLIGHT}}


def exchange(*messages: dict[str, Any], flags: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Send lines to a fresh fake runtime (stdin then closed); its answers, parsed."""
    lines = "".join(json.dumps({"jsonrpc": "2.0", **m}) + "\n" for m in messages)
    done = subprocess.run([*RUNTIME, *flags], input=lines, capture_output=True, text=True, timeout=30, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


class Live:
    """A fake runtime kept running: send messages, read its answers (a reader thread) until one matches."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(RUNTIME, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.seen: list[dict[str, Any]] = []
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, **message: Any) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        self.proc.stdin.flush()

    def until(self, method: str | None = None, rid: str | None = None, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message of ``method`` (a terminal one for run.status) or with id ``rid``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = json.loads(self.lines.get(timeout=left))
            except queue.Empty:
                break
            self.seen.append(message)
            wanted = (method is None or message.get("method") == method) and (rid is None or message.get("id") == rid)
            if wanted and (method != "run.status" or message["params"]["status"] in ("completed", "cancelled")):
                return message
        raise AssertionError(f"no {method or rid} within {timeout} s: {self.seen}")

    def quiet(self, seconds: float) -> bool:
        """Nothing arrives for ``seconds``."""
        time.sleep(seconds)
        return self.lines.empty()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)


def start(rid: str, text: str, **more: Any) -> dict[str, Any]:
    """A seed-004 run.start request."""
    return {"id": rid, "method": "run.start", "params": {"input": {"type": "text", "text": text}, **more}}


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ({"method": "initialize", "params": {"protocol_version": 1, "client": {}}}, "'protocol_version' must be a str"),
        ({"method": "run.start", "params": {"prompt": "hi"}}, "'input' is required"),
        ({"method": "run.start", "params": {"input": "hi"}}, "'input' must be an object"),
        ({"method": "run.start", "params": {"input": {"type": "image", "text": "x"}}}, "'input' must be"),
        ({"method": "run.start", "params": {"input": {"type": "text", "text": "x"}, "session_id": 3}}, "session_id"),
        ({"method": "run.cancel", "params": {}}, "'run_id' is required"),
        ({"method": "run.cancel", "params": {"run_id": "r", "reason": None}}, "'reason' must be a str"),
        ({"method": "session.history", "params": {}}, "'session_id' is required"),
        ({"method": "run.start", "params": [1, 2]}, "params must be an object"),
    ],
)
def test_requests_not_in_seed_004_shapes_get_32602(message: dict[str, Any], problem: str) -> None:
    """A request whose params are not seed 004's shape gets -32602 naming the member; the runtime keeps serving."""
    answers = exchange({"id": "7", **message}, INIT)
    assert answers[0]["id"] == "7" and answers[0]["error"]["code"] == -32602
    assert problem in answers[0]["error"]["message"]
    assert answers[1]["id"] == "1" and answers[1]["result"]["protocol_version"] == "0"


def test_numeric_request_ids_are_refused() -> None:
    """Seed 004: RpcId = string; a number is an invalid request (-32600) and nothing is done."""
    answers = exchange({**INIT, "id": 1})
    assert answers == [
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "Invalid Request: id must be a string"}}
    ]


def test_a_run_follows_codelia_s_order_and_its_requests_have_string_ids() -> None:
    """seq from 0; preview, ready, awaiting_ui, "ui_1" confirm, answer, running, result, final, completed."""
    live = Live()
    live.send(**INIT_STRUCTURED)
    live.send(**start("2", "Fix it"))
    assert live.until(rid="2")["result"] == {"run_id": "run-1", "session_log_path": "~/.fake/sessions/run-1.jsonl"}
    confirm = live.until("ui.confirm.request")
    assert confirm["id"] == "ui_1" and confirm["params"]["title"] == "Run tool?"
    live.send(id="ui_1", result={"ok": True, "remember": False, "reason": None})
    live.until("run.status")
    live.close()
    steps = [
        a["params"]["event"]["type"] if a.get("method") == "agent.event" else a.get("method") or "result"
        for a in live.seen[2:]
    ]
    assert steps == [
        "run.status",
        "reasoning",
        "run.context",
        "text",
        "step_start",
        "tool_call",
        "tool_result",
        "step_complete",
        "text",
        "text",
        "step_start",
        "tool_call",
        "permission.preview",
        "permission.ready",
        "run.status",
        "ui.confirm.request",
        "run.status",
        "tool_result",
        "step_complete",
        "final",
        "run.status",
    ]
    events = [a["params"] for a in live.seen if a.get("method") == "agent.event"]
    assert [e["seq"] for e in events] == list(range(len(events)))
    statuses = [a["params"]["status"] for a in live.seen if a.get("method") == "run.status"]
    assert statuses == ["running", "awaiting_ui", "running", "completed"]


def test_cancel_while_a_confirm_is_pending_waits_for_its_answer() -> None:
    """run.cancel during the confirm: {ok: true} at once, nothing until the answer, then running and cancelled."""
    live = Live()
    live.send(**INIT_STRUCTURED)
    live.send(**start("2", "Fix it"))
    run_id = live.until(rid="2")["result"]["run_id"]
    live.until("ui.confirm.request")
    live.send(id="3", method="run.cancel", params={"run_id": run_id, "reason": "test"})
    assert live.until(rid="3")["result"] == {"ok": True}
    assert live.quiet(0.3)  # waiting for the confirm's answer
    live.send(id="ui_1", result={"ok": False, "remember": False, "reason": None})
    live.until("run.status")
    live.close()
    tail = [a["params"]["status"] for a in live.seen[-2:]]
    assert tail == ["running", "cancelled"]
    assert not any(
        a.get("method") == "agent.event"
        for a in live.seen[live.seen.index({"jsonrpc": "2.0", "id": "3", "result": {"ok": True}}) :]
    )


def test_busy_and_run_not_found_codes() -> None:
    """run.start during a run -> -32001; run.cancel of an unknown run -> -32002."""
    answers = exchange(
        INIT, start("2", "long"), start("3", "again"), {"id": "4", "method": "run.cancel", "params": {"run_id": "zz"}}
    )
    errors = {a["id"]: a["error"]["code"] for a in answers if "error" in a}
    assert errors == {"3": -32001, "4": -32002}


def test_sessions_models_mcp_and_skills_are_served() -> None:
    """session.history replays the saved session (prompt as hidden_user_message, seq -1) before answering."""
    answers = exchange(
        INIT,
        {"id": "2", "method": "session.list", "params": {"limit": 5}},
        {"id": "3", "method": "session.history", "params": {"session_id": "session-saved-1"}},
        {"id": "4", "method": "model.set", "params": {"name": "o4-mini"}},
        {"id": "5", "method": "model.list"},
        {"id": "6", "method": "mcp.list", "params": {"scope": "loaded"}},
        {"id": "7", "method": "skills.list", "params": {"cwd": "/w"}},
        {"method": "ui.context.update", "params": {"cwd": "/w", "workspace_root": "/w"}},
    )
    by_id = {a["id"]: a for a in answers if "id" in a}
    assert by_id["2"]["result"]["sessions"][0]["session_id"] == "session-saved-1"
    replayed = [a["params"] for a in answers if a.get("method") == "agent.event"]
    assert replayed[0] == {
        "run_id": "old-run-1",
        "seq": -1,
        "event": {"type": "hidden_user_message", "content": "What does hello.py do?"},
    }
    assert answers.index(by_id["3"]) > answers.index(next(a for a in answers if a.get("method") == "agent.event"))
    assert by_id["3"]["result"] == {"runs": 2, "events_sent": len(replayed)}
    assert by_id["4"]["result"] == {"provider": "openai", "name": "o4-mini"}
    assert by_id["5"]["result"]["current"] == "o4-mini"
    assert [s["state"] for s in by_id["6"]["result"]["servers"]] == ["ready", "connecting", "error", "disabled"]
    assert by_id["7"]["result"]["skills"][0]["name"] == "release-notes"
    assert len(answers) == 7 + len(replayed)  # the notification got no answer


def test_capabilities_follow_the_flags() -> None:
    """--no-mcp / --no-skills / --legacy turn the matching server capabilities off."""
    (answer,) = exchange(INIT, flags=("--no-mcp", "--no-skills", "--legacy"))
    caps = answer["result"]["server_capabilities"]
    assert caps["supports_ui_requests"] and caps["supports_run_cancel"]
    assert not (caps["supports_mcp_list"] or caps["supports_skills_list"])
    assert not caps["supports_permission_preflight_events"]
