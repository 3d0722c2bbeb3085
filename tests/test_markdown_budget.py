"""A delta to an open Markdown block costs what changed, not the block: long tables, paragraphs, fences (issue 33).

A long table commits row by row once the rows that fix its column widths are in (``blocks.WIDTH_ROWS``), its tail
parsed after a stand-in of those rows; an open paragraph's line with an unmatched opener waits for its closer through
at most ``blocks.WAIT_LINES`` lines; an open fence's final code lines are stable, its tail parsed after its opening
line and highlighted on from where they end (case 10).  These tests count what a delta hands the parser after a
short and a long construct, check the streamed rows against the one-shot rendering, and bound the time of the
reproducers that took minutes (a generous bound: they take about a second now).
"""

from __future__ import annotations

import time

import pytest
from markdown_support import one_shot, streamed

from inline_render import Config, LogAppend, LogDelta, LogFinish
from inline_render.bench.measure import make_renderer
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.rows import draw_log_rows
from inline_render.markdown import stream as mdview
from inline_render.markdown.blocks import WAIT_LINES, WIDTH_ROWS, Options, Refs
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import row_text
from inline_render.text.themes import DEFAULT_THEME

_OPTIONS = Options(DEFAULT_THEME)
_HEAD = "| name | value | note |\n|:-----|------:|:----:|\n"


def _row(index: int) -> str:
    return f"| row {index:05d} | {index * 37 % 1000} | {'word ' * (index % 7)}|\n"


def _para(index: int) -> str:
    return f"#{index:04d} a * b and some words here\n"


