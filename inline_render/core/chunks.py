"""``Tail``: the open line of a plain streaming entry, kept in appended pieces (issue 14).

An open line (no newline yet) is never committed: a ``log.replace`` may still change it, so all of it
stays pending and re-wrappable.  Kept as one ``str``, every delta copied it whole (``old + new``), and a
delta to a 10 MB open line cost 40 times one to a short line.  Here the pieces are appended to a
``Chunks`` shared by the versions of the line (each a ``Tail``: the shared pieces and its own length),
so a delta costs its own length; the rows read slices of it (``Tail.read``) and the whole line is
joined only when something needs all of it (a resize, a replace, the line's end or the entry's).

Small pieces are joined into blocks as they come (the last ``_JOIN`` pieces at a time, up to
``_BLOCK`` characters), so a read touches few pieces and each character is copied O(1) times.  Joining
never changes the text of any prefix, so older versions still read theirs.
"""

from __future__ import annotations

import bisect

__all__ = ["Chunks", "Tail"]

_JOIN = 64  # pieces: join the trailing ones when there are this many
_BLOCK = 8192  # characters: a joined block at least this long is not joined again


class Chunks:
    """Append-only text in pieces; ``read(start, stop)`` is ``text[start:stop]`` of the text so far."""

    __slots__ = ("_ends", "_parts", "_sealed")

    def __init__(self, text: str) -> None:
        self._parts = [text]
        self._ends = [len(text)]
        self._sealed = 1 if len(text) >= _BLOCK else 0  # leading parts never joined again

    def __len__(self) -> int:
        return self._ends[-1]

    def append(self, text: str) -> None:
        """Add ``text`` at the end."""
        if not text:
            return
        parts, ends = self._parts, self._ends
        parts.append(text)
        ends.append(ends[-1] + len(text))
        sealed = self._sealed
        if len(parts) - sealed >= _JOIN:
            parts[sealed:] = ["".join(parts[sealed:])]
            del ends[sealed:-1]
            if len(parts[sealed]) >= _BLOCK:
                self._sealed = sealed + 1

    def read(self, start: int, stop: int) -> str:
        """``text[start:stop]`` for ``0 <= start <= stop <= len(self)``."""
        if start >= stop:
            return ""
        parts, ends = self._parts, self._ends
        index = bisect.bisect_right(ends, start)
        first = ends[index - 1] if index else 0
        if stop <= ends[index]:
            return parts[index][start - first : stop - first]
        pieces = [parts[index][start - first :]]
        index += 1
        while ends[index] < stop:
            pieces.append(parts[index])
            index += 1
        pieces.append(parts[index][: stop - ends[index - 1]])
        return "".join(pieces)


class Tail:
    """One version of an open line: the first ``length`` characters of ``chunks`` (a value: equal texts
    are equal tails)."""

    __slots__ = ("chunks", "length")

    def __init__(self, chunks: Chunks, length: int) -> None:
        self.chunks = chunks
        self.length = length

    @classmethod
    def of(cls, text: str) -> Tail:
        """A tail holding ``text`` (pieces of its own)."""
        return cls(Chunks(text), len(text))

    def extend(self, text: str) -> Tail:
        """This line with ``text`` appended: in place in the shared pieces when this is their newest
        version, else (a second branch from an older version) in pieces of its own."""
        if self.length == len(self.chunks):
            self.chunks.append(text)
            return Tail(self.chunks, self.length + len(text))
        return Tail.of(self.read(0, self.length) + text)

    def read(self, start: int, stop: int) -> str:
        """``text[start:stop]`` of this version (clamped to its length)."""
        return self.chunks.read(max(0, start), min(stop, self.length))

    def __len__(self) -> int:
        return self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tail):
            return NotImplemented
        if self.length != other.length:
            return False
        return self.chunks is other.chunks or self.read(0, self.length) == other.read(0, other.length)

    def __hash__(self) -> int:
        return hash(self.read(0, self.length))

    def __repr__(self) -> str:
        return f"Tail({self.length} characters)"
