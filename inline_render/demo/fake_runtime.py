"""A scripted agent runtime that speaks the codelia UI protocol (seed 004) exactly.

Run it as ``python -m inline_render.demo.fake_runtime``: it reads JSON-RPC 2.0
messages from stdin and writes NDJSON to stdout (protocol only; diagnostics go
to stderr).  The demo and the tests drive it; it is also a reference for
runtime authors, so it uses nothing but the standard library, and it is strict
where seed 004 is: request ids are strings, ``protocol_version`` is a string,
``run.start`` takes ``{input: {type: "text", text}, session_id?, ui_context?,
meta?}``, anything else is ``-32602``.  Its own requests are ``"ui_1"``,
``"ui_2"``...  Events follow the real codelia runtime's order (``seq`` from 0
in every run): ``permission.preview`` -> ``permission.ready`` -> ``run.status
awaiting_ui`` -> ``ui.confirm.request`` -> answer -> ``run.status running`` ->
``tool_result`` -> ``step_complete`` -> ``final`` -> ``run.status completed``.

What a run does (the prompt picks the script):

* any prompt: reasoning, context use, an answer in two text parts (one with a
  fenced code block), an edit of ``hello.py`` asked with ``ui.confirm.request``;
  denied without a reason the turn stops, with a reason the model gives up politely;
* ``pick``: ``ui.pick.request`` with items and details;  ``ask``:
  ``ui.prompt.request`` with a ``default_value``;  ``long``: many text parts,
  slowly (something to cancel);  ``retry``: ``llm.retry``, compaction, a
  hidden user message, ``run.diagnostics`` and an event type from the future;
  ``suggest``: fills the composer (``ui.set_editor_text``, an addition);
  ``flood``: ``--flood-bytes`` of answer (default 100 MB) in text parts of 100
  characters, as fast as the pipe takes them, then ``flood done`` (a stress test).

``run.cancel`` answers ``{ok: true}`` and ends the run ``cancelled`` (while a
confirm is pending: only once the confirm is answered, as codelia does); a
run that is over gets ``-32002``.  ``run.start`` during a run gets ``-32001``.
Sessions (``session.list`` / ``session.history``, with one saved session),
``model.list`` / ``model.set``, ``mcp.list``, ``skills.list`` and
``ui.context.update`` are served from memory.  Options: ``--legacy`` prints the
preflight as legacy text lines; ``--speed`` / ``--delay`` pace it (0: no
pause); ``--crash-after N`` dies after N agent events; ``--log FILE`` appends
every message it receives to FILE; an answer to its dialogs that is not in
seed 004's shape is reported on stderr; ``--ignore METHOD``
never answers METHOD; ``--no-mcp`` / ``--no-skills`` drop those capabilities;
``--onboarding`` asks codelia's provider pick right after ``initialize``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from typing import Any

from .fake_catalog import HISTORY, MCP_SERVERS, MODELS, SKILLS, answer_problem, edit_result, request_problem

__all__ = ["FakeRuntime", "main"]

DIFF = """--- hello.py
+++ hello.py
@@ -1,2 +1,2 @@
 def greet(name):
