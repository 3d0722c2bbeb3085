"""Frames in flight are counted one way everywhere: a tick that wrote is a frame, a tick that wrote nothing is not.

The shell asks the terminal to acknowledge what it wrote and reports, at a resize, how many of the last frames the
terminal may have read only after it (``Resize.in_flight_frames``); the core looks up the rows those frames wrote
(``Screen.recent_written``) and replays them (``Screen.recent_frames``).  Both ends must count the same ticks: a tick
that writes nothing (a clock tick with nothing to redraw) counted by one and not the other makes the core look at
the wrong frames, and trust rows a frame in flight wrote at a width the terminal no longer had.
"""

from __future__ import annotations

import pytest
from realterm.checker import TerminalText, check

from inline_render import Clock, Config, LogAppend, LogDelta, LogFinish, Renderer
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
REWRAPPING = [TerminalFamily.TMUX, TerminalFamily.XTERMJS, TerminalFamily.VTE]


def test_the_renderer_counts_as_frames_only_the_ticks_that_wrote() -> None:
    """``Renderer.frames`` grows by the ticks that wrote bytes: a tick with nothing to draw adds none."""
    renderer = Renderer.in_memory(40, 8)
    renderer.feed([LogAppend("text", "hello", final=True)])
    frames, ticks = renderer.frames, renderer.ticks
    assert frames >= 1
    renderer.step([Clock(1.0)])  # nothing changed: nothing to write
    assert renderer.last is not None and renderer.last.effect.bytes_written == 0
    assert (renderer.frames, renderer.ticks) == (frames, ticks + 1)
    renderer.step([LogAppend("text", "world", final=True)])
    assert renderer.frames == frames + 1


@pytest.mark.parametrize("family", REWRAPPING, ids=[f.value for f in REWRAPPING])
def test_a_tick_that_wrote_nothing_after_a_frame_in_flight_does_not_hide_it(family: TerminalFamily) -> None:
    """A delta's frame in flight at a narrowing, then a tick that writes nothing: the rows the frame wrote are
    distrusted (the tick before it is not the frame counted in flight), and every line is found whole, once."""
    lines = [f"L{n:04d} " + " ".join(WORDS[(n + i) % len(WORDS)] for i in range(3 + (n % 4) * 6)) for n in range(1, 30)]
    text = "\n".join(lines) + "\n"
    app = CheckedRenderer(60, 10, config=Config(resize_reflow=True), cursor_row=0, family=family)
    app.feed([LogAppend("text", "", id="e", final=False), Clock(0.0)])
    last = (len(text) - 1) // 40 * 40
    for number, offset in enumerate(range(0, last, 40), 1):
        app.feed([LogDelta("e", text[offset : offset + 40]), Clock(number / 60)])
    # The last delta in flight, then a clock tick with nothing to draw; the terminal narrows before reading either.
    app.inflight([[LogDelta("e", text[last:]), Clock(1.0)], [Clock(1.1)]], 0.0, (30, 6), True)
    app.feed([LogFinish("e")])
    verdict = check(TerminalText(tuple(app.terminal.all_lines())), lines)
    assert not verdict.missing and not verdict.duplicated and not verdict.out_of_order, verdict.summary()
