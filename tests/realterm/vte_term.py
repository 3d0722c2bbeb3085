"""VTE (libvte-2.91, as in GNOME Terminal) under its own Xvfb, through ``vte_host.py``.

The host runs with the system python (``/usr/bin/python3``, where python3-gi and the Vte
typelib are installed); the app it spawns runs with the project's python and the PYTHONPATH given.
Commands and answers are JSON lines on the host's stdin/stdout (see ``vte_host``).  VTE joins
soft-wrapped rows in its text, so each line of the dump is a line as VTE holds it.
"""

from __future__ import annotations

import json
import queue
import subprocess
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .checker import TerminalText
from .terminals import Terminal, missing_binaries
from .xvfb import Xvfb

__all__ = ["SYSTEM_PYTHON", "VteAdapter", "VteTerminal"]

SYSTEM_PYTHON = "/usr/bin/python3"
HOST = Path(__file__).resolve().parent / "vte_host.py"
REPLY_TIMEOUT = 15.0
APT_HINT = "apt-get install python3-gi gir1.2-vte-2.91 gir1.2-gtk-3.0"
PROBE = 'import gi; gi.require_version("Gtk", "3.0"); gi.require_version("Vte", "2.91"); from gi.repository import Vte'


class VteTerminal:
    """The app in a VTE widget on a private Xvfb."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> None:
        self._xvfb = Xvfb()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115  # open for the host's life; closed in close()
        self._answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self.status: int | None = None
        spec = {"argv": list(argv), "env": {"TERM": "xterm-256color", **env}, "columns": columns, "rows": rows}
        xenv = self._xvfb.env()
        xenv.pop("TMUX", None)
        try:
            self.host = subprocess.Popen(
                [SYSTEM_PYTHON, str(HOST), json.dumps(spec)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._log,
                env=xenv,
                text=True,
            )
        except BaseException:
            self._xvfb.stop()
            raise
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """The host's lines: events update the state, answers go to whoever waits for them."""
        assert self.host.stdout is not None
        for line in self.host.stdout:
            message = json.loads(line)
            if message.get("event") == "exited":
                self.status = int(message["status"])
            elif "ok" in message:
                self._answers.put(message)
        self._answers.put({"ok": "eof"})

    def _ask(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.host.stdin is not None
        self.host.stdin.write(json.dumps(command) + "\n")
        self.host.stdin.flush()
        try:
            answer = self._answers.get(timeout=REPLY_TIMEOUT)
        except queue.Empty:
            raise RuntimeError(
                f"the VTE host did not answer {command} in {REPLY_TIMEOUT:.0f} s{self._stderr()}"
            ) from None
        if answer["ok"] != command["cmd"]:
            raise RuntimeError(f"the VTE host answered {answer['ok']!r} to {command}{self._stderr()}")
        return answer

    def _stderr(self) -> str:
        self._log.seek(0)
        text = self._log.read().decode("utf-8", "replace").strip()
        return f"; its stderr:\n{text[-2000:]}" if text else ""

    def resize(self, columns: int, rows: int) -> None:
        """``set_size`` (VTE reflows and sets the pty size) and the window to match."""
        answer = self._ask({"cmd": "resize", "columns": columns, "rows": rows})
        if (answer["columns"], answer["rows"]) != (columns, rows):
            raise RuntimeError(f"VTE is {answer['columns']}x{answer['rows']} after a resize to {columns}x{rows}")

    def exited(self) -> bool:
        """VTE reported the app's exit (``child-exited``)."""
        return self.status is not None

    def text(self) -> TerminalText:
        """Scrollback + screen as VTE gives them (soft-wrapped rows already joined)."""
        text = str(self._ask({"cmd": "dump"})["text"])
        rows = text.split("\n")
        if rows and rows[-1] == "":
            rows.pop()
        return TerminalText(tuple(row.rstrip() for row in rows), None, None)

    def close(self) -> None:
        """Quit the host (the app with it), then the X server."""
        if self.host.poll() is None:
            try:
                assert self.host.stdin is not None
                self.host.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.host.stdin.close()
                self.host.wait(timeout=5)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                self.host.kill()
                self.host.wait()
        self._reader.join(timeout=5)
        self._xvfb.stop()
        self._log.close()


class VteAdapter:
    """Starts ``VteTerminal``s."""

    name = "vte"
    truncates = False
    stale_cells = False
    ascii_only = False

    def missing(self) -> str | None:
        """Xvfb, the system python and its gi + Vte 2.91 + Gtk 3, or why not."""
        absent = missing_binaries("Xvfb", hint="apt-get install xvfb")
        if absent:
            return absent
        if not Path(SYSTEM_PYTHON).exists():
            return f"{SYSTEM_PYTHON} not found ({APT_HINT})"
        probe = subprocess.run([SYSTEM_PYTHON, "-c", PROBE], capture_output=True, text=True, timeout=30)
        if probe.returncode != 0:
            return f"python3-gi with Vte 2.91 and Gtk 3 not importable by {SYSTEM_PYTHON} ({APT_HINT})"
        return None

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app in a new VTE widget."""
        return VteTerminal(argv, env, columns, rows)
