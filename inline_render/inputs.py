"""Typed, immutable inputs of a tick, and their JSON object forms (DESIGN, "Input vocabulary").

Every input is a frozen, slotted dataclass whose ``TYPE`` is the JSON ``type``
string.  ``input_from_json`` validates an object and names the offending field
in an ``InvalidInput`` error; ``input_to_json`` is its exact inverse (fields at
their default value are omitted, so a round trip is stable).
"""

from __future__ import annotations

import dataclasses
import math
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Union

from .errors import InvalidInput

__all__ = [
    "INPUT_TYPES",
    "MAX_TERMINAL_CELLS",
    "MAX_TERMINAL_SIDE",
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
    "Input",
    "Key",
    "LegacyText",
    "LogAppend",
    "LogClear",
    "LogDelta",
    "LogFinish",
    "LogReplace",
    "Notify",
    "Paste",
    "PermissionPreview",
    "PermissionReady",
    "PickOption",
    "PickRequest",
    "PromptRequest",
    "Resize",
    "Status",
    "Working",
    "check_terminal_size",
    "input_from_json",
    "input_to_json",
]

LOG_KINDS = (
    "text", "user", "assistant", "status", "tool", "error", "diff", "reasoning", "info", "warn", "success", "ansi",
)  # fmt: skip
NOTIFY_TYPES = ("info", "warn", "error", "success")
MAX_TERMINAL_SIDE = 10_000  # absurd sizes are rejected, not allocated
# A tick's cost grows with the cells the terminal shows (screen diff, emulators): a 4K screen at a 6x12
# font is about 115,000 cells, an 8K one 460,000.  1,000,000 cells replay in about 0.25 s a tick with pyte.
MAX_TERMINAL_CELLS = 1_000_000
MAX_INT = 2**63 - 1  # integer fields (byte counts) beyond this are errors, not arbitrary-precision numbers


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

