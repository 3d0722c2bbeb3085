"""tmux as the terminal: a private server whose one pane runs the app (``tests/tmux_harness.py``).

The pane is the app's terminal from the start (no shell, so nothing but the app's output is in
it); ``remain-on-exit`` keeps the pane after the app exits, with an empty message so tmux writes
nothing into it.  Resizing is ``resize-window`` (tmux reflows, then the app gets SIGWINCH); the
text is ``capture-pane -p -S - -E -`` (tmux joins nothing: its soft-wrapped rows come as rows).
"""

from __future__ import annotations

import os
import shlex
import uuid
from collections.abc import Mapping, Sequence

from tmux_harness import Tmux, require_tmux

from .checker import TerminalText
from .terminals import Terminal, missing_binaries

__all__ = ["TmuxAdapter", "TmuxTerminal"]


class TmuxTerminal(Tmux):
    """``Tmux`` of the harness, started on the app instead of a shell."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> None:
        # Not Tmux.__init__: that starts a shell and waits for its prompt; here the pane is the app.
        self.binary = require_tmux()
        self.socket = f"inline-render-realterm-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.columns, self.rows = columns, rows
        args = ["start-server", ";", "set-option", "-g", "history-limit", "50000", ";"]
        args += ["set-option", "-g", "remain-on-exit", "on", ";", "set-option", "-g", "remain-on-exit-format", "", ";"]
        args += ["new-session", "-d", "-x", str(columns), "-y", str(rows)]
        for name, value in env.items():
            args += ["-e", f"{name}={value}"]
        try:
            self.run(*args, shlex.join(argv))
        except BaseException:
            self.kill()
            raise

    def exited(self) -> bool:
        """Whether the pane's program (the app) is dead."""
        return self.run("display", "-p", "#{pane_dead}").strip() == "1"

    def text(self) -> TerminalText:
        """History + screen; the cursor's row counted from the top of the history."""
        x, y, history = self.run("display", "-p", "#{cursor_x} #{cursor_y} #{history_size}").split()
        rows = self.run("capture-pane", "-p", "-S", "-", "-E", "-").split("\n")
        if rows and rows[-1] == "":
            rows.pop()  # the newline after the last row
        return TerminalText(tuple(row.rstrip() for row in rows), None, (int(x), int(history) + int(y)))

    def close(self) -> None:
        """Kill the server."""
        self.kill()


class TmuxAdapter:
    """Starts ``TmuxTerminal``s."""

    name = "tmux"
    truncates = False
    stale_cells = False
    ascii_only = False

    def missing(self) -> str | None:
        """tmux on PATH, or why not."""
        return missing_binaries("tmux", hint="apt-get install tmux")

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app in a new tmux pane."""
        return TmuxTerminal(argv, env, columns, rows)
