"""The app pilot: a whole InlineApp run headless and checked on every tick; RenderMachine with app dialogs."""

from __future__ import annotations

import asyncio
import os

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import rule

from inline_render import ConfirmRequest, Key, LogAppend, LogReplace, Output, Submit
from inline_render.shell import InlineApp
from inline_render.shell.runner import CTRL_C_HINT
from inline_render.testing import RenderMachine
from inline_render.testing.pilot import run_app


async def echo(app: InlineApp) -> None:
    """A small app: every submitted line is answered, a line starting with 'rm' needs a confirm first."""
    async for output in app.outputs():
        if isinstance(output, Submit):
            if output.text.startswith("rm") and not await app.confirm("Really?", output.text):
                app.log("status", "not removed")
                continue
            async with app.stream() as s:
                for word in f"You said: {output.text}".split():
                    s.write(word + " ")


def test_pilot_types_waits_resizes_and_snapshots() -> None:
    """Typed text is submitted, the answer appears once, and survives a resize; the app exits 0 at the end."""

    async def scenario() -> int | None:
        async with run_app(echo, columns=50, rows=12) as pilot:
            await pilot.type("hello pilot")
            await pilot.press("enter")
            await pilot.wait_for("You said: hello pilot")
            await pilot.resize(40, 10)
            await pilot.paste("second")
            await pilot.press("enter")
            await pilot.wait_for("You said: second")
            assert pilot.snapshot().count("You said: hello pilot") == 1
            assert [row for row in pilot.screen() if row][-1].startswith("\u203a")  # the composer: the last row shown
        return pilot.exit_code

    assert asyncio.run(scenario()) == 0


def test_pilot_answers_an_awaited_confirm() -> None:
    """An app awaiting ``app.confirm`` gets the pilot's key; 'n' takes the app's refusal path."""

    async def scenario() -> str:
        async with run_app(echo, columns=50, rows=12) as pilot:
            await pilot.type("rm -rf /")
            await pilot.press("enter")
            await pilot.wait_for("Really?")
            await pilot.press("n")
            await pilot.wait_for("not removed")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert "You said" not in text


def test_pilot_shows_the_ctrl_c_hint_and_second_press_exits() -> None:
    """Ctrl-C puts the exit hint on screen; a second one right away ends the app with 0."""

    async def scenario() -> int | None:
        async with run_app(echo, columns=50, rows=12) as pilot:
            await pilot.press("c-c")
            await pilot.wait_for(CTRL_C_HINT)
            await pilot.press("c-c")
            await asyncio.wait_for(asyncio.shield(pilot.task), 5)
        return pilot.exit_code

    assert asyncio.run(scenario()) == 0


def test_an_exception_in_main_is_raised_by_the_pilot() -> None:
    """A crash in the app's main is not swallowed: wait_for raises it."""

    async def broken(app: InlineApp) -> None:
        await app.next_output()
        raise RuntimeError("app bug")

    async def scenario() -> None:
        async with run_app(broken, columns=40, rows=10) as pilot:
            await pilot.press("x", "enter")
            await pilot.wait_for("never")

    with pytest.raises(RuntimeError, match="app bug"):
        asyncio.run(scenario())


class ConfirmingApp(RenderMachine):
    """An app that opens its own confirm for every submitted line (from on_outputs)."""

    columns, rows = 40, 12

    def on_outputs(self, outputs: list[Output]) -> None:  # type: ignore[override]
        for output in outputs:
            if isinstance(output, Submit):
                self.counter += 1
                self.feed([ConfirmRequest(f"app{self.counter}", f"Send {output.text[:10]}?")])

    @rule()
    def submit(self) -> None:
        self.feed([LogAppend("status", "typing")])
        for key in ("h", "i", "enter"):
            self.key(Key(key))


TestConfirmingApp = ConfirmingApp.TestCase
# Derandomized in the default run, as the other machines are (test_machine.py): the same sessions every run, so a
# red run is reproducible; the long profile explores new ones.  A random run found the strict xfail below.
TestConfirmingApp.settings = settings(
    max_examples=15,
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=os.environ.get("INLINE_RENDER_PROFILE") != "long",
)


def typing_pushed_behind_an_open_stream() -> ConfirmingApp:
    """Two 'typing' lines, an empty stream, a third 'typing' after it, then a shrink to 1x1 that pushes the stream's
    row and the third 'typing' (which cannot be inserted before the stream) into history."""
    state = ConfirmingApp()
    state.submit()
    state.submit()
    state.start_stream(kind="assistant", text="")
    state.submit()
    state.resize(size=(1, 1))
    return state


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="open: rows pushed behind an open row that then changes")
def test_rows_pushed_behind_an_open_row_that_changes_stay_once() -> None:
    """A random run's example (README, Known limits: a terminal of a few columns): a shrink to 1x1 pushes an empty
    stream's row and a 'typing' line committed after it (not insertable before the stream); the stream's text then
    changes, the pushed rows are ghosts, and that 'typing' is in history again where the log will insert it."""
    state = typing_pushed_behind_an_open_stream()
    state.feed([LogReplace(state.streams[0], "the")])
