"""The runtime's stdin, bounded: a runtime that stops reading cannot make the UI's memory grow.

Everything the UI writes to the runtime is an answer to something the runtime sent (a
response, a dialog's answer) or a user's action (a prompt, a cancel).  So the
backpressure is on the runtime's own output: while more than ``HIGH_WATER`` bytes wait
in the pipe's buffer, the client stops reading the runtime's stdout (``wait_writable``)
until the runtime has read its input down to ``LOW_WATER``.  If that does not happen
within ``STUCK_AFTER`` seconds the runtime is reported once as not reading its input
(one status line).  A write that would take the buffer past ``HARD_LIMIT`` (only user
actions still write while reading is paused) is dropped and counted, never buffered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

__all__ = ["HARD_LIMIT", "HIGH_WATER", "LOW_WATER", "STUCK_AFTER", "StdinWriter"]

HIGH_WATER = 1 << 20  # 1 MiB: far more than a runtime that reads ever leaves unread
LOW_WATER = 256 << 10
HARD_LIMIT = 4 << 20
STUCK_AFTER = 1.0  # seconds above the high-water mark before the runtime is reported


class StdinWriter:
    """Writes to the runtime's stdin with a bounded buffer; ``on_stuck(text)`` is called once."""

    def __init__(self, stream: asyncio.StreamWriter, on_stuck: Callable[[str], None]) -> None:
        self._stream = stream
        self._on_stuck = on_stuck
        self.reported = False
        self.dropped = 0  # messages not written because the buffer was at HARD_LIMIT
        stream.transport.set_write_buffer_limits(high=HIGH_WATER, low=LOW_WATER)

    @property
    def closed(self) -> bool:
        """Whether the runtime's stdin is closed or closing (nothing more can be written)."""
        return self._stream.is_closing()

    @property
    def buffered(self) -> int:
        """Bytes written but not yet taken by the runtime (beyond what the pipe holds)."""
        return self._stream.transport.get_write_buffer_size()

    def write(self, data: bytes) -> bool:
        """Queue ``data``; False (and reported) when it was dropped or the runtime's stdin is gone."""
        if self._stream.is_closing():
            return False
        if self.buffered + len(data) > HARD_LIMIT:
            self.dropped += 1
            self._report()
            return False
        with contextlib.suppress(ConnectionError):
            self._stream.write(data)
            return True
        return False

    async def wait_writable(self) -> None:
        """Return once the buffer is below the high-water mark (or the runtime is gone)."""
        if self.buffered <= HIGH_WATER:
            return
        drained = asyncio.ensure_future(self._drain())
        done, _ = await asyncio.wait([drained], timeout=STUCK_AFTER)
        if not done:
            self._report()
            await drained

    async def _drain(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self._stream.drain()

    def _report(self) -> None:
        if not self.reported:
            self.reported = True
            self._on_stuck(
                f"The runtime is not reading its input ({self.buffered // 1024} KiB waiting): "
                "its output is paused until it does."
            )
