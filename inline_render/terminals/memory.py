"""An in-memory terminal: parses the exact bytes a backend writes, keeps screen, scrollback and cursor.

It is the test backend of the library (like ratatui's ``TestBackend``, but fed
real bytes): it implements the VT subset that correct rendering needs, moves
lines that scroll off a region starting at the top row into scrollback (as
xterm, tmux and xterm.js do), and records every sequence that must never be
sent (``ESC[2J``, ``ESC[3J``, ``CSI S/T``, OSC, DCS, ...) in ``violations``.

``family`` picks what a resize does (see ``terminal_resize``): ``SIMPLE`` (the default) never
reflows and never pulls rows back from history; ``XTERM``, ``VTE``, ``XTERMJS`` and ``TMUX``
do what those terminals were measured to do, including ``ESC[K`` at the pending-wrap position.
Every family keeps, per screen row, whether it continues the row above (``wrapped``) and how
many cells were written (``used``); the reflowing families keep the history's cells too.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

import wcwidth

from ..text.cells import WidthPolicy, grapheme_width
from .resize import Buffer, Line, TerminalFamily, resize_buffer

__all__ = ["Cursor", "TerminalFamily", "TestTerminal"]

_FORBIDDEN_CSI = {"S": "CSI S (scroll up)", "T": "CSI T (scroll down)"}
_STRING_STARTS = {"]": "OSC", "P": "DCS", "_": "APC", "^": "PM", "X": "SOS"}


@dataclass(frozen=True, slots=True)
class Cursor:
    """Cursor position (0-based column ``x``, row ``y``) and visibility."""

    x: int
    y: int
    visible: bool


_NO_PENDING_WRAP = (TerminalFamily.XTERM, TerminalFamily.TMUX, TerminalFamily.SCREEN)


class TestTerminal:
    """A small VT terminal with scrollback, fed bytes with ``feed``."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(
        self,
        columns: int,
        rows: int,
        policy: WidthPolicy = WidthPolicy.CODEPOINT,
        family: TerminalFamily = TerminalFamily.SIMPLE,
    ) -> None:
        self.columns, self.rows, self.policy, self.family = columns, rows, policy, family
        self.grid: list[list[str]] = [[""] * columns for _ in range(rows)]
        self.wrapped = [False] * rows  # continues the row above (screen: continues into the next)
        self.used = [0] * rows  # cells written (tmux cellused, VTE row length)
        self.extent = 0  # VTE: screen rows its ring holds (written or scrolled through)
        self.scrollback: list[str] = []
        self.history: list[Line] = []  # the scrollback's cells, kept where a resize needs them
        self.x = self.y = 0
        self.visible = True
        self.pending_wrap = False
        self.autowrap = True
        self.top, self.bottom = 0, rows - 1
        self.saved = (0, 0)
        self.violations: list[str] = []
        self.resize_pushes: list[list[str]] = []  # lines each resize moved into scrollback
        # GNU screen shows (in copy mode and ``hardcopy -h``) only as many history lines as scrolled into it;
        # rows a resize pushes into history are there but out of reach (``scrollback`` is what it shows).
        self.scrolled = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""

    # ----------------------------------------------------------------- input
    def feed(self, data: bytes | str) -> None:
        """Process output bytes (``\\n`` is taken as a pty with onlcr delivers it: CR LF)."""
        text = self._pending + (self._decoder.decode(data) if isinstance(data, bytes) else data)
        self._pending = ""
        i, size = 0, len(text)
        while i < size:
            char = text[i]
            if char == "\x1b":
                end = self._escape(text, i)
                if end < 0:
                    self._pending = text[i:]  # an incomplete sequence waits for more bytes
                    return
                i = end
                continue
            code = ord(char)
            if code < 0x20 or 0x7F <= code < 0xA0:
                self._control(char)
            else:
                i = self._print_run(text, i)
                continue
            i += 1

    def _control(self, char: str) -> None:
        if char == "\r":
            self.x, self.pending_wrap = 0, False
        elif char == "\n":
            self.x = 0
            self._line_feed(hard=True)
        elif char == "\b":
            self.x, self.pending_wrap = max(0, self.x - 1), False
        elif char in "\x18\x1a\x07":
            pass  # CAN/SUB outside a sequence, BEL: nothing to do
        else:
            self.violations.append(f"control character {char!r}")

    def _escape(self, text: str, i: int) -> int:
        """Handle the sequence starting at ``text[i]`` (ESC); return the index after it, -1 if incomplete."""
        if i + 1 >= len(text):
            return -1
        kind = text[i + 1]
        if kind in "\x18\x1a":
            return i + 2  # CAN/SUB cancel the sequence
        if kind == "\x1b":
            return i + 1  # a new ESC restarts the sequence
        if kind == "[":
            j = i + 2
            while j < len(text) and not ("\x40" <= text[j] <= "\x7e"):
                if text[j] in "\x18\x1a":
                    return j + 1  # cancelled mid-sequence
                j += 1
            if j >= len(text):
                return -1
            self._csi(text[i + 2 : j], text[j])
            return j + 1
        if kind in _STRING_STARTS:
            self.violations.append(f"{_STRING_STARTS[kind]} string")
            end = text.find("\x07", i)
            st = text.find("\x1b\\", i + 2)
            ends = [e for e in (end + 1 if end >= 0 else -1, st + 2 if st >= 0 else -1) if e > 0]
            return min(ends) if ends else len(text)
        if kind == "7":
            self.saved = (self.x, self.y)
            if self.family is TerminalFamily.SCREEN and self.pending_wrap:
                self.saved = (self.columns, self.y)  # screen's pending wrap is its column one past the last
        elif kind == "8":
            # A resize since the save may have left it outside the screen: it is clamped, as terminals do.
            self.x, self.y = min(self.saved[0], self.columns - 1), min(self.saved[1], self.rows - 1)
            # GNU screen restores a pending wrap (measured: the next character continues the text on the next row):
            # its column one past the last, which a widening since leaves inside the row (not pending then).
            self.pending_wrap = self.family is TerminalFamily.SCREEN and self.saved[0] >= self.columns
        elif kind == "D":
            # IND: down a row (scrolling at the bottom), the column kept; GNU screen keeps a pending wrap (measured).
            pending = self.pending_wrap and self.family is TerminalFamily.SCREEN
            self._line_feed(hard=True)
            self.pending_wrap = pending
        elif kind == "c":
            self.violations.append("RIS (full reset)")
        else:
            self.violations.append(f"ESC {kind!r}")
        return i + 2

    def _csi(self, params: str, final: str) -> None:
        if params.startswith(">") or params.endswith("$"):
            return  # a query (DA2, XTVERSION, DECRQM): this terminal does not answer it, as many do not
        private = params.startswith("?")
        numbers = [int(p) if p.isdigit() else 0 for p in params.lstrip("?").split(";")] if params.lstrip("?") else []
        first = numbers[0] if numbers else 0
        if private:
            for mode in numbers:
                self._mode(mode, final == "h", final)
            return
        if final in _FORBIDDEN_CSI:
            self.violations.append(_FORBIDDEN_CSI[final])
        elif final in "Hf":
            row = numbers[0] if numbers and numbers[0] else 1
            col = numbers[1] if len(numbers) > 1 and numbers[1] else 1
            self.y, self.x = min(row, self.rows) - 1, min(col, self.columns) - 1
            self.pending_wrap = False
        elif final in "ABCDG":
            step = max(1, first)
            if final == "A":
                self.y = max(0, self.y - step)
            elif final == "B":
                self.y = min(self.rows - 1, self.y + step)
            elif final == "C":
                self.x = min(self.columns - 1, self.x + step)
            elif final == "D":
                self.x = max(0, self.x - step)
            else:
                self.x = min(self.columns, step) - 1
            # GNU screen keeps a pending wrap through CUU and CUD (measured), not through a column move.
            self.pending_wrap = self.pending_wrap and final in "AB" and self.family is TerminalFamily.SCREEN
        elif final == "M":
            self._delete_lines(max(1, first))
        elif final == "K":
            self._erase_line(first)
        elif final == "J":
            if first in (2, 3):
                self.violations.append(f"CSI {first}J")
            if first == 0:
                if self.family in (TerminalFamily.TMUX, TerminalFamily.SCREEN) and self.x == 0 and self.y == 0:
                    self._scroll_on_clear()
                self._erase_line(0, display=True)
                self.extent = self.rows  # VTE's ring gets every row down to the bottom
                for r in range(self.y + 1, self.rows):
                    self.grid[r] = [""] * self.columns
                    self.used[r] = 0
                    if self.family is TerminalFamily.SCREEN:
                        continue  # screen's erase leaves the flag (it lives past the row's last cell)
                    if self.family is not TerminalFamily.TMUX or r > self.y + 1:
                        self.wrapped[r] = False  # tmux keeps the flag on the (not cleared) cursor row
        elif final == "r":
            top = numbers[0] if numbers and numbers[0] else 1
            bottom = numbers[1] if len(numbers) > 1 and numbers[1] else self.rows
            if top < bottom <= self.rows:
                self.top, self.bottom = top - 1, bottom - 1
            self.x = self.y = 0  # DECSTBM homes the cursor (xterm, tmux, xterm.js)
            self.pending_wrap = False
        elif final == "m" or (final == "n" and first == 6):
            pass  # styles are not kept; a cursor position request has no reply here
        else:
            self.violations.append(f"unsupported CSI {params}{final}")

    def _mode(self, mode: int, on: bool, final: str) -> None:
        if final not in "hl":
            self.violations.append(f"unsupported private CSI {mode}{final}")
        elif mode == 25:
            self.visible = on
        elif mode == 7:
            self.autowrap = on
        elif mode not in (12, 2004, 1004, 2026):  # synchronized output needs nothing from a model that draws at once
            self.violations.append(f"unsupported private mode {mode}")

    def _delete_lines(self, count: int) -> None:
        """``DL``: the cursor's row and the ``count - 1`` below it (within the scroll region) go, the rows below
        move up, new blank rows (continuing nothing) come in at the region's bottom; the cursor to column 0."""
        if not self.top <= self.y <= self.bottom:
            return
        count = min(count, self.bottom - self.y + 1)
        # GNU screen (measured): rows deleted from the screen's top row go into history, as a scroll would.
        into_history = self.family is TerminalFamily.SCREEN and self.y == 0 and self.top == 0
        for _ in range(count):
            if into_history:
                self.scrollback.append(self._text(self.grid[self.y]))
                self.history.append(Line(list(self.grid[self.y]), self.wrapped[self.y], self.used[self.y]))
                self.scrolled += 1
            del self.grid[self.y], self.wrapped[self.y], self.used[self.y]
            self.grid.insert(self.bottom, [""] * self.columns)
            self.wrapped.insert(self.bottom, False)
            self.used.insert(self.bottom, 0)
        self.x, self.pending_wrap = 0, False

    def _scroll_on_clear(self) -> None:
        """tmux (option scroll-on-clear, on by default): clearing the whole screen from its top-left cell
        first moves the rows down to the last one in use into history; GNU screen moves every row."""
        used = [r for r in range(self.rows) if self.used[r] or any(self.grid[r])]
        every = self.family is TerminalFamily.SCREEN
        for r in range(self.rows if every else used[-1] + 1 if used else 0):
            self.scrollback.append(self._text(self.grid[r]))
            self.history.append(Line(list(self.grid[r]), self.wrapped[r], self.used[r]))
            self.scrolled += 1
        if every:
            self.wrapped = [False] * self.rows  # screen scrolls blank rows in

    def _erase_line(self, mode: int, display: bool = False) -> None:
        """``ESC[{mode}K`` (or the cursor row of ``ESC[J``), with each family's answer at the pending-wrap position."""
        family, x = self.family, self.x
        if self.pending_wrap and mode == 0:
            if (
                (family is TerminalFamily.VTE and not display)
                or family is TerminalFamily.XTERMJS
                or (family is TerminalFamily.TMUX and self.autowrap)
            ):
                x = self.columns  # the cursor sits past the last cell: nothing to erase
            elif family is TerminalFamily.XTERM or family is TerminalFamily.VTE:
                self.pending_wrap = False  # xterm (and VTE's ESC[J) erase the last cell and forget the wrap
        lo, hi = {0: (x, self.columns), 1: (0, x + 1), 2: (0, self.columns)}.get(mode, (0, 0))
        y = self.y
        self._blank(self.grid[y], lo, hi)
        self.extent = max(self.extent, y + 1)
        whole = lo == 0 and hi >= self.columns
        below = y + 1 < self.rows
        if family is TerminalFamily.VTE and mode != 1:
            self.used[y] = min(self.used[y], lo)
            if below:
                self.wrapped[y + 1] = False
        elif family is TerminalFamily.TMUX and whole:
            # tmux empties the line: it no longer wraps into the next, nor continues the one above.
            self.used[y] = 0
            self.wrapped[y] = False
            if below:
                self.wrapped[y + 1] = False
        elif family is TerminalFamily.XTERMJS and whole:
            self.wrapped[y] = False

    # ---------------------------------------------------------------- output
    def _blank(self, row: list[str], lo: int, hi: int) -> None:
        if 0 < lo < self.columns and row[lo] == "\0":
            row[lo - 1] = ""  # erasing the right half of a wide character erases all of it
        for c in range(max(0, lo), min(hi, self.columns)):
            row[c] = ""
        if hi < self.columns and row[hi] == "\0":
            row[hi] = ""

    def _line_feed(self, hard: bool = False) -> None:
        self.pending_wrap = False
        if self.y == self.bottom:
            line = self.grid.pop(self.top)
            wrapped, used = self.wrapped.pop(self.top), self.used.pop(self.top)
            if self.top == 0:
                self.scrollback.append(self._text(line))
                self.scrolled += 1
                if self.family is not TerminalFamily.SIMPLE:
                    self.history.append(Line(line, wrapped, used))
                if self.bottom == self.rows - 1:
                    self.extent = self.rows
            self.grid.insert(self.bottom, [""] * self.columns)
            self.wrapped.insert(self.bottom, False)
            self.used.insert(self.bottom, 0)
        elif self.y < self.rows - 1:
            self.y += 1
            self.extent = max(self.extent, self.y + 1)  # VTE's ring gets the row a line feed moves to
            if hard and self.family is TerminalFamily.XTERMJS:
                self.wrapped[self.y] = False  # xterm.js: an explicit line feed clears the wrap of the new row

    def _print_run(self, text: str, i: int) -> int:
        """Print the printable run starting at ``i`` cluster by cluster; return where it ends."""
        j = i
        while j < len(text) and not (ord(text[j]) < 0x20 or 0x7F <= ord(text[j]) < 0xA0):
            j += 1
        for cluster in wcwidth.iter_graphemes(text[i:j]):
            self._print_cluster(cluster)
        return j

    def _print_cluster(self, cluster: str) -> None:
        width = grapheme_width(cluster, self.policy)
        if width == 0:
            self._attach(cluster)
            return
        if self.pending_wrap and (self.autowrap or self.family is TerminalFamily.SCREEN):
            self._soft_wrap()  # GNU screen wraps a pending wrap set with autowrap on even after ``ESC[?7l`` (measured)
        if self.x + width > self.columns:
            if not self.autowrap and width > 1 and self.family is TerminalFamily.XTERMJS:
                return  # xterm.js drops a wide character that cannot fit without autowrap
            if not self.autowrap:
                self.x = max(0, self.columns - width)
            else:
                self._soft_wrap()
        row = self.grid[self.y]
        self.used[self.y] = max(self.used[self.y], min(self.columns, self.x + width))
        self.extent = max(self.extent, self.y + 1)
        self._blank(row, self.x, self.x + width)
        row[self.x] = cluster
        for k in range(1, min(width, self.columns - self.x)):
            row[self.x + k] = "\0"  # the right half of a wide character
        self.x += width
        if self.x >= self.columns:
            # xterm, tmux and screen have no pending wrap without autowrap: the next character overwrites the
            # last cell.
            nowrap = not self.autowrap and self.family in _NO_PENDING_WRAP
            self.x, self.pending_wrap = self.columns - 1, not nowrap
            # tmux and GNU screen take a cluster code point by code point, and the cursor stays on the last cell: the
            # zero-width ones after the first go on the cell before it (measured; xterm keeps them on it).
            if (
                nowrap
                and width == 1
                and len(cluster) > 1
                and self.family is not TerminalFamily.XTERM
                and all(wcwidth.wcwidth(char) == 0 for char in cluster[1:])
            ):
                row[self.x] = cluster[0]
                self._attach(cluster[1:])

    def _soft_wrap(self) -> None:
        """Autowrap to the next row.  GNU screen marks the row it leaves (it continues into the next, wherever
        the next row goes later); the others mark the row they reach (it continues the one above)."""
        self.x = 0
        if self.family is TerminalFamily.SCREEN:
            self.wrapped[self.y] = True
            self._line_feed()
        else:
            self._line_feed()
            self.wrapped[self.y] = True

    def _attach(self, cluster: str) -> None:
        row = self.grid[self.y]
        col = self.x - 1 if not self.pending_wrap else self.x
        while col > 0 and row[col] == "\0":
            col -= 1
        if col >= 0 and row[col]:
            row[col] += cluster

    # ------------------------------------------------------------ inspection
    @property
    def cursor(self) -> Cursor:
        """Where the cursor is and whether it shows."""
        return Cursor(self.x, self.y, self.visible)

    def _text(self, line: list[str]) -> str:
        return "".join(" " if c == "" else ("" if c == "\0" else c) for c in line[: self.columns]).rstrip(" ")

    def screen_lines(self) -> list[str]:
        """The screen's rows, right-trimmed."""
        return [self._text(line) for line in self.grid]

    def all_lines(self) -> list[str]:
        """Scrollback then screen, with the screen's trailing empty rows dropped."""
        lines = self.scrollback + self.screen_lines()
        while lines and lines[-1] == "":
            lines.pop()
        return lines

    def resize(self, columns: int, rows: int) -> None:
        """Change the size as this terminal's family does (``SIMPLE``: rows cut at the top go to scrollback)."""
        if self.family is not TerminalFamily.SIMPLE:
            self._resize_family(columns, rows)
            return
        cut = max(0, self.y - (rows - 1))
        pushed = [self._text(line) for line in self.grid[:cut]]
        self.scrollback.extend(pushed)
        self.resize_pushes.append(pushed)
        self.grid = self.grid[cut:]
        self.y -= cut
        self.grid = [(line + [""] * columns)[:columns] for line in self.grid[:rows]]
        self.grid += [[""] * columns for _ in range(rows - len(self.grid))]
        for line in self.grid:
            for x, cell in enumerate(line):
                if cell and cell != "\0" and x + grapheme_width(cell, self.policy) > columns:
                    line[x] = ""  # a cluster cut by the new right edge disappears whole
            if line and line[0] == "\0":
                line[0] = ""
        self.wrapped = (self.wrapped[cut:] + [False] * rows)[:rows]
        self.used = [min(u, columns) for u in (self.used[cut:] + [0] * rows)[:rows]]
        self.columns, self.rows = columns, rows
        self.top, self.bottom = 0, rows - 1
        self.x, self.y = min(self.x, columns - 1), min(self.y, rows - 1)
        self.pending_wrap = False

    def _resize_family(self, columns: int, rows: int) -> None:
        if self.family is TerminalFamily.XTERMJS:
            columns = max(2, columns)  # xterm.js has at least 2 columns
        screen = [Line(c, w, u) for c, w, u in zip(self.grid, self.wrapped, self.used, strict=True)]
        # VTE, xterm.js and screen keep a cursor in the pending-wrap state one past the last column: a widening
        # leaves it there.
        past = self.pending_wrap and self.family in (TerminalFamily.VTE, TerminalFamily.XTERMJS, TerminalFamily.SCREEN)
        x = self.x + 1 if past else self.x
        buf = Buffer(self.history + screen, len(self.history), x, self.y, self.columns, self.rows, self.extent)
        before = list(self.scrollback)
        buf = resize_buffer(self.family, buf, columns, rows)
        self.columns, self.rows = columns, rows
        self.history = buf.lines[: buf.top]
        screen = buf.lines[buf.top : buf.top + rows]
        self.grid = [line.cells for line in screen]
        self.wrapped = [line.wrapped for line in screen]
        self.used = [line.used for line in screen]
        self.scrollback = [self._text(line.cells) for line in self.history]
        if self.family is TerminalFamily.SCREEN:
            shown = self.scrollback[max(0, len(self.scrollback) - self.scrolled) :] if self.scrolled else []
            self.scrollback = [""] * (self.scrolled - len(shown)) + shown  # blank rows of screen's ring above
        kept = 0
        while kept < min(len(before), len(self.scrollback)) and before[kept] == self.scrollback[kept]:
            kept += 1
        self.resize_pushes.append(self.scrollback[kept:] if kept == len(before) else [])
        self.extent = min(buf.extent, rows)
        self.top, self.bottom = 0, rows - 1
        if self.family is TerminalFamily.SCREEN:
            # screen moves the saved cursor's row as far as the cursor moved, its column only clamped (resize.c).
            saved_x, saved_y = self.saved
            self.saved = (min(saved_x, columns), max(0, min(saved_y + min(buf.y, rows - 1) - self.y, rows - 1)))
        self.x, self.y = min(buf.x, columns - 1), min(buf.y, rows - 1)
        # VTE and screen keep a cursor that a reflow put past the last cell there (the next character wraps).
        self.pending_wrap = buf.x >= columns and self.family in (TerminalFamily.VTE, TerminalFamily.SCREEN)

    def dump(self) -> str:
        """The whole terminal as text, for assertion messages."""
        out = [f"--- scrollback ({len(self.scrollback)} lines)"]
        out += [f"{line}" for line in self.scrollback[-50:]]
        shown = "visible" if self.visible else "hidden"
        out.append(f"--- screen {self.columns}x{self.rows}, cursor ({self.x},{self.y}) {shown}")
        out += [f"{i:3}|{line}" for i, line in enumerate(self.screen_lines())]
        return "\n".join(out)
