"""Syntax highlighting with Pygments: code blocks by their info string, diffs by their file's language.

Highlighting only colours text that is already sanitized: it never adds or removes a
character, so a highlighted line is exactly as wide as the plain one.  Lexers are looked up
by name or alias (``python``, ``py``, ``ts``), then by file name (``hello.py``); an unknown
language is shown in the plain code style.  A diff is highlighted per side: the context and
``-`` lines lexed together as the old file, the context and ``+`` lines as the new one, so a
string or comment spanning lines is coloured as in the file.

Untrusted text names the lexer, so lexing runs through ``lexing``: only lexers a budget can stop are
reachable, a lexer over its budget shows the rest plain, a long line is plain, and a streamed block
is lexed per line (issue 33).  A streamed block can also be highlighted in parts (``highlight_resumed``):
its lines from a line start on, resumed where the lines before it were final (``Resume``), as highlighting
the whole block gives them, without the code before them.
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.style import Style as PygmentsStyle
from pygments.styles import get_style_by_name
from pygments.token import Comment, Keyword, Name, Number, Operator, String, _TokenType
from pygments.util import ClassNotFound

from .cells import expand_tabs
from .lexing import Budget, Lexed, Line, lex_fold, reachable, rebase, restart, start
from .style import Segment, Style
from .themes import Theme

__all__ = [
    "AnsiCodeStyle",
    "Resume",
    "StyledLine",
    "diff_language",
    "highlight_code",
    "highlight_diff",
    "highlight_resumed",
    "lexer_for",
    "resume_after",
]

StyledLine = tuple[Segment, ...]  # one source line as styled runs (no newline)

_MAX_HIGHLIGHT = 200_000  # characters: beyond this a block is shown in the plain code style (lexers can be slow)


@functools.lru_cache(maxsize=256)
def lexer_for(language: str | None) -> Lexer | None:
    """A Pygments lexer for a language name, alias or file name, or None when unknown or not safe to run."""
    if not language or len(language) > 4096:
        return None  # untrusted runtimes name it: a path longer than any real one is not matched
    name = language.strip().split()[0] if language.strip() else ""
    name = name.strip("{}.").lower()
    if not name or len(name) > 100:
        return None
    options = {"stripnl": False, "ensurenl": False, "tabsize": 0}
    try:
        lexer = get_lexer_by_name(name, **options)
    except ClassNotFound:
        try:
            lexer = get_lexer_for_filename(language.strip().split()[0], None, **options)
        except ClassNotFound:
            return None
    return lexer if reachable(lexer) else None  # a lexer no budget can stop (TNT's) is never run


class AnsiCodeStyle(PygmentsStyle):
    """Code in the terminal's own 16 colours: it follows the terminal's palette, so it reads on dark and light."""

    styles = {  # noqa: RUF012 - Pygments reads this class attribute
        Comment: "italic ansibrightblack",
        Keyword: "ansimagenta",
        Keyword.Constant: "ansicyan",
        Name.Builtin: "ansicyan",
        Name.Function: "ansiblue",
        Name.Class: "bold ansiblue",
        Name.Decorator: "ansicyan",
        Name.Exception: "ansired",
        Number: "ansicyan",
        Operator.Word: "ansimagenta",
        String: "ansigreen",
        String.Escape: "ansiyellow",
    }


def _pygments_style(name: str) -> type[PygmentsStyle]:
    return AnsiCodeStyle if name == "ansi" else get_style_by_name(name)


@functools.lru_cache(maxsize=4096)
def _token_style(code_style: str, base: Style, ttype: _TokenType) -> Style:
    style = _pygments_style(code_style)
    while not style.styles_token(ttype) and ttype.parent is not None:
        ttype = ttype.parent  # a token type made after the style class (a lexer's own, imported later) has none
    found = style.style_for_token(ttype)
    color = found.get("ansicolor") or found.get("color")  # an ANSI name stays a name: the terminal's palette
    return Style(
        fg=(color if color.startswith("ansi") else f"#{color}") if color else base.fg,
        bg=base.bg,
        bold=bool(found.get("bold")) or base.bold,
        dim=base.dim,
        italic=bool(found.get("italic")) or base.italic,
        underline=base.underline,
    )


def _paint(code_style: str, base: Style, line: Line) -> StyledLine:
    """One line's tokens as styled runs, neighbours of one style joined."""
    out: list[Segment] = []
    for ttype, text in line:
        style = _token_style(code_style, base, ttype)
        if out and out[-1].style == style:
            out[-1] = Segment(out[-1].text + text, style)
        else:
            out.append(Segment(text, style))
    return tuple(out)


