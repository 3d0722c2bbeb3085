"""Markdown blocks to display lines: markdown-it-py (CommonMark + tables + strikethrough) parses, this renders.

The renderer turns a token tree into ``Line`` values that do not depend on the width: a
line's ``text`` is its prefix (list marker, quote bar, indent) followed by its content, and
how it wraps is decided later by its ``wrap`` mode (``mdview.py``): words wrap with a hanging
indent (``cont``), code is kept verbatim and broken at the hard width limit with a
continuation mark, a table row is laid out by ``mdtable.py`` for the width, a rule fills it.

Choices: single newlines are line breaks (``breaks``, as chat answers are written); raw HTML
is shown as text (``html`` off); lists are always drawn tight (no blank line between items),
so a later loose item never changes how earlier items look; ordered lists keep the numbers as
written; links show their URL after the text, or become OSC 8 hyperlinks when enabled and the
URL is safe (``safe_url``).  All text arrives sanitized (controls shown as pictures).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.tree import SyntaxTreeNode

from ..text.cells import WidthPolicy, expand_tabs, sanitize, text_width
from ..text.highlight import Resume, StyledLine, highlight_code, highlight_resumed, resume_after
from ..text.style import DEFAULT, Row, Segment, Style
from ..text.themes import Theme

__all__ = [
    "BULLETS",
    "CODE_MARK",
    "Line",
    "OpenFence",
    "Options",
    "Refs",
    "Renderer",
    "Table",
    "WAIT_CHARS",
    "WAIT_LINES",
    "WIDTH_CHARS",
    "WIDTH_ROWS",
    "Wrap",
    "definitions",
    "merge",
    "parse",
    "safe_url",
]

BULLETS = ("- ", "\u25e6 ", "\u25aa ")  # -, ◦, ▪ by depth (East Asian Width N)
QUOTE_BAR = "\u254e "  # ╎
CODE_MARK = "\u21aa"  # ↪ starts the continuation rows of a code line too long for the width
RULE = "\u254c"  # ╌
_OPENERS = frozenset("*_~`[]")
_SAFE_SCHEMES = ("http://", "https://", "mailto:", "file://")
_MAX_URL = 2048


class Wrap(enum.Enum):
    """How a line is broken into rows at a width."""

    WORD = "word"  # word wrap, continuation rows hang under the content (``cont``)
    CODE = "code"  # verbatim: hard breaks at the width, continuation rows start with ``cont`` (indent + mark)
    TABLE = "table"  # one row of a table (``table``, ``row``), laid out for the width
    RULE = "rule"  # a horizontal rule: one row, as wide as the room


# Column widths come from the header and the first body rows (table.py), at most this many, and no more once their
# source holds ``WIDTH_CHARS`` characters (the row reaching it counts): the rows after them are laid out as they
# arrive, so a long table streams row by row (``Renderer.table`` commits them) instead of being parsed and laid out
# whole per delta until it ends (issue 33, case 2: 600 rows took 5 minutes).  Those rows are the stand-in the tail
# of a long open table is parsed after (stream.py), so the characters bound what a delta parses.
WIDTH_ROWS = 32
WIDTH_CHARS = 4096


@dataclass(frozen=True, slots=True, eq=False)
class Table:
    """A table's cells as styled lines: header row first; ``aligns`` per column (left/center/right)."""

    rows: tuple[tuple[StyledLine, ...], ...]
    aligns: tuple[str, ...]
    theme: Theme
    width_rows: int = WIDTH_ROWS  # the body rows the column widths come from (``Renderer.width_rows``)


@dataclass(frozen=True, slots=True, eq=False)
class Line:
    """One display line: ``text`` (prefix + content, no newline) as styled ``runs``; compared by identity."""

    text: str
    prefix: int
    cont: Row
    runs: tuple[Segment, ...]
    wrap: Wrap = Wrap.WORD
    table: Table | None = None
    row: int = 0


@dataclass(frozen=True, slots=True)
class Options:
    """What rendering depends on besides the source: the theme, the base style, OSC 8 links.

    ``language``: a diff view's lexer (a language name or a file name; None: from the diff's headers).
    """

    theme: Theme
    base: Style = DEFAULT
    hyperlinks: bool = False
    policy: WidthPolicy = WidthPolicy.CODEPOINT
    language: str | None = None


