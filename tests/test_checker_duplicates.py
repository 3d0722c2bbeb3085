"""The checker judges whole committed lines (issue 31, case 6): a copy fails it, a correct screen passes it.

``CheckedRenderer`` used to trust its own list of rows above the viewport: a committed row a shrink pushed into
scrollback uncounted (a ghost) and inserted again later passed it, and rows a resize kept in place (``kept_rows``)
made it fail correct screens.  Now every committed logical line must stand once, whole, in order
(``inline_render.testing.lines``), and the resize cases translated from other projects replay green.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from realterm.checker import TerminalText, check

from inline_render import Config, Input, LogAppend, LogDelta, LogFinish, Resize
from inline_render.scenario import load_scenario, replay
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer
from inline_render.testing.lines import find_copy

FAMILIES = list(TerminalFamily)
PEERS = sorted((Path(__file__).resolve().parent.parent / "scenarios" / "resize_peers").glob("*.jsonl"))
TEXT = "".join(f"Line {i} of a long answer.\n" for i in range(1, 21))


def _markdown_shrink(family: TerminalFamily) -> CheckedRenderer:
    """Issue 31 case 1: a Markdown answer streamed across a 50x15 -> 50x8 shrink (held rows pushed)."""
    app = CheckedRenderer(50, 15, config=Config(), cursor_row=0, family=family)
    app.feed([LogAppend("user", "go")])
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    cut = TEXT.index("Line 4 of") + 5
    for k in range(0, cut, 4):
        app.feed([LogDelta("a", TEXT[k : min(k + 4, cut)])])
    app.feed([Resize(50, 8)])
    for k in range(cut, len(TEXT), 4):
        app.feed([LogDelta("a", TEXT[k : k + 4])])
    app.feed([LogFinish("a")])
    return app


def _lines(app: CheckedRenderer) -> list[str]:
    """The terminal's logical lines (SIMPLE keeps no cells of its history: its rows as they are)."""
    if app.family is TerminalFamily.SIMPLE:
        return app.terminal.scrollback + app.terminal.screen_lines()
    return app.logical_lines()


@pytest.mark.parametrize("family", FAMILIES, ids=[f.value for f in FAMILIES])
def test_the_markdown_shrink_shows_each_line_once(family: TerminalFamily) -> None:
    """The fixed library passes the case-1 session on every family (and pyte), each answer line shown once."""
    app = _markdown_shrink(family)
    assert sum("Line 3 of a long answer." in line for line in _lines(app)) == 1


def test_a_copy_is_judged_on_whole_lines() -> None:
    """Same text on two committed lines, blank rows, and a ghost piece of a line pass; a whole copy fails."""
    rows, ids = ["ok", "ok", "", "alpha beta", "  gamma"], [1, 2, 3, 4, 4]
    assert find_copy(["ok", "ok", "", "alpha beta", "  gamma"], rows, ids, [0, 1, 2, 3, 4]) is None
    # A ghost of the wrapped line's first row (a resize left it) is a piece, not the line.
    assert find_copy(["ok", "ok", "", "alpha beta", "alpha beta", "  gamma"], rows, ids, [0, 1, 2, 4, 5]) is None
    assert find_copy(["ok", "ok", "", "", "", "alpha beta", "  gamma"], rows, ids, [0, 1, 2, 5, 6]) is None
    copy = find_copy(["ok", "ok", "", "alpha beta", "  gamma", "alpha beta gamma"], rows, ids, [0, 1, 2, 3, 4])
    assert copy is not None and (copy.found, copy.again) == (3, 5)
    # Re-wrapped at another width, a copy before the line is found too.
    copy = find_copy(["ok", "ok", "", "alpha", "beta gamma", "alpha beta", "  gamma"], rows, ids, [0, 1, 2, 5, 6])
    assert copy is not None and copy.again == 3


@pytest.mark.parametrize("path", PEERS, ids=[p.stem for p in PEERS])
def test_peer_resize_case_replays_green(path: Path) -> None:
    """Each resize case translated from pi-tui, codex, ink, bubbletea and ratatui replays green (TestTerminal, pyte)."""
    result = replay(path)
    assert result.passed, result.report()


@pytest.mark.parametrize("family", FAMILIES, ids=[f.value for f in FAMILIES])
@pytest.mark.parametrize("path", PEERS, ids=[p.stem for p in PEERS])
def test_peer_resize_case_keeps_every_line_once_on_every_family(path: Path, family: TerminalFamily) -> None:
    """Each peer case on each family's resize model: the checker passes and an independent count agrees."""
    scenario = load_scenario(path)
    app = CheckedRenderer(scenario.columns, scenario.rows, config=scenario.config, cursor_row=0, family=family)
    for tick in scenario.ticks:
        app.feed(tick.inputs)
    shown = [line for line in _lines(app) if line.startswith("#")]
    appended = [i.text for t in scenario.ticks for i in t.inputs if isinstance(i, LogAppend) and i.text]
    for text in appended:
        head = text.split(" ")[0]
        assert sum(line.startswith(head + " ") or line == head for line in shown) == 1, (text, shown)