def highlight_code(code: str, language: str | None, theme: Theme, base: Style) -> list[StyledLine]:
    """``code`` (sanitized, tabs expanded) as one styled line per source line, in the theme's code style."""
    return list(_highlight(code, language, theme, base))


# A streamed answer renders its open block again per delta: an unchanged code text (a closed fence,
# or an open fence's complete lines while its last line grows) is lexed once (a pure-function cache).
@functools.lru_cache(maxsize=256)
def _highlight(code: str, language: str | None, theme: Theme, base: Style) -> tuple[StyledLine, ...]:
    return tuple(_lex(code, language, theme, base))


_FoldKey = tuple[str, str, Style]
# The latest folds (lexing.Lexed) by language, code style and base: a streamed block's next text starts with
# the last one's, and goes on from there.  A memo: the fold continued gives what the fold from scratch does.
_RECENT: list[tuple[_FoldKey, Lexed[StyledLine]]] = []
_RECENT_MAX = 16
_BUDGET = Budget()  # one call's lexing time (tests set a long one to compare results that must not depend on time)


def _lex(code: str, language: str | None, theme: Theme, base: Style) -> list[StyledLine]:
    lexer = lexer_for(language)
    if lexer is None or language is None or len(code) > _MAX_HIGHLIGHT:
        return _plain(code, base)
    return _memo_fold(lexer, code, (language, theme.code_style, base))[1]


def _plain(code: str, base: Style) -> list[StyledLine]:
    return [(Segment(line, base),) if line else () for line in code.split("\n")]


def _memo_fold(lexer: Lexer, code: str, key: _FoldKey) -> tuple[Lexed[StyledLine], list[StyledLine]]:
    """``code``'s lines and fold, folded on from the longest recent fold of a prefix of it (or from none)."""
    found = [index for index, (seen, fold) in enumerate(_RECENT) if seen == key and code.startswith(fold.text)]
    at = max(found, key=lambda index: len(_RECENT[index][1].text), default=None)
    prior = _RECENT.pop(at)[1] if at is not None else start(lexer)
    folded, lines = lex_fold(lexer, code, prior, functools.partial(_paint, key[1], key[2]), _BUDGET)
    _RECENT.append((key, folded))
    del _RECENT[:-_RECENT_MAX]
    return folded, lines


@dataclass(frozen=True, slots=True, eq=False)
class Resume:
    """Where the highlighting of a code block goes on from one of its line starts (issue 33, case 10); compared by
    identity (its fold's lines are shared with the folds that go on from it).

    ``fold`` folds the block's lines from there on as the whole block's fold does (``lexing.rebase``; None: they
    are plain, for want of a lexer or because the block outgrew ``_MAX_HIGHLIGHT``); ``before`` counts the block's
    characters before that line (each line with its newline), which that limit counts too.
    """

    fold: Lexed[StyledLine] | None
    before: int = 0

    @property
    def final(self) -> int:
        """How many lines from here no text appended to the block changes (all of them when plain)."""
        return self.fold.count if self.fold is not None else sys.maxsize


