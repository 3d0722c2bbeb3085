"""Untrusted text to safe cells: neutralizing controls, display widths, wrapping.

Everything that reaches the terminal as text goes through ``sanitize`` first
(DESIGN, "Untrusted text"): the mapping is per character and stateless, so text
sanitized delta by delta equals the same text sanitized whole, and an escape
sequence split across two deltas is neutralized all the same.
"""

from __future__ import annotations

import bisect
import enum
import functools
import re

import wcwidth

__all__ = [
    "TAB_SIZE",
    "WidthPolicy",
    "clip_to_width",
    "common_prefix",
    "expand_tabs",
    "flatten",
    "grapheme_width",
    "iter_cells",
    "sanitize",
    "text_width",
    "wrap_cells",
    "wrap_line",
]

TAB_SIZE = 8


class WidthPolicy(enum.Enum):
    """How wide a grapheme cluster is; pick the one your terminal implements (DESIGN, Widths)."""

    CODEPOINT = "codepoint"  # sum of per-code-point wcwidth (xterm.js unicode 11, tmux, pyte)
    GRAPHEME = "grapheme"  # wcwidth.width() of the cluster (terminals with mode 2027)

    # Members are singletons: hash by identity (in C), not by name in Python as Enum does; every
    # width, wrap and row cache has a policy in its key.
    __hash__ = object.__hash__


def _visible(code: int) -> str:
    if code == 0x1B:
        return "\u241b"  # ␛: an escape sequence stays readable but inert
    if code < 0x20:
        return chr(0x2400 + code)  # control pictures ␀..␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\u241b" + chr(code - 0x40)  # C1: CSI 0x9b shows as "␛["


# C0 except \t and \n, DEL, C1, lone surrogates (unencodable), \r (never moves the cursor).
_TRANSLATE: dict[int, str | None] = {c: _visible(c) for c in [*range(0x20), *range(0x7F, 0xA0)]}
del _TRANSLATE[0x09], _TRANSLATE[0x0A]
_TRANSLATE[0x0D] = None
# Bidirectional embeddings, overrides and isolates reorder text invisibly ("Trojan Source"): show them.
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TRANSLATE.update({c: f"<U+{c:04X}>" for c in _BIDI})
# Raw patterns: the re module reads the escapes (mypyc, the compiled build, rejects surrogates in str literals).
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def sanitize(text: str) -> str:
    """Make untrusted text inert: controls become visible pictures, ``\\r`` is dropped.

    Bidirectional override and isolate characters are shown as ``<U+202E>``.

    ``\\n`` and ``\\t`` are kept (line structure and tab expansion happen later);
    lone surrogates become U+FFFD so the text can always be encoded.
    """
    if _UNSAFE.search(text) is None:
        return text
    text = text.translate(_TRANSLATE)
    return _SURROGATE.sub("\ufffd", text)


def flatten(text: str) -> str:
    """Sanitized text for a single row: newlines and tabs become spaces."""
    return sanitize(text).replace("\n", " ").replace("\t", " ")


def _is_regional_indicator(cp: int) -> bool:
    return 0x1F1E6 <= cp <= 0x1F1FF