_PARSER = MarkdownIt("commonmark", {"html": False, "breaks": True}).enable(["table", "strikethrough"])


@dataclass(frozen=True, slots=True)
class OpenFence:
    """An open top-level fence as rendered (``Renderer.open_fence``), for the stream to keep its final lines.

    ``start``: the index of its first code line in ``Renderer.lines``; ``final``: how many code lines from there no
    appended text changes; ``resume``: where highlighting goes on after them (``text.highlight.Resume``).
    """

    start: int
    final: int
    resume: Resume


Refs = tuple[tuple[str, Any], ...]  # link reference definitions: (normalized label, markdown-it's href and title)


# An open paragraph's line with an unmatched opener (``*``, ``_``, ``~``, `````, ``[``) waits for its closer through
# at most this many later complete lines and characters, then settles as it is shown: the lines after it continue
# the paragraph without it (stream.py), so a closer further on no longer pairs with it.  Without a bound such a line
# kept the whole paragraph open, parsed again per delta until a blank line (issue 33, case 3: 2,400 lines, 153 s).
WAIT_LINES = 16
WAIT_CHARS = 4096


# Inline nesting deeper than this shows its markers as text.  markdown-it pairs emphasis without a depth limit
# (``'*' * 600 + 'a' + '*' * 600`` is 300 levels of strong), and its syntax tree, like this renderer, is built
# recursively: such an answer exceeded Python's recursion limit (issue 33, case 1).  Blocks nest at most
# markdown-it's ``maxNesting`` (20) deep.
MAX_INLINE_DEPTH = 16


def parse(source: str, refs: Refs = ()) -> SyntaxTreeNode:
    """The block tree of ``source``, where the definitions ``refs`` (from text before it) apply too."""
    tokens = _PARSER.parse(source, {"references": dict(refs)})
    for token in tokens:
        if token.type == "inline" and token.children and _depth(token.children) > MAX_INLINE_DEPTH:
            token.children = _bounded(token.children)
    return SyntaxTreeNode(tokens)


def _depth(tokens: list[Token]) -> int:
    deepest = level = 0
    for token in tokens:
        level += token.nesting
        deepest = max(deepest, level)
    return deepest


def _bounded(tokens: list[Token]) -> list[Token]:
    """``tokens`` with every pair nested deeper than ``MAX_INLINE_DEPTH`` turned into the text of its markers."""
    out: list[Token] = []
    opened: list[Token | None] = []  # per open pair: its opener when it was turned into text, else None
    level = 0
    for token in tokens:
        if token.nesting > 0:
            flat = level >= MAX_INLINE_DEPTH
            opened.append(token if flat else None)
            level += 0 if flat else 1
            out.append(_marker("[" if token.type == "link_open" else token.markup) if flat else token)
        elif token.nesting < 0:
            opener = opened.pop() if opened else None
            level -= 0 if opener is not None else 1
            if opener is None:
                out.append(token)
            else:
                href = str(opener.attrs.get("href", ""))
                out.append(_marker(f"]({href})" if token.type == "link_close" else token.markup))
        else:
            out.append(token)
    joined: list[Token] = []  # adjacent texts as one (a run of 600 markers: one node, not 600)
    for token in out:
        if token.type == "text" and joined and joined[-1].type == "text":
            joined[-1] = _marker(joined[-1].content + token.content)
        else:
            joined.append(token)
    return joined


def _marker(text: str) -> Token:
    return Token("text", "", 0, content=text)


def definitions(source: str, refs: Refs = ()) -> Refs:
    """``refs`` and the link reference definitions in ``source`` after them (the first of a label wins)."""
    env: dict[str, Any] = {"references": dict(refs)}
    _PARSER.parse(source, env)
    return tuple(env["references"].items())


def merge(base: Style, over: Style) -> Style:
    """``over`` on top of ``base``: set colours replace, attributes add up."""
    return Style(
        fg=over.fg or base.fg,
        bg=over.bg or base.bg,
        bold=base.bold or over.bold,
        dim=base.dim or over.dim,
        italic=base.italic or over.italic,
        underline=base.underline or over.underline,
        reverse=base.reverse or over.reverse,
        strike=base.strike or over.strike,
        link=over.link or base.link,
    )


