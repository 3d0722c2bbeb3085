"""Random Markdown streamed in small deltas: emulator properties hold and the stream ends as the one-shot rendering."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_support import one_shot, streamed

from inline_render.markdown.blocks import Options
from inline_render.markdown.stream import View, view_extend, view_final, view_new
from inline_render.testing import strategies
from inline_render.text import highlight
from inline_render.text.lexing import Budget
from inline_render.text.themes import DEFAULT_THEME

OPTIONS = Options(DEFAULT_THEME)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=strategies.markdown_texts(16),
    width=st.integers(6, 100),
    sizes=st.lists(st.integers(1, 9), min_size=1, max_size=6),
)
# Found by this test: a partial "***" parsed as a thematic break closed the paragraph before it, and "***#" was then
# drawn as a new paragraph after a separator (one-shot: a line of the same paragraph).
@example(text="para with **strong** and `code` and ~~gone~~\n***# heading\n", width=6, sizes=[1])
# Found by tests/test_markdown_long_line.py's test: a pair across a line break settled its first line alone.
@example(text="*# heading\n`***\n# heading\n", width=6, sizes=[1])
def test_random_markdown_streams_into_scrollback_once_as_rendered(text: str, width: int, sizes: list[int]) -> None:
    """Every tick passes the emulator checks; committed text never changes; scrollback ends as the one-shot rows."""
    app = streamed(text, width, sizes)
    want = one_shot(text, width)
    assert app.history[: len(want)] == want


_CODE_LINES = st.sampled_from(
    ["x = 1", "", "\tindented\tline", 'doc = """start', "middle", 'end"""', "/* open", " * close */", "s = 'a", "```",
     "~~~", "  ```c", "def f(a,", "      b):  # c", "[1, 2", "x" * 1100, "#include <a>", "key: |"]
)  # fmt: skip


# A partial opening line (```pyt) names no lexer yet: Pygments then loads its plugins, and an installed IPython's
# import raises the recursion limit (jedi), which Hypothesis reports.
@pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    language=st.sampled_from(["python", "c", "yaml", "js", "text", ""]),  # "": no lexer, plain
    code=st.lists(_CODE_LINES, min_size=8, max_size=80),
    after=st.sampled_from(["", "```\n", "```\nAfter the fence.\n", "``", "more"]),
    cuts=st.lists(st.integers(1, 400), min_size=1, max_size=8),
    limit=st.sampled_from([200_000, 300, 100]),
)
@example(language="python", code=["x = 1"] * 40, after="```\nAfter the fence.\n", cuts=[7, 30], limit=100)  # outgrown
@example(
    language="python", code=['doc = """start', *["middle"] * 12, 'end"""', "y = 2"], after="``", cuts=[3], limit=10**6
)
def test_a_fence_streamed_in_chunks_renders_as_fed_at_once(
    language: str, code: list[str], after: str, cuts: list[int], limit: int
) -> None:
    """A fence streamed in chunks of any size ends as its source fed at once: lines, styles, text, committed offset."""
    text = f"Intro *words*\n\n```{language}\n" + "".join(line + "\n" for line in code) + after
    saved = highlight._BUDGET, highlight._MAX_HIGHLIGHT
    highlight._BUDGET, highlight._MAX_HIGHLIGHT = Budget(seconds=60), limit  # results, not time, are compared
    try:
        view, position, index = view_new(OPTIONS), 0, 0
        while position < len(text):
            size = cuts[index % len(cuts)]
            view = view_extend(view, text[position : position + size])
            position, index = position + size, index + 1
        whole = view_final(view_extend(view_new(OPTIONS), text))
        view = view_final(view)
    finally:
        highlight._BUDGET, highlight._MAX_HIGHLIGHT = saved
    assert (view.text, view.committed) == (whole.text, whole.committed)
    assert [_drawn(view, i) for i in range(view.count)] == [_drawn(whole, i) for i in range(whole.count)]


def _drawn(view: View, index: int) -> tuple[object, ...]:
    line = view.line(index)[0]
    return line.text, line.prefix, line.cont, line.runs, line.wrap