# ---------------------------------------------------------------- agreement with an independent count
_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
_SIZES = st.tuples(st.integers(14, 60), st.integers(4, 16))
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("line"), st.integers(0, 12)),
        st.tuples(st.just("stream"), st.integers(0, 12)),
        st.tuples(st.just("resize"), _SIZES),
    ),
    min_size=3,
    max_size=14,
)


def _session(app: CheckedRenderer, steps: list[tuple[str, Any]]) -> list[str]:
    """Feed ``steps`` (numbered lines, streamed lines, resizes); then flush the viewport with more lines; return the
    lines appended, each with a unique id for the independent count."""
    lines: list[str] = []
    for kind, value in [*steps, *[("line", 0)] * 16]:
        if kind == "resize":
            app.feed([Resize(*value)])
            continue
        text = f"L{len(lines) + 1:04d} " + " ".join(_WORDS[(len(lines) + i) % 8] for i in range(value))
        lines.append(text.rstrip(" "))
        if kind == "line":
            app.feed([LogAppend("text", text)])
            continue
        entry = f"s{len(lines)}"
        inputs: list[Input] = [LogAppend("text", "", id=entry, final=False)]
        inputs += [LogDelta(entry, text[k : k + 7]) for k in range(0, len(text), 7)]
        for item in [*inputs, LogDelta(entry, "\n"), LogFinish(entry)]:
            app.feed([item])
            if isinstance(item, LogDelta) and item.text.endswith(" ") and value % 3 == 1:
                app.feed([Resize(max(14, app.terminal.columns - 9), max(4, app.terminal.rows - 3))])
    return lines


def _terminal_text(app: CheckedRenderer) -> TerminalText:
    terminal = app.terminal
    rows = tuple(terminal.scrollback + terminal.screen_lines())
    if terminal.family in (TerminalFamily.SIMPLE, TerminalFamily.SCREEN):
        return TerminalText(rows)  # no reflow (SIMPLE) / screen's flag points the other way: rows as they are
    wrapped = tuple(line.wrapped for line in terminal.history) + tuple(terminal.wrapped)
    return TerminalText(rows, wrapped if len(wrapped) == len(rows) else None)


def _pyte_text(app: CheckedRenderer) -> TerminalText:
    return TerminalText(tuple(app.pyte.scrollback + app.pyte.screen_lines()))


def _verdicts(family: TerminalFamily, steps: list[tuple[str, Any]]) -> list[tuple[bool, bool]]:
    """(the checker saw a copy, the independent count saw a line found whole twice), per emulator."""
    soft = family is TerminalFamily.SCREEN  # as the shell configures GNU screen
    config = Config(
        viewport_height=6,
        resize_reflow=family.reflows,
        markdown=False,
        soft_wrap_lines=soft,
        synchronized_output=not soft,
    )
    app = CheckedRenderer(40, 12, config=config, cursor_row=0, family=family)
    copy = False
    lines: list[str] = []
    try:
        lines = _session(app, steps)
    except AssertionError as error:
        assert "is shown twice" in str(error), str(error)  # the checker fails on nothing else here
        copy = True
    expected = lines or [f"L{n:04d}" for n in range(1, 200)]
    texts = [_terminal_text(app)] + ([_pyte_text(app)] if app.pyte is not None else [])
    # xterm and pyte cut rows on narrowing (a cut copy is not a whole one): the count is asked about copies only.
    return [(copy, bool(check(text, _known(text, expected)).duplicated)) for text in texts]


def _known(text: TerminalText, expected: list[str]) -> list[str]:
    """The appended lines whose id the terminal shows (a session the checker stopped early appended fewer)."""
    shown = "\n".join(text.rows)
    return [line for line in expected if line.split(" ")[0] in shown]


_AGREE = settings(
    max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)


# GNU screen is left out: a random session there (14x13, a stream and a resize) fails the checker's viewport check
# before any copy (reported with issue 31 case 6, not looked into yet).
AGREEING = [f for f in FAMILIES if f is not TerminalFamily.SCREEN]


@pytest.mark.parametrize("family", AGREEING, ids=[f.value for f in AGREEING])
def test_checker_agrees_with_an_independent_whole_line_count(family: TerminalFamily) -> None:
    """On random sessions with resizes, the checker reports a copy exactly when an independent whole-line count of
    the emulator's text (tests/realterm/checker.py; TestTerminal's family model, and pyte) finds a line twice."""
    seen: list[bool] = []

    @_AGREE
    @given(_STEPS)
    def run(steps: list[tuple[str, Any]]) -> None:
        for copy, counted in _verdicts(family, steps):
            assert copy == counted, (steps, copy, counted)
            seen.append(copy)

    run()
    assert seen and not any(seen)
