"""Keys typed before the app starts (issue 32, item 2): an Enter typed ahead submits, as it does in prompt_toolkit."""

from __future__ import annotations

import sys
import time

from tmux_harness import Tmux

from inline_render.shell.probe import cooked_keys


def test_cooked_enter_is_enter_again() -> None:
    """The line feeds a cooked terminal made of Enter become carriage returns; other bytes are left alone."""
    assert cooked_keys(b"hello\nworld\n") == b"hello\rworld\r"
    assert cooked_keys(b"\x1b[A\tx") == b"\x1b[A\tx"


def test_enter_typed_during_startup_submits_the_line() -> None:
    """``sleep 2; chat`` with 'hello' and Enter typed during the sleep: 'hello' is submitted and answered, and
    the composer is left empty (before, it held 'hello' and an empty second line and nothing was submitted)."""
    tmux = Tmux(70, 20)
    try:
        tmux.command(f"sleep 2; {sys.executable} -m inline_render chat --delay 0; echo EXIT=$?")
        time.sleep(0.5)  # the shell runs sleep: the terminal is in cooked mode, the keys wait in its buffer
        tmux.type("hello")
        tmux.keys("Enter")
        tmux.wait_text("You asked: hello.", timeout=20)
        screen = tmux.screen()
        composer = [index for index, line in enumerate(screen) if line.startswith("\u203a")]
        assert composer, "\n".join(screen)
        # The composer is the last '›' row and holds nothing typed (its placeholder at most); no second line.
        last = composer[-1]
        assert "hello" not in screen[last], "\n".join(screen)
        tmux.keys("C-d")
        assert tmux.wait_exit() == 0
    finally:
        tmux.kill()
