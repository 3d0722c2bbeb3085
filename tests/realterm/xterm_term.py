"""xterm under its own Xvfb: resized as a window, read with its ``print-immediate()`` action.

xterm runs the app (under ``sh``, which marks the exit) with ``-hold`` so the window stays after the
app exits. A resize is ``xdotool windowsize --usehints WID cols rows`` (no window manager: the X
server applies it at once and xterm resizes its pty, SIGWINCH). The text is written by
``print-immediate()`` (resources ``printFileImmediate``, ``printOptsImmediate: 0`` = saved lines + screen,
``printModeImmediate: 0`` = no attributes), bound to F12 through ``translations`` and pressed with
``xdotool key --window`` (``allowSendEvents`` lets xterm accept that synthetic key). xterm does not
reflow: narrowing cuts the rows on the screen for good, and rows are printed up to the current width
(what the user sees), so the checker judges xterm with ``truncating=True`` (rows cut short by the
terminal are counted apart, not missing), and with its stale cells: xterm keeps a row's cells up to
the next multiple of 4 of a narrower width where no erase reaches them, and prints cells past a
saved line's storage that it does not show (``checker.StaleCells``). Widening the window to read
more was tried and dropped: it shows cells a narrower frame never erased, and past the widest width
xterm printed uninitialized cells. Each row is printed on its own line (soft wraps are not marked),
the right half of a wide character as U+FFFF, dropped here. xterm does not tell where its cursor is.
"""

from __future__ import annotations

import contextlib
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

from .checker import TerminalText
from .terminals import Terminal, missing_binaries
from .xvfb import Xvfb, marked

__all__ = ["XtermAdapter", "XtermTerminal"]

DUMP_TIMEOUT = 10.0
# xterm's default resources, but for what the rig needs: UTF-8, a long history, a dump key.
RESOURCES = (
    "XTerm*saveLines: 100000",
    "XTerm*printOptsImmediate: 0",
    "XTerm*printModeImmediate: 0",
    "XTerm*allowSendEvents: true",
    "XTerm*VT100.translations: #override <Key>F12: print-immediate()",
    "XTerm*termName: xterm-256color",
)


class XtermTerminal:
    """The app in an xterm window on a private Xvfb."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="realterm-xterm-")
        folder = Path(self._folder.name)
        self._marker = folder / "exit"

        self._xvfb = Xvfb()
        self.xterm: subprocess.Popen[bytes] | None = None
        try:
            title = f"realterm-{uuid.uuid4().hex[:10]}"
            args = ["xterm", "-T", title, "-geometry", f"{columns}x{rows}", "-u8", "-hold"]
            for resource in (*RESOURCES, f"XTerm*printFileImmediate: {folder / 'dump'}"):
                args += ["-xrm", resource]
            self._env = {**self._xvfb.env(), **env}
            self._env.pop("TMUX", None)
            self.xterm = subprocess.Popen(
                [*args, "-e", *marked(argv, self._marker)],
                env=self._env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            found = self._xdotool("search", "--sync", "--name", title).split()
            if not found:
                raise RuntimeError("xterm's window did not appear")
            self.window = found[0]
        except BaseException:
            self.close()
            raise

    def _xdotool(self, *args: str) -> str:
        result = subprocess.run(["xdotool", *args], env=self._env, capture_output=True, text=True, timeout=20)
        if result.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def resize(self, columns: int, rows: int) -> None:
        """Resize the window to ``columns`` x ``rows`` characters."""
        self._xdotool("windowsize", "--usehints", self.window, str(columns), str(rows))

    def exited(self) -> bool:
        """The app has returned (``sh`` wrote its exit code)."""
        return self._marker.exists()

    def text(self) -> TerminalText:
        """Saved lines + screen, from a ``print-immediate()`` file."""
        folder = Path(self._folder.name)
        self._xdotool("key", "--window", self.window, "F12")
        deadline = time.monotonic() + DUMP_TIMEOUT
        size = -1
        while time.monotonic() < deadline:
            dumps = sorted(folder.glob("dump*"))
            if dumps and dumps[-1].stat().st_size == size and size > 0:
                text = dumps[-1].read_text(encoding="utf-8", errors="replace")
                rows = text.replace("\uffff", "").split("\n")
                if rows and rows[-1] == "":
                    rows.pop()
                return TerminalText(tuple(row.rstrip() for row in rows), None, None)
            size = dumps[-1].stat().st_size if dumps else -1
            time.sleep(0.1)
        raise RuntimeError("xterm wrote no print-immediate() file")

    def close(self) -> None:
        """Stop xterm (and the app if it still runs), then the X server."""
        if self.xterm is not None and self.xterm.poll() is None:
            self.xterm.terminate()
            try:
                self.xterm.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.xterm.kill()
                self.xterm.wait()
        self._xvfb.stop()
        with contextlib.suppress(OSError):
            self._folder.cleanup()


class XtermAdapter:
    """Starts ``XtermTerminal``s."""

    name = "xterm"
    truncates = True
    stale_cells = True
    ascii_only = False

    def missing(self) -> str | None:
        """xterm, Xvfb and xdotool on PATH, or why not."""
        return missing_binaries("xterm", "Xvfb", "xdotool", hint="apt-get install xterm xvfb xdotool")

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app in a new xterm."""
        return XtermTerminal(argv, env, columns, rows)
