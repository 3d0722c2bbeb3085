"""Re-anchoring after a resize on a terminal that reflows (tmux, xterm.js): where the old viewport went."""

from __future__ import annotations

import copy
import math
import re

from inline_render import Config, Key, LogAppend, Renderer, Resize
from inline_render.style import row_width
from inline_render.tick import InMemoryRenderer


def _filled(columns: int, rows: int, lines: int, width: int, *, viewport: int = 12) -> InMemoryRenderer:
    config = Config(viewport_height=viewport, resize_reflow=True)
    renderer = Renderer.in_memory(columns, rows, config=config, cursor_row=0)
    for index in range(lines):
        text = f"{index:03d} " + "x" * (width - 4)
        renderer.feed([LogAppend("text", text)])
    return renderer


def _anchor_row(renderer: InMemoryRenderer, resize: Resize) -> int:
    """The screen row (0-based) the resize tick cleared from with ESC[J: where it re-anchored the viewport.

    The moves are relative: the tick moves up from the cursor by the rows it believes lie above it in the
    old viewport (measured on a copy of the terminal), counted from the reported row (a reflowing terminal
    such as tmux moves the cursor; the in-memory terminal does not, so the report stands for it).
    """
    terminal = copy.deepcopy(renderer.terminal)
    terminal.resize(resize.columns, resize.rows)
    start = terminal.cursor.y
    sink = renderer.backend.sink
    before = len(sink.data)  # type: ignore[union-attr]
    renderer.step([resize])
    data = bytes(sink.data[before:])  # type: ignore[union-attr]
    erase = data.find(b"\x1b[J")
    assert erase >= 0, data
    terminal.feed(data[:erase])
    reported = resize.cursor_row if resize.cursor_row is not None else renderer.state.screen.cursor[0]  # type: ignore[index]
    return reported - (start - terminal.cursor.y)


def test_narrowing_anchors_at_the_reflowed_top_of_the_old_viewport() -> None:
    """Narrowing splits each wide viewport row in two: the new top is that many rows above the cursor."""
    renderer = _filled(80, 24, 40, 70)
    screen = renderer.state.screen
    assert screen.drawn is not None and screen.cursor is not None
    cursor_row = screen.cursor[0]
    above = screen.drawn[: cursor_row - screen.top]
    expected_top = cursor_row - sum(max(1, math.ceil(row_width(row) / 40)) for row in above)
    assert expected_top < screen.top  # the reflow really moved the viewport's top up
    assert _anchor_row(renderer, Resize(40, 24, cursor_row=cursor_row)) == expected_top


def test_widening_keeps_the_viewport_rows_one_each() -> None:
    """Widening re-wraps nothing of ours: the top stays the cursor's offset above the reported row."""
    renderer = _filled(40, 24, 40, 30)
    screen = renderer.state.screen
    assert screen.cursor is not None
    offset = screen.cursor[0] - screen.top
    assert _anchor_row(renderer, Resize(80, 24, cursor_row=20)) == 20 - offset


def test_rows_a_narrowing_pushes_into_history_count_as_inserted() -> None:
    """A viewport as tall as the screen overflows the top when narrowed: its committed rows become history."""
    renderer = _filled(40, 12, 30, 36, viewport=12)
    before = renderer.render_state.inserted_until
    screen = renderer.state.screen
    assert screen.cursor is not None and screen.top == 0
    result = renderer.step([Resize(20, 12, cursor_row=screen.cursor[0])])
    # 10 log rows of 36 cells become 2 rows each at 20 columns; with the status row, 21 rows sit above the
    # cursor on row 11: 10 rows overflow the top, which are the first 5 log rows, all committed.
    assert screen.drawn_log_rows == 10 and screen.cursor[0] == 11
    assert result.state.pushed_rows == 5
    assert result.state.render.inserted_until >= before + 5
    assert result.state.screen.top == 0  # right below the pushed rows


def test_no_reflow_without_the_config() -> None:
    """A terminal that does not reflow (the default model) keeps one screen row per drawn row."""
    renderer = Renderer.in_memory(80, 24, config=Config(viewport_height=12), cursor_row=0)
    for index in range(40):
        renderer.feed([LogAppend("text", f"{index:03d} " + "x" * 66)])
    screen = renderer.state.screen
    assert screen.cursor is not None
    assert _anchor_row(renderer, Resize(40, 24, cursor_row=screen.cursor[0])) == screen.top


