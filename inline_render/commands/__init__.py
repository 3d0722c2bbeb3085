"""Slash commands for apps (seed 003's "CLI Command Syntax"): a registry, argument parsing, dispatch
(``registry``), the built-in commands (``builtins``) and their tab completion (``complete``)."""

from __future__ import annotations

from .registry import (
    Command,
    CommandContext,
    CommandRegistry,
    Handler,
    ManualTool,
    parse_arguments,
    split_command,
    usage,
)

__all__ = [
    "Command",
    "CommandContext",
    "CommandRegistry",
    "Handler",
    "ManualTool",
    "parse_arguments",
    "split_command",
    "usage",
]
