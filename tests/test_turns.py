"""The turn runner (``inline_render.shell.TurnRunner``): one turn at a time, Esc cancels, busy known to line input."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from inline_render.shell import InlineApp, TurnRunner
from inline_render.shell.turns import WhileBusy
from inline_render.testing.pilot import Pilot, run_app

ROOT = Path(__file__).resolve().parent.parent


class Slow:
    """A turn that streams its answer, then waits until released (so a test can type meanwhile)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started: list[str] = []

    async def __call__(self, app: InlineApp, text: str) -> None:
        self.started.append(text)
        async with app.stream("assistant") as reply:
            reply.write(f"answer to {text}")
            await self.release.wait()
            self.release.clear()


async def _typed(pilot: Pilot, line: str) -> None:
    await pilot.type(line)
    await pilot.press("enter")


def _run(turn: Slow, body: object, while_busy: WhileBusy = "queue") -> None:
    turns = TurnRunner(turn, while_busy=while_busy)

    async def scenario() -> None:
        async with run_app(turns.main, columns=60, rows=16, setup=turns.install) as pilot:
            await body(pilot, turns)  # type: ignore[operator]

    asyncio.run(scenario())


def test_piped_lines_wait_for_the_turn_before_them() -> None:
    """Piped lines are typed one turn at a time: each question sits right above its own answer."""
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "chat", "--delay", "0.02"],
        input="hello\nworld\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert [line.split(".")[0] for line in lines] == ["› hello", "▸ You asked: hello", "› world", "▸ You asked: world"]


def test_a_line_typed_during_a_turn_is_queued_and_logged_when_its_turn_starts() -> None:
    """Queued: shown above the status line, not in the log, until the turn before it ends; then answered."""
    turn = Slow()

    async def body(pilot: Pilot, turns: TurnRunner) -> None:
        await _typed(pilot, "hello")
        await pilot.wait_for("answer to hello")
        await _typed(pilot, "world")
        await pilot.wait_for("queued: world")
        assert "› world" not in pilot.snapshot() and turn.started == ["hello"] and turns.busy
        turn.release.set()
        await pilot.wait_for("answer to world")
        snapshot = pilot.snapshot()
        assert "queued: world" not in snapshot
        order = [snapshot.index(text) for text in ("› hello", "answer to hello", "› world", "answer to world")]
        assert order == sorted(order)
        turn.release.set()
        await turns.wait_idle()
        assert turn.started == ["hello", "world"]

    _run(turn, body)


def test_a_refused_line_goes_back_into_the_composer_with_a_note() -> None:
    """Refuse: the line is not logged nor run; its text is back in the composer and a note says why."""
    turn = Slow()

    async def body(pilot: Pilot, turns: TurnRunner) -> None:
        await _typed(pilot, "hello")
        await pilot.wait_for("answer to hello")
        await _typed(pilot, "world")
        await pilot.wait_for("busy: the answer is not finished")
        assert pilot.state.composer.text == "world"
        assert pilot.snapshot().count("› world") == 1  # the composer's row, not a logged line
        turn.release.set()
        await turns.wait_idle()
        await pilot.wait_for(lambda p: "busy:" not in p.snapshot())
        assert turn.started == ["hello"]

    _run(turn, body, while_busy="refuse")


@pytest.mark.parametrize("key", ["escape", "c-c"])
def test_esc_or_ctrl_c_cancels_the_turn_finishes_its_stream_and_says_cancelled(key: str) -> None:
    """The running turn is cancelled: its entry finished (kept once), 'cancelled' logged, queued lines returned."""
    turn = Slow()

    async def body(pilot: Pilot, turns: TurnRunner) -> None:
        await _typed(pilot, "hello")
        await pilot.wait_for("answer to hello")
        await _typed(pilot, "world")
        await pilot.wait_for("queued: world")
        await pilot.press(key)
        await pilot.wait_for("cancelled")
        await turns.wait_idle()
        await pilot.settle()
        assert all(entry.final for entry in pilot.state.log.entries)
        assert pilot.state.composer.text == "world" and turn.started == ["hello"]
        snapshot = pilot.snapshot()
        assert snapshot.count("answer to hello") == 1 and "queued: world" not in snapshot
        assert snapshot.index("answer to hello") < snapshot.index("cancelled")

    _run(turn, body)


def test_a_stream_left_open_and_the_spinner_are_ended_by_a_cancel() -> None:
    """A turn that opened a stream without ``with`` and started the spinner: both end when it is cancelled."""

    async def turn(app: InlineApp, text: str) -> None:
        app.working("thinking")
        app.stream("assistant").write("partial")
        await asyncio.Event().wait()

    turns = TurnRunner(turn)

    async def scenario() -> None:
        async with run_app(turns.main, columns=60, rows=16, setup=turns.install) as pilot:
            await _typed(pilot, "go")
            await pilot.wait_for("partial")
            assert pilot.state.working == "thinking"
            await pilot.press("escape")
            await pilot.wait_for("cancelled")
            await pilot.settle()
            assert pilot.state.working == "" and all(entry.final for entry in pilot.state.log.entries)

    asyncio.run(scenario())


def test_a_failing_turn_is_one_error_line_and_the_next_turn_runs() -> None:
    """An exception in a turn is shown as an error line; the app goes on with the next line."""

    async def turn(app: InlineApp, text: str) -> None:
        if text == "boom":
            raise ValueError("no such file")
        app.log("assistant", f"fine: {text}")

    turns = TurnRunner(turn)

    async def scenario() -> None:
        async with run_app(turns.main, columns=60, rows=16, setup=turns.install) as pilot:
            await _typed(pilot, "boom")
            await pilot.wait_for("the turn failed: ValueError: no such file")
            await _typed(pilot, "again")
            await pilot.wait_for("fine: again")

    asyncio.run(scenario())


def test_install_after_the_run_started_is_an_error() -> None:
    """The core logs submitted lines unless told at the start: a late install says so instead of misbehaving."""
    turns = TurnRunner(Slow())

    async def scenario() -> None:
        async def main(app: InlineApp) -> None:
            turns.install(app)

        async with run_app(main, columns=40, rows=8) as pilot:
            await pilot.settle()

    with pytest.raises(RuntimeError, match=r"before app\.run"):
        asyncio.run(scenario())
