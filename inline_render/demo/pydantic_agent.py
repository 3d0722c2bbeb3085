"""``python -m inline_render demo --pydantic-ai``: a coding agent on pydantic-ai, offline (a scripted model).

Try ``read hello.py``, ``write hello.py print("hi")`` (asks first, with the diff), ``long`` (Esc cancels it),
anything else (a Markdown answer), ``/help``, ``/clear``.  Files live in a scratch directory.  The whole app
is this file: the model, two tools, the commands; ``AgentSession`` does the rest.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic_ai import Agent, Tool
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaThinkingPart, DeltaToolCall, FunctionModel

from ..commands import CommandRegistry
from ..integrations.pydantic_ai import AgentSession
from ..shell import InlineApp

__all__ = ["CodingAgent", "scripted_model"]

ANSWER = "## Inline rendering\n\nFinished text goes into **your scrollback**; only the live part is redrawn:\n\n"
ANSWER += "- the streaming answer\n- dialogs and the status line\n\n```python\nprint('once, in order')\n```\n"
Chunk = str | dict[int, DeltaToolCall] | dict[int, DeltaThinkingPart]


def scripted_model(delay: float = 0.02) -> FunctionModel:
    """A model that streams what a coding agent would for a few prompts (no network)."""
    ids = itertools.count(1)

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Chunk]:
        parts = messages[-1].parts if isinstance(messages[-1], ModelRequest) else []
        returned = [part for part in parts if isinstance(part, ToolReturnPart)]
        if returned:  # the tool ran (or was denied): say what came of it
            for word in _after_tool(returned[0]).split(" "):
                yield word + " "
                await asyncio.sleep(delay)
            return
        prompt = next((str(p.content) for p in parts if isinstance(p, UserPromptPart)), "")
        verb, _, rest = prompt.partition(" ")
        yield {0: DeltaThinkingPart(content=f"The user wants: {prompt}")}
        if verb in ("read", "write") and rest:
            path, _, content = rest.partition(" ")
            args = {"path": path} if verb == "read" else {"path": path, "content": (content or "print('hi')") + "\n"}
            yield {1: DeltaToolCall(f"{verb}_file", json.dumps(args), tool_call_id=f"call-{next(ids)}")}
            return
        text = " ".join(f"word{n}" for n in range(400)) if verb == "long" else ANSWER
        for token in text.split(" "):
            yield token + " "
            await asyncio.sleep(delay * (5 if verb == "long" else 1))

    return FunctionModel(stream_function=stream)


def _after_tool(part: ToolReturnPart) -> str:
    if part.tool_name == "read_file":
        return f"It reads:\n\n```python\n{str(part.content).rstrip()}\n```"
    return f"Done: {part.content}"


class CodingAgent:
    """The agent, its tools on a working directory, and the app's commands."""

    def __init__(self, root: Path, delay: float = 0.02) -> None:
        self.root = root
        tools = [Tool(self.read_file), Tool(self.write_file, requires_approval=True)]
        self.session = AgentSession(Agent(scripted_model(delay), tools=tools), root=root)
        self.commands = CommandRegistry(builtins=("help", "clear"))
        self.commands.on_clear = self.session.clear

    def read_file(self, path: str) -> str:
        """Read a text file of the working directory."""
        return (self.root / path).read_text(encoding="utf-8")

    def write_file(self, path: str, content: str) -> str:
        """Write a text file of the working directory (asks the user first)."""
        (self.root / path).write_text(content, encoding="utf-8")
        return f"wrote {len(content)} characters to {path}"

    def install(self, app: InlineApp) -> None:
        """Commands first (their lines are not turns), then the session (before ``app.run``)."""
        self.commands.install(app)
        self.session.install(app)

    async def main(self, app: InlineApp) -> int:
        app.log("status", f"Working in {self.root}: try 'read hello.py', 'write hello.py ...', 'long', /help")
        return await self.session.main(app)
