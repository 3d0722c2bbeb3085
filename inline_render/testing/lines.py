"""Whole committed lines: is any of them shown twice above the viewport?

A terminal shows rows; a user reads lines.  The committed rows a renderer inserted (or that a resize left in the
terminal and it counted as inserted) belong to logical lines (a source line soft-wrapped into several rows), and a
duplicate is judged on those whole lines, never on rows: a short row such as ``""`` or ``"  - a"`` legitimately
stands many times, and a ghost piece of a redrawn line (its first rows, left by a resize) is not the line.

``find_copy`` takes the terminal's lines above the viewport, the committed rows with the logical line each belongs
to, and where the checker found each committed row among the terminal's lines.  The terminal's lines that hold no
committed row are the extras (ghosts, blank rows, and copies).  A committed line is shown twice when a run of extras
right before or after the place it was found holds its whole text again: two different lines with the same text are
both found in order (neither is an extra), so they are never taken for a copy.  Text is compared without its
whitespace, so a line re-wrapped at another width (other row breaks, another continuation indent) is the same line.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = ["Copy", "committed_lines", "find_copy", "squeeze"]


def squeeze(text: str) -> str:
    """``text`` without its whitespace: a line compared across widths, row breaks and indents."""
    return "".join(text.split())


@dataclass(frozen=True, slots=True)
class Copy:
    """The committed line ``text`` was found at terminal line ``found`` and stands again at ``again``."""

    text: str
    found: int
    again: int

    def describe(self) -> str:
        """One line for an assertion message."""
        return (
            f"committed line {self.text!r} is shown twice above the viewport "
            f"(terminal lines {min(self.found, self.again)} and {max(self.found, self.again)})"
        )


@dataclass(frozen=True, slots=True)
class _Line:
    text: str  # the rows joined, squeezed
    shown: str  # the rows joined, for the message
    first: int  # the terminal line of its first found row (-1: none found)
    last: int


def committed_lines(rows: Sequence[str], line_ids: Sequence[int], positions: Sequence[int]) -> list[_Line]:
    """The committed logical lines: consecutive rows with the same line id, with where their rows were found."""
    out: list[_Line] = []
    index = 0
    while index < len(rows):
        end = index + 1
        while end < len(rows) and line_ids[end] == line_ids[index]:
            end += 1
        found = [p for p in positions[index:end] if p >= 0]
        text = "".join(rows[index:end])
        out.append(_Line(squeeze(text), text, min(found, default=-1), max(found, default=-1)))
        index = end
    return out


def _in_place(squeezed: list[str], start: int, waiting: Sequence[str], unseen: int = 0) -> set[int]:
    """The terminal lines from ``start`` on that hold the ``waiting`` lines one after another (each whole, over one
    or more consecutive lines), up to the first that does not; the first ``unseen`` of them may be missing (the
    viewport did not show them: they never reached the terminal)."""
    found: set[int] = set()
    index = start
    for number, text in enumerate(waiting):
        joined, end = "", index
        while end < len(squeezed) and len(joined) < len(text) and text.startswith(joined + squeezed[end]):
            joined += squeezed[end]
            end += 1
        if joined != text or end == index:
            if number < unseen:
                continue
            break
        found.update(range(index, end))
        index = end
    return found


def _extras(start: int, step: int, shown: int, matched: set[int]) -> list[int]:
    """The terminal lines from ``start`` on (going by ``step``) up to the next one holding a committed row."""
    out: list[int] = []
    index = start
    while 0 <= index < shown and index not in matched:
        out.append(index)
        index += step
    return sorted(out)


def _window(run: list[int], squeezed: list[str], text: str) -> int:
    """The first terminal line of a run of consecutive ``run`` lines whose text is exactly ``text`` (-1: none)."""
    for a in range(len(run)):
        if not squeezed[run[a]]:
            continue  # a copy starts with text: blank lines before it are blank lines
        joined = ""
        for b in range(a, len(run)):
            if not squeezed[run[b]] or (b > a and run[b] != run[b - 1] + 1):
                break  # a line's rows follow each other: pieces with blank lines between are pieces, not a copy
            joined += squeezed[run[b]]
            if joined == text:
                return run[a]
            if not text.startswith(joined):
                break
    return -1


def find_copy(
    shown: Sequence[str],
    rows: Sequence[str],
    line_ids: Sequence[int],
    positions: Sequence[int],
    declared: Collection[str] = (),
    open_last: bool = False,
    waiting: Sequence[str] = (),
    unseen: int = 0,
) -> Copy | None:
    """The first committed line whose whole text stands again among the extras next to where it was found.

    ``shown``: the terminal's logical lines above the viewport; ``rows``: the committed rows in order, ``line_ids``
    the logical line of each, ``positions`` the terminal line where each was found (-1: not found, the loss check
    reports that); ``declared``: texts (squeezed) the renderer said it inserts again, their copies are not reported;
    ``open_last``: the last committed line goes on in rows not committed yet (a copy of its start is no copy of it);
    ``waiting``: the log's next lines (squeezed), not inserted yet: right after the last committed row, in order,
    they are in their place (a shrink pushed them into history before they could be counted), no copies; the first
    ``unseen`` of them were above the viewport's tail, not drawn, and may be missing there.
    """
    matched = {p for p in positions if p >= 0}
    squeezed = [squeeze(line) for line in shown]
    matched |= _in_place(squeezed, max(matched, default=-1) + 1, waiting, unseen)
    lines = committed_lines(rows, line_ids, positions)
    for line in lines[:-1] if open_last else lines:
        if not line.text or line.first < 0 or line.text in declared:
            continue  # a blank line is never a copy; a line not found is the loss check's
        if "".join(squeezed[line.first : line.last + 1]) != line.text:
            continue  # found cut (or joined with another): a whole copy next to it is the line, the cut one a piece
        for start, step in ((line.last + 1, 1), (line.first - 1, -1)):
            again = _window(_extras(start, step, len(shown), matched), squeezed, line.text)
            if again >= 0:
                return Copy(line.shown.strip(" "), line.first, again)
    return None
