"""The shortcuts the performance work relies on give the results of the plain computations they replace."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import FrozenInstanceError, dataclass, replace
from typing import Any

import pytest
import wcwidth
from hypothesis import given, settings
from hypothesis import strategies as st

from inline_render.core import log as log_module
from inline_render.core import wrap as wrap_module
from inline_render.core.app import AppState
from inline_render.core.effects import Projection
from inline_render.core.evolve import evolve, fast_init
from inline_render.core.layout import Frame, Layout
from inline_render.core.log import LogRow, LogState, RenderOptions, entry_rows, log_rows
from inline_render.core.rows import draw_log_row, draw_log_rows
from inline_render.inputs import Input, LogAppend, LogDelta
from inline_render.text import cells as text_module
from inline_render.text import style as style_module
from inline_render.text.cells import WidthPolicy, grapheme_width, wrap_line
from inline_render.text.roles import DIM
from inline_render.text.style import DEFAULT, Row, Segment, clip_row, row_width

# Pieces that exercise the wrap: spaces, long words, wide and zero-width clusters, newlines, tabs.
PIECES = [
    "a",
    "bc",
    " ",
    "  ",
    "word ",
    "xyzzyx",
    "\n",
    "\n\n",
    "\t",
    "漢",
    "😀",
    "e\u0301",
    "\u0301",
    "🇫🇷",
    "\u200d",
    "\ufe0f",
]
texts = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)
# What reaches the wrap in a log or composer line: sanitized, tabs expanded, no newline.
lines = texts.map(lambda text: text.replace("\n", "").replace("\t", "    "))
policies = st.sampled_from(list(WidthPolicy))
kinds = st.sampled_from(["text", "assistant", "tool", "diff", "user"])
widths = st.integers(1, 30)


def _wrap(line: str, width: int, policy: WidthPolicy) -> tuple[int, ...]:
    return text_module._wrap(line, max(1, width), policy)  # wrapped whole: no cache, no reuse


@given(lines, lines, widths, policies)
def test_appending_keeps_every_row_of_a_line_but_its_last(
    line: str, more: str, width: int, policy: WidthPolicy
) -> None:
    """Greedy wrapping is stable under appends: streamed rows are re-wrapped from the old last row only."""
    before = _wrap(line, width, policy)
    after = _wrap(line + more, width, policy)
    assert after[: len(before) - 1] == before[:-1]


@given(lines, widths, policies)
def test_wrapping_the_rest_of_a_line_from_a_row_start_gives_the_same_rows(
    line: str, width: int, policy: WidthPolicy
) -> None:
    """Greedy wrapping has no memory across a row boundary: the rest of a line wraps alike from any row start."""
    ends = _wrap(line, width, policy)
    for index in range(1, len(ends)):
        start = ends[index - 1]
        assert tuple(start + end for end in _wrap(line[start:], width, policy)) == ends[index:]


edits = st.lists(
    st.one_of(
        st.tuples(st.just("delta"), texts),
        st.tuples(st.just("replace"), texts),
        st.tuples(st.just("width"), widths),
        st.tuples(st.just("insert"), st.integers(1, 5)),
    ),
    max_size=40,
)


@settings(max_examples=300)
@given(kinds, policies, widths, edits, st.booleans())
def test_streaming_rows_equal_the_rows_wrapped_whole(
    kind: str, policy: WidthPolicy, width: int, steps: list[tuple[str, object]], cells: bool
) -> None:
    """The incremental rows of a streaming entry equal its rows wrapped from scratch after every edit, words
    wrapped or cells (``RenderOptions.wrap_cells``, GNU screen)."""
    options = RenderOptions(markdown=False, wrap_cells=True) if cells else None  # None: every kind verbatim
    log = LogState(options=options).append(kind, "", "s1", final=False)
    for action, value in steps:
        if action == "delta":
            log = log.delta(0, str(value))
        elif action == "replace":
            log = log.replace_text(0, str(value))
        elif action == "width":
            width = int(str(value))
        else:
            rows, committed = log_rows(log, width, policy)
            log = log.advance(rows[: min(committed, int(str(value)))])
        if not log.entries:
            return
        incremental, _ = log_rows(log, width, policy)
        wrap_module._STREAMS.clear()
        log_module._LAST_ROWS.clear()
        assert entry_rows(log.entries[0], log.head, width, policy, cells) == tuple(incremental)


@given(kinds, texts, st.integers(1, 40), policies)
def test_drawn_log_rows_fit_the_width_and_need_no_clipping(
    kind: str, text: str, width: int, policy: WidthPolicy
) -> None:
    """Log rows are drawn to fit (the frame does not clip them again); the batch draw equals the single one."""
    log = LogState().append(kind, text)
    rows, _ = log_rows(log, width, policy)
    drawn = draw_log_rows(rows, width, policy)
    assert drawn == [draw_log_row(row, width, policy) for row in rows]
    for row in drawn:
        assert row_width(row, policy) <= width
        assert clip_row(row, width, policy) == row


plain = texts.map(lambda text: text.replace("\n", "").replace("\t", ""))
segments = st.builds(Segment, plain, st.sampled_from([DEFAULT, DIM]))


@given(st.lists(segments, max_size=4).map(tuple), st.integers(1, 30), policies)
def test_clip_row_keeps_a_fitting_row_exactly_when_clipping_would(row: Row, width: int, policy: WidthPolicy) -> None:
    """clip_row's shortcut for rows that fit returns what clipping segment by segment returns."""
    ascii_fit = sum(len(s.text) for s in row) <= width and all(s.text.isascii() for s in row)
    assert clip_row(row, width, policy) == (row if ascii_fit else style_module._clip(row, width, policy))


