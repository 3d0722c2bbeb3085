"""The verdict on a terminal's text: each committed line exactly once and in order, and the ghosts.

The terminal's text is its rows, history then screen.  A committed line may cover several rows:
the library wraps it into rows of the width of the moment (word wrap, so a space at a break may
vanish), and a terminal that reflows may re-wrap those rows again.  So a line is found by its id
(``L0001`` at the start of a row) and then the rows after it that continue its text: rows are
joined while the joined text, compared without whitespace, is still a prefix of the line's text.

* a line found whole once is *found*; found whole more than once, *duplicated*;
* a line never found whole is *missing*; if a row with its id holds only the start of its text,
  it is also *cut* (the terminal truncated it, or the library erased its tail);
* lines found whole whose first occurrences are not in order are *out of order* (those outside a
  longest increasing run);
* every other non-blank row is a *ghost*: a partial row of a line found whole elsewhere (a
  leftover viewport row), a row that starts with an id but says something else, a status or
  composer row, anything else.

Rows that a terminal marks as soft-wrapped (``wrapped[i]``: row ``i`` continues row ``i - 1``)
are joined first, as the terminal would show them when wider.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ID", "TerminalText", "Verdict", "check", "join_wrapped"]

ID = re.compile(r"^(L\d{4}|P\d{3})(?=\s|$|[^\x00-\x7f])")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class TerminalText:
    """What an adapter read: every row (history, then screen), which rows are soft-wrapped, the cursor."""

    rows: tuple[str, ...]
    wrapped: tuple[bool, ...] | None = None
    cursor: tuple[int, int] | None = None
    """(column, row) of the cursor, the row counted in ``rows`` (None when the terminal cannot tell)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The counts of one run; ``ok`` when nothing is missing, duplicated or out of order."""

    expected: int
    found: int
    missing: tuple[str, ...]
    cut: tuple[str, ...]
    duplicated: tuple[str, ...]
    out_of_order: tuple[str, ...]
    ghosts: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Every committed line exactly once, in order (ghost rows are reported, not failed)."""
        return not (self.missing or self.duplicated or self.out_of_order)

    def summary(self) -> str:
        """One line: the counts, and the first few ids of each kind."""

        def some(items: tuple[str, ...]) -> str:
            return "" if not items else " (" + " ".join(items[:6]) + (" ..." if len(items) > 6 else "") + ")"

        return (
            f"{self.found}/{self.expected} found, missing {len(self.missing)}{some(self.missing)}, "
            f"of them cut {len(self.cut)}, duplicated {len(self.duplicated)}{some(self.duplicated)}, "
            f"out of order {len(self.out_of_order)}{some(self.out_of_order)}, ghost rows {len(self.ghosts)}"
        )


def join_wrapped(text: TerminalText) -> list[str]:
    """The rows with each soft-wrapped row joined onto the one before it."""
    rows: list[str] = []
    for index, row in enumerate(text.rows):
        if rows and text.wrapped is not None and index < len(text.wrapped) and text.wrapped[index]:
            rows[-1] += row
        else:
            rows.append(row)
    return rows


def _ident(row: str) -> str | None:
    match = ID.match(row)
    return match.group(1) if match else None


def _squeeze(text: str) -> str:
    return _SPACE.sub("", text)


def _longest_increasing(values: list[int]) -> set[int]:
    """Indices (into ``values``) of one longest strictly increasing subsequence."""
    best: list[int] = [1] * len(values)
    back: list[int] = [-1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i] and best[j] + 1 > best[i]:
                best[i], back[i] = best[j] + 1, j
    if not values:
        return set()
    index = max(range(len(values)), key=best.__getitem__)
    keep: set[int] = set()
    while index != -1:
        keep.add(index)
        index = back[index]
    return keep


def check(text: TerminalText, lines: list[str] | tuple[str, ...]) -> Verdict:
    """Judge ``text`` against the committed ``lines`` (in the order they were committed)."""
    order: dict[str, int] = {}
    wanted: dict[str, str] = {}
    for line in lines:
        ident = _ident(line)
        if ident is None or ident in order:
            raise ValueError(f"committed line without a unique id: {line!r}")
        order[ident], wanted[ident] = len(order), _squeeze(line)
    rows = join_wrapped(text)
    whole: list[str] = []  # ids of whole occurrences, in the order of the text
    partial: list[tuple[str, str]] = []  # (id, the rows' text) of occurrences holding only a start
    ghosts: list[str] = []
    i = 0
    while i < len(rows):
        row = rows[i]
        match = ID.match(row)
        if not row.strip():
            i += 1
            continue
        if match is None or match.group(1) not in wanted:
            ghosts.append(row)
            i += 1
            continue
        ident = match.group(1)
        target, seen, end = wanted[ident], _squeeze(row), i + 1
        while end < len(rows) and seen != target and not ID.match(rows[end]) and rows[end].strip():
            longer = seen + _squeeze(rows[end])
            if not target.startswith(longer):
                break
            seen, end = longer, end + 1
        if seen == target:
            whole.append(ident)
        elif target.startswith(seen):
            partial.append((ident, "\n".join(rows[i:end])))
        else:
            ghosts.extend(rows[i:end])
        i = end
    counts: dict[str, int] = {}
    for ident in whole:
        counts[ident] = counts.get(ident, 0) + 1
    missing = tuple(ident for ident in order if ident not in counts)
    cut = tuple(ident for ident in missing if any(p == ident for p, _ in partial))
    ghosts.extend(rows_text for ident, rows_text in partial if ident in counts)
    firsts: list[str] = []
    for ident in whole:
        if ident not in firsts:
            firsts.append(ident)
    keep = _longest_increasing([order[ident] for ident in firsts])
    out_of_order = tuple(ident for index, ident in enumerate(firsts) if index not in keep)
    return Verdict(
        expected=len(order),
        found=len(counts),
        missing=missing,
        cut=cut,
        duplicated=tuple(ident for ident in order if counts.get(ident, 0) > 1),
        out_of_order=out_of_order,
        ghosts=tuple(ghosts),
    )