def safe_url(url: str) -> str | None:
    """``url`` when it may become an OSC 8 hyperlink: http(s), mailto or file, printable ASCII only, no ST."""
    if not url or len(url) > _MAX_URL or not url.lower().startswith(_SAFE_SCHEMES):
        return None
    if any(not 0x21 <= ord(char) <= 0x7E for char in url) or "\\" in url:
        return None  # controls, ESC/ST, spaces, non-ASCII (markdown-it percent-encodes those) never pass
    return url


def _trim(row: Row) -> Row:
    """``row`` without trailing spaces (the prefix of a blank line)."""
    out = list(row)
    while out and not out[-1].text.rstrip(" "):
        out.pop()
    if out:
        out[-1] = Segment(out[-1].text.rstrip(" "), out[-1].style)
    return tuple(out)


def _detab(segments: list[Segment]) -> list[Segment]:
    """Tabs expanded and the text sanitized again: markdown-it decodes entities (``&#13;``, ``&#x202e;``)."""
    column, out = 0, []
    for segment in segments:
        text = sanitize(segment.text)
        text = expand_tabs(text, column) if "\t" in text else text
        out.append(Segment(text, segment.style))
        column += text_width(text)
    return out


class _Ctx:
    """The prefixes of the lines a block emits: ``first`` for its next line, then ``rest``."""

    __slots__ = ("first", "rest")

    def __init__(self, first: Row, rest: Row) -> None:
        self.first, self.rest = first, rest

    def take(self) -> Row:
        first, self.first = self.first, self.rest
        return first


