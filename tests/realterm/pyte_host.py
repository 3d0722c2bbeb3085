"""pyte, through the library's own ``PyteTerminal``, as a live terminal host for the rig.

Speaks the frame protocol of ``node/xtermjs_host.mjs`` on stdin/stdout (D: pty output to parse,
R: resize, answered by A; T: dump, answered by T + JSON), so ``PtyHostTerminal`` drives it like
xterm.js.  Cursor position reports are answered by pyte (``report_device_status``) onto the pty.
It imports ``inline_render.testing.pyte_terminal`` from the checkout on PYTHONPATH: the
library's in-process test model judged against the same storms as the real terminals.
"""

from __future__ import annotations

import json
import struct
import sys
from typing import BinaryIO

from inline_render.testing.pyte_terminal import PyteTerminal

__all__ = ["main"]


def _read_exact(stream: BinaryIO, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main() -> int:
    """Serve frames until stdin closes."""
    terminal = PyteTerminal(int(sys.argv[1]), int(sys.argv[2]))
    out, source = sys.stdout.buffer, sys.stdin.buffer

    def send(kind: str, payload: bytes) -> None:
        out.write(kind.encode("latin1") + struct.pack(">I", len(payload)) + payload)
        out.flush()

    def answer_reports() -> None:  # a resize makes a new pyte screen: hook each one
        # pyte answers DSR 6 through this hook, a no-op by default.
        setattr(terminal.screen, "write_process_input", lambda data: send("D", data.encode("utf-8")))  # noqa: B010

    answer_reports()
    while (head := _read_exact(source, 5)) is not None:
        kind, length = head[:1].decode("latin1"), struct.unpack(">I", head[1:])[0]
        payload = _read_exact(source, length) if length else b""
        if payload is None:
            break
        if kind == "D":
            terminal.stream.feed(payload)  # as the pty delivers it: its line discipline already made CR LF
        elif kind == "R":
            columns, rows = (int(part) for part in payload.decode("latin1").split())
            terminal.resize(columns, rows)
            answer_reports()
            send("A", b"")
        elif kind == "T":
            x, y, _ = terminal.cursor_position
            rows_text = [*terminal.scrollback, *terminal.screen_lines()]
            dump = {"rows": rows_text, "wrapped": None, "cursor": [x, len(terminal.scrollback) + y]}
            send("T", json.dumps(dump).encode("utf-8"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
