"""An app picks the built-in commands it gets (issue 32, item 7): ``/help`` lists only those installed."""

from __future__ import annotations

import asyncio

import pytest

from inline_render import InvalidInput, Submit
from inline_render.commands import CommandContext, CommandRegistry
from inline_render.commands.builtins import BUILTIN_NAMES, help_lines
from inline_render.shell import InlineApp
from inline_render.testing.pilot import run_app


def _noop(context: CommandContext) -> None:
    """A handler that does nothing."""


def test_chosen_builtins_are_the_only_ones_listed() -> None:
    """``builtins=("help", "clear")`` installs /help and /clear only; /help lists them and the app's commands."""
    registry = CommandRegistry(builtins=("help", "clear"))
    registry.add("deploy", _noop, "Deploy the service")
    assert sorted(registry.commands) == ["clear", "deploy", "help"]
    names = [line.split()[0] for line in help_lines(registry)[1:]]
    assert names == ["/clear", "/help", "/deploy"]


def test_all_or_none_still_work() -> None:
    """True (the default) installs every built-in, False none; an unknown name is refused at construction."""
    assert sorted(CommandRegistry().commands) == sorted(BUILTIN_NAMES)
    assert CommandRegistry(builtins=False).commands == {}
    with pytest.raises(InvalidInput, match="no built-in command 'modle'"):
        CommandRegistry(builtins=("help", "modle"))


def test_a_builtin_left_out_is_an_unknown_command_and_its_name_is_free() -> None:
    """Without /config the app may register its own /config (no replace=True), and /status is unknown."""
    registry = CommandRegistry(builtins=("help",))
    registry.add("config", _noop, "the app's settings")
    assert registry.find("config") is not None and not registry.find("config").builtin  # type: ignore[union-attr]
    assert registry.find("status") is None


def test_help_in_a_running_app_lists_only_the_chosen_builtins() -> None:
    """In a running app /help shows /clear and /help and none of /config /model /status /tool /tools."""

    async def main(app: InlineApp) -> None:
        async for output in app.outputs():
            if isinstance(output, Submit):
                app.log("assistant", f"You said: {output.text}")

    async def scenario() -> str:
        registry = CommandRegistry(builtins=("help", "clear"))
        async with run_app(main, columns=60, rows=16, setup=registry.install) as pilot:
            await pilot.type("/help")
            await pilot.press("enter")
            await pilot.wait_for("Commands:")
            await pilot.type("/model")
            await pilot.press("enter")
            await pilot.wait_for("unknown command /model")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert "/clear" in text and "/help" in text
    for gone in ("/config", "/status", "/tools", "/tool ", "/exit"):
        assert gone not in text, gone
