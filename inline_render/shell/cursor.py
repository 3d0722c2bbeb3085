"""Cursor-position queries (``ESC[6n``): replies matched to queries, with a timeout.

Replies arrive in the key stream, in the order the queries were sent, and
some terminals answer late or never.  A reply answers only the newest query:
a late reply to a query that already timed out is counted off and ignored,
so it is never taken for the position at a later moment.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from .keys import CursorReport

__all__ = ["QUERY", "CursorQueries"]

QUERY = b"\x1b[6n"


class CursorQueries:
    """Sends queries through ``write`` and resolves them from the reports fed to ``on_report``."""

    def __init__(self, write: Callable[[bytes], None], timeout: float) -> None:
        self.write = write
        self.timeout = timeout
        self.answered = False  # the terminal has answered at least once
        self._waiters: list[asyncio.Future[CursorReport]] = []
        self._outstanding = 0

    async def query(self) -> CursorReport | None:
        """Where the cursor is now, or None after ``timeout`` seconds."""
        future: asyncio.Future[CursorReport] = asyncio.get_running_loop().create_future()
        self._waiters.append(future)
        self._outstanding += 1
        self.write(QUERY)
        try:
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            return None
        finally:
            with contextlib.suppress(ValueError):
                self._waiters.remove(future)

    def on_report(self, report: CursorReport) -> None:
        """A reply arrived: it answers the waiting queries only if no newer query is still unanswered."""
        self.answered = True
        self._outstanding = max(0, self._outstanding - 1)
        if self._outstanding == 0:
            for future in self._waiters:
                if not future.done():
                    future.set_result(report)
