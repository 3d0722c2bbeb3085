"""What every terminal adapter does, and the registry of adapters by name.

An adapter starts a command in a real terminal of a given size, resizes the terminal on command
(the way that terminal's user would: the window, not just the pty), tells when the command has
exited, and reads the terminal's whole text (history + screen) afterwards.  ``close`` ends every
process the adapter started, on every path, and may be called more than once.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from .checker import TerminalText

__all__ = ["Adapter", "Terminal", "adapters", "missing_binaries"]


class Terminal(Protocol):
    """A running terminal with the app in it."""

    def resize(self, columns: int, rows: int) -> None:
        """Resize the terminal (it reflows as it does, then the app gets SIGWINCH)."""

    def exited(self) -> bool:
        """Whether the app has exited."""

    def text(self) -> TerminalText:
        """Every row, history first; call after the app exited and the terminal settled."""

    def close(self) -> None:
        """Stop every process this terminal started."""


class Adapter(Protocol):
    """How to start one kind of terminal, and whether this machine has it."""

    name: str
    truncates: bool
    """The terminal cuts rows when it narrows (judged with ``check(truncating=True)``)."""
    stale_cells: bool
    """It shows cells nobody wrote at the width of the moment (judged with ``check(stale=...)``)."""
    ascii_only: bool
    """Its text cannot be read back beyond ASCII: the app streams no CJK or emoji lines."""

    def missing(self) -> str | None:
        """Why this terminal cannot run here (what to install), or None."""

    def start(self, argv: Sequence[str], env: Mapping[str, str], columns: int, rows: int) -> Terminal:
        """Start ``argv`` with ``env`` in a new terminal of ``columns`` x ``rows``."""


def missing_binaries(*names: str, hint: str) -> str | None:
    """The reason to skip when one of the binaries is not on PATH."""
    absent = [name for name in names if shutil.which(name) is None]
    return f"{', '.join(absent)} not installed ({hint})" if absent else None


def adapters() -> dict[str, Callable[[], Adapter]]:
    """Every adapter by name (imported here: each module imports this one)."""
    from .kitty_term import KittyAdapter
    from .pyte_term import PyteAdapter
    from .screen_term import ScreenAdapter
    from .tmux_term import TmuxAdapter
    from .vte_term import VteAdapter
    from .xterm_term import XtermAdapter
    from .xtermjs_term import XtermJsAdapter

    found: dict[str, Callable[[], Adapter]] = {"tmux": TmuxAdapter, "xtermjs": XtermJsAdapter, "xterm": XtermAdapter}
    found.update(vte=VteAdapter, kitty=KittyAdapter, screen=ScreenAdapter, pyte=PyteAdapter)
    return found
