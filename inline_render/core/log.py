"""The log: entries not yet in scrollback, the source-text boundary, and all their rows at a width.

Rows already inserted into the terminal's scrollback are not kept: the log
holds only entries with text still to insert, and ``head`` (an offset into the
first entry) is the scrollback boundary as a *source position* (DESIGN, Rules).
A resize re-wraps from ``head`` only, so nothing is inserted twice or skipped.
Only the last rows inserted are remembered (``LogState.last_inserted``): the rows
right above the viewport, which a resize may find written over and insert again.

The entries and their rows' type are in ``entry``, the wrapping of one entry in ``wrap``; their public names are
importable from here too, where they were first.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..markdown.stream import View, view_extend, view_final, view_freeze, view_replace, view_trim
from ..text.align import continued_at
from ..text.cells import WidthPolicy, expand_tabs, sanitize, text_width
from .chunks import Tail
from .entry import (
    DECORATED_PREFIX_WIDTH,
    MARKDOWN_KINDS,
    RICH_KINDS,
    Again,
    Entry,
    Lineage,
    LogRow,
    RenderOptions,
    continues_line,
    same_line,
    within_piece,
)
from .evolve import evolve
from .rowseq import Part, RowSeq
from .wrap import Span, again_rows, entry_rows, has_rows_from, make_row, streaming_part

__all__ = [
    "DECORATED_PREFIX_WIDTH",
    "MARKDOWN_KINDS",
    "RICH_KINDS",
    "Again",
    "Entry",
    "LogRow",
    "LogState",
    "RenderOptions",
    "continues_line",
    "entry_rows",
    "flushed_rows",
    "log_rows",
    "same_line",
]


def _prepare(text: str, column: int) -> str:
    return expand_tabs(sanitize(text), column)


def _source(view: View, text: str) -> str:
    """The source a view keeps: sanitized, tabs kept (Markdown expands them in code itself); trusted
    ANSI raw, as its parser keeps SGR and sanitizes everything else (spans.py)."""
    return text if view.mode == "ansi" else sanitize(text)


@dataclass(frozen=True, slots=True)
class LogState:
    """Entries with text not yet inserted into scrollback, oldest first."""

    entries: tuple[Entry, ...] = ()
    head: int = 0
    next_key: int = 0
    options: RenderOptions | None = None  # None: every kind verbatim (as before Markdown)
    again: tuple[Again, ...] = ()  # inserted before ``entries`` (``reinsert``), oldest first
    flush: bool = False  # every ``again`` row leaves the viewport at once (``cleared``: a /clear keeps what was shown)
    # The last rows inserted (at most ``_LAST_INSERTED``), oldest first: the rows right above the viewport.  A frame in
    # flight at a widening may have written over them (``resize_replay.joined_at_a_widening``); their entries may be
    # gone from the log by then, so their rows are kept to insert them again (``reinsert``).
    last_inserted: tuple[LogRow, ...] = ()

    def _entry(
        self,
        key: int,
        kind: str,
        text: str,
        entry_id: str | None,
        final: bool,
        language: str | None = None,
        styled: bool = False,
    ) -> Entry:
        options = self.options
        view = options.view_for(kind, language=language, styled=styled) if options is not None else None
        if view is None:
            prepared = _prepare(text, 0)
            lines_end = prepared.rfind("\n") + 1
            return Entry(key, kind, prepared, entry_id, final, None, 0, lines_end, Lineage(len(prepared)))
        view = view_extend(view, _source(view, text))
        if final:
            view = view_final(view)  # as ``finish`` renders a streamed entry's last line
        return Entry(key, kind, view.text, entry_id, final, view)

    def find(self, entry_id: str) -> int:
        """Index of the newest pending entry with ``entry_id``, or -1."""
        for index in range(len(self.entries) - 1, -1, -1):
            if self.entries[index].id == entry_id:
                return index
        return -1

    def append(
        self,
        kind: str,
        text: str,
        entry_id: str | None = None,
        final: bool = True,
        language: str | None = None,
        styled: bool = False,
    ) -> LogState:
        """Add an entry at the end (``language``, ``styled``: see ``RenderOptions.view_for``)."""
        entry = self._entry(self.next_key, kind, text, entry_id, final, language, styled)
        return evolve(self, entries=(*self.entries, entry), next_key=self.next_key + 1)

    def extend(self, appends: Sequence[tuple[str, str, bool]]) -> LogState:
        """``append`` of every (kind, text, final) in order, without ids."""
        key = self.next_key
        added = [
            self._entry(key + number, kind, text, None, final) for number, (kind, text, final) in enumerate(appends)
        ]
        return evolve(self, entries=(*self.entries, *added), next_key=key + len(added))

    def _with(self, index: int, entry: Entry) -> LogState:
        entries = self.entries
        return evolve(self, entries=(*entries[:index], entry, *entries[index + 1 :]), next_key=self.next_key + 1)

    def delta(self, index: int, text: str) -> LogState:
        """Append streamed ``text`` to the unfinished entry at ``index``."""
        old = self.entries[index]
        if old.view is not None:
            view = view_extend(old.view, _source(old.view, text))
            return self._with(index, Entry(self.next_key, old.kind, view.text, old.id, old.final, view, old.base))
        old_size = old.size
        column = text_width(old.piece(old.lines_end, old_size)) if "\t" in text else 0
        more = _prepare(text, column)
        newline = more.rfind("\n")
        lines_end = old.lines_end if newline < 0 else old_size + newline + 1
        size = old_size + len(more)
        lineage = old.lineage.extend(old_size, size) if old.lineage is not None else None
        tail = old.tail
        if newline < 0 and (tail is not None or size - lines_end > _OPEN_PIECES):
            # A long open line grows in pieces (``chunks.Tail``): a delta costs its own length, not the line's.
            body = old.body if tail is not None else old.body[:lines_end]
            tail = tail.extend(more) if tail is not None else Tail.of(old.body[lines_end:] + more)
            entry = Entry(self.next_key, old.kind, body, old.id, old.final, None, old.base, lines_end, lineage, tail)
        else:
            text = old.text + more  # the line ends (or is short): joined into one text again
            entry = Entry(self.next_key, old.kind, text, old.id, old.final, None, old.base, lines_end, lineage)
        return self._with(index, entry)

    def freeze(self, row: LogRow) -> LogState:
        """The log with the text of its first entry up to ``row``'s end kept as it is: rows up to there reached the
        terminal's history by the terminal's own doing (a shrink pushed them), so they may no longer change
        (``markdown.stream.view_freeze``; a verbatim entry's open line is split there, ``_split_open_line``)."""
        index = next((i for i, entry in enumerate(self.entries) if entry.key == row.entry.key), -1)
        if index < 0 or not all(entry.final for entry in self.entries[:index]):
            return self  # only the first unfinished entry holds rows past the committed ones
        old = self.entries[index]
        if old.final or row.end <= old.committed:
            return self
        if old.view is None:
            return self._split_open_line(index, row.end)
        view = view_freeze(old.view, row.end)
        if view is old.view or view.text != old.view.text:
            return self  # the same display text or nothing: a freeze never moves a row
        return self._with(index, Entry(self.next_key, old.kind, view.text, old.id, old.final, view, old.base))

    def _split_open_line(self, index: int, cut: int) -> LogState:
        """The verbatim entry at ``index`` as two: its text up to ``cut`` (inside its open line) finished, the rest
        open and continued from there (``Entry.base``), under the same id.

        A shrink pushed the open line's rows up to ``cut`` into history.  Kept open, they were drawn again below
        once the line grew, and history held a ghost copy of its start; split, they count as inserted and the
        line goes on from the next row: its text once, its rows broken where the shrink found them."""
        old = self.entries[index]
        if old.tail is not None or not 0 < cut <= old.size:
            return self  # an open line kept in pieces has no offsets to cut at
        text = old.body
        head = text[:cut]
        done = Entry(self.next_key, old.kind, head, old.id, True, None, old.base, head.rfind("\n") + 1, Lineage(cut))
        rest = text[cut:]
        going = Entry(self.next_key + 1, old.kind, rest, old.id, False, None, old.base + cut, 0, Lineage(len(rest)))
        entries = (*self.entries[:index], done, going, *self.entries[index + 1 :])
        return evolve(self, entries=entries, next_key=self.next_key + 2)

    def replace_text(self, index: int, text: str) -> LogState:
        """New full text of the unfinished entry at ``index``; the committed part is kept as is."""
        old = self.entries[index]
        if old.view is not None:
            view = view_replace(old.view, _source(old.view, text))
            return self._with(index, Entry(self.next_key, old.kind, view.text, old.id, old.final, view, old.base))
        committed = old.committed
        new_text = _prepare(text, 0)
        # Committed text may already be in scrollback: only the unfinished part changes.  ``text`` starts
        # at ``base`` of the whole text, and the new text is a whole text.
        shown = old.piece(0, committed)
        kept = shown + new_text[continued_at(shown, new_text, old.base) :]
        entry = Entry(
            self.next_key, old.kind, kept, old.id, old.final, None, old.base, kept.rfind("\n") + 1, Lineage(len(kept))
        )
        return self._with(index, entry)

    def finish(self, index: int) -> LogState:
        """Mark the entry at ``index`` final."""
        old = self.entries[index]
        view = view_final(old.view) if old.view is not None else None  # a held-back partial line is parsed now
        text = view.text if view is not None and view is not old.view else old.text
        entry = Entry(self.next_key, old.kind, text, old.id, True, view, old.base, old.lines_end, old.lineage)
        done = self._with(index, entry)
        if index == 0 and self.head > 0 and self.head >= entry.shown_end and not has_rows_from(entry, self.head):
            # Everything but the trailing newline is in scrollback already: nothing left to draw.
            return replace(done, entries=done.entries[1:], head=0)
        return done

    def advance(self, rows: tuple[LogRow, ...]) -> LogState:
        """Drop the text of ``rows`` (the oldest pending rows, just inserted into scrollback); they are the last
        inserted now (``last_inserted``)."""
        if not rows:
            return self
        return evolve(self._dropped(rows), last_inserted=_last_rows(self.last_inserted, rows))

    def _dropped(self, rows: tuple[LogRow, ...]) -> LogState:
        """``advance`` but for ``last_inserted``."""
        if self.again:
            log, rows = self._advance_again(rows)
            return log._dropped(rows) if rows else log
        last = rows[-1]
        entries = self.entries
        index = 0
        while entries[index].key != last.entry.key:  # cached rows may hold an equal, older Entry object
            index += 1
        entry = entries[index]
        if (
            last.end >= entry.shown_end
            and entry.final
            and (last.start == last.end or not has_rows_from(entry, last.end))
        ):
            return evolve(self, entries=entries[index + 1 :], head=0)
        head = last.end
        view = entry.view
        trim = head >= _TRIM_MIN and head * 2 >= entry.size
        if trim and view is not None and view.mode in ("markdown", "text") and view.stable_lines:
            # A Markdown entry (or one gone on as text, markdown.guard) drops its stable lines before the one holding
            # ``head`` (same amortization).
            _, cut, number = view.line_at(min(head, len(view.stable_text) - 1))
            if cut and number < len(view.stable_lines):
                view = view_trim(view, cut)
                entry = Entry(self.next_key, entry.kind, view.text, entry.id, entry.final, view, entry.base + cut)
                return evolve(self, entries=(entry, *entries[index + 1 :]), head=head - cut, next_key=self.next_key + 1)
        if trim and entry.view is None:
            # Drop the inserted text up to the start of the line holding ``head`` (rows keep their line
            # starts).  Only once it is at least half the text: each character is copied O(1) times.
            cut = entry.body.rfind("\n", 0, head) + 1  # head <= lines_end: in ``body``
            if cut:
                entry = _trimmed(entry, cut, self.next_key)
                head -= cut
                return evolve(self, entries=(entry, *entries[index + 1 :]), head=head, next_key=self.next_key + 1)
        return evolve(self, entries=entries[index:], head=head)

    def _advance_again(self, rows: tuple[LogRow, ...]) -> tuple[LogState, tuple[LogRow, ...]]:
        """``advance`` through the ``again`` pieces: the state without the rows inserted from them, and the
        rows left for the entries (a piece's rows hold its own entry object, in order)."""
        again = list(self.again)
        used = 0
        while again and used < len(rows):
            piece = again[0]
            taken = used
            # The same entry version (its key): a row may hold an equal object of it (rows are cached by value).
            while taken < len(rows) and rows[taken].entry.key == piece.entry.key and within_piece(rows[taken], piece):
                taken += 1
            if taken == used:
                if rows[used].entry.key != piece.entry.key:
                    again.pop(0)  # rows come in order: a piece the next row is not of has none left at this width
                    continue
                break
            last = rows[taken - 1]
            used = taken
            # Rows are cut at ``end``: the piece is done at its end, unless an empty last row is still to come.
            if last.end == piece.end and (last.start == last.end or not piece.empty_last):
                again.pop(0)
            else:  # resumed where the insertion stopped, as ``head`` is
                again[0] = piece._replace(start=last.end)
        return evolve(self, again=tuple(again), flush=self.flush and bool(again)), rows[used:]

    def cleared(self) -> LogState:
        """An empty log that first inserts what this one had not inserted yet (``log.clear``, ``/clear``).

        What the viewport showed, and what waited unseen above it, goes into scrollback before the fresh log
        shows anything, as a shell's Ctrl-L keeps history: a reset never loses a row that reached the screen.
        An entry still streaming ends here (what came of it is kept; later updates name an entry no longer there).
        """
        log = self
        # The last first: finishing the first entry may drop it (all of it in scrollback), which moves the others.
        for index in reversed(range(len(self.entries))):
            if not self.entries[index].final:
                log = log.finish(index)
        pieces = list(log.again)
        for index, entry in enumerate(log.entries):
            start = log.head if index == 0 else 0
            end = entry.shown_end
            if end > start:  # an empty entry has nothing to keep (as Markdown it has no row at all)
                # A shown text that ends with a newline ends with an empty row, which is kept too.
                pieces.append(Again(entry, start, end, entry.piece(end - 1, end) == "\n"))
        return LogState(
            next_key=log.next_key,
            options=self.options,
            again=tuple(pieces),
            flush=bool(pieces),
            last_inserted=self.last_inserted,  # still right above the viewport: a /clear erases no row
        )

    def reinsert(self, rows: Sequence[LogRow]) -> LogState:
        """Insert the text of ``rows`` (inserted already, in order) again, each line from its start.

        A resize found these rows garbled in scrollback (``replay``): their lines are inserted once more,
        whole (the garbled copy above is a ghost).  The rows of one entry version make one piece; a later
        version of the same entry (a streamed delta) whose rows continue it extends it.
        """
        again = list(self.again)
        for row in rows:
            empty = row.start == row.end
            if again and _continues(again[-1], row):
                kept, start = again[-1].entry, again[-1].start
                start += kept.base - row.entry.base  # the newer version's offsets
                again[-1] = Again(row.entry, start, row.end, empty)
            else:
                again.append(Again(row.entry, row.line_start, row.end, empty))
        return evolve(self, again=tuple(again))


def _last_rows(last: tuple[LogRow, ...], rows: Sequence[LogRow]) -> tuple[LogRow, ...]:
    """The last ``_LAST_INSERTED`` of ``last`` then ``rows`` (a flood of rows is not copied whole to keep a few)."""
    if len(rows) >= _LAST_INSERTED:
        return tuple(rows[len(rows) - _LAST_INSERTED :])
    return (*last[max(0, len(last) + len(rows) - _LAST_INSERTED) :], *rows)


def _continues(piece: Again, row: LogRow) -> bool:
    """``row`` is of a newer version of the piece's entry (the same object or lineage, or the same id, kind and
    text over the piece: a trimmed version) that still holds the piece's start, and its line starts inside the
    piece: the piece can extend to it.  An id alone is not enough: a new entry may reuse a finished one's."""
    kept, entry = piece.entry, row.entry
    start = kept.base + piece.start  # where the piece starts in the entry's whole text
    if entry.base > start or entry.base + row.line_start > kept.base + piece.end:
        return False
    if kept is entry or (kept.lineage is not None and kept.lineage is entry.lineage):
        return True
    if kept.id is None or kept.id != entry.id or kept.kind != entry.kind:
        return False
    offset = start - entry.base
    return entry.piece(offset, offset + piece.end - piece.start) == kept.piece(piece.start, piece.end)


# Rows ``LogState.last_inserted`` keeps: more than a frame's moves up can overshoot (the rows a resize split between the
# viewport's top and the cursor, on one screen), on any screen a person reads.
_LAST_INSERTED = 256
_TRIM_MIN = 4096  # characters: below this, keeping inserted text costs less than copying the rest
_OPEN_PIECES = 16384  # characters: an open line longer than this is kept in pieces (``Entry.tail``)


def _trimmed(entry: Entry, cut: int, key: int) -> Entry:
    """``entry`` without its first ``cut`` characters (a line start; all of them in scrollback)."""
    return Entry(
        key,
        entry.kind,
        entry.body[cut:],
        entry.id,
        entry.final,
        None,
        entry.base + cut,
        max(0, entry.lines_end - cut),
        Lineage(entry.size - cut),  # offsets moved: rows of the untrimmed text are not reused
        entry.tail,  # the open line's pieces hold no offsets of the text: kept as they are
    )


# The last log wrapped, with its width, policy and rows: a tick that leaves the log alone (a
# keystroke, the redraw after an insertion) reuses them.  A LogState is immutable and held here, so
# the same object means the same rows (one entry: it keeps one old log alive at most).
_LAST_ROWS: dict[None, tuple[LogState, int, WidthPolicy, tuple[RowSeq[LogRow], int]]] = {}


def flushed_rows(log: LogState, width: int, policy: WidthPolicy) -> int:
    """How many rows at ``width`` a /clear sends into scrollback at once (``LogState.cleared``: its ``again`` rows)."""
    if not log.flush:
        return 0
    cells = log.options is not None and log.options.wrap_cells
    return sum(len(again_rows(piece, width, policy, cells)) for piece in log.again)


def log_rows(log: LogState, width: int, policy: WidthPolicy) -> tuple[RowSeq[LogRow], int]:
    """All pending rows at ``width``, and how many of them (a prefix) are committed.

    Scrollback is append-only and ordered, so the committed rows end at the
    first row of the first entry's line that can still change.  The rows are
    made when read (``RowSeq``): a tick reads the tail and the rows to insert.
    """
    last = _LAST_ROWS.get(None)
    if last is not None and last[0] is log and last[1] == width and last[2] is policy:
        return last[3]
    result = _log_rows(log, width, policy)
    _LAST_ROWS[None] = (log, width, policy, result)
    return result


def _log_rows(log: LogState, width: int, policy: WidthPolicy) -> tuple[RowSeq[LogRow], int]:
    parts: list[Part] = []
    total = 0
    committed = -1
    cells = log.options is not None and log.options.wrap_cells
    for piece in log.again:  # inserted once, found garbled by a resize (committed: they were inserted)
        rows = again_rows(piece, width, policy, cells)
        parts.append((None, rows, len(rows), None))
        total += len(rows)
    start = log.head
    for entry in log.entries:
        part: Part
        if entry.view is None and not entry.final:
            part = streaming_part(entry, start, width, policy, cells)
        else:
            rows = entry_rows(entry, start, width, policy, cells)
            part = (None, rows, len(rows), None)
        if committed < 0 and not entry.final:
            committed = total + _rows_before(part, entry.committed)
        parts.append(part)
        total += part[2]
        start = 0
    return RowSeq(parts, make_row), total if committed < 0 else committed


def _rows_before(part: Part, limit: int) -> int:
    """How many rows of ``part`` start before offset ``limit`` (row starts ascend)."""
    entry, items, count, last = part
    if entry is None:
        return bisect.bisect_left(items, limit, 0, count, key=_row_start)
    below = count - 1 if last is not None else count
    done = bisect.bisect_left(items, limit, 0, below, key=_span_start)
    if done == below and last is not None and last[1] < limit:
        done += 1
    return done


def _row_start(row: LogRow) -> int:
    return row.start


def _span_start(span: Span) -> int:
    return span[1]