@settings(max_examples=300)
@given(texts, widths, policies, st.lists(st.tuples(st.integers(0, 3), texts, st.integers(0, 40)), max_size=30))
def test_long_lines_edited_anywhere_wrap_as_if_wrapped_whole(
    line: str, width: int, policy: WidthPolicy, edits: list[tuple[int, str, int]]
) -> None:
    """wrap_line's reuse of the previous long line's rows gives the rows of a fresh wrap, for any edit."""
    line = line.replace("\n", "")
    for action, piece, where in edits:
        piece = piece.replace("\n", "")
        at = min(where, len(line))
        if action == 0:
            line += piece
        elif action == 1:
            line = line[: max(0, len(line) - where % 4)]
        elif action == 2:
            line = line[:at] + piece + line[at:]
        else:
            line = line[:at] + line[at + 2 :]
        assert wrap_line.__wrapped__(line, width, policy) == _wrap(line, width, policy)


@settings(max_examples=300)
@given(texts, policies, st.lists(st.tuples(st.integers(0, 3), texts, st.integers(0, 40)), max_size=30))
def test_text_widths_measured_after_an_edit_equal_the_widths_measured_whole(
    text: str, policy: WidthPolicy, edits: list[tuple[int, str, int]]
) -> None:
    """text_width's reuse of the previous text's clusters gives the sum over a fresh segmentation, for any edit."""
    text = text.replace("\n", "")
    for action, piece, where in edits:
        piece = piece.replace("\n", "")
        at = min(where, len(text))
        if action == 0:
            text += piece
        elif action == 1:
            text = text[: max(0, len(text) - where % 4)]
        elif action == 2:
            text = text[:at] + piece + text[at:]
        else:
            text = text[:at] + text[at + 2 :]
        fresh = sum(grapheme_width(cluster, policy) for cluster in wcwidth.iter_graphemes(text))
        assert text_module._cached_width.__wrapped__(text, policy) == fresh


