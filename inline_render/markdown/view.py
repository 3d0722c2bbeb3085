"""The rendering of a Markdown source while it streams (``View``): stable lines, the open block's lines, the offsets
the commit rule keeps.  ``stream`` builds and updates views (its docstring has the rule); ``guard`` continues one as
text when its rendering fails.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from ..text.highlight import Resume
from .blocks import Line, Options, Refs

__all__ = ["Fence", "View"]


@dataclass(frozen=True, slots=True, eq=False)
class Fence:
    """An open top-level fence whose code lines before the tail are stable: the tail continues it after its opening
    line (``View.lead``, the stand-in), highlighted on from ``resume`` (issue 33, case 10)."""

    first: int  # the index in ``View.stable_lines`` of its first code line (``view_trim`` moves it)
    resume: Resume  # where its highlighting goes on: at the tail's first code line


@dataclass(frozen=True, slots=True, eq=False)
class View:
    """The rendering of a Markdown source: stable lines (final) and the open block's lines."""

    options: Options
    source: str
    stable_src: int
    stable_lines: tuple[Line, ...]
    stable_starts: tuple[int, ...]
    stable_text: str
    blocks: int
    tail_lines: tuple[Line, ...]
    tail_starts: tuple[int, ...]
    committed: int  # display offset up to which the text can no longer change
    commit_src: int  # source offset whose prefix fixes the committed lines
    text: str
    mode: str = "markdown"  # or "diff" / "ansi": one display line per source line (_update_lines)
    continues: bool = False  # the open tail starts inside a paragraph or list whose first part is stable
    src_base: int = 0  # offset in the whole source where ``source`` starts (``view_trim`` dropped the rest)
    lead: str = ""  # the stand-in parsed before the tail when it continues a block (``_DUMMY`` or a list item)
    refs: Refs = ()  # the link reference definitions in the source before ``stable_src`` (they apply to the tail)
    frozen: int = 0  # display offset before which the text reached the terminal's history anyway (``view_freeze``)
    fence: Fence | None = None  # the open fence the tail continues (then ``continues``; ``lead`` is its opening line)

    def line_at(self, offset: int) -> tuple[Line, int, int]:
        """The line holding display ``offset``, its start, and its index among all lines."""
        if offset < len(self.stable_text) or not self.tail_lines:
            index = max(0, bisect.bisect_right(self.stable_starts, offset) - 1)
            return self.stable_lines[index], self.stable_starts[index], index
        index = max(0, bisect.bisect_right(self.tail_starts, offset) - 1)
        return self.tail_lines[index], self.tail_starts[index], len(self.stable_lines) + index

    def line(self, index: int) -> tuple[Line, int]:
        """Line ``index`` of all lines and its display start."""
        if index < len(self.stable_lines):
            return self.stable_lines[index], self.stable_starts[index]
        index -= len(self.stable_lines)
        return self.tail_lines[index], self.tail_starts[index]

    @property
    def count(self) -> int:
        """How many display lines there are."""
        return len(self.stable_lines) + len(self.tail_lines)
