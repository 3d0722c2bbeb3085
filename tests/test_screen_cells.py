"""GNU screen (``Config.soft_wrap_lines``): verbatim log text wraps by cells (``text.wrap_cells``), as the terminal
wraps ``printf``'s, so screen's re-wrap at a resize gives it the rows it gives ``printf``'s text: no row more (each
extra row puts an older one out of reach in screen's history, tests/test_screen_reach.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inline_render import Config, LogAppend, Resize
from inline_render.terminals.memory import TerminalFamily, TestTerminal
from inline_render.testing.checks import CheckedRenderer
from inline_render.text.cells import WidthPolicy, iter_cells, text_width, wrap_cells

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo"]
LINE = "L0001 " + " ".join(WORDS[(j * 7) % len(WORDS)] for j in range(40))  # words of 4-7 letters, some long ones


@given(st.text(st.sampled_from("ab 漢字🙂\u0301"), max_size=60), st.integers(1, 12), st.sampled_from(list(WidthPolicy)))
def test_rows_are_as_full_as_a_terminal_fills_them(line: str, width: int, policy: WidthPolicy) -> None:
    """The rows partition the line; each fits; each but the last is full: the next cluster would not fit (only a
    wide cluster at the last cell leaves a row short, as a terminal's autowrap leaves it)."""
    ends = wrap_cells(line, width, policy)
    starts = (0, *ends[:-1])
    assert ends[-1] == len(line) and list(ends) == sorted(ends)
    for index, (start, end) in enumerate(zip(starts, ends, strict=True)):
        row = line[start:end]
        assert text_width(row, policy) <= width or len(iter_cells(row, policy)) == 1
        if index < len(ends) - 1:
            following = iter_cells(line[end:], policy)[0][1]
            assert text_width(row, policy) + following > width


def _rows_of(terminal: TestTerminal, prefix: str) -> int:
    """How many rows of history and screen the logical line starting with ``prefix`` takes."""
    rows = [(line.cells, line.wrapped) for line in terminal.history]
    rows += list(zip(terminal.grid, terminal.wrapped, strict=True))
    texts = ["".join(cell for cell in cells if cell != "\0") for cells, _ in rows]
    start = next(index for index, text in enumerate(texts) if text.startswith(prefix))
    end = start
    while rows[end][1]:
        end += 1
    return end - start + 1


@pytest.mark.parametrize("narrow", [23, 29, 31, 37])
def test_a_line_takes_the_rows_printf_s_would_after_a_narrowing_and_a_widening(narrow: int) -> None:
    """A long line inserted at 40 columns, then the window narrowed and widened again: on screen's model it takes
    as many rows as the same text written by ``printf`` takes through the same resizes.  Word-wrapped rows filled
    with blanks to the width took more after the narrowing (the blanks re-wrap too)."""
    config = Config(resize_reflow=True, soft_wrap_lines=True, synchronized_output=False)
    app = CheckedRenderer(40, 20, config=config, cursor_row=0, family=TerminalFamily.SCREEN)
    app.feed([LogAppend("text", LINE)])
    printf = TestTerminal(40, 20, family=TerminalFamily.SCREEN)
    printf.feed((LINE + "\r\n").encode())
    for size in [(narrow, 20), (77, 20)]:
        app.feed([Resize(*size)])
        printf.resize(*size)
        assert _rows_of(app.terminal, "L0001") == _rows_of(printf, "L0001"), size
