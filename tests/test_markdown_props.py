"""Random Markdown streamed in small deltas: emulator properties hold and the stream ends as the one-shot rendering."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_support import one_shot, streamed

from inline_render.testing import strategies


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=strategies.markdown_texts(16),
    width=st.integers(6, 100),
    sizes=st.lists(st.integers(1, 9), min_size=1, max_size=6),
)
def test_random_markdown_streams_into_scrollback_once_as_rendered(text: str, width: int, sizes: list[int]) -> None:
    """Every tick passes the emulator checks; committed text never changes; scrollback ends as the one-shot rows."""
    app = streamed(text, width, sizes)
    want = one_shot(text, width)
    assert app.history[: len(want)] == want
