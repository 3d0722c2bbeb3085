"""Re-anchoring after a resize: where the old viewport went, and what of it stays (terminals that re-wrap or not)."""

from __future__ import annotations

import copy
import re

from inline_render import Config, Key, LogAppend, LogDelta, Renderer, Resize, Status
from inline_render.core.tick import InMemoryRenderer


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


def test_a_rewrapping_terminal_keeps_the_committed_rows_where_it_put_them() -> None:
    """Narrowing on a terminal that re-wraps: the committed log rows at the viewport's top stay where the
    terminal re-wrapped them and count as inserted; the erase starts below them, at one row per other row."""
    renderer = _filled(80, 24, 40, 70)
    screen = renderer.state.screen
    assert screen.drawn is not None and screen.cursor is not None
    before = renderer.render_state.inserted_until
    index = screen.cursor[0] - screen.top
    committed = screen.drawn_log_rows  # every log row of the tail is a finished line here
    assert _anchor_row(renderer, Resize(40, 24, cursor_row=screen.cursor[0])) == screen.cursor[0] - (index - committed)
    assert renderer.last is not None and renderer.last.state.kept_rows == committed
    assert renderer.render_state.inserted_until >= before + committed


def test_widening_keeps_the_committed_rows_too() -> None:
    """Widening re-wraps nothing of ours: the committed rows stay, nothing is drawn twice."""
    renderer = _filled(40, 24, 40, 30)
    screen = renderer.state.screen
    assert screen.cursor is not None
    before = renderer.render_state.inserted_until
    offset = screen.cursor[0] - screen.top - screen.drawn_log_rows
    assert _anchor_row(renderer, Resize(80, 24, cursor_row=20)) == 20 - offset
    assert renderer.last is not None and renderer.last.state.kept_rows == screen.drawn_log_rows
    assert renderer.render_state.inserted_until == before + screen.drawn_log_rows


def test_uncommitted_rows_are_redrawn_not_kept() -> None:
    """A streaming line's rows are not committed: they are erased and redrawn at the new width."""
    config = Config(viewport_height=8, resize_reflow=True)
    renderer = Renderer.in_memory(60, 16, config=config, cursor_row=0)
    renderer.feed([LogAppend("text", "done line")])
    renderer.feed([LogAppend("assistant", "x" * 100, id="a", final=False)])
    before = renderer.render_state.inserted_until
    screen = renderer.state.screen
    assert screen.cursor is not None
    renderer.feed([Resize(30, 16, cursor_row=screen.cursor[0])])
    assert renderer.render_state.inserted_until == before + 1  # "done line" only
    assert any("x" * 20 in line for line in renderer.terminal.screen_lines())


def test_rows_a_frame_in_flight_wrote_are_redrawn() -> None:
    """Frames the terminal may have read after the new width clipped what they wrote: committed rows from the
    first row any of the last frames wrote on are redrawn, not kept (the ones above were left as they were)."""

    def filled(last_frames: int) -> Renderer:
        renderer = Renderer.in_memory(60, 16, config=Config(viewport_height=8, resize_reflow=True), cursor_row=0)
        for index in range(4 - last_frames):
            renderer.feed([LogAppend("text", f"line {index} written long before the resize")])
        for index in range(3):  # frames that write the status row only, below the log rows
            renderer.feed([Status(f"status {index}")])
        for index in range(4 - last_frames, 4):
            renderer.feed([LogAppend("text", f"line {index} written by one of the last frames")])
        return renderer

    settled, renderer = filled(1), filled(1)
    screen = renderer.state.screen
    assert screen.cursor is not None and screen.first_written == 3
    before = renderer.render_state.inserted_until
    assert settled.step([Resize(30, 16, cursor_row=screen.cursor[0])]).state.kept_rows == 4
    assert settled.render_state.inserted_until == before + 4
    in_flight = Resize(30, 16, cursor_row=screen.cursor[0], frames_in_flight=True)
    assert renderer.step([in_flight]).state.kept_rows == 3
    assert renderer.render_state.inserted_until == before + 3
    # Two frames wrote log rows among the last ones: a tick and its follow-up, or two unacknowledged ticks.
    two = filled(2)
    assert two.state.screen.cursor is not None and two.state.screen.first_written == 2
    assert two.step([Resize(30, 16, cursor_row=two.state.screen.cursor[0], frames_in_flight=True)]).state.kept_rows == 2
    # The shell knows the older of the two was acknowledged at its own size: only the last one is distrusted.
    known = filled(2)
    assert known.state.screen.cursor is not None
    resize = Resize(30, 16, cursor_row=known.state.screen.cursor[0], frames_in_flight=True, in_flight_frames=1)
    assert known.step([resize]).state.kept_rows == 3


def test_rows_a_shrink_pushes_into_history_count_as_inserted() -> None:
    """A terminal that does not re-wrap: the rows a shrink pushed above the screen's top are history."""
    config = Config(viewport_height=12)
    renderer = Renderer.in_memory(40, 12, config=config, cursor_row=0)
    for index in range(30):
        renderer.feed([LogAppend("text", f"line {index}")])
    screen = renderer.state.screen
    assert screen.cursor == (11, 2) and screen.top == 0
    before = renderer.render_state.inserted_until
    result = renderer.step([Resize(40, 8, cursor_row=7)])
    assert result.state.pushed_rows == 4  # the four top rows of the viewport, all committed
    assert result.state.render.inserted_until == before + 4
    assert result.state.screen.top == 0


def test_no_reflow_without_the_config() -> None:
    """A terminal that does not re-wrap (the default model) keeps one screen row per drawn row: the old
    viewport is erased from its exact top and the committed rows are redrawn at the new width."""
    renderer = Renderer.in_memory(80, 24, config=Config(viewport_height=12), cursor_row=0)
    for index in range(40):
        renderer.feed([LogAppend("text", f"{index:03d} " + "x" * 66)])
    screen = renderer.state.screen
    assert screen.cursor is not None
    assert _anchor_row(renderer, Resize(40, 24, cursor_row=screen.cursor[0])) == screen.top
    assert renderer.last is not None and renderer.last.state.kept_rows == 0


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
    assert renderer.terminal.screen_lines()[renderer.terminal.cursor.y].rstrip() == "\u203a hello"


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


def test_rows_kept_in_place_end_with_a_line() -> None:
    """A line whose last row a frame in flight wrote is redrawn whole, not kept in part: kept in part, its redrawn
    rest followed a ghost piece of itself and the terminal showed it as two broken lines (VTE storms)."""
    renderer = Renderer.in_memory(30, 16, config=Config(viewport_height=8, resize_reflow=True), cursor_row=0)
    renderer.feed([LogAppend("text", "short one")])
    text = "a long line of words that wraps onto three rows at thirty col"
    renderer.feed([LogAppend("text", "", id="s", final=False), LogDelta("s", text)])
    for index in range(3):  # frames that write the status row only
        renderer.feed([Status(f"s{index}")])
    renderer.feed([LogDelta("s", "umns\nnext")])  # the line's last row and the next line: the last frame
    screen = renderer.state.screen
    assert screen.cursor is not None and screen.first_written == 3
    assert renderer.terminal.screen_lines()[1:4] == [
        "a long line of words that",
        "wraps onto three rows at",
        "thirty columns",
    ]
    result = renderer.step([Resize(12, 16, cursor_row=screen.cursor[0], frames_in_flight=True)])
    assert result.state.kept_rows == 1  # "short one"; the long line's first two rows are redrawn with its third
