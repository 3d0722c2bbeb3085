"""A frame in flight at a shrink leaves no row of the viewport's chrome (status, composer) in the terminal's history.

An inserting frame stages the committed rows at the viewport's top and pushes them up with line feeds at its last
row; the composer and status rows under them move up with them.  A terminal that shrank before it read the frame
has fewer rows above them than planned, so the line feeds push those rows into its history too: the composer
stayed there as a ghost (the tmux resize test ``test_narrowing_and_widening_mid_stream[40x12]`` met it now and then).
The chrome is erased before the line feeds (``effects._Planner.push_staged``): what goes instead is a blank row.
"""

from __future__ import annotations

import pytest
from realterm.checker import TerminalText, check

from inline_render import Config, LogAppend, LogDelta, LogFinish, Working
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer

FAMILIES = [TerminalFamily.TMUX, TerminalFamily.VTE, TerminalFamily.XTERMJS, TerminalFamily.XTERM]
CHROME = ("Type a message", "Working")


def _history_after_a_burst_in_flight(family: TerminalFamily, burst: int) -> tuple[list[str], str]:
    """30x12, the viewport full of a streamed answer under a working row and the composer; a delta of ``burst``
    lines is in flight when the terminal shrinks to 30x10.  The rows above the screen at the end, and the
    checker's verdict on every line."""
    lines = [f"L{n:04d} of a long answer." for n in range(1, 50)]
    config = Config(resize_reflow=family.reflows, placeholder="Type a message")
    app = CheckedRenderer(30, 12, config=config, cursor_row=0, family=family)
    app.feed([LogAppend("text", "", id="e", final=False), Working("Working")])
    for line in lines[:29]:
        app.feed([LogDelta("e", line + "\n")])
    app.inflight([[LogDelta("e", "".join(line + "\n" for line in lines[29 : 29 + burst]))]], 0.0, (30, 10), True)
    for line in lines[29 + burst :]:
        app.feed([LogDelta("e", line + "\n")])
    app.feed([LogFinish("e"), Working("")])
    everything = app.terminal.all_lines()
    verdict = check(TerminalText(tuple(everything)), lines).summary()
    return everything[: len(everything) - app.terminal.rows], verdict


@pytest.mark.parametrize("burst", [1, 6, 10, 14])
@pytest.mark.parametrize("family", FAMILIES, ids=[f.value for f in FAMILIES])
def test_an_inserting_frame_in_flight_at_a_shrink_pushes_no_composer_into_history(
    family: TerminalFamily, burst: int
) -> None:
    """An inserting frame the terminal reads after a shrink pushes no status or composer row into history, and
    every line is there once, in order (10 lines in flight left both rows there before the fix)."""
    history, verdict = _history_after_a_burst_in_flight(family, burst)
    assert [row for row in history if any(text in row for text in CHROME)] == []
    assert "missing 0," in verdict and "duplicated 0," in verdict and "out of order 0," in verdict, verdict
