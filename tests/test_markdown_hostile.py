"""Hostile Markdown cannot crash, stall or mislead the UI (issue 33, cases 1 and 12, and its random test).

Deep inline nesting shows its markers past ``blocks.MAX_INLINE_DEPTH`` levels (300 levels of strong emphasis exceeded
Python's recursion limit inside the tick); an exception while rendering one entry shows the rest of that entry as text
under a note (``markdown.guard``), the committed text and the rest of the session kept; a link whose text reads as
another address shows its target.  The random test streams hostile structures (deep nesting, long runs of markers,
huge tables, unmatched openers, long links, long fences) through the four stages at 80x24: no exception escapes and
no delta takes a second of CPU (10,000 cases at full sizes in the long profile, ``INLINE_RENDER_PROFILE=long``; 40 at a
quarter of the sizes by default).  Issue 33 asks for 50 ms a delta: open tables, paragraphs with openers and deep
emphasis meet it in the bench (``md_table``, ``md_open``, ``md_nested``); hostile tables with eight columns of long
cells, deep lists by indentation, paragraphs of backticks that pair across lines and long fences do not yet (up to
0.6 s a delta at the long sizes).
"""

from __future__ import annotations

import os
import random
import time

import pytest
from markdown_support import one_shot, streamed

from inline_render import Config, LogAppend, LogDelta, LogFinish
from inline_render.bench.measure import make_renderer
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.rows import draw_log_rows
from inline_render.markdown import stream as mdview
from inline_render.markdown.blocks import MAX_INLINE_DEPTH, Refs
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import row_text

LONG = os.environ.get("INLINE_RENDER_PROFILE") == "long"
CASES = 10_000 if LONG else 40
STALL_S = 1.0  # CPU seconds of one delta (process time: the machine's load does not count)


def test_300_levels_of_strong_emphasis_render_with_their_text() -> None:
    """``'*' * 600 + 'a' + '*' * 600`` (1,201 bytes) renders, at once and streamed; the levels past the bound show
    their markers (before: RecursionError out of the tick)."""
    text = "*" * 600 + "a" + "*" * 600
    rows = one_shot(text, 80)
    joined = "".join(row[2:] for row in rows)
    assert joined.count("*") == 1200 - 4 * MAX_INLINE_DEPTH and "a" in joined
    app = streamed(text + "\n\nafter\n", 80, [13, 1, 200])
    assert any("after" in row for row in app.history)
    assert "".join(row[2:] for row in app.history).count("*") == joined.count("*")


@pytest.mark.parametrize(
    "text",
    ["_" * 500 + "a" + "_" * 500, "*_" * 300 + "a" + "_*" * 300, "[" * 400 + "a](u)" * 400],
    ids=["underscores", "mixed", "links"],
)
def test_other_deep_inline_nesting_renders(text: str) -> None:
    """Emphasis of ``_``, mixed ``*_`` and nested links, hundreds deep, render without an exception."""
    assert "a" in "".join(one_shot(text, 80))


