"""A compact start in a real terminal (tmux, issue 32 item 8): the app's status line and composer sit right under the
shell's output, the viewport grows with the conversation, and the transcript is whole after it exits."""

from __future__ import annotations

import sys

from tmux_harness import Tmux, assert_exited_cleanly, assert_in_order_once


def test_the_chat_app_starts_under_the_shell_output_and_grows_with_the_conversation() -> None:
    """No blank rows are reserved under the shell's last line; a question and its answer make the viewport taller
    (the composer moves down, never up past them); Ctrl-D leaves every line once, in order, in history."""
    tmux = Tmux(80, 24)
    try:
        tmux.command(f"printf 'shell %s\\n' output; {sys.executable} -m inline_render chat --delay 0; echo EXIT=$?")
        tmux.wait_text("Tab completes")  # the status line, set once the app runs
        screen = tmux.screen()
        composer = max(y for y, line in enumerate(screen) if line.startswith("\u203a"))
        shell = screen.index("shell output")
        # The status line is the row under the shell's output and the composer the next (a fixed viewport put ten
        # blank rows between them); every row under the composer is blank.
        assert composer == shell + 2 and screen[shell + 1], "\n".join(screen)
        assert not any(screen[composer + 1 :]), "\n".join(screen)
        tmux.type("hello")
        tmux.keys("Enter")
        tmux.wait_text("You asked: hello.", timeout=20)
        screen = tmux.screen()
        grown = max(y for y, line in enumerate(screen) if line.startswith("\u203a"))
        assert grown > composer and not any(screen[grown + 1 :]), "\n".join(screen)
        tmux.keys("C-d")
        assert tmux.wait_exit() == 0
        lines = tmux.everything()
        assert_in_order_once(lines, ["shell output", "\u203a hello", "You asked: hello."])
        assert_exited_cleanly(tmux, "You asked: hello.")
    finally:
        tmux.kill()
