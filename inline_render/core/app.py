"""The whole state of a renderer between ticks: application state plus terminal knowledge."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..inputs import ConfirmRequest, FormRequest, PickRequest, PromptRequest, check_terminal_size
from ..text.style import Row, Segment
from ..text.themes import theme_named
from ..widgets.composer import Composer
from ..widgets.dialogs import Dialog
from .evolve import fast_init
from .log import LogRow, LogState, RenderOptions
from .ops import Op, as_ops
from .state import Config, RenderState

__all__ = ["RECENT_FRAMES", "AppState", "FrameRecord", "PushedOpen", "Screen", "initial_state"]

RECENT_FRAMES = 4  # frames whose written rows a resize distrusts when frames were in flight (the count unknown)
DialogRequest = ConfirmRequest | PromptRequest | PickRequest | FormRequest


class FrameRecord(NamedTuple):  # a tuple: one is built per frame, a status tick's too (0.3 µs, not 1)
    """A frame as written, with the screen it was planned for: the viewport's ``top`` row, the rows
    ``drawn`` on it, their width ``columns``, the screen's ``rows`` and the ``cursor`` (row, column),
    all before the frame; then its operations as planned (``planned``: a text may be its ``Segment``,
    see ``ops``), the log rows it inserted into scrollback and the rows a resize left split under it (``split``)."""

    top: int
    drawn: tuple[Row, ...]
    columns: int
    rows: int
    cursor: tuple[int, int]
    planned: tuple[Op | Segment, ...]
    inserted: tuple[LogRow, ...]
    split: tuple[Row, ...] = ()
    """The screen's ``Screen.split_rows``: rows as drawn that the terminal holds re-wrapped at ``columns``, from the
    viewport's top down to the cursor, which the frame's moves up pass over (a frame right after a resize)."""

    @property
    def ops(self) -> tuple[Op, ...]:
        """The frame's operations (a rows-only frame keeps its texts as segments: made ``Text`` here, when
        read; a resize's replay reads them, a tick does not)."""
        return as_ops(self.planned)


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
    recent_written: tuple[int, ...] = ()
    """The first row each of the last ``RECENT_FRAMES`` frames wrote to (``len(drawn)``: none), in today's
    viewport rows (a later frame's insertions moved them up).  More than one frame may be in flight at a resize: a
    tick and its follow-up redraw, or ticks the terminal had not acknowledged."""
    recent_frames: tuple[FrameRecord, ...] = ()
    """The last ``RECENT_FRAMES`` frames that wrote (the ones the shell acknowledges and counts), forgotten at
    a resize: it replays those in flight where their moves up may have stopped at the top of a shrunk
    screen (``replay``)."""
    ghost_above: bool = False
    """Set by a resize on a re-wrapping terminal when rows it counted may have been re-wrapped taller: the
    re-anchor may then start inside a re-wrapped row, whose piece above stays soft-wrapped into the row
    the viewport starts on (the terminal would show that piece glued to our first row), so one blank row
    is left between them."""
    resized_from: tuple[int, int, int, int] | None = None
    """Set by a resize until the next frame: the cursor's (row index, column) in ``drawn``, which still holds
    the rows as drawn before the first resize, so a second resize is measured from them too; how many of the
    last frames may have been in flight at any of them (0: none); and the narrowest width among them."""
    lost_row: bool = False
    """Set by a failed write that stopped inside a line written with autowrap on (``Config.soft_wrap_lines``):
    how far its text went is unknown, so is the cursor's row.  The retry first moves up as far as the screen goes
    (``CUU`` stops at its top row), which it then knows, and anchors from there."""
    stream: tuple[tuple[Row, ...], ...] | None = None
    """GNU screen (``Config.soft_wrap_lines``, ``effects_stream``): the viewport's log rows, line by line, written as
    one text whose end the cursor rests on, as ``printf``'s (None: not so).  Screen re-wraps that text and the cursor
    with it at a resize, so frames append at the cursor and a resize counts the rows the text takes."""
    split_rows: tuple[Row, ...] = ()
    """Set by a resize on a terminal that re-wraps rows, until the next frame: the viewport's rows as drawn from the
    first one the resize did not count as inserted down to the cursor's, which the terminal now holds re-wrapped at
    its width (a row wider than it split into pieces, each continuing the one above).  The next frame moves up over
    them (``FrameRecord.split``): a widening the terminal applies before reading it joins them again, and its moves
    up then land higher, on the rows above the viewport (``resize_replay.joined_at_a_widening``)."""

    @property
    def first_written(self) -> int:
        """The first viewport row the last frames wrote to (``len(drawn)``: none): rows above it were left as
        the terminal had them, so frames still in flight at a resize cannot have clipped them."""
        return min(self.recent_written) if self.recent_written else len(self.drawn or ())

    def written_by(self, frames: int) -> int:
        """The first viewport row the last ``frames`` frames wrote to (``len(drawn)``: none, or no frame)."""
        recent = self.recent_written[-frames:] if frames > 0 else ()
        return min(recent) if recent else len(self.drawn or ())


