"""kitty (Debian's 0.26.5) under its own Xvfb: resized as a window, read through its remote control.

kitty renders with OpenGL: under Xvfb, Mesa's llvmpipe (``LIBGL_ALWAYS_SOFTWARE=1``) gives it
OpenGL 3.3.  Its Xvfb runs with ``-noreset`` (``Xvfb(reset=False)``): without it about one start in
ten failed to connect.  No config file is read (``--config NONE``) and the options the rig needs
are set one by one (``OPTIONS``): remote control on a private unix socket, no padding, a long
scrollback, no bell, no blinking, no close confirmation, the first window sized in cells.

The app runs under ``sh`` (which marks the exit), then ``sleep`` keeps the window open: kitty's
``--hold`` would write "Press Enter or Esc to exit" into the terminal.  A resize is ``xdotool
windowsize`` in pixels: the cell size and the window's extra pixels are measured once from the
first window's geometry and size in cells (checked by ``tests/test_realterm_kitty.py``: every
size a storm asks for comes out exact).  kitty waits ``resize_debounce_time`` (0.1 s, its default,
kept) after the last resize event before it resizes its screen and the pty.

The text is ``kitty @ get-text --extent all --add-wrap-markers --add-cursor``: history + screen,
every row ending in ``\\r`` and a logical line's last row in ``\\r\\n`` (so soft-wrapped rows are
told apart: ``TerminalText.wrapped``), then the cursor as ``CSI ? 25 h/l``, ``CSI row ; col H``
relative to the screen, whose height ``kitty @ ls`` tells.  kitty re-wraps on resize (no row
is cut), and reads wide characters back as themselves (measured: CJK and emoji come back whole).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .checker import TerminalText
from .terminals import Terminal, missing_binaries
from .xvfb import Xvfb, marked

__all__ = ["KittyAdapter", "KittyTerminal", "parse_text"]

START_TIMEOUT = 30.0
REMOTE_TIMEOUT = 20.0
KEEP_OPEN = 86400  # seconds the window stays after the app exited (close() ends it long before)
OPTIONS = (
    "allow_remote_control=yes",
    "window_padding_width=0",
    "window_margin_width=0",
    "single_window_margin_width=-1",
    "scrollback_lines=100000",
    "scrollback_pager_history_size=0",
    "confirm_os_window_close=0",
    "remember_window_size=no",
    "placement_strategy=top-left",
    "hide_window_decorations=yes",
    "font_family=DejaVu Sans Mono",
    "font_size=11",
    "enable_audio_bell=no",
    "visual_bell_duration=0",
    "window_alert_on_bell=no",
    "cursor_blink_interval=0",
    "shell_integration=disabled",
    "update_check_interval=0",
    "term=xterm-kitty",
)
# What --add-cursor appends: visibility, the position (1-based, on the screen), then the shape.
_CURSOR = re.compile(r"\x1b\[\?25[hl]\x1b\[(\d+);(\d+)H(?:\x1b\[\?12[hl]|\x1b\[\d q)\n?\Z")


def parse_text(raw: str, screen_rows: int) -> TerminalText:
    """``get-text --extent all --add-wrap-markers --add-cursor`` as rows, their soft wraps and the cursor."""
    cursor_at: tuple[int, int] | None = None
    match = _CURSOR.search(raw)
    if match is not None:
        cursor_at = (int(match.group(2)) - 1, int(match.group(1)) - 1)
        raw = raw[: match.start()]
    rows: list[str] = []
    wrapped: list[bool] = []
    lines = raw.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        # Every row ends in "\r"; a row that is not followed by "\n" continues on the next row.
        pieces = line.split("\r")
        if len(pieces) > 1 and pieces[-1] == "":
            pieces.pop()
        for index, piece in enumerate(pieces):
            rows.append(piece.rstrip())
            wrapped.append(index > 0)
    cursor = None
    if cursor_at is not None and screen_rows <= len(rows):
        cursor = (cursor_at[0], len(rows) - screen_rows + cursor_at[1])
    return TerminalText(tuple(rows), tuple(wrapped), cursor)


class KittyTerminal:
    """The app in a kitty window on a private Xvfb."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="realterm-kitty-")
        folder = Path(self._folder.name)
        self._marker = folder / "exit"
        self._socket = folder / "kitty.sock"
        self._log = (folder / "kitty.log").open("wb")
        self._xvfb = Xvfb(reset=False)
        self.kitty: subprocess.Popen[bytes] | None = None
        self.child: int | None = None
        try:
            self._env = {**self._xvfb.env(), **env, "LIBGL_ALWAYS_SOFTWARE": "1"}
            for name in ("TMUX", "KITTY_WINDOW_ID", "KITTY_LISTEN_ON", "KITTY_PID", "KITTY_PUBLIC_KEY"):
                self._env.pop(name, None)  # an outer kitty or tmux must not be what the app or `kitty @` talks to
            options = [*OPTIONS, f"initial_window_width={columns}c", f"initial_window_height={rows}c"]
            # Not exec: this sh, whose arguments name the marker, stays the session's leader (close() finds it so).
            held = ["/bin/sh", "-c", f'"$@"; sleep {KEEP_OPEN}', "sh", *marked(argv, self._marker)]
            args = ["kitty", "--config", "NONE", "--listen-on", f"unix:{self._socket}"]
            args += [
                "-T",
                f"realterm-{uuid.uuid4().hex[:10]}",
                *(part for option in options for part in ("-o", option)),
            ]
            self.kitty = subprocess.Popen([*args, *held], env=self._env, stdout=self._log, stderr=self._log)
            window = self._first_window()
            self.window = str(window["platform_window_id"])
            self.child = int(window["pid"])
            self._measure_cells(int(window["columns"]), int(window["lines"]))
            if (int(window["columns"]), int(window["lines"])) != (columns, rows):
                raise RuntimeError(f"kitty started at {window['columns']}x{window['lines']}, not {columns}x{rows}")
        except BaseException:
            self.close()
            raise

    def _remote(self, *args: str) -> str:
        """A remote-control command on this kitty's socket; its output."""
        command = ["kitty", "@", "--to", f"unix:{self._socket}", *args]
        # Bytes, decoded here: text mode's universal newlines would turn the wrap markers ("\r") into "\n".
        result = subprocess.run(command, env=self._env, capture_output=True, timeout=REMOTE_TIMEOUT)
        if result.returncode != 0:
            said = result.stderr.decode("utf-8", "replace").strip()
            raise RuntimeError(f"kitty @ {' '.join(args)} failed: {said}{self._stderr()}")
        return result.stdout.decode("utf-8", "replace")

    def _stderr(self) -> str:
        log = Path(self._folder.name) / "kitty.log"
        with contextlib.suppress(OSError):
            text = log.read_text(encoding="utf-8", errors="replace").strip()
            return f"; kitty said:\n{text[-2000:]}" if text else ""
        return ""

    def window_state(self) -> dict[str, Any]:
        """The one window as ``kitty @ ls`` describes it (columns, lines, pid, ...), with its X window's id."""
        windows = [
            {**window, "platform_window_id": os_window["platform_window_id"]}
            for os_window in json.loads(self._remote("ls"))
            for tab in os_window["tabs"]
            for window in tab["windows"]
        ]
        if len(windows) != 1:
            raise RuntimeError(f"kitty has {len(windows)} windows, not 1")
        return windows[0]

    def _first_window(self) -> dict[str, Any]:
        """Wait until kitty listens on its socket; its window then."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.kitty is not None
            if self.kitty.poll() is not None:
                raise RuntimeError(f"kitty exited at start with {self.kitty.returncode}{self._stderr()}")
            if self._socket.exists():
                with contextlib.suppress(RuntimeError, json.JSONDecodeError):
                    return self.window_state()
            time.sleep(0.1)
        raise RuntimeError(f"kitty did not answer on its socket in {START_TIMEOUT:.0f} s{self._stderr()}")

    def _measure_cells(self, columns: int, rows: int) -> None:
        """The cell size and the extra pixels, from the window's geometry at ``columns`` x ``rows``."""
        found = re.search(r"Geometry: (\d+)x(\d+)", self._xdotool("getwindowgeometry", self.window))
        if found is None:
            raise RuntimeError("xdotool getwindowgeometry told no geometry")
        self.cell_width, self.extra_width = divmod(int(found.group(1)), columns)
        self.cell_height, self.extra_height = divmod(int(found.group(2)), rows)

    def _xdotool(self, *args: str) -> str:
        result = subprocess.run(["xdotool", *args], env=self._env, capture_output=True, text=True, timeout=20)
        if result.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def resize(self, columns: int, rows: int) -> None:
        """Resize the window to ``columns`` x ``rows`` cells (kitty resizes the pty 0.1 s later)."""
        width = columns * self.cell_width + self.extra_width
        height = rows * self.cell_height + self.extra_height
        self._xdotool("windowsize", self.window, str(width), str(height))

    def exited(self) -> bool:
        """The app has returned (``sh`` wrote its exit code)."""
        return self._marker.exists()

    def text(self) -> TerminalText:
        """History + screen with kitty's wrap markers, and the cursor."""
        raw = self._remote("get-text", "--extent", "all", "--add-wrap-markers", "--add-cursor")
        return parse_text(raw, int(self.window_state()["lines"]))

    def _still_ours(self, pid: int) -> bool:
        """``pid`` is still the sh this terminal started (its arguments name our marker), not a reused pid."""
        try:
            arguments = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            return False
        return str(self._marker).encode() in arguments

    def close(self) -> None:
        """Stop kitty (which hangs up on the app and ``sleep``), whatever is left of them, then the X server."""
        if self.kitty is not None and self.kitty.poll() is None:
            self.kitty.terminate()
            try:
                self.kitty.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.kitty.kill()
                self.kitty.wait()
        if self.child is not None and self._still_ours(self.child):
            # kitty started the child in a session of its own; a killed kitty may leave it (and sleep) running.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.child, signal.SIGKILL)
        self.child = None
        self._xvfb.stop()
        self._log.close()
        with contextlib.suppress(OSError):
            self._folder.cleanup()


class KittyAdapter:
    """Starts ``KittyTerminal``s."""

    name = "kitty"
    truncates = False
    stale_cells = False
    ascii_only = False

    def missing(self) -> str | None:
        """kitty, Xvfb and xdotool on PATH, or why not."""
        return missing_binaries("kitty", "Xvfb", "xdotool", hint="apt-get install kitty xvfb xdotool libgl1-mesa-dri")

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app in a new kitty."""
        return KittyTerminal(argv, env, columns, rows)