def _parsed_by_next_delta(prefix: str, delta: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Characters handed to the Markdown parser by ``delta`` after ``prefix`` was streamed line by line."""
    view = mdview.view_new(_OPTIONS)
    for line in prefix.splitlines(keepends=True):
        view = mdview.view_extend(view, line)
    parsed: list[int] = []
    real = mdview.parse

    def counting(source: str, refs: Refs = ()) -> object:
        parsed.append(len(source))
        return real(source, refs)

    monkeypatch.setattr(mdview, "parse", counting)
    mdview.view_extend(view, delta)
    monkeypatch.setattr(mdview, "parse", real)
    return sum(parsed)


def test_a_delta_to_a_long_open_table_parses_as_much_as_to_a_short_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """After 2,000 rows a new row parses the width rows' stand-in and the new row, as after 100 (before: all)."""
    few = _parsed_by_next_delta(_HEAD + "".join(_row(i) for i in range(100)), _row(100), monkeypatch)
    many = _parsed_by_next_delta(_HEAD + "".join(_row(i) for i in range(2000)), _row(2000), monkeypatch)
    assert many <= few + 2 * len(_row(2000))
    assert many < (WIDTH_ROWS + 8) * len(_row(2000))


def test_a_delta_to_an_open_paragraph_with_openers_parses_a_bounded_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines holding an unmatched ``*`` no longer keep the whole paragraph open: 2,400 lines parse as 100 do."""
    few = _parsed_by_next_delta("".join(_para(i) for i in range(100)), _para(100), monkeypatch)
    many = _parsed_by_next_delta("".join(_para(i) for i in range(2400)), _para(2400), monkeypatch)
    assert many <= few + 8
    assert many < (WAIT_LINES + 4) * len(_para(2400))


def _code(count: int) -> str:
    lines = "".join(f"value_{i:05d} = compute({i:05d}, 'x')  # step\n" for i in range(count))
    return "Some code:\n\n```python\n" + lines


def _streamed_view(text: str) -> mdview.View:
    view = mdview.view_new(_OPTIONS)
    for line in text.splitlines(keepends=True):
        view = mdview.view_extend(view, line)
    return view


def test_a_delta_to_a_long_open_fence_parses_as_much_as_to_a_short_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """After 3,000 code lines a new line parses the fence's opening line and its last lines, as after 100 (not all)."""
    line = "value_99999 = compute(99999, 'x')  # step\n"
    few = _parsed_by_next_delta(_code(100), line, monkeypatch)
    many = _parsed_by_next_delta(_code(3000), line, monkeypatch)
    assert many <= few
    assert many < 8 * len(line)


def test_a_delta_to_an_open_fence_renders_only_its_last_lines() -> None:
    """A delta to an open fence keeps its final code lines' objects and renders its last few (not every line again)."""
    view = _streamed_view(_code(200))
    after = mdview.view_extend(view, "tail = 1\n")
    count = view.count
    kept = sum(1 for index in range(count) if view.line(index)[0] is after.line(index)[0])
    assert kept >= count - 4, (kept, count)
    assert after.text.startswith(view.text)


def committed_lines(source: str, width: int = 60) -> list[str]:
    """The committed rows of a streaming assistant entry holding ``source``."""
    log = LogState(options=RenderOptions()).append("assistant", source, "a", final=False)
    rows, committed = log_rows(log, width, WidthPolicy.CODEPOINT)
    return [row_text(row).rstrip(" ") for row in draw_log_rows(rows[:committed], width, WidthPolicy.CODEPOINT)]


def test_a_long_table_commits_its_complete_rows_before_it_ends() -> None:
    """Past the width rows, every complete row commits; a short table still waits for its end."""
    short = _HEAD + "".join(_row(i) for i in range(WIDTH_ROWS - 1))
    assert committed_lines(short) == []
    long = _HEAD + "".join(_row(i) for i in range(WIDTH_ROWS + 5)) + "| row par"
    committed = committed_lines(long)
    assert len(committed) == WIDTH_ROWS + 5 + 2  # the header, the rule and every complete row
    assert "row 00036" in committed[-1]


def test_a_line_with_an_unmatched_opener_waits_a_bounded_number_of_lines() -> None:
    """``a *b`` waits for a closer while at most ``WAIT_LINES`` lines follow it, then commits as shown."""
    lines = "".join(f"line {i}\n" for i in range(WAIT_LINES))
    assert committed_lines("a *b\n" + lines) == []
    assert committed_lines("a *b\n" + lines + "one more\n")[:1] == ["\u25b8 a *b"]


@pytest.mark.parametrize("width", [24, 60, 100])
def test_a_long_table_streams_into_scrollback_as_rendered_at_once(width: int) -> None:
    """A 90-row table with rows wider than the width rows, streamed in small deltas, ends as its one-shot rows."""
    body = "".join(_row(i) if i % 40 else f"| wide {'x' * (i // 4)} | {i} | y |\n" for i in range(90))
    text = "Intro line\n\n" + _HEAD + body + "\nAfter the table.\n"
    app = streamed(text, width, [7, 30, 3])
    want = one_shot(text, width)
    assert app.history[: len(want)] == want


def test_a_long_paragraph_with_openers_streams_into_scrollback_as_rendered_at_once() -> None:
    """Openers closed within the window pair as at once; the lines that waited settle as they were shown."""
    text = "".join(f"line *{i}* and _{i} b_ `c\n" if i % 3 else f"line {i} **x\nand y** z\n" for i in range(60))
    app = streamed(text + "\n", 50, [11, 2, 40])
    want = one_shot(text + "\n", 50)
    assert app.history[: len(want)] == want


def _through_the_renderer(lines: list[str]) -> float:
    renderer = make_renderer(80, 24, Config(viewport_height=10, markdown=True, check_invariants=False))
    renderer.feed([LogAppend("assistant", "", "a", final=False)])
    started = time.process_time()
    for line in lines:
        renderer.feed([LogDelta("a", line)])
    renderer.feed([LogFinish("a")])
    return time.process_time() - started


def test_a_600_row_table_streams_in_seconds_not_minutes() -> None:
    """Issue 33's table, one row per delta through the four stages at 80x24: it took 300 s through the demo."""
    assert _through_the_renderer([_HEAD, *(_row(i) for i in range(600))]) < 30


def test_an_open_paragraph_of_2400_lines_with_openers_streams_in_seconds() -> None:
    """Issue 33's paragraph (2,400 lines ``#NNNN a * b ...``, 77 KB): it took 153 s through the demo."""
    assert _through_the_renderer([_para(i) for i in range(2400)]) < 30