def test_a_shrinking_row_is_erased_from_column_zero_then_rewritten() -> None:
    """tmux keeps the width of cells erased after text, and reflow would split them: erase whole lines only."""
    renderer = Renderer.in_memory(40, 10, config=Config(viewport_height=4), cursor_row=0)
    renderer.feed([Key(char) for char in "hello world"])
    sink = renderer.backend.sink
    before = len(sink.data)  # type: ignore[union-attr]
    renderer.feed([Key("backspace")] * 6)
    data = bytes(sink.data[before:])  # type: ignore[union-attr]
    erases = [match.start() for match in re.finditer(rb"\x1b\[K", data)]
    assert erases, data
    for position in erases:
        # Every erase of the line is issued at the first column (a carriage return), before the row's text.
        assert re.search(rb"\r(?:\x1b\[\d*[AB])?(?:\x1b\[0m)?$", data[:position]), data
        assert data[position:].find(b"hello") > 0, data
    assert renderer.terminal.screen_lines()[3].rstrip() == "\u203a hello"


def test_anchoring_at_the_top_row_never_erases_from_home() -> None:
    """tmux pushes the screen into history on ESC[J at (1,1) (scroll-on-clear): row 1 is erased with ESC[K."""
    renderer = Renderer.in_memory(40, 12, config=Config(viewport_height=12), cursor_row=0)
    for index in range(20):
        renderer.feed([LogAppend("text", f"line {index}")])
    sink = renderer.backend.sink
    before = len(sink.data)  # type: ignore[union-attr]
    renderer.feed([Resize(30, 12, cursor_row=11)])
    data = bytes(sink.data[before:])  # type: ignore[union-attr]
    assert renderer.state.screen.top == 0
    assert b"\x1b[J" in data  # the rows below are still cleared
    assert re.search(rb"\x1b\[(?:1;1)?H", data) is None, data  # no absolute move at all
    assert re.search(rb"(?:\x1b\[2G|\x1b\[\d*[AB])+\x1b\[J", data), data  # ESC[J issued from column 2
    assert renderer.terminal.screen_lines()[0].rstrip() == "line 10"


def test_the_reflow_model_follows_the_cursor_tmux_raised() -> None:
    """Narrowing wraps the composer under the cursor in two: tmux keeps the bottom line, so the cursor rises
    one row; with its report or without one, the top is the rows above the cursor counted up from there."""
    config = Config(viewport_height=6, resize_reflow=True, placeholder="a placeholder wider than twenty")
    renderer = Renderer.in_memory(40, 12, config=config, cursor_row=0)
    for index in range(12):
        renderer.feed([LogAppend("text", f"line {index}")])
    screen = renderer.state.screen
    assert screen.cursor == (11, 2) and screen.top == 6
    # Rows above the cursor keep one row each (short); the composer row (33 cells) becomes two at 20 columns.
    assert _anchor_row(renderer, Resize(20, 12, cursor_row=10)) == 5  # the report tmux really sends
    renderer = Renderer.in_memory(40, 12, config=config, cursor_row=0)
    for index in range(12):
        renderer.feed([LogAppend("text", f"line {index}")])
    assert _anchor_row(renderer, Resize(20, 12)) == 5  # no report: the same model


def test_a_frame_in_flight_gets_the_model_that_cannot_erase_history() -> None:
    """A frame the terminal may have read after re-wrapping was clipped, not re-wrapped: the top is then the
    drawn rows above the cursor, one each (a ghost at worst), never the re-wrapped count (which can reach
    up into committed rows)."""
    renderer = _filled(80, 24, 40, 70)
    screen = renderer.state.screen
    assert screen.drawn is not None and screen.cursor is not None
    cursor_row = screen.cursor[0]
    settled = copy.deepcopy(renderer)
    assert _anchor_row(settled, Resize(40, 24, cursor_row=cursor_row)) < screen.top  # the reflow model
    assert _anchor_row(renderer, Resize(40, 24, cursor_row=cursor_row, frames_in_flight=True)) == screen.top


def test_one_resize_in_flight_makes_the_whole_tick_cautious() -> None:
    """Two resizes before one frame are measured as one: if the first had a frame in flight, so has the sum."""
    renderer = _filled(80, 24, 40, 70)
    screen = renderer.state.screen
    assert screen.cursor is not None
    row = screen.cursor[0]
    renderer.step([Resize(60, 24, cursor_row=row, frames_in_flight=True), Resize(40, 24, cursor_row=row)])
    assert renderer.state.screen.top == screen.top
