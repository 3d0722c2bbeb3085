"""The built-in slash commands (seed 003): ``/help``, ``/clear``, ``/exit``, ``/status``, ``/model``,
``/config``, and the manual tools' ``/tools`` (``/ts``) and ``/tool NAME [--arg value] | -i`` (``/t``).

Written on the command table's public API only (``table.CommandTable``); each is a ``Command`` with ``builtin=True``, so
an app command of the same name is refused unless it asks to replace it.  Output goes to the log
as ``status`` lines (``/help``, ``/status``...), ``success`` (a tool's result) or ``error``.
"""

from __future__ import annotations

import inspect
import shlex
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInput
from ..inputs import LogClear
from ..outputs import FormValue
from ..widgets.forms import convert_value, field_hint
from .arguments import parse_arguments, usage
from .table import CommandContext, ManualTool

if TYPE_CHECKING:
    from .table import CommandTable

__all__ = ["BUILTIN_NAMES", "add_builtins", "help_lines", "tools_lines"]

TOOLS_HINT = "Run: /tool <name> [--arg value ...]  (-i: fill a form)"

BUILTIN_NAMES = ("help", "clear", "exit", "status", "model", "config", "tools", "tool")
"""Every built-in, in the order ``/help`` lists them (``CommandRegistry(builtins=...)`` picks some)."""


def add_builtins(registry: CommandTable, names: Iterable[str] = BUILTIN_NAMES) -> None:
    """Register the built-ins ``names`` (all by default) on ``registry``; an unknown name raises ``InvalidInput``."""
    wanted = tuple(names)
    unknown = [name for name in wanted if name not in BUILTIN_NAMES]
    if unknown:
        raise InvalidInput(
            f"no built-in command {', '.join(map(repr, unknown))}; built-ins: {', '.join(BUILTIN_NAMES)}"
        )
    add = registry.add
    for name in BUILTIN_NAMES:  # in the listed order, whatever order they were asked in
        if name not in wanted:
            continue
        handler, description, aliases, free = _BUILTINS[name]
        add(name, handler, description, aliases=aliases, builtin=True, free=free)


def help_lines(registry: CommandTable, name: str | None = None) -> list[str]:
    """``/help``: one line per command (built-ins first), generated from the registry; ``/help NAME``: its usage."""
    if name:
        command = registry.find(name)
        tool = registry.tools.get(name.removeprefix("/"))
        if command is None and tool is None:
            raise InvalidInput(f"/help: no command /{name.removeprefix('/')}")
        fields = command.fields if command is not None else tool.fields if tool is not None else ()
        title = command.description if command is not None else (tool.description if tool is not None else "")
        shown = command.name if command is not None else name.removeprefix("/")
        lines = [f"/{shown} - {title}" if title else f"/{shown}", f"  usage: {usage(shown, fields)}"]
        for spec in fields:
            extra = ", ".join(
                part
                for part in (
                    "required" if spec.required else "",
                    f"default {spec.default}" if spec.default is not None else "",
                )
                if part
            )
            described = " ".join(p for p in (spec.description, field_hint(spec), f"({extra})" if extra else "") if p)
            lines.append(f"  --{spec.name}  {described}".rstrip())
        return lines
    commands = sorted(registry.commands.values(), key=lambda c: (not c.builtin, c.name))
    width = max((len(c.name) for c in commands), default=4) + 1
    lines = ["Commands:"]
    for command in commands:
        alias = f" (/{', /'.join(command.aliases)})" if command.aliases else ""
        lines.append(f"  /{command.name:<{width}} {command.description}{alias}".rstrip())
    if registry.tools:
        how = " (/tools lists them)" if registry.find("tools") is not None else ""
        lines.append(f"Manual tools: {', '.join(sorted(registry.tools))}{how}")
    return lines


def tools_lines(registry: CommandTable) -> list[str]:
    """Seed 003's ``displayManualTools``: tools grouped by category, then how to run one."""
    if not registry.tools:
        return ["No manual tools."]
    groups: dict[str, list[ManualTool]] = defaultdict(list)
    for tool in registry.tools.values():
        groups[tool.category or "General"].append(tool)
    lines = ["Available manual tools:"]
    for category in sorted(groups):
        lines.append(f"  {category}:")
        for tool in sorted(groups[category], key=lambda t: t.name):
            lines.append(f"    {tool.name} - {tool.description}" if tool.description else f"    {tool.name}")
    lines.append(TOOLS_HINT)
    return lines


def _log_lines(context: CommandContext, lines: list[str]) -> None:
    context.app.log("status", "\n".join(lines))


def _help(context: CommandContext) -> None:
    _log_lines(context, help_lines(context.registry, context.words[0] if context.words else None))


def _clear(context: CommandContext) -> None:
    context.app.send(LogClear())
    if context.registry.on_clear is not None:
        context.registry.on_clear()


def _exit(context: CommandContext) -> None:
    context.app.exit(0)


def _status(context: CommandContext) -> None:
    registry = context.registry
    fields = context.app.status_fields
    lines = [f"{name or 'status'}: {value}" for name, value in fields.items()]
    if registry.model is not None and "model" not in fields:
        lines.append(f"model: {registry.model}")
    lines.append(f"manual tools: {len(registry.tools)}")
    if registry.status_lines is not None:
        lines += list(registry.status_lines())
    _log_lines(context, lines)


