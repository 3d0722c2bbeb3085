"""Helpers shared by the protocol tests: wire messages and sessions in a known state."""

from __future__ import annotations

import json
import sys
from typing import Any

from inline_render.inputs import Input
from inline_render.protocol.codec import decode_line
from inline_render.protocol.codelia.session import Session, SessionConfig, Step
from inline_render.protocol.messages import Decoded, Request

FAKE_RUNTIME = [sys.executable, "-m", "inline_render.demo.fake_runtime", "--delay", "0", "--speed", "0"]


def wire(obj: Any) -> Decoded:
    """``obj`` as the decoder would deliver it from one NDJSON line."""
    return decode_line(json.dumps(obj).encode())


def note(method: str, **params: Any) -> dict[str, Any]:
    """A notification object."""
    return {"jsonrpc": "2.0", "method": method, "params": params}


def req(rid: int | str, method: str, **params: Any) -> dict[str, Any]:
    """A request object."""
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def result(rid: int | str, value: Any) -> dict[str, Any]:
    """A successful response object."""
    return {"jsonrpc": "2.0", "id": rid, "result": value}


def event(run_id: str, seq: int, **fields: Any) -> dict[str, Any]:
    """An ``agent.event`` notification."""
    return note("agent.event", run_id=run_id, seq=seq, event=fields)


def status(run_id: str, value: str, message: str | None = None) -> dict[str, Any]:
    """A ``run.status`` notification."""
    params: dict[str, Any] = {"run_id": run_id, "status": value}
    if message is not None:
        params["message"] = message
    return note("run.status", **params)


def connected(
    structured: bool = True, cancel: bool = True, caps: dict[str, bool] | None = None, **config: Any
) -> Session:
    """A session whose ``initialize`` was answered (request id "1"), seed 004's shapes."""
    session = Session(SessionConfig(**config))
    session.initialize()
    server_caps = {"supports_permission_preflight_events": structured, "supports_run_cancel": cancel, **(caps or {})}
    answer = {"protocol_version": "0", "server": {"name": "t"}, "server_capabilities": server_caps}
    session.receive(wire(result("1", answer)))
    return session


def running(structured: bool = True, run_id: str = "r1", **config: Any) -> Session:
    """A connected session with run ``run_id`` started (run.start was request id "2")."""
    session = connected(structured, **config)
    session.start_run("hi")
    session.receive(wire(result("2", {"run_id": run_id})))
    return session


def run_start(rid: str, text: str, **more: Any) -> Request:
    """The ``run.start`` request the UI sends for ``text`` (seed 004's shape)."""
    return Request(rid, "run.start", {"input": {"type": "text", "text": text}, **more})


def feed(session: Session, *objs: Any) -> Step:
    """Receive several wire objects; the concatenated step."""
    inputs: list[Input] = []
    send: list[Any] = []
    for obj in objs:
        step = session.receive(wire(obj))
        inputs += step.inputs
        send += step.send
    return Step(tuple(inputs), tuple(send))
