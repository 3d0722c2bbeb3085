"""The runtime's own slash commands (codelia's ``/resume``, ``/model``, ``/skills``, ``/mcp``) on a registry.

They live in ``inline_render.protocol.codelia.commands`` (each sends seed 004's request and
shows the answer); this module only puts them on a ``CommandRegistry`` so ``/help``
lists them and Tab completes them, with the runtime's ``/model`` replacing the
built-in one.  Nothing is implemented twice: every handler calls the client's
``run_command`` with the line as typed.
"""

from __future__ import annotations

import shlex
from typing import Protocol

from ...commands.registry import CommandContext, CommandRegistry
from .commands import COMMANDS, DESCRIPTIONS

__all__ = ["RunsCommands", "add_runtime_commands"]


class RunsCommands(Protocol):
    """What a runtime client offers here (``RuntimeClient.run_command``)."""

    def run_command(self, text: str) -> bool: ...


def add_runtime_commands(registry: CommandRegistry, client: RunsCommands) -> None:
    """Register the runtime's commands on ``registry`` (they replace built-ins of the same name)."""

    def run(context: CommandContext) -> None:
        line = shlex.join([f"/{context.name}", *context.words])
        if not client.run_command(line):
            context.app.log("error", f"/{context.name}: the runtime does not take this command")

    for name in COMMANDS:
        registry.add(name, run, DESCRIPTIONS[name], replace=True, free=True)
