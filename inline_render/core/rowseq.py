"""``RowSeq``: the pending log rows as a sequence whose rows are made only when they are read.

A tick needs the number of pending rows, the viewport's tail and the rows to insert: a few rows,
whatever the number pending.  An open line of a streaming entry can be megabytes long (it is not
committed, so all of its rows stay pending), and building a row object for each of them every tick
made a delta cost the length of the open line.  A ``RowSeq`` holds the rows as *parts*: runs of
spans ``(line_start, start, end)`` of one entry, and makes the row of a span when it is indexed or
sliced, so building one costs O(entries) and reading one costs O(rows read).

A part may read a prefix of a list that is later appended to (the spans of a streaming line, shared
with the next version: ``log._streaming_rows``); only its last span can be replaced there, so a part
keeps its own copy of its last span and reads the list below it only.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar, overload

__all__ = ["Part", "RowSeq", "Span"]

Span = tuple[int, int, int]  # a row's (line_start, start, end)
T = TypeVar("T")

Part = tuple[object, Sequence[Any], int, "Span | None"]
"""``(entry, spans, count, last)``: ``count`` rows; row ``i`` is ``spans[i]``, except the last one
which is ``last`` when that is not None.  With ``entry`` None, ``spans`` holds rows already made."""


class RowSeq(Sequence[T], Generic[T]):
    """An immutable sequence of rows made by ``make(entry, span)`` on access (see the module docstring)."""

    __slots__ = ("_ends", "_make", "_parts")

    def __init__(self, parts: list[Part], make: Callable[[object, Span], T]) -> None:
        self._parts = [part for part in parts if part[2] > 0]
        self._make = make
        ends: list[int] = []
        total = 0
        for part in self._parts:
            total += part[2]
            ends.append(total)
        self._ends = ends

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _row(self, part: Part, index: int) -> T:
        entry, spans, count, last = part
        if entry is None:
            row: T = spans[index]
            return row
        span = last if index == count - 1 and last is not None else spans[index]
        return self._make(entry, span)

    def _rows(self, start: int, stop: int) -> list[T]:
        """Rows ``start`` to ``stop`` (0 <= start <= stop <= len)."""
        out: list[T] = []
        if start >= stop:
            return out
        ends = self._ends
        number = bisect.bisect_right(ends, start)
        base = ends[number - 1] if number else 0
        while start < stop:
            part = self._parts[number]
            entry, spans, count, last = part
            low, high = start - base, min(stop - base, count)
            if entry is None:
                out.extend(spans[low:high])
                start = base = base + count
                number += 1
                continue
            make = self._make
            top = count - 1 if last is not None else count  # rows read from ``spans``
            out.extend([make(entry, span) for span in spans[low : min(high, top)]])
            if high > top >= low:
                out.append(make(entry, last))  # type: ignore[arg-type]  # not None: top < count
            start = base = base + count
            number += 1
        return out

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: int | slice) -> T | tuple[T, ...]:
        total = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(total)
            if step != 1:
                return tuple(self._rows(0, total)[index])
            return tuple(self._rows(start, max(start, stop)))
        if index < 0:
            index += total
        if not 0 <= index < total:
            raise IndexError("row index out of range")
        number = bisect.bisect_right(self._ends, index)
        base = self._ends[number - 1] if number else 0
        return self._row(self._parts[number], index - base)

    def __iter__(self) -> Iterator[T]:
        return iter(self._rows(0, len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RowSeq):
            return tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"RowSeq({len(self)} rows)"
