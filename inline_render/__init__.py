"""inline_render: deterministic inline-mode terminal rendering for chat and agent UIs.

The tick has four stages (``reduce_inputs``, ``compute_layout``, ``draw_frame``,
``apply_terminal_effects``); ``Renderer`` runs them against a backend.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

from . import _compat

if TYPE_CHECKING:  # the names, for type checkers and readers; at run time each is imported on first use
    from .core.app import AppState, Screen, initial_state
    from .core.backend import MemorySink, StreamSink, Vt100Backend
    from .core.effects import EffectResult, apply_terminal_effects, plan_terminal_effects, settle
    from .core.frame import Frame, draw_frame
    from .core.layout import Layout, compute_layout
    from .core.reduce import reduce_inputs
    from .core.state import Config, ConfirmPhase, CursorPhase, RenderState, SyncPhase, check_invariants
    from .core.tick import InMemoryRenderer, Renderer, TickResult, tick
    from .errors import BackendError, InlineRenderError, InvalidInput, InvariantViolation, ProtocolError, ScenarioError
    from .inputs import (
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
        input_from_json,
        input_to_json,
    )
    from .native import compiled, compiled_modules
    from .outputs import (
        CompleteRequest,
        ConfirmAnswer,
        FormAnswer,
        Interrupt,
        Output,
        PickAnswer,
        PromptAnswer,
        Quit,
        Submit,
        output_to_json,
    )
    from .shell import AppOptions, InlineApp, OutputMode, run
    from .terminals.memory import Cursor, TerminalFamily, TestTerminal
    from .text.cells import WidthPolicy

# name -> module: ``import inline_render`` stays cheap (the pytest plugin imports it in every pytest run).
_EXPORTS: dict[str, str] = {
    "AppOptions": ".shell",
    "AppState": ".core.app",
    "BackendError": ".errors",
    "Clock": ".inputs",
    "CompleteRequest": ".outputs",
    "Completions": ".inputs",
    "Config": ".core.state",
    "ConfirmAnswer": ".outputs",
    "ConfirmCancel": ".inputs",
    "ConfirmPhase": ".core.state",
    "ConfirmRequest": ".inputs",
    "FormAnswer": ".outputs",
    "FormField": ".inputs",
    "FormRequest": ".inputs",
    "Cursor": ".terminals.memory",
    "CursorPhase": ".core.state",
    "EditorSet": ".inputs",
    "EffectResult": ".core.effects",
    "Fault": ".inputs",
    "HistorySet": ".inputs",
    "Frame": ".core.frame",
    "InMemoryRenderer": ".core.tick",
    "InlineApp": ".shell",
    "InlineRenderError": ".errors",
    "Input": ".inputs",
    "Interrupt": ".outputs",
    "InvalidInput": ".errors",
    "InvariantViolation": ".errors",
    "Key": ".inputs",
    "Layout": ".core.layout",
    "LegacyText": ".inputs",
    "LogAppend": ".inputs",
    "LogClear": ".inputs",
    "LogDelta": ".inputs",
    "LogFinish": ".inputs",
    "LogReplace": ".inputs",
    "MemorySink": ".core.backend",
    "Notify": ".inputs",
    "Output": ".outputs",
    "OutputMode": ".shell",
    "Paste": ".inputs",
    "PermissionPreview": ".inputs",
    "PermissionReady": ".inputs",
    "PickAnswer": ".outputs",
    "PickOption": ".inputs",
    "PickRequest": ".inputs",
    "PromptAnswer": ".outputs",
    "PromptRequest": ".inputs",
    "ProtocolError": ".errors",
    "Quit": ".outputs",
    "RenderState": ".core.state",
    "Renderer": ".core.tick",
    "Resize": ".inputs",
    "ScenarioError": ".errors",
    "Screen": ".core.app",
    "Status": ".inputs",
    "StreamSink": ".core.backend",
    "Submit": ".outputs",
    "SyncPhase": ".core.state",
    "TerminalFamily": ".terminals.memory",
    "TestTerminal": ".terminals.memory",
    "TickResult": ".core.tick",
    "Vt100Backend": ".core.backend",
    "WidthPolicy": ".text.cells",
    "Working": ".inputs",
    "apply_terminal_effects": ".core.effects",
    "check_invariants": ".core.state",
    "compiled": ".native",
    "compiled_modules": ".native",
    "compute_layout": ".core.layout",
    "draw_frame": ".core.frame",
    "initial_state": ".core.app",
    "input_from_json": ".inputs",
    "input_to_json": ".inputs",
    "output_to_json": ".outputs",
    "plan_terminal_effects": ".core.effects",
    "reduce_inputs": ".core.reduce",
    "run": ".shell",
    "settle": ".core.effects",
    "tick": ".core.tick",
}


__all__ = [
    "__version__",
    "AppOptions",
    "AppState",
    "BackendError",
    "Clock",
    "CompleteRequest",
    "Completions",
    "Config",
    "ConfirmAnswer",
    "ConfirmCancel",
    "ConfirmPhase",
    "ConfirmRequest",
    "FormAnswer",
    "FormField",
    "FormRequest",
    "Cursor",
    "CursorPhase",
    "EditorSet",
    "EffectResult",
    "Fault",
    "Frame",
    "HistorySet",
    "InMemoryRenderer",
    "InlineApp",
    "InlineRenderError",
    "Input",
    "Interrupt",
    "InvalidInput",
    "InvariantViolation",
    "Key",
    "Layout",
    "LegacyText",
    "LogAppend",
    "LogClear",
    "LogDelta",
    "LogFinish",
    "LogReplace",
    "MemorySink",
    "Notify",
    "Output",
    "OutputMode",
    "Paste",
    "PermissionPreview",
    "PermissionReady",
    "PickAnswer",
    "PickOption",
    "PickRequest",
    "PromptAnswer",
    "PromptRequest",
    "ProtocolError",
    "Quit",
    "RenderState",
    "Renderer",
    "Resize",
    "ScenarioError",
    "Screen",
    "Status",
    "StreamSink",
    "Submit",
    "SyncPhase",
    "TerminalFamily",
    "TestTerminal",
    "TickResult",
    "Vt100Backend",
    "WidthPolicy",
    "Working",
    "apply_terminal_effects",
    "check_invariants",
    "compiled",
    "compiled_modules",
    "compute_layout",
    "draw_frame",
    "initial_state",
    "input_from_json",
    "input_to_json",
    "output_to_json",
    "plan_terminal_effects",
    "reduce_inputs",
    "run",
    "settle",
    "tick",
]


def __getattr__(name: str) -> Any:
    """Import an exported name on first use (PEP 562) and keep it in the module."""
    if name == "__version__":
        from .cli import version

        value: Any = version()
    elif name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name], __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """The package module: importing an old module path (``inline_render.tick``, bound by ``_compat``) must not hide
    the exported function of that name."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return  # the import system binds a loaded submodule on its parent; the export keeps the name
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
_compat.install()  # old module paths import, with a DeprecationWarning (inline_render._compat)
