"""GNU screen's stream frames (``effects_stream``): the open line is written as one text, appended at the cursor,
which rests at its end, so screen re-wraps it (and the cursor) at a resize as it re-wraps ``printf``'s.

The facts this rests on are checked against the real screen (``termprobe``); the rest runs on screen's model."""

from __future__ import annotations

import pytest
from realterm.checker import TerminalText, check
from termprobe.compare import FAMILY, differences, run_model
from termprobe.real import Feed, Resize, Snap, available, run_scripts

from inline_render import Config, LogAppend, LogDelta, LogFinish
from inline_render import Resize as ResizeInput
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]
SHORT = [f"L{i:04d}" for i in range(1, 31)]
LONG = "L0031 " + " ".join(WORDS[j % len(WORDS)] for j in range(24))  # 6 rows at 30 columns

# A row filled to its last column (the pending wrap), then what a stream frame does before the next delta.
_FULL = b"\n\n\n\x1b[?7habcdefghij"
_FACTS = {
    "index and up": b"\x1bD\x1bD\x1b[2A",
    "save and restore": b"\x1b7\x1b8",
    "autowrap off and on": b"\x1b[?7l\x1b[?7h",
    "the rows under it drawn": b"\x1b[?7l\x1bD\x1b[A\x1b7\r\x1bDzz\x1b[K\x1b8\x1b[?7h",
}


def _app(columns: int = 30, rows: int = 12) -> CheckedRenderer:
    """As the shell runs GNU screen: soft-wrapped lines, re-wrapping resizes, no synchronized output."""
    config = Config(resize_reflow=True, soft_wrap_lines=True, synchronized_output=False)
    return CheckedRenderer(columns, rows, config=config, cursor_row=0, family=TerminalFamily.SCREEN)


def _stream(app: CheckedRenderer, text: str, size: int = 7) -> None:
    for offset in range(0, len(text), size):
        app.feed([LogDelta("e", text[offset : offset + size])])


@pytest.mark.parametrize("name", list(_FACTS))
def test_a_pending_wrap_survives_what_a_stream_frame_does_on_the_real_screen(name: str) -> None:
    """A row written to its last column, then line feeds and moves up, a saved and restored cursor, autowrap turned
    off and on, rows drawn under it: the next characters still continue the text on the next row (a widening joins
    them), on the model and on the real GNU screen."""
    steps = [Feed(_FULL + _FACTS[name] + b"XY"), Snap(), Resize(20, 6), Snap()]
    narrow, wide = run_model(FAMILY["screen"], 10, 6, steps)
    assert narrow.screen[3:5] == ("abcdefghij", "XY")
    assert wide.screen[4].startswith("abcdefghijXY")
    why = available("screen")
    if why:
        pytest.skip(f"screen cannot run here: {why}")
    (real,) = run_scripts("screen", [(10, 6, steps)])
    assert differences(real, [narrow, wide]) == []


def test_the_open_line_is_one_text_and_the_cursor_rests_at_its_end() -> None:
    """Streamed in deltas, the open line's rows continue into each other on screen's model (its marks), the cursor
    rests hidden after its last character, and the composer is drawn under it."""
    app = _app()
    app.feed([LogAppend("text", "", id="e", final=False)])
    _stream(app, LONG)
    screen = app.renderer.state.screen
    assert screen.stream is not None and len(screen.stream) == 1
    rows = len(screen.stream[0])
    assert rows == 6
    first = screen.top
    assert app.terminal.wrapped[first : first + rows] == [True] * (rows - 1) + [False]
    assert (app.terminal.cursor.y, app.terminal.visible) == (first + rows - 1, False)
    assert app.terminal.screen_lines()[first + rows + 1].startswith("›")


def test_a_widening_joins_the_open_line_and_brings_history_back_into_reach() -> None:
    """30 short lines, a shrink (lines out of reach), the long line streamed and still open, a widening: screen joins
    its 6 rows into 2 and pulls 4 rows of history back into reach, as it does ``printf``'s.  Drawn row by row (the
    library before), the rows did not join and those lines stayed out of reach."""
    app = _app()
    app.feed([LogAppend("text", "\n".join(SHORT))])
    app.feed([ResizeInput(30, 8)])
    app.feed([])
    app.feed([LogAppend("text", "", id="e", final=False)])
    _stream(app, LONG)
    lost = len(app.terminal.history) - app.terminal.scrolled
    app.feed([ResizeInput(100, 8)])
    app.feed([])
    assert len(app.terminal.history) - app.terminal.scrolled == lost - 4
    app.feed([LogDelta("e", "\n"), LogFinish("e")])
    app.feed([LogAppend("text", "L0033 end")])
    found = app.logical_lines()
    assert [found.count(text) for text in [LONG, "L0033 end"]] == [1, 1], found