-    print("hi " + name)
+    print(f"Hello, {name}!")"""
SOURCE = 'def greet(name):\n    print("hi " + name)\n'
INTRO = "I'll update the greeting in `hello.py`. Let me look at the file first."
CODE = f"It currently reads:\n\n```python\n{SOURCE}```"
PLAN = "I will change the greeting to use an f-string."


class Cancelled(Exception):
    """The run was cancelled: end it with ``run.status cancelled``."""


class FakeRuntime:
    """One runtime process: the UI's requests in, events and UI requests out."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.structured = False  # negotiated in initialize
        self.runs = 0
        self.run_id: str | None = None
        self.task: asyncio.Task[None] | None = None
        self.side_task: asyncio.Future[None] | None = None  # the onboarding pick (outside any run)
        self.cancel_requested = False
        self.seq = 0
        self.events_sent = 0
        self.next_request = 0
        self.waiting: dict[str, asyncio.Future[Any]] = {}
        self.asked: dict[str, str] = {}  # request id -> method, to check the answer's shape
        self.session_id: str | None = None
        self.sessions: dict[str, list[dict[str, Any]]] = {sid: list(runs) for sid, runs in HISTORY.items()}
        self.model = MODELS["current"]
        self.context: dict[str, Any] = {}

    # --- the wire ----------------------------------------------------------------------------

    def write(self, message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        sys.stdout.flush()

    def respond(self, rid: Any, result: Any) -> None:
        self.write({"id": rid, "result": result})

    def fail(self, rid: Any, code: int, message: str) -> None:
        self.write({"id": rid, "error": {"code": code, "message": message}})

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.write({"method": method, "params": params})

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        """Ask the UI something and wait for its answer (None if it answered with an error)."""
        self.next_request += 1
        rid = f"ui_{self.next_request}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        self.asked[rid] = method
        if self.run_id is not None:
            params = {"run_id": self.run_id, **params}
        self.write({"id": rid, "method": method, "params": params})
        try:
            # Shielded: a cancel while the UI is asked waits for its answer, as codelia does.
            return await asyncio.shield(future)
        finally:
            self.waiting.pop(rid, None)

    # --- pacing and events -------------------------------------------------------------------

    async def pause(self, seconds: float | None = None) -> None:
        await asyncio.sleep(self.options.delay if seconds is None else seconds)
        if self.cancel_requested:
            raise Cancelled

    async def event(self, event: dict[str, Any]) -> None:
        if self.cancel_requested:
            raise Cancelled  # no event of a run after its cancel
        assert self.run_id is not None
        self.notify("agent.event", {"run_id": self.run_id, "seq": self.seq, "event": event})
        self.sessions.setdefault(self.session_id or "", [])[-1]["events"].append(event)
        self.seq += 1
        self.events_sent += 1
        if self.options.crash_after is not None and self.events_sent >= self.options.crash_after:
            print(f"fake_runtime: crashing on purpose after {self.events_sent} events", file=sys.stderr, flush=True)
            os._exit(3)
        await asyncio.sleep(0)  # let a run.cancel in

    async def text(self, content: str) -> None:
        """One whole text part (seed 004: not a token delta), paced at ``--speed`` characters a second."""
        if self.options.speed > 0:
            await self.pause(len(content) / self.options.speed)
        await self.event({"type": "text", "content": content})

    def status(self, status: str, message: str | None = None) -> None:
        params = {"run_id": self.run_id, "status": status}
        self.notify("run.status", params if message is None else {**params, "message": message})

    # --- scripts -----------------------------------------------------------------------------

    async def run(self, prompt: str) -> None:
        try:
            self.status("running")
            await self.pause()
            if "flood" in prompt:
                await self.flood(self.options.flood_bytes)
            elif "long" in prompt:
                # 200 numbered lines in parts of five (each part a paragraph); the final repeats the whole.
                parts = ["\n".join(f"Line {n} of a long answer." for n in range(k, k + 5)) for k in range(1, 201, 5)]
                for part in parts:
                    await self.text(part)
                await self.event({"type": "final", "content": "\n\n".join(parts)})
            elif "pick" in prompt:
                await self.pick_script()
            elif "ask" in prompt:
                answer = await self.request(
                    "ui.prompt.request",
                    {"title": "Commit message", "message": "Describe the change", "default_value": "Update greeting"},
                )
                self.check_cancel()
                value = (answer or {}).get("value")
                final = f"Commit message: {value}" if value is not None else "No commit message."
                await self.event({"type": "final", "content": final})
            elif "retry" in prompt:
                await self.retry_script()
            else:
                await self.edit_script()
            if "suggest" in prompt:
                self.notify("ui.set_editor_text", {"text": "Now add a test for greet()"})
            self.status("completed")
        except (asyncio.CancelledError, Cancelled):
            self.status("cancelled")
        finally:
            self.task, self.run_id, self.cancel_requested = None, None, False

    async def flood(self, size: int) -> None:
        """``size`` characters of answer in parts of 100, written in batches without pausing (a pipe that is
        not read blocks the writes: the UI sets the pace)."""
        words = "the quick brown fox jumps over a lazy dog while the terminal keeps scrolling along "
        sent, batch = 0, []
        while sent < size:
            part = f"flood {sent:>10} {words}"[:100]
            batch.append(self._event_line({"type": "text", "content": part}))
            sent += len(part)
            if len(batch) >= 256:
                sys.stdout.write("".join(batch))
                sys.stdout.flush()
                batch = []
                await asyncio.sleep(0)  # let a run.cancel in
        batch.append(self._event_line({"type": "text", "content": "flood done"}))
        sys.stdout.write("".join(batch))
        sys.stdout.flush()
        await self.event({"type": "final", "content": ""})

    def _event_line(self, event: dict[str, Any]) -> str:
        if self.cancel_requested:
            raise Cancelled
        params = {"run_id": self.run_id, "seq": self.seq, "event": event}
        self.seq += 1
        return json.dumps({"jsonrpc": "2.0", "method": "agent.event", "params": params}) + "\n"

    def check_cancel(self) -> None:
        """After a dialog's answer: a cancel that came meanwhile takes effect now (``running``, then ``cancelled``)."""
        if self.cancel_requested:
            self.status("running")
            raise Cancelled

    async def pick_script(self) -> None:
        items = [
            {"id": "hello.py", "label": "hello.py", "detail": "the greeting"},
            {"id": "main.py", "label": "main.py", "detail": "calls greet()"},
            {"id": "README.md", "label": "README.md"},
        ]
        answer = await self.request("ui.pick.request", {"title": "Which file?", "items": items, "multi": False})
        self.check_cancel()
        ids = (answer or {}).get("ids") or []
        await self.event({"type": "final", "content": f"You picked: {', '.join(ids)}." if ids else "Nothing picked."})

    async def retry_script(self) -> None:
        await self.event({"type": "llm.retry", "attempt": 1, "max_attempts": 3, "delay_ms": 10, "reason": "HTTP 429"})
        await self.event({"type": "llm.retry", "attempt": 2, "max_attempts": 3, "delay_ms": 20, "reason": "HTTP 429"})
        await self.event({"type": "compaction_start", "timestamp": 1})
        await self.event({"type": "compaction_complete", "timestamp": 2, "compacted": True})
        await self.event({"type": "hidden_user_message", "content": "<system-reminder>keep it short</system-reminder>"})
        await self.event({"type": "quantum.entangle", "qubits": 2})  # a type from a future runtime
        self.notify("run.diagnostics", {"run_id": self.run_id, "kind": "llm_request", "tokens": 1234})
        await self.event({"type": "final", "content": "Recovered after two retries and a compaction."})

    async def edit_script(self) -> None:
        await self.event({"type": "reasoning", "content": "The greeting lives in hello.py: edit it.", "timestamp": 1})
        self.notify("run.context", {"run_id": self.run_id, "context_left_percent": 87})
        await self.text(INTRO)
        read = "call_0001"
        await self.event({"type": "step_start", "step_id": read, "title": "read", "step_number": 1})
        await self.event({"type": "tool_call", "tool": "read", "args": {"file_path": "hello.py"}, "tool_call_id": read})
        await self.pause()
        await self.event({"type": "tool_result", "tool": "read", "result": SOURCE, "tool_call_id": read})
        await self.event({"type": "step_complete", "step_id": read, "status": "completed", "duration_ms": 3})
        await self.text(CODE)
        await self.text(PLAN)
        call = "call_0002"
        await self.event({"type": "step_start", "step_id": call, "title": "edit", "step_number": 2})
        args = {"file_path": "hello.py", "old_string": 'print("hi " + name)', "new_string": 'print(f"Hello, {name}!")'}
        await self.event({"type": "tool_call", "tool": "edit", "args": args, "tool_call_id": call})
        await self.preflight("edit", call)
        self.status("awaiting_ui", "waiting for confirmation")
        answer = await self.request(
            "ui.confirm.request",
            {
                "title": "Run tool?",
                "message": "edit hello.py (match=auto)\n\nRemember (don't ask again):\n- edit",
                "confirm_label": "Allow",
                "cancel_label": "Deny",
                "allow_remember": True,
                "allow_reason": True,
            },
        )
        self.check_cancel()
        self.status("running")
        await self.pause()
        answer = answer or {}
        result: dict[str, Any] = {"type": "tool_result", "tool": "edit", "tool_call_id": call}
        if answer.get("ok"):
            await self.event({**result, "result": edit_result(DIFF)})
            await self.event({"type": "step_complete", "step_id": call, "status": "completed", "duration_ms": 16})
            await self.event({"type": "final", "content": "Done: `hello.py` now says Hello."})
            return
        reason = answer.get("reason")
        denied = "Permission denied" + (f": {reason}" if reason else "")
        await self.event({**result, "result": denied, "is_error": True})
        await self.event({"type": "step_complete", "step_id": call, "status": "error", "duration_ms": 43})
        final = "Okay, I left `hello.py` unchanged." if reason else "Permission request was denied. Turn stopped."
        await self.event({"type": "final", "content": final})

    async def preflight(self, tool: str, call_id: str) -> None:
        """Show the user what the tool will change, structured or as legacy text lines."""
        if self.structured:
            preview = {"type": "permission.preview", "tool": tool, "tool_call_id": call_id}
            await self.event({**preview, "file_path": "hello.py", "language": "python", "diff": DIFF})
            await self.event({"type": "permission.ready", "tool": tool, "tool_call_id": call_id})
        else:
            for line in [f"Planned {tool} diff preview:", *DIFF.split("\n"), f"Permission preflight ready ({tool})"]:
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
        await self.pause()

    async def onboarding(self) -> None:
        """codelia's first-start pick (no run): which provider."""
        items = [
            {"id": "openai", "label": "openai", "detail": "OAuth (ChatGPT Plus/Pro) or API key"},
            {"id": "anthropic", "label": "anthropic", "detail": "API key"},
        ]
        await self.request("ui.pick.request", {"title": "Let's set up your provider to get started.", "items": items})

    # --- the UI's messages -------------------------------------------------------------------

    def handle(self, message: Any) -> None:
        if self.options.log is not None:  # every message of the UI, for tests and curious readers
            with open(self.options.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(message) + "\n")
        if not isinstance(message, dict):
            self.fail(None, -32600, "Invalid Request")
            return
        method, rid, params = message.get("method"), message.get("id"), message.get("params")
        if method is None:  # a response to one of our requests
            future = self.waiting.get(rid) if isinstance(rid, str) else None
            problem = answer_problem(self.asked.pop(rid, None) if isinstance(rid, str) else None, message)
            if problem is not None:  # a strict runtime says so (the UI shows stderr lines)
                print(f"fake_runtime: invalid answer {json.dumps(message)}: {problem}", file=sys.stderr, flush=True)
            if future is not None and not future.done():
                future.set_result(message.get("result"))  # an error response reads as None
            return
        if method in self.options.ignore:
            return
        if "id" in message and not isinstance(rid, str):
            self.fail(rid if isinstance(rid, int) else None, -32600, "Invalid Request: id must be a string")
            return
        problem = request_problem(method, params)
        if problem is not None:
            if rid is not None:  # a runtime answers bad params with -32602 (a notification gets nothing)
                self.fail(rid, -32602, f"Invalid params: {problem}")
            return
        params = params or {}
        handler = getattr(self, "on_" + method.replace(".", "_"), None)
        if handler is not None:
            handler(rid, params)
        elif rid is not None:
            self.fail(rid, -32601, f"Method not found: {method}")

    def on_initialize(self, rid: str, params: dict[str, Any]) -> None:
        ui = params.get("ui_capabilities") or {}
        self.structured = not self.options.legacy and bool(ui.get("supports_permission_preflight_events"))
        caps = {
            "supports_run_cancel": True,
            "supports_ui_requests": True,
            "supports_mcp_list": not self.options.no_mcp,
            "supports_skills_list": not self.options.no_skills,
            "supports_permission_preflight_events": not self.options.legacy,
        }
        server = {"name": "fake_runtime", "version": "0.2.0"}
        self.respond(rid, {"protocol_version": "0", "server": server, "server_capabilities": caps})
        if self.options.onboarding:
            self.side_task = asyncio.ensure_future(self.onboarding())

    def on_ui_context_update(self, rid: str | None, params: dict[str, Any]) -> None:
        self.context = params  # a notification: no answer

    def on_run_start(self, rid: str, params: dict[str, Any]) -> None:
        if self.task is not None:
            self.fail(rid, -32001, "runtime busy")
            return
        self.runs += 1
        self.run_id, self.seq = f"run-{self.runs}", 0
        resumed = params.get("session_id")
        self.session_id = resumed if resumed in self.sessions else (self.session_id or f"session-{os.getpid()}")
        text = params["input"]["text"]
        self.sessions.setdefault(self.session_id, []).append({"run_id": self.run_id, "prompt": text, "events": []})
        self.respond(rid, {"run_id": self.run_id, "session_log_path": f"~/.fake/sessions/{self.run_id}.jsonl"})
        self.task = asyncio.ensure_future(self.run(text))

    def on_run_cancel(self, rid: str, params: dict[str, Any]) -> None:
        if self.task is None or params["run_id"] != self.run_id:
            self.fail(rid, -32002, "run not found")
            return
        self.respond(rid, {"ok": True})
        self.cancel_requested = True
        if not self.waiting:  # a pending UI request ends the run once answered (check_cancel)
            self.task.cancel()

    def on_session_list(self, rid: str, params: dict[str, Any]) -> None:
        sessions = [
            {
                "session_id": sid,
                "updated_at": f"2026-11-2{n}T10:00:00Z",
                "run_id": runs[-1]["run_id"],
                "message_count": 2 * len(runs),
                "last_user_message": runs[-1]["prompt"],
            }
            for n, (sid, runs) in enumerate(self.sessions.items())
            if runs
        ]
        self.respond(rid, {"sessions": sessions[: params.get("limit") or 50]})

    def on_session_history(self, rid: str, params: dict[str, Any]) -> None:
        runs = self.sessions.get(params["session_id"], [])
        sent = 0
        for run in runs:  # as codelia: the prompt as a hidden_user_message (seq -1), then the run's events
            prompt = {"type": "hidden_user_message", "content": run["prompt"]}
            self.notify("agent.event", {"run_id": run["run_id"], "seq": -1, "event": prompt})
            for seq, event in enumerate(run["events"]):
                self.notify("agent.event", {"run_id": run["run_id"], "seq": seq, "event": event})
            sent += 1 + len(run["events"])
        self.respond(rid, {"runs": len(runs), "events_sent": sent})

    def on_model_list(self, rid: str, params: dict[str, Any]) -> None:
        details = MODELS["details"] if params.get("include_details") else None
        result = {"provider": "openai", "models": MODELS["models"], "current": self.model}
        self.respond(rid, result if details is None else {**result, "details": details})

    def on_model_set(self, rid: str, params: dict[str, Any]) -> None:
        if params["name"] not in MODELS["models"]:
            self.fail(rid, -32602, f"unknown model: {params['name']}")
        elif self.task is not None:
            self.fail(rid, -32001, "runtime busy")
        else:
            self.model = params["name"]
            self.respond(rid, {"provider": "openai", "name": self.model})

    def on_mcp_list(self, rid: str, params: dict[str, Any]) -> None:
        self.respond(rid, {"servers": MCP_SERVERS})

    def on_skills_list(self, rid: str, params: dict[str, Any]) -> None:
        self.respond(rid, SKILLS)


async def serve(options: argparse.Namespace) -> None:
    runtime = FakeRuntime(options)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=16 * 1024 * 1024)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            runtime.fail(None, -32700, "Parse error")
            continue
        runtime.handle(message)
    if runtime.task is not None:  # stdin closed: the UI is gone, stop quietly
        runtime.task.cancel()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m inline_render.demo.fake_runtime",
        description=re.sub(r"`{1,2}([^`]+)`{1,2}", r"\1", __doc__ or ""),  # --help shows no raw backticks
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--legacy", action="store_true", help="send the preflight as legacy text lines")
    parser.add_argument("--speed", type=float, default=400.0, help="text characters per second (0: instant)")
    parser.add_argument("--delay", type=float, default=0.2, help="seconds between steps (0: none)")
    parser.add_argument("--crash-after", type=int, default=None, metavar="N", help="exit(3) after N agent events")
    parser.add_argument("--ignore", action="append", default=[], metavar="METHOD", help="never answer METHOD")
    parser.add_argument("--no-mcp", action="store_true", help="announce supports_mcp_list: false")
    parser.add_argument("--no-skills", action="store_true", help="announce supports_skills_list: false")
    parser.add_argument("--onboarding", action="store_true", help="ask the provider pick after initialize")
    parser.add_argument("--flood-bytes", type=int, default=100_000_000, metavar="N", help="size of the flood answer")
    parser.add_argument("--log", metavar="FILE", help="append every message received to FILE (NDJSON)")
    asyncio.run(serve(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
