"""``log.clear`` (``/clear``) keeps what was shown: the rows not in scrollback yet go there before the log resets."""

from __future__ import annotations

import pytest

from inline_render import Config, LogAppend, LogClear, LogDelta, Resize, TerminalFamily
from inline_render.core.log import LogState, log_rows
from inline_render.testing import CheckedRenderer
from inline_render.text.cells import WidthPolicy


def _turns(checked: CheckedRenderer, count: int) -> None:
    for number in range(1, count + 1):
        checked.feed([LogAppend("user", f"question {number}")])
        checked.feed([LogAppend("assistant", f"answer {number}\nits second line {number}")])


def _shown(checked: CheckedRenderer) -> list[str]:
    return [line for line in checked.terminal.scrollback + checked.terminal.screen_lines() if line.strip(" ›")]


@pytest.mark.parametrize("family", [TerminalFamily.SIMPLE, TerminalFamily.TMUX, TerminalFamily.XTERM])
def test_five_turns_then_clear_keep_every_line_once(family: TerminalFamily) -> None:
    """Issue 31, case 7: after five turns at 80x20 and a clear, every line of every turn is in the terminal once,
    in order, and what comes after the clear follows them."""
    checked = CheckedRenderer(80, 20, config=Config(resize_reflow=family.reflows), cursor_row=0, family=family)
    _turns(checked, 5)
    checked.feed([LogClear()])
    checked.feed([LogAppend("assistant", "after the clear")])
    want = []
    for number in range(1, 6):
        want += [f"› question {number}", f"▸ answer {number}", f"  its second line {number}"]
    assert _shown(checked) == [*want, "▸ after the clear"]


def test_a_clear_in_the_middle_of_a_stream_keeps_what_streamed() -> None:
    """A clear while an answer streams: what streamed so far is kept (finished there), later deltas are errors."""
    checked = CheckedRenderer(40, 10, config=Config(), cursor_row=0)
    checked.feed([LogAppend("user", "go")])
    checked.feed([LogAppend("assistant", "", id="a", final=False)])
    checked.feed([LogDelta("a", "first line\nhalf a li")])
    checked.feed([LogClear()])
    checked.feed([Resize(30, 8)])
    shown = _shown(checked)
    assert shown[:3] == ["› go", "▸ first line", "  half a li"]


def test_a_clear_after_the_first_streaming_entry_reached_scrollback_keeps_the_second() -> None:
    """Found by the random machine: two entries still streaming, the first all in scrollback but its newline; the
    clear finished it (which drops it) and then looked for the second at its old index."""
    log = (
        LogState(options=None)
        .append("text", "", entry_id="a", final=False)
        .append("text", "", entry_id="b", final=False)
    )
    log = log.delta(0, "done line\n").delta(1, "second")
    rows, committed = log_rows(log, 40, WidthPolicy.CODEPOINT)
    log = log.advance(tuple(rows[index] for index in range(committed)))
    cleared = log.cleared()
    assert [(piece.entry.text, piece.start, piece.end) for piece in cleared.again] == [("second", 0, 6)]
    assert cleared.entries == () and cleared.flush
