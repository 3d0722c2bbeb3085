"""inline_render: deterministic inline-mode terminal rendering for chat and agent UIs.

The tick has four stages (``reduce_inputs``, ``compute_layout``, ``draw_frame``,
``apply_terminal_effects``); ``Renderer`` runs them against a backend.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names, for type checkers and readers; at run time each is imported on first use
    from .app import AppState, Screen, initial_state
    from .backend import MemorySink, StreamSink, Vt100Backend
    from .effects import EffectResult, plan_terminal_effects, settle
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
    from .layout import Frame, Layout, compute_layout, draw_frame
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
    from .reduce import reduce_inputs
    from .shell import AppOptions, InlineApp, OutputMode, run
    from .state import Config, ConfirmPhase, CursorPhase, RenderState, SyncPhase, check_invariants
    from .terminal import Cursor, TerminalFamily, TestTerminal
    from .text import WidthPolicy
    from .tick import InMemoryRenderer, Renderer, TickResult, apply_terminal_effects, tick

# name -> module: ``import inline_render`` stays cheap (the pytest plugin imports it in every pytest run).
_EXPORTS: dict[str, str] = {
    "AppOptions": ".shell",
    "AppState": ".app",
    "BackendError": ".errors",
    "Clock": ".inputs",
    "CompleteRequest": ".outputs",
    "Completions": ".inputs",
    "Config": ".state",
    "ConfirmAnswer": ".outputs",
    "ConfirmCancel": ".inputs",
    "ConfirmPhase": ".state",
    "ConfirmRequest": ".inputs",
    "FormAnswer": ".outputs",
    "FormField": ".inputs",
    "FormRequest": ".inputs",
    "Cursor": ".terminal",
    "CursorPhase": ".state",
    "EditorSet": ".inputs",
    "EffectResult": ".effects",
    "Fault": ".inputs",
    "HistorySet": ".inputs",
    "Frame": ".layout",
    "InMemoryRenderer": ".tick",
    "InlineApp": ".shell",
    "InlineRenderError": ".errors",
    "Input": ".inputs",
    "Interrupt": ".outputs",
    "InvalidInput": ".errors",
    "InvariantViolation": ".errors",
    "Key": ".inputs",
    "Layout": ".layout",
    "LegacyText": ".inputs",
    "LogAppend": ".inputs",
    "LogClear": ".inputs",
    "LogDelta": ".inputs",
    "LogFinish": ".inputs",
    "LogReplace": ".inputs",
    "MemorySink": ".backend",
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
    "RenderState": ".state",
    "Renderer": ".tick",
    "Resize": ".inputs",
    "ScenarioError": ".errors",
    "Screen": ".app",
    "Status": ".inputs",
    "StreamSink": ".backend",
    "Submit": ".outputs",
    "SyncPhase": ".state",
    "TerminalFamily": ".terminal",
    "TestTerminal": ".terminal",
    "TickResult": ".tick",
    "Vt100Backend": ".backend",
    "WidthPolicy": ".text",
    "Working": ".inputs",
    "apply_terminal_effects": ".tick",
    "check_invariants": ".state",
    "compiled": ".native",
    "compiled_modules": ".native",
    "compute_layout": ".layout",
    "draw_frame": ".layout",
    "initial_state": ".app",
    "input_from_json": ".inputs",
    "input_to_json": ".inputs",
    "output_to_json": ".outputs",
    "plan_terminal_effects": ".effects",
    "reduce_inputs": ".reduce",
    "run": ".shell",
    "settle": ".effects",
    "tick": ".tick",
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
    """The package module: loading the submodule ``inline_render.tick`` must not hide the exported function ``tick``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, types.ModuleType):
            return  # the import system binds a loaded submodule on its parent; the export keeps the name
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
