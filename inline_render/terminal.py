"""An in-memory terminal: parses the exact bytes a backend writes, keeps screen, scrollback and cursor.

It is the test backend of the library (like ratatui's ``TestBackend``, but fed
real bytes): it implements the VT subset that correct rendering needs, moves
lines that scroll off a region starting at the top row into scrollback (as
xterm, tmux and xterm.js do), and records every sequence that must never be
sent (``ESC[2J``, ``ESC[3J``, ``CSI S/T``, OSC, DCS, ...) in ``violations``.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

import wcwidth

from .text import WidthPolicy, grapheme_width

__all__ = ["Cursor", "TestTerminal"]

_FORBIDDEN_CSI = {"S": "CSI S (scroll up)", "T": "CSI T (scroll down)"}
_STRING_STARTS = {"]": "OSC", "P": "DCS", "_": "APC", "^": "PM", "X": "SOS"}


@dataclass(frozen=True, slots=True)
class Cursor:
    """Cursor position (0-based column ``x``, row ``y``) and visibility."""

    x: int
    y: int
    visible: bool


class TestTerminal:
    """A small VT terminal with scrollback, fed bytes with ``feed``."""

    __test__ = False  # not a pytest test class despite the name

    def __init__(self, columns: int, rows: int, policy: WidthPolicy = WidthPolicy.CODEPOINT) -> None:
        self.columns, self.rows, self.policy = columns, rows, policy
        self.grid: list[list[str]] = [[""] * columns for _ in range(rows)]
        self.scrollback: list[str] = []
        self.x = self.y = 0
        self.visible = True
        self.pending_wrap = False
        self.autowrap = True
        self.top, self.bottom = 0, rows - 1
        self.saved = (0, 0)
        self.violations: list[str] = []
        self.resize_pushes: list[list[str]] = []  # lines each resize moved into scrollback
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
            self._line_feed()
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
        elif kind == "8":
            self.x, self.y = self.saved
            self.pending_wrap = False
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
            self.pending_wrap = False
        elif final == "K":
            lo, hi = {0: (self.x, self.columns), 1: (0, self.x + 1), 2: (0, self.columns)}.get(first, (0, 0))
            self._blank(self.grid[self.y], lo, hi)
        elif final == "J":
            if first in (2, 3):
                self.violations.append(f"CSI {first}J")
            if first == 0:
                self._blank(self.grid[self.y], self.x, self.columns)
                for r in range(self.y + 1, self.rows):
                    self.grid[r] = [""] * self.columns
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

    # ---------------------------------------------------------------- output
    def _blank(self, row: list[str], lo: int, hi: int) -> None:
        if 0 < lo < self.columns and row[lo] == "\0":
            row[lo - 1] = ""  # erasing the right half of a wide character erases all of it
        for c in range(max(0, lo), min(hi, self.columns)):
            row[c] = ""
        if hi < self.columns and row[hi] == "\0":
            row[hi] = ""

    def _line_feed(self) -> None:
        self.pending_wrap = False
        if self.y == self.bottom:
            line = self.grid.pop(self.top)
            if self.top == 0:
                self.scrollback.append(self._text(line))
            self.grid.insert(self.bottom, [""] * self.columns)
        elif self.y < self.rows - 1:
            self.y += 1

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
        if self.pending_wrap and self.autowrap:
            self.x = 0
            self._line_feed()
        if self.x + width > self.columns:
            if not self.autowrap:
                self.x = max(0, self.columns - width)
            else:
                self.x = 0
                self._line_feed()
        row = self.grid[self.y]
        self._blank(row, self.x, self.x + width)
        row[self.x] = cluster
        for k in range(1, min(width, self.columns - self.x)):
            row[self.x + k] = "\0"  # the right half of a wide character
        self.x += width
        if self.x >= self.columns:
            self.x, self.pending_wrap = self.columns - 1, True

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

    @staticmethod
    def _text(line: list[str]) -> str:
        return "".join(" " if c == "" else ("" if c == "\0" else c) for c in line).rstrip(" ")

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
        """Change the size like a terminal that does not reflow: rows cut at the top go to scrollback."""
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
        self.columns, self.rows = columns, rows
        self.top, self.bottom = 0, rows - 1
        self.x, self.y = min(self.x, columns - 1), min(self.y, rows - 1)
        self.pending_wrap = False

    def dump(self) -> str:
        """The whole terminal as text, for assertion messages."""
        out = [f"--- scrollback ({len(self.scrollback)} lines)"]
        out += [f"{line}" for line in self.scrollback[-50:]]
        shown = "visible" if self.visible else "hidden"
        out.append(f"--- screen {self.columns}x{self.rows}, cursor ({self.x},{self.y}) {shown}")
        out += [f"{i:3}|{line}" for i, line in enumerate(self.screen_lines())]
        return "\n".join(out)
