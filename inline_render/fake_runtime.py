"""A scripted agent runtime that speaks the inline_render protocol.

Run it as ``python -m inline_render.fake_runtime``: it reads JSON-RPC 2.0
messages from stdin and writes NDJSON to stdout (protocol only; diagnostics go
to stderr).  The demo and the tests drive it; it is also a small reference for
runtime authors, so it uses nothing but ``json`` and ``asyncio``.

What a run does (the prompt picks the script):

* any prompt: reasons, reports its context use, streams an answer with a
  fenced code block, reads ``hello.py``
  (tool call + result), plans an edit, sends the permission preflight (a
  unified diff), asks ``ui.confirm.request`` and applies or skips the edit;
* a prompt containing ``pick``: asks ``ui.pick.request`` for a file;
* a prompt containing ``ask``: asks ``ui.prompt.request`` for a commit message;
* a prompt containing ``long``: streams many lines (something to cancel);
* a prompt containing ``suggest``: fills the composer (``ui.set_editor_text``).

``run.cancel`` stops a run at any point (also while a dialog is open) and ends
it with ``run.status`` ``cancelled``.  Options: ``--legacy`` prints the
preflight as legacy text lines; ``--speed`` (characters per second of streamed
text) and ``--delay`` (seconds between steps) pace it, 0 meaning no pause;
``--crash-after N`` dies after N agent events; ``--ignore METHOD`` never answers
that method (to test timeouts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from typing import Any

__all__ = ["FakeRuntime", "main"]

SOURCE = 'def greet(name):\n    print("hi " + name)\n'
DIFF = """--- a/hello.py
+++ b/hello.py
@@ -1,2 +1,2 @@
 def greet(name):
