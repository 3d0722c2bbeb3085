"""pyte as a terminal (a differential check): the library's ``PyteTerminal`` behind a real pty.

The same plumbing as xterm.js (``PtyHostTerminal``), with ``pyte_host.py`` as the host, run by the
project's python with the library checkout on PYTHONPATH.  pyte models no reflow and no pull-back
on growth (see ``inline_render/testing/pyte_terminal.py``): where the real terminals and pyte
disagree, the in-process tests see a different terminal than users have.  Two limits of the model
itself: ``PyteTerminal.resize`` starts a new byte stream, so an escape sequence split by a resize is
lost (a real terminal keeps its parser state), and narrowing cuts rows (judged as truncating).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from .terminals import Terminal
from .xtermjs_term import PtyHostTerminal

__all__ = ["PyteAdapter"]

HOST = Path(__file__).resolve().parent / "pyte_host.py"


class PyteAdapter:
    """Starts pyte hosts behind ptys."""

    name = "pyte"
    truncates = True  # PyteTerminal cuts rows on narrowing, as xterm does
    stale_cells = False
    ascii_only = False

    def missing(self) -> str | None:
        """pyte importable by the project's python, or why not."""
        try:
            import pyte  # noqa: F401
        except ImportError:
            return "pyte not installed (pip install -e '.[test]')"
        return None

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """The app on a new pty read by a new pyte host."""
        host_env = {**os.environ, **env}
        return PtyHostTerminal(argv, env, columns, rows, [sys.executable, "-P", str(HOST)], host_env=host_env)
