"""Cursor-position queries: replies answer queries in order; silence times out; frames are acknowledged."""

from __future__ import annotations

import asyncio

from inline_render.shell.cursor import MAX_OUTSTANDING, QUERY, SIZE_PROBE, CursorQueries
from inline_render.shell.keys import CursorReport
from inline_render.shell.runner import AppOptions, InlineApp


def test_a_reply_answers_the_query() -> None:
    """The query is written, and the report fed back is its answer."""
    written: list[bytes] = []

    async def scenario() -> CursorReport | None:
        queries = CursorQueries(written.append, timeout=1.0)
        task = asyncio.ensure_future(queries.query())
        await asyncio.sleep(0)
        queries.on_report(CursorReport(4, 0))
        return await task

    assert asyncio.run(scenario()) == CursorReport(4, 0)
    assert written == [QUERY]


def test_silence_times_out_and_a_late_reply_is_not_taken_for_a_newer_query() -> None:
    """The first query times out; its late reply arrives during the second query and is ignored."""

    async def scenario() -> tuple[CursorReport | None, CursorReport | None, bool]:
        queries = CursorQueries(lambda data: None, timeout=0.05)
        first = await queries.query()
        answered_before = queries.answered
        task = asyncio.ensure_future(queries.query())
        await asyncio.sleep(0)
        queries.on_report(CursorReport(1, 1))  # the late reply to the first query
        await asyncio.sleep(0.01)
        assert not task.done()
        queries.on_report(CursorReport(9, 2))  # the reply to the second
        return first, await task, answered_before

    first, second, answered_before = asyncio.run(scenario())
    assert first is None and not answered_before
    assert second == CursorReport(9, 2)


def test_replies_answer_queries_in_order_and_acknowledge_frames() -> None:
    """An acknowledgement query's reply runs its callback; a position query waits for its own reply, after
    the acknowledgements asked before it (a terminal answers in order)."""
    written: list[bytes] = []
    acked: list[tuple[int, CursorReport]] = []

    async def scenario() -> CursorReport | None:
        queries = CursorQueries(written.append, timeout=1.0)
        assert not queries.acknowledge(lambda report: acked.append((0, report)))  # never answered: nothing asked
        queries.on_report(CursorReport(0, 0))  # an unasked reply (the probe's) marks the terminal as answering
        assert queries.acknowledge(lambda report: acked.append((1, report)))
        assert queries.acknowledge(lambda report: acked.append((2, report)))
        task = asyncio.ensure_future(queries.query())
        await asyncio.sleep(0)
        assert queries.outstanding == 3
        queries.on_report(CursorReport(23, 79))
        queries.on_report(CursorReport(11, 59))
        await asyncio.sleep(0)
        assert acked == [(1, CursorReport(23, 79)), (2, CursorReport(11, 59))] and not task.done()
        queries.on_report(CursorReport(7, 3))
        return await task

    assert asyncio.run(scenario()) == CursorReport(7, 3)
    assert written == [SIZE_PROBE, SIZE_PROBE, QUERY]


def test_a_terminal_far_behind_is_not_asked_for_more_acknowledgements() -> None:
    """Acknowledgements stop at MAX_OUTSTANDING unanswered queries (a terminal that stopped answering)."""
    queries = CursorQueries(lambda data: None, timeout=1.0)
    queries.on_report(CursorReport(0, 0))
    sent = sum(queries.acknowledge(lambda report: None) for _ in range(MAX_OUTSTANDING + 5))
    assert sent == MAX_OUTSTANDING == queries.outstanding


def test_a_frame_counts_as_settled_only_when_the_terminal_met_the_size_it_was_drawn_for() -> None:
    """The acknowledgement's reply is the last cell of the screen the frame met: a frame drawn for 80x24 and
    answered from 80x24 is settled whatever the pty says when the reply is read; answered from a 60-column
    screen (the terminal resized first), it stays in flight."""
    app = InlineApp(AppOptions())
    written: list[bytes] = []
    app._cursor = CursorQueries(written.append, timeout=1.0)
    app._cursor.on_report(CursorReport(0, 0))  # the startup probe was answered
    app._queued_size = (80, 24)
    app._acknowledge_frame(2)  # a tick and its follow-up redraw
    app._acknowledge_frame(1)
    assert written == [SIZE_PROBE, SIZE_PROBE]
    app._cursor.on_report(CursorReport(23, 79))
    assert (app._frames_written, app._frames_settled) == (3, 2)
    app._cursor.on_report(CursorReport(23, 59))
    assert app._frames_settled == 2  # the last frame may have been drawn over a narrower screen: 1 in flight
