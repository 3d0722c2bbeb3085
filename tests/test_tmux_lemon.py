"""The Lemon demo in a real terminal (tmux): streamed once, overlays answered by keys, the title set and restored."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tmux_harness import Tmux, assert_exited_cleanly, assert_in_order_once


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    terminal = Tmux(80, 24)
    try:
        yield terminal
    finally:
        terminal.kill()


def title(tmux: Tmux) -> str:
    return tmux.run("display", "-p", "#{pane_title}").strip()


def test_a_person_drives_the_lemon_demo_and_the_title_comes_back(tmux: Tmux) -> None:
    """Auto-typed prompt, a select answered with the arrows, the signals (title sanitized), Ctrl-D: clean exit."""
    tmux.run("select-pane", "-T", "my shell")
    tmux.demo("--protocol", "lemon", "--prompt", "'Check the greeting'")
    tmux.wait_text("Try: 'pick a file'")  # the run is over: the demo's hint
    assert any(line.startswith("done \u00b7 anthropic/claude-3-5") for line in tmux.screen())
    tmux.type("pick a file")
    tmux.keys("Enter")
    tmux.wait_text("README.md")
    tmux.keys("Down", "Enter")
    tmux.wait_text("done \u00b7 anthropic/claude-3-5")
    tmux.wait_text("You picked: README.md.")
    tmux.type("signals")
    tmux.keys("Enter")
    tmux.wait_text("Signals sent.")
    tmux.wait_for(lambda: title(tmux) == "Lemon ]52;c;evil demo", what="the sanitized title")
    screen = tmux.screen()
    assert screen.count("- read") == 1 and screen.count("- fix") == 1  # the widget, above the status line
    tmux.keys("C-u", "C-d")  # empty the composer (ui_set_editor_text filled it), then leave
    tmux.wait_text("EXIT=0")
    assert title(tmux) == "my shell"  # popped from the title stack
    lines = tmux.everything()
    assert_in_order_once(
        lines,
        [
            "\u203a Check the greeting",
            "I'll read the file first.",
            "\u2699 read path=hello.py",
            "already uses an f-string",
            "\u203a pick a file",
            "You picked: README.md.",
            "\u203a signals",
            "A warn notice.",
            "Signals sent.",
        ],
    )
    assert not any("52;c" in line for line in lines)
    assert_exited_cleanly(tmux, "Signals sent.")
