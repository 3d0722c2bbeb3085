"""Seed 003's Esc: during any activity (a streamed turn, a dialog of any kind, a running command) Esc
returns control to the prompt, and the next line is taken at once."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

import pytest

from inline_render.commands.registry import CommandContext, CommandRegistry
from inline_render.inputs import FormField
from inline_render.outputs import Interrupt, Submit
from inline_render.shell import InlineApp
from inline_render.testing.pilot import run_app

Activity = Callable[[InlineApp], Awaitable[object]]


async def _stream(app: InlineApp) -> None:
    with app.working("thinking"):
        async with app.stream("assistant") as reply:
            for n in range(1000):
                reply.write(f"word{n} ")
                await asyncio.sleep(0.01)


ACTIVITIES: dict[str, Activity] = {
    "streamed turn": _stream,
    "approval": lambda app: app.approve("bash(rm -rf build)", risk="high", worker_path=("root", "cleanup")),
    "prompt": lambda app: app.prompt("Name?"),
    "pick": lambda app: app.pick("Which?", ["a", "b"]),
    "form": lambda app: app.form("Form", (FormField("n", "number"),)),
}


def _app(activity: Activity, ended: list[str]) -> Callable[[InlineApp], Awaitable[None]]:
    async def main(app: InlineApp) -> None:
        turn: asyncio.Task[object] | None = None
        async for output in app.outputs():
            if isinstance(output, Interrupt) and turn is not None:
                turn.cancel()  # what the seed asks of the tool loop: every in-flight task returns
            elif isinstance(output, Submit) and output.text == "go":
                turn = asyncio.ensure_future(activity(app))
                turn.add_done_callback(lambda t: ended.append("cancelled" if t.cancelled() else repr(t.result())))
            elif isinstance(output, Submit):
                app.log("assistant", f"echo {output.text}")
        if turn is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await turn

    return main


@pytest.mark.parametrize("name", list(ACTIVITIES))
def test_escape_returns_to_the_prompt(name: str) -> None:
    """Esc ends the activity (a dialog answers its dismissal, a turn is cancelled); the next line is answered."""
    ended: list[str] = []

    async def scenario() -> None:
        async with run_app(_app(ACTIVITIES[name], ended), columns=60, rows=14) as pilot:
            await pilot.type("go")
            await pilot.press("enter")
            await pilot.wait_for(lambda p: p.state.dialog is not None or "word3" in p.snapshot())
            await pilot.press("escape")
            await pilot.wait_for(lambda p: bool(ended))
            assert pilot.state.dialog is None
            await pilot.type("next")
            await pilot.press("enter")
            await pilot.wait_for("echo next")

    asyncio.run(scenario())
    assert ended == [{"streamed turn": "cancelled", "approval": "'no'", "pick": "None"}.get(name, "None")]


def test_escape_interrupts_a_slash_command_waiting_in_its_own_dialog_chain() -> None:
    """A command that asks twice: Esc on the first question ends the command; nothing after it runs."""
    steps: list[str] = []
    registry = CommandRegistry()

    @registry.command("wizard", "two questions")
    async def wizard(context: CommandContext) -> None:
        first = await context.app.prompt("First?")
        steps.append(f"first={first}")
        if first is None:
            return
        steps.append("second")

    async def echo(app: InlineApp) -> None:
        async for output in app.outputs():
            if isinstance(output, Submit):
                app.log("assistant", f"echo {output.text}")

    async def scenario() -> None:
        async with run_app(echo, columns=60, rows=14, setup=registry.install) as pilot:
            await pilot.type("/wizard")
            await pilot.press("enter")
            await pilot.wait_for("First?")
            await pilot.press("escape")
            await pilot.wait_for(lambda p: p.state.dialog is None)
            await pilot.type("after")
            await pilot.press("enter")
            await pilot.wait_for("echo after")

    asyncio.run(scenario())
    assert steps == ["first=None"]
