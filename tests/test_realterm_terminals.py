"""Real terminals (tmux, xterm.js through a pty, xterm, VTE, kitty under Xvfb, GNU screen) under issue 9's storm app.

Each run starts the storm app (numbered lines streamed through ``InlineApp`` with default options)
in a real terminal, resizes it or not, waits for the exit and checks the terminal's whole text.
``INLINE_RENDER_REALTERM_STORMS=20`` runs 20 storms per terminal instead of 1 (and
``INLINE_RENDER_REALTERM_SEED`` moves the first seed); ``python -m tests.realterm storm`` prints
the same runs as a table.  A terminal that is not installed is skipped with what to install
(``.ci/run`` installs all of them).
"""

from __future__ import annotations

import os

import pytest
from realterm.checker import Verdict
from realterm.run import RunResult, run_storm
from realterm.storm import make_storm
from realterm.terminals import Adapter, adapters

STORMS = int(os.environ.get("INLINE_RENDER_REALTERM_STORMS", "1"))
# Seed 2's storm lost lines on all four terminals before the resize fixes (see STORM_FAILS for today's).
FIRST_SEED = int(os.environ.get("INLINE_RENDER_REALTERM_SEED", "2"))
# Seed 2's stream has every line committed before the exit; seed 1 ends with full-width rows still
# in the viewport, which the exit flush writes (issue 9, cause 4).
BASELINE_SEED = 2
EXIT_FLUSH_SEED = 1
TERMINALS = ("tmux", "xtermjs", "xterm", "vte", "kitty", "screen")


def _adapter(name: str) -> Adapter:
    adapter = adapters()[name]()
    reason = adapter.missing()
    if reason:
        pytest.skip(f"{name}: {reason}")
    return adapter


def _describe(result: RunResult) -> str:
    verdict: Verdict = result.verdict
    ghosts = "\n".join(verdict.ghosts[:20])
    return f"{result.terminal} {result.storm.describe()}\n{verdict.summary()}\nghost rows:\n{ghosts}"


@pytest.mark.parametrize("name", TERMINALS)
def test_without_resize_every_line_is_shown_once(name: str) -> None:
    """No resize: every committed line exactly once, in order, no ghost row, exit code 0."""
    result = run_storm(_adapter(name), make_storm(BASELINE_SEED, resize=False))
    assert result.exit_code == 0, _describe(result)
    assert result.verdict.ok and result.verdict.found == result.verdict.expected, _describe(result)
    assert result.verdict.ghosts == (), _describe(result)


@pytest.mark.parametrize("name", TERMINALS)
def test_the_reference_printf_loop_is_read_whole(name: str) -> None:
    """The rig reads a terminal right: the same lines written without the library, no resize, are all found once."""
    result = run_storm(_adapter(name), make_storm(EXIT_FLUSH_SEED, resize=False), plain=True)
    assert result.exit_code == 0 and result.verdict.ok and result.verdict.ghosts == (), _describe(result)


@pytest.mark.parametrize("name", TERMINALS)
def test_full_width_rows_keep_their_last_cell_at_exit(name: str) -> None:
    """No resize, full-width rows still in the viewport at exit: the exit flush writes them whole (issue 9,
    cause 4: an ESC[K at the pending-wrap column erased their last cell on tmux, xterm and screen)."""
    result = run_storm(_adapter(name), make_storm(EXIT_FLUSH_SEED, resize=False))
    assert result.exit_code == 0 and result.verdict.ok and result.verdict.cut == (), _describe(result)


# 20 storms of seeds 1-20 per terminal (python -m tests.realterm storm -t tmux vte xtermjs xterm --storms 20 --seed 1,
# on a loaded 2-core machine, 2026-11-23): tmux, xterm, VTE and xterm.js lost and duplicated nothing (strict; VTE
# cut a line in 2 of 20 before frames in flight at a shrink below their reach were replayed), against the --plain
# reference.  Remove a terminal from here once it passes (its test is then strict).  kitty, unknown to the library
# and taken for a re-wrapping terminal since 8d9db30, lost and duplicated nothing in 20 storms (seeds 1-20) at
# bc8785a; taken for one that cuts rows before, every storm showed 1-9 lines twice (tests/realterm/README.md, kitty).
# kitty garbles rows by itself while it re-wraps (printf lost 5 lines in 10 storms: "charlie" read back "chrlie"):
# on a loaded machine a storm now and then loses a line the same way (CI's dry run, 2026-12-02: L0076 and L0077 of
# seed 1 missing with the composer glued to a row; 0 in 20 plain and 20 Markdown storms the same day).
KITTY_OWN_LOSSES = (
    "kitty loses rows while it re-wraps, printf's too (5 lines in 10 storms); a loaded run loses one now and then"
)
STORM_FAILS = {
    "screen": "one storm compared with one printf run: since the open line streams as one text (2026-11-24, "
    "ten storms: 75, 75 and 77 lines missing against printf's 78 and 79, none cut or duplicated) the library "
    "loses no more than printf, but a storm's count on screen varies by a line or two between runs of the same "
    "code, printf's too (the oldest lines, out of screen's reach: tests/test_screen_reach.py); README, Known limits",
    "kitty": KITTY_OWN_LOSSES,
}


STRICT_TERMINALS = TERMINALS[:-1]  # GNU screen loses lines by itself: judged against printf below


@pytest.mark.realterm_storm
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.xfail(reason=f"issue 9: {STORM_FAILS[name]}", strict=False))
        if name in STORM_FAILS
        else name
        for name in STRICT_TERMINALS
    ],
)
def test_a_resize_storm_loses_and_duplicates_no_line(name: str) -> None:
    """8 resizes 0.2-0.6 s apart while streaming: every committed line exactly once and in order, per storm."""
    adapter = _adapter(name)
    failures = []
    for seed in range(FIRST_SEED, FIRST_SEED + STORMS):
        result = run_storm(adapter, make_storm(seed))
        if result.exit_code != 0 or not result.verdict.ok:
            failures.append(_describe(result))
    assert not failures, f"{len(failures)} of {STORMS} storms failed:\n" + "\n\n".join(failures)


@pytest.mark.realterm_storm
@pytest.mark.xfail(reason=f"issue 9: {STORM_FAILS['screen']}", strict=False)
def test_on_gnu_screen_a_storm_loses_no_more_than_printf() -> None:
    """GNU screen re-wraps its own history: the library loses no more lines than printf, and duplicates none."""
    adapter = _adapter("screen")
    failures = []
    for seed in range(FIRST_SEED, FIRST_SEED + STORMS):
        storm = make_storm(seed)
        reference = run_storm(adapter, storm, plain=True)
        result = run_storm(adapter, storm)
        worse = set(result.verdict.missing) - set(reference.verdict.missing)
        if result.exit_code != 0 or worse or result.verdict.duplicated:
            failures.append(
                f"{_describe(result)}\nprintf: {reference.verdict.summary()}\nlost beyond printf: {sorted(worse)}"
            )
    assert not failures, f"{len(failures)} of {STORMS} storms failed:\n" + "\n\n".join(failures)
