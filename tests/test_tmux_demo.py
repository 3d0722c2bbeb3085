"""The demo in a real terminal (tmux): unattended and driven by keys, checked through tmux's own screen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tmux_harness import Tmux, assert_exited_cleanly, assert_in_order_once

SCRIPT = [
    "\u203a Fix the greeting in hello.py",
    "I'll update the greeting",
    "Let me look at the file first.",
    "\u2699 read file_path=hello.py",
    "I will change the greeting to use an f-string.",  # after the fenced code, rendered (no fence)
    "Planned edit diff preview",
    "+++ hello.py",
    '+    print(f"Hello, {name}!")',
    "Permission preflight ready (edit)",
    "Replaced 1 occurrence(s) in hello.py",
    "now says Hello.",
    "\u203a Now pick a file to review",
    "You picked: hello.py.",
    "\u203a ask me for a commit message",
    "Commit message: Update greeting",
]


@pytest.fixture
def tmux_80x24() -> Iterator[Tmux]:
    tmux = Tmux(80, 24)
    try:
        yield tmux
    finally:
        tmux.kill()


def test_unattended_demo_plays_through_and_leaves_a_clean_transcript(tmux_80x24: Tmux) -> None:
    """--script: the whole session once and in order in history + screen, and a clean exit (where the cursor is
    while a dialog is open is checked where a person answers it: ``test_a_person_drives_the_demo_with_keys``)."""
    tmux = tmux_80x24
    tmux.demo("--script", "--approve-all")
    tmux.wait_text("? Run tool?")
    assert tmux.wait_exit() == 0
    lines = tmux.everything()
    assert_in_order_once(lines, SCRIPT)
    assert_exited_cleanly(tmux, "Commit message: Update greeting")


def test_a_person_drives_the_demo_with_keys(tmux_80x24: Tmux) -> None:
    """Deny with a reason, pick with the arrows, /help, cancel a long run with Esc, leave with Ctrl-D; no cursor shows
    while the confirm or the pick has the keys, and it is visible in the reason's field."""
    tmux = tmux_80x24
    tmux.demo()
    tmux.wait_text("? Run tool?")
    assert not tmux.cursor()[2], tmux.screen()  # the confirm has the keys, not the composer
    tmux.type("n")
    tmux.wait_text("Reason")
    x, y, visible = tmux.cursor()
    assert visible and "Reason" in "".join(tmux.screen()[max(0, y - 1) : y + 1]), (x, y, tmux.screen())
    tmux.type("not today")
    tmux.keys("Enter")
    tmux.wait_text("left hello.py unchanged")
    tmux.wait_text("Try: 'now pick a file'")
    tmux.type("now pick a file")
    tmux.keys("Enter")
    tmux.wait_text("? Which file?")
    assert not tmux.cursor()[2], tmux.screen()
    tmux.keys("Down")
    tmux.keys("Enter")
    tmux.wait_text("You picked: main.py.")
    tmux.type("/help")
    tmux.keys("Enter")
    tmux.wait_text("Commands: /help")
    tmux.type("long")
    tmux.keys("Enter")
    tmux.wait_text("Line 3 of a long answer.")
    tmux.keys("Escape")
    tmux.wait_text("Run cancelled.")
    _, y, visible = tmux.cursor()
    assert visible and tmux.screen()[y].startswith("\u203a")
    tmux.keys("C-d")
    assert tmux.wait_exit() == 0
    lines = tmux.everything()
    assert_in_order_once(
        lines,
        ["Planned edit diff preview", "Permission denied: not today", "\u203a now pick a file",
         "You picked: main.py.", "\u203a /help", "Commands: /help", "\u203a long", "Line 1 of a long answer.",
         "Run cancelled."],
    )  # fmt: skip
    numbers = [line for line in lines if "of a long answer." in line]
    assert len(numbers) == len(set(numbers))
    assert_exited_cleanly(tmux, "Run cancelled.")


def test_ctrl_c_cancels_the_run_then_a_second_ctrl_c_exits(tmux_80x24: Tmux) -> None:
    """The first Ctrl-C cancels the running turn, the second leaves; the terminal is restored either way."""
    tmux = tmux_80x24
    tmux.demo("--prompt", "long")
    tmux.wait_text("Line 2 of a long answer.")
    tmux.keys("C-c")
    tmux.wait_text("Run cancelled.")
    tmux.keys("C-c")
    assert tmux.wait_exit() == 0
    assert_in_order_once(tmux.everything(), ["Line 1 of a long answer.", "Run cancelled.", "Try: 'now pick"])
    assert_exited_cleanly(tmux, "'suggest something'.")
