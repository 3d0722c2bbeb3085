"""The whole state of a renderer between ticks: application state plus terminal knowledge."""

from __future__ import annotations

from dataclasses import dataclass, field

from .composer import TextField
from .dialogs import Dialog
from .errors import InvalidInput
from .evolve import fast_init
from .inputs import MAX_TERMINAL_SIDE, ConfirmRequest, PickRequest, PromptRequest
from .log import LogState, RenderOptions
from .state import Config, RenderState
from .style import Row
from .themes import theme_named

__all__ = ["AppState", "Screen", "initial_state"]

DialogRequest = ConfirmRequest | PromptRequest | PickRequest


@fast_init
@dataclass(frozen=True, slots=True)
class Screen:
    """What the effects stage knows about the terminal: the only fields it may change.

    ``drawn`` is the viewport as it is on screen (``None``: unknown, redraw all);
    ``top`` is the viewport's first screen row; the screen rows under the
    viewport are blank (anchoring clears them with ``ESC[J``); ``drawn_columns``
    is the width ``drawn`` was drawn at (a reflowing terminal re-wraps it).
    """

    top: int = 0
    drawn: tuple[Row, ...] | None = None
    drawn_columns: int = 0
    drawn_log_rows: int = 0
    cursor: tuple[int, int] | None = None
    cursor_visible: bool | None = None
    anchored: bool = False
    start_row: int | None = None
    dialog_drawn: bool = False
    broken: bool = False


@dataclass(frozen=True, slots=True)
class AppState:
    """Application state (log, composer, dialog, status) and RenderState, as one value."""

    config: Config
    columns: int
    rows: int
    render: RenderState = field(default_factory=RenderState)
    log: LogState = field(default_factory=LogState)
    composer: TextField = field(default_factory=TextField)
    dialog: Dialog | None = None
    queued: tuple[DialogRequest, ...] = ()
    status: str = ""
    working: str = ""
    working_since: float = 0.0
    now: float = 0.0
    legacy_diff: bool = False
    fault: int | None = None
    log_cleared: bool = False
    ready_ids: tuple[str, ...] = ()  # tool calls whose permission.ready line is shown (the newest last)
    pushed_rows: int = 0  # this tick: committed log rows a shrinking terminal pushed into scrollback itself
    screen: Screen = field(default_factory=Screen)


def initial_state(config: Config, columns: int, rows: int, cursor_row: int | None = None) -> AppState:
    """The state before the first tick; ``cursor_row`` is where the shell left the cursor (0-based).

    Sizes are checked like a ``resize`` input: an absurd size is an ``InvalidInput``, never an allocation.
    """
    for name, value in (("columns", columns), ("rows", rows)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TERMINAL_SIDE:
            raise InvalidInput(f"terminal size: {name} must be between 1 and {MAX_TERMINAL_SIDE}, got {value!r}")
    if cursor_row is not None and not 0 <= cursor_row < rows:
        cursor_row = rows - 1  # a report from before a resize: the bottom row is the safe guess
    theme = theme_named(config.theme) if isinstance(config.theme, str) else config.theme
    options = RenderOptions(config.markdown, theme, config.hyperlinks)
    return AppState(
        config=config, columns=columns, rows=rows, log=LogState(options=options), screen=Screen(start_row=cursor_row)
    )
