"""The command table: ``Command``, ``ManualTool``, ``CommandContext`` and ``CommandTable`` (registering, running).

``registry.CommandRegistry`` builds on it with the built-ins and tab completion, which are written on
this table (``builtins``, ``complete``) and so never import the registry back.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput
from ..inputs import FormField
from ..outputs import FormValue
from .arguments import parse_arguments, split_command, usage
from .host import CommandHost

__all__ = ["Command", "CommandContext", "CommandTable", "Handler", "ManualTool"]


Handler = Callable[["CommandContext"], "Awaitable[object] | object"]


@dataclass(frozen=True, slots=True)
class Command:
    """A slash command: its handler, the fields its arguments fill, aliases and whether it is built in."""

    name: str
    handler: Handler
    description: str = ""
    fields: tuple[FormField, ...] = ()
    aliases: tuple[str, ...] = ()
    builtin: bool = False
    free: bool = False  # takes its words as they are (/help NAME, /model NAME, /config KEY VALUE, /tool ...)


@dataclass(frozen=True, slots=True)
class ManualTool:
    """Seed 003's manual tool: invoked by the user (``/tool NAME``), with fields, a category and maybe approval."""

    name: str
    handler: Handler
    description: str = ""
    fields: tuple[FormField, ...] = ()
    label: str = ""
    category: str = "General"
    needs_approval: bool = False
    risk: str = ""


@dataclass(frozen=True, slots=True)
class CommandContext:
    """What a handler gets: the app, the registry, the command's name, its checked ``args`` and raw ``words``."""

    app: CommandHost
    registry: CommandTable
    name: str
    args: dict[str, FormValue] = field(default_factory=dict)
    words: tuple[str, ...] = ()


class CommandTable:
    """Commands and manual tools by name; runs a submitted ``/`` line (built-ins first, then app commands, tools).

    ``CommandRegistry`` is this table with the built-ins registered and a completer.
    """

    def __init__(
        self,
        *,
        models: Iterable[str] = (),
        model: str | None = None,
        settings: Iterable[FormField] = (),
        unknown_is_error: bool = True,
    ) -> None:
        self.commands: dict[str, Command] = {}
        self.tools: dict[str, ManualTool] = {}
        self.models = tuple(models)
        self.model = model if model is not None else (self.models[0] if self.models else None)
        self.settings = {spec.name: spec for spec in settings}
        self.values: dict[str, FormValue] = {spec.name: spec.default for spec in settings}
        self.unknown_is_error = unknown_is_error  # False: unknown /lines go to app.outputs() (a runtime's own)
        self.on_clear: Callable[[], object] | None = None
        self.on_model: Callable[[str], object] | None = None
        self.on_config: Callable[[str, FormValue], object] | None = None
        self.status_lines: Callable[[], Iterable[str]] | None = None
        self._aliases: dict[str, str] = {}
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # --- registering ---------------------------------------------------------------------------

    def add(
        self,
        name: str,
        handler: Handler,
        description: str = "",
        *fields: FormField,
        aliases: Iterable[str] = (),
        replace: bool = False,
        builtin: bool = False,
        free: bool = False,
    ) -> Command:
        """Register ``/name``; a built-in's name (or alias) is refused unless ``replace`` says so."""
        name = name.removeprefix("/").lower()
        if not name or any(ch.isspace() for ch in name):
            raise InvalidInput(f"command name {name!r} must be one word")
        taken = self.find(name)
        if taken is not None and taken.builtin and not replace:
            raise InvalidInput(f"/{name} is a built-in command: pass replace=True to replace it")
        if taken is not None and taken.name != name:
            self._aliases.pop(name, None)
        command = Command(name, handler, description, tuple(fields), tuple(aliases), builtin, free)
        self.commands[name] = command
        for alias in command.aliases:
            self._aliases[alias.removeprefix("/").lower()] = name
        return command

    def command(
        self, name: str, description: str = "", *fields: FormField, **options: Any
    ) -> Callable[[Handler], Handler]:
        """Decorator form of ``add``: ``@registry.command("deploy", "Deploy", FormField("env"))``."""

        def register(handler: Handler) -> Handler:
            self.add(name, handler, description, *fields, **options)
            return handler

        return register

    def add_tool(self, tool: ManualTool) -> ManualTool:
        """Register a manual tool (``/tool NAME``, ``/tools``; ``/NAME`` too when no command has that name)."""
        if not tool.name or any(ch.isspace() for ch in tool.name):
            raise InvalidInput(f"tool name {tool.name!r} must be one word")
        self.tools[tool.name] = tool
        return tool

    def tool_named(self, name: str) -> ManualTool | None:
        """The tool called ``name`` (command names are case-insensitive, so a tool's name is too here)."""
        exact = self.tools.get(name)
        return exact or next((tool for key, tool in self.tools.items() if key.lower() == name.lower()), None)

    def find(self, name: str) -> Command | None:
        """The command called (or aliased) ``name``."""
        name = name.removeprefix("/").lower()
        return self.commands.get(name) or self.commands.get(self._aliases.get(name, ""))

    # --- running -------------------------------------------------------------------------------

    def handles(self, text: str) -> bool:
        """Whether a submitted line is ours: any ``/`` line, or only known ones when unknown lines pass."""
        stripped = text.strip()
        if not stripped.startswith("/") or stripped == "/":
            return False
        if self.unknown_is_error:
            return True
        name = stripped[1:].split(maxsplit=1)[0].lower() if stripped[1:].strip() else ""
        return self.find(name) is not None or self.tool_named(name) is not None

    def start(self, app: CommandHost, text: str) -> asyncio.Task[None]:
        """Run ``text`` as a task (one command at a time, in order); Esc cancels it (``interrupt``)."""
        task = asyncio.ensure_future(self._run_guarded(app, text))
        self._tasks.add(task)
        app.command_started()  # line input waits for the command (or for a dialog it opens)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            app.command_finished()

        task.add_done_callback(done)
        return task

    def interrupt(self) -> bool:
        """Cancel the running commands (Esc / Ctrl-C): control returns to the prompt; True if any ran."""
        running = [task for task in self._tasks if not task.done()]
        for task in running:
            task.cancel()
        return bool(running)

    async def _run_guarded(self, app: CommandHost, text: str) -> None:
        name = text.strip().split(maxsplit=1)[0]
        try:
            async with self._lock:
                await self.run(app, text)
        except asyncio.CancelledError:
            app.log("status", f"{name} interrupted")
        except InvalidInput as error:
            app.log("error", str(error))
        except Exception as error:  # an app's handler must not take the UI down
            app.log("error", f"{name} failed: {type(error).__name__}: {error}")

    async def run(self, app: CommandHost, text: str) -> None:
        """Run one ``/`` line now; a bad line raises ``InvalidInput`` (shown as an error line by ``start``)."""
        name, words = split_command(text)
        command = self.find(name)
        tool = self.tool_named(name) if command is None else None
        if tool is not None:
            command = self.find("tool")
            words = [tool.name, *words]
        if command is None:
            listed = ": /help lists the commands" if self.find("help") is not None else ""
            raise InvalidInput(f"unknown command /{name}{listed}")
        if command.free:
            context = CommandContext(app, self, command.name, {}, tuple(words))
        else:
            try:
                args = parse_arguments(command.fields, words, command.name)
            except InvalidInput as error:
                raise InvalidInput(f"{error}; usage: {usage(command.name, command.fields)}") from None
            context = CommandContext(app, self, command.name, args, tuple(words))
        result = command.handler(context)
        if inspect.isawaitable(result):
            await result
