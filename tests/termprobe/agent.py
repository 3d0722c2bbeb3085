"""Runs inside a real terminal (tmux pane, xterm): writes the bytes it is sent to the terminal.

``python agent.py IN OUT``: reads commands from the fifo IN, one per line: ``w HEX`` writes the
bytes to the terminal (the tty is raw: bytes reach the terminal as sent), ``c`` asks for a cursor
position report (which the terminal answers only after processing everything before it), ``s``
prints the terminal size; the answer of each command (``ok``, ``COL ROW`` 0-based, ``COLS ROWS``)
is written to the fifo OUT.  Standard library only, so any python runs it.
"""

from __future__ import annotations

import os
import re
import sys
import termios
import tty


def report(fd: int) -> str:
    os.write(1, b"\x1b[6n")
    reply = b""
    while not re.search(rb"\x1b\[(\d+);(\d+)R", reply):
        reply += os.read(fd, 64)
    match = re.search(rb"\x1b\[(\d+);(\d+)R", reply)
    assert match is not None
    return f"{int(match.group(2)) - 1} {int(match.group(1)) - 1}"


def main() -> None:
    tty.setraw(0)
    attrs = termios.tcgetattr(0)
    attrs[1] &= ~termios.OPOST  # raw output: the caller already turned LF into CR LF
    termios.tcsetattr(0, termios.TCSANOW, attrs)
    with open(sys.argv[1], encoding="ascii") as commands, open(sys.argv[2], "w", encoding="ascii") as answers:
        for line in commands:
            verb, _, arg = line.strip().partition(" ")
            if verb == "w":
                os.write(1, bytes.fromhex(arg))
                answer = "ok"
            elif verb == "c":
                answer = report(0)
            elif verb == "s":
                size = os.get_terminal_size(0)
                answer = f"{size.columns} {size.lines}"
            else:
                answer = f"unknown {verb}"
            answers.write(answer + "\n")
            answers.flush()


if __name__ == "__main__":
    main()
