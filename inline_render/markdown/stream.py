"""Streaming Markdown: the commit rule, incremental rendering, and rows at a width.

A Markdown entry keeps its source and a *view*: the display lines rendered from it
(markdown.py), joined as the entry's display text (every stable line followed by ``\\n``,
the open lines joined by ``\\n``).  Row offsets, the committed offset and the scrollback
boundary (``LogState.head``) are positions in that display text, which is a function of the
source alone (never of the width), so DESIGN's "Resize" rule holds: a width change re-wraps
the rows from the boundary, nothing is inserted twice or skipped.

The commit rule (what may enter scrollback while the answer streams).  A display line is
*committed* when no text appended to the source can change it:

* the top-level blocks before the last one are closed (CommonMark only ever extends the last
  open block), and so is the last one when it is a paragraph or table followed by a blank
  line, a heading or rule whose line is complete, or a fence whose closing line is complete;
* inside the last, open block: in a list, every item before the last; in a block quote or a
  list item, every child block before the last (recursively into the last);
* in an open paragraph (single newlines are line breaks), every complete line but the last
  complete one, up to the first line that still shows an unmatched inline opener (``*``,
  ``_``, ``~``, `````, ``[``, ``]``: a later closer could pair with it); the last complete line
  waits because a delimiter row would make it a table header.  A setext underline may still
  turn the paragraph into a heading: the committed text stays, only its weight would change;
* in an open fence, every complete code line but the last complete one (one line of lookahead
  for the lexer; the partial line is shown plain until its newline arrives).

So a list item commits when the next one starts, a code block line by line, a table when it
ends, and a paragraph line by line (all of it at its blank line).  A blank line between blocks
commits only together with a line after it.  Lists are always drawn tight, so an item that
makes the list loose cannot change earlier items; link reference definitions in later blocks
are not applied to committed text.

Incremental: the closed top-level blocks are rendered once into ``stable`` lines, and only the
source from the start of the open block (``stable_src``) is parsed again per delta, so a delta
costs O(the open block), never the whole answer.  An open paragraph's committed lines become
stable too: the tail then starts at its first uncommitted line, parsed after a stand-in line
(``_DUMMY``) so that it still continues the paragraph exactly as in the whole text (no lazy
line starts a new block, a setext underline or table row attaches as it would), and the stand-in
line's rendering is dropped.  A long answer without blank lines so costs O(its open lines).  An open
top-level list's items before the last become stable the same way (they are committed): the tail starts at
the last item, parsed after a one-item stand-in with the same marker and indent (``_list_lead``), so the
last item is the same sibling as in the whole list.  Nothing else of the earlier items shows in later ones:
lists are drawn tight, numbers as written, and a stand-in with the same bullet or delimiter ends the list
where they would.  A long list so costs O(its last item) per delta.  An open top-level fence's final code lines
(committed, and lexed for good: ``text.highlight.Resume``) become stable too: the tail starts at the first line
after them, parsed after the fence's own opening line (its lines are indented and closed as in the whole text,
and the opening line renders no line), and highlighted on from where they end (``View.fence``), so a long code
block costs O(its last lines) per delta (issue 33, case 10); the last committed line stays in the tail, so a
replace cut back to the committed source still has a line there.  Link reference definitions in stable
source are kept (``refs``) and apply to the tail, as in the whole text.
A ``log.replace`` keeps the source up to ``commit_src`` (where the committed lines' source ends)
and re-renders the rest.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import NamedTuple

from markdown_it.tree import SyntaxTreeNode

from ..text.align import continued_at, started_at
from ..text.cells import WidthPolicy, expand_tabs, iter_cells, text_width, wrap_line
from ..text.highlight import highlight_diff
from ..text.spans import parse_ansi
from ..text.style import Row, Segment, Style, row_width
from .blocks import CODE_MARK, RULE, Line, Options, Refs, Renderer, Wrap, _Ctx, definitions, merge, parse
from .guard import failed, text_update
from .table import cut, table_rows
from .view import Fence, View

__all__ = [
    "FENCE_ANCHOR",
    "LONG_OPEN_LINE",
    "View",
    "draw_line_row",
    "line_ends",
    "view_extend",
    "view_final",
    "view_freeze",
    "view_new",
    "view_replace",
    "view_spans",
    "view_trim",
]

Span = tuple[int, int, int]  # a row's (line_start, start, end) in display offsets


def _starts(lines: tuple[Line, ...], base: int) -> tuple[int, ...]:
    out, offset = [], base
    for line in lines:
        out.append(offset)
        offset += len(line.text) + 1
    return tuple(out)


def _split(source: str) -> list[str]:
    parts = source.split("\n")  # markdown-it's lines: only \n ends one (sanitized text has no \r)
    return [part + "\n" for part in parts[:-1]] + [parts[-1]]


def _blank(line: str) -> bool:
    return line.endswith("\n") and not line.strip()


def _closed_last(node_type: str, node_map: Sequence[int] | None, lines: list[str]) -> bool:
    """Whether the last top-level block is closed whatever follows (see the module docstring)."""
    if node_map is None:
        return False
    end = node_map[1]
    complete = end - 1 < len(lines) and lines[end - 1].endswith("\n")
    if node_type in ("heading", "hr"):
        return complete
    if node_type in ("paragraph", "table"):
        return complete and end < len(lines) and _blank(lines[end])
    return False


def view_new(options: Options, mode: str = "markdown") -> View:
    """The view of an empty source; ``mode`` is ``markdown``, ``diff`` or ``ansi``."""
    return (
        _update(View(options, "", 0, (), (), "", 0, (), (), 0, 0, "", mode), "")
        if mode != "markdown"
        else (View(options, "", 0, (), (), "", 0, (), (), 0, 0, ""))
    )


def _diff_lines(source: str, options: Options) -> list[Line]:
    mark = (Segment(" "), Segment(CODE_MARK, merge(options.base, options.theme.style("code_mark"))))
    out = []
    for runs in highlight_diff(source, options.language, options.theme):
        text = "".join(segment.text for segment in runs)
        gutter = 1 if text[:1] in ("+", "-", " ") and not text.startswith(("+++", "---")) else 0
        out.append(Line(text, gutter, mark if gutter else (), runs, Wrap.CODE if gutter else Wrap.WORD))
    return out


def _ansi_lines(source: str, options: Options) -> list[Line]:
    lines = parse_ansi(source, options.base)
    return [Line("".join(segment.text for segment in runs), 0, (), runs) for runs in lines]


def _update_lines(view: View, source: str) -> View:
    """A diff or trusted-ANSI view: every source line is one display line, complete lines are committed.

    Re-rendered whole per update (these kinds rarely stream; a diff is lexed per side as a whole).
    """
    lines = tuple(_diff_lines(source, view.options) if view.mode == "diff" else _ansi_lines(source, view.options))
    starts = _starts(lines, 0)
    complete = source.count("\n")
    committed = starts[complete] if complete < len(starts) else len(source)
    text = "\n".join(line.text for line in lines)
    return View(view.options, source, 0, (), (), "", 0, lines, starts, committed, 0, text, view.mode)


_DUMMY = "x\n"  # stands for the settled lines of a paragraph the tail continues (module docstring)

# The marker of an open top-level list's last item with the spaces before it (at most three: a line starts at
# column 0, so tabs after the marker expand as in the whole text).  The stand-in item is this marker and ``x``: it
# renders as one line, and the item after it is a sibling as in the whole list (same bullet or delimiter, same
# indent, so it is not nested in the stand-in, whose content starts further right).
_ITEM = re.compile(r" {0,3}(?:[*+-]|\d{1,9}[.)])(?=[ \t\n]|$)")


def _list_lead(lines: list[str], item_line: int) -> str:
    """The stand-in item for an open top-level list's last item starting at ``lines[item_line]`` ("": none)."""
    found = _ITEM.match(lines[item_line]) if item_line < len(lines) else None
    return found.group() + " x\n" if found else ""


