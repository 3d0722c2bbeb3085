"""A scripted Lemon runtime speaking seed 001's JSON lines verbatim: ``python -m inline_render.demo.fake_lemon``.

It prints ``ready``, then answers each ``{"type": "prompt", "text": ...}`` with a
scripted turn chosen by a word of the prompt, with Elixir's ``__struct__``
members and ``data`` arrays exactly as 2.4 shows them:

- anything: thinking, a streamed answer, a ``read`` tool call and its result, a second streamed answer;
- ``pick``/``confirm``/``ask``/``edit``: a ``select``/``confirm``/``input``/``editor`` overlay, then
  what was answered; ``signals``: every ``ui_*`` signal; ``long``: streams until ``abort``;
  ``bad``: malformed lines among good ones; ``fail``: an ``error`` event.

``abort``, ``reset``, ``save``, ``stats``, ``ping`` and ``quit`` are answered at any
time (a reader thread), anything else with an ``error`` line.  ``--log FILE``
appends every line received; ``--delay`` is the pause between streamed updates.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import sys
import threading
import time
from typing import Any

__all__ = ["FakeLemon", "main"]

T0 = 1_700_000_000_000
READ_RESULT = "def greet(name):\n    print(f'Hello, {name}!')"
ANSWER_1 = "I'll read the file first."
ANSWER_2 = "The greeting in **hello.py** already uses an f-string, so it is fine."


def chunks(answer: str) -> list[str]:
    """``answer`` word by word, the spaces kept: the chunks join to exactly ``answer``."""
    words = [word + " " for word in answer.split(" ")]
    words[-1] = words[-1].rstrip(" ")
    return words


def struct(module: str, /, **fields: Any) -> dict[str, Any]:
    """An Elixir struct as ``debug_agent_rpc.exs`` serializes it (2.4)."""
    return {"__struct__": f"Elixir.{module}", **fields}


def text(value: str) -> dict[str, Any]:
    return struct("Ai.Types.TextContent", type="text", text=value, text_signature=None)


def thinking(value: str) -> dict[str, Any]:
    return struct("Ai.Types.ThinkingContent", type="thinking", thinking=value, thinking_signature=None)


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return struct("Ai.Types.ToolCall", type="tool_call", id=call_id, name=name, arguments=arguments)


def assistant(content: list[dict[str, Any]], stop: str = "stop", error: str | None = None) -> dict[str, Any]:
    return struct(
        "Ai.Types.AssistantMessage",
        role="assistant",
        content=content,
        provider="anthropic",
        model="claude-3-5",
        api="bedrock_converse_stream",
        usage={"input": 12, "output": 34},
        stop_reason=stop,
        error_message=error,
        timestamp=T0,
    )


class FakeLemon:
    """The scripted runtime: one writer lock, a reader thread for commands, prompts run in order."""

    def __init__(self, delay: float, log: str | None) -> None:
        self.delay = delay
        self.log = log
        self.lock = threading.Lock()
        self.prompts: queue.Queue[str | None] = queue.Queue()
        self.answers: dict[str, queue.Queue[Any]] = {}
        self.aborted = threading.Event()
        self.next_id = 0

    def send(self, obj: dict[str, Any]) -> None:
        with self.lock:
            sys.stdout.write(json.dumps(obj) + "\n")
            sys.stdout.flush()

    def raw(self, line: str) -> None:
        with self.lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def event(self, kind: str, *data: Any) -> None:
        self.send({"type": "event", "event": {"type": kind, "data": list(data)}})

    def read(self) -> None:
        """The reader thread: commands are answered at once, prompts queued, answers delivered."""
        while line := sys.stdin.readline():  # not ``for line in sys.stdin``: no read-ahead on a pipe
            if self.log:
                with open(self.log, "a", encoding="utf-8") as file:
                    file.write(line if line.endswith("\n") else line + "\n")
            try:
                msg = json.loads(line)
            except ValueError:
                self.send({"type": "error", "message": "invalid JSON"})
                continue
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind == "prompt":
                self.aborted.clear()
                self.prompts.put(str(msg.get("text", "")))
            elif kind == "ui_response" and str(msg.get("id")) in self.answers:
                self.answers[str(msg["id"])].put(msg)
            elif kind == "abort":
                self.aborted.set()
            elif kind == "ping":
                self.send({"type": "pong"})
            elif kind == "stats":
                stats = {"turns": 1, "messages": 4, "tokens": {"input": 12, "output": 34}}
                self.send({"type": "stats", "stats": stats})
            elif kind in ("reset", "save"):
                said = "Session reset." if kind == "reset" else "Session saved."
                self.send({"type": "ui_notify", "params": {"message": said, "notify_type": "success"}})
            elif kind == "quit":
                os._exit(0)
            else:
                self.send({"type": "error", "message": f"unknown command: {kind}"})
        self.prompts.put(None)

    def ask(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """A ``ui_request``; blocks until its ``ui_response``."""
        self.next_id += 1
        rid = f"req-{self.next_id}"
        self.answers[rid] = queue.Queue()
        self.send({"type": "ui_request", "id": rid, "method": method, "params": params})
        answer: dict[str, Any] = self.answers[rid].get()
        del self.answers[rid]
        return answer

    def stream(self, before: list[dict[str, Any]], chunks: list[str]) -> list[dict[str, Any]]:
        """message_update snapshots: each carries the whole message so far; the content at the end."""
        so_far = ""
        for chunk in chunks:
            if self.aborted.is_set():
                break
            so_far += chunk
            delta = {"type": "text_delta", "delta": chunk}
            self.event("message_update", assistant([*before, text(so_far)]), delta)
            time.sleep(self.delay)
        return [*before, text(so_far)]

    def reply(self, answer: str, before: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """One streamed assistant message: start, snapshots word by word, end."""
        before = before or []
        self.event("message_start", assistant([]))
        content = self.stream(before, chunks(answer))
        final = assistant(content, "aborted" if self.aborted.is_set() else "stop")
        self.event("message_end", final)
        return final

    def run(self, prompt: str) -> None:
        user = struct("Ai.Types.UserMessage", role="user", content=prompt, timestamp=T0)
        self.event("agent_start")
        self.event("turn_start")
        self.event("message_start", user)
        self.event("message_end", user)
        word = prompt.lower()
        messages: list[dict[str, Any]] = [user]
        if "pick" in word:
            options = [{"label": "hello.py", "value": "hello.py"}, {"label": "README.md", "value": "README.md"}]
            answer = self.ask("select", {"title": "Pick a file", "options": options})
            messages.append(self.reply(f"You picked: {answer['result']}."))
        elif "confirm" in word:
            answer = self.ask("confirm", {"title": "Delete build/?", "message": "This removes 3 files."})
            messages.append(self.reply(f"Confirmed: {json.dumps(answer['result'])}."))
        elif "ask" in word:
            answer = self.ask("input", {"title": "Commit message", "placeholder": "one line"})
            messages.append(self.reply(f"Commit message: {answer['result']}."))
        elif "edit" in word:
            answer = self.ask("editor", {"title": "Edit the plan", "prefill": "1. read\n2. fix"})
            lines = len(str(answer["result"]).splitlines())
            messages.append(self.reply(f"The plan has {lines} lines."))
        elif "signals" in word:
            self.signals()
            messages.append(self.reply("Signals sent."))
        elif "long" in word:
            self.event("message_start", assistant([]))
            content = self.stream([], [f"line {n}\n" for n in range(1, 400)])
            self.event("message_end", assistant(content, "aborted" if self.aborted.is_set() else "stop"))
        elif "bad" in word:
            for line in ("not json at all", "[1, 2]", '{"no_type": 1}', '{"type": "event", "event": {"type": "x"'):
                self.raw(line)
            self.send({"type": "event", "event": {"type": "message_update", "data": "not an array"}})
            self.send({"type": "event", "event": {"type": "tool_execution_end", "data": []}})
            self.send({"type": "ui_notify", "params": {"notify_type": "info"}})
            messages.append(self.reply("Still here after the bad lines."))
        elif "fail" in word:
            reason = struct("RuntimeError", message="provider overloaded")
            self.event("error", reason, {"messages": []})
        else:
            messages += self.tool_turn()
        self.event("turn_end", messages[-1], [])
        self.event("agent_end", messages)

    def tool_turn(self) -> list[dict[str, Any]]:
        """Thinking, an answer and a tool call in one message; the tool's run; the answer after it."""
        self.event("message_start", assistant([]))
        think = thinking("The user wants the greeting checked.")
        self.event("message_update", assistant([think]), {"type": "thinking_delta"})
        content = self.stream([think], chunks(ANSWER_1))
        call = tool_call("call_1", "read", {"path": "hello.py"})
        first = assistant([*content, call], "tool_use")
        self.event("message_update", first, {"type": "tool_call_delta"})
        self.event("message_end", first)
        self.event("tool_execution_start", "call_1", "read", {"path": "hello.py"})
        partial = struct("AgentCore.Types.AgentToolResult", content=[text("def greet")], details={})
        self.event("tool_execution_update", "call_1", "read", {"path": "hello.py"}, partial)
        result = struct("AgentCore.Types.AgentToolResult", content=[text(READ_RESULT)], details={"lines": 2})
        self.event("tool_execution_end", "call_1", "read", result, False)
        tool_message = struct(
            "Ai.Types.ToolResultMessage",
            role="tool_result",
            tool_call_id="call_1",
            tool_name="read",
            content=[text(READ_RESULT)],
            details={},
            is_error=False,
            timestamp=T0,
        )
        self.event("message_start", tool_message)
        self.event("message_end", tool_message)
        self.event("turn_end", first, [tool_message])
        self.event("turn_start")
        return [first, tool_message, self.reply(ANSWER_2)]

    def signals(self) -> None:
        for kind in ("info", "warn", "error", "success"):
            self.send({"type": "ui_notify", "params": {"message": f"A {kind} notice.", "notify_type": kind}})
        self.send({"type": "ui_status", "params": {"key": "tokens", "text": "46 tokens"}})
        self.send({"type": "ui_working", "params": {"message": "Indexing files"}})
        self.send({"type": "ui_set_title", "params": {"title": "Lemon \x1b]52;c;evil\x07 demo"}})
        self.send({"type": "ui_widget", "params": {"key": "todo", "content": "- read\n- fix", "opts": {}}})
        self.send({"type": "ui_set_editor_text", "params": {"text": "edit this text"}})

    def main(self) -> int:
        model = {"provider": "anthropic", "id": "claude-3-5"}
        self.send({"type": "ready", "cwd": os.getcwd(), "model": model, "debug": False, "ui": True})
        threading.Thread(target=self.read, daemon=True).start()
        while (prompt := self.prompts.get()) is not None:
            self.run(prompt)
        return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: ``python -m inline_render.demo.fake_lemon [--delay S] [--log FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m inline_render.demo.fake_lemon", description=__doc__)
    parser.add_argument("--delay", type=float, default=0.03, help="seconds between streamed updates")
    parser.add_argument("--log", metavar="FILE", help="append every line received to FILE")
    args = parser.parse_args(argv)
    return FakeLemon(args.delay, args.log).main()


if __name__ == "__main__":
    sys.exit(main())
