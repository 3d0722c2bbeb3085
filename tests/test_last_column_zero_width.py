"""A row as wide as the terminal whose last character carries zero-width code points keeps them on that character.

Written at the last column with autowrap off (as the library runs), tmux and GNU screen keep the cursor on that
cell and put a combining mark (or joiner, variation selector, U+FEFF) that follows on the cell before it; xterm,
VTE and xterm.js put it on the last cell (``tests/termprobe`` ``combining-last-column``, checked against each
real terminal by ``tests/test_terminal_models.py``).  So such a character is written with autowrap on
(``bulk.write_last_cell``), where every terminal puts them on the last cell.
"""

from __future__ import annotations

import pytest

from inline_render import Config, EditorSet, Fault, LogAppend, LogDelta
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer

FAMILIES = list(TerminalFamily)
ACCENTED = "abcdefghie\u0301"  # 10 cells: "e" and a combining acute in the last one
STREAMED = "123456789e\u0301"


def _app(family: TerminalFamily, sync: bool) -> CheckedRenderer:
    soft = family is TerminalFamily.SCREEN  # as the shell configures GNU screen
    config = Config(viewport_height=6, soft_wrap_lines=soft, resize_reflow=family.reflows, synchronized_output=sync)
    return CheckedRenderer(10, 8, config=config, family=family)


@pytest.mark.parametrize("sync", [True, False], ids=["rows-path", "planner"])
@pytest.mark.parametrize("family", FAMILIES, ids=[family.value for family in FAMILIES])
def test_full_rows_ending_with_a_combining_mark_keep_it_on_their_last_character(
    family: TerminalFamily, sync: bool
) -> None:
    """A streamed row, an inserted row and the composer's row, each as wide as the terminal and ending with a
    combining acute, show it on their last character (tmux and GNU screen put it on the one before)."""
    app = _app(family, sync)
    app.feed([LogAppend("text", "", id="s", final=False)])
    app.feed([LogDelta("s", STREAMED)])
    app.feed([LogDelta("s", " more")])
    app.feed([EditorSet("abcdefe\u0301")])  # after the prompt's two cells: the last one
    shown = app.terminal.screen_lines()
    assert STREAMED in shown and "\u203a abcdefe\u0301" in shown
    app.feed([LogDelta("s", "\n"), LogAppend("text", ACCENTED)])
    assert STREAMED in app.terminal.all_lines() and ACCENTED in app.terminal.all_lines()
    assert app.terminal.autowrap is False


@pytest.mark.parametrize("family", [TerminalFamily.TMUX, TerminalFamily.SCREEN], ids=["tmux", "screen"])
def test_rows_inserted_in_bulk_keep_the_mark_on_their_last_character(family: TerminalFamily) -> None:
    """More rows than the viewport holds, inserted at once (``bulk.stage_blank`` for all but the first chunk),
    each ending with a combining acute at the last column: every one shows it on its last character."""
    app = _app(family, sync=False)
    lines = [f"{index:02d}cdefghie\u0301" for index in range(30)]  # 10 cells each
    app.feed([LogAppend("text", "\n".join(lines))])
    shown = app.terminal.all_lines()
    assert all(line in shown for line in lines)


@pytest.mark.parametrize("after", range(0, 60, 3))
def test_a_write_failing_inside_the_last_cell_leaves_autowrap_off(after: int) -> None:
    """A write that fails anywhere in a frame writing such a row (autowrap on for its last character) is retried
    with autowrap off again: the rows after it are not wrapped, and the row is right."""
    app = _app(TerminalFamily.TMUX, sync=False)
    app.feed([LogAppend("text", "", id="s", final=False)])
    app.step([Fault(after), LogDelta("s", STREAMED)])
    app.feed([])
    assert app.terminal.autowrap is False
    assert STREAMED in app.terminal.screen_lines()
    app.feed([LogDelta("s", " and a longer tail that wraps\n")])
    assert app.terminal.autowrap is False
    assert STREAMED in app.terminal.all_lines() and "tail that" in app.terminal.all_lines()