class Renderer:
    """Renders blocks into ``lines``; in open mode it also finds how many lines can no longer change.

    ``commit`` (lines) and ``commit_line`` (source line) say where the stable part of an open
    document ends: every line before them is final whatever text is appended (mdview.py).
    """

    def __init__(self, options: Options, source_lines: list[str] | None = None, resume: Resume | None = None) -> None:
        self.options = options
        self.source_lines = source_lines or []
        self.theme = options.theme
        self.lines: list[Line] = []
        self.commit = 0
        self.commit_line = 0
        self.top_item: tuple[int, int] | None = None  # (lines, source line): an open top-level list's last item
        self.table_lead = 0  # source lines of an open table's stand-in once its rows commit: header, rule, width rows
        # The first ``freeze`` lines from line ``freeze_from`` reached the terminal's history (stream.view_freeze):
        # an open paragraph's complete lines among them are settled whatever the commit rule would hold back.
        self.freeze_from = 0
        self.freeze = 0
        # An open top-level fence the source continues (its stand-in opener is line 0, stream.py): its highlighting
        # goes on from ``resume``; ``open_fence`` says what of the last open top-level fence is final; ``outgrown``:
        # the continued fence outgrew the highlighting limit, so its lines before the source are plain now too.
        self.resume = resume
        self.open_fence: OpenFence | None = None
        self.outgrown = False

    def style(self, element: str) -> Style:
        return merge(self.options.base, self.theme.style(element))

    # --- emitting -----------------------------------------------------------------------------

    def _emit(self, first: Row, cont: Row, content: list[Segment], wrap: Wrap, **extra: Any) -> None:
        runs = [segment for segment in (*first, *_detab(content)) if segment.text]
        prefix = sum(len(segment.text) for segment in first)
        text = "".join(segment.text for segment in runs)
        self.lines.append(Line(text, prefix, cont, tuple(runs), wrap, **extra))

    def blank(self, ctx: _Ctx) -> None:
        self._emit(_trim(ctx.rest), (), [], Wrap.WORD)

    # --- blocks -------------------------------------------------------------------------------

    def blocks(self, nodes: list[SyntaxTreeNode], ctx: _Ctx, inside: str, open_last: bool, emitted: bool) -> None:
        """Render sibling blocks; with ``open_last`` the last one may still grow (commit marks before it)."""
        previous: str | None = None
        for index, node in enumerate(nodes):
            last = open_last and index == len(nodes) - 1
            if last and index:
                # Its closed siblings are final; its separator is not: a blank line commits only with a
                # line after it (the block may yet render no line at all, as an opening fence does).
                self.commit = len(self.lines)
                self.commit_line = node.map[0] if node.map else self.commit_line
            if emitted or previous is not None:
                listy = node.type.endswith("_list") or (previous or "").endswith("_list")
                if inside != "item" or not listy:
                    self.blank(ctx)
            self.block(node, ctx, last)
            previous = node.type

    def block(self, node: SyntaxTreeNode, ctx: _Ctx, open_: bool = False) -> None:
        kind = node.type
        if kind == "paragraph":
            self.paragraph(node, ctx, DEFAULT, open_)
        elif kind == "heading":
            level = int(node.tag[1:]) if node.tag[1:].isdigit() else 3
            element = {1: "heading1", 2: "heading2"}.get(level, "heading")
            self.paragraph(node, ctx, self.theme.style(element), open_)
        elif kind in ("fence", "code_block"):
            self.code(node, ctx, open_)
        elif kind == "blockquote":
            bar = (Segment(QUOTE_BAR, self.style("quote_bar")),)
            inner = _Ctx((*ctx.take(), *bar), (*ctx.rest, *bar))
            count = len(self.lines)
            self.blocks(list(node.children), inner, "quote", open_, False)
            if len(self.lines) == count:  # nothing inside (an empty fence): the bar still shows
                self._emit(inner.take(), inner.rest, [], Wrap.WORD)
        elif kind in ("bullet_list", "ordered_list"):
            self.items(node, ctx, open_)
        elif kind == "hr":
            self._emit(ctx.take(), (), [Segment(RULE * 3, self.style("rule"))], Wrap.RULE)
        elif kind == "table":
            self.table(node, ctx, open_)
        else:  # html and anything new: its source as text
            for line in (node.content or "").rstrip("\n").split("\n"):
                self._emit(ctx.take(), ctx.rest, [Segment(line, self.options.base)], Wrap.WORD)

    def paragraph(self, node: SyntaxTreeNode, ctx: _Ctx, style: Style, open_: bool = False) -> None:
        base = merge(self.options.base, style)
        lines = self.inline(node.children[0] if node.children else None, base)
        start = len(self.lines)
        for content in lines:
            first = ctx.take()
            self._emit(first, ctx.rest, content, Wrap.WORD)
        if open_ and node.map:
            done = self._settled_lines(node, lines, base)
            frozen = self.freeze - (start - self.freeze_from)
            if frozen > done:
                source = self.source_lines[node.map[0] : node.map[1]]
                complete = sum(1 for line in source if line.endswith("\n"))
                done = max(done, min(frozen, complete, len(lines)))
            if done:
                self.commit = start + done
                self.commit_line = node.map[0] + done

    def _settled_lines(self, node: SyntaxTreeNode, lines: list[list[Segment]], base: Style) -> int:
        """How many leading lines of an open paragraph no appended text can change.

        Lines are line breaks (``breaks``), so line ``i`` can only change through an inline
        opener still unmatched in it (a literal ``*``, ``_``, ``~``, `````, ``[`` or ``]``: a later
        closer may pair with it; a matched pair never changes, closers pair with what precedes
        them) or by becoming a table header (the last complete line: one line of lookahead).
        A setext underline may still turn the paragraph into a heading: same text, bolder.  The settled lines never
        end inside a pair that closes in a later line (``*a`` then ``b*``): that line's rendering depends on them.
        """
        assert node.map is not None
        source = node.map[1] - node.map[0]
        last = node.map[1] - 1
        complete = source if last < len(self.source_lines) and self.source_lines[last].endswith("\n") else source - 1
        if node.type == "heading" and node.markup[:1] in ("=", "-"):
            source, complete = source - 1, source  # a setext heading: its underline is the lookahead line
        elif node.type == "heading":
            return 0  # an ATX heading is one line: it commits when its line is complete (mdview.py)
        if len(lines) == source - 1 and last < len(self.source_lines) and not self.source_lines[last].strip():
            source -= 1  # a last line of Unicode spaces only (U+3000) is trimmed from the paragraph: the rest maps
        if len(lines) != source:
            return 0  # a code span joined lines: keep it simple and wait for the blank line
        done = 0
        while done < complete - 1 and not _OPENERS.intersection("".join(s.text for s in lines[done])):
            done += 1
        overdue = self._overdue(node.map[0], done, complete)
        floor = max(0, overdue - WAIT_LINES) if overdue > done else 0
        done = max(done, overdue)
        # Never settle up to a line break inside a pair (``*a`` then ``b*``): the lines after it are parsed again
        # after the stand-in, without the opener.  A line ending styled whose next line starts styled may be one.
        while floor < done < len(lines) and _styled_end(lines[done - 1], base) and _styled_start(lines[done], base):
            done -= 1
        return done

    def _overdue(self, first: int, done: int, complete: int) -> int:
        """The first of the paragraph's lines (from source line ``first``) that may still wait for a closer: a line
        waits while at most ``WAIT_LINES`` complete lines follow it and the waiting lines hold at most ``WAIT_CHARS``
        characters, the lines before settle whatever they hold (``done`` when none has waited that long); the last
        complete line always waits."""
        back, size = complete, 0
        while back > done and complete - back <= WAIT_LINES:
            size += len(self.source_lines[first + back - 1])
            if size > WAIT_CHARS:
                break
            back -= 1
        return done if back <= done else min(back, complete - 1)

    def code(self, node: SyntaxTreeNode, ctx: _Ctx, open_: bool) -> None:
        content = node.content[:-1] if node.content.endswith("\n") else node.content
        complete = content
        closed = self.fence_closed(node)
        growing = open_ and node.type == "fence" and not closed
        if growing:
            # An open fence: its last (partial) line is plain until complete; a complete line is
            # committed once the next one is complete too (one line of lexer lookahead).
            cut = node.content.rfind("\n")
            complete = node.content[:cut] if cut >= 0 else ""
        code = expand_tabs(content)
        source = expand_tabs(complete)
        lines, resume = self._code_lines(node, source, growing)
        plain = code.split("\n")
        if not code and node.type == "fence" and not node.content:
            plain = []
        mark = (*ctx.rest, Segment(CODE_MARK, self.style("code_mark")))
        base = self.style("code_block")
        start = len(self.lines)
        for index, text in enumerate(plain):
            segments = list(lines[index]) if index < len(lines) else [Segment(text, base)]
            self._emit(ctx.take(), mark, segments, Wrap.CODE)
        if growing:
            done = complete.count("\n")  # complete lines but the last
            if complete:
                self.commit = len(self.lines) - len(plain) + done
                self.commit_line = (node.map[0] if node.map else 0) + 1 + done
            if resume is not None:
                # Final: committed, and lexed for good; the last committed line stays open too, so that a replace
                # cutting the source back to the committed lines leaves the open part a line (stream.view_replace).
                final = max(0, min(done - 1, resume.final))
                self.open_fence = OpenFence(start, final, resume_after(resume, source, final))
        elif open_ and closed and node.map:
            # A fence whose closing line is complete can no longer change, as the last block of an open list item
            # too: every line of it stays committed (while it was open its lines, and the separator before them,
            # were committed line by line; falling back to the lines before it would take them back).
            self.commit = len(self.lines)
            self.commit_line = node.map[1]

    def _code_lines(self, node: SyntaxTreeNode, code: str, growing: bool) -> tuple[list[StyledLine], Resume | None]:
        """The highlighted lines of a code block's ``code``; for a top-level fence still open, or the one this source
        continues (``resume``: it starts at line 0), also where highlighting resumes at its first line."""
        top = node.type == "fence" and node.parent is not None and node.parent.parent is None
        resume = self.resume if top and node.map is not None and node.map[0] == 0 else None
        base = self.style("code_block")
        if not top or not (growing or resume is not None):
            return highlight_code(code, node.info, self.theme, base), None
        if resume is not None and growing and "\n" not in node.content:
            # No complete line after the continued one's final lines (a replace cut the source back to them): the
            # partial line is plain, as in the whole fence, and highlighting resumes where it did.
            return [], resume
        lines, after = highlight_resumed(code, node.info, self.theme, base, resume)
        if resume is not None and resume.fold is not None and after.fold is None:
            self.outgrown = True
        return lines, after

    def items(self, node: SyntaxTreeNode, ctx: _Ctx, open_: bool) -> None:
        depth = sum(1 for parent in _ancestors(node) if parent.type.endswith("_list"))
        children = list(node.children)
        for index, item in enumerate(children):
            if node.type == "ordered_list":
                marker = f"{item.info or index + 1}{item.markup or '.'} "
            else:
                marker = BULLETS[depth % len(BULLETS)]
            last = open_ and index == len(children) - 1
            if last and index:
                self.commit = len(self.lines)
                self.commit_line = item.map[0] if item.map else self.commit_line
                if depth == 0 and item.map:  # mdview.py makes the items before it stable (the list's stand-in)
                    self.top_item = (self.commit, item.map[0])
            head = (Segment(marker, self.style("bullet")),)
            inner = _Ctx((*ctx.take(), *head), (*ctx.rest, Segment(" " * text_width(marker))))
            count = len(self.lines)
            self.blocks(list(item.children), inner, "item", last, False)
            if len(self.lines) == count:  # an empty item (or one holding only an empty fence): its marker
                self._emit(inner.take(), inner.rest, [], Wrap.WORD)

    def table(self, node: SyntaxTreeNode, ctx: _Ctx, open_: bool = False) -> None:
        start = len(self.lines)
        rows: list[tuple[StyledLine, ...]] = []
        aligns: list[str] = []
        for section in node.children:
            for tr in section.children:
                cells: list[StyledLine] = []
                for cell in tr.children:
                    style = self.style("table_header") if cell.type == "th" else self.options.base
                    lines = self.inline(cell.children[0] if cell.children else None, style)
                    joined = [segment for line in lines for segment in line]
                    cells.append(tuple(_detab(joined)))
                    if cell.type == "th":
                        found = str(cell.attrs.get("style", ""))
                        aligns.append(found.split(":")[-1] if found else "left")
                rows.append(tuple(cells))
        width = max(len(row) for row in rows)
        fixing, fixed = self.width_rows(node)
        grid = Table(tuple(row + ((),) * (width - len(row)) for row in rows), tuple(aligns), self.theme, fixing)
        for index, row in enumerate(grid.rows):
            if index == 1:
                self._emit(ctx.take(), ctx.rest, [], Wrap.TABLE, table=grid, row=-1)  # the header rule
            # The text of a table row is its cells (what a plain transcript shows), padded so every row
            # the layout may take at any width is a distinct source position (mdtable.py).
            text = " | ".join("".join(s.text for s in cell) for cell in row)
            pad = " " * max(0, _max_rows(grid, row) - len(text))
            self._emit(ctx.take(), ctx.rest, [Segment(text + pad)], Wrap.TABLE, table=grid, row=index)
        if len(grid.rows) == 1:
            self._emit(ctx.take(), ctx.rest, [], Wrap.TABLE, table=grid, row=-1)
        if open_ and node.map and fixed:
            # Once the rows that fix the column widths are complete, a complete row can no longer change: the
            # header, the rule and every complete body row commit (a row's line is complete with its newline).
            last = node.map[1] - 1
            partial = last >= len(self.source_lines) or not self.source_lines[last].endswith("\n")
            complete = len(grid.rows) - 1 - (1 if partial else 0)
            self.commit = start + 2 + complete
            self.commit_line = node.map[0] + 2 + complete
            self.table_lead = 2 + fixing

    def width_rows(self, node: SyntaxTreeNode) -> tuple[int, bool]:
        """How many body rows of a table fix its column widths (``WIDTH_ROWS``, ``WIDTH_CHARS``), and whether no
        appended text can change them (they are complete, and their number is final)."""
        if node.map is None or not self.source_lines:
            return WIDTH_ROWS, False
        first, end = node.map[0] + 2, min(node.map[1], len(self.source_lines))
        count = size = 0
        while count < WIDTH_ROWS and size < WIDTH_CHARS and first + count < end:
            size += len(self.source_lines[first + count])
            count += 1
        complete = count > 0 and self.source_lines[first + count - 1].endswith("\n")
        return count, complete and (count == WIDTH_ROWS or size >= WIDTH_CHARS)

    def fence_closed(self, node: SyntaxTreeNode) -> bool:
        """Whether a fence has seen its complete closing line (then it can no longer change).

        markdown-it's map of a closed fence spans the opening line, the content and the closing
        line; an unclosed one ends with the document.  A closing line without its newline may
        still become an info line (```` ```x ````), so it does not count yet.
        """
        if node.type != "fence" or not node.map:
            return node.type != "fence"
        content = node.content
        count = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
        last = node.map[1] - 1
        if node.map[1] - node.map[0] != count + 2 or last >= len(self.source_lines):
            return False
        return self.source_lines[last].endswith("\n")

    # --- inline -------------------------------------------------------------------------------

    def inline(self, node: SyntaxTreeNode | None, style: Style) -> list[list[Segment]]:
        """Inline content as lines of styled runs (a line break starts a new line)."""
        lines: list[list[Segment]] = [[]]
        if node is not None:
            self._inline(node.children, style, lines)
        return lines

    def _inline(self, nodes: list[SyntaxTreeNode], style: Style, lines: list[list[Segment]]) -> None:
        theme = self.theme
        for node in nodes:
            kind = node.type
            if kind in ("text", "html_inline"):
                lines[-1].append(Segment(node.content, style))
            elif kind in ("softbreak", "hardbreak"):
                lines.append([])
            elif kind == "code_inline":
                lines[-1].append(Segment(node.content, merge(style, theme.style("code"))))
            elif kind in ("em", "strong", "s"):
                element = {"em": "emph", "strong": "strong", "s": "strike"}[kind]
                self._inline(node.children, merge(style, theme.style(element)), lines)
            elif kind == "link":
                self._link(node, style, lines)
            elif kind == "image":
                lines[-1].append(Segment(f"[{node.content or 'image'}]", merge(style, theme.style("link"))))
            else:
                self._inline(node.children, style, lines)

    def _link(self, node: SyntaxTreeNode, style: Style, lines: list[list[Segment]]) -> None:
        href = str(node.attrs.get("href", ""))
        url = safe_url(href) if self.options.hyperlinks else None
        link_style = merge(style, self.theme.style("link"))
        if url is not None:
            link_style = merge(link_style, Style(link=url))
        row, column = len(lines) - 1, len(lines[-1])
        self._inline(node.children, link_style, lines)
        shown = "".join(s.text for s in lines[row][column:]) + "".join(
            s.text for line in lines[row + 1 :] for s in line
        )
        if href and shown != href and "mailto:" + shown != href and (url is None or _looks_like_url(shown)):
            # Without a hyperlink the target is shown after the text; with one, the text stands for it, unless the
            # text reads as another address (``[https://docs.python.org/](https://evil.example/x)``, issue 33).
            lines[-1].append(Segment(f" ({href})", merge(style, self.theme.style("link_url"))))


