"""Slash commands for apps (seed 003's "CLI Command Syntax"): a registry, argument parsing, dispatch.

An app registers commands in a few lines and installs the registry on its ``InlineApp``::

    commands = CommandRegistry(models=("small", "large"))

    @commands.command("deploy", "Deploy the service", FormField("env", "select", options=("staging", "prod")))
    async def deploy(ctx: CommandContext) -> None:
        ctx.app.log("success", f"deployed to {ctx.args['env']}")

    commands.install(app)        # Tab completes /commands and --options; /help lists them

A submitted line that starts with ``/`` is then run by the registry and not put on
``app.outputs()``.  Built-ins (``/help`` generated from the registry, ``/clear``,
``/exit``, ``/status``, ``/model``, ``/config``) come first, then the app's commands,
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

import asyncio
import inspect
import shlex
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from ..inputs import FormField
from ..outputs import FormValue
from ..widgets.forms import convert_value, field_hint, finish_values

if TYPE_CHECKING:
    from prompt_toolkit.completion import Completer

    from ..shell.runner import InlineApp

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

    app: InlineApp
    registry: CommandRegistry
    name: str
    args: dict[str, FormValue] = field(default_factory=dict)
    words: tuple[str, ...] = ()


def split_command(text: str) -> tuple[str, list[str]]:
    """``"/name rest"`` -> (``name`` lower-cased, the shell-quoted words of ``rest``); a bad quote raises."""
    head, _, rest = text.strip().replace("\t", " ").partition(" ")
    try:
        words = shlex.split(rest)
    except ValueError as error:  # "No closing quotation", "No escaped character"
        raise InvalidInput(f"{head}: {str(error).lower()} in {rest.strip()!r}") from None
    return head[1:].lower(), words


def usage(name: str, fields: Iterable[FormField]) -> str:
    """``/name --branch <text> [--force] [--remote <origin|upstream>]``: fields in order, optional ones bracketed."""
    parts = [f"/{name}"]
    for spec in fields:
        if spec.kind == "boolean":
            shown = f"--{spec.name}"
        else:
            kind = "|".join(spec.options) if spec.kind == "select" else spec.kind
            shown = f"--{spec.name} <{kind}>"
        parts.append(shown if spec.required else f"[{shown}]")
    return " ".join(parts)


def _flag(words: list[str], index: int) -> tuple[str, str | None]:
    """(name, inline value) of ``--name`` or ``--name=value`` at ``index``."""
    name, eq, value = words[index][2:].partition("=")
    return name, value if eq else None


def parse_arguments(fields: tuple[FormField, ...], words: list[str], command: str) -> dict[str, FormValue]:
    """The value of every field from ``words`` (``--name value`` / bare words in order), defaults for the rest.

    ``InvalidInput`` names the problem: an unknown option (with the known ones), a missing value,
    a value of the wrong kind, a word too many, a required field missing.
    """
    by_name = {spec.name: spec for spec in fields}
    given: dict[str, FormValue] = {}
    index = 0
    while index < len(words):
        word = words[index]
        if word.startswith("--") and len(word) > 2:
            name, value = _flag(words, index)
            spec = by_name.get(name)
            if spec is None and name.startswith("no-") and name[3:] in by_name and value is None:
                spec, value = by_name[name[3:]], "false"
            if spec is None:
                known = ", ".join(f"--{n}" for n in by_name) or "none"
                raise InvalidInput(f"/{command}: unknown option --{name} (options: {known})")
            if value is None:
                following = words[index + 1] if index + 1 < len(words) else None
                if spec.kind == "boolean" and (following is None or following.lower() not in _BOOL_WORDS):
                    value = "true"  # a bare --flag
                elif following is None or (following.startswith("--") and len(following) > 2):
                    raise InvalidInput(f"/{command}: --{name} needs a value {field_hint(spec)}".rstrip())
                else:
                    value, index = following, index + 1
            given[spec.name] = _convert(spec, value, command)
        else:
            # Bare words fill the fields in order; a boolean is set only by --name (a word is no flag).
            free = [spec for spec in fields if spec.name not in given and spec.kind != "boolean"]
            if not free:
                raise InvalidInput(f"/{command}: unexpected argument {word!r}")
            given[free[0].name] = _convert(free[0], word, command)
        index += 1
    try:
        return finish_values(fields, given)
    except InvalidInput as error:
        raise InvalidInput(f"/{command}: {error} (--{_missing(fields, given)})") from None


_BOOL_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0"})


def _missing(fields: tuple[FormField, ...], given: dict[str, FormValue]) -> str:
    return next(spec.name for spec in fields if spec.required and given.get(spec.name, spec.default) is None)


def _convert(spec: FormField, value: str, command: str) -> FormValue:
    if not value.strip() and spec.kind != "text":
        raise InvalidInput(f"/{command}: --{spec.name} needs a value {field_hint(spec)}".rstrip())
    try:
        return convert_value(spec, value)
    except InvalidInput as error:
        raise InvalidInput(f"/{command}: {error}") from None


class CommandRegistry:
    """Commands and manual tools by name; runs a submitted ``/`` line (built-ins first, then app commands, tools)."""

    def __init__(
        self,
        *,
        models: Iterable[str] = (),
        model: str | None = None,
        settings: Iterable[FormField] = (),
        builtins: bool = True,
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
        if builtins:
            from .builtins import add_builtins  # the built-ins are written on this class's public API

            add_builtins(self)

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

    def install(self, app: InlineApp) -> None:
        """Run ``/`` lines of ``app`` here and complete them on Tab (the app's completer stays the fallback)."""
        app.commands = self
        app.completer = self.completer(app.completer)

    def completer(self, fallback: Completer | None = None) -> Completer:
        """A prompt_toolkit completer: ``/commands`` with descriptions, then each one's ``--options``."""
        from .complete import registry_completer

        return registry_completer(self, fallback)

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

    def start(self, app: InlineApp, text: str) -> asyncio.Task[None]:
        """Run ``text`` as a task (one command at a time, in order); Esc cancels it (``interrupt``)."""
        task = asyncio.ensure_future(self._run_guarded(app, text))
        self._tasks.add(task)
        app._commands_busy += 1  # line input waits for the command (or for a dialog it opens)

        def done(finished: asyncio.Task[None]) -> None:
            self._tasks.discard(finished)
            app._commands_busy -= 1

        task.add_done_callback(done)
        return task

    def interrupt(self) -> bool:
        """Cancel the running commands (Esc / Ctrl-C): control returns to the prompt; True if any ran."""
        running = [task for task in self._tasks if not task.done()]
        for task in running:
            task.cancel()
        return bool(running)

    async def _run_guarded(self, app: InlineApp, text: str) -> None:
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

    async def run(self, app: InlineApp, text: str) -> None:
        """Run one ``/`` line now; a bad line raises ``InvalidInput`` (shown as an error line by ``start``)."""
        name, words = split_command(text)
        command = self.find(name)
        tool = self.tool_named(name) if command is None else None
        if tool is not None:
            command = self.find("tool")
            words = [tool.name, *words]
        if command is None:
            raise InvalidInput(f"unknown command /{name}: /help lists the commands")
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
