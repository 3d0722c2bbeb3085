"""Streaming costs what a delta changes (issue 14): trimmed entries, lazy rows, budgeted ticks."""

from __future__ import annotations

import random
import tracemalloc

import pytest

from inline_render.bench.measure import CountingSink, make_renderer
from inline_render.core import log as log_module
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.state import Config
from inline_render.inputs import Input, Key, LogAppend, LogDelta, LogFinish, LogReplace, Resize, Status
from inline_render.protocol.transcript import Transcript, _RunLog
from inline_render.shell.schedule import KEY_SHARE, TickScheduler
from inline_render.text.cells import WidthPolicy

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"]


def _prose(rng: random.Random, size: int, newlines: bool = True) -> str:
    out: list[str] = []
    total = 0
    while total < size:
        word = rng.choice(WORDS)
        sep = "\n" if newlines and rng.random() < 0.08 else " "
        out.append(word + sep)
        total += len(word) + 1
    return "".join(out)


def _stream_bytes(markdown: bool, trim: bool, pieces: list[Input], open_pieces: int = 1 << 60) -> bytes:
    """The bytes the real renderer writes for ``pieces`` (each its own update), trimming on or off;
    an open line longer than ``open_pieces`` is kept in pieces (``Entry.tail``; default: never)."""
    saved = log_module._TRIM_MIN, log_module._OPEN_PIECES
    log_module._TRIM_MIN = 4096 if trim else 1 << 60
    log_module._OPEN_PIECES = open_pieces
    try:
        sink = CountingSink(keep=True)
        renderer = make_renderer(60, 16, Config(viewport_height=8, markdown=markdown), sink)
        for item in pieces:
            renderer.feed([item])
        assert sink.data is not None
        return bytes(sink.data)
    finally:
        log_module._TRIM_MIN, log_module._OPEN_PIECES = saved


@pytest.mark.parametrize("markdown", [False, True])
def test_dropping_inserted_text_changes_no_byte_written(markdown: bool) -> None:
    """A long stream with resizes and a replace writes the same bytes whether inserted text is dropped or kept."""
    rng = random.Random(14)
    text = _prose(rng, 60_000)
    pieces: list[Input] = [LogAppend("assistant", "", "s", final=False)]
    position = 0
    step = 0
    while position < len(text):
        size = rng.randint(20, 400)
        pieces.append(LogDelta("s", text[position : position + size]))
        position += size
        step += 1
        if step % 60 == 0:
            pieces.append(Resize(rng.choice((40, 60, 80)), 16))
    pieces.append(LogReplace("s", text + "\nthe end, replaced"))
    pieces.append(LogFinish("s"))
    trimmed = _stream_bytes(markdown, True, pieces)
    assert trimmed == _stream_bytes(markdown, False, pieces)
    assert b"the end, replaced" in trimmed


@pytest.mark.parametrize("markdown", [False, True])
def test_a_streaming_entry_keeps_only_what_can_still_be_drawn(markdown: bool) -> None:
    """After 2 MB (Markdown: 0.8 MB) streamed, the pending entry holds a few KB (inserted rows are the terminal's)."""
    renderer = make_renderer(80, 24, Config(viewport_height=10, markdown=markdown, check_invariants=False))
    renderer.feed([LogAppend("assistant", "", "s", final=False)])
    text = _prose(random.Random(3), 200_000)
    for _ in range(4 if markdown else 10):
        for position in range(0, len(text), 20_000):
            renderer.feed([LogDelta("s", text[position : position + 20_000])])
    log = renderer.state.log
    kept = sum(len(entry.text) for entry in log.entries)
    assert kept < 64_000, kept
    if not markdown:
        assert log.entries[0].base > 1_900_000  # the dropped text is counted, not kept
    else:
        view = log.entries[0].view
        assert view is not None and len(view.source) < 64_000 and view.src_base > 700_000


