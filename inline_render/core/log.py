"""The log: entries not yet in scrollback, the source-text boundary, and their wrapped rows.

Rows already inserted into the terminal's scrollback are not kept: the log
holds only entries with text still to insert, and ``head`` (an offset into the
first entry) is the scrollback boundary as a *source position* (DESIGN, Rules).
A resize re-wraps from ``head`` only, so nothing is inserted twice or skipped.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..markdown.blocks import Options
from ..markdown.stream import View, view_extend, view_final, view_new, view_replace, view_spans, view_trim
from ..text.cells import WidthPolicy, expand_tabs, sanitize, text_width, wrap_cells, wrap_line
from ..text.style import DEFAULT, Style
from ..text.themes import DEFAULT_THEME, Theme
from .chunks import Tail
from .evolve import evolve, fast_init
from .rowseq import Part, RowSeq

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
    "log_rows",
    "same_line",
]

DECORATED_PREFIX_WIDTH = 2  # every decorated kind has a 2-cell prefix ("› ", "▸ ", ...) or indent
# Kinds whose text is Markdown (when the log renders Markdown), with the base style of their text.
MARKDOWN_KINDS: dict[str, Style] = {"assistant": DEFAULT, "reasoning": Style(dim=True, italic=True)}
# Kinds drawn from styled lines: ``diff`` (highlighted by its file's language), ``ansi`` (trusted SGR).
RICH_KINDS = {"diff": "diff", "ansi": "ansi"}


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """How the log renders rich text: Markdown kinds on or off, the theme, OSC 8 hyperlinks."""

    markdown: bool = True
    theme: Theme = DEFAULT_THEME
    hyperlinks: bool = False
    wrap_cells: bool = False
    """Verbatim text wraps by cells (``text.wrap_cells``), as the terminal wraps ``printf``'s: GNU screen
    (``Config.soft_wrap_lines``), where rows of word-wrapped text filled with blanks take more rows than
    ``printf``'s after a narrowing re-wraps them, and every extra row puts an older one out of reach."""

    def view_for(
        self,
        kind: str,
        policy: WidthPolicy = WidthPolicy.CODEPOINT,
        language: str | None = None,
        styled: bool = False,
    ) -> View | None:
        """An empty Markdown view for an entry of ``kind``, or None when its text is shown verbatim.

        ``language`` names a ``diff`` entry's lexer (a language or file name; None: the diff's headers);
        ``styled``: the text is trusted ANSI whatever the kind (an app's styled segments).
        """
        if styled:
            return view_new(Options(self.theme, DEFAULT, self.hyperlinks, policy), "ansi")
        if kind in RICH_KINDS:
            options = Options(self.theme, DEFAULT, self.hyperlinks, policy, language if kind == "diff" else None)
            return view_new(options, RICH_KINDS[kind])
        base = MARKDOWN_KINDS.get(kind) if self.markdown else None
        if base is None:
            return None
        base = self.theme.styles.get(f"kind.{kind}", base)  # a theme may restyle reasoning's dim italic
        return view_new(Options(self.theme, base, self.hyperlinks, policy))


class Lineage:
    """A token for the versions of a streaming entry's text grown by appends: ``length`` is its newest's."""

    __slots__ = ("length",)

    def __init__(self, length: int) -> None:
        self.length = length

    def extend(self, old: int, new: int) -> Lineage:
        """The lineage of a version of ``new`` characters appended to one of ``old``: this one when that
        was the newest, else (a second branch from an older version) a new one."""
        if self.length != old:
            return Lineage(new)
        self.length = new
        return self


