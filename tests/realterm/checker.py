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

A terminal that shows *stale cells* (xterm) is judged with ``stale=StaleCells(...)``.  xterm keeps a
row's cells up to the next multiple of 4 of a narrower width, hidden, and no erase reaches them
(``ESC[K``, ``ESC[1K``, ``ESC[2K``, ``ESC[J``, ``ECH``, ``DL``/``IL``: measured): a later widening shows
them again after whatever was written at the narrow width, for any program (the ``--plain``
reference too).  Its ``print-immediate()`` also prints cells past the storage of a saved line, which
xterm does not show (compared with a screenshot of the scrolled-back window).  So a row whose
text is followed by such a tail is judged without the tail when the row as it is does not match:
the tail starts on a hidden column (``bands``: a row written to the full width is followed by them
directly), or after at least two blank cells at or past the narrowest width of the run.  The storm
lines never hold two spaces in a row, and the row as it is is always tried first, so no text of
theirs is dropped (where the row as it is fits only because a stale cell happens to be the line's
next letter, the rows after it decide: each way is read on); the rows so judged are counted
(``Verdict.stale``).  What this cannot tell apart: a row the library failed to erase whose old tail
happens to start on such a column; the same bytes are judged without any of this on the terminals
that show no stale cells (tmux, VTE, xterm.js).

Rows that a terminal marks as soft-wrapped (``wrapped[i]``: row ``i`` continues row ``i - 1``)
are joined first, as the terminal would show them when wider.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wcwidth import wcwidth

__all__ = [
    "ID",
    "StaleCells",
    "TerminalText",
    "Verdict",
    "check",
    "check_stream",
    "join_wrapped",
    "without_stale_tail",
]

# A line's id starts its first row, after what the library draws in front of a Markdown line's text (a heading's
# mark, a list's marker or number, a quote's bar, the indent).
ID = re.compile(r"^(?:[^\w]|\d+[.)])*?(L\d{4}|P\d{3})(?=\s|$|[^\x00-\x7f])")
# A row of box-drawing characters only (a table's rule): drawn around content, never content of its own.
_DECOR = re.compile(r"^[\s\u2500-\u257f]*$")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class TerminalText:
    """What an adapter read: every row (history, then screen), which rows are soft-wrapped, the cursor."""

    rows: tuple[str, ...]
    wrapped: tuple[bool, ...] | None = None
    cursor: tuple[int, int] | None = None
    """(column, row) of the cursor, the row counted in ``rows`` (None when the terminal cannot tell)."""


@dataclass(frozen=True, slots=True)
class StaleCells:
    """Where a terminal may show cells nobody wrote at the width of the moment (see the module docstring)."""

    narrowest: int
    """The narrowest width the terminal had: a tail after two blank cells from here on is stale."""
    bands: frozenset[int]
    """Hidden columns: ``w`` up to the next multiple of 4 for every width ``w`` the terminal had."""

    @classmethod
    def of_widths(cls, widths: list[int] | tuple[int, ...]) -> StaleCells:
        """The stale columns of a terminal that had each of ``widths``."""
        bands = frozenset(column for width in widths for column in range(width, -(-width // 4) * 4))
        return cls(min(widths), bands)


def without_stale_tail(row: str, stale: StaleCells) -> tuple[str, ...]:
    """The ways ``row`` may read without a stale tail (see ``StaleCells``), the longest first."""
    cuts: list[str] = []
    column, blanks, blank_from = 0, 0, 0
    for index, char in enumerate(row):
        if char == " ":
            blank_from = index if blanks == 0 else blank_from
            blanks += 1
            column += 1
            continue
        if column in stale.bands or (blanks >= 2 and column >= stale.narrowest):
            cuts.append(row[: blank_from if blanks else index].rstrip())
        blanks = 0
        column += max(wcwidth(char), 0)
    return tuple(reversed(cuts))


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
    stale: tuple[str, ...] = ()
    """Rows judged without a tail of stale cells (``check(stale=...)``), as the terminal showed them."""
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
            + (f", rows with stale cells {len(self.stale)}" if self.stale else "")
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


def _group(
    rows: list[str], alternates: list[tuple[str, ...]], i: int, target: str, truncating: bool, used: set[int]
) -> tuple[int, bool, bool]:
    """The rows from ``i`` that hold the line ``target``: (end, whole, consistent).

    ``consistent``: the rows are the line's start (or, ``truncating``, each row a cut copy of one
    of the line's rows, in order: what a terminal that truncates rows on narrowing leaves).
    ``alternates[k]``: row ``k`` without a stale tail, tried when the row as it is does not fit, or when it fits
    only by a stale cell that happens to be the line's next letter (the rows after it then do not fit: ``_read``
    reads on from each way a row can be taken); the rows judged so are added to ``used``.
    """
    way = _read(rows, alternates, i, target, truncating)
    if way is None:
        return i + 1, False, False
    used.update(way.stale_rows)
    return way.end, way.whole, True


@dataclass(frozen=True, slots=True)
class _Way:
    """One way of reading rows as a line: where it ends, whether it is the whole line, the rows read without a
    stale tail."""

    end: int
    whole: bool
    stale_rows: tuple[int, ...]

    def better_than(self, other: _Way | None) -> bool:
        """Whole beats part, more rows beat fewer, fewer rows read without their tail beat more."""
        if other is None:
            return True
        return (self.whole, self.end, -len(self.stale_rows)) > (other.whole, other.end, -len(other.stale_rows))


def _read(rows: list[str], alternates: list[tuple[str, ...]], i: int, target: str, truncating: bool) -> _Way | None:
    """The best way (``_Way.better_than``) to read the rows from ``i`` as the line ``target``, or None when row ``i``
    does not start it. Searched depth first from each way a row can be read (as it is first, then each stale-tail
    cut); a state is (row, position in the line, exact so far), so each is read once."""

    def pieces(k: int) -> list[tuple[str, bool]]:
        shown = _squeeze(rows[k])
        cuts = [cut for cut in dict.fromkeys(map(_squeeze, alternates[k])) if cut != shown]
        return [(shown, False), *((cut, True) for cut in cuts)]

    best: _Way | None = None
    seen_states: set[tuple[int, int, bool]] = set()

    def walk(end: int, position: int, exact: bool, stale_rows: tuple[int, ...]) -> None:
        nonlocal best
        if (end, position, exact) in seen_states:
            return
        seen_states.add((end, position, exact))
        whole = exact and position == len(target)
        here = _Way(end, whole, stale_rows)
        if here.better_than(best):
            best = here
        if whole or end >= len(rows) or ID.match(rows[end]) or not rows[end].strip():
            return
        for piece, stale in pieces(end):
            marked = (*stale_rows, end) if stale else stale_rows
            if exact and target.startswith(piece, position):
                walk(end + 1, position + len(piece), True, marked)
            elif truncating and (found := target.find(piece, position)) >= 0:
                walk(end + 1, found + len(piece), False, marked)

    for piece, stale in pieces(i):
        if target.startswith(piece):
            walk(i + 1, len(piece), True, (i,) if stale else ())
    return best


def check(
    text: TerminalText,
    lines: list[str] | tuple[str, ...],
    *,
    truncating: bool = False,
    stale: StaleCells | None = None,
    own: re.Pattern[str] | None = None,
) -> Verdict:
    """Judge ``text`` against the committed ``lines`` (in the order they were committed).

    ``truncating``: the terminal cuts rows when it narrows (xterm), so a line whose rows are cut
    copies of its rows is *truncated* (found, counted apart), not missing.  ``stale``: the terminal
    shows stale cells there (xterm); a row that fits only without its stale tail is counted apart.  ``own``: rows
    of the app's own that carry no id (the demo's "runtime ready" line), neither lines nor ghosts.
    """
    order: dict[str, int] = {}
    wanted: dict[str, str] = {}
    for line in lines:
        ident = _ident(line)
        if ident is None or ident in order:
            raise ValueError(f"committed line without a unique id: {line!r}")
        order[ident], wanted[ident] = len(order), _squeeze(line)
    rows = join_wrapped(text)
    alternates = [() if stale is None else without_stale_tail(row, stale) for row in rows]
    used: set[int] = set()  # rows judged without their stale tail
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
        if "" in alternates[i]:  # nothing but a stale tail
            used.add(i)
            i += 1
            continue
        if ident is None and (_DECOR.match(row) or (own is not None and own.fullmatch(row.rstrip()))):
            i += 1
            continue
        if ident is None and any(_DECOR.match(cut) for cut in alternates[i]):  # a rule, then a stale tail
            used.add(i)
            i += 1
            continue
        if ident is None or ident not in wanted:
            ghosts.append(row)
            i += 1
            continue
        end, is_whole, consistent = _group(rows, alternates, i, wanted[ident], truncating, used)
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
        stale=tuple(rows[index] for index in sorted(used)),
        cursor_gap=_cursor_gap(text),
    )


def _cursor_gap(text: TerminalText) -> int | None:
    if text.cursor is None:
        return None
    filled = [index for index, row in enumerate(text.rows) if row.strip()]
    return text.cursor[1] - (filled[-1] + 1 if filled else 0)


# What the library draws around a line's text and repeats or drops as the width changes: a question's and an
# answer's mark, a nested item's bullet, a quote's bar and a table's rules (box drawing), a code line's
# continuation arrow, a tool's gear.  Never content: the sessions' text is words, ids and neutralized controls.
_DRAWN = re.compile(r"[\s\u2500-\u257f\u203a\u25b8\u25e6\u2022\u21aa\u2699]+")


def _flat(text: str) -> str:
    return _DRAWN.sub("", text)


def check_stream(text: TerminalText, lines: tuple[str, ...], others: tuple[str, ...] = ()) -> Verdict:
    """Judge ``text`` by its text, not by its rows: for terminals a few cells wide (``sessions``).

    There a line's id spans rows, and the rows the library draws (a marker, a bar) come and go with the width.
    So the rows are read as one text without whitespace and without what the library draws around lines
    (``_DRAWN``); each committed line (its marker too) is *found* once for each time it occurs whole in it.
    ``others`` are committed rows without an id (a preview's header): their occurrences are not counted, but the
    rows they cover are not ghosts.  A line never found whole whose id occurs is *cut*; out of order compares
    first occurrences; a ghost is a row holding text that no occurrence covers.
    """
    wanted: dict[str, str] = {}
    for line in lines:
        match = ID.match(line)
        if match is None or match.group(1) in wanted:
            raise ValueError(f"committed line without a unique id: {line!r}")
        wanted[match.group(1)] = _flat(line)
    rows = [row for row in join_wrapped(text) if not _DECOR.match(row)]
    flat_rows = [_flat(row) for row in rows]
    stream = "".join(flat_rows)
    covered = bytearray(len(stream))
    whole: dict[str, list[int]] = {}
    for target in [*wanted.values(), *map(_flat, others)]:
        at = stream.find(target) if target else -1
        while at >= 0:
            covered[at : at + len(target)] = b"\x01" * len(target)
            whole.setdefault(target, []).append(at)
            at = stream.find(target, at + len(target))
    ghosts: list[str] = []
    start = 0
    for row, flat in zip(rows, flat_rows, strict=True):
        if flat and not all(covered[start : start + len(flat)]):
            ghosts.append(row)
        start += len(flat)
    found = [ident for ident, target in wanted.items() if whole.get(target)]
    missing = tuple(ident for ident in wanted if ident not in found)
    firsts = sorted(found, key=lambda ident: whole[wanted[ident]][0])
    order = {ident: index for index, ident in enumerate(wanted)}
    keep = _longest_increasing([order[ident] for ident in firsts])
    return Verdict(
        expected=len(wanted),
        found=len(found),
        missing=missing,
        cut=tuple(ident for ident in missing if ident in stream),
        duplicated=tuple(ident for ident in found if len(whole[wanted[ident]]) > 1),
        out_of_order=tuple(ident for index, ident in enumerate(firsts) if index not in keep),
        ghosts=tuple(ghosts),
        cursor_gap=_cursor_gap(text),
    )
