"""The runtime's own commands (/resume, /model, /skills, /mcp) on a CommandRegistry: listed, run via the client."""

from __future__ import annotations

import asyncio
import sys

from inline_render.commands.builtins import help_lines
from inline_render.commands.registry import CommandRegistry
from inline_render.outputs import Quit, Submit
from inline_render.protocol import RuntimeClient
from inline_render.protocol.codelia.slash import add_runtime_commands
from inline_render.shell import InlineApp
from inline_render.testing.pilot import run_app

FAKE = [sys.executable, "-m", "inline_render.demo.fake_runtime", "--speed", "0", "--delay", "0"]


class Recorder:
    """A stand-in client that records the lines it is asked to run."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def run_command(self, text: str) -> bool:
        self.lines.append(text)
        return True


def test_runtime_commands_replace_the_built_in_model_and_are_listed() -> None:
    """/model becomes the runtime's (not built in); /help lists /resume, /skills, /mcp with their descriptions."""
    registry = CommandRegistry()
    add_runtime_commands(registry, Recorder())
    model = registry.find("model")
    assert model is not None and not model.builtin
    lines = help_lines(registry)
    assert "  /resume  Resume a saved session" in lines and "  /mcp     MCP servers and their state" in lines


def test_runtime_model_command_runs_through_the_real_client() -> None:
    """/model in an app with the fake codelia runtime: model.list -> the runtime's pick -> model.set, once."""
    registry = CommandRegistry()

    async def main(app: InlineApp) -> None:
        client = RuntimeClient(FAKE, on_inputs=lambda inputs: app.send(*inputs))
        assert await client.start() is not None
        add_runtime_commands(registry, client)  # the registry is installed already: commands may come later
        try:
            async for output in app.outputs():
                if isinstance(output, Quit):
                    break
                if not isinstance(output, Submit):
                    client.handle_output(output)  # the runtime's pick answers go back to the session
        finally:
            await client.close()

    async def scenario() -> str:
        async with run_app(main, columns=80, rows=20, setup=registry.install) as pilot:
            await pilot.wait_for(lambda p: registry.find("resume") is not None)
            await pilot.type("/model")
            await pilot.press("enter")
            await pilot.wait_for(lambda p: p.state.dialog is not None, timeout=20)
            await pilot.press("down", "enter")
            await pilot.wait_for("Model set to", timeout=20)
            await pilot.press("c-d")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert text.count("Model set to") == 1 and "unknown command" not in text
