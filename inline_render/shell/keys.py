"""prompt_toolkit key presses to core inputs (pure).

The vt100 parser of prompt_toolkit already splits the byte stream into
``KeyPress`` values: bracketed pastes arrive whole, cursor-position reports
(``ESC[row;colR``) arrive as ``Keys.CPRResponse`` and never as text, and a
lone Esc is held back by the parser until the caller flushes it.  This module
only names them the way the core expects (``Key`` names, ``Paste``) and pulls
the cursor reports out of the stream.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys

from ..inputs import Key, Paste
from ..widgets.composer import normalize_key

__all__ = ["CursorReport", "map_key_presses", "parse_cursor_report"]

_CPR = re.compile(r"\x1b\[(\d+);(\d+)R")

# Keys the core has no use for: mouse and scroll events, prompt_toolkit internals.
_DROPPED = frozenset(
    {Keys.Vt100MouseEvent, Keys.WindowsMouseEvent, Keys.ScrollUp, Keys.ScrollDown, Keys.Ignore, Keys.Any}
)


@dataclass(frozen=True, slots=True)
class CursorReport:
    """A cursor-position report: where the terminal's cursor is (0-based row and column)."""

    row: int
    col: int


def parse_cursor_report(data: str) -> CursorReport | None:
    """The position in a ``ESC[row;colR`` reply (1-based on the wire), or None if malformed."""
    match = _CPR.search(data)
    if match is None:
        return None
    row, col = int(match.group(1)), int(match.group(2))
    if row < 1 or col < 1:
        return None
    return CursorReport(row - 1, col - 1)


def map_key_presses(presses: Iterable[KeyPress]) -> list[Key | Paste | CursorReport]:
    """Core inputs (and cursor reports) for a batch of key presses read together, in order.

    An Esc followed by another key in the same batch is one Alt/Meta chord
    (terminals send ``ESC b`` for Alt-b): it becomes ``m-b``, ``m-enter``...;
    an Esc alone in its batch is the Esc key.
    """
    out: list[Key | Paste | CursorReport] = []
    meta = False
    for press in presses:
        key = press.key
        if key is Keys.CPRResponse:
            report = parse_cursor_report(press.data)
            if report is not None:
                out.append(report)
            continue
        if key is Keys.BracketedPaste:
            if meta:
                out.append(Key("escape"))
                meta = False
            if press.data:
                # Terminals send a pasted line break as CR (tmux's paste-buffer, xterm): it is a newline.
                out.append(Paste(press.data.replace("\r\n", "\n").replace("\r", "\n")))
            continue
        if key in _DROPPED:
            continue
        if key is Keys.SIGINT:
            key = Keys.ControlC
        name = normalize_key(key.value if isinstance(key, Keys) else key)
        if meta:
            meta = False
            if name == "escape":
                out.append(Key("escape"))  # Esc Esc: the first one was a plain Esc
            else:
                out.append(Key(normalize_key(f"m-{name}")))
                continue
        if name == "escape":
            meta = True
            continue
        out.append(Key(name))
    if meta:
        out.append(Key("escape"))
    return out
