"""A whole answer resent with other spacing continues the committed text where its words end (found by the
codelia storm: the UI joins streamed parts with a blank line, the runtime's ``final`` joins them otherwise)."""

from __future__ import annotations

import pytest
from realterm.app import rendered_lines
from realterm.checker import TerminalText, check
from realterm.lines import answers, codelia_answer

from inline_render import Config, LogAppend, LogDelta, LogFinish, LogReplace
from inline_render.testing import CheckedRenderer
from inline_render.text.align import continued_at, started_at


def test_continued_at_maps_an_offset_across_other_whitespace() -> None:
    """The offset after the kept words, whatever whitespace runs separate them; unchanged when the words differ."""
    assert continued_at("a b\n\n\n\nc\n\n", "a b\n\nc\n\nd") == len("a b\n\nc\n\n")
    assert continued_at("a b", "a b c") == 3
    assert continued_at("a x", "a b c") == 3  # other words: the old offset
    assert continued_at("b c", "a b c d", 2) == 5
    assert continued_at("y z\n", "x\n\ny z\n\nw", 9) == len("x\n\ny z\n\n")  # found by its last words
    assert started_at("y z", "x\n\ny z", 6) == 3 and started_at("q", "x y", 1) == 1


# Seeds of the codelia storm that lost a line before: 1 (the closing quote: the kept part's end), 4 (the view had
# dropped the start of its source, so the new text was cut at the old text's offset), 18 (nothing of the view's
# source was committed, so only its start tells where it continues).
@pytest.mark.parametrize(("seed", "columns"), [(1, 80), (4, 90), (18, 90)])
def test_a_final_answer_with_other_spacing_loses_and_repeats_nothing(seed: int, columns: int) -> None:
    """The codelia storm's answer, as the transcript streams its parts (each joined by a blank line) and then the
    runtime's ``final`` (the parts joined otherwise): every line of it once, none cut."""
    texts = answers(seed, 80)
    blocks = [block for text in texts for block in text.rstrip("\n").split("\n\n")]
    checked = CheckedRenderer(columns, 24, config=Config(), cursor_row=0)
    checked.feed([LogAppend("assistant", blocks[0] + "\n\n", id="a", final=False)])
    for block in blocks[1:]:
        checked.feed([LogDelta("a", "\n\n" + block + "\n\n")])
    checked.feed([LogReplace("a", codelia_answer(texts))])
    checked.feed([LogFinish("a")])
    verdict = check(
        TerminalText(tuple(checked.terminal.all_lines())), rendered_lines((("assistant", codelia_answer(texts)),))
    )
    assert verdict.ok and verdict.found == verdict.expected and not verdict.cut, verdict.summary()