# Value checks beyond the field's type, as data: (type, field) -> (predicate, what it must be).
_CHECKS: dict[tuple[str, str], tuple[Any, str]] = {
    ("resize", "columns"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "rows"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "cursor_row"): (lambda v: v is None or 0 <= v < MAX_TERMINAL_SIDE, "a row >= 0"),
    ("resize", "in_flight_frames"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
    ("resize", "in_flight_columns"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "in_flight_rows"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "cursor_column"): (lambda v: v is None or 0 <= v < MAX_TERMINAL_SIDE, "a column >= 0"),
    ("key", "key"): (lambda v: v != "", "a non-empty key name"),
    ("log.append", "kind"): (lambda v: v in LOG_KINDS, f"one of {', '.join(LOG_KINDS)}"),
    ("notify", "notify_type"): (lambda v: v in NOTIFY_TYPES, f"one of {', '.join(NOTIFY_TYPES)}"),
    ("clock", "now"): (lambda v: math.isfinite(v) and v >= 0, "a finite number >= 0"),
    ("fault", "after_bytes"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
    ("completions", "cursor"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
    ("completions", "replace"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
}


def _check_type(where: str, name: str, value: Any, annotation: str) -> Any:
    """Validate one JSON value against a field annotation (as written in this module)."""
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    if value is None:
        if optional:
            return None
        raise InvalidInput(f"{where}: field '{name}' must be {base}, got null")
    if base == "str":
        if isinstance(value, str):
            return value
    elif base == "bool":
        if isinstance(value, bool):
            return value
    elif base == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif base == "float":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:  # an integer beyond any float (JSON allows 10**400)
                raise InvalidInput(
                    f"{where}: field '{name}' must be a finite number, got an integer too large for one"
                ) from None
    elif base == "tuple[str, ...]":
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return tuple(value)
        raise InvalidInput(f"{where}: field '{name}' must be a list of strings")
    elif base == "tuple[PickOption, ...]":
        if isinstance(value, list):
            return tuple(_pick_option(f"{where}: field '{name}'[{i}]", item) for i, item in enumerate(value))
    elif base == "tuple[FormField, ...]":
        if isinstance(value, list):
            return tuple(_form_field(f"{where}: field '{name}'[{i}]", item) for i, item in enumerate(value))
    else:  # pragma: no cover - a new annotation without a checker is a programming error
        raise AssertionError(f"no JSON checker for annotation {annotation!r}")
    raise InvalidInput(f"{where}: field '{name}' must be {base}, got {type(value).__name__}")


def _form_field(where: str, item: Any) -> FormField:
    """A form field from seed 003's ``ManualToolField`` JSON: ``name``, ``type``, ``description``, ..."""
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object, got {type(item).__name__}")
    unknown = sorted(set(item) - {"name", "type", "description", "required", "default", "options"})
    if unknown:
        raise InvalidInput(f"{where}: unknown field {unknown[0]!r}")
    name, kind = item.get("name"), item.get("type", "text")
    description, required = item.get("description", ""), item.get("required", False)
    default, options = item.get("default"), item.get("options", [])
    if not isinstance(name, str) or not name:
        raise InvalidInput(f"{where}: 'name' must be a non-empty string")
    if kind not in FIELD_KINDS:
        raise InvalidInput(f"{where}: 'type' must be one of {', '.join(FIELD_KINDS)}, got {kind!r}")
    if not isinstance(description, str) or not isinstance(required, bool):
        raise InvalidInput(f"{where}: 'description' must be a string and 'required' a boolean")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise InvalidInput(f"{where}: 'options' must be a list of strings")
    if default is not None and (not isinstance(default, (str, int, float, bool)) or _huge(default)):
        raise InvalidInput(f"{where}: 'default' must be a string, a finite number or a boolean")
    if isinstance(default, int) and not isinstance(default, bool):
        default = float(default)
    return FormField(name, kind, description, required, default, tuple(options))


def _huge(value: Any) -> bool:
    """A number no float holds (JSON allows 10**400) or not finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return not math.isfinite(float(value))
    except OverflowError:
        return True


def _pick_option(where: str, item: Any) -> PickOption:
    if isinstance(item, str):
        return PickOption(id=item, label=item)
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be a string or an object, got {type(item).__name__}")
    label = item.get("label", item.get("id"))
    ident = item.get("id", label)
    description = item.get("description", "")
    if not isinstance(ident, str) or not isinstance(label, str) or not isinstance(description, str):
        raise InvalidInput(f"{where}: 'id', 'label' and 'description' must be strings")
    return PickOption(id=ident, label=label, description=description)


def input_from_json(obj: Any, where: str = "input") -> Input:
    """Build the typed input of a JSON object; raise ``InvalidInput`` naming the bad field."""
    if not isinstance(obj, dict):
        raise InvalidInput(f"{where}: must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise InvalidInput(f"{where}: field 'type' must be a string")
    cls = INPUT_TYPES.get(kind)
    if cls is None:
        raise InvalidInput(f"{where}: unknown input type {kind!r}")
    where = f"{where} ({kind})"
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(obj) - set(fields) - {"type"})
    if unknown:
        raise InvalidInput(f"{where}: unknown field {unknown[0]!r}")
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name not in obj:
            if field.default is dataclasses.MISSING:
                raise InvalidInput(f"{where}: missing field '{name}'")
            continue
        value = _check_type(where, name, obj[name], str(field.type))
        check = _CHECKS.get((kind, name))
        if check is not None and value is not None and not check[0](value):
            raise InvalidInput(f"{where}: field '{name}' must be {check[1]}, got {obj[name]!r}")
        values[name] = value
    if kind == "resize":
        check_terminal_size(values["columns"], values["rows"], where)
    if kind == "log.append" and values.get("final") is False and values.get("id") is None:
        raise InvalidInput(f"{where}: a streaming entry (final=false) needs field 'id'")
    result: Input = cls(**values)
    return result


def input_to_json(value: Input) -> dict[str, Any]:
    """The JSON object form of an input (fields at their default are omitted)."""
    out: dict[str, Any] = {"type": value.TYPE}
    for field in dataclasses.fields(value):
        item = getattr(value, field.name)
        if field.default is not dataclasses.MISSING and item == field.default:
            continue
        if isinstance(item, tuple):
            item = [o if isinstance(o, str) else _item_json(o) for o in item]
        out[field.name] = item
    return out


def _item_json(item: PickOption | FormField) -> dict[str, Any]:
    if isinstance(item, PickOption):
        return _option_json(item)
    data: dict[str, Any] = {"name": item.name}
    if item.kind != "text":
        data["type"] = item.kind
    if item.description:
        data["description"] = item.description
    if item.required:
        data["required"] = True
    if item.default is not None:
        data["default"] = item.default
    if item.options:
        data["options"] = list(item.options)
    return data


def _option_json(option: PickOption) -> dict[str, str]:
    data = {"id": option.id, "label": option.label}
    if option.description:
        data["description"] = option.description
    return data
