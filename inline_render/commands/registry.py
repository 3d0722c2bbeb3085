"""Slash commands for apps (seed 003's "CLI Command Syntax"): a registry, argument parsing, dispatch.

An app registers commands in a few lines and installs the registry on its ``InlineApp``::

    commands = CommandRegistry(models=("small", "large"))

    @commands.command("deploy", "Deploy the service", FormField("env", "select", options=("staging", "prod")))
    async def deploy(ctx: CommandContext) -> None:
        ctx.app.log("success", f"deployed to {ctx.args['env']}")

    commands.install(app)        # Tab completes /commands and --options; /help lists them

A submitted line that starts with ``/`` is then run by the registry and not put on
``app.outputs()``.  Built-ins (``/help`` generated from the registry, ``/clear``,
``/exit``, ``/status``, ``/model``, ``/config``; ``builtins=("help", "clear")`` installs only those) come
first, then the app's commands,
then manual tools by name (``/git_push --branch main`` is ``/tool git_push --branch
main``): built-ins take precedence over tools; an app command may replace a built-in
only with ``replace=True``.  Tools (``/tools``, ``/tool NAME [--arg value] | -i``) are
in ``inline_render.commands.builtins``.

Arguments: ``--name value``, ``--name=value``, quoted values (``--msg "two words"``),
a bare ``--flag`` for a boolean field (``--no-flag``: false), and bare words filling the
fields in order.  Values are checked with the same rules as the form dialog
(``forms.convert_value``); a bad argument is one error line that says what and how the
command is used.  Esc while a command runs cancels it and returns to the prompt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from prompt_toolkit.completion import Completer

from ..inputs import FormField
from .arguments import parse_arguments, split_command, usage
from .builtins import add_builtins
from .complete import registry_completer
from .host import CommandHost
from .table import Command, CommandContext, CommandTable, Handler, ManualTool

__all__ = [
    "Command",
    "CommandContext",
    "CommandHost",
    "CommandRegistry",
    "Handler",
    "InstallTarget",
    "ManualTool",
    "parse_arguments",
    "split_command",
    "usage",
]


class InstallTarget(CommandHost, Protocol):
    """The app ``CommandRegistry.install`` sets up: a command host with the registry and completer it asks."""

    commands: CommandRegistry | None
    completer: Completer | None


class CommandRegistry(CommandTable):
    """Commands and manual tools by name; runs a submitted ``/`` line (built-ins first, then app commands, tools)."""

    def __init__(
        self,
        *,
        models: Iterable[str] = (),
        model: str | None = None,
        settings: Iterable[FormField] = (),
        builtins: bool | Iterable[str] = True,
        unknown_is_error: bool = True,
    ) -> None:
        """``builtins``: True for every built-in, False for none, or the names of those the app wants
        (``("help", "clear")``: ``/help`` then lists only them and the app's commands)."""
        super().__init__(models=models, model=model, settings=settings, unknown_is_error=unknown_is_error)
        if builtins is True:
            add_builtins(self)
        elif builtins is not False:
            add_builtins(self, builtins)

    def install(self, app: InstallTarget) -> None:
        """Run ``/`` lines of ``app`` here and complete them on Tab (the app's completer stays the fallback)."""
        app.commands = self
        app.completer = self.completer(app.completer)

    def completer(self, fallback: Completer | None = None) -> Completer:
        """A prompt_toolkit completer: ``/commands`` with descriptions, then each one's ``--options``."""
        return registry_completer(self, fallback)