def grapheme_width(cluster: str, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> int:
    """Cells a grapheme cluster occupies under ``policy`` (never negative)."""
    return _CLUSTER_WIDTH[policy](cluster)


@functools.lru_cache(maxsize=4096)
def _codepoint_width(cluster: str) -> int:
    total = 0
    for char in cluster:
        cp = ord(char)
        if _is_regional_indicator(cp):
            total += 1  # xterm.js (unicode 11) draws each regional indicator narrow
        else:
            total += max(0, wcwidth.wcwidth(char))
    return total


@functools.lru_cache(maxsize=4096)
def _cluster_width(cluster: str) -> int:
    return max(0, wcwidth.width(cluster))


# One single-argument cache per policy: a lone str key is lru_cache's cheapest lookup.
_CLUSTER_WIDTH = {WidthPolicy.CODEPOINT: _codepoint_width, WidthPolicy.GRAPHEME: _cluster_width}


def iter_cells(text: str, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> list[tuple[str, int]]:
    """The grapheme clusters of ``text`` with their widths."""
    if text.isascii():
        return [(c, 1) for c in text]
    width = _CLUSTER_WIDTH[policy]
    return [(g, width(g)) for g in wcwidth.iter_graphemes(text)]


def text_width(text: str, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> int:
    """Display width of sanitized text without newlines."""
    if text.isascii():
        return len(text)
    if len(text) <= 512:
        return _cached_width(text, policy)  # rows and prefixes ("▸ ") are measured again and again
    return sum(map(_CLUSTER_WIDTH[policy], wcwidth.iter_graphemes(text)))


@functools.lru_cache(maxsize=2048)
def _cached_width(text: str, policy: WidthPolicy) -> int:
    # The last text measured per policy, its cluster starts and the width before each: the row being
    # typed is measured again per keystroke, from the cluster holding its first changed character (as
    # in ``_wrap_resumed``).  Taken out while in use and checked by content: a pure-function cache.
    last = _LAST_WIDTH.pop(policy, None)
    starts: list[int] = []
    before: list[int] = []
    total = offset = 0
    if last is not None:
        old, starts, before = last
        index = bisect.bisect_left(starts, common_prefix(old, text)) - 1
        if index >= 0:
            offset, total = starts[index], before[index]
        del starts[max(0, index) :], before[max(0, index) :]
    width = _CLUSTER_WIDTH[policy]
    for cluster in wcwidth.iter_graphemes(text[offset:] if offset else text):
        starts.append(offset)
        before.append(total)
        offset += len(cluster)
        total += width(cluster)
    _LAST_WIDTH[policy] = (text, starts, before)
    return total


_LAST_WIDTH: dict[WidthPolicy, tuple[str, list[int], list[int]]] = {}


def expand_tabs(text: str, start_column: int = 0, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> str:
    """Replace tabs by spaces up to the next tab stop; ``start_column`` is the line's column so far."""
    if "\t" not in text:
        return text
    out: list[str] = []
    column = start_column
    for piece in re.split(r"(\t|\n)", text):
        if piece == "\t":
            pad = TAB_SIZE - column % TAB_SIZE
            out.append(" " * pad)
            column += pad
        elif piece == "\n":
            out.append(piece)
            column = 0
        elif piece:
            out.append(piece)
            column += text_width(piece, policy)
    return "".join(out)


def clip_to_width(text: str, width: int, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> tuple[str, int]:
    """The longest prefix of whole clusters that fits ``width`` cells, and its width.

    A cluster wider than the room left is replaced by ``?`` cells so a wide
    character is never cut in half (1-column terminals, for example).  A
    zero-width cluster at the start (a combining mark that begins a line) gets
    a no-break space to sit on: alone it would join whatever cell precedes it.
    """
    if text.isascii():
        piece = text[:width]
        return piece, len(piece)
    out: list[str] = []
    used = 0
    for index, (cluster, cells) in enumerate(iter_cells(text, policy)):
        if index == 0 and cells == 0:
            cluster, cells = "\u00a0" + cluster, 1
        if used + cells > width:
            if used == 0 and cells > width:
                out.append("?" * width)
                used = width
            break
        out.append(cluster)
        used += cells
    return "".join(out), used


@functools.lru_cache(maxsize=8192)
def wrap_line(line: str, width: int, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> tuple[int, ...]:
    """Row end offsets of one logical line wrapped to ``width`` cells (word wrap).

    Rows partition the line exactly: row ``i`` is ``line[ends[i-1]:ends[i]]``,
    so a row boundary is a source position.  Breaks fall before a word that no
    longer fits; spaces at a break hang at the end of the row (not drawn when
    they overflow); a word longer than a row is broken hard; a cluster is never
    split and a wide character never starts in the last column when it would
    not fit.  An empty line is one empty row.
    """
    width = max(1, width)
    if _ASCII_CONTROL.search(line) is not None:
        return _wrap(line, width, policy)
    if not line.isascii():
        return _wrap_resumed(line, width, policy)
    if len(line) > 3 * width:
        return _wrap_long(line, width, policy)
    return _wrap_ascii(line, width)


@functools.lru_cache(maxsize=8192)
def wrap_cells(line: str, width: int, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> tuple[int, ...]:
    """Row end offsets of one logical line wrapped to ``width`` cells as a terminal's autowrap wraps text: every
    row as many clusters as fit, spaces included, breaking anywhere (a wide cluster that does not fit in a row's
    last cell starts the next row).  GNU screen re-wraps its text at every resize and a widening joins rows only
    where they are soft-wrapped, so text wrapped this way takes the rows ``printf``'s would (``RenderOptions``)."""
    width = max(1, width)
    if line.isascii():  # one cell per character (ASCII controls too, as ``iter_cells`` measures them)
        return (*range(width, len(line), width), len(line))
    ends: list[int] = []
    column = offset = row_start = 0
    for cluster, cells in iter_cells(line, policy):
        if column + cells > width and offset > row_start:  # a cluster too wide for any row stands alone
            ends.append(offset)
            column, row_start = 0, offset
        column += cells
        offset += len(cluster)
    return (*ends, len(line))


def _wrap(line: str, width: int, policy: WidthPolicy) -> tuple[int, ...]:
    """The line wrapped whole (no reuse)."""
    return _wrap_ascii(line, width) if line.isascii() else _wrap_clusters(line, width, policy)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of ``a`` and ``b`` (C-speed comparisons, no per-character loop)."""
    if b.startswith(a):
        return len(a)
    if a.startswith(b):
        return len(b)
    # Gallop, then bisect: a[:same] == b[:same] and a[:mismatch] != b[:mismatch] throughout.
    size = min(len(a), len(b))
    same, probe = 0, 1
    while probe < size and a[:probe] == b[:probe]:
        same, probe = probe, probe * 2
    mismatch = min(probe, size)
    while mismatch - same > 1:
        middle = (same + mismatch) // 2
        if a[:middle] == b[:middle]:
            same = middle
        else:
            mismatch = middle
    return same


# ASCII controls are one cell wide in all-ASCII text but zero wide among other clusters, so the
# rows of a line holding one depend on text far from it: such a line is always wrapped whole.
# (Sanitized text has none: tabs are expanded, other controls shown as pictures.)
_ASCII_CONTROL = re.compile("[\x00-\x1f\x7f]")

# The last long line wrapped at each width and policy.  Typing into the composer, or streaming a
# long line, changes a line near where it was changed before, and greedy wrapping keeps the rows
# before a change (appends keep all rows but the last; any row start restarts the wrap alike): the
# rows ending well before the first changed character are kept, the rest is wrapped again.  Keyed
# by width and policy and checked by content, so it only ever saves work (a pure-function cache).
_LAST_LONG: dict[tuple[int, WidthPolicy], tuple[str, tuple[int, ...]]] = {}


def _wrap_long(line: str, width: int, policy: WidthPolicy) -> tuple[int, ...]:
    key = (width, policy)
    last = _LAST_LONG.get(key)
    kept: tuple[int, ...] = ()
    if last is not None:
        old, old_ends = last
        if line.startswith(old):
            kept = old_ends[:-1]  # appended to: every row but the last stays
        else:
            before = bisect.bisect_left(old_ends, common_prefix(old, line))  # rows ending before the change
            # The two last of those may still move: a word that reached the change can be pushed down,
            # and a wide cluster after it pushed once more.
            kept = old_ends[: max(0, before - 2)]
    start = kept[-1] if kept else 0
    ends = kept + tuple(start + end for end in _wrap(line[start:], width, policy))
    _LAST_LONG[key] = (line, ends)
    return ends


def _wrap_ascii(line: str, width: int) -> tuple[int, ...]:
    ends: list[int] = []
    start = 0
    size = len(line)
    while size - start > width:
        cut = start + width  # line[start:cut] fits; line[cut] does not (unless it is a space)
        if line[cut] == " ":
            stop = cut
            while stop < size and line[stop] == " ":
                stop += 1
            if stop == size:
                break  # only hanging spaces remain: they belong to this last row
            ends.append(stop)
            start = stop
            continue
        space = line.rfind(" ", start, cut)
        if space >= start and line[start:space].strip(" "):
            ends.append(space + 1)  # the partial word moves down whole
            start = space + 1
        else:
            ends.append(cut)  # no earlier break: hard break inside the word
            start = cut
    ends.append(size)
    return tuple(ends)


# The wrap's state before a cluster: its offset, rows ended so far, column, row start, word start,
# content, after_space (the variables of ``_wrap_clusters``).
_Mark = tuple[int, int, int, int, int, bool, bool]
_Memo = tuple[list[int], list[int], list[_Mark]]  # row ends so far, cluster starts, a mark per cluster
# The last non-ASCII line wrapped at each width and policy, with its cluster starts and the wrap's state
# before each cluster.  A keystroke in the composer changes its line at one place: the wrap resumes
# before the cluster that holds the first changed character, so it costs a cluster or two, not the
# line.  Whether a cluster starts at an offset depends only on the text up to the character there,
# and the rest of a line segments alone as it does in the whole line (as ``_wrap_long`` relies on).
# Entries are taken out while in use and checked by content: a pure-function cache.
_LAST_CLUSTERS: dict[tuple[int, WidthPolicy], tuple[str, list[int], list[int], list[_Mark]]] = {}


def _wrap_resumed(line: str, width: int, policy: WidthPolicy) -> tuple[int, ...]:
    """``_wrap_clusters`` of a non-ASCII line without ASCII controls, resumed from the last such line."""
    key = (width, policy)
    last = _LAST_CLUSTERS.pop(key, None)  # atomic: the lists are this call's alone from here on
    memo: _Memo = ([], [], [])
    resume: _Mark | None = None
    if last is not None:
        old, ends, starts, marks = last
        index = bisect.bisect_left(starts, common_prefix(old, line)) - 1  # last cluster starting in the common part
        if index >= 0:
            resume = marks[index]
            del ends[resume[1] :], starts[index:], marks[index:]
            memo = ends, starts, marks
    result = _wrap_clusters(line, width, policy, memo, resume)
    _LAST_CLUSTERS[key] = (line, *memo)
    return result


def _wrap_clusters(
    line: str, width: int, policy: WidthPolicy, memo: _Memo | None = None, resume: _Mark | None = None
) -> tuple[int, ...]:
    """Wrap cluster by cluster; ``memo`` records the state before every cluster, ``resume`` starts from one."""
    ends: list[int] = []
    column = 0  # cells used in the current row, hanging spaces included
    row_start = 0
    word_start = -1  # where the current row may be broken (start of a word after a space)
    content = False  # the current row has a non-space cluster before word_start
    after_space = False
    offset = 0
    if memo is not None:
        ends, starts, marks = memo
        if resume is not None:
            offset, _, column, row_start, word_start, content, after_space = resume
    for cluster, cells_wide in iter_cells(line[offset:] if offset else line, policy):
        if memo is not None:
            starts.append(offset)
            marks.append((offset, len(ends), column, row_start, word_start, content, after_space))
        if cluster == " ":
            after_space = True
            column += 1
            offset += 1
            continue
        if after_space and content:
            word_start = offset
        after_space = False
        if column + cells_wide > width and column > 0:
            if word_start > row_start:
                ends.append(word_start)
                row_start = word_start
                column = text_width(line[word_start:offset], policy)
            else:
                ends.append(offset)
                row_start = offset
                column = 0
            word_start = -1
            content = column > 0
            if column + cells_wide > width and column > 0:
                ends.append(offset)  # a wide cluster after the moved word: break again
                row_start = offset
                column = 0
                content = False
        column += cells_wide
        content = True
        offset += len(cluster)
    return (*ends, len(line))