# A partial last line that is only a block marker may still become something else ("*" can turn into "**",
# which is no list item; "-" into "-x"), and as a marker it may already have closed the blocks before it:
# it is not parsed until more of it arrives (it shows a moment later, with its next character).  Digits alone
# too: "2" after an item that takes no lazy line (a fence, an empty item) is a paragraph that closes the list,
# "2." the list's next item.  A run of ``*``, ``-`` or ``_`` too: "***" is a thematic break that closes the paragraph
# before it, "***#" a line of that paragraph (found by tests/test_markdown_props.py).
_LONE_MARKER = re.compile(r"[ \t]*(?:[*+-]|\d{1,9}[.)]?|#{1,6}|[=`~]{1,2}|>|(?:[*_-][ \t]*){2,})[ \t]*")


# A partial last line longer than this is shown as its source until its newline arrives (see ``_raw_line``).
LONG_OPEN_LINE = 16_384


def _update(view: View, source: str) -> View:
    # Guarded: an exception rendering one entry shows that entry's rest as text with a note (guard.py), instead of
    # escaping the tick, ending the app and losing the text streamed in it (issue 33, case 1).
    if view.mode == "text":
        return text_update(view, source)
    try:
        return _render(view, source)
    except Exception as error:
        return failed(view, source, error)


