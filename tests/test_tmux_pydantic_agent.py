"""``demo --pydantic-ai`` in a real terminal (tmux): an answer, a denied write with its diff, Esc, Ctrl-C."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tmux_harness import Tmux, assert_in_order_once

pytest.importorskip("pydantic_ai")


@pytest.fixture
def tmux_80x30() -> Iterator[Tmux]:
    tmux = Tmux(80, 30)
    try:
        yield tmux
    finally:
        tmux.kill()


def test_the_agent_answers_asks_before_writing_and_cancels(tmux_80x30: Tmux) -> None:
    """Keys typed in tmux: a Markdown answer, a write shown as a diff and denied, a long answer cut by Esc."""
    tmux = tmux_80x30
    tmux.demo("--pydantic-ai")
    tmux.wait_text("Working in")
    tmux.type("what is this")
    tmux.keys("Enter")
    tmux.wait_text("print('once, in order')")
    tmux.wait_for(lambda: any("tokens (" in line for line in tmux.screen()), what="the token count")
    tmux.type("write hello.py print('bye')")
    tmux.keys("Enter")
    tmux.wait_text("Approval Required")
    screen = tmux.screen()
    assert any(line.strip() == "+print('bye')" for line in screen), screen
    tmux.type("n")
    tmux.wait_text("Done: The user denied this call.")
    tmux.type("long")
    tmux.keys("Enter")
    tmux.wait_text("word3")
    tmux.keys("Escape")
    tmux.wait_text("cancelled")
    _, y, visible = tmux.cursor()
    assert visible and tmux.screen()[y].startswith("\u203a")
    tmux.keys("C-d")
    assert tmux.wait_exit() == 0
    lines = tmux.everything()
    assert_in_order_once(
        lines,
        ["\u203a what is this", "Inline rendering", "\u203a write hello.py", "+print('bye')", "write_file: denied",
         "Done: The user denied this call.", "\u203a long", "word0 ", "cancelled"],
    )  # fmt: skip
    assert lines[-2:] == ["EXIT=0", "$"], "\n".join(lines[-10:])