def test_fast_init_builds_what_the_dataclass_init_builds() -> None:
    """fast_init's __init__ takes the same arguments and defaults and sets the same fields as the generated one."""

    @dataclass(frozen=True, slots=True)
    class Plain:
        a: int
        b: str = "b"
        c: tuple[int, ...] = ()

    @fast_init
    @dataclass(frozen=True, slots=True)
    class Fast:
        a: int
        b: str = "b"
        c: tuple[int, ...] = ()

    for args, kwargs in [((1,), {}), ((1, "x"), {}), ((), {"a": 2, "c": (3,)}), ((4,), {"b": "y"})]:
        plain, fast = Plain(*args, **kwargs), Fast(*args, **kwargs)  # type: ignore[arg-type]
        assert (fast.a, fast.b, fast.c) == (plain.a, plain.b, plain.c)
    bad: list[tuple[tuple[object, ...], dict[str, object]]] = [
        ((), {}),
        ((1,), {"a": 1}),
        ((1, "x", (), 5), {}),
        ((1,), {"d": 1}),
    ]
    for bad_args, bad_kwargs in bad:
        with pytest.raises(TypeError):
            Fast(*bad_args, **bad_kwargs)  # type: ignore[arg-type]
    with pytest.raises(FrozenInstanceError):
        Fast(1).a = 2  # type: ignore[misc]
    assert evolve(Fast(1, "x"), c=(5,)) == Fast(1, "x", (5,))
    with pytest.raises(TypeError):
        evolve(Fast(1), d=1)


def test_a_wide_fast_init_class_and_evolve_build_true_frozen_instances() -> None:
    """From five fields on, fast_init and evolve fill a twin class and make it the class: the result is an
    instance of exactly that class, equal to what the dataclass builds, and frozen; a subclass keeps its type."""
    import dataclasses

    from inline_render.core.app import Screen
    from inline_render.core.state import Config

    @dataclass(frozen=True, slots=True)
    class Plain:
        a: int
        b: str
        c: int = 3
        d: tuple[int, ...] = ()
        e: object = None

    @fast_init
    @dataclass(frozen=True, slots=True)
    class Wide:
        a: int
        b: str
        c: int = 3
        d: tuple[int, ...] = ()
        e: object = None

    for args, kwargs in [((1, "x"), {}), ((1, "x", 4, (5,), "e"), {}), ((), {"a": 2, "b": "y", "e": 7})]:
        plain, wide = Plain(*args, **kwargs), Wide(*args, **kwargs)  # type: ignore[arg-type]
        assert type(wide) is Wide
        assert dataclasses.astuple(wide) == dataclasses.astuple(plain)  # type: ignore[arg-type]
    for bad_args, bad_kwargs in [((1,), {}), ((1, "x"), {"a": 1}), ((1, "x", 3, (), None, 6), {})]:
        with pytest.raises(TypeError):
            Wide(*bad_args, **bad_kwargs)  # type: ignore[arg-type]
    with pytest.raises(FrozenInstanceError):
        Wide(1, "x").c = 2  # type: ignore[misc]
    copied = evolve(Wide(1, "x"), e="new", a=9)
    assert type(copied) is Wide and copied == Wide(9, "x", e="new")
    with pytest.raises(FrozenInstanceError):
        copied.a = 1  # type: ignore[misc]

    class Sub(Wide):  # a subclass (its own layout: a __dict__) is built through the descriptors
        pass

    sub = Sub(1, "x", 5)
    assert type(sub) is Sub and (sub.a, sub.b, sub.c) == (1, "x", 5)
    state = AppState(Config(), 80, 24)
    moved = evolve(state, status="s", screen=Screen(top=3), rows=30)
    assert type(moved) is AppState and moved == dataclasses.replace(state, status="s", screen=Screen(top=3), rows=30)
    with pytest.raises(FrozenInstanceError):
        moved.status = "t"  # type: ignore[misc]