def _render(view: View, source: str) -> View:
    if view.mode != "markdown":
        return _update_lines(view, source)
    end = source.rfind("\n") + 1
    if end < len(source) and end >= view.stable_src:
        if len(source) - end > LONG_OPEN_LINE:
            blocks = _update_blocks(view, source[:end])
            # Committed text stays committed: when the partial line committed more than the complete lines do
            # alone (a new list item commits the one before), the line is parsed with them as before.
            if blocks.committed >= view.committed:
                return _raw_line(blocks, source, end)
            return _update_blocks(view, source)
        if _LONE_MARKER.fullmatch(source, end):
            return replace(_update_blocks(view, source[:end]), source=source)
    return _update_blocks(view, source)


def _raw_line(blocks: View, source: str, end: int) -> View:
    """``blocks`` (the view of the complete lines ``source[:end]``) with the partial line ``source[end:]`` shown
    verbatim as its last display line, in the base style.

    Its inline Markdown is parsed once, when its newline arrives: a partial line can change whole (an opener at
    its start may pair with a closer at its end), so parsing it per delta cost its length per delta (a flood
    of one 2 MB line: 50 ms a tick).  The line is never committed while it is partial, so what scrollback gets
    is the rendering of the whole line, as without this; only the viewport shows its source meanwhile (and
    a separator row before it, when it starts a block, appears at its end).  The view's parse state is
    ``blocks``'s, so the next update goes on from it.  Only when ``blocks`` commits at least what the view before
    it did: the text committed then is, by the commit rule, the same in ``blocks`` up to there (``blocks`` renders
    a prefix of that view's source, and commits what no continuation of it changes), so the scrollback
    boundary and every committed offset keep their meaning.
    """
    text = expand_tabs(source[end:])
    line = Line(text, 0, (), (Segment(text, blocks.options.base),))
    start = len(blocks.text) + 1 if blocks.tail_lines else len(blocks.text)
    return replace(
        blocks,
        source=source,
        tail_lines=(*blocks.tail_lines, line),
        tail_starts=(*blocks.tail_starts, start),
        text=(blocks.text + "\n" + text) if blocks.tail_lines else blocks.text + text,
    )


class _Tail(NamedTuple):
    """Where the stable lines of an update end (``stable_count`` rendered lines, source ``stable_src``), where the
    committed ones end (``commit`` lines, source ``commit_src``), and what the tail after the stable lines continues
    (``continues``, its stand-in ``lead``, an open fence's ``fence``)."""

    stable_count: int
    stable_src: int
    commit: int
    commit_src: int
    continues: bool = False
    lead: str = ""
    fence: Fence | None = None


