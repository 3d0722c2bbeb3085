"""The chat example (python -m inline_render chat), driven by the pilot and by piped input."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from inline_render.demo.chat import Chat
from inline_render.testing.pilot import run_app

ROOT = Path(__file__).resolve().parent.parent


def test_chat_streams_completes_confirms_and_recalls_history() -> None:
    """A question streams its answer; /mo<Tab> completes; /run asks first; Up recalls the last line."""

    async def scenario() -> None:
        chat = Chat(delay=0.001)
        async with run_app(chat.main, columns=70, rows=16, setup=chat.install) as pilot:
            await pilot.type("what is inline mode")
            await pilot.press("enter")
            await pilot.wait_for("You asked: what is inline mode.")
            await pilot.type("/mo")
            await pilot.press("tab")
            await pilot.wait_for(lambda p: p.state.composer.text == "/model")
            await pilot.type(" ")
            await pilot.press("tab")
            await pilot.wait_for("echo-2-large")  # the menu of models, under the composer
            await pilot.press("down", "enter", "enter")
            await pilot.wait_for(lambda p: "echo-2-large" in p.state.status)
            await pilot.type("/run make")
            await pilot.press("enter")
            await pilot.wait_for("Run make?")
            await pilot.press("n")
            await pilot.wait_for("not run")
            await pilot.press("up")
            assert pilot.state.composer.text == "/run make"
            assert pilot.snapshot().count("You asked: what is inline mode.") == 1

    asyncio.run(scenario())


def test_chat_turn_is_cancelled_by_escape() -> None:
    """Esc while an answer streams cancels the turn: a 'cancelled' line, the partial answer kept once."""

    async def scenario() -> str:
        chat = Chat(delay=0.2)
        async with run_app(chat.main, columns=70, rows=16, setup=chat.install) as pilot:
            await pilot.type("slow please")
            await pilot.press("enter")
            await pilot.wait_for("You asked:", timeout=10)
            await pilot.press("escape")
            await pilot.wait_for("cancelled")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert text.count("You asked:") == 1 and "ignored" not in text


def test_chat_with_piped_input() -> None:
    """Piped lines are typed in turn: a question, a confirmed /run, then end of input exits 0."""
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "chat", "--delay", "0"],
        input="hello\n/run ls\ny\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "You asked: hello." in done.stdout
    assert "$ ls" in done.stdout


def test_chat_is_shorter_than_the_demo() -> None:
    """The chat example does what the demo's app side does in fewer lines (the issue's yardstick)."""
    chat = (ROOT / "inline_render" / "demo" / "chat.py").read_text(encoding="utf-8").count("\n")
    demo = (ROOT / "inline_render" / "demo" / "scripted.py").read_text(encoding="utf-8").count("\n")
    assert chat < demo


def test_chat_piped_commands_forms_and_errors() -> None:
    """Piped: /tools lists by category, /tool note -i takes the next lines as the form's fields, a bad model errs."""
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "chat", "--delay", "0"],
        input='/tools\n/tool note -i\nremember milk\n\n/note --text "two words" --level warn\n/model nope\n',
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1:4] == ["  Available manual tools:", "    Notes:", "      note - Write a note to the log"]
    assert "  -> text=remember milk, level=info" in lines and "i remember milk" in lines
    assert "! two words" in lines
    assert "\u2717 /model: unknown model 'nope'; choose one of echo-1, echo-2-large" in lines
