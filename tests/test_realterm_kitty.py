"""The kitty adapter of the real-terminal rig (``tests/realterm/kitty_term.py``): what it relies on, measured.

Sizes come out exact (the window is sized in pixels from a cell size measured once), kitty re-wraps a
narrowed line and joins it again when widened (so the checker judges it with ``truncates=False``),
reads CJK and emoji back whole (``ascii_only=False``), tells soft wraps and the cursor, and ``close``
ends every process.  The storms themselves run in ``tests/test_realterm_terminals.py``.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from realterm.checker import TerminalText
from realterm.kitty_term import KittyAdapter, KittyTerminal, parse_text
from wcwidth import wcswidth

TIMEOUT = 10.0
# The pty size the child sees, written on every change (the child outlives the test's resizes).
WATCH = """
import fcntl, struct, sys, termios, time
last = None
with open(sys.argv[1], "a", buffering=1) as out:
    for _ in range(2000):
        rows, columns = struct.unpack("HHHH", fcntl.ioctl(0, termios.TIOCGWINSZ, bytes(8)))[:2]
        if (columns, rows) != last:
            out.write(f"{columns}x{rows}\\n")
            last = (columns, rows)
        time.sleep(0.01)
"""
LONG = ("L0001 " + "漢字 emoji😀 and wörds " * 5).rstrip()  # 120 cells: three rows at 50 columns, one at 140


@pytest.fixture
def kitty() -> KittyAdapter:
    adapter = KittyAdapter()
    reason = adapter.missing()
    if reason:
        pytest.skip(f"kitty: {reason}")
    return adapter


def _ends_with(path: Path, tail: str) -> bool:
    return path.read_text().endswith(tail)


def _until(what: str, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.02)


def _rows(line: str, width: int) -> tuple[str, ...]:
    """``line`` in rows of ``width`` cells, a wide character that does not fit moved to the next row (as kitty does)."""
    rows, row = [], ""
    for character in line:
        if wcswidth(row + character) > width:
            rows.append(row.rstrip())
            row = ""
        row += character
    return (*rows, row.rstrip())


def _text_when(terminal: KittyTerminal, what: str, done: Callable[[TerminalText], bool]) -> TerminalText:
    deadline = time.monotonic() + TIMEOUT
    while not done(text := terminal.text()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}; kitty shows {text.rows}")
        time.sleep(0.05)
    return text


def test_parse_text_tells_soft_wraps_history_and_the_cursor() -> None:
    """get-text's wrap markers: "\\r" ends every row, "\\r\\n" a line; the cursor is placed on the screen's rows."""
    raw = "one\r\nlong \rline\r\n\r\nlast\r\n\r\x1b[?25h\x1b[3;2H\x1b[?12h\n"
    text = parse_text(raw, screen_rows=3)
    assert text.rows == ("one", "long", "line", "", "last", "")
    assert text.wrapped == (False, False, True, False, False, False)
    assert text.cursor == (1, 5)  # row 3 of a 3-row screen is the last of 6 rows


def test_every_size_a_storm_asks_for_comes_out_exact(kitty: KittyAdapter, tmp_path: Path) -> None:
    """Resized in pixels from the measured cell size, kitty and the app's pty are exactly the size asked for."""
    sizes = tmp_path / "sizes"
    terminal = kitty.start([sys.executable, "-c", WATCH, str(sizes)], {}, 80, 24)
    assert isinstance(terminal, KittyTerminal)
    try:
        _until("the first pty size", lambda: sizes.exists() and sizes.read_text() == "80x24\n")
        for columns, rows in ((30, 8), (140, 50), (31, 9), (139, 49), (77, 23), (100, 37)):
            terminal.resize(columns, rows)
            _until(f"the pty at {columns}x{rows}", partial(_ends_with, sizes, f"\n{columns}x{rows}\n"))
            state = terminal.window_state()
            assert (state["columns"], state["lines"]) == (columns, rows)
    finally:
        terminal.close()


def test_kitty_rewraps_a_line_and_reads_wide_characters_back(kitty: KittyAdapter, tmp_path: Path) -> None:
    """A line of CJK, emoji and accents narrowed to 50 columns is re-wrapped into 3 rows (soft wraps marked, no cell
    lost), widened to 140 it is one row again, whole; the cursor moves with the text after it."""
    marker = tmp_path / "go"
    script = f'printf "%s\\nnext" "{LONG}"; while [ ! -e "{marker}" ]; do sleep 0.05; done'
    started = kitty.start(["/bin/sh", "-c", script], {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}, 80, 10)
    assert isinstance(started, KittyTerminal)
    terminal = started
    try:
        first = _text_when(terminal, "the line", lambda text: "next" in text.rows)
        assert first.rows[:3] == (*_rows(LONG, 80), "next")
        assert first.wrapped is not None and first.wrapped[:3] == (False, True, False) and first.cursor == (4, 2)
        terminal.resize(50, 10)
        narrow = _text_when(terminal, "the narrowing", lambda text: text.rows[3:4] == ("next",))
        assert narrow.rows[:4] == (*_rows(LONG, 50), "next")
        assert narrow.wrapped is not None and narrow.wrapped[:4] == (False, True, True, False)
        assert narrow.cursor == (4, 3)
        terminal.resize(140, 10)
        wide = _text_when(terminal, "the widening", lambda text: text.rows[1:2] == ("next",))
        assert wide.rows[0] == LONG and wide.wrapped is not None and wide.wrapped[:2] == (False, False)
        assert wide.cursor == (4, 1)
        marker.touch()
        _until("the exit", terminal.exited)
    finally:
        terminal.close()


def test_close_ends_kitty_the_app_and_the_x_server(kitty: KittyAdapter) -> None:
    """close() while the app still runs: kitty, the app's session and Xvfb are all gone, and a second close is fine."""
    terminal = kitty.start(["/bin/sh", "-c", "sleep 60"], {}, 40, 10)
    assert isinstance(terminal, KittyTerminal)
    child, kitty_process, xvfb = terminal.child, terminal.kitty, terminal._xvfb.process
    assert child is not None and kitty_process is not None
    terminal.close()
    terminal.close()
    assert kitty_process.poll() is not None and xvfb.poll() is not None
    _until("the app's session to end", lambda: not Path(f"/proc/{child}").exists())
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)
