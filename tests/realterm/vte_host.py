"""A libvte-2.91 terminal widget in a GTK 3 window, run by the *system* python (python3-gi).

Not part of the ``realterm`` package's imports: ``vte_term`` starts it as
``/usr/bin/python3 vte_host.py SPEC`` under Xvfb, where SPEC is the JSON of ``argv``, ``env``,
``columns`` and ``rows``.  It spawns the app in the widget, then obeys JSON lines on stdin and
answers with JSON lines on stdout:

    {"cmd": "resize", "columns": C, "rows": R}  ->  {"ok": "resize", "columns": C, "rows": R}
    {"cmd": "dump"}                             ->  {"ok": "dump", "text": ..., "cursor": [col, row]}
    {"cmd": "quit"}                             ->  (exits)

and announces ``{"event": "exited", "status": N}`` when the app exits.  A resize is
``Vte.Terminal.set_size`` (VTE reflows, sets the pty size: SIGWINCH) and the window is resized to
the new grid, so GTK's next allocation agrees with it.  The dump is ``get_text_range`` over every
row from the top of the scrollback to the bottom of the screen: VTE joins soft-wrapped rows
itself, so each line of ``text`` is a line as the terminal holds it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import gi  # type: ignore[import-not-found]  # the system python's, not the project's

gi.require_version("Gtk", "3.0")
gi.require_version("Vte", "2.91")
from gi.repository import GLib, Gtk, Vte  # type: ignore[import-not-found]  # noqa: E402

SPEC: dict[str, Any] = json.loads(sys.argv[1])


def reply(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


terminal = Vte.Terminal()
terminal.set_scrollback_lines(-1)  # unlimited: nothing leaves the history during a run
window = Gtk.Window()
window.add(terminal)
terminal.set_size(SPEC["columns"], SPEC["rows"])
window.connect("destroy", Gtk.main_quit)


def fit_window() -> None:
    """Resize the window to the terminal's grid, so GTK's allocation does not resize it back."""
    border = terminal.get_style_context().get_padding(Gtk.StateFlags.NORMAL)
    width = terminal.get_column_count() * terminal.get_char_width() + border.left + border.right
    height = terminal.get_row_count() * terminal.get_char_height() + border.top + border.bottom
    window.resize(width, height)


def dump() -> dict[str, Any]:
    adjustment = terminal.get_vadjustment()
    first, last = int(adjustment.get_lower()), int(adjustment.get_upper())
    text, _attributes = terminal.get_text_range(first, 0, last - 1, terminal.get_column_count() - 1, None, None)
    column, row = terminal.get_cursor_position()
    return {"ok": "dump", "text": text or "", "cursor": [column, row - first], "first": first, "last": last}


def on_command(source: Any, condition: Any) -> bool:
    line = sys.stdin.readline()
    if not line:
        Gtk.main_quit()
        return False
    command: dict[str, Any] = json.loads(line)
    if command["cmd"] == "resize":
        terminal.set_size(command["columns"], command["rows"])
        fit_window()
        reply({"ok": "resize", "columns": terminal.get_column_count(), "rows": terminal.get_row_count()})
    elif command["cmd"] == "dump":
        reply(dump())
    elif command["cmd"] == "quit":
        Gtk.main_quit()
        return False
    return True


def on_exited(widget: Any, status: int) -> None:
    reply({"event": "exited", "status": status})


def on_spawned(widget: Any, pid: int, error: Any, *data: Any) -> None:
    if error is not None:
        reply({"event": "exited", "status": -1, "error": str(error)})
    else:
        reply({"event": "started", "pid": pid})


terminal.connect("child-exited", on_exited)
environment = [f"{key}={value}" for key, value in {**os.environ, **SPEC["env"]}.items()]
terminal.spawn_async(
    Vte.PtyFlags.DEFAULT, os.getcwd(), SPEC["argv"], environment, GLib.SpawnFlags.DEFAULT,
    None, None, -1, None, on_spawned, None,
)  # fmt: skip
GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_command)
window.show_all()
fit_window()
Gtk.main()
