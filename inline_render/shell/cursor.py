"""Cursor-position queries (``ESC[6n``): replies matched to queries in order, with a timeout.

A terminal answers queries in the order they were written, each after everything
written before it was processed.  So the n-th reply answers the n-th query: a
late reply to a query that already timed out is matched to that query and never
taken for the position at a later moment.  The same order makes a query appended
to a frame an *acknowledgement*: its reply says the terminal has processed the
frame (``acknowledge``), which tells a resize whether a frame may still have been
on its way when the terminal changed size.

An acknowledgement also says *at which size* the terminal processed the frame: it is
asked with the cursor saved, moved as far right and down as it goes (``CUF``/``CUD``
stop at the last column and row, on every terminal), and restored (``SIZE_PROBE``), so
its reply is the bottom-right cell of the screen the frame met.  The pty's size when the
reply is read cannot tell that: a terminal resizes its screen before it sets the pty's
size, and a reply written before the resize may be read after it.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable

from .keys import CursorReport

__all__ = ["QUERY", "SIZE_PROBE", "CursorQueries"]

QUERY = b"\x1b[6n"
# DECSC, CUF 999, CUD 999, the query, DECRC: the reply is (rows - 1, columns - 1) of the screen at that
# moment, and the cursor is back where the frame left it (DECRC also restores the SGR state saved).
SIZE_PROBE = b"\x1b7\x1b[999C\x1b[999B" + QUERY + b"\x1b8"
MAX_OUTSTANDING = 64  # a terminal this far behind is not asked for acknowledgements any more


class CursorQueries:
    """Sends queries through ``write`` and resolves them, oldest first, from the reports fed to ``on_report``."""

    def __init__(self, write: Callable[[bytes], None], timeout: float) -> None:
        self.write = write
        self.timeout = timeout
        self.answered = False  # the terminal has answered at least once
        self._pending: collections.deque[
            tuple[asyncio.Future[CursorReport] | None, Callable[[CursorReport], None] | None]
        ]
        self._pending = collections.deque()

    @property
    def outstanding(self) -> int:
        """Queries written and not answered yet."""
        return len(self._pending)

    async def query(self) -> CursorReport | None:
        """Where the cursor is now (after everything written before), or None after ``timeout`` seconds."""
        future: asyncio.Future[CursorReport] = asyncio.get_running_loop().create_future()
        self._pending.append((future, None))
        self.write(QUERY)
        try:
            return await asyncio.wait_for(asyncio.shield(future), self.timeout)
        except TimeoutError:
            return None

    def acknowledge(self, on_reply: Callable[[CursorReport], None]) -> bool:
        """Ask for a reply that acknowledges everything written so far; ``on_reply`` gets it when it arrives:
        its ``col + 1`` and ``row + 1`` are the terminal's size when it processed what was written (``SIZE_PROBE``).

        False (nothing sent) when the terminal never answered or is too far behind.
        """
        if not self.answered or len(self._pending) >= MAX_OUTSTANDING:
            return False
        self._pending.append((None, on_reply))
        self.write(SIZE_PROBE)
        return True

    def on_report(self, report: CursorReport) -> None:
        """A reply arrived: it answers the oldest query still waiting for one."""
        self.answered = True
        if not self._pending:
            return  # an answer nobody asked for (another program's query)
        future, on_reply = self._pending.popleft()
        if future is not None and not future.done():
            future.set_result(report)
        if on_reply is not None:
            on_reply(report)
