"""The real-terminal rig of issue 9: a storm app, terminal adapters, a checker and a CLI.

A *storm* streams numbered lines through ``inline_render.shell.InlineApp`` (default options) while
a real terminal (tmux, xterm under Xvfb, a libvte widget, xterm.js headless through a pty) is
resized again and again; afterwards the terminal's whole text (history + screen) is checked:
every committed line exactly once and in order, and the rows that are not committed lines
(ghosts) counted.  Run ``python -m tests.realterm --help`` from the repository root.

Modules: ``lines`` (the deterministic text), ``storm`` (resize schedules from a seed), ``app``
(the storm app, run in the terminal), ``checker`` (the verdict), ``terminals`` (the adapter
protocol and registry), one module per terminal, ``run`` (one storm on one terminal) and
``cli``.  The package imports itself as ``realterm`` (the ``tests`` directory on ``sys.path``),
so that the app subprocess can find it next to any checkout of the library.
"""

from __future__ import annotations

__all__: list[str] = []
