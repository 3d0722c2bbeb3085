"""A shrink that pushes rows the Markdown commit rule still holds back: they count as inserted, never again."""

from __future__ import annotations

import pytest

from inline_render import Config, LogAppend, LogDelta, LogFinish, Resize, TerminalFamily
from inline_render.core.log import LogState, RenderOptions
from inline_render.testing import CheckedRenderer

ANSWER = "".join(f"Line {i} of a long answer.\n" for i in range(1, 21))


def _stream_with_a_shrink(family: TerminalFamily) -> list[str]:
    """Issue 31's case 1: an answer streamed in 4-character deltas, the terminal shrunk from 50x15 to 50x8 while
    "Line 3" is the paragraph's last complete line (held back: the next line could make it a table header)."""
    # The config the shell gives each terminal: GNU screen's text goes in soft-wrapped (``soft_wrap_lines``).
    config = Config(soft_wrap_lines=family is TerminalFamily.SCREEN, resize_reflow=family.reflows)
    checked = CheckedRenderer(50, 15, config=config, cursor_row=0, family=family)
    checked.feed([LogAppend("user", "go")])
    checked.feed([LogAppend("assistant", "", id="a", final=False)])
    cut = ANSWER.index("Line 4 of") + 5
    for k in range(0, cut, 4):
        checked.feed([LogDelta("a", ANSWER[k : min(k + 4, cut)])])
    checked.feed([Resize(50, 8)])
    for k in range(cut, len(ANSWER), 4):
        checked.feed([LogDelta("a", ANSWER[k : k + 4])])
    checked.feed([LogFinish("a")])
    return [line.strip(" ▸") for line in checked.terminal.scrollback + checked.terminal.screen_lines()]


@pytest.mark.parametrize("family", list(TerminalFamily), ids=lambda f: f.value)
def test_a_held_markdown_line_pushed_by_a_shrink_is_shown_once(family: TerminalFamily) -> None:
    """Every line of the answer is in the terminal exactly once and in order after the shrink, on every model."""
    shown = [line for line in _stream_with_a_shrink(family) if line.startswith("Line ")]
    every = [f"Line {i} of a long answer." for i in range(1, 21)]
    if family is TerminalFamily.SCREEN:
        # GNU screen keeps in reach only the history rows line feeds scrolled in: the rows its own shrink pushed
        # are out of reach, for printf's text as for ours (README, Known limits).  What it shows is the answer's
        # end, each line once and in order.
        assert shown == every[len(every) - len(shown) :]
        return
    assert shown == every


def test_a_freeze_settles_the_held_paragraph_lines_and_keeps_the_text() -> None:
    """``LogState.freeze`` up to the held line commits it, with the same display text, and the paragraph goes on."""
    log = LogState(options=RenderOptions()).append("assistant", "", entry_id="a", final=False)
    log = log.delta(0, "one\ntwo\nthree\nfo")
    entry = log.entries[0]
    held = entry.committed
    assert entry.text[:held] == "one\ntwo\n"  # "three" waits: "fo..." could still be a delimiter row
    row = type("Row", (), {})  # a stand-in with what freeze reads: the entry and the end of the pushed row
    row.entry, row.end = entry, entry.text.index("three") + len("three")
    frozen = log.freeze(row)  # type: ignore[arg-type]
    assert frozen.entries[0].text == entry.text
    assert frozen.entries[0].committed >= entry.text.index("three") + len("three")
    more = frozen.delta(0, "ur\nfive\n")
    assert more.entries[0].text.startswith("one\ntwo\nthree\nfour\nfive")
