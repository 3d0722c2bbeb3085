"""TestTerminal's resize models against the real terminals they model (xterm, VTE, xterm.js, tmux, GNU screen).

The same bytes and resizes go to the real terminal (``tests/termprobe``) and to a ``TestTerminal``
of the matching ``TerminalFamily``; history, screen and cursor must agree after every resize.  A
terminal that is not installed is skipped with the reason (``.ci/run`` installs them all).  GNU screen
gets its scripts with ASCII in place of wide characters (its ``hardcopy`` cannot write them).
``INLINE_RENDER_REALTERM_LONG=1`` runs many more seeded scripts.
"""

from __future__ import annotations

import os

import pytest
from termprobe.cases import CASES
from termprobe.compare import FAMILY, differences, narrowest, run_model
from termprobe.real import TERMINALS, Feed, Resize, Script, Snap, available, run_scripts
from termprobe.scripts import ascii_only, library_script

from inline_render.shell.cursor import QUERY, SIZE_PROBE
from inline_render.terminals.memory import TerminalFamily, TestTerminal

LONG = os.environ.get("INLINE_RENDER_REALTERM_LONG") == "1"
SEEDS = range(60) if LONG else range(3)


def _require(name: str) -> None:
    why = available(name)
    if why:
        pytest.skip(f"{name} cannot run here: {why}")


def _compare(name: str, scripts: list[Script]) -> list[str]:
    if name == "screen":
        scripts = [ascii_only(script) for script in scripts]
    real = run_scripts(name, scripts)
    problems = []
    for index, ((columns, rows, steps), seen) in enumerate(zip(scripts, real, strict=True)):
        model = run_model(FAMILY[name], columns, rows, steps)
        # xterm reuses line buffers: beyond the narrowest width so far a widening shows stale cells.
        clip = narrowest(columns, steps) if name == "xterm" else None
        problems += [f"script {index}: {d}" for d in differences(seen, model, clip)]
    return problems


@pytest.mark.parametrize("name", list(TERMINALS))
def test_hand_written_probes_match_the_real_terminal(name: str) -> None:
    """Growth with/without history, shrinks, narrowing/widening and ESC[K at the last column: model == terminal."""
    _require(name)
    scripts = [(case.columns, case.rows, list(case.steps)) for case in CASES]
    problems = _compare(name, scripts)
    assert not problems, "\n".join(problems[:20])


# Known gaps of the VTE, tmux and xterm.js models, seen on seeded scripts (the hand-written probes all
# match; xterm matches every seed tried): which rows still count as continuations after rows that an
# earlier reflow split are overwritten or erased, blank history rows around such rows, and wide
# characters at a reflow's row ends.  Of 30 seeds (INLINE_RENDER_REALTERM_LONG=1 runs 60), the models
# differ somewhere on 11 (VTE), 21 (tmux) and 7 (xterm.js).  Example, tmux seed 5: after 14 -> 9 columns
# tmux shows 'betaxxxxx', 'xxxxx', 'xgammaxxx' where the model joins 'xxxxx' with the row below.
# GNU screen (its flag says a row continues into the *next*, and no erase clears it): 5 of seeds 0-29
# differ.  Four of them (2, 3, 9, 13) after a widening by exactly one column: the rows line feeds scroll in
# after it come back marked as continuing into the next row, and the next width change joins them (a plain
# script: 10 -> 11 or 20 -> 21 columns joins every line fed after; 20 -> 22 or 10 -> 11 -> 10 none); seed
# 25 differs the same way without one.  Not modelled (not explained by screen's source).
MODEL_GAPS = "resize model gap: continuation flags of rows overwritten after a reflow split (see MODEL_GAPS)"
SEEDED = [
    pytest.param(n, marks=pytest.mark.xfail(strict=False, reason=MODEL_GAPS)) if n != "xterm" else n for n in TERMINALS
]


@pytest.mark.parametrize("name", SEEDED)
def test_seeded_scripts_in_the_library_dialect_match_the_real_terminal(name: str) -> None:
    """Random rows at absolute positions (autowrap off), erases, region inserts and resizes: model == terminal."""
    _require(name)
    problems = _compare(name, [library_script(seed) for seed in SEEDS])
    assert not problems, "\n".join(problems[:20])