def _model(context: CommandContext) -> None:
    registry, words = context.registry, context.words
    if len(words) > 1:
        raise InvalidInput("/model takes one name; usage: /model [list | NAME]")
    if not words:
        _log_lines(context, [f"model: {registry.model or '(none)'}"])
    elif words[0] == "list":
        shown = [f"{'*' if m == registry.model else ' '} {m}" for m in registry.models]
        _log_lines(context, shown or ["No models to choose from."])
    elif registry.models and words[0] not in registry.models:
        raise InvalidInput(f"/model: unknown model {words[0]!r}; choose one of {', '.join(registry.models)}")
    else:
        registry.model = words[0]
        context.app.status(model=words[0])
        if registry.on_model is not None:
            registry.on_model(words[0])
        context.app.log("success", f"model: {words[0]}")


def _config(context: CommandContext) -> None:
    registry, words = context.registry, context.words
    if not words:
        lines = [
            f"{name} = {registry.values.get(name)}  {spec.description}".rstrip()
            for name, spec in registry.settings.items()
        ]
        _log_lines(context, lines or ["No settings."])
        return
    key = words[0]
    spec = registry.settings.get(key)
    if spec is None:
        known = ", ".join(registry.settings) or "none"
        raise InvalidInput(f"/config: unknown setting {key!r} (settings: {known})")
    if len(words) == 1:
        _log_lines(context, [f"{key} = {registry.values.get(key)}"])
        return
    if len(words) > 2:
        raise InvalidInput(f"/config: one value for {key}; quote a value with spaces")
    try:
        value = convert_value(spec, words[1])
    except InvalidInput as error:
        raise InvalidInput(f"/config: {error}") from None
    registry.values[key] = value
    if registry.on_config is not None:
        registry.on_config(key, value)
    context.app.log("success", f"{key} = {value}")


def _tools(context: CommandContext) -> None:
    _log_lines(context, tools_lines(context.registry))


async def _tool(context: CommandContext) -> None:
    registry, words = context.registry, list(context.words)
    if not words:
        raise InvalidInput(f"/tool needs a tool name; {TOOLS_HINT}")
    tool = registry.tool_named(words[0])
    if tool is None:
        known = ", ".join(sorted(registry.tools)) or "none"
        raise InvalidInput(f"/tool: unknown tool {words[0]!r} (tools: {known})")
    rest = words[1:]
    interactive = "-i" in rest or "--interactive" in rest
    rest = [word for word in rest if word not in ("-i", "--interactive")]
    if interactive:
        # Words typed with -i are the form's starting values; the form checks everything again.
        typed = _given(tool, rest)
        fields = tuple(
            replace(spec, default=typed[spec.name]) if typed.get(spec.name) is not None else spec
            for spec in tool.fields
        )
        title = f"[{tool.name}] {tool.label}" if tool.label else f"[{tool.name}]"
        values = await context.app.form(title, fields, tool.description)
        if values is None:
            context.app.log("status", f"{tool.name}: cancelled")
            return
    else:
        try:
            values = parse_arguments(tool.fields, rest, tool.name)
        except InvalidInput as error:
            raise InvalidInput(f"{error}; usage: {usage('tool ' + tool.name, tool.fields)} (or -i)") from None
    if tool.needs_approval:
        # The call as it would be typed: a true boolean is a bare --flag, a false or unset one is left out.
        summary = " ".join(
            f"--{k}" if v is True else shlex.join([f"--{k}", str(v)])
            for k, v in values.items()
            if v is not None and v is not False
        )
        answer = await context.app.approve(f"{tool.name} {summary}".strip(), risk=tool.risk, allow_remember=False)
        if answer == "no":
            context.app.log("status", f"{tool.name}: not approved")
            return
    result = tool.handler(CommandContext(context.app, registry, tool.name, values, tuple(rest)))
    if inspect.isawaitable(result):
        result = await result
    if result is not None:
        context.app.log("success", f"{tool.name}: {result}")


def _given(tool: ManualTool, words: list[str]) -> dict[str, FormValue]:
    """The arguments typed before ``-i`` (checked, but a missing required one is left to the form)."""
    return parse_arguments(tuple(replace(spec, required=False) for spec in tool.fields), words, tool.name)


# name -> (handler, description, aliases, free): what ``add_builtins`` registers for each name.
_BUILTINS: dict[str, tuple[Callable[[CommandContext], Any], str, tuple[str, ...], bool]] = {
    "help": (_help, "Show the commands (/help NAME: one command's options)", (), True),
    "clear": (_clear, "Clear the conversation", (), False),
    "exit": (_exit, "Exit the session", ("quit",), False),
    "status": (_status, "Show the session's state", (), False),
    "model": (_model, "Show or switch the model (/model list, /model NAME)", (), True),
    "config": (_config, "View or change settings (/config KEY VALUE)", (), True),
    "tools": (_tools, "List the manual tools by category", ("ts",), False),
    "tool": (_tool, "Run a manual tool: /tool NAME [--arg value ...] or -i", ("t",), True),
}