def _update_blocks(view: View, source: str) -> View:
    base = view.stable_src
    dummy = view.lead
    lines = _split(dummy + source[base:])
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def src(line: int) -> int:  # the source offset where line ``line`` of the parsed text starts
        return base + max(0, offsets[min(line, len(lines))] - len(dummy))

    top = list(parse(dummy + source[base:], view.refs).children)
    renderer = Renderer(view.options, lines, view.fence.resume if view.fence is not None else None)
    last_open = _last_open(top, renderer, lines)
    closed = top[:-1] if last_open else top
    ctx = _Ctx((), ())
    before = view.blocks > 0 and not view.continues  # the continued block's separator is out already
    renderer.blocks(closed, ctx, "root", False, before)
    closed_lines = len(renderer.lines)
    # The stand-in's lines are rendered first (one, or a table's; a fence's opening line renders none).
    drop = dummy.count("\n") if view.continues and view.fence is None else 0
    if last_open:
        block = top[-1]
        start_line = block.map[0] if block.map else 0
        renderer.commit, renderer.commit_line = len(renderer.lines), start_line
        # Lines of the view's tail that reached the terminal's history (a shrink pushed their rows): an open
        # paragraph settles at least those (``view_freeze``), rendered lines counted from ``drop``.
        renderer.freeze_from, renderer.freeze = drop, bisect.bisect_left(view.tail_starts, view.frozen)
        renderer.blocks([block], ctx, "root", True, before or bool(closed))
        tail = _open_tail(view, renderer, block, bool(closed), (closed_lines, drop), lines, src)
    else:
        end_line = top[-1].map[1] if top and top[-1].map else 0
        stable_count, stable_src = len(renderer.lines) - drop, src(end_line)
        tail = _Tail(stable_count, stable_src, stable_count, stable_src)
    stable_count, stable_src, commit, commit_src, continues, lead, fence = tail
    rendered = renderer.lines[drop:]
    new_stable = tuple(rendered[: max(0, stable_count)])
    stable_lines = view.stable_lines
    if renderer.outgrown and view.fence is not None:
        stable_lines = _plain_code(stable_lines, view.fence.first, renderer.style("code_block"))
    stable_lines += new_stable
    stable_text = view.stable_text + "".join(line.text + "\n" for line in new_stable)
    stable_starts = view.stable_starts + _starts(new_stable, len(view.stable_text))
    tail_lines = tuple(rendered[len(new_stable) :])
    tail_starts = _starts(tail_lines, len(stable_text))
    text = stable_text + "\n".join(line.text for line in tail_lines)
    refs = _refs_until(view, source, stable_src)
    # Tail lines committed; the last open line has no newline yet, so it never is.
    done = min(commit - len(new_stable), len(tail_lines) - 1)
    committed = tail_starts[done] if done > 0 else len(stable_text)
    return View(
        view.options,
        source,
        stable_src,
        stable_lines,
        stable_starts,
        stable_text,
        view.blocks + len(closed) + (1 if continues else 0),
        tail_lines,
        tail_starts,
        committed,
        commit_src,
        text,
        view.mode,
        continues,
        view.src_base,
        lead,
        refs,
        view.frozen,
        fence,
    )


