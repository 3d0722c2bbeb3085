"""The exit sequence: the unfinished transcript lands below the history, in order, once; modes restored."""

from __future__ import annotations

import pytest

from inline_render import Config, ConfirmRequest, LogAppend, LogDelta, Status
from inline_render.core.log import LogState, log_rows
from inline_render.core.rows import draw_log_row
from inline_render.shell.closing import ENTER_MODES, LEAVE_MODES, closing_plan
from inline_render.terminals.memory import Cursor
from inline_render.testing import CheckedRenderer
from inline_render.text.style import row_text


def _expected(entries: list[tuple[str, str]], columns: int) -> list[str]:
    """Every row of the whole log drawn at ``columns``, as the user should find it after exit."""
    log = LogState()
    for kind, text in entries:
        log = log.append(kind, text)
    rows, _ = log_rows(log, columns, Config().width_policy)
    return [row_text(draw_log_row(row, columns, Config().width_policy)).rstrip() for row in rows]


@pytest.mark.parametrize(("columns", "rows", "cursor_row"), [(40, 12, 0), (40, 12, 5), (30, 6, 5), (80, 24, 23)])
def test_closing_writes_the_viewport_tail_below_history(columns: int, rows: int, cursor_row: int) -> None:
    """History + the rows still in the viewport (a streaming answer included) end up in order, exactly once."""
    checked = CheckedRenderer(columns, rows, config=Config(viewport_height=min(8, rows)), cursor_row=cursor_row)
    entries = [("text", f"line {index} " + "w" * (index % 7) * 5) for index in range(25)]
    for kind, text in entries:
        checked.feed([LogAppend(kind, text)])
    checked.feed([LogAppend("assistant", "partial answer\nsecond line still stream", id="s", final=False)])
    checked.feed([LogDelta("s", "ing"), Status("busy"), ConfirmRequest("c", "Allow?", "a dialog in the way")])
    renderer = checked.renderer
    data_before = len(renderer.backend.sink.data)  # type: ignore[union-attr]
    effect = renderer.backend.write(closing_plan(renderer.state))
    assert effect.complete
    data = bytes(renderer.backend.sink.data[data_before:])  # type: ignore[union-attr]
    assert b"\x1b[1;1H\x1b[J" not in data
    terminal = renderer.terminal
    lines = [line.rstrip() for line in terminal.scrollback] + [line.rstrip() for line in terminal.screen_lines()]
    cursor_line = len(terminal.scrollback) + terminal.cursor.y
    transcript = [line for line in lines[:cursor_line] if line]
    expected = _expected([*entries, ("assistant", "partial answer\nsecond line still streaming")], columns)
    assert transcript == [line for line in expected if line]
    assert all(not line for line in lines[cursor_line:])  # nothing of the viewport is left below
    assert terminal.cursor.visible and terminal.cursor.x == 0


def test_modes_are_entered_and_left_symmetrically() -> None:
    """Whatever the shell switches on (bracketed paste, autowrap off) is switched back; cursor shown, SGR reset."""
    assert b"\x1b[?2004h" in ENTER_MODES and b"\x1b[?2004l" in LEAVE_MODES
    assert b"\x1b[?7l" in ENTER_MODES and b"\x1b[?7h" in LEAVE_MODES
    assert b"\x1b[?25h" in LEAVE_MODES and b"\x1b[0m" in LEAVE_MODES


def test_closing_a_never_drawn_renderer_still_resets_the_terminal() -> None:
    """Before the first tick the plan only resets modes and shows the cursor at the start row."""
    checked = CheckedRenderer(40, 10, cursor_row=3)
    plan = closing_plan(checked.renderer.state)
    effect = checked.renderer.backend.write(plan)
    assert effect.complete
    data = bytes(checked.renderer.backend.sink.data)  # type: ignore[union-attr]
    assert data.startswith(b"\x18\x1b[?2026l\x1b[0m")
    assert data.endswith(b"\x1b[?25h")
    assert checked.terminal.cursor == Cursor(0, 3, True)


@pytest.mark.parametrize("columns", [1, 2, 12, 40])
def test_closing_keeps_the_last_cell_of_full_width_rows(columns: int) -> None:
    """Rows that fill the width keep their last character: no ESC[K is written at the pending-wrap position
    (xterm, tmux and screen erase the last cell there; the TestTerminal does as they do)."""
    checked = CheckedRenderer(columns, 8, config=Config(viewport_height=6), cursor_row=0)
    lines = [chr(ord("a") + index) * columns for index in range(4)]
    checked.feed([LogAppend("text", "\n".join(lines))])
    checked.renderer.backend.write(closing_plan(checked.renderer.state))
    terminal = checked.terminal
    shown = [line for line in terminal.scrollback + terminal.screen_lines() if line]
    assert shown == lines


def test_closing_mid_stream_on_gnu_screen_writes_a_tall_line_once() -> None:
    """GNU screen, a line streamed taller than the screen (its head above the viewport, in screen's text): at exit
    its head is not written again, and the line reads once, whole, above the prompt's row."""
    from inline_render.terminals.memory import TerminalFamily

    config = Config(resize_reflow=True, soft_wrap_lines=True, synchronized_output=False)
    checked = CheckedRenderer(20, 8, config=config, cursor_row=0, family=TerminalFamily.SCREEN)
    checked.feed([LogAppend("text", "L0001 first")])
    checked.feed([LogAppend("text", "", id="s", final=False)])
    text = "L0002 " + "abcdefghij" * 16
    for start in range(0, len(text), 9):
        checked.feed([LogDelta("s", text[start : start + 9])])
    screen = checked.renderer.state.screen
    assert screen.stream is not None and sum(len(line) for line in screen.stream) > screen.drawn_log_rows
    checked.renderer.backend.write(closing_plan(checked.renderer.state))
    lines = [line for line in checked.logical_lines() if line]
    assert lines == ["L0001 first", text], lines
