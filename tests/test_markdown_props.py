"""Random Markdown streamed in small deltas: emulator properties hold and the stream ends as the one-shot rendering."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from markdown_support import one_shot, streamed

from inline_render.testing import strategies


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