def _open_tail(
    view: View,
    renderer: Renderer,
    block: SyntaxTreeNode,
    closed: bool,
    counts: tuple[int, int],
    lines: list[str],
    src: Callable[[int], int],
) -> _Tail:
    """Where the stable lines end when the last top-level block, ``block``, is open (rendered by ``renderer`` after
    ``closed`` blocks before it, if any, which rendered the first of ``counts``' lines; the second is the stand-in's
    lines, dropped).  Settled lines of a paragraph, committed rows of a table, the items of a list before its last
    and the final code lines of a fence become stable, and the tail continues the block after a stand-in."""
    closed_lines, drop = counts
    start_line = block.map[0] if block.map else 0
    commit = max(renderer.commit, closed_lines) - drop
    commit_src = src(renderer.commit_line)
    item = renderer.top_item if block.type in ("bullet_list", "ordered_list") else None
    fence = renderer.open_fence if block.type == "fence" else None
    continued = view.fence if not closed else None  # the fence the view's tail continued is still this block
    if fence is not None and (fence.final > 0 or continued is not None):
        # The fence's final code lines become stable, the tail continues it after its opening line: a delta renders
        # the code lines from there, never the block (issue 33, case 10).  A closing line only ends the tail.
        first = continued.first if continued is not None else len(view.stable_lines) + fence.start - drop
        stable_count, stable_src = fence.start + fence.final - drop, src(start_line + 1 + fence.final)
        return _Tail(stable_count, stable_src, commit, commit_src, True, lines[start_line], Fence(first, fence.resume))
    if block.type == "table" and renderer.commit > closed_lines:
        # The committed rows become stable; the tail continues the table after the rows fixing its widths.
        table_lead = "".join(lines[start_line : start_line + renderer.table_lead])
        return _Tail(commit, commit_src, commit, commit_src, True, table_lead)
    if block.type == "paragraph" and renderer.commit > closed_lines:
        # Settled lines of the open paragraph become stable; the tail continues it.
        return _Tail(commit, commit_src, commit, commit_src, True, _DUMMY)
    list_lead = _list_lead(lines, item[1]) if item is not None else ""
    if item is not None and list_lead:
        # The items before the last become stable; the tail continues the list.
        return _Tail(item[0] - drop, src(item[1]), commit, commit_src, True, list_lead)
    if view.continues and not closed:  # still the continued block, nothing new settled
        return _Tail(closed_lines - drop, view.stable_src, commit, commit_src, True, view.lead, view.fence)
    return _Tail(closed_lines - drop, src(start_line), commit, commit_src)


def _plain_code(lines: tuple[Line, ...], first: int, style: Style) -> tuple[Line, ...]:
    """``lines`` with those from ``first`` on (an open fence's stable code lines) plain in the code style ``style``:
    a fence past ``_MAX_HIGHLIGHT`` characters shows plain whole (text.highlight), these lines too.  Highlighting
    never changes a character, so their text (and every offset) stays."""
    plain = [replace(line, runs=(Segment(line.text, style),) if line.text else ()) for line in lines[first:]]
    return (*lines[:first], *plain)


def _last_open(top: list[SyntaxTreeNode], renderer: Renderer, lines: list[str]) -> bool:
    """Whether the last of the top-level blocks ``top`` is still open (text appended may change it)."""
    last_open = bool(top)
    if top:
        probe = top[-1]
        if probe.type == "fence":
            last_open = not renderer.fence_closed(probe)
        else:
            last_open = not _closed_last(probe.type, probe.map, lines)
    return last_open


def _refs_until(view: View, source: str, stable_src: int) -> Refs:
    """The view's link reference definitions and those in ``source`` up to ``stable_src`` (the stable source
    grows to there), which apply after it too."""
    base, refs = view.stable_src, view.refs
    if stable_src > base and source.find("]:", base, stable_src) >= 0:
        refs = definitions(view.lead + source[base:stable_src], refs)
    return refs


def view_final(view: View) -> View:
    """The view of the whole source when the entry ends: a partial last line that was held back (a lone block
    marker, or a line shown verbatim while longer than ``LONG_OPEN_LINE``) is parsed now."""
    if view.mode != "markdown":
        return view
    source = view.source
    end = source.rfind("\n") + 1
    held = len(source) - end > LONG_OPEN_LINE or _LONE_MARKER.fullmatch(source, end) is not None
    if end < len(source) and end >= view.stable_src and held:
        try:
            return _update_blocks(view, source)
        except Exception as error:
            return failed(view, source, error)
    return view


def view_freeze(view: View, offset: int) -> View:
    """The view with its text before display ``offset`` kept as it is: that text reached the terminal's history
    (a shrink pushed rows of it) before the commit rule let it, so it may no longer change.

    An open paragraph's complete lines are what the commit rule holds back most (the last complete one waits for
    a possible table delimiter row, a line with an unmatched opener for its closer): those settle as far as
    ``offset`` reaches, the text after them then continues the paragraph as settled lines do.  Other open blocks
    keep their rule (``committed`` says how far the freeze took)."""
    if view.mode != "markdown" or offset <= view.committed or offset <= view.frozen:
        return view
    return _update(replace(view, frozen=offset), view.source)