-    print("hi " + name)
+    print(f"Hello, {name}!")"""
INTRO = (
    "I'll update the greeting in `hello.py`. It currently reads:\n\n"
    f"```python\n{SOURCE}```\n\nLet me look at the file first."
)


class FakeRuntime:
    """One runtime process: the UI's requests in, events and UI requests out."""

    def __init__(self, options: argparse.Namespace) -> None:
        self.options = options
        self.structured = False  # negotiated in initialize
        self.runs = 0
        self.run_id: str | None = None
        self.task: asyncio.Task[None] | None = None
        self.seq = 0
        self.events_sent = 0
        self.next_request = 0
        self.waiting: dict[str, asyncio.Future[Any]] = {}

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
        rid = f"ui-{self.next_request}"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = future
        self.write({"id": rid, "method": method, "params": {**params, "run_id": self.run_id}})
        try:
            return await future
        finally:
            self.waiting.pop(rid, None)

    # --- pacing and events -------------------------------------------------------------------

    async def pause(self, seconds: float | None = None) -> None:
        await asyncio.sleep(self.options.delay if seconds is None else seconds)

    async def event(self, event: dict[str, Any]) -> None:
        self.seq += 1
        self.notify("agent.event", {"run_id": self.run_id, "seq": self.seq, "event": event})
        self.events_sent += 1
        if self.options.crash_after is not None and self.events_sent >= self.options.crash_after:
            print(f"fake_runtime: crashing on purpose after {self.events_sent} events", file=sys.stderr, flush=True)
            os._exit(3)
        await asyncio.sleep(0)  # let a run.cancel in

    async def stream(self, text: str) -> None:
        """Stream ``text`` as ``text`` events of a few characters, at ``--speed`` chars/s."""
        step = 6
        for start in range(0, len(text), step):
            chunk = text[start : start + step]
            await self.event({"type": "text", "content": chunk})
            if self.options.speed > 0:
                await self.pause(len(chunk) / self.options.speed)

    async def say(self, text: str) -> None:
        """A whole assistant message: streamed, then confirmed by ``final``."""
        await self.stream(text)
        await self.event({"type": "final", "content": text})

    def status(self, status: str, message: str | None = None) -> None:
        params = {"run_id": self.run_id, "status": status}
        self.notify("run.status", params if message is None else {**params, "message": message})

    # --- scripts -----------------------------------------------------------------------------

    async def run(self, prompt: str) -> None:
        try:
            self.status("running")
            await self.pause()
            if "long" in prompt:
                await self.say("".join(f"Line {n} of a long answer.\n" for n in range(1, 201)))
            elif "pick" in prompt:
                answer = await self.request(
                    "ui.pick.request",
                    {
                        "title": "Which file?",
                        "options": [
                            {"id": "hello.py", "label": "hello.py", "description": "the greeting"},
                            {"id": "main.py", "label": "main.py"},
                        ],
                    },
                )
                ids = (answer or {}).get("ids") or []
                await self.say(f"You picked: {', '.join(ids)}." if ids else "Nothing picked.")
            elif "ask" in prompt:
                answer = await self.request(
                    "ui.prompt.request", {"title": "Commit message", "default": "Update greeting"}
                )
                value = (answer or {}).get("value")
                await self.say(f"Commit message: {value}" if value is not None else "No commit message.")
            else:
                await self.edit_script()
            if "suggest" in prompt:
                self.notify("ui.set_editor_text", {"text": "Now add a test for greet()"})
            self.status("completed")
        except asyncio.CancelledError:
            self.status("cancelled", "Stopped by the user.")
        finally:
            self.task = None

    async def edit_script(self) -> None:
        await self.event({"type": "reasoning", "content": "The greeting lives in hello.py: read it, then edit."})
        self.notify("run.context", {"run_id": self.run_id, "context_left_percent": 87})
        await self.stream(INTRO)
        await self.pause()
        self.notify("ui.working", {"message": "Reading hello.py"})
        await self.event({"type": "tool_call", "tool": "read", "tool_call_id": "call-1", "args": {"path": "hello.py"}})
        await self.pause()
        await self.event({"type": "tool_result", "tool": "read", "tool_call_id": "call-1", "result": SOURCE})
        self.notify("ui.working", {"message": ""})
        await self.event({"type": "tool_call", "tool": "edit", "tool_call_id": "call-2", "args": {"path": "hello.py"}})
        await self.preflight("edit", "call-2")
        self.status("awaiting_ui")
        answer = await self.request(
            "ui.confirm.request",
            {
                "title": "Allow edit?",
                "message": "Apply the change to hello.py",
                "confirm_label": "Allow",
                "cancel_label": "Deny",
                "danger_level": "normal",
                "allow_remember": True,
                "allow_reason": True,
            },
        )
        self.status("running")
        if answer is not None and answer.get("ok"):
            await self.event(
                {
                    "type": "tool_result",
                    "tool": "edit",
                    "tool_call_id": "call-2",
                    "result": "Applied 1 hunk to hello.py",
                }
            )
            self.notify("ui.notify", {"message": "hello.py updated", "notify_type": "success"})
            await self.say("Done: `hello.py` now says Hello.")
        else:
            reason = (answer or {}).get("reason")
            await self.event(
                {
                    "type": "tool_result",
                    "tool": "edit",
                    "tool_call_id": "call-2",
                    "result": "Denied by the user" + (f": {reason}" if reason else ""),
                    "is_error": True,
                }
            )
            await self.say("Okay, I left `hello.py` unchanged.")

    async def preflight(self, tool: str, call_id: str) -> None:
        """Show the user what the tool will change, structured or as legacy text lines."""
        if self.structured:
            await self.event({"type": "permission.preview", "tool": tool, "diff": DIFF, "tool_call_id": call_id})
            await self.event({"type": "permission.ready", "tool": tool, "tool_call_id": call_id})
        else:
            for line in [f"Planned {tool} diff preview:", *DIFF.split("\n"), f"Permission preflight ready ({tool})"]:
                sys.stdout.write(line + "\n")
            sys.stdout.flush()
        await self.pause()

    # --- the UI's messages -------------------------------------------------------------------

    def handle(self, message: Any) -> None:
        if not isinstance(message, dict):
            self.fail(None, -32600, "Invalid Request")
            return
        method, rid, params = message.get("method"), message.get("id"), message.get("params")
        if method is None:  # a response to one of our requests
            future = self.waiting.get(str(rid))
            if future is not None and not future.done():
                future.set_result(message.get("result"))  # an error response reads as None
            return
        if method in self.options.ignore:
            return
        problem = _invalid_params(method, params)
        if problem is not None:
            if rid is not None:  # a runtime answers bad params with -32602 (a notification gets nothing)
                self.fail(rid, -32602, f"Invalid params: {problem}")
            return
        params = params or {}
        if method == "initialize":
            ui = params.get("ui_capabilities") or {}
            self.structured = not self.options.legacy and bool(ui.get("supports_permission_preflight_events"))
            self.respond(
                rid,
                {
                    "protocol_version": 1,
                    "server": {"name": "fake_runtime", "version": "1"},
                    "server_capabilities": {
                        "supports_run_cancel": True,
                        "supports_permission_preflight_events": not self.options.legacy,
                    },
                },
            )
        elif method == "run.start":
            if self.task is not None:
                self.fail(rid, -32000, "A run is already in progress")
                return
            self.runs += 1
            self.run_id, self.seq = f"run-{self.runs}", 0
            self.respond(rid, {"run_id": self.run_id})  # answered before any event of the run
            self.task = asyncio.ensure_future(self.run(params["prompt"]))
        elif method == "run.cancel":
            self.respond(rid, {})
            if self.task is not None and params.get("run_id") == self.run_id:
                self.task.cancel()
        elif rid is not None:
            self.fail(rid, -32601, f"Method not found: {method}")


def _invalid_params(method: str, params: Any) -> str | None:
    """What is wrong with a request's params (checked before acting on it), or None."""
    if params is not None and not isinstance(params, dict):
        return "params must be an object"
    params = params or {}
    if method == "initialize" and not (
        isinstance(params.get("protocol_version"), int) and not isinstance(params.get("protocol_version"), bool)
    ):
        return "'protocol_version' must be an integer"
    if method == "run.start" and not isinstance(params.get("prompt"), str):
        return "'prompt' must be a string"
    if method == "run.cancel" and not isinstance(params.get("run_id"), str):
        return "'run_id' must be a string"
    return None


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
        prog="python -m inline_render.fake_runtime",
        description=re.sub(r"`{1,2}([^`]+)`{1,2}", r"\1", __doc__ or ""),  # --help shows no raw backticks
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--legacy", action="store_true", help="send the preflight as legacy text lines")
    parser.add_argument("--speed", type=float, default=400.0, help="streamed characters per second (0: instant)")
    parser.add_argument("--delay", type=float, default=0.2, help="seconds between steps (0: none)")
    parser.add_argument("--crash-after", type=int, default=None, metavar="N", help="exit(3) after N agent events")
    parser.add_argument("--ignore", action="append", default=[], metavar="METHOD", help="never answer METHOD")
    asyncio.run(serve(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
