"""pyte as an independent test emulator, with scrollback and DESIGN's pyte quirks handled.

pyte (a test dependency) drops the rest of a chunk at a zero-width character
that is not a combining mark, measures regional indicators 2 wide, and loses
top lines when it shrinks.  ``PyteTerminal`` draws clusters itself with the
renderer's width policy (per code point: the xterm.js unicode 11 table),
attaches zero-width code points to the previous cell, records lines that leave
a region whose top is row 1 into ``scrollback``, and resizes like a terminal
that does not reflow.  Everything else (escape parsing, margins, erasing,
modes) is pyte's own.
"""

from __future__ import annotations

from typing import Any

import pyte
import wcwidth
from pyte import modes

from ..text.cells import WidthPolicy, grapheme_width

__all__ = ["PyteTerminal"]


class _Screen(pyte.Screen):
    def __init__(self, columns: int, lines: int, policy: WidthPolicy) -> None:
        super().__init__(columns, lines)
        self.policy = policy
        self.scrollback: list[str] = []
        self.forbidden: list[str] = []

    def line_text(self, y: int) -> str:
        line = self.buffer[y]
        return "".join(line[x].data for x in range(self.columns)).rstrip(" ")

    def index(self) -> None:
        top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        if self.cursor.y == bottom and top == 0:
            self.scrollback.append(self.line_text(0))
        super().index()

    def draw(self, data: str) -> None:
        for char in data:
            if char < " " or "\x7f" <= char <= "\x9f":
                continue  # C0/C1 controls pyte does not handle (CAN, SUB...) are ignored, as terminals do
            width = grapheme_width(char, WidthPolicy.CODEPOINT)  # pyte draws code point by code point
            if width == 0:
                self._attach(char)
                continue
            wraps = self.cursor.x + width > self.columns and self.cursor.x < self.columns
            if wraps and modes.DECAWM in self.mode:
                # A wide character that does not fit wraps (pyte would cut it).
                self.carriage_return()
                self.linefeed()
            if self.cursor.x >= self.columns:
                if modes.DECAWM in self.mode:
                    self.carriage_return()
                    self.linefeed()
                else:
                    self.cursor.x = self.columns - width
            line = self.buffer[self.cursor.y]
            line[self.cursor.x] = self.cursor.attrs._replace(data=char)
            if width == 2 and self.cursor.x + 1 < self.columns:
                line[self.cursor.x + 1] = self.cursor.attrs._replace(data="")
            self.cursor.x = min(self.cursor.x + width, self.columns)
            self.dirty.add(self.cursor.y)

    def _attach(self, char: str) -> None:
        line = self.buffer[self.cursor.y]
        x = self.cursor.x - 1
        while x > 0 and line[x].data == "":
            x -= 1
        if x >= 0:
            line[x] = line[x]._replace(data=line[x].data + char)

    def erase_in_display(self, how: int = 0, *args: Any, **kwargs: Any) -> None:
        if how in (2, 3):
            self.forbidden.append(f"CSI {how}J")
        super().erase_in_display(how, *args, **kwargs)

    def scroll_up(self, *args: Any) -> None:  # pragma: no cover - pyte has no CSI S
        self.forbidden.append("CSI S")


def _cut_cluster(line: Any, columns: int, old_columns: int) -> range:
    """The cells left of ``columns`` that belong to a grapheme cluster reaching past it.

    pyte keeps one code point per cell (zero-width ones attached), so a cluster
    such as a ZWJ family or a flag spans several cells.
    """
    chars: list[tuple[str, int]] = []
    for x in range(old_columns):
        chars.extend((char, x) for char in line[x].data)
    offset = 0
    for cluster in wcwidth.iter_graphemes("".join(char for char, _ in chars)):
        members = chars[offset : offset + len(cluster)]
        first = members[0][1]
        offset += len(cluster)
        if first >= columns:
            break
        # Where its widest cell ends: a zero-width mark attached last (``ト́``) does not end a wide character.
        end = max(x + max(1, grapheme_width(char, WidthPolicy.CODEPOINT)) for char, x in members)
        if end > columns:
            return range(first, columns)
    return range(0)


class PyteTerminal:
    """A pyte screen plus scrollback, fed raw bytes as a pty with onlcr delivers them."""

    __test__ = False

    def __init__(self, columns: int, rows: int, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> None:
        self.policy = policy
        self.screen = _Screen(columns, rows, policy)
        self.stream = pyte.ByteStream(self.screen)
        self.scrollback = self.screen.scrollback

    @property
    def columns(self) -> int:
        return int(self.screen.columns)

    @property
    def rows(self) -> int:
        return int(self.screen.lines)

    def feed(self, data: bytes) -> None:
        """Feed output bytes; ``\\n`` becomes CR LF as the tty line discipline would."""
        self.stream.feed(data.replace(b"\n", b"\r\n"))

    @property
    def violations(self) -> list[str]:
        """Forbidden sequences pyte saw."""
        return list(self.screen.forbidden)

    def screen_lines(self) -> list[str]:
        return [self.screen.line_text(y) for y in range(self.rows)]

    @property
    def cursor_position(self) -> tuple[int, int, bool]:
        """(x, y, visible)."""
        return int(self.screen.cursor.x), int(self.screen.cursor.y), not self.screen.cursor.hidden

    def resize(self, columns: int, rows: int) -> None:
        """Resize like a terminal that does not reflow: rows cut at the top go to scrollback."""
        old = self.screen
        cut = max(0, old.cursor.y - (rows - 1))
        for y in range(cut):
            old.scrollback.append(old.line_text(y))
        new = _Screen(columns, rows, self.policy)
        new.scrollback, new.forbidden = old.scrollback, old.forbidden
        new.mode = set(old.mode)
        for y in range(cut, min(old.lines, cut + rows)):
            source, target = old.buffer[y], new.buffer[y - cut]
            for x in range(min(columns, old.columns)):
                target[x] = source[x]
            if columns < old.columns:
                for x in _cut_cluster(source, columns, old.columns):
                    target[x] = target[x]._replace(data=" ")  # as TestTerminal: a cut cluster disappears whole
        new.cursor.x = min(old.cursor.x, columns - 1)
        new.cursor.y = min(old.cursor.y - cut, rows - 1)
        new.cursor.hidden = old.cursor.hidden
        self.screen = new
        self.stream = pyte.ByteStream(new)
        self.scrollback = new.scrollback

    def dump(self) -> str:
        x, y, visible = self.cursor_position
        out = [f"--- pyte scrollback ({len(self.scrollback)} lines)", *self.scrollback[-50:]]
        out.append(f"--- pyte screen {self.columns}x{self.rows}, cursor ({x},{y}) {'visible' if visible else 'hidden'}")
        out += [f"{i:3}|{line}" for i, line in enumerate(self.screen_lines())]
        return "\n".join(out)
