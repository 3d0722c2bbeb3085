"""The README's text capture of the demo is what the demo renders now (it cannot go stale).

The capture is the demo's first prompt run headless through the pilot (the real runner, the real
stdio client and the scripted runtime, every tick checked by the emulator properties) at 80x30,
taken when the edit's confirm is open.  On a difference the test fails and shows the new block;
``INLINE_RENDER_UPDATE_README=1`` writes it into README.md instead.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from inline_render.core.state import Config
from inline_render.demo.scripted import DEMO_PROMPTS, Demo
from inline_render.testing.pilot import Pilot, run_app
from inline_render.widgets.dialogs import ConfirmDialog

README = Path(__file__).resolve().parent.parent / "README.md"
MARKER = "<!-- demo capture: tests/test_readme_capture.py -->"
COLUMNS, ROWS = 80, 30


async def capture() -> list[str]:
    """The demo's screen, right-trimmed, while the first run's confirm waits for the user."""
    runtime = [sys.executable, "-m", "inline_render.demo.fake_runtime", "--speed", "0", "--delay", "0"]
    demo = Demo(runtime, DEMO_PROMPTS[:1], unattended=False, first_auto=True)
    config = Config(placeholder="Type a message \u00b7 /help")  # as the demo's own options

    def waiting(pilot: Pilot) -> bool:
        return isinstance(pilot.state.dialog, ConfirmDialog) and not pilot.state.working

    async with run_app(demo.main, columns=COLUMNS, rows=ROWS, config=config) as pilot:
        await pilot.wait_for(waiting, timeout=30)
        await pilot.settle()
        screen = pilot.screen()
        await pilot.press("n")  # let the run end before the app stops
    while screen and not screen[-1]:
        screen.pop()
    return screen


def readme_block(text: str) -> tuple[int, int]:
    """The character range of the fenced block after the marker (fence lines included)."""
    start = text.index(MARKER) + len(MARKER) + 1
    assert text.startswith("```text\n", start), "the capture's fence must follow the marker line"
    end = text.index("\n```\n", start + len("```text")) + len("\n```\n")  # from the opening fence's newline
    return start, end


def test_readme_capture_is_what_the_demo_renders() -> None:
    """The README's demo screen equals a fresh headless capture of the demo (same rows, same text)."""
    screen = asyncio.run(capture())
    assert screen[0].startswith("\u203a " + DEMO_PROMPTS[0])  # the whole turn fits: from the user's line
    assert any(line.startswith("? ") for line in screen)  # the confirm is open
    block = "```text\n" + "\n".join(screen) + "\n```\n"
    text = README.read_text(encoding="utf-8")
    start, end = readme_block(text)
    if text[start:end] != block and os.environ.get("INLINE_RENDER_UPDATE_README") == "1":
        README.write_text(text[:start] + block + text[end:], encoding="utf-8")
        return
    assert text[start:end] == block, "README's demo capture is stale; the demo renders now:\n" + block