@dataclass(frozen=True, slots=True)
class PushedOpen:
    """Rows (as drawn, at ``columns``) of text not yet committed that a shrink pushed into history (``pushed``),
    right after the first ``after`` rows the log inserted."""

    columns: int
    rows: tuple[Row, ...]
    after: int


@dataclass(frozen=True, slots=True)
class AppState:
    """Application state (log, composer, dialog, status) and RenderState, as one value."""

    config: Config
    columns: int
    rows: int
    render: RenderState = field(default_factory=RenderState)
    log: LogState = field(default_factory=LogState)
    composer: Composer = field(default_factory=Composer)
    dialog: Dialog | None = None
    queued: tuple[DialogRequest, ...] = ()
    status: str = ""
    status_row: Row = ()  # a styled status (``Status(styled=True)``): its segments; ``status`` is their text
    working: str = ""
    working_since: float = 0.0
    widgets: tuple[tuple[str, tuple[str, ...], bool], ...] = ()  # (key, sanitized rows, below), oldest first
    now: float = 0.0
    legacy_diff: bool = False
    fault: int | None = None
    log_cleared: bool = False
    ready_ids: tuple[str, ...] = ()  # tool calls whose permission.ready line is shown (the newest last)
    pushed_rows: int = 0  # this tick: committed log rows a shrinking terminal pushed into scrollback itself
    kept_rows: int = 0  # this tick: committed log rows a re-wrapping terminal kept above the re-anchored viewport
    # This tick: a resize that replayed the frames in flight (``replay``): which of the rows they inserted it found
    # garbled and queued again (counted back from the last row inserted: 1 is the last), and the texts of the rows
    # it found intact and counted as inserted.
    replayed: tuple[tuple[int, ...], tuple[str, ...]] | None = None
    # Until the log commits them or they can no longer be adopted (``pushed``): rows of open text a shrink pushed
    # into history; and this tick: the texts of such rows counted as inserted without being written again.
    pushed_open: PushedOpen | None = None
    adopted_rows: tuple[str, ...] = ()
    screen: Screen = field(default_factory=Screen)


def initial_state(config: Config, columns: int, rows: int, cursor_row: int | None = None) -> AppState:
    """The state before the first tick; ``cursor_row`` is where the shell left the cursor (0-based).

    Sizes are checked like a ``resize`` input: an absurd size is an ``InvalidInput``, never an allocation.
    """
    check_terminal_size(columns, rows)
    if cursor_row is not None and not 0 <= cursor_row < rows:
        cursor_row = rows - 1  # a report from before a resize: the bottom row is the safe guess
    theme = theme_named(config.theme) if isinstance(config.theme, str) else config.theme
    options = RenderOptions(config.markdown, theme, config.hyperlinks, wrap_cells=config.soft_wrap_lines)
    return AppState(
        config=config, columns=columns, rows=rows, log=LogState(options=options), screen=Screen(start_row=cursor_row)
    )