@fast_init
@dataclass(frozen=True, slots=True)
class Entry:
    """One log entry; ``text`` is sanitized with tabs expanded, ``key`` is unique per log.

    ``text`` is ``body``, followed by the open line in ``tail`` when that is kept in pieces (a plain
    streaming entry whose open line grew long: ``chunks.Tail``); rows read slices (``piece``).
    """

    key: int
    kind: str
    body: str
    id: str | None = None
    final: bool = True
    view: View | None = None  # Markdown entries: the rendering of the source; ``text`` is its display text
    # Offset (in the whole text) where ``text`` starts: the part before it is in scrollback and was
    # dropped (``LogState.advance``), so a streaming entry holds what can still be drawn or re-wrapped.
    base: int = 0
    # A plain streaming entry: where its open line starts in ``text`` (its complete lines end there).
    lines_end: int = 0
    # Shared by versions each made by appending to the newest one (``delta``): of two versions of one
    # lineage one is a prefix of the other, so the streaming rows of one can be reused for a longer one
    # without comparing the texts (``_streaming_rows``).  Not part of the entry's value.
    lineage: Lineage | None = field(default=None, compare=False)
    # The open line (after ``body``, which then ends at ``lines_end``) when it is kept in pieces.
    tail: Tail | None = None

    @property
    def text(self) -> str:
        """The whole text (joined when the open line is in pieces: rows read ``piece``)."""
        tail = self.tail
        return self.body if tail is None else self.body + tail.read(0, tail.length)

    @property
    def size(self) -> int:
        """``len(self.text)``, without joining it."""
        tail = self.tail
        return len(self.body) if tail is None else len(self.body) + tail.length

    def piece(self, start: int, end: int) -> str:
        """``self.text[start:end]`` (``0 <= start <= end``), reading only that part."""
        body = self.body
        tail = self.tail
        if tail is None or end <= len(body):
            return body[start:end]
        size = len(body)
        if start >= size:
            return tail.read(start - size, end - size)
        return body[start:] + tail.read(0, end - size)

    def __hash__(self) -> int:
        # ``key`` is new for every version of an entry, so it alone spreads entries; hashing ``text``
        # (the dataclass default) cost O(length) for every new version of a streaming entry.
        return hash(self.key)

    @property
    def committed(self) -> int:
        """Offset up to which the text can no longer change (all of it once final)."""
        if self.final:
            return self.size
        return self.view.committed if self.view is not None else self.lines_end

    @property
    def shown(self) -> str:
        """The text as drawn: a final entry's one trailing newline adds no empty row."""
        return self.text[:-1] if self.final and self.text.endswith("\n") else self.text

    @property
    def shown_end(self) -> int:
        """``len(self.shown)``, without copying the text."""
        if self.tail is not None:
            return self.size  # an open line: it does not end with a newline
        text = self.body
        return len(text) - 1 if self.final and text.endswith("\n") else len(text)

    @property
    def first(self) -> bool:
        """Whether ``text`` starts at the entry's beginning (its first row carries the kind's prefix)."""
        return self.base == 0


class LogRow(NamedTuple):
    """One wrapped row: ``entry.text[start:end]``, in the logical line starting at ``line_start``."""

    entry: Entry
    line_start: int
    start: int
    end: int


def continues_line(row: LogRow, after: LogRow) -> bool:
    """``after`` is the next row of ``row``'s logical line (wrapped from it).  ``row`` may be of an older version
    of the entry (an open entry is a new object, with a new key, after every delta): the same entry is the same
    key or the same id (an id reused by a new entry starts its own lines at 0).  Offsets are compared in the whole
    text (``Entry.base`` on): a version may have dropped the inserted lines before the one they share."""
    this, then = row.entry, after.entry
    shift = then.base - this.base  # add to ``after``'s offsets to have them in ``row``'s version
    return (
        (then.key == this.key or (then.id is not None and then.id == this.id))
        and after.line_start + shift == row.line_start
        and after.start + shift >= row.end
        and after.start + shift > row.start
    )


def same_line(row: LogRow, after: LogRow) -> bool:
    """``after`` is a row of the same source line as ``row``, of the same entry version (its key)."""
    return after.entry.key == row.entry.key and after.line_start == row.line_start


