"""A view whose rendering failed goes on as text: the committed lines stay, a note says why, the rest is its source.

Rendering runs on text a model or a runtime chose, through a parser and lexers this library does not own; an
exception there (a ``RecursionError`` on nesting deeper than the bounds ``blocks`` sets, a lexer's bug) used to
escape the tick, end the app and lose the text streamed in it (issue 33, case 1).  ``stream`` catches it per
entry and hands the view here: the lines already committed are kept as they were (they may be in scrollback, and
committed text never changes), one note line says that the rest is shown as text and why, and the source after
the committed lines follows verbatim, one display line per source line.  The view's mode is then ``text``: later
deltas append lines (complete lines are committed at once), nothing is parsed again, so one bad answer costs its
length once and the rest of the session renders as before.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from ..text.cells import expand_tabs
from ..text.style import Segment, Style
from .blocks import Line, merge
from .view import View

__all__ = ["NOTE", "failed", "text_update"]

NOTE = "\u26a0 Markdown error ({}): shown as text"  # ⚠
_NAME = 40  # characters of the exception's type name in the note (the note is one bounded line)


def _plain(text: str, style: Style) -> Line:
    text = expand_tabs(text)
    return Line(text, 0, (), (Segment(text, style),) if text else ())


def _starts(lines: tuple[Line, ...], base: int) -> tuple[int, ...]:
    out, offset = [], base
    for line in lines:
        out.append(offset)
        offset += len(line.text) + 1
    return tuple(out)


def failed(view: View, source: str, error: BaseException) -> View:
    """``view`` (rendered from a prefix of ``source``) gone on as text after rendering ``source`` raised ``error``."""
    # Where the source of the committed lines ends (a diff or ANSI view commits its complete lines).
    keep = view.commit_src if view.mode == "markdown" else view.source.rfind("\n") + 1
    count = bisect.bisect_left((*view.stable_starts, *view.tail_starts), view.committed)
    kept = tuple(view.line(index)[0] for index in range(count))
    style = merge(view.options.base, view.options.theme.style("dialog_danger"))
    note = _plain(NOTE.format(type(error).__name__[:_NAME]), style)
    lines = (*kept, note)
    text = "".join(line.text + "\n" for line in lines)
    empty: tuple[Line, ...] = ()
    base = replace(
        view,
        mode="text",
        stable_src=keep,
        stable_lines=lines,
        stable_starts=_starts(lines, 0),
        stable_text=text,
        tail_lines=empty,
        tail_starts=(),
        committed=len(text),
        commit_src=keep,
        text=text,
        continues=False,
        lead="",
        refs=(),
        frozen=0,
        fence=None,
    )
    return text_update(base, source)


def text_update(view: View, source: str) -> View:
    """The ``text`` view after its source became ``source``: the complete lines after ``stable_src`` become stable
    (committed) lines, a partial last line is its open line."""
    base = view.stable_src
    end = max(base, source.rfind("\n") + 1)
    style = view.options.base
    new = tuple(_plain(part, style) for part in source[base:end].split("\n")[:-1])
    stable_text = view.stable_text + "".join(line.text + "\n" for line in new)
    tail = (_plain(source[end:], style),) if end < len(source) else ()
    return replace(
        view,
        source=source,
        stable_src=end,
        stable_lines=view.stable_lines + new,
        stable_starts=view.stable_starts + _starts(new, len(view.stable_text)),
        stable_text=stable_text,
        tail_lines=tail,
        tail_starts=(len(stable_text),) if tail else (),
        committed=len(stable_text),
        commit_src=end,
        text=stable_text + (tail[0].text if tail else ""),
    )
