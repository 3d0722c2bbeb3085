"""inline_render: deterministic inline-mode terminal rendering for chat and agent UIs.

The tick has four stages (``reduce_inputs``, ``compute_layout``, ``draw_frame``,
``apply_terminal_effects``); ``Renderer`` runs them against a backend.
"""

from __future__ import annotations

from .app import AppState, Screen, initial_state
from .backend import MemorySink, StreamSink, Vt100Backend
from .effects import EffectResult, plan_terminal_effects, settle
from .errors import BackendError, InlineRenderError, InvalidInput, InvariantViolation, ProtocolError, ScenarioError
from .inputs import (
    Clock,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Fault,
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
from .outputs import ConfirmAnswer, Interrupt, Output, PickAnswer, PromptAnswer, Quit, Submit, output_to_json
from .reduce import reduce_inputs
from .shell import AppOptions, InlineApp, OutputMode, run
from .state import Config, ConfirmPhase, CursorPhase, RenderState, SyncPhase, check_invariants
from .terminal import Cursor, TerminalFamily, TestTerminal
from .text import WidthPolicy
from .tick import InMemoryRenderer, Renderer, TickResult, apply_terminal_effects, tick

__version__ = "0.1.0"

__all__ = [
    "AppOptions",
    "AppState",
    "BackendError",
    "Clock",
    "Config",
    "ConfirmAnswer",
    "ConfirmCancel",
    "ConfirmPhase",
    "ConfirmRequest",
    "Cursor",
    "CursorPhase",
    "EditorSet",
    "EffectResult",
    "Fault",
    "Frame",
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