@pytest.mark.parametrize("size", [(12, 12), (17, 6), (60, 12), (90, 5)])
@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.7, 1.0])
def test_frames_in_flight_at_a_resize_append_where_the_text_ends(size: tuple[int, int], fraction: float) -> None:
    """Deltas the terminal reads after (or while) it narrows, widens or shrinks: they go on where screen's re-wrap
    put the text's end, the resize counts the rows the text takes at the new width, and after the line and one more
    every line is shown whole, once, in order."""
    app = _app()
    app.feed([LogAppend("text", "\n".join(SHORT[:4]))])
    app.feed([LogAppend("text", "", id="e", final=False)])
    _stream(app, LONG[:70])
    app.inflight([[LogDelta("e", LONG[70:90])], [LogDelta("e", LONG[90:])]], fraction, size, True)
    app.feed([LogDelta("e", "\n" + "L0032 tail"), LogFinish("e")])
    app.feed([LogAppend("text", "L0033 end")])
    app.feed([ResizeInput(100, 20)])
    app.feed([])
    verdict = check(TerminalText(tuple(app.terminal.all_lines())), [*SHORT[:4], LONG, "L0032 tail", "L0033 end"])
    assert verdict.ok, verdict.summary()


def test_screen_splits_a_long_line_a_narrowing_re_wraps_printf_s_too() -> None:
    """A 147-character line written as one text, the cursor at its end, narrowed to 12 columns and widened again:
    screen joins it back in two pieces (it stops re-wrapping part-way), on its model and on the real screen.  The
    library's streamed line is held the same way (the harness matches such pieces in order)."""
    line = ("L0009 " + " ".join(WORDS[j % len(WORDS)] for j in range(30)))[:-3]
    steps = [Feed(b"A1\nA2\nA3\n\x1b[?7h" + line.encode()), Resize(12, 20), Snap(), Resize(200, 20), Snap()]
    _, wide = run_model(FAMILY["screen"], 40, 20, steps)
    pieces = [row for row in wide.screen if row.startswith(("L0009", "ie"))]
    assert len(pieces) == 2 and pieces[0] + pieces[1] == line, wide.screen
    why = available("screen")
    if why:
        pytest.skip(f"screen cannot run here: {why}")
    real = run_scripts("screen", [(40, 20, steps)])[0]
    assert differences(real, run_model(FAMILY["screen"], 40, 20, steps)) == []


OSC = "\x1b]52;c;aGVsbG8gY2xpcGJvYXJk\x07"
STREAM_EXAMPLES = {
    # A finished line whose last row is only blanks (a tab at its end): that row is a row of its own, not linked (a
    # widening would take it into the line); linked, the harness found the inserted blank row missing.
    "a finished line ending in a blank row": lambda s: (s.resize((8, 3)), s.notify(OSC + "\t", "info", False)),
    # The composer as wide as the screen, a zero-width character after its last one: drawn under the streamed text,
    # that character is written with autowrap on (screen puts the zero-width one on the cell before otherwise).
    "a full composer row ending with a zero-width character": lambda s: (
        s.resize((8, 3)),
        s.editor_set(OSC + "\x85\ufeff"),
        s.append_many_lines(1),
    ),
    # An empty open answer, lines after it (open too: nothing after an open entry is committed), taller than the
    # viewport, then the answer finished empty: the text's rows above the viewport are part of the stream, and the
    # frame that does not continue it anchors from the text's first row (line 1.0 was shown twice).
    "an empty open entry finished under a tall text": lambda s: (
        s.start_stream("assistant", ""),
        s.append_many_lines(7),
        s.streams.remove("s1"),
        s.feed([LogFinish("s1")]),
    ),
    # A Markdown link streamed on a 3-row screen: the open line changes above its end (the link closes), so it is
    # drawn row by row; streamed, its head went into history and the re-rendered line was glued to it.
    "a Markdown line taller than the screen": lambda s: (
        s.resize((8, 3)),
        s.stream_markdown("[link](https://example.org/a?b=c)", [1]),
    ),
}


@pytest.mark.parametrize("what", list(STREAM_EXAMPLES))
def test_examples_the_in_flight_machine_found_on_the_stream_path(what: str) -> None:
    """Minimal examples of the in-flight machine on screen's model (random runs, reported resizes) that the stream
    frames failed before their fixes: every property holds after each step."""
    from test_machine_inflight import reported

    state = reported(TerminalFamily.SCREEN)()
    STREAM_EXAMPLES[what](state)
    for name in ("render_state_order", "settled", "cursor_at_composer", "numbered_lines_once", "inserted_rows_counted"):
        getattr(state, name)()
    state.teardown()
