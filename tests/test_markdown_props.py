"""Random Markdown streamed in small deltas: emulator properties hold and the stream ends as the one-shot rendering."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inline_render import Config, LogAppend, LogDelta, LogFinish
from inline_render.log import LogState, RenderOptions, log_rows
from inline_render.style import row_text
from inline_render.testing import CheckedRenderer, strategies
from inline_render.text import WidthPolicy
from inline_render.theme import draw_log_rows


def one_shot(text: str, width: int) -> list[str]:
    """The rows of ``text`` rendered as one final assistant entry."""
    log = LogState(options=RenderOptions()).append("assistant", text)
    rows, _ = log_rows(log, width, WidthPolicy.CODEPOINT)
    return [row_text(row).rstrip(" ") for row in draw_log_rows(rows, width, WidthPolicy.CODEPOINT)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=strategies.markdown_texts(16),
    width=st.integers(6, 100),
    sizes=st.lists(st.integers(1, 9), min_size=1, max_size=6),
)
def test_random_markdown_streams_into_scrollback_once_as_rendered(text: str, width: int, sizes: list[int]) -> None:
    """Every tick passes the emulator checks; committed text never changes; scrollback ends as the one-shot rows."""
    app = CheckedRenderer(width, 10, config=Config(viewport_height=5), use_pyte=False)
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    position = index = 0
    committed = ""
    while position < len(text):
        size = sizes[index % len(sizes)]
        app.feed([LogDelta("a", text[position : position + size])])
        position, index = position + size, index + 1
        entry = next((entry for entry in app.state.log.entries if entry.id == "a"), None)
        if entry is not None:
            now = entry.text[: entry.committed]
            assert now.startswith(committed), (committed, now)
            committed = now
    app.feed([LogFinish("a")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    want = one_shot(text, width)
    assert app.history[: len(want)] == want
