"""The scripted runtime answers malformed requests as a reference runtime should (JSON-RPC errors)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

RUNTIME = [sys.executable, "-m", "inline_render.fake_runtime", "--delay", "0", "--speed", "0"]


def exchange(*messages: dict[str, object]) -> list[dict[str, object]]:
    """Send request lines to a fresh fake runtime; its answers, parsed."""
    lines = "".join(json.dumps({"jsonrpc": "2.0", **m}) + "\n" for m in messages)
    done = subprocess.run(RUNTIME, input=lines, capture_output=True, text=True, timeout=30, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize(
    ("method", "params", "problem"),
    [
        ("initialize", {"protocol_version": "x"}, "'protocol_version' must be an integer"),
        ("run.start", {"prompt": 5}, "'prompt' must be a string"),
        ("run.start", None, "'prompt' must be a string"),
        ("run.cancel", {}, "'run_id' must be a string"),
        ("run.start", [1, 2], "params must be an object"),
    ],
)
def test_invalid_params_get_32602(method: str, params: object, problem: str) -> None:
    """A request with bad params gets -32602 naming the field, and the runtime keeps serving."""
    request: dict[str, object] = {"id": 7, "method": method}
    if params is not None:
        request["params"] = params
    answers = exchange(request, {"id": 8, "method": "initialize", "params": {"protocol_version": 1}})
    assert answers[0] == {"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": f"Invalid params: {problem}"}}
    assert answers[1]["id"] == 8 and "result" in answers[1]
