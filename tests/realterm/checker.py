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

A terminal that cuts rows when it narrows (xterm) is judged with ``truncating=True``: a line whose
rows are cut copies of its own rows is *truncated*, found but counted apart; the ``--plain``
reference run tells how many the terminal truncates by itself.

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
    truncated: tuple[str, ...] = ()
    """Lines found only cut short by the terminal's own narrowing (``check(truncating=True)``)."""
    cursor_gap: int | None = None
    """Rows between the last non-blank row and the cursor after the exit, minus one: 0 is right
    (the shell's prompt follows the transcript), None when the terminal does not tell."""

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
            + (f", truncated by the terminal {len(self.truncated)}" if self.truncated else "")
            + (f", cursor {self.cursor_gap:+d} rows off the line after the text" if self.cursor_gap else "")
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


def _group(rows: list[str], i: int, target: str, truncating: bool) -> tuple[int, bool, bool]:
    """The rows from ``i`` that hold the line ``target``: (end, whole, consistent).

    ``consistent``: the rows are the line's start (or, ``truncating``, each row a cut copy of one
    of the line's rows, in order: what a terminal that truncates rows on narrowing leaves).
    """
    seen, end = _squeeze(rows[i]), i + 1
    if not target.startswith(seen):
        return end, False, False
    position, exact = len(seen), True
    while end < len(rows) and seen != target and not ID.match(rows[end]) and rows[end].strip():
        piece = _squeeze(rows[end])
        if exact and target.startswith(seen + piece):
            seen, position, end = seen + piece, position + len(piece), end + 1
            continue
        found = target.find(piece, position) if truncating else -1
        if found < 0:
            break
        seen, position, end, exact = seen + piece, found + len(piece), end + 1, False
    return end, exact and seen == target, True


def check(text: TerminalText, lines: list[str] | tuple[str, ...], *, truncating: bool = False) -> Verdict:
    """Judge ``text`` against the committed ``lines`` (in the order they were committed).

    ``truncating``: the terminal cuts rows when it narrows (xterm), so a line whose rows are cut
    copies of its rows is *truncated* (found, counted apart), not missing.
    """
    order: dict[str, int] = {}
    wanted: dict[str, str] = {}
    for line in lines:
        ident = _ident(line)
        if ident is None or ident in order:
            raise ValueError(f"committed line without a unique id: {line!r}")
        order[ident], wanted[ident] = len(order), _squeeze(line)
    rows = join_wrapped(text)
    seen_ids: list[str] = []  # ids of whole (or, truncating, cut) occurrences, in the order of the text
    whole: dict[str, int] = {}
    partial: dict[str, list[str]] = {}  # id -> the rows' text of each occurrence holding only part of it
    ghosts: list[str] = []
    i = 0
    while i < len(rows):
        row = rows[i]
        ident = _ident(row)
        if not row.strip():
            i += 1
            continue
        if ident is None or ident not in wanted:
            ghosts.append(row)
            i += 1
            continue
        end, is_whole, consistent = _group(rows, i, wanted[ident], truncating)
        if is_whole:
            whole[ident] = whole.get(ident, 0) + 1
            seen_ids.append(ident)
        elif consistent:
            partial.setdefault(ident, []).append("\n".join(rows[i:end]))
            if truncating:
                seen_ids.append(ident)
        else:
            ghosts.extend(rows[i:end])
        i = end
    truncated = tuple(ident for ident in order if truncating and ident not in whole and ident in partial)
    missing = tuple(ident for ident in order if ident not in whole and ident not in truncated)
    cut = tuple(ident for ident in missing if ident in partial)
    for ident, copies in partial.items():
        # Part copies of a line found whole are leftovers; a truncated line is its first copy.
        ghosts.extend(copies if ident in whole else copies[1:] if ident in truncated else [])
    firsts: list[str] = []
    for ident in seen_ids:
        if ident not in firsts and (ident in whole or ident in truncated):
            firsts.append(ident)
    keep = _longest_increasing([order[ident] for ident in firsts])
    return Verdict(
        expected=len(order),
        found=len(whole) + len(truncated),
        missing=missing,
        cut=cut,
        duplicated=tuple(ident for ident in order if whole.get(ident, 0) > 1),
        out_of_order=tuple(ident for index, ident in enumerate(firsts) if index not in keep),
        ghosts=tuple(ghosts),
        truncated=truncated,
        cursor_gap=_cursor_gap(text),
    )


def _cursor_gap(text: TerminalText) -> int | None:
    if text.cursor is None:
        return None
    filled = [index for index, row in enumerate(text.rows) if row.strip()]
    return text.cursor[1] - (filled[-1] + 1 if filled else 0)
