"""Log entries (``Entry``), their rows as offsets (``LogRow``), and the pieces to insert again (``Again``).

An entry's ``text`` starts at ``base`` of its whole text: the part before is in scrollback and was dropped
(``log.LogState.advance``).  A row is a range of offsets into that text, wrapped in ``wrap``, drawn in ``rows``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..markdown.blocks import Options
from ..markdown.stream import View, view_new
from ..text.cells import WidthPolicy
from ..text.style import DEFAULT, Style
from ..text.themes import DEFAULT_THEME, Theme
from .chunks import Tail
from .evolve import fast_init

__all__ = [
    "Again",
    "DECORATED_PREFIX_WIDTH",
    "Entry",
    "Lineage",
    "LogRow",
    "MARKDOWN_KINDS",
    "RICH_KINDS",
    "RenderOptions",
    "continues_line",
    "same_line",
    "within_piece",
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


def within_piece(row: LogRow, piece: Again) -> bool:
    """``row`` is one of the rows of the piece (its empty last row included, not an empty open line after it)."""
    start, end = piece.start, piece.end
    return start <= row.start and (row.start < end or (piece.empty_last and row.start == row.end == end))
