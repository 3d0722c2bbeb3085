"""VTE probe, run with the system python (python3-gi, gir1.2-vte-2.91) under an X display.

Reads ``{"scripts": [{"columns", "rows", "steps"}, ...]}`` as JSON on stdin and prints
``{"results": [snaps, ...]}`` on stdout, like ``xtermjs_probe.js``.  A ``Vte.Terminal`` widget
that is never shown (so GTK never allocates it another size) is fed bytes with ``feed``; VTE processes them from its
main loop, so after each feed an OSC title sentinel is fed too and the loop runs until the
title shows it: every byte before it has been processed.
"""

from __future__ import annotations

import base64
import json
import sys
import time

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Vte", "2.91")
from gi.repository import Gtk, Vte  # noqa: E402


def settle(term: Vte.Terminal, token: str) -> None:
    term.feed(f"\x1b]2;{token}\x07".encode())
    deadline = time.monotonic() + 10
    while term.get_window_title() != token:
        if time.monotonic() > deadline:
            raise SystemExit(f"VTE did not process the bytes before {token}")
        Gtk.main_iteration_do(False)


def row_text(term: Vte.Terminal, row: int, columns: int) -> str:
    return term.get_text_range(row, 0, row, columns, None)[0].rstrip("\n").rstrip(" ")


def snapshot(term: Vte.Terminal) -> dict[str, object]:
    columns, rows = term.get_column_count(), term.get_row_count()
    top = int(term.get_vadjustment().get_upper()) - rows
    lines = [row_text(term, r, columns) for r in range(top + rows)]
    # A soft-wrapped row has no newline between it and the next one in a two-row range.
    wrapped = [False] * (top + rows)
    for r in range(1, top + rows):
        both = term.get_text_range(r - 1, 0, r, columns - 1, None)[0]
        wrapped[r] = "\n" not in both.rstrip("\n")
    x, y = term.get_cursor_position()
    return {
        "history": lines[:top],
        "screen": lines[top:],
        "wrapped": wrapped,
        "cursor": [x, y - top],
        "size": [columns, rows],
    }


def run(spec: dict[str, object], number: int) -> list[dict[str, object]]:
    term = Vte.Terminal()
    term.set_scrollback_lines(100000)
    term.set_size(spec["columns"], spec["rows"])
    snaps = []
    for index, step in enumerate(spec["steps"]):
        if step[0] == "feed":
            term.feed(base64.b64decode(step[1]))
            settle(term, f"s{number}.{index}")
        elif step[0] == "resize":
            term.set_size(step[1], step[2])
            settle(term, f"s{number}.{index}")
        elif step[0] == "snap":
            snaps.append(snapshot(term))
    return snaps


def main() -> None:
    scripts = json.load(sys.stdin)["scripts"]
    json.dump({"results": [run(spec, number) for number, spec in enumerate(scripts)]}, sys.stdout)


if __name__ == "__main__":
    main()
