"""xterm.js (``@xterm/headless``) as a live terminal, driven through a real pty.

The app runs on the slave side of a pty this process owns; a node host (``node/xtermjs_host.mjs``)
holds the xterm.js terminal.  Two pump threads carry the app's output to node and xterm.js's
replies (cursor position reports) back to the pty, so the app talks to xterm.js as it would in
VS Code.  A resize first resizes xterm.js (after it parsed everything sent before) and only then
sets the pty's size (which sends SIGWINCH): bytes the app wrote before the signal but that we had
not read yet are parsed after the resize, as in a real terminal.  Wrapped rows are marked by
xterm.js (``isWrapped``), so the checker joins them.  ``PtyHostTerminal`` takes any host that
speaks the same frames (``pyte_term`` uses it with pyte).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import queue
import shutil
import signal
import struct
import subprocess
import termios
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from .checker import TerminalText
from .terminals import Terminal

__all__ = ["NODE_DIR", "PtyHostTerminal", "XtermJsAdapter", "set_size"]

NODE_DIR = Path(__file__).resolve().parent / "node"
HOST = NODE_DIR / "xtermjs_host.mjs"
REPLY_TIMEOUT = 10.0


def _frame(kind: str, payload: bytes) -> bytes:
    return kind.encode("latin1") + struct.pack(">I", len(payload)) + payload


def _read_exact(stream: IO[bytes], size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def set_size(fd: int, columns: int, rows: int) -> None:
    """TIOCSWINSZ on a pty: the kernel sends SIGWINCH to the pty's foreground process group."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class PtyHostTerminal:
    """The app on a pty, its output parsed by a host process (xterm.js in node, or pyte) over frames."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        columns: int,
        rows: int,
        host: Sequence[str],
        *,
        host_env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._replies: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._eof = threading.Event()
        self._status: int | None = None
        self.node = subprocess.Popen(
            [*host, str(columns), str(rows)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=cwd, env=host_env
        )
        full_env = {**os.environ, "TERM": "xterm-256color", **env}
        full_env.pop("TMUX", None)
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty's size before the app asks for it, then the app
            try:
                set_size(0, columns, rows)
                os.execvpe(argv[0], list(argv), full_env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self._threads = [
            threading.Thread(target=self._pump_output, daemon=True),
            threading.Thread(target=self._pump_replies, daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _send(self, kind: str, payload: bytes) -> None:
        assert self.node.stdin is not None
        with self._lock:
            self.node.stdin.write(_frame(kind, payload))
            self.node.stdin.flush()

    def _pump_output(self) -> None:
        """App output -> xterm.js, until the pty reports EOF (the app and its children are gone)."""
        try:
            while True:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                self._send("D", data)
        except (BrokenPipeError, ValueError):
            pass
        finally:
            self._eof.set()

    def _pump_replies(self) -> None:
        """xterm.js -> the pty (its answers), and acknowledgements and dumps -> the waiting caller."""
        assert self.node.stdout is not None
        while True:
            head = _read_exact(self.node.stdout, 5)
            if head is None:
                return
            kind, length = head[:1].decode("latin1"), struct.unpack(">I", head[1:])[0]
            payload = _read_exact(self.node.stdout, length) if length else b""
            if payload is None:
                return
            if kind == "D":
                with contextlib.suppress(OSError):
                    os.write(self.fd, payload)
            else:
                self._replies.put((kind, payload))

    def _await(self, kind: str) -> bytes:
        try:
            got, payload = self._replies.get(timeout=REPLY_TIMEOUT)
        except queue.Empty:
            raise RuntimeError(f"the terminal host did not answer {kind!r} within {REPLY_TIMEOUT:.0f} s") from None
        if got != kind:
            raise RuntimeError(f"the terminal host answered {got!r}, expected {kind!r}")
        return payload

    def resize(self, columns: int, rows: int) -> None:
        """xterm.js first (in order with the bytes already read), then the pty (SIGWINCH)."""
        self._send("R", f"{columns} {rows}".encode())
        self._await("A")
        set_size(self.fd, columns, rows)

    def exited(self) -> bool:
        """The app exited and the pty has no more output for xterm.js."""
        if self._status is None:
            done, status = os.waitpid(self.pid, os.WNOHANG)
            if done:
                self._status = status
        return self._status is not None and self._eof.is_set()

    def text(self) -> TerminalText:
        """Every line the host holds (scrollback + screen), its wrap marks (if it has them) and cursor."""
        self._send("T", b"")
        dump = json.loads(self._await("T").decode("utf-8"))
        column, row = dump["cursor"]
        wrapped = dump.get("wrapped")
        return TerminalText(tuple(dump["rows"]), tuple(wrapped) if wrapped is not None else None, (column, row))

    def close(self) -> None:
        """Kill the app if still running, stop node, then close the pty (the pumps have ended)."""
        if self._status is None:
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(self.pid, 0)
            self._status = -1
        self._eof.wait(timeout=5)
        with contextlib.suppress(OSError, ValueError):
            assert self.node.stdin is not None
            self.node.stdin.close()
        try:
            self.node.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.node.kill()
            self.node.wait()
        for thread in self._threads:
            thread.join(timeout=5)
        with contextlib.suppress(OSError):
            os.close(self.fd)


class XtermJsAdapter:
    """Starts ``XtermJsTerminal``s."""

    name = "xtermjs"
    truncates = False
    stale_cells = False
    ascii_only = False

    def missing(self) -> str | None:
        """node and the installed npm packages, or why not."""
        if shutil.which("node") is None:
            return "node not installed (apt-get install nodejs npm)"
        if not (NODE_DIR / "node_modules" / "@xterm" / "headless").is_dir():
            return f"@xterm/headless not installed (cd {NODE_DIR} && npm ci)"
        return None

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app on a new pty read by a new xterm.js."""
        node = shutil.which("node") or "node"
        return PtyHostTerminal(argv, env, columns, rows, [node, str(HOST)], cwd=NODE_DIR)
