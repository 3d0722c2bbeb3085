"""A widening that meets, in flight, the frame right after a narrowing (issue 31).

The narrowing re-wraps the open line (58 cells) into two rows at 50 columns, the second continuing the first; the
frame after it moves up from the composer over both to the viewport's top (``CUU 3``) and erases from there.  A
terminal that widens before reading that frame joins the two rows again: the move up lands one row higher, on the
committed ``L0019`` right above the viewport, and the frame erases it.  The cursor report cannot tell (the frame ends
on the bottom row either way), so the core inserts that line again (``resize_replay.joined_at_a_widening``).
"""

from __future__ import annotations

import pytest
from realterm.checker import TerminalText, Verdict, check

from inline_render import Config, LogAppend, LogDelta, LogFinish, Resize
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer

REWRAPPING = [TerminalFamily.TMUX, TerminalFamily.VTE, TerminalFamily.XTERMJS]
LINES = [f"L{number:04d} committed line" for number in range(1, 20)]
OPEN = "L0020 " + "x" * 52  # 58 cells: one row at 60 columns, two at 50, one again at 104


def _widened(family: TerminalFamily, size: tuple[int, int], fraction: float) -> tuple[CheckedRenderer, Verdict]:
    """19 committed lines and the open line on a 60x12 screen, narrowed to 50 columns with the frame after it in
    flight when the terminal takes ``size``, after ``fraction`` of its bytes; then the line ends and one more comes."""
    app = CheckedRenderer(60, 12, config=Config(resize_reflow=True), cursor_row=0, family=family)
    for line in LINES:
        app.feed([LogAppend("text", line)])
    app.feed([LogAppend("text", "", id="open", final=False), LogDelta("open", OPEN)])
    app.inflight([[Resize(50, 12)]], fraction, size, True)
    app.feed([LogDelta("open", " end\n"), LogFinish("open")])
    app.feed([LogAppend("text", "L0021 last")])
    expected = [*LINES, OPEN + " end", "L0021 last"]
    return app, check(TerminalText(tuple(app.terminal.all_lines())), expected)


@pytest.mark.parametrize("family", REWRAPPING, ids=lambda family: family.value)
def test_a_widening_before_the_frame_after_a_narrowing_loses_no_line(family: TerminalFamily) -> None:
    """The frame's move up that the widening made land on the committed line above the viewport loses no line."""
    app, verdict = _widened(family, (104, 12), 0.0)
    assert verdict.ok, verdict.summary()
    assert app.reinserted == 1  # L0019, the one row the joined pieces let the move up reach


@pytest.mark.parametrize("family", REWRAPPING, ids=lambda family: family.value)
def test_a_widening_after_that_frame_shows_the_line_twice_at_worst(family: TerminalFamily) -> None:
    """Read before the widening, the frame wrote nothing over the line: it is shown twice, never lost or moved."""
    _, verdict = _widened(family, (104, 12), 1.0)
    assert not verdict.missing and not verdict.out_of_order, verdict.summary()
    assert set(verdict.duplicated) <= {"L0019"}, verdict.summary()


@pytest.mark.parametrize("family", REWRAPPING, ids=lambda family: family.value)
def test_a_widening_that_joins_no_piece_inserts_nothing_again(family: TerminalFamily) -> None:
    """A widening too small to join the open line's two rows moves nothing up: no line is inserted again."""
    app, verdict = _widened(family, (55, 12), 0.0)
    assert verdict.ok, verdict.summary()
    assert app.reinserted == 0
