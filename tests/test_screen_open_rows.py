"""GNU screen (``Config.soft_wrap_lines``): a finished line goes into the terminal's own text at once, written as
one text as ``printf``'s would be, and the viewport is only as tall as what is still open (no rows of finished
text that a shrink would push into history unlinked, no blank rows under the composer); streamed, the open line is
one text appended at the cursor (``effects_stream``); drawn row by row, a line that a frame in flight at a narrowing
wrote under a row the narrowing split is inserted again (``replay.damaged_lines``)."""

from __future__ import annotations

import pytest
from realterm.checker import TerminalText, check

from inline_render import Config, LogAppend, LogDelta, LogFinish, Resize
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer
from inline_render.text.cells import wrap_cells

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
FIRST = [f"L{i:04d} " + " ".join(WORDS[(i + j) % len(WORDS)] for j in range(3)) for i in range(1, 4)]
LONG = "L0009 " + " ".join(WORDS[j % len(WORDS)] for j in range(30))
LONG_ROWS = len(wrap_cells(LONG, 40))  # 5: screen's text wraps by cells, as printf's does (RenderOptions.wrap_cells)
TAIL = "L0010 tail"


def _app(columns: int = 40, rows: int = 20) -> CheckedRenderer:
    """As the shell runs GNU screen: soft-wrapped lines, re-wrapping resizes, no synchronized output."""
    config = Config(resize_reflow=True, soft_wrap_lines=True, synchronized_output=False)
    return CheckedRenderer(columns, rows, config=config, cursor_row=0, family=TerminalFamily.SCREEN)


def test_a_finished_line_goes_above_the_viewport_at_once_linked() -> None:
    """A finished entry leaves the viewport at once: the viewport is its status row and composer, and the line's
    rows above it continue into each other, its last row does not."""
    app = _app()
    app.feed([LogAppend("text", LONG)])
    screen = app.renderer.state.screen
    assert screen.drawn is not None and len(screen.drawn) == 2
    rows = app.terminal.screen_lines()
    first = rows.index(next(row for row in rows if row.startswith("L0009")))
    assert screen.top == first + LONG_ROWS
    assert app.terminal.wrapped[first : first + LONG_ROWS] == [True] * (LONG_ROWS - 1) + [False]


def test_the_viewport_is_as_tall_as_the_open_line() -> None:
    """While a line streams the viewport holds its rows above the status row and composer; it grows with them and
    shrinks back when the line is finished (every tick checked: the viewport shows the frame)."""
    app = _app()
    app.feed([LogAppend("text", "", id="e", final=False)])
    heights = []
    for offset in range(0, len(LONG), 20):
        app.feed([LogDelta("e", LONG[offset : offset + 20])])
        heights.append(len(app.renderer.state.screen.drawn or ()))
    assert heights[0] == 3 and heights[-1] == LONG_ROWS + 2 and heights == sorted(heights)
    app.feed([LogDelta("e", "\n"), LogFinish("e")])
    top = app.renderer.state.screen.top
    assert len(app.renderer.state.screen.drawn or ()) == 2
    assert app.terminal.screen_lines()[top + 2 :] == [""] * (20 - 2 - top)  # no blank rows kept under the composer


def _glued(narrow: int) -> str:
    """Three short lines, a long line streamed up to its last word (its rows in the viewport at 40 columns), then
    the frame that finishes it (and one more line) read by the terminal only after it narrowed to ``narrow``
    columns; then a widening (which joins what screen holds as one line).  The checker's verdict."""
    app = _app()
    app.feed([LogAppend("text", "\n".join(FIRST))])
    app.feed([LogAppend("text", "", id="e", final=False)])
    app.feed([LogDelta("e", LONG[:-3])])
    app.inflight([[LogDelta("e", LONG[-3:] + "\n" + TAIL), LogFinish("e")]], 0.0, (narrow, 20), True)
    app.feed([])
    app.feed([Resize(100, 20)])
    app.feed([])
    return check(TerminalText(tuple(app.terminal.all_lines())), [*FIRST, LONG, TAIL]).summary()


def _rows_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The open line drawn row by row, as the planner still draws it after a broken write or an anchoring."""
    monkeypatch.setattr("inline_render.core.plan.plan_stream", lambda state, layout, frame: None)


@pytest.mark.parametrize("narrow", [12, 24, 33])
def test_a_line_written_under_a_split_row_by_a_frame_in_flight_is_inserted_again(
    narrow: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frame in flight moves up over the open line's rows, which the narrowing split, lands under a piece that
    continues into the next row and writes the finished line there: screen holds it as that piece's continuation.
    The resize replays the frame on screen's model, finds it, and inserts the line again: every line is shown
    whole (after a ghost of it, not cut).  Row by row (``_rows_path``)."""
    _rows_path(monkeypatch)
    verdict = _glued(narrow)
    assert "missing 0," in verdict, verdict


@pytest.mark.parametrize("narrow", [12, 24, 33])
def test_streamed_the_line_is_whole_and_nothing_is_inserted_again(narrow: int) -> None:
    """Streamed as one text (``effects_stream``), the frame in flight appends at the cursor, which screen's re-wrap
    carried to the text's end: the line is whole in screen's text, nothing is inserted again, shown twice or out of
    order (drawn row by row, below, it was glued and inserted again after the next line)."""
    verdict = _glued(narrow)
    assert "missing 0," in verdict and "duplicated 0," in verdict and "out of order 0," in verdict, verdict


def test_only_the_damaged_line_is_inserted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Row by row: the line after the glued one reached screen whole: it is not inserted again (it showed twice when
    every line after a damaged one was), so the glued line comes after it (out of order) and nothing is shown
    twice."""
    _rows_path(monkeypatch)
    verdict = _glued(24)
    assert "missing 0," in verdict and "duplicated 0," in verdict and "out of order 1 (L0009)" in verdict, verdict


def test_without_inserting_it_again_the_line_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Row by row, with the resize's replay turned off: the line's rows are no longer where they were inserted (the
    harness finds one missing above the viewport)."""
    _rows_path(monkeypatch)
    monkeypatch.setattr("inline_render.core.reduce_resize._soft_lines_in_flight", lambda state, item: state)
    with pytest.raises(AssertionError, match="is missing above the viewport"):
        _glued(24)
