"""Typed, immutable inputs of a tick (DESIGN, "Input vocabulary"); their JSON object forms are in ``codec``.

Every input is a frozen, slotted dataclass whose ``TYPE`` is the JSON ``type``
string.  The limits a terminal size must respect (``check_terminal_size``) are
here too: the core checks them on sizes that do not come from JSON.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from ..errors import InvalidInput

__all__ = [
    "Clock",
    "Completions",
    "ConfirmCancel",
    "ConfirmRequest",
    "EditorSet",
    "FIELD_KINDS",
    "Fault",
    "FormField",
    "FormRequest",
    "HistorySet",
    "INPUT_TYPES",
    "Input",
    "Key",
    "LOG_KINDS",
    "LegacyText",
    "LogAppend",
    "LogClear",
    "LogDelta",
    "LogFinish",
    "LogReplace",
    "MAX_TERMINAL_CELLS",
    "MAX_TERMINAL_SIDE",
    "NOTIFY_TYPES",
    "Notify",
    "Paste",
    "PermissionPreview",
    "PermissionReady",
    "PickOption",
    "PickRequest",
    "PromptRequest",
    "Resize",
    "Status",
    "Widget",
    "Working",
    "check_terminal_size",
]

LOG_KINDS = (
    "text", "user", "assistant", "status", "tool", "error", "diff", "reasoning", "info", "warn", "success", "ansi",
)  # fmt: skip
NOTIFY_TYPES = ("info", "warn", "error", "success")
MAX_TERMINAL_SIDE = 10_000  # absurd sizes are rejected, not allocated
# A tick's cost grows with the cells the terminal shows (screen diff, emulators): a 4K screen at a 6x12
# font is about 115,000 cells, an 8K one 460,000.  1,000,000 cells replay in about 0.25 s a tick with pyte.
MAX_TERMINAL_CELLS = 1_000_000


def check_terminal_size(columns: object, rows: object, where: str = "terminal size") -> None:
    """Raise ``InvalidInput`` (naming ``where``) unless the size is within the side and cell limits."""
    for name, value in (("columns", columns), ("rows", rows)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_TERMINAL_SIDE:
            raise InvalidInput(f"{where}: {name} must be between 1 and {MAX_TERMINAL_SIDE}, got {value!r}")
    assert isinstance(columns, int) and isinstance(rows, int)
    if columns * rows > MAX_TERMINAL_CELLS:
        raise InvalidInput(
            f"{where}: {columns}x{rows} is {columns * rows:,} cells, more than the limit of {MAX_TERMINAL_CELLS:,}"
        )


@dataclass(frozen=True, slots=True)
class Resize:
    """The terminal now has ``columns`` x ``rows`` cells; ``cursor_row`` if re-anchored by a report.

    ``frames_in_flight``: a frame written before the resize may have been read by the terminal only after
    it (not acknowledged in time), so its rows were clipped, not re-wrapped: the reflow model must not be
    trusted for this resize.  ``in_flight_frames``: how many of the last frames that may be, when known
    (the terminal acknowledged the ones before with the size they were drawn for); None: unknown, every
    recent frame is distrusted.  ``in_flight_columns`` x ``in_flight_rows``: the size the first frame in flight
    met, as its acknowledgement says; None: unknown.  ``cursor_column``: the report's column (GNU screen's stream
    frames check with it that the frames in flight appended where the text ended, ``reduce_resize``).
    """

    TYPE: ClassVar[str] = "resize"
    columns: int
    rows: int
    cursor_row: int | None = None
    frames_in_flight: bool = False
    in_flight_frames: int | None = None
    in_flight_columns: int | None = None
    in_flight_rows: int | None = None
    cursor_column: int | None = None


@dataclass(frozen=True, slots=True)
class Key:
    """One key press, by prompt_toolkit key name (``a``, ``enter``, ``c-c``, ``left``...)."""

    TYPE: ClassVar[str] = "key"
    key: str


@dataclass(frozen=True, slots=True)
class Paste:
    """A bracketed paste: inserted into the focused text field as one edit."""

    TYPE: ClassVar[str] = "paste"
    text: str


@dataclass(frozen=True, slots=True)
class LogAppend:
    """A new log entry; ``final=False`` starts a streaming entry (needs an ``id``).

    ``styled``: ``text`` is trusted ANSI (``spans.ansi_text``): its SGR styles the entry under the
    kind's prefix, every other sequence is shown inert (as the ``ansi`` kind, for any kind).
    """

    TYPE: ClassVar[str] = "log.append"
    kind: str
    text: str
    id: str | None = None
    final: bool = True
    styled: bool = False

    def __post_init__(self) -> None:
        # The Python API is held to the JSON path's rules: a typo'd kind or an unreachable stream fails here.
        if self.kind not in LOG_KINDS:
            raise InvalidInput(f"log.append: field 'kind' must be one of {', '.join(LOG_KINDS)}, got {self.kind!r}")
        if not self.final and self.id is None:
            raise InvalidInput("log.append: a streaming entry (final=False) needs field 'id'")


@dataclass(frozen=True, slots=True)
class LogDelta:
    """Streamed text appended to the unfinished entry ``id``."""

    TYPE: ClassVar[str] = "log.delta"
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class LogReplace:
    """The full new text of the unfinished entry ``id`` (committed text is never rewritten)."""

    TYPE: ClassVar[str] = "log.replace"
    id: str
    text: str


@dataclass(frozen=True, slots=True)
class LogFinish:
    """Entry ``id`` is final: all of its text becomes committed."""

    TYPE: ClassVar[str] = "log.finish"
    id: str


@dataclass(frozen=True, slots=True)
class LogClear:
    """Forget the log (not the terminal's scrollback) and reset the insertion boundary."""

    TYPE: ClassVar[str] = "log.clear"


@dataclass(frozen=True, slots=True)
class Status:
    """Replace the status line's text (``styled``: trusted ANSI from ``spans.ansi_text``, SGR kept)."""

    TYPE: ClassVar[str] = "status"
    text: str
    styled: bool = False


@dataclass(frozen=True, slots=True)
class ConfirmRequest:
    """Open a yes/no dialog (an approval with ``risk``/``worker_path``); answered by an output carrying ``id``."""

    TYPE: ClassVar[str] = "confirm.request"
    id: str
    title: str
    message: str = ""
    confirm_label: str = "Yes"
    cancel_label: str = "No"
    danger_level: str = "normal"
    allow_remember: bool = False
    allow_reason: bool = False
    styled: bool = False  # ``message`` is trusted ANSI (``spans.ansi_text``): SGR kept, the rest inert
    # Seed 003's approval context: ``risk`` low/medium/high (shown styled; high is dangerous) and
    # the workers from the root to the one asking (shown as ``a -> b -> c``).
    risk: str = ""
    worker_path: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ConfirmCancel:
    """Close the dialog ``id`` (confirm, prompt or pick) without an answer."""

    TYPE: ClassVar[str] = "confirm.cancel"
    id: str


@dataclass(frozen=True, slots=True)
class PromptRequest:
    """Open a text-input dialog; answered with the text, or ``None`` on escape."""

    TYPE: ClassVar[str] = "prompt.request"
    id: str
    title: str
    message: str = ""
    default: str = ""
    placeholder: str = ""
    secret: bool = False
    multiline: bool = False
    styled: bool = False  # ``message`` is trusted ANSI (``spans.ansi_text``): SGR kept, the rest inert


@dataclass(frozen=True, slots=True)
class PickOption:
    """One choice of a pick dialog."""

    id: str
    label: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class PickRequest:
    """Open a list dialog (arrow keys, type to filter, space to toggle when ``multi``)."""

    TYPE: ClassVar[str] = "pick.request"
    id: str
    title: str
    options: tuple[PickOption, ...]
    message: str = ""
    multi: bool = False
    styled: bool = False  # ``message`` is trusted ANSI (``spans.ansi_text``): SGR kept, the rest inert


FIELD_KINDS = ("text", "number", "select", "boolean")  # seed 003's FieldType


@dataclass(frozen=True, slots=True)
class FormField:
    """One field of a form (seed 003's ``ManualToolField``; ``kind`` is its ``type``)."""

    name: str
    kind: str = "text"
    description: str = ""
    required: bool = False
    default: str | float | bool | None = None
    options: tuple[str, ...] = ()  # a select's choices


@dataclass(frozen=True, slots=True)
class FormRequest:
    """Open a form of fields (text, number, select, boolean); answered with the values, or None on escape."""

    TYPE: ClassVar[str] = "form.request"
    id: str
    title: str
    fields: tuple[FormField, ...]
    message: str = ""


@dataclass(frozen=True, slots=True)
class PermissionPreview:
    """A structured permission preflight: one status header, the ``summary`` line, the diff body.

    ``language`` and ``file_path`` (seed 004) choose the diff's lexer: the language first, then the
    file's name, then the diff's own ``+++``/``---`` headers.
    """

    TYPE: ClassVar[str] = "permission.preview"
    tool: str
    diff: str | None = None
    summary: str | None = None
    truncated: bool = False
    tool_call_id: str | None = None
    file_path: str | None = None
    language: str | None = None


@dataclass(frozen=True, slots=True)
class PermissionReady:
    """The permission preflight of ``tool`` is complete: one status line."""

    TYPE: ClassVar[str] = "permission.ready"
    tool: str
    tool_call_id: str | None = None


@dataclass(frozen=True, slots=True)
class LegacyText:
    """A plain runtime text line; legacy preflight lines are recognized."""

    TYPE: ClassVar[str] = "legacy.text"
    text: str


@dataclass(frozen=True, slots=True)
class Notify:
    """One notification line in the log (``styled``: ``message`` is trusted ANSI, SGR kept)."""

    TYPE: ClassVar[str] = "notify"
    message: str
    notify_type: str = "info"
    styled: bool = False

    def __post_init__(self) -> None:
        if self.notify_type not in NOTIFY_TYPES:
            allowed = ", ".join(NOTIFY_TYPES)
            raise InvalidInput(f"notify: field 'notify_type' must be one of {allowed}, got {self.notify_type!r}")


@dataclass(frozen=True, slots=True)
class Working:
    """Spinner plus ``message`` in the status line; an empty message stops it."""

    TYPE: ClassVar[str] = "working"
    message: str


@dataclass(frozen=True, slots=True)
class EditorSet:
    """Replace the composer's text (cursor at the end)."""

    TYPE: ClassVar[str] = "editor.set"
    text: str


@dataclass(frozen=True, slots=True)
class Widget:
    """A small block of text kept by ``key`` above the status line (``below``: under the composer).

    A new text for the same key replaces it in place; an empty text removes it.
    """

    TYPE: ClassVar[str] = "widget"
    key: str
    text: str = ""
    below: bool = False


@dataclass(frozen=True, slots=True)
class Completions:
    """Completions for the composer (the answer to a ``complete.request`` output): each item replaces the
    ``replace`` characters before the cursor.  Ignored unless the composer still holds ``text``/``cursor``."""

    TYPE: ClassVar[str] = "completions"
    text: str
    cursor: int
    items: tuple[str, ...]
    meta: tuple[str, ...] = ()
    replace: int = 0


@dataclass(frozen=True, slots=True)
class HistorySet:
    """The composer's history, oldest first (the shell sends it at startup from the history file)."""

    TYPE: ClassVar[str] = "history.set"
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Clock:
    """The current time in seconds: the only source of time (spinners)."""

    TYPE: ClassVar[str] = "clock"
    now: float


@dataclass(frozen=True, slots=True)
class Fault:
    """Replay only: the next terminal write fails after ``after_bytes`` bytes."""

    TYPE: ClassVar[str] = "fault"
    after_bytes: int


Input = Union[
    Resize,
    Key,
    Paste,
    LogAppend,
    LogDelta,
    LogReplace,
    LogFinish,
    LogClear,
    Status,
    ConfirmRequest,
    ConfirmCancel,
    PromptRequest,
    PickRequest,
    FormRequest,
    PermissionPreview,
    PermissionReady,
    LegacyText,
    Notify,
    Working,
    EditorSet,
    Widget,
    Completions,
    HistorySet,
    Clock,
    Fault,
]

INPUT_TYPES: dict[str, type[Any]] = {cls.TYPE: cls for cls in typing.get_args(Input)}
