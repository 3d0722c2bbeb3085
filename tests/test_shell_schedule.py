"""Tick scheduling with an injected clock: keys at once, streaming coalesced to the rate, nothing dropped."""

from __future__ import annotations

import pytest

from inline_render import Key, LogDelta, Resize
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.rows import draw_log_rows
from inline_render.inputs import Input
from inline_render.shell.schedule import TickScheduler, coalesce
from inline_render.text.cells import WidthPolicy


def test_nothing_waiting_means_no_tick() -> None:
    """An empty scheduler never asks for a tick."""
    assert TickScheduler().delay(0.0) is None


def test_streaming_inputs_are_coalesced_to_the_rate_and_kept_in_order() -> None:
    """Deltas arriving faster than 60/s wait for the interval, then all go into one tick, in order (joined)."""
    scheduler = TickScheduler(60.0)
    scheduler.add([LogDelta("a", "1")])
    assert scheduler.delay(10.0) == 0.0  # the first tick may run at once
    assert scheduler.take(10.0) == [LogDelta("a", "1")]
    for index in range(5):
        scheduler.add([LogDelta("a", str(index))])
        delay = scheduler.delay(10.001 + index * 0.001)
        assert delay is not None and delay > 0
    assert scheduler.delay(10.0 + 1 / 60) == 0.0
    assert scheduler.take(10.0 + 1 / 60) == [LogDelta("a", "01234")]
    assert scheduler.delay(10.0 + 1 / 60) is None


def test_at_most_rate_ticks_per_second_for_a_steady_stream() -> None:
    """A delta every millisecond for one second yields at most 60 ticks and loses no delta."""
    scheduler = TickScheduler(60.0)
    ticks, received, now = 0, 0, 0.0
    for step in range(1000):
        now = step / 1000
        scheduler.add([LogDelta("a", "x")])
        if scheduler.delay(now) == 0.0:
            received += sum(len(item.text) for item in scheduler.take(now) if isinstance(item, LogDelta))
            ticks += 1
    received += sum(len(item.text) for item in scheduler.take(now + 1) if isinstance(item, LogDelta))
    assert ticks <= 61  # 60 intervals in one second, plus the first tick at t=0
    assert received == 1000


def test_keys_are_ticked_immediately_even_right_after_a_tick() -> None:
    """A key makes the next tick due now, and it takes the pending deltas along, in arrival order."""
    scheduler = TickScheduler(60.0)
    scheduler.add([LogDelta("a", "1")])
    scheduler.take(5.0)
    scheduler.add([LogDelta("a", "2")])
    scheduler.add([Key("x")], urgent=True)
    assert scheduler.delay(5.001) == 0.0
    assert scheduler.take(5.001) == [LogDelta("a", "2"), Key("x")]


def test_a_requested_tick_without_inputs_is_rate_limited_unless_urgent() -> None:
    """Spinner frames ask for a tick; they respect the rate, an urgent request does not wait."""
    scheduler = TickScheduler(10.0)
    scheduler.take(1.0)
    scheduler.request()
    assert scheduler.delay(1.05) == pytest.approx(0.05)
    scheduler.request(urgent=True)
    assert scheduler.delay(1.05) == 0.0


def test_a_newer_resize_supersedes_a_pending_one() -> None:
    """Only the last resize (and its cursor report) describes the terminal; other inputs stay."""
    scheduler = TickScheduler()
    scheduler.add([Resize(80, 24, cursor_row=3), LogDelta("a", "1")], urgent=True)
    scheduler.add([Resize(40, 24, cursor_row=5)], urgent=True)
    assert scheduler.take(0.0) == [LogDelta("a", "1"), Resize(40, 24, cursor_row=5)]


def test_the_rate_must_be_positive() -> None:
    """A zero or negative rate is a clear error."""
    with pytest.raises(ValueError, match="max_rate"):
        TickScheduler(0)


def test_consecutive_deltas_of_one_entry_are_joined_and_nothing_else_moves() -> None:
    """coalesce joins runs of deltas per entry; other inputs, other entries and tabbed text keep their place."""
    items: list[Input] = [
        LogDelta("a", "1"),
        LogDelta("a", "2"),
        LogDelta("b", "x"),
        LogDelta("a", "3"),
        Key("z"),
        LogDelta("a", "4"),
        LogDelta("a", "\t5"),
        LogDelta("a", "6"),
        LogDelta("a", "7"),
    ]
    assert coalesce(items) == [
        LogDelta("a", "12"),
        LogDelta("b", "x"),
        LogDelta("a", "3"),
        Key("z"),
        LogDelta("a", "4"),
        LogDelta("a", "\t5"),
        LogDelta("a", "67"),
    ]


def test_a_joined_delta_renders_the_same_rows_as_its_parts() -> None:
    """Appending the joined text gives the log the rows the deltas one by one give (plain and Markdown)."""
    pieces = ["# Ti", "tle\n\nsome *em", "ph* and `co", "de`\n- a\n- b", "\x1b[31mred\x07\n\n```py\nx = 1\n", "```\n"]
    for markdown in (False, True):
        one = LogState(options=RenderOptions(markdown=markdown)).append("assistant", "", "s", final=False)
        many = one
        for piece in pieces:
            many = many.delta(0, piece)
        one = one.delta(0, "".join(pieces))
        rows_many, committed_many = log_rows(many, 30, WidthPolicy.CODEPOINT)
        drawn_many = draw_log_rows(rows_many, 30, WidthPolicy.CODEPOINT)
        rows_one, committed_one = log_rows(one, 30, WidthPolicy.CODEPOINT)
        assert draw_log_rows(rows_one, 30, WidthPolicy.CODEPOINT) == drawn_many
        assert committed_one == committed_many
