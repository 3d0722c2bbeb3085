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
    """Re-wraps rows wider than a new width instead of cutting them (tmux, VTE, xterm.js, GNU screen, and any
    terminal the probe has no model for; not xterm): a resize then keeps the committed rows where the terminal
    put them."""
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
        if reflow is None:
            # A terminal the probe has no model for (``SIMPLE``) is taken for one that re-wraps: the resize then
            # keeps the committed rows where the terminal put them and redraws only the open ones, which loses
            # and repeats no line whichever the terminal does.  Taken for one that cuts, a terminal that re-wraps
            # gets its kept rows drawn again below them (kitty: lines twice in every storm); xterm, which cuts,
            # under the re-wrapping model loses and repeats none either, leaving a few more ghost rows (measured:
            # tests/realterm, README's figures).  Only a terminal measured to cut (xterm) is so taken.
            reflow = family.reflows or family is TerminalFamily.SIMPLE
        return cls(
            family=family,
            reflows=reflow,
            soft_wrapped_text=family is TerminalFamily.SCREEN,
            synchronized_output=synchronized_output is True,
        )
