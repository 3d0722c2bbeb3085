"""Markdown test helpers shared by the streaming tests: a one-shot rendering and a checked stream of deltas."""

from __future__ import annotations

from inline_render import Config, LogAppend, LogDelta, LogFinish
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.rows import draw_log_rows
from inline_render.testing import CheckedRenderer
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import row_text

__all__ = ["one_shot", "streamed"]


def one_shot(text: str, width: int) -> list[str]:
    """The rows of ``text`` rendered as one final assistant entry."""
    log = LogState(options=RenderOptions()).append("assistant", text)
    rows, _ = log_rows(log, width, WidthPolicy.CODEPOINT)
    return [row_text(row).rstrip(" ") for row in draw_log_rows(rows, width, WidthPolicy.CODEPOINT)]


def streamed(text: str, width: int, sizes: list[int]) -> CheckedRenderer:
    """``text`` streamed as entry ``a`` in deltas of ``sizes`` (cycled), committed text checked after every tick,
    then finished and pushed into scrollback."""
    app = CheckedRenderer(width, 10, config=Config(viewport_height=5), use_pyte=False)
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    position = index = 0
    committed = ""
    while position < len(text):
        size = sizes[index % len(sizes)]
        app.feed([LogDelta("a", text[position : position + size])])
        position, index = position + size, index + 1
        entry = next((entry for entry in app.state.log.entries if entry.id == "a"), None)
        if entry is not None:  # ``entry.base``: where its text starts in the whole (the log trims what is inserted)
            now = entry.text[: entry.committed]
            assert now.startswith(committed[entry.base :]), (committed[entry.base :], now)
            committed = committed[: entry.base] + now
    app.feed([LogFinish("a")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    return app
