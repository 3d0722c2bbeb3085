"""ui_set_title: only printable text goes into the OSC, the user's title is saved first and restored at exit."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterator

import pytest
from test_shell_runner import Pty

from inline_render import LogAppend
from inline_render.shell import AppOptions, InlineApp, OutputMode
from inline_render.shell.closing import LEAVE_MODES
from inline_render.shell.title import POP_TITLE, PUSH_TITLE, sanitize_title, title_sequence

EVIL = "Lemon \x1b]52;c;ZXZpbA==\x07 demo\u202e\x9c\x1b\\ \x1b[2J end\n\tx"


@pytest.fixture
def pty() -> Iterator[Pty]:
    terminal = Pty()
    try:
        yield terminal
    finally:
        terminal.close()


def test_a_title_keeps_only_printable_text_so_it_cannot_end_the_osc() -> None:
    """ESC, BEL, C1 ST, bidi overrides and newlines are dropped; the OSC has exactly one terminator."""
    assert sanitize_title(EVIL) == "Lemon ]52;c;ZXZpbA== demo\\ [2J end x"
    assert sanitize_title("x" * 500) == "x" * 200
    data = title_sequence(EVIL)
    assert data.startswith(b"\x1b]2;") and data.endswith(b"\x1b\\")
    body = data[4:-2]
    assert b"\x1b" not in body and b"\x07" not in body and b"\xc2\x9c" not in body


def test_the_title_is_saved_set_and_restored_at_exit_on_a_real_pty(pty: Pty) -> None:
    """Inline mode: push the user's title, set the sanitized one, pop it before the modes are reset."""
    app = pty.app()

    async def main(app: InlineApp) -> None:
        app.set_title(EVIL)
        app.set_title("second")
        app.send(LogAppend("text", "after the title"))
        await asyncio.sleep(0.2)

    asyncio.run(app.run(main))
    data = pty.output()
    assert data.count(PUSH_TITLE) == 1 and data.count(POP_TITLE) == 1
    first, second = title_sequence(EVIL), title_sequence("second")
    assert data.index(PUSH_TITLE) < data.index(first) < data.index(second) < data.index(POP_TITLE)
    assert data.index(POP_TITLE) < data.rindex(LEAVE_MODES)
    assert data.count(b"\x1b]") == 2  # the two titles: no OSC of the runtime's own got through
    screen = "\n".join(pty.terminal.screen_lines() + pty.terminal.scrollback)
    assert "52;c" not in screen and "second" not in screen and "after the title" in screen


def test_plain_mode_writes_no_title() -> None:
    """Without a terminal to own (plain output), set_title writes nothing at all."""
    out = io.StringIO()
    app = InlineApp(AppOptions(mode=OutputMode.PLAIN), stdin=io.StringIO(""), stdout=out, env={})

    async def main(app: InlineApp) -> None:
        app.set_title("my title")
        app.send(LogAppend("text", "line"))
        await asyncio.sleep(0.05)

    asyncio.run(app.run(main))
    assert "line" in out.getvalue() and "\x1b" not in out.getvalue() and "my title" not in out.getvalue()
