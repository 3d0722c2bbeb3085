"""In real tmux: a Markdown answer streamed through the app API while the window shrinks, every line once."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from tmux_harness import Tmux, require_tmux

APP = """
import asyncio
from inline_render.shell import InlineApp

ANSWER = "".join(f"Line {i} of a long answer.\\n" for i in range(1, 21))


async def main(app: InlineApp) -> None:
    async with app.stream("assistant") as reply:
        for k in range(0, len(ANSWER), 4):
            reply.write(ANSWER[k : k + 4])
            await asyncio.sleep(0.12 if k < ANSWER.index("Line 5") else 0.02)
    app.exit(0)


raise SystemExit(asyncio.run(InlineApp().run(main)))
"""


def test_a_markdown_answer_streamed_across_a_height_shrink_shows_each_line_once(tmp_path: Path) -> None:
    """Issue 31, case 1, on tmux 3.3a as measured there (50x15 to 50x8 mid-answer, 8 of 8 runs showed "Line 3"
    twice): each of the 20 lines is in history and screen exactly once, in order."""
    require_tmux()
    script = tmp_path / "app.py"
    script.write_text(APP, encoding="utf-8")
    tmux = Tmux(50, 15)
    try:
        tmux.command(f"{sys.executable} {script}; echo EXIT=$?")
        tmux.wait_text("Line 4 of", timeout=20)
        tmux.resize(50, 8)
        tmux.wait_for(lambda: any(line.startswith("EXIT=") for line in tmux.everything()), timeout=30, what="the exit")
        time.sleep(0.2)
        lines = [line.strip(" \u25b8") for line in tmux.everything()]
        every = [f"Line {i} of a long answer." for i in range(1, 21)]
        # Every whole line once and in order: strict (before the fix "Line 3" stood twice).
        assert [line for line in lines if line in every] == every, "\n".join(lines)
        pieces = [line for line in lines if line.startswith("Line ") and line not in every]
        if pieces:
            # Open: the shrink pushes the open line's row into history itself (the viewport reserves its rows under
            # the text, so the text sits high), where it stays as a ghost piece (issue 31, case 2; issue 32's compact
            # viewport would keep the text by the composer).
            pytest.xfail(f"ghost pieces of the open line left in history: {pieces}")
    finally:
        tmux.kill()