class Again(NamedTuple):
    """Text inserted once that a resize found garbled in scrollback, to insert again (``LogState.reinsert``):
    ``entry.text[start:end]``, from the start of a line; ``empty_last``: its last row is an empty row at
    ``end`` (an empty line), which the entry's empty open line there must not be taken for."""

    entry: Entry
    start: int
    end: int
    empty_last: bool = False


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
        kept = old.piece(0, committed) + new_text[old.base + committed :]
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
        if index == 0 and self.head > 0 and self.head >= entry.shown_end and not _rows_from(entry, self.head):
            # Everything but the trailing newline is in scrollback already: nothing left to draw.
            return replace(done, entries=done.entries[1:], head=0)
        return done

    def advance(self, rows: tuple[LogRow, ...]) -> LogState:
        """Drop the text of ``rows`` (the oldest pending rows, just inserted into scrollback)."""
        if not rows:
            return self
        if self.again:
            log, rows = self._advance_again(rows)
            return log.advance(rows) if rows else log
        last = rows[-1]
        entries = self.entries
        index = 0
        while entries[index].key != last.entry.key:  # cached rows may hold an equal, older Entry object
            index += 1
        entry = entries[index]
        if last.end >= entry.shown_end and entry.final and (last.start == last.end or not _rows_from(entry, last.end)):
            return evolve(self, entries=entries[index + 1 :], head=0)
        head = last.end
        view = entry.view
        trim = head >= _TRIM_MIN and head * 2 >= entry.size
        if trim and view is not None and view.mode == "markdown" and view.stable_lines:
            # A Markdown entry drops its stable lines before the one holding ``head`` (same amortization).
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
            while taken < len(rows) and rows[taken].entry.key == piece.entry.key and _within(rows[taken], piece):
                taken += 1
            if taken == used:
                break
            last = rows[taken - 1]
            used = taken
            # Rows are cut at ``end``: the piece is done at its end, unless an empty last row is still to come.
            if last.end == piece.end and (last.start == last.end or not piece.empty_last):
                again.pop(0)
            else:  # resumed where the insertion stopped, as ``head`` is
                again[0] = piece._replace(start=last.end)
        return evolve(self, again=tuple(again)), rows[used:]

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


def _within(row: LogRow, piece: Again) -> bool:
    """``row`` is one of the rows of the piece (its empty last row included, not an empty open line after it)."""
    start, end = piece.start, piece.end
    return start <= row.start and (row.start < end or (piece.empty_last and row.start == row.end == end))


def _again_rows(piece: Again, width: int, policy: WidthPolicy, cells: bool) -> tuple[LogRow, ...]:
    """The rows of a piece at ``width``: the entry's rows from ``start``, cut at ``end``."""
    rows = [row for row in entry_rows(piece.entry, piece.start, width, policy, cells) if _within(row, piece)]
    if rows and rows[-1].end > piece.end:
        rows[-1] = rows[-1]._replace(end=piece.end)
    return tuple(rows)


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


Span = tuple[int, int, int]  # a row's (line_start, start, end)  (rowseq.Span)


def entry_rows(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool = False) -> tuple[LogRow, ...]:
    """The wrapped rows of ``entry`` from source offset ``start`` at terminal ``width``; ``cells``: verbatim text
    wraps by cells (``RenderOptions.wrap_cells``; a view keeps its own wrapping)."""
    if entry.view is not None:
        return _view_rows(entry, start, width, policy)
    if entry.final:
        return _final_rows(entry, start, width, policy, cells)
    return _streaming_rows(entry, start, width, policy, cells)


def _view_rows(entry: Entry, start: int, width: int, policy: WidthPolicy) -> tuple[LogRow, ...]:
    assert entry.view is not None
    spans = view_spans(entry.view, start, _cap(entry.kind, width), policy, entry.final)
    return tuple([_new_row(LogRow, (entry, *span)) for span in spans])


def _rows_from(entry: Entry, offset: int) -> bool:
    """Whether the final ``entry`` (its text shown up to ``shown_end``) has a row from ``offset`` on: a Markdown
    view may end with an empty line starting at the end of its text (the separator before an empty code block),
    which a plain text's trailing newline does not make."""
    view = entry.view
    if view is None:
        return offset < entry.shown_end
    if offset < len(view.text):
        return True
    return view.count > 0 and view.line(view.count - 1)[1] >= offset  # an empty last line starting at the end


def _cap(kind: str, width: int) -> int:
    return width - DECORATED_PREFIX_WIDTH if kind not in _UNDECORATED and width > DECORATED_PREFIX_WIDTH else width


_UNDECORATED = ("text", "ansi")  # verbatim kinds: no prefix column


def _spans(
    text: str, line_start: int, position: int, cap: int, policy: WidthPolicy, cells: bool, out: list[Span]
) -> list[Span]:
    """Append the spans of the rows of ``text`` from ``position`` (a row start in the line at ``line_start``)."""
    # An ASCII line that fits is one row, as ``wrap_line`` gives (a flood's lines mostly are): no slice, no call.
    fits = max(1, cap) if text.isascii() else -1
    append = out.append
    while True:
        newline = text.find("\n", position)
        line_end = len(text) if newline < 0 else newline
        if line_end - position <= fits:
            if newline < 0:
                append((line_start, position, line_end))
                return out
            append((line_start, position, newline + 1))  # the newline belongs to the line's last row
            position = line_start = newline + 1
            continue
        base = position
        for end in (wrap_cells if cells else wrap_line)(text[base:line_end], cap, policy):
            append((line_start, position, base + end))
            position = base + end
        if newline < 0:
            return out
        # The newline belongs to the line's last row, so row ranges tile the text.
        out[-1] = (out[-1][0], out[-1][1], newline + 1)
        position = line_start = newline + 1


