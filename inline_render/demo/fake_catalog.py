"""The fake runtime's data and its strict check of seed 004's request shapes (standard library only).

``request_problem`` is what makes ``fake_runtime`` a *reference*: every request
the UI sends is checked against seed 004's shapes and a mismatch is answered
``-32602`` naming the member, as a strict runtime would.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["HISTORY", "MCP_SERVERS", "MODELS", "SKILLS", "answer_problem", "edit_result", "request_problem"]

# One saved session, replayed by session.history (the prompt as a hidden_user_message, then the events).
HISTORY: dict[str, list[dict[str, Any]]] = {
    "session-saved-1": [
        {
            "run_id": "old-run-1",
            "prompt": "What does hello.py do?",
            "events": [
                {"type": "reasoning", "content": "Read the file before answering.", "timestamp": 1},
                {"type": "step_start", "step_id": "old_1", "title": "read", "step_number": 1},
                {"type": "tool_call", "tool": "read", "args": {"file_path": "hello.py"}, "tool_call_id": "old_1"},
                {"type": "tool_result", "tool": "read", "result": "def greet(name): ...", "tool_call_id": "old_1"},
                {"type": "step_complete", "step_id": "old_1", "status": "completed", "duration_ms": 5},
                {"type": "final", "content": "hello.py defines greet(), which prints a greeting."},
            ],
        },
        {
            "run_id": "old-run-2",
            "prompt": "Thanks!",
            "events": [{"type": "final", "content": "You're welcome."}],
        },
    ]
}

MODELS: dict[str, Any] = {
    "models": ["gpt-5", "gpt-5-mini", "o4-mini"],
    "current": "gpt-5",
    "details": {
        "gpt-5": {"context_window": 400000, "max_output_tokens": 128000},
        "gpt-5-mini": {"context_window": 400000},
    },
}

MCP_SERVERS: list[dict[str, Any]] = [
    {"id": "github", "transport": "http", "source": "global", "enabled": True, "state": "ready", "tools": 12},
    {"id": "filesystem", "transport": "stdio", "source": "project", "enabled": True, "state": "connecting"},
    {
        "id": "jira",
        "transport": "http",
        "source": "project",
        "enabled": True,
        "state": "error",
        "last_error": "401 Unauthorized",
    },
    {"id": "old-tools", "transport": "stdio", "enabled": False, "state": "disabled"},
]

SKILLS: dict[str, Any] = {
    "skills": [
        {
            "id": "repo:release-notes",
            "name": "release-notes",
            "description": "Write release notes from the git log",
            "path": ".codelia/skills/release-notes/SKILL.md",
            "dir": ".codelia/skills/release-notes",
            "scope": "repo",
            "mtime_ms": 1795406000000,
        },
        {
            "id": "user:pdf",
            "name": "pdf",
            "description": "Read and fill PDF forms",
            "path": "~/.codelia/skills/pdf/SKILL.md",
            "dir": "~/.codelia/skills/pdf",
            "scope": "user",
            "mtime_ms": 1795400000000,
        },
    ],
    "errors": [],
    "truncated": False,
}


def edit_result(diff: str) -> str:
    """codelia's edit tool answers a JSON *string* (summary, counts, the diff)."""
    return json.dumps(
        {
            "summary": "Replaced 1 occurrence(s) in hello.py",
            "replacements": 1,
            "match_mode": "exact",
            "diff": diff,
            "file_path": "hello.py",
        },
        separators=(",", ":"),
    )


def _is(value: Any, kind: str) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, {"str": str, "bool": bool, "object": dict, "array": list}[kind])


# method -> member -> (type, required); members not named here are allowed (seed 004: params may grow).
_SHAPES: dict[str, dict[str, tuple[str, bool]]] = {
    "initialize": {"protocol_version": ("str", True), "client": ("object", True), "ui_capabilities": ("object", False)},
    "run.start": {
        "input": ("object", True),
        "session_id": ("str", False),
        "ui_context": ("object", False),
        "meta": ("object", False),
    },
    "run.cancel": {"run_id": ("str", True), "reason": ("str", False)},
    "session.list": {"limit": ("int", False)},
    "session.history": {"session_id": ("str", True), "max_runs": ("int", False), "max_events": ("int", False)},
    "model.list": {"provider": ("str", False), "include_details": ("bool", False)},
    "model.set": {"name": ("str", True), "provider": ("str", False)},
    "mcp.list": {"scope": ("str", False)},
    "skills.list": {"cwd": ("str", False), "force_reload": ("bool", False)},
    "ui.context.update": {"cwd": ("str", False), "workspace_root": ("str", False), "active_file": ("object", False)},
}


def request_problem(method: str, params: Any) -> str | None:
    """What is wrong with a message's params by seed 004 (checked before acting on it), or None."""
    if params is not None and not isinstance(params, dict):
        return "params must be an object"
    params = params or {}
    for name, (kind, required) in _SHAPES.get(method, {}).items():
        if name not in params:
            if required:
                return f"'{name}' is required"
        elif not _is(params[name], kind):
            return f"'{name}' must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    if method == "run.start":
        source = params["input"]
        if source.get("type") != "text" or not isinstance(source.get("text"), str):
            return '\'input\' must be {"type": "text", "text": string}'
    return None


def answer_problem(method: str | None, message: dict[str, Any]) -> str | None:
    """What is wrong with the UI's answer to our ``method`` request by seed 004, or None."""
    if method is None:
        return "it answers no request of ours"
    if "error" in message:
        return None  # an error answer is allowed (it reads as "no answer")
    result = message.get("result")
    if not isinstance(result, dict):
        return "the result must be an object"
    if method == "ui.confirm.request":
        if not isinstance(result.get("ok"), bool):
            return "'ok' must be a boolean"
        if "remember" in result and not isinstance(result["remember"], bool):
            return "'remember' must be a boolean"
        if result.get("reason") is not None and not isinstance(result["reason"], str):
            return "'reason' must be a string"
    elif method == "ui.prompt.request":
        if "value" not in result or not (result["value"] is None or isinstance(result["value"], str)):
            return "'value' must be a string or null"
    elif method == "ui.pick.request" and not (
        isinstance(result.get("ids"), list) and all(isinstance(i, str) for i in result["ids"])
    ):
        return "'ids' must be an array of strings"
    return None
