"""What a terminal does, in one object: how it treats rows at a resize and which modes it keeps.

Built in one place from the terminal's answers at startup (``shell.probe``: its family from DA2/XTVERSION or the
environment, DECRQM for mode 2026) and the app's overrides, then turned into the renderer's config by the shell
(``shell.options.config_for``).  The family also names the measured resize model an in-memory terminal replays
(``terminals.resize``).  A name only seeds these answers: what a terminal is seen to do after a resize (its cursor
reports, the frames it acknowledged) is what the core goes by.
"""

from __future__ import annotations

from dataclasses import dataclass

from .resize import TerminalFamily

__all__ = ["TerminalBehaviour"]


@dataclass(frozen=True, slots=True)
class TerminalBehaviour:
    """How a terminal treats rows and modes (the fields the shell and the renderer's config need of it)."""

    family: TerminalFamily = TerminalFamily.SIMPLE
    reflows: bool = False
    """Re-wraps rows wider than a new width instead of cutting them (tmux, VTE, xterm.js, GNU screen; not xterm):
    a resize may then keep the committed rows where the terminal put them."""
    soft_wrapped_text: bool = False
    """GNU screen: only as many history rows stay in reach as line feeds scrolled in, and a widening that joins
    soft-wrapped rows brings back those a shrink put out of reach, so log text goes in as ``printf``'s would
    (tests/test_screen_reach.py, tests/test_screen_softwrap.py)."""
    synchronized_output: bool = False
    """Said it knows mode 2026 (DECRQM): elsewhere a frame hides the cursor while it moves it, or every streamed
    token would show the cursor jumping to its row and back."""

    @classmethod
    def from_answers(
        cls, family: TerminalFamily, synchronized_output: bool | None, *, reflow: bool | None = None
    ) -> TerminalBehaviour:
        """The behaviour of a terminal that answered as ``family`` (``reflow``: the app's override, if any)."""
        return cls(
            family=family,
            reflows=family.reflows if reflow is None else reflow,
            soft_wrapped_text=family is TerminalFamily.SCREEN,
            synchronized_output=synchronized_output is True,
        )
