"""GNU screen's history reach: why a resize storm loses lines there even for ``printf`` (issue 9).

screen shows (``hardcopy -h``, copy mode) only as many history rows as line feeds scrolled into it.  A
shrink pushes rows into history without counting them, so the oldest ones go out of reach; growing pulls
rows back and brings as many into reach again, and so does a widening that joins soft-wrapped rows (the
history gets shorter, the count stays).  Rows written with autowrap (``printf``) are soft-wrapped;
rows written one by one (the library, autowrap off) are not, so only ``printf`` gets its rows back.
The model (``TestTerminal`` of family ``SCREEN``) is checked against the real screen on the same script.
"""

from __future__ import annotations

import pytest
from termprobe.compare import FAMILY, differences, run_model
from termprobe.real import Feed, Resize, Snap, Step, available, run_scripts

from inline_render.terminals.memory import TerminalFamily, TestTerminal

NUMBERED = b"\n".join(b"A%02d" % i for i in range(1, 31)) + b"\n"
LONG = [b"B%02d-" % i + b"x" * 55 for i in range(1, 11)]
SOFT = b"\n".join(LONG) + b"\n"  # printf: each line wraps by itself at 20 columns
HARD = b"\x1b[?7l" + b"\n".join(b"\n".join(line[j : j + 20] for j in range(0, 60, 20)) for line in LONG) + b"\n"


def _script(data: bytes) -> list[Step]:
    """30 numbered lines at 20x10, 10 rows shorter, 10 long lines written as ``data``, then 60 columns wide."""
    return [Feed(NUMBERED), Resize(20, 5), Snap(), Feed(data), Resize(60, 5), Snap()]


def _reach(history: tuple[str, ...] | list[str], screen: tuple[str, ...] | list[str]) -> list[str]:
    return [line for line in [*history, *screen] if line.startswith("A")]


@pytest.mark.parametrize(("data", "after"), [(SOFT, 30), (HARD, 25)], ids=["printf", "row-by-row"])
def test_a_widening_brings_back_into_reach_only_what_soft_wrapped_rows_gave_up(data: bytes, after: int) -> None:
    """On the model: the shrink puts 5 numbered lines out of reach; the widening that joins 30 soft-wrapped rows
    into 10 brings them back, rows written one by one stay 30 rows and the 5 lines stay out of reach."""
    shrunk, widened = run_model(TerminalFamily.SCREEN, 20, 10, _script(data))
    assert _reach(shrunk.history, shrunk.screen)[0] == "A06"
    assert len(_reach(widened.history, widened.screen)) == after


def test_rows_a_shrink_pushes_are_kept_but_out_of_reach() -> None:
    """The model keeps the rows a shrink pushed (a growth shows them again) but shows only the scrolled ones."""
    terminal = TestTerminal(20, 10, family=TerminalFamily.SCREEN)
    terminal.feed(NUMBERED)
    assert terminal.scrolled == 21 and terminal.scrollback[0] == "A01"
    terminal.resize(20, 5)
    assert terminal.scrolled == 21 and terminal.scrollback[0] == "A06" and len(terminal.history) == 26
    terminal.resize(20, 10)
    assert terminal.scrollback[0] == "A01" and terminal.screen_lines()[-1] == ""


@pytest.mark.parametrize("data", [SOFT, HARD], ids=["printf", "row-by-row"])
def test_the_reach_model_matches_the_real_screen(data: bytes) -> None:
    """The same script on the real GNU screen gives the model's history, screen and cursor."""
    why = available("screen")
    if why:
        pytest.skip(f"screen cannot run here: {why}")
    steps = _script(data)
    real = run_scripts("screen", [(20, 10, steps)])[0]
    assert differences(real, run_model(FAMILY["screen"], 20, 10, steps)) == []
