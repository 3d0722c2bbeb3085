"""RenderState, its phases and invariants, and the configuration (DESIGN, "RenderState")."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..errors import InvalidInput, InvariantViolation
from ..text.cells import WidthPolicy
from ..text.themes import Theme
from .evolve import fast_init

__all__ = [
    "Config",
    "ConfirmPhase",
    "CursorPhase",
    "RenderState",
    "SyncPhase",
    "check_invariants",
]


class SyncPhase(enum.Enum):
    """Where the scrollback synchronization of the current tick stands."""

    IDLE = "idle"
    NEEDS_INSERT = "needs_insert"
    INSERTED_NEEDS_REDRAW = "inserted_needs_redraw"


class ConfirmPhase(enum.Enum):
    """Lifecycle of any modal dialog (confirm, prompt, pick)."""

    NONE = "none"
    PENDING = "pending"
    ACTIVE = "active"


class CursorPhase(enum.Enum):
    """Where the terminal cursor is allowed to be."""

    VISIBLE_AT_COMPOSER = "visible_at_composer"
    HIDDEN_DURING_SCROLLBACK_INSERT = "hidden_during_scrollback_insert"
    # GNU screen only (``Config.soft_wrap_lines``, ``effects_stream``), beyond seed 002's two: while a line streams it
    # goes into the terminal's own text as printf's would, and the cursor rests hidden at its end, where screen's
    # re-wrap carries it; the frame after the line is finished shows it at the composer.
    HIDDEN_AT_TEXT_END = "hidden_at_text_end"
    # Beyond seed 002's two as well: while a dialog without a text field (a confirm, a pick) has the keys the cursor
    # rests hidden at the composer, which ignores them (``frame.Frame``); the frame after the dialog closes shows it.
    HIDDEN_AT_DIALOG = "hidden_at_dialog"


@fast_init
@dataclass(frozen=True, slots=True)
class RenderState:
    """The seven fields of the specification; row indices count wrapped log rows."""

    wrapped_total: int = 0
    visible_start: int = 0
    visible_end: int = 0
    inserted_until: int = 0
    sync_phase: SyncPhase = SyncPhase.IDLE
    confirm_phase: ConfirmPhase = ConfirmPhase.NONE
    cursor_phase: CursorPhase = CursorPhase.VISIBLE_AT_COMPOSER

    def to_json(self) -> dict[str, object]:
        """The fields as a scenario ``expect`` / trace object (enums by value)."""
        return {
            "wrapped_total": self.wrapped_total,
            "visible_start": self.visible_start,
            "visible_end": self.visible_end,
            "inserted_until": self.inserted_until,
            "sync_phase": self.sync_phase.value,
            "confirm_phase": self.confirm_phase.value,
            "cursor_phase": self.cursor_phase.value,
        }


def check_invariants(before: RenderState, after: RenderState, *, log_cleared: bool = False) -> None:
    """Raise ``InvariantViolation`` unless ``after`` (the end of a tick) obeys DESIGN's invariants.

    ``before`` is the state at the end of the previous tick; ``log_cleared`` says
    the tick contained a ``log.clear`` (the one reset of ``inserted_until``).
    """
    if not (0 <= after.inserted_until <= after.visible_start <= after.visible_end <= after.wrapped_total):
        raise InvariantViolation(
            "expected inserted_until <= visible_start <= visible_end <= wrapped_total, got "
            f"{after.inserted_until} <= {after.visible_start} <= {after.visible_end} <= {after.wrapped_total}"
        )
    if after.inserted_until < before.inserted_until and not log_cleared:
        raise InvariantViolation(
            f"inserted_until decreased from {before.inserted_until} to {after.inserted_until} without log.clear"
        )
    if before.confirm_phase is ConfirmPhase.NONE and after.confirm_phase is ConfirmPhase.ACTIVE:
        raise InvariantViolation("confirm_phase went from none to active without a pending draw")
    if after.cursor_phase is CursorPhase.HIDDEN_AT_TEXT_END:
        if after.sync_phase is not SyncPhase.IDLE:
            raise InvariantViolation(f"cursor_phase hidden_at_text_end with sync_phase {after.sync_phase.value}")
        return
    hidden = after.cursor_phase is CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
    if (
        hidden != (after.sync_phase is SyncPhase.INSERTED_NEEDS_REDRAW)
        and after.sync_phase is not SyncPhase.NEEDS_INSERT
    ):
        raise InvariantViolation(
            f"cursor_phase {after.cursor_phase.value} does not match sync_phase {after.sync_phase.value}"
        )


@dataclass(frozen=True, slots=True)
class Config:
    """Settings of a renderer; every field has a sensible default."""

    viewport_height: int = 12
    """Rows of the live viewport (log tail, dialog, status, composer); capped at the terminal's rows."""
    compact: bool = True
    """The viewport is only as tall as what it shows, up to ``viewport_height``: at start the status line and the
    composer sit right under the shell's prompt, and it grows as the log tail, a dialog or the composer needs rows
    (as Codex and Claude Code start).  False reserves ``viewport_height`` rows from the first frame on."""
    min_log_rows: int = 1
    """Rows the log tail keeps while a dialog is open (the dialog scrolls inside what is left)."""
    max_composer_rows: int = 6
    """The composer grows with its text up to this many rows, then scrolls to the cursor."""
    width_policy: WidthPolicy = WidthPolicy.CODEPOINT
    """How wide grapheme clusters are: per code point (xterm.js, tmux) or per grapheme (mode 2027)."""
    check_invariants: bool = True
    """Check RenderState invariants at the end of every tick (never disable it in tests)."""
    synchronized_output: bool = True
    """Wrap every tick's bytes in ``ESC[?2026h`` ... ``ESC[?2026l``."""
    resize_reflow: bool = False
    """The terminal re-wraps rows wider than a new width instead of cutting them (tmux, VTE, xterm.js; not
    xterm): a resize then keeps the committed log rows at the viewport's top where the terminal put them
    (they count as inserted) and re-anchors below them, so none is erased and none is drawn twice."""
    soft_wrap_lines: bool = False
    """GNU screen (the shell turns it on there): log text goes into the terminal's own text as ``printf``'s would.
    screen shows only as many history rows as line feeds scrolled in: a shrink puts the oldest out of reach, and
    only a widening that joins soft-wrapped rows brings them back (tests/test_screen_reach.py).  So verbatim text
    wraps by cells as the terminal wraps ``printf``'s (``RenderOptions.wrap_cells``: word-wrapped rows filled with
    blanks take more rows than ``printf``'s once a narrowing re-wraps them), a finished line is inserted at once,
    its rows written as one text with autowrap on (soft-wrapped into each other), and the viewport shows only what
    is still open (the streamed line, dialogs, status, composer) and is only as tall as that: rows of finished text
    kept there would be pushed into history unlinked by a shrink.  A widening shows such a line joined, with the
    blank cells its rows ended with (a decorated kind's continuation indent, Markdown's word wrap) inside it.  A
    line that frames in flight at a narrowing left glued to a piece of a split row, or clipped, is inserted
    again (``replay.damaged_lines``)."""
    composer_prompt: str = "\u203a "
    """Drawn before the composer's first row."""
    placeholder: str = ""
    """Dim text shown in an empty composer."""
    vi_mode: bool = False
    """The composer edits with vi keys (Esc: normal mode) instead of emacs keys."""
    log_submit: bool = True
    """Enter logs the composer's text as a ``user`` entry at once; False leaves that to the app
    (``InlineApp.on_submit`` refuses or rewrites a line before it is logged)."""
    markdown: bool = True
    """Render ``assistant`` and ``reasoning`` text as Markdown (other kinds stay verbatim)."""
    theme: str | Theme = "default"
    """A built-in theme by name: ``default`` (the terminal's 16 colours), ``dark`` or ``light``; or your own
    ``inline_render.text.themes.Theme`` (a scenario file records its name)."""
    hyperlinks: bool = False
    """Markdown links become OSC 8 hyperlinks (only for terminals known to support them)."""

    def __post_init__(self) -> None:
        if not 1 <= self.viewport_height <= 10_000:
            raise InvalidInput(
                f"config: field 'viewport_height' must be between 1 and 10000, got {self.viewport_height}"
            )
        if not 0 <= self.min_log_rows <= self.viewport_height:
            raise InvalidInput(
                f"config: field 'min_log_rows' must be between 0 and viewport_height, got {self.min_log_rows}"
            )
        if isinstance(self.theme, str) and self.theme not in ("default", "dark", "light"):
            raise InvalidInput(f"config: field 'theme' must be 'default', 'dark' or 'light', got {self.theme!r}")
        if not 1 <= self.max_composer_rows <= 1000:
            raise InvalidInput(
                f"config: field 'max_composer_rows' must be between 1 and 1000, got {self.max_composer_rows}"
            )

    def to_json(self) -> dict[str, object]:
        """The scenario header's ``config`` object (fields at their default omitted; ``compact`` at its value before it
        existed, false, omitted: an object without it was recorded with a fixed viewport, see ``from_json``)."""
        out: dict[str, object] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if value != _JSON_ABSENT.get(name, getattr(_DEFAULT_CONFIG, name)):
                out[name] = value.value if isinstance(value, enum.Enum) else value
                if isinstance(value, Theme):
                    out[name] = value.name
        return out

    @classmethod
    def from_json(cls, data: object, where: str = "config") -> Config:
        """Build from a scenario header's ``config`` object, naming a bad field."""
        if not isinstance(data, dict):
            raise InvalidInput(f"{where}: must be a JSON object")
        values: dict[str, object] = dict(_JSON_ABSENT)
        for name, value in data.items():
            if name not in cls.__dataclass_fields__:
                raise InvalidInput(f"{where}: unknown field {name!r}")
            default = getattr(_DEFAULT_CONFIG, name)
            if isinstance(default, WidthPolicy):
                try:
                    value = WidthPolicy(value)
                except ValueError:
                    raise InvalidInput(f"{where}: field {name!r} must be 'codepoint' or 'grapheme'") from None
            elif type(value) is not type(default):
                raise InvalidInput(f"{where}: field {name!r} must be {type(default).__name__}")
            values[name] = value
        return cls(**values)  # type: ignore[arg-type]


_DEFAULT_CONFIG = Config()
# Fields whose value in a ``config`` object without them is not the default: what files recorded before the field
# existed were rendered with (they replay byte for byte).
_JSON_ABSENT: dict[str, object] = {"compact": False}
