"""GNU screen as the terminal, displayed in a tmux pane that is resized.

The app runs in a screen window (under ``sh``, which marks the exit); screen itself runs in a tmux
pane, so ``resize-window`` on tmux resizes screen's display and screen resizes (and re-wraps) its
window, then the app gets SIGWINCH.  The text is screen's own: ``hardcopy -h`` (scrollback +
window), written while the dead window is kept (``zombie``); screen's closing message is dropped.
screen 4.09 writes only the low byte of a non-ASCII character into a hardcopy, so the app streams
ASCII lines here (``ascii_only``).
A private ``SCREENDIR`` and screenrc keep the user's sessions and settings out.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from .checker import TerminalText
from .terminals import Terminal, missing_binaries
from .tmux_term import TmuxTerminal
from .xvfb import marked

__all__ = ["ScreenAdapter", "ScreenTerminal"]

SCREENRC = "defutf8 on\ndefencoding utf8\nzombie kr\ndefscrollback 100000\nstartup_message off\nvbell off\n"
DUMP_TIMEOUT = 10.0


class ScreenTerminal:
    """The app in a GNU screen window, screen in a tmux pane."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="realterm-screen-")
        folder = Path(self._folder.name)
        os.chmod(folder, 0o700)  # screen refuses a socket directory others can read
        (folder / "screenrc").write_text(SCREENRC, encoding="utf-8")
        self._marker = folder / "exit"
        self.session = f"realterm-{uuid.uuid4().hex[:10]}"
        self._env = {**os.environ, "SCREENDIR": str(folder)}
        command = ["screen", "-U", "-c", str(folder / "screenrc"), "-S", self.session, *marked(argv, self._marker)]
        self.tmux = TmuxTerminal(command, {**env, "SCREENDIR": str(folder)}, columns, rows)

    def _screen(self, *args: str) -> None:
        subprocess.run(["screen", "-S", self.session, "-X", *args], env=self._env, capture_output=True, timeout=10)

    def resize(self, columns: int, rows: int) -> None:
        """Resize the tmux window that displays screen (screen follows its display)."""
        self.tmux.resize(columns, rows)

    def exited(self) -> bool:
        """The app has returned (``sh`` wrote its exit code)."""
        return self._marker.exists()

    def text(self) -> TerminalText:
        """Screen's scrollback + window from ``hardcopy -h``, without its closing message."""
        dump = Path(self._folder.name) / "hardcopy"
        self._screen("hardcopy", "-h", str(dump))
        deadline = time.monotonic() + DUMP_TIMEOUT
        while not dump.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        rows = [row.rstrip() for row in dump.read_text(encoding="utf-8", errors="replace").split("\n")]
        ends = [index for index, row in enumerate(rows) if row.startswith("=== Command")]
        if ends:
            rows = rows[: ends[-1]]
        return TerminalText(tuple(rows), None, None)

    def close(self) -> None:
        """Quit screen, stop tmux, remove the socket directory."""
        self._screen("quit")
        self.tmux.close()
        with contextlib.suppress(OSError):
            self._folder.cleanup()


class ScreenAdapter:
    """Starts ``ScreenTerminal``s."""

    name = "screen"
    truncates = False
    stale_cells = False
    ascii_only = True

    def missing(self) -> str | None:
        """screen and tmux on PATH, or why not."""
        return missing_binaries("screen", "tmux", hint="apt-get install screen tmux")

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app in a new screen session."""
        return ScreenTerminal(argv, env, columns, rows)