def view_extend(view: View, more: str) -> View:
    """The view after ``more`` source text was appended (O(the open block))."""
    return _update(view, view.source + more)


def view_replace(view: View, source: str) -> View:
    """The view of a new full source; the source of committed lines is kept as it was."""
    keep = view.commit_src if view.mode == "markdown" else view.source.rfind("\n") + 1
    # The new source may space the kept part otherwise (a runtime's whole answer after its streamed parts): it
    # continues where the kept words end in it.
    # (The view may have dropped its source's start, ``src_base``: where the rest starts in the new source is found
    # by its words first.)
    start = started_at(view.source, source, view.src_base)
    return _update(view, view.source[:keep] + source[continued_at(view.source[:keep], source, start) :])


def view_trim(view: View, cut: int) -> View:
    """The view without its display text before ``cut``, the start of a stable line (those lines are in
    scrollback), and without the source before ``stable_src`` (rendered into stable lines, never parsed
    again): what a streaming Markdown entry keeps is what can still be drawn or parsed.  Display and
    source offsets of the result count from the cuts (``src_base`` says where the source starts).  An open fence's
    view keeps the source of its last ``FENCE_ANCHOR`` characters of stable code lines too (``_anchor``)."""
    index = bisect.bisect_left(view.stable_starts, cut)
    if view.mode not in ("markdown", "text") or index >= len(view.stable_starts) or view.stable_starts[index] != cut:
        raise ValueError(f"view_trim: offset {cut} is not the start of a stable line")
    src = _anchor(view.source, view.stable_src) if view.fence is not None else view.stable_src
    return View(
        view.options,
        view.source[src:],
        view.stable_src - src,
        view.stable_lines[index:],
        tuple(start - cut for start in view.stable_starts[index:]),
        view.stable_text[cut:],
        view.blocks,
        view.tail_lines,
        tuple(start - cut for start in view.tail_starts),
        view.committed - cut,
        view.commit_src - src,
        view.text[cut:],
        view.mode,
        view.continues,
        view.src_base + src,
        view.lead,
        view.refs,
        max(0, view.frozen - cut),
        replace(view.fence, first=max(0, view.fence.first - index)) if view.fence is not None else None,
    )


# How much source of an open fence's stable code lines its view keeps (whole lines, at most one more).  A replace
# finds where the committed source ends in its new text by the words before that end (``view_replace``,
# ``text.align``): the tail of a continued fence is its last few lines, blank ones maybe, and before its lines
# were stable the whole open fence's source was there to find (issue 33, case 10).
FENCE_ANCHOR = 4096


def _anchor(source: str, end: int) -> int:
    """Where the source kept before ``end`` (a line start) starts: the line holding ``FENCE_ANCHOR`` characters
    before it (0 when the source is shorter)."""
    return source.rfind("\n", 0, max(0, end - FENCE_ANCHOR)) + 1 if end > FENCE_ANCHOR else 0


# --- rows at a width ---------------------------------------------------------------------------


def _hard(text: str, first: int, rest: int, policy: WidthPolicy) -> tuple[int, ...]:
    """Row ends of ``text`` broken at ``first`` cells, then ``rest`` cells per row (clusters whole)."""
    ends: list[int] = []
    room, used, offset = max(1, first), 0, 0
    for cluster, cells in iter_cells(text, policy):
        if used + cells > room and used > 0:
            ends.append(offset)
            room, used = max(1, rest), 0
        used += cells
        offset += len(cluster)
    ends.append(len(text))
    return tuple(ends)


def _fits(line: Line, cap: int, policy: WidthPolicy) -> tuple[int, int] | None:
    """Widths of the first-row prefix and of ``cont`` when the hanging layout fits ``cap``, else None."""
    prefix = text_width(line.text[: line.prefix], policy)
    cont = row_width(line.cont, policy)
    if prefix >= cap or cont >= cap or (line.wrap is Wrap.CODE and cap - cont < 2):
        return None
    return prefix, cont