def _delta_allocation(streamed: int, open_line: bool) -> int:
    """Median peak of the memory a 100-character delta allocates after ``streamed`` characters of one answer.

    Bytes, not seconds (tracemalloc, started after the answer streamed): a copy of the answer or of its
    open line per delta shows as its size, whatever the machine's load (performance itself is the bench's).
    """
    renderer = make_renderer(80, 24, Config(viewport_height=10, check_invariants=False, markdown=False))
    renderer.feed([LogAppend("assistant", "", "s", final=False)])
    text = _prose(random.Random(5), 100_000, newlines=not open_line)
    left = streamed
    while left > 0:
        piece = text[: min(left, len(text))]
        renderer.feed([LogDelta("s", piece)])
        left -= len(piece)
    peaks = []
    tracemalloc.start()
    try:
        for index in range(60):
            piece = text[index * 100 : index * 100 + 100]
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            renderer.feed([LogDelta("s", piece)])
            peaks.append(tracemalloc.get_traced_memory()[1] - before)
    finally:
        tracemalloc.stop()
    return sorted(peaks)[len(peaks) // 2]


@pytest.mark.parametrize("open_line", [False, True])
def test_a_delta_allocates_about_the_same_after_a_long_answer(open_line: bool) -> None:
    """A delta after 2 MB (one open 300 KB line) allocates no more than one after 1 KB plus 64 KB: no copy of
    the answer or of the open line per delta (a copy was 2 MB / 300 KB a delta)."""
    small = _delta_allocation(1_000, open_line)
    large = _delta_allocation(300_000 if open_line else 2_000_000, open_line)
    assert large < small + 64_000, (small, large)


def test_rows_of_an_open_line_are_made_only_when_read() -> None:
    """The pending rows of an open 400 KB line: a count and a tail without a row object per row."""
    log = LogState(options=RenderOptions(markdown=False)).append("assistant", "", "s", final=False)
    log = log.delta(0, "word " * 80_000)
    rows, committed = log_rows(log, 80, WidthPolicy.CODEPOINT)
    assert committed == 0 and len(rows) > 5_000
    tail = rows[len(rows) - 3 :]
    assert [row.end for row in tail] == [row.end for row in tuple(rows)[-3:]]
    assert tail[-1].end == len(log.entries[0].text)


def test_a_budgeted_tick_takes_a_waiting_key_past_the_text_but_not_past_a_dialog() -> None:
    """A key behind streamed text is taken now, in a tick taking 1/KEY_SHARE of the budget of text; a key
    behind anything else keeps its place (a full tick); no text is lost."""
    scheduler = TickScheduler(60.0)
    scheduler.budget = 10 * KEY_SHARE
    scheduler.add([LogDelta("s", "x" * 250), Key("a"), Status("busy"), Key("b"), LogDelta("s", "y" * 5)])
    assert scheduler.backlog == 255
    first = scheduler.take(0.0)
    assert first == [LogDelta("s", "x" * 10), Key("a")]
    assert scheduler.backlog == 245
    second = scheduler.take(1.0)
    assert second == [LogDelta("s", "x" * 10 * KEY_SHARE)]  # no key waits behind text only: a full tick
    rest: list[Input] = [*second]
    now = 1.0
    while scheduler.has_work:
        now += 1.0
        rest += scheduler.take(now)
    assert [item for item in rest if not isinstance(item, LogDelta)] == [Status("busy"), Key("b")]
    text = "".join(item.text for item in [*first, *rest] if isinstance(item, LogDelta))
    assert text == "x" * 250 + "y" * 5


def test_the_transcript_sends_a_final_only_what_did_not_stream() -> None:
    """A final equal to the streamed parts adds nothing, one that extends them adds the rest, else it replaces."""
    for content, expected in (
        ("one\n\ntwo", []),
        ("one\n\ntwo and more", [LogDelta("r#1", " and more")]),
        ("two", []),
        ("something else", [LogReplace("r#1", "something else")]),
    ):
        transcript = Transcript()
        run = transcript._runs.setdefault("r", _RunLog())
        assert transcript._text("r", run, "one") == [LogAppend("assistant", "one", "r#1", final=False)]
        assert transcript._text("r", run, "two") == [LogDelta("r#1", "\n\ntwo")]
        out = transcript._final("r", run, content)
        assert out == [*expected, LogFinish("r#1")], content
        if content != "two":  # the answer as finished: the same final again is not news
            assert transcript._final("r", run, content) == []


@pytest.mark.parametrize("markdown", [False, True])
def test_a_long_final_entry_inserted_over_many_ticks_writes_the_same_bytes(markdown: bool) -> None:
    """A final 30 KB entry going into scrollback (its inserted half dropped on the way) writes the same bytes."""
    text = _prose(random.Random(9), 30_000)
    pieces: list[Input] = [LogAppend("assistant", text), *[Key("a") for _ in range(400)]]
    assert _stream_bytes(markdown, True, pieces) == _stream_bytes(markdown, False, pieces)


def test_a_budget_never_splits_a_tabbed_delta_nor_loses_text_after_it() -> None:
    """A tabbed delta is taken whole even past the budget; the text after it waits, every character kept."""
    scheduler = TickScheduler(60.0)
    scheduler.budget = 4
    scheduler.add([LogDelta("s", "ab\tcdef"), LogDelta("s", "ghijkl")])
    assert scheduler.take(0.0) == [LogDelta("s", "ab\tcdef")]
    assert scheduler.take(1.0) == [LogDelta("s", "ghij")]
    assert scheduler.take(2.0) == [LogDelta("s", "kl")]
    assert not scheduler.has_work
