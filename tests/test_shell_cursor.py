"""Cursor-position queries: a reply answers only the newest query; silence times out."""

from __future__ import annotations

import asyncio

from inline_render.shell.cursor import QUERY, CursorQueries
from inline_render.shell.keys import CursorReport


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
