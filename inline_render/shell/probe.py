"""What terminal is this? One round of queries at startup, answered before the first frame (pure parsing).

Terminals answer queries in the order they were sent, and every terminal answers a
cursor-position request, so the probe sends its questions with ``ESC[6n`` last and
reads until that reply (or a timeout): whatever a terminal did not answer by then,
it will never answer.  The questions:

* DA2 (``ESC[>c``) and XTVERSION (``ESC[>0q``): the terminal family, which decides
  the resize model (does it re-wrap rows when the width changes).
* DECRQM for mode 2026 (synchronized output): only a terminal that says it knows the
  mode gets frames inside ``ESC[?2026h``/``l`` without the cursor hidden; the others
  see the cursor hidden while a frame moves it.
* DECRQM for mode 2027 (grapheme clustering): widths per grapheme cluster where the
  terminal clusters graphemes.

Replies are cut out of the bytes read; anything else (keys typed during startup) is
handed back to the key parser.  Environment variables are a fallback only: they are
inherited by programs started from another terminal (``TMUX`` in an xterm started
from a tmux shell), a reply comes from the terminal itself.
"""

from __future__ import annotations

import os
import re
import select
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..terminals.resize import TerminalFamily
from .keys import CursorReport

__all__ = [
    "QUERIES",
    "TerminalFamily",
    "TerminalInfo",
    "cooked_keys",
    "parse_replies",
    "probe_terminal",
    "read_pending",
    "read_reports",
]

# XTVERSION, DA2, DECRQM 2026 and 2027, then the cursor report that closes the round.
QUERIES = b"\x1b[>0q\x1b[>c\x1b[?2026$p\x1b[?2027$p\x1b[6n"

_DA2 = re.compile(rb"\x1b\[>(\d+)(?:;(\d+))?(?:;(\d+))?c")
_DECRPM = re.compile(rb"\x1b\[\?(\d+);(\d)\$y")
_XTVERSION = re.compile(rb"\x1bP>\|([^\x1b\x07]{0,200})(?:\x1b\\|\x07)")
_CPR = re.compile(rb"\x1b\[(\d+);(\d+)R")
_REPLY = re.compile(b"|".join(p.pattern for p in (_DA2, _DECRPM, _XTVERSION, _CPR)))


@dataclass(frozen=True, slots=True)
class TerminalInfo:
    """What the terminal said about itself (None: it did not say)."""

    family: TerminalFamily = TerminalFamily.SIMPLE
    version: str = ""
    synchronized_output: bool | None = None
    grapheme_clustering: bool | None = None
    cursor: CursorReport | None = None


def _family(da2: tuple[int, int] | None, version: str, env: Mapping[str, str]) -> TerminalFamily:
    name = version.lower()
    if name.startswith("tmux") or (da2 is not None and da2[0] == 84):
        return TerminalFamily.TMUX
    if name.startswith("xterm.js") or da2 == (0, 276):
        return TerminalFamily.XTERMJS
    if name.startswith("xterm") or (da2 is not None and da2[0] == 41):
        return TerminalFamily.XTERM
    if name.startswith("vte") or (da2 is not None and da2[0] == 65 and da2[1] >= 5000):
        return TerminalFamily.VTE
    if da2 is not None and da2[0] == 83:
        return TerminalFamily.SCREEN  # GNU screen: DA2 83 (4.09 answers no XTVERSION)
    if da2 is not None or version:
        return TerminalFamily.SIMPLE  # it answered, as something else
    # No answer at all: the environment is all there is.
    if env.get("TMUX"):
        return TerminalFamily.TMUX
    if env.get("TERM_PROGRAM") == "vscode":
        return TerminalFamily.XTERMJS
    if env.get("VTE_VERSION"):
        return TerminalFamily.VTE
    return TerminalFamily.SIMPLE


def parse_replies(data: bytes, env: Mapping[str, str] | None = None) -> tuple[TerminalInfo, bytes, bool]:
    """The terminal's answers in ``data``, the bytes that were no answer, and whether the round closed."""
    da2: tuple[int, int] | None = None
    version = ""
    modes: dict[int, int] = {}
    cursor: CursorReport | None = None
    closed = False
    rest = bytearray()
    position = 0
    for match in _REPLY.finditer(data):
        rest += data[position : match.start()]
        position = match.end()
        text = match.group(0)
        if (m := _DA2.fullmatch(text)) is not None:
            da2 = (int(m.group(1)), int(m.group(2) or 0))
        elif (m := _DECRPM.fullmatch(text)) is not None:
            modes[int(m.group(1))] = int(m.group(2))
        elif (m := _XTVERSION.fullmatch(text)) is not None:
            version = m.group(1).decode("utf-8", "replace")
        elif (m := _CPR.fullmatch(text)) is not None:
            row, col = int(m.group(1)), int(m.group(2))
            cursor = CursorReport(max(0, row - 1), max(0, col - 1))
            closed = True
    rest += data[position:]
    # DECRPM: 1 set, 2 reset (both: the terminal knows the mode), 3 permanently set; 0 unknown, 4 permanently reset.
    sync = modes.get(2026)
    graphemes = modes.get(2027)
    info = TerminalInfo(
        family=_family(da2, version, os.environ if env is None else env),
        version=version,
        synchronized_output=None if sync is None else sync in (1, 2, 3),
        grapheme_clustering=None if graphemes is None else graphemes in (1, 2, 3),
        cursor=cursor,
    )
    return info, bytes(rest), closed


def read_reports(fd: int, count: int, timeout: float) -> bytes:
    """Read ``fd`` (raw mode) until ``count`` cursor reports arrived or ``timeout`` seconds passed: all bytes read."""
    data = bytearray()
    deadline = time.monotonic() + timeout
    while len(_CPR.findall(data)) < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            ready, _, _ = select.select([fd], [], [], remaining)
            chunk = os.read(fd, 4096) if ready else b""
        except (OSError, ValueError):
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


def read_pending(fd: int) -> bytes:
    """Whatever ``fd`` holds already (never waits): read just after raw mode began, the keys typed before it."""
    data = bytearray()
    while True:
        try:
            ready, _, _ = select.select([fd], [], [], 0)
            chunk = os.read(fd, 4096) if ready else b""
        except (OSError, ValueError):
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


def cooked_keys(data: bytes) -> bytes:
    """Keys typed before raw mode, as raw mode would have read them: the terminal's line discipline (ICRNL)
    turned each Enter into a line feed, which raw mode reads as Ctrl-J (a newline in the composer).

    prompt_toolkit takes a line feed for Enter always; here Ctrl-J keeps its meaning once the app runs, and
    only the keys typed ahead (where an Enter cannot be told from a Ctrl-J, and Enter is what people type)
    become Enter again."""
    return data.replace(b"\n", b"\r")


def probe_terminal(
    fd: int,
    write: Callable[[bytes], None],
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> tuple[TerminalInfo, bytes]:
    """Ask, then read ``fd`` (raw mode) until the closing cursor report or ``timeout``: the answers and the rest."""
    write(QUERIES)
    info, rest, _ = parse_replies(read_reports(fd, 1, timeout), env)
    return info, rest