# Text a reader takes for an address: a scheme (``https:``, ``mailto:``, ``javascript:``), ``www.`` or a host name
# (``docs.python.org``, ``evil.example/x``), or an e-mail address.
_URL_LIKE = re.compile(
    r"\s*(?:[a-z][a-z0-9+.-]*:|www\.|[^\s/@]+@[^\s/@]+\.|[\w-]+(?:\.[\w-]+)*\.[a-z][\w-]*(?:[/:?#]|\s*$))", re.I
)


def _looks_like_url(text: str) -> bool:
    """Whether link text reads as an address (then a hyperlink to another target shows that target too)."""
    return _URL_LIKE.match(text) is not None


def _ancestors(node: SyntaxTreeNode) -> list[SyntaxTreeNode]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def _max_rows(table: Table, row: tuple[StyledLine, ...]) -> int:
    # The most rows one table row can take at any width (mdtable.py): stacked at one cell a row,
    # every cluster of "header: value" on its own row.
    texts = ["".join(s.text for s in cell) for cell in (*table.rows[0], *row)]
    return sum(len(text) + 3 for text in texts) + 1


def _styled_end(line: list[Segment], base: Style) -> bool:
    """Whether a paragraph line's last run is styled (it may end inside a pair)."""
    return bool(line) and line[-1].style != base


def _styled_start(line: list[Segment], base: Style) -> bool:
    """Whether a paragraph line's first run is styled (it may start inside a pair)."""
    return bool(line) and line[0].style != base