@functools.lru_cache(maxsize=1024)
def line_ends(line: Line, skip: int, cap: int, policy: WidthPolicy) -> tuple[int, ...]:
    """Row end offsets in ``line.text`` of its rows from offset ``skip`` (a row start) at ``cap`` cells."""
    text = line.text
    if line.wrap is Wrap.RULE:
        return (len(text),)
    if line.wrap is Wrap.TABLE:
        assert line.table is not None
        prefix = text_width(text[: line.prefix], policy)
        count = len(table_rows(line.table, line.row, cap - prefix, policy))
        index = skip - line.prefix if skip else 0  # row i of a table row starts at prefix + i (markdown.py)
        return (*range(line.prefix + index + 1, line.prefix + count), len(text))
    fits = _fits(line, cap, policy)
    if fits is None:  # too narrow for the indent: the whole line wraps at the full width
        if line.wrap is Wrap.CODE:
            return tuple(skip + end for end in _hard(text[skip:], cap, cap, policy))
        return tuple(skip + end for end in wrap_line(text[skip:], cap, policy))
    prefix, cont = fits
    start = max(skip, line.prefix)
    first = cap - (prefix if skip == 0 else cont)
    if line.wrap is Wrap.CODE:
        return tuple(start + end for end in _hard(text[start:], first, cap - cont, policy))
    return tuple(start + end for end in wrap_line(text[start:], cap - cont, policy))


def view_spans(view: View, start: int, cap: int, policy: WidthPolicy, final: bool) -> list[Span]:
    """The rows of ``view`` from display offset ``start`` (a row start) at ``cap`` cells.

    While the entry streams and no line is open, an empty row follows the last line (where the
    next block's separator will be), as a plain streaming entry shows after its newline.
    """
    out: list[Span] = []
    if start >= len(view.stable_text) and not view.tail_lines:
        return [] if final else [(len(view.text), len(view.text), len(view.text))]
    _, line_start, index = view.line_at(start)
    total = view.count
    stable_end = len(view.stable_lines)
    while index < total:
        line, line_start = view.line(index)
        skip = start - line_start if start > line_start else 0
        ends = line_ends(line, skip, cap, policy)
        position = line_start + skip
        for end in ends:
            out.append((line_start, position, line_start + end))
            position = line_start + end
        if index < stable_end or index < total - 1:
            out[-1] = (out[-1][0], out[-1][1], out[-1][2] + 1)  # the newline belongs to the line's last row
        index += 1
        start = 0
    if not view.tail_lines and not final:
        out.append((len(view.text), len(view.text), len(view.text)))  # the empty line after a stable end
    return out


@functools.lru_cache(maxsize=1024)
def draw_line_row(line: Line, start: int, end: int, cap: int, policy: WidthPolicy) -> Row:
    """The styled cells of the row ``line.text[start:end]`` at ``cap`` cells (no kind prefix, not clipped)."""
    end = min(end, len(line.text))
    if line.wrap is Wrap.RULE:
        prefix = list(cut(line.runs, 0, line.prefix))
        room = cap - text_width(line.text[: line.prefix], policy)
        return (*prefix, Segment(RULE * max(1, room), line.runs[-1].style))
    if line.wrap is Wrap.TABLE:
        assert line.table is not None
        index = max(0, start - line.prefix) if start > 0 else 0
        lead: list[Segment] = list(cut(line.runs, 0, line.prefix)) if start == 0 else list(line.cont)
        room = cap - text_width(line.text[: line.prefix], policy)
        rows = table_rows(line.table, line.row, room, policy)
        body = rows[index] if index < len(rows) else ()
        return tuple(segment for segment in (*lead, *body) if segment.text)
    segments = cut(line.runs, start, end)
    if start > 0 and _fits(line, cap, policy) is not None:
        segments = [*line.cont, *segments]
    if segments:
        segments[-1] = Segment(segments[-1].text.rstrip(" "), segments[-1].style)
    return tuple(segment for segment in segments if segment.text)