def _diff_row_reference(
    old: Row | None, new: Row, width: int, policy: WidthPolicy
) -> tuple[int, list[Segment], bool] | None:
    """``diff.diff_row`` as it was before its shortcuts (identity of styles, the kept text measured as is)."""
    from inline_render.core.diff import _common_prefix, _zero_width_first

    if old is None:
        return 0, list(new), row_width(new, policy) < width
    if old == new:
        return None
    if not old:
        return 0, list(new), False
    column = index = 0
    size = min(len(old), len(new))
    while index < size and old[index] == new[index]:
        column += text_module.text_width(new[index].text, policy)
        index += 1
    segments = list(new[index:])
    cut = 0
    if index < size and old[index].style == new[index].style:
        a, b = old[index].text, new[index].text
        cut = _common_prefix(a, b)
        column += text_module.text_width(b[:cut], policy)
        segments[0] = Segment(b[cut:], new[index].style)
        if not segments[0].text:
            segments.pop(0)
    rest = old[index:]
    if (segments and column >= width) or (
        not all(segment.text.isascii() for segment in rest)
        and _zero_width_first("".join(segment.text for segment in rest)[cut:], policy)
    ):
        return 0, list(new), row_width(new, policy) < width
    new_width = column + sum(text_module.text_width(s.text, policy) for s in segments)
    erase = row_width(old, policy) > new_width and new_width < width
    if len(old) == len(new) and segments and not erase and old[:-1] == new[:-1]:
        # Deliberate since issue 14: an equal-length ASCII last segment changed inside (a token counter)
        # keeps its unchanged last cells on screen: only the changed cells are written.
        a, b = old[-1].text, new[-1].text
        if old[-1].style == new[-1].style and len(a) == len(b) and a.isascii() and b.isascii():
            same = len(b) - cut
            while same and a[len(a) - same :] != b[len(b) - same :]:
                same -= 1
            segments = [Segment(b[cut : len(b) - same], new[-1].style)]
    return column, segments, erase


_STYLES = [DEFAULT, DIM, style_module.Style(bold=True)]
segments = st.builds(Segment, lines.filter(bool), st.sampled_from(_STYLES))
rows = st.lists(segments, max_size=4).map(tuple)


@given(rows, rows, widths, policies, st.integers(0, 3))
def test_diff_row_gives_what_it_gave_before_its_shortcuts(
    old: Row, new: Row, width: int, policy: WidthPolicy, grow: int
) -> None:
    """The planner's row diff (kept cells measured without slicing, erase skipped when all old cells are kept)
    gives exactly the change the plain computation gives, also for a row that only grew at its end; and an
    equal-width change inside the last segment writes only the changed cells."""
    from inline_render.core.effects import diff_row

    typed = (*old[:-1], Segment(old[-1].text + "".join(s.text for s in new), old[-1].style)) if old else new
    counted = (*old[:-1], Segment(old[-1].text[:-1] + "x", old[-1].style)) if old else new  # last cell changed
    pairs = ((old, new), (old, old + new[:grow]), (old[:grow], old), (old, typed), (typed, old), (old, counted))
    for before, after in pairs:
        before, after = clip_row(before, width, policy), clip_row(after, width, policy)
        assert diff_row(before, after, width, policy) == _diff_row_reference(before, after, width, policy)
        assert diff_row(None, after, width, policy) == _diff_row_reference(None, after, width, policy)


def test_a_counter_in_the_status_line_writes_only_the_changed_cells() -> None:
    """A status text that changes inside and keeps its width (a token counter) writes only the changed cells."""
    from inline_render.core.effects import diff_row

    old = (Segment("assistant: 1,234 tokens", DIM),)
    new = (Segment("assistant: 1,241 tokens", DIM),)
    assert diff_row(old, new, 80, WidthPolicy.CODEPOINT) == (14, [Segment("41", DIM)], False)
    longer = (Segment("assistant: 10,241 tokens", DIM),)  # wider: everything from the change on
    assert diff_row(new, longer, 80, WidthPolicy.CODEPOINT) == (12, [Segment("0,241 tokens", DIM)], False)


