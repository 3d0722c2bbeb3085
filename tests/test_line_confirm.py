"""Line input answers a confirm with a whole line (issue 32, item 1): never letter by letter, nothing left over."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from inline_render import ConfirmRequest, Key, LogAppend
from inline_render.core.app import AppState, initial_state
from inline_render.core.state import Config
from inline_render.shell.lines import line_inputs
from inline_render.widgets.composer import TextField
from inline_render.widgets.dialogs import ConfirmDialog, open_dialog

ROOT = Path(__file__).resolve().parent.parent


def _chat(stdin: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "chat", "--delay", "0"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _state_with(request: ConfirmRequest, *, reason: bool = False) -> AppState:
    dialog = open_dialog(request)
    assert isinstance(dialog, ConfirmDialog)
    if reason:
        dialog = replace(dialog, reason=TextField())
    return replace(initial_state(Config(), 80, 24), dialog=dialog)


def test_piped_okay_no_does_not_approve_a_high_risk_run() -> None:
    """'okay, no' piped at the /run confirm denies it (its 'y' approved it before) and leaks nothing into 'hello'."""
    out = _chat("/run rm -rf build\nokay, no\nhello\n")
    assert "$ rm -rf build" not in out
    assert "  -> no" in out and "not run" in out
    assert "is no answer (y/yes, n/no): denied" in out
    assert "\u203a hello" in out.splitlines()  # the next message is the next line, whole
    assert ", no" not in out.split("denied", 1)[1]


@pytest.mark.parametrize("answer", ["y", "yes", "Yes", " YES ", "Run"])
def test_piped_whole_yes_approves(answer: str) -> None:
    """A whole-line yes (any case, or the dialog's own label) approves, as the hint says."""
    state = _state_with(ConfirmRequest("c", "Run?", confirm_label="Run", cancel_label="Skip"))
    assert line_inputs(answer, state) == [Key("y")]


@pytest.mark.parametrize(
    ("line", "remember", "expected"),
    [
        ("no", False, "n"),
        ("N", False, "n"),
        ("always", True, "a"),
        ("s", True, "s"),
        ("session", True, "s"),
        ("", False, "enter"),
    ],
)
def test_whole_line_choices(line: str, remember: bool, expected: str) -> None:
    """Each choice the hint shows is one whole line: its letter or its word; an empty line is Enter."""
    state = _state_with(ConfirmRequest("c", "Write?", allow_remember=remember))
    assert line_inputs(line, state) == [Key(expected)]


@pytest.mark.parametrize(
    ("line", "remember"),
    [("write hello.py now", True), ("okay", True), ("a", False), ("always", False), ("yes please", False)],
)
def test_a_line_that_is_no_choice_denies(line: str, remember: bool) -> None:
    """A line holding a choice's letter is no answer (the agent's 'write hello.py' approved a write): it denies."""
    state = _state_with(ConfirmRequest("c", "Write?", allow_remember=remember))
    inputs = line_inputs(line, state)
    assert inputs[-1] == Key("escape")  # the dialog's deny without a reason: ConfirmAnswer(ok=False)
    assert isinstance(inputs[0], LogAppend) and inputs[0].kind == "warn" and "denied" in inputs[0].text
    assert not any(isinstance(item, Key) and item.key in ("y", "a", "s") for item in inputs)


def test_deny_reason_takes_the_next_line_whole() -> None:
    """After 'n' opens the deny-reason field, the next line is the reason, typed whole and sent with Enter."""
    state = _state_with(ConfirmRequest("c", "Write?", allow_reason=True), reason=True)
    assert line_inputs("no, yes", state) == [*(Key(c) for c in "no, yes"), Key("enter")]


def test_piped_always_is_remembered_in_an_approval() -> None:
    """A piped 'always' answers an approval with remember, shown as such in the transcript."""
    script = (
        "import asyncio\n"
        "from inline_render import Submit\n"
        "from inline_render.shell import InlineApp\n"
        "async def main(app):\n"
        "    async for output in app.outputs():\n"
        "        if isinstance(output, Submit):\n"
        "            app.log('status', 'answer=' + await app.approve(output.text, risk='medium'))\n"
        "raise SystemExit(asyncio.run(InlineApp().run(main)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input="write a\nwrite hello.py\nwrite b\nalways\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    answers = [line.strip() for line in done.stdout.splitlines() if "answer=" in line]
    assert answers == ["answer=no", "answer=always"], done.stdout