def highlight_resumed(
    code: str, language: str | None, theme: Theme, base: Style, resume: Resume | None
) -> tuple[list[StyledLine], Resume]:
    """``code`` highlighted as ``highlight_code`` does, or, after ``resume``, the part of a block's code from that
    resume on, highlighted as the whole block's code would be there; and the resume at ``code``'s start with the
    fold of its complete lines (``resume_after`` moves it past the final ones).

    The parts are lexed from the fold only, never the code before them, so a part costs its own lines.  A resumed
    part whose code no longer extends the fold's text (a replaced answer dropped a line it had) is lexed on from
    the fold's stack (``lexing.restart``).  Past ``_MAX_HIGHLIGHT`` characters of the whole block the part is plain,
    as the whole block is: the caller's lines before it are then plain too (``markdown.stream`` redraws them).
    """
    before = resume.before if resume is not None else 0
    lexer = lexer_for(language)
    if lexer is None or language is None or before + len(code) > _MAX_HIGHLIGHT:
        return _plain(code, base), Resume(None, before)
    key = (language, theme.code_style, base)
    if resume is None:  # the whole block: as highlight_code, from the recent folds
        folded, lines = _memo_fold(lexer, code, key)
        return lines, Resume(folded, before)
    if resume.fold is None:  # plain once, plain for good (the block only grows)
        return _plain(code, base), resume
    prior = resume.fold if code.startswith(resume.fold.text) else restart(resume.fold)
    # Not put in the recent folds: this fold is of a part, lexed on from a stack the part's text alone does not give.
    folded, lines = lex_fold(lexer, code, prior, functools.partial(_paint, key[1], key[2]), _BUDGET)
    return lines, Resume(folded, before)


def resume_after(resume: Resume, code: str, lines: int) -> Resume:
    """``resume``, at the start of ``code``, moved past its first ``lines`` lines (``lines <= resume.final``)."""
    cut = 0
    for _ in range(lines):
        cut = code.index("\n", cut) + 1
    return Resume(rebase(resume.fold, lines) if resume.fold is not None else None, resume.before + cut)


_PATH = re.compile(r"^(?:\+\+\+|---) (?:[ab]/)?(?P<path>\S+)")


def diff_language(diff: str) -> str | None:
    """The file name a unified diff changes (from its ``+++``/``---`` headers), for choosing a lexer."""
    for line in diff.split("\n", 40)[:40]:
        found = _PATH.match(line)
        if found and found["path"] != "/dev/null":
            return found["path"]
    return None


def _marker(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "file"
    if line.startswith("@@"):
        return "hunk"
    return line[:1] if line[:1] in ("+", "-", " ") else "other"


def highlight_diff(diff: str, language: str | None, theme: Theme) -> list[StyledLine]:
    """A unified diff, one styled line per line: +/- gutters in the diff colours, code by ``language``."""
    # Tabs expanded after the gutter, as a diff viewer shows them (sanitized text keeps its tabs).
    lines = [line[0] + expand_tabs(line[1:]) if line[:1] in ("+", "-", " ") and line else expand_tabs(line)
             for line in diff.split("\n")]  # fmt: skip
    kinds = [_marker(line) for line in lines]
    language = language or diff_language(diff)
    sides: dict[str, list[StyledLine]] = {}
    for side, keep in (("-", ("-", " ")), ("+", ("+", " "))):
        body = "\n".join(line[1:] for line, kind in zip(lines, kinds, strict=True) if kind in keep)
        sides[side] = highlight_code(body, language, theme, Style())
    taken = {"-": 0, "+": 0}
    out: list[StyledLine] = []
    for line, kind in zip(lines, kinds, strict=True):
        if kind in ("file", "hunk", "other"):
            element = {"file": "diff_file", "hunk": "diff_hunk"}.get(kind)
            out.append(
                (Segment(line, theme.style(element)),) if line and element else ((Segment(line),) if line else ())
            )
            continue
        side = "+" if kind == "+" else "-"
        code = sides[side][taken[side]]
        taken[side] += 1
        if kind == " ":
            taken["+"] += 1  # context lines are on both sides
        gutter = {"+": "diff_gutter_add", "-": "diff_gutter_del", " ": ""}[kind]
        tint = {"+": "diff_add", "-": "diff_del", " ": ""}[kind]
        segments = [Segment(kind, theme.style(gutter))]
        for segment in code:
            # Unhighlighted text takes the side's colour; lexed tokens keep their own.
            style = segment.style if segment.style != Style() or not tint else theme.style(tint)
            segments.append(Segment(segment.text, style))
        out.append(tuple(segments))
    return out
