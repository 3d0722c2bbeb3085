"""A Markdown answer's partial line longer than ``mdview.LONG_OPEN_LINE`` is shown verbatim until its newline
(issue 14's flood: parsing it per delta cost its length per delta), and scrollback still gets it rendered once."""

from __future__ import annotations

import random
from unittest import mock

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_support import one_shot, streamed

from inline_render import Config, LogAppend, LogDelta, LogFinish
from inline_render.core.log import LogState, RenderOptions
from inline_render.markdown import stream as mdview
from inline_render.markdown.blocks import Refs
from inline_render.testing import CheckedRenderer, strategies


def test_a_long_partial_line_is_parsed_once_at_its_newline() -> None:
    """A 40 K-character line streamed in 1 K deltas is never given to the parser before its newline (it was, whole,
    per delta), shows its source meanwhile, and reaches scrollback rendered (its ``**`` pair made bold)."""
    words = "".join(f"word{number} " for number in range(6000))[:40_000]
    text = "Intro line.\n**" + words + "**\n\nAfter.\n"
    parsed: list[int] = []
    real = mdview.parse

    def counting(source: str, refs: Refs = ()) -> object:
        parsed.append(len(source))
        return real(source, refs)

    app = CheckedRenderer(80, 10, config=Config(viewport_height=5), use_pyte=False)
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    shown_raw = False
    with mock.patch.object(mdview, "parse", counting):
        for position in range(0, len(text), 1000):
            app.feed([LogDelta("a", text[position : position + 1000])])
            entry = app.state.log.entries[-1]
            shown_raw = shown_raw or "**word0 " in entry.text
    assert shown_raw  # while partial, the line was shown as its source
    whole = [size for size in parsed if size > mdview.LONG_OPEN_LINE + 1000]
    assert len(whole) <= 2, whole  # the line parsed when its newline came (and once more with the next block)
    app.feed([LogFinish("a")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    want = one_shot(text, 80)
    assert app.history[: len(want)] == want
    assert not any("**" in row for row in want)  # rendered: the pair is bold, its markers gone


def test_the_long_answer_streams_as_rendered_with_a_tiny_limit() -> None:
    """With the limit at 3 characters every partial line takes the verbatim path: random 1-9 character deltas of
    a long answer with every construct still end in scrollback as the one-shot rendering, once."""
    rng = random.Random(14)
    text = "".join(
        rng.choice(["# Title\n\n", "Some *emph* and `code` text here.\n", "- item one\n- item two\n\n",
                    "```python\nx = 1\n```\n\n", "| a | b |\n|---|---|\n| 1 | 2 |\n\n", "> quoted\n\n", "\n"])
        for _ in range(40)
    )  # fmt: skip
    with mock.patch.object(mdview, "LONG_OPEN_LINE", 3):
        app = streamed(text, 40, [rng.randint(1, 9) for _ in range(20)])
        want = one_shot(text, 40)
    assert app.history[: len(want)] == want


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=strategies.markdown_texts(16),
    width=st.integers(6, 100),
    sizes=st.lists(st.integers(1, 9), min_size=1, max_size=6),
    limit=st.integers(0, 6),
)
# Found by this test: the heading's rows inserted, the separator before the empty code block (an empty last row
# of the view, at the end of its text) was dropped with the entry when it finished.
@example(text="# heading\n```python\n", width=6, sizes=[1], limit=0)
# Found by this test (a longer run): the first line's ``*`` paired with a ``*`` of the second, so the first line
# settled, and the second, parsed again after the stand-in line without its opener, was committed as ``\`***``.
@example(text="*# heading\n`***\n# heading\n", width=6, sizes=[1], limit=0)
def test_random_markdown_with_verbatim_partial_lines_streams_as_rendered(
    text: str, width: int, sizes: list[int], limit: int
) -> None:
    """Random Markdown with a limit of 0-6 characters: every tick passes the emulator checks, committed text never
    changes, and scrollback ends as the one-shot rows (the verbatim lines never reach it)."""
    with mock.patch.object(mdview, "LONG_OPEN_LINE", limit):
        app = streamed(text, width, sizes)
        want = one_shot(text, width)
    assert app.history[: len(want)] == want


def test_a_held_back_last_line_is_rendered_when_the_answer_ends() -> None:
    """An answer ending in a lone list marker (held back while partial): finishing renders it, as the one-shot
    rendering of the same text does (the marker was dropped from both before)."""
    log = LogState(options=RenderOptions()).append("assistant", "", entry_id="a", final=False)
    log = log.delta(0, "Some text.\n\n-")
    assert "- " not in log.entries[0].text  # held back while it may still become "-x" or "**"
    finished = log.finish(0).entries[0].text
    assert finished.endswith("- ")
    assert finished == LogState(options=RenderOptions()).append("assistant", "Some text.\n\n-").entries[0].text


def test_a_partial_line_of_unicode_spaces_keeps_the_committed_lines() -> None:
    """Found by the property test above: a partial line of U+3000 only (trimmed from the paragraph by the parser)
    made an open paragraph's settled lines count as unsettled, so committed text shrank."""
    log = LogState(options=RenderOptions()).append("assistant", "", entry_id="a", final=False)
    log = log.delta(0, "- item\nTitle\n===\n")
    entry = log.entries[0]
    before = entry.text[: entry.committed]
    assert before == "- item\n  Title\n"
    entry = log.delta(0, "\u3000").entries[0]
    assert entry.text[: entry.committed] == before