@pytest.mark.parametrize("workload", ["w1s:100", "w4", "status", "w3:100", "w5:100"])
def test_a_rows_only_frame_plans_what_the_planner_plans(workload: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The planner-free plan of a frame whose only change is rows (``plan._plan_rows``) gives the very plan
    and projected screen of the general planner on every tick of the bench's quick workloads where it runs
    (its frame record keeps texts as segments: compared as the operations it reads back as)."""
    from inline_render.bench import cli as bench_cli
    from inline_render.bench import measure
    from inline_render.core import plan as planning
    from inline_render.core.state import Config

    fast = planning._plan_rows
    compared = []

    def plain(projection: Projection) -> Projection:
        frames = tuple(record._replace(planned=record.ops) for record in projection.screen.recent_frames)
        return replace(projection, screen=replace(projection.screen, recent_frames=frames))

    def both(state: AppState, layout: Layout, frame: Frame) -> planning.RowsPlan:
        result = fast(state, layout, frame)
        plan, projection = planning._plan(state, layout, frame)
        assert result.plan() == plan
        assert plain(Projection(result.screen, 0)) == plain(projection)
        compared.append(bool(plan.ops))
        return result

    monkeypatch.setattr(planning, "_plan_rows", both)
    kind, _, lines = workload.partition(":")
    config = Config(viewport_height=10, markdown=kind == "w5")
    renderer = measure.make_renderer(80, 24, config)
    for _phase, batch in bench_cli.WORKLOADS[kind](int(lines or 0), True):
        renderer.feed(batch)
    assert sum(compared) >= 10  # it ran, and wrote something, on many ticks


def _diff_stream() -> Iterator[tuple[str, list[Input]]]:
    """A streamed diff entry whose lines start short (the head that picks a diff line's style grows)."""
    yield "warmup", [LogAppend("text", "\n".join(f"line {n}" for n in range(30)))]
    yield "warmup", [LogAppend("diff", "", id="d", final=False)]
    pieces = ["-", "-", "-", " a/x\n", "+", "+", "+ b/x\n", "@", "@ -1 +1 @@\n", "-", "old\n", "+", "new\n", "d", "iff"]
    for round_ in range(6):
        for piece in pieces:
            yield "measure", [LogDelta("d", piece + ("\n" if round_ % 2 and piece.endswith("x\n") else ""))]


@pytest.mark.parametrize("workload", ["w1:100", "w1s:100", "w5:100", "w3:100", "diff"])
def test_tail_rows_reused_from_the_last_tail_are_the_rows_drawn_again(
    workload: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows of the log tail taken from the last tick's tail (equal rows, or rows of a streaming entry's
    earlier version inside both texts) are exactly the rows ``draw_log_rows`` draws for the new tail."""
    from inline_render.bench import cli as bench_cli
    from inline_render.bench import measure
    from inline_render.core import frame
    from inline_render.core.state import Config

    reused = frame._reused_rows
    reuses = []

    def checked(visible: Sequence[LogRow], *args: Any) -> list[Row]:
        rows = reused(visible, *args)
        width, policy, theme = args[-3:]
        assert rows == draw_log_rows(visible, width, policy, theme)
        reuses.append(sum(any(row is before for before in args[1]) for row in rows))
        return rows

    monkeypatch.setattr(frame, "_reused_rows", checked)
    kind, _, lines = workload.partition(":")
    renderer = measure.make_renderer(80, 24, Config(viewport_height=10, markdown=kind == "w5"))
    events = _diff_stream() if kind == "diff" else bench_cli.WORKLOADS[kind](int(lines or 0), True)
    for _phase, batch in events:
        renderer.feed(batch)
    assert len(reuses) >= 10 and sum(reuses) > 0, (len(reuses), sum(reuses))  # it ran, and reused rows
