"""The bulk insertion path (bulk.py) writes exactly what the per-row path wrote (issue 14's flood)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inline_render.bench.measure import CountingSink, make_renderer
from inline_render.bench.workloads import markdown_text
from inline_render.core import planner
from inline_render.core.bulk import draw_insert_rows
from inline_render.core.layout import Layout
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.ops import HIDE_CURSOR
from inline_render.core.rows import draw_log_row, draw_log_rows
from inline_render.core.state import Config
from inline_render.inputs import Input, LogAppend, LogDelta, LogFinish, Resize
from inline_render.text.cells import WidthPolicy
from inline_render.text.themes import THEMES

_PIECES = ["alpha ", "beta\n", "\n", "   \n", "gamma delta ", "日本語の文 ", "e\u0301 ", "👍🏽 ", "x" * 90, "\t"]
_PIECES += ["- a\n", "+ b\n"]


def _text(rng: random.Random, size: int) -> str:
    out: list[str] = []
    while sum(map(len, out)) < size:
        out.append(rng.choice(_PIECES))
    return "".join(out)


def _per_row_insert(self: planner.Planner, layout: Layout) -> None:
    """``Planner.insert`` as it was before the bulk path: every row drawn by ``draw_log_rows`` and staged by
    ``update_row`` (the reference the bulk path must equal byte for byte)."""
    options = self.state.log.options
    theme = options.theme if options is not None else None
    rows = draw_log_rows(layout.to_insert, self.columns, self.policy, theme)
    if not rows:
        return
    self.moved = True
    if self.visible is not False:
        self.ops.append(HIDE_CURSOR)
        self.visible = False
    self.hide_before_change = False
    height = self.height
    position = 0
    while position < len(rows):
        count = min(len(rows) - position, height)
        for index in range(count):
            # The first chunk goes on the viewport's rows, which a resize may have re-wrapped: erased and written
            # whole; the later ones on the rows its line feeds left blank.
            self.update_row(index, rows[position + index], whole=not position)
        self.push_staged(count)
        position += count


def _flood_bytes(
    inputs: list[list[Input]], columns: int, rows: int, height: int, per_row: bool, markdown: bool = False
) -> bytes:
    sink = CountingSink(keep=True)
    renderer = make_renderer(columns, rows, Config(viewport_height=height, markdown=markdown), sink)
    saved = planner.Planner.insert
    if per_row:
        planner.Planner.insert = _per_row_insert  # type: ignore[method-assign]
    try:
        for batch in inputs:
            renderer.feed(batch)
    finally:
        planner.Planner.insert = saved  # type: ignore[method-assign]
    assert sink.data is not None
    return bytes(sink.data)


@pytest.mark.parametrize(("columns", "rows", "height"), [(80, 24, 10), (20, 6, 4), (3, 5, 3), (40, 4, 4), (1, 3, 2)])
def test_a_flood_writes_the_same_bytes_through_the_bulk_path(columns: int, rows: int, height: int) -> None:
    """Large batches of wide, combining, blank, tabbed and over-long lines in several kinds, with a resize in
    between: the bulk path writes the bytes of the per-row path, at several sizes (a viewport as tall as the
    screen and 1-3 columns included)."""
    rng = random.Random(columns * 100 + rows)
    batches: list[list[Input]] = []
    for number, kind in enumerate(["assistant", "text", "diff", "tool", "user"]):
        entry = f"e{number}"
        batches.append([LogAppend(kind, "", entry, final=False)])
        for _ in range(6):
            batches.append([LogDelta(entry, _text(rng, rng.randint(1, 4000)))])
        if number == 2:
            batches.append([Resize(max(1, columns - 1), rows)])
        batches.append([LogFinish(entry)])
        batches.append([LogAppend(kind, _text(rng, 3000))])
    bulk = _flood_bytes(batches, columns, rows, height, per_row=False)
    assert bulk == _flood_bytes(batches, columns, rows, height, per_row=True)
    assert len(bulk) > 10_000  # the batches inserted many chunks of rows: the bulk path ran


@pytest.mark.parametrize(("columns", "rows", "height"), [(80, 24, 10), (20, 6, 4), (3, 5, 3), (1, 3, 2)])
def test_a_markdown_flood_writes_the_same_bytes_through_the_bulk_path(columns: int, rows: int, height: int) -> None:
    """A Markdown answer (every block kind: headings, lists, code, tables, links) and a diff, streamed in large
    batches with a resize in between: the bulk path draws rendered rows and writes the per-row path's bytes."""
    rng = random.Random(columns * 7 + rows)
    batches: list[list[Input]] = [[LogAppend("assistant", "", "md", final=False)]]
    answer = markdown_text(rng, 30_000)
    for position in range(0, len(answer), 5000):
        batches.append([LogDelta("md", answer[position : position + 5000])])
        if position == 10_000:
            batches.append([Resize(max(1, columns - 2), rows)])
    batches.append([LogFinish("md")])
    batches.append([LogAppend("diff", "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n" * 40)])
    bulk = _flood_bytes(batches, columns, rows, height, per_row=False, markdown=True)
    assert bulk == _flood_bytes(batches, columns, rows, height, per_row=True, markdown=True)
    assert len(bulk) > 10_000  # the batches inserted many chunks of rows: the bulk path ran


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(
        st.text(alphabet=st.sampled_from("ab \n\u0301日👍\u200b-+@*`#>|"), max_size=200), min_size=1, max_size=4
    ),
    kinds=st.lists(st.sampled_from(["assistant", "text", "diff", "status", "nope"]), min_size=4, max_size=4),
    width=st.integers(1, 30),
    policy=st.sampled_from(list(WidthPolicy)),
    themed=st.booleans(),
    markdown=st.booleans(),
)
def test_bulk_drawn_rows_equal_the_rows_drawn_one_by_one(
    texts: list[str], kinds: list[str], width: int, policy: WidthPolicy, themed: bool, markdown: bool
) -> None:
    """``draw_insert_rows`` gives ``draw_log_row`` of every row (the same cells and styles), whatever the kind,
    width, width policy and theme, for text shown verbatim and rendered (Markdown, diff views)."""
    theme = next(iter(THEMES.values())) if themed else None
    options = RenderOptions(markdown=markdown, theme=theme) if theme is not None else RenderOptions(markdown=markdown)
    log = LogState(options=options if markdown or theme is not None else None)
    for text, kind in zip(texts, kinds, strict=False):
        log = log.append(kind, text)
    rows = list(log_rows(log, width, policy)[0])
    drawn = draw_insert_rows(rows, width, policy, theme)
    assert drawn == [draw_log_row(row, width, policy, theme) for row in rows]