@functools.lru_cache(maxsize=4096)
def _final_rows(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool) -> tuple[LogRow, ...]:
    text = entry.shown
    if len(text) - start <= _cap(entry.kind, width) and text.isascii() and "\n" not in text:
        return (LogRow(entry, 0, start, len(text)),)  # one short line: one row (what the wrap below gives)
    spans = _spans(text, text.rfind("\n", 0, start) + 1, start, _cap(entry.kind, width), policy, cells, [])
    return tuple(LogRow(entry, line_start, row_start, row_end) for line_start, row_start, row_end in spans)


# Every delta makes a new version of a streaming entry, so its rows are not cached by entry.  Its
# text grows by appends, and greedy wrapping keeps every row but a line's last when text is appended
# and wraps the rest of a line alike from any row start: the previous version's spans are reused but
# the last, which is wrapped again with what came since.  Reused only for a version of the same
# ``lineage`` (the same text grown by appends only: ``LogState.delta``), so no text is compared.
# The spans list is shared with the next version when it is the newest (a list only ever truncated
# by its last span and appended to): a delta then costs the rows it changes, not the rows of the line.
_STREAMS: dict[tuple[object, ...], tuple[int, list[Span]]] = {}
_STREAMS_MAX = 64


def _streaming_part(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool) -> Part:
    size = entry.size  # all of the text is shown while the entry streams
    key = (entry.lineage, entry.kind, start, width, policy, cells)
    memo = _STREAMS.get(key) if entry.lineage is not None else None
    cap = _cap(entry.kind, width)
    if memo is not None and memo[0] <= size and memo[1]:
        spans = memo[1]
        resume_line, resume, _ = spans.pop()
        if entry.tail is not None and resume >= entry.lines_end:
            # The resumed row is in the open line kept in pieces: wrap only what follows its start (no
            # newline there), read as a slice, then shift the spans back to offsets in the text.
            window = _spans(entry.piece(resume, size), resume_line - resume, 0, cap, policy, cells, [])
            spans.extend([(line + resume, row + resume, end + resume) for line, row, end in window])
        else:
            _spans(entry.text, resume_line, resume, cap, policy, cells, spans)
    else:
        text = entry.text
        spans = _spans(text, text.rfind("\n", 0, start) + 1, start, cap, policy, cells, [])
    if len(_STREAMS) >= _STREAMS_MAX and key not in _STREAMS:
        _STREAMS.clear()
    if entry.lineage is not None:
        _STREAMS[key] = (size, spans)
    # The list is shared with later versions, which may replace its last span: keep ours aside.
    return (entry, spans, len(spans), spans[-1])


def _streaming_rows(entry: Entry, start: int, width: int, policy: WidthPolicy, cells: bool) -> tuple[LogRow, ...]:
    _, spans, _, _ = _streaming_part(entry, start, width, policy, cells)
    # tuple.__new__ directly: a NamedTuple's own __new__ is a Python call per row.
    return tuple([_new_row(LogRow, (entry, *span)) for span in spans])


def _make_row(entry: object, span: Span) -> LogRow:
    row: LogRow = _new_row(LogRow, (entry, *span))
    return row


_new_row = tuple.__new__

# The last log wrapped, with its width, policy and rows: a tick that leaves the log alone (a
# keystroke, the redraw after an insertion) reuses them.  A LogState is immutable and held here, so
# the same object means the same rows (one entry: it keeps one old log alive at most).
_LAST_ROWS: dict[None, tuple[LogState, int, WidthPolicy, tuple[RowSeq[LogRow], int]]] = {}


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
        rows = _again_rows(piece, width, policy, cells)
        parts.append((None, rows, len(rows), None))
        total += len(rows)
    start = log.head
    for entry in log.entries:
        part: Part
        if entry.view is None and not entry.final:
            part = _streaming_part(entry, start, width, policy, cells)
        else:
            rows = entry_rows(entry, start, width, policy, cells)
            part = (None, rows, len(rows), None)
        if committed < 0 and not entry.final:
            committed = total + _rows_before(part, entry.committed)
        parts.append(part)
        total += part[2]
        start = 0
    return RowSeq(parts, _make_row), total if committed < 0 else committed


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