def test_an_exception_rendering_an_entry_shows_its_text_under_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parser failure on one entry: its committed lines stay, a note line says so, the rest of its text follows as
    text; deltas after it and the next entry render as before."""
    real = mdview.parse

    def failing(source: str, refs: Refs = ()) -> object:
        if "BOOM" in source:
            raise RecursionError("maximum recursion depth exceeded")
        return real(source, refs)

    monkeypatch.setattr(mdview, "parse", failing)
    text = "# Title\n\nfirst **para**\n\nsecond BOOM *x*\nthird line\n\n- item\n"
    app = streamed(text, 80, [5, 17])
    app.feed([LogAppend("assistant", "**bold** after")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    history = [row[2:] for row in app.history]
    start = history.index("Title")
    assert history[start : start + 3] == ["Title", "", "first para"]
    assert history[start + 3 : start + 8] == [
        "\u26a0 Markdown error (RecursionError): shown as text",
        "second BOOM *x*",
        "third line",
        "",
        "- item",
    ]
    assert "bold after" in history


def test_a_link_whose_text_is_another_address_shows_its_target() -> None:
    """With hyperlinks on, ``[https://docs.python.org/](https://evil.example/x)`` shows where it goes; text that is
    not an address, or the same address, shows alone."""

    def shown(source: str) -> str:
        log = LogState(options=RenderOptions(hyperlinks=True)).append("assistant", source)
        rows, _ = log_rows(log, 100, WidthPolicy.CODEPOINT)
        return "".join(row_text(row) for row in draw_log_rows(rows, 100, WidthPolicy.CODEPOINT)).strip()[2:]

    assert shown("[https://docs.python.org/](https://evil.example/x)") == (
        "https://docs.python.org/ (https://evil.example/x)"
    )
    assert shown("[docs.python.org](https://evil.example/x)") == "docs.python.org (https://evil.example/x)"
    assert shown("[the docs](https://docs.python.org/)") == "the docs"
    assert shown("[https://docs.python.org/](https://docs.python.org/)") == "https://docs.python.org/"
    assert shown("<https://docs.python.org/>") == "https://docs.python.org/"


# --- hostile structures --------------------------------------------------------------------------------------------

_MARKERS = ("*", "_", "~", "`", "[", "]", "|", "#", "-", ">", "=", "!", "(", ")", "<", "\\", " ")
_BIG = 1 if LONG else 4  # the default profile divides the sizes: it runs with the rest of the suite


def _deep(rng: random.Random) -> str:
    depth = rng.choice((20, 100, 400, 1500))  # full depth in every profile: it is what crashed the tick
    kind = rng.randrange(6)
    if kind == 0:
        mark = rng.choice(("*", "_", "**", "*_"))
        return mark * depth + "a" + mark[::-1] * depth
    if kind == 1:
        return "> " * depth + "a\n"
    if kind == 2:
        return "".join("  " * level + "- a\n" for level in range(min(depth, 200)))
    if kind == 3:
        return "[" * depth + "a" + "](u)" * depth
    if kind == 4:
        return "".join(">" * level + " - a *b\n" for level in range(min(depth, 200)))
    return "1. " * depth + "a\n"


def _run(rng: random.Random) -> str:
    mark = rng.choice(_MARKERS)
    return mark * (rng.choice((3, 64, 1000, 5000)) // _BIG) + rng.choice(("", "a", "\n", " b\n"))


def _table(rng: random.Random) -> str:
    columns = rng.randint(1, 8)
    cell = rng.choice(("x", "word " * 5, "[a](https://example.com/" + "p" * 300 + ")", "`c|d`", "*e", "**" * 40))
    rows = "".join("| " + " | ".join(cell for _ in range(columns)) + " |\n" for _ in range(rng.randint(1, 400 // _BIG)))
    return "|" + "|".join(f" h{c} " for c in range(columns)) + "|\n|" + "---|" * columns + "\n" + rows


def _openers(rng: random.Random) -> str:
    opener = rng.choice(("*", "_", "~", "`", "[", "~~", "**"))
    return "".join(f"#{i:04d} a {opener} b and some words here\n" for i in range(rng.randint(10, 600 // _BIG)))


def _fence(rng: random.Random) -> str:
    line = rng.choice(("x = 1", "y" * (3000 // _BIG), "```", "~~~ a", "\t" * 50))
    return "```" + rng.choice(("", "python", "text")) + "\n" + (line + "\n") * rng.randint(1, 300 // _BIG)


def hostile_markdown(rng: random.Random) -> str:
    """A few hostile structures joined, sometimes without the blank line that would close the one before."""
    makers = (_deep, _deep, _run, _table, _openers, _fence)  # deep nesting twice as often: it crashed the tick
    parts = [rng.choice(makers)(rng) for _ in range(rng.randint(1, 3))]
    return rng.choice(("", "\n", "\n\n")).join(parts)


def _stream(text: str, rng: random.Random) -> float:
    """``text`` streamed through the four stages at 80x24 in random deltas, then finished; the slowest delta."""
    renderer = make_renderer(80, 24, Config(viewport_height=10, markdown=True, check_invariants=False))
    renderer.feed([LogAppend("assistant", "", "a", final=False)])
    slowest, position = 0.0, 0
    while position < len(text):
        size = rng.choice((1, 7, 40, 200))
        started = time.process_time()
        renderer.feed([LogDelta("a", text[position : position + size])])
        slowest = max(slowest, time.process_time() - started)
        position += size
    renderer.feed([LogFinish("a")])
    renderer.feed([LogAppend("assistant", "**still** rendering")])
    assert "still rendering" in renderer.state.log.entries[-1].text
    return slowest


def test_hostile_markdown_streams_through_the_app_without_an_exception_or_a_stall() -> None:
    """Random hostile Markdown, seeded: nothing escapes the tick, the next entry renders, and no delta stalls the UI
    (a second of CPU at most: the reproducers of issue 33 took minutes; the 50 ms goal is not met by every structure
    yet, see the module docstring)."""
    slow: list[tuple[int, float]] = []
    for seed in range(CASES):
        rng = random.Random(seed)
        slowest = _stream(hostile_markdown(rng), rng)
        if slowest > STALL_S:
            slow.append((seed, round(slowest * 1000, 1)))
    assert not slow, f"deltas over {STALL_S * 1000:.0f} ms (seed, ms): {slow[:20]}"
