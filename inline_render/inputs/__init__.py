"""Typed, immutable inputs of a tick (``model``) and their JSON object forms (``codec``).

Every name is importable from here, as from the module this package was before the split.
"""

from __future__ import annotations

from .codec import MAX_INT as MAX_INT
from .codec import input_from_json, input_to_json
from .model import (
    FIELD_KINDS,
    INPUT_TYPES,
    MAX_TERMINAL_CELLS,
    MAX_TERMINAL_SIDE,
    Clock,
    Completions,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Fault,
    FormField,
    FormRequest,
    HistorySet,
    Input,
    Key,
    LegacyText,
    LogAppend,
    LogClear,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    Paste,
    PermissionPreview,
    PermissionReady,
    PickOption,
    PickRequest,
    PromptRequest,
    Resize,
    Status,
    Working,
    check_terminal_size,
)
from .model import LOG_KINDS as LOG_KINDS
from .model import NOTIFY_TYPES as NOTIFY_TYPES
from .model import Widget as Widget

# ``MAX_INT``, ``LOG_KINDS``, ``NOTIFY_TYPES`` and ``Widget`` were importable from here before the split but not in
# ``__all__``: they stay out of it, and are imported ``as`` themselves so mypy's strict mode sees them exported.
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
