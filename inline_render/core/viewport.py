"""Stage 2's result, ``Layout`` (the viewport's regions, read by stages 3 and 4), and the composer's prompt.

Below both ``layout`` (which computes a ``Layout``) and ``frame`` (which draws one), so that ``layout`` can
still offer ``Frame`` and ``draw_frame`` (their old home) without the two stage modules importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..widgets.dialogs import DialogView
from .evolve import fast_init
from .log import LogRow
from .state import Config, RenderState

__all__ = ["Layout", "composer_prompt"]


@fast_init
@dataclass(frozen=True, slots=True)
class Layout:
    """Region sizes, the wrapped pending log, and the RenderState rows for this tick."""

    columns: int
    height: int
    log_height: int
    dialog_height: int
    status_height: int
    composer_height: int
    above: tuple[str, ...]  # widget rows shown above the status line
    below: tuple[str, ...]  # widget rows shown under the composer
    render: RenderState
    visible: tuple[LogRow, ...]
    to_insert: tuple[LogRow, ...]
    dialog: DialogView | None
    dialog_shown: tuple[int, ...]
    composer: tuple[str, ...]
    composer_offset: int
    composer_cursor: tuple[int, int]


def composer_prompt(config: Config, width: int) -> str:
    """The composer's prompt, dropped when the terminal is too narrow for it and any text."""
    return config.composer_prompt if width > len(config.composer_prompt) else ""