# Rows below the cursor re-wrapped into more rows than are below them, with no history: xterm.js moves the
# cursor down and pops its bottom lines while it re-wraps (bottom up), so lines it has not reached yet are
# gone when their turn comes.  The model skips them as xterm.js does (it raised IndexError before: found by
# the in-flight machine); what xterm.js then shows (the first row of every line lost, the cursor past the
# last column) is not modelled: a strict xfail there.
BELOW_CURSOR = (
    10,
    6,
    [
        Feed(b"top\r\nmid\r\n\r\n" + b"\r\n".join(b"%dbcdefghij" % i for i in range(3)) + b"\x1b[2;2H"),
        Resize(4, 6),
        Snap(),
    ],
)
XTERMJS_BELOW_CURSOR = "xterm.js loses rows re-wrapped below the cursor without history; not modelled"


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=XTERMJS_BELOW_CURSOR))
        if n == "xtermjs"
        else n
        for n in TERMINALS
    ],
)
def test_rows_rewrapped_below_the_cursor_without_history_match_the_real_terminal(name: str) -> None:
    """A narrowing that re-wraps full rows below the cursor into more rows than fit below it: model == terminal."""
    _require(name)
    problems = _compare(name, [BELOW_CURSOR])
    assert not problems, "\n".join(problems[:20])


def test_the_xtermjs_model_skips_lines_its_own_rewrap_popped() -> None:
    """The xterm.js model re-wraps rows below the cursor without history, keeps the rows above it in place and
    a whole screen of rows."""
    columns, rows, steps = BELOW_CURSOR
    terminal = TestTerminal(columns, rows, family=TerminalFamily.XTERMJS)
    terminal.feed(steps[0].data)  # type: ignore[union-attr]
    terminal.resize(4, 6)
    assert [*terminal.scrollback, *terminal.screen_lines()][:2] == ["top", "mid"]
    assert len(terminal.screen_lines()) == 6  # the rows a popped line's re-wrap added still fill the screen
    terminal.feed(b"\x1b[6;1Hz")
    assert terminal.screen_lines()[5].startswith("z")


@pytest.mark.parametrize("family", [f for f in TerminalFamily if f is not TerminalFamily.SIMPLE])
def test_every_family_pulls_rows_back_when_it_grows_with_the_cursor_on_the_last_row(family: TerminalFamily) -> None:
    """The fact behind issue 9's first cause, measured on all four terminals: taller = rows back from history."""
    terminal = TestTerminal(10, 5, family=family)
    terminal.feed("\n".join(f"line {i}" for i in range(15)).encode())
    terminal.resize(10, 8)
    assert terminal.scrollback[-1] == "line 6" and terminal.screen_lines()[0] == "line 7"
    assert (terminal.x, terminal.y) == (7, 7)


def test_the_simple_family_keeps_the_historical_model() -> None:
    """The default family never pulls rows back and cuts rows at the top on a shrink (existing tests rely on it)."""
    terminal = TestTerminal(10, 5)
    assert terminal.family is TerminalFamily.SIMPLE
    terminal.feed("\n".join(f"line {i}" for i in range(15)).encode())
    terminal.resize(10, 8)
    assert terminal.scrollback[-1] == "line 9" and terminal.screen_lines()[:5] == [f"line {i}" for i in range(10, 15)]
    assert (terminal.x, terminal.y) == (7, 4)


@pytest.mark.parametrize("name", sorted(TERMINALS))
def test_the_size_probe_reaches_the_bottom_right_cell_and_restores_the_cursor(name: str) -> None:
    """The shell's acknowledgement probe (``SIZE_PROBE`` without its query) puts the cursor on the last cell of
    the screen the terminal has, before and after a resize, and DECRC puts it back where it was."""
    _require(name)
    saved_and_moved = SIZE_PROBE.replace(QUERY + b"\x1b8", b"")
    steps = [Feed(b"one\ntwo\n\x1b[3G"), Feed(saved_and_moved), Snap(), Feed(b"\x1b8"), Snap()]
    steps += [Resize(23, 9), Snap(), Feed(saved_and_moved), Snap(), Feed(b"\x1b8"), Snap()]
    moved, back, resized, moved_after, back_after = run_scripts(name, [(30, 6, steps)])[0]
    assert moved.cursor == (29, 5) and back.cursor == (2, 2), (moved, back)
    assert moved_after.cursor == (22, 8) and back_after.cursor == resized.cursor, (resized, moved_after, back_after)
