"""Tab completion for a ``CommandRegistry``, built on ``completion.SlashCommands`` (not a second one).

``/`` + Tab lists every command with its description (built-ins, the app's, and tools
callable directly); after a command, its ``--options`` (with their descriptions) and,
after an option of a select or boolean field, its values.  ``/tool`` completes tool
names, then that tool's options and ``-i``; ``/model`` the models, ``/config`` the
settings, ``/help`` the command names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from ..inputs import FormField
from ..widgets.completion import SlashCommand, SlashCommands

if TYPE_CHECKING:
    from .table import CommandTable

__all__ = ["OptionCompleter", "registry_completer"]


class OptionCompleter(Completer):
    """``--name`` of the fields (and ``extra`` words), then a select's options or true/false after ``--name``."""

    def __init__(self, fields: Callable[[], Iterable[FormField]], extra: Iterable[str] = ()) -> None:
        self.fields = fields
        self.extra = tuple(extra)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        words = text.split(" ")
        word = words[-1]
        fields = {spec.name: spec for spec in self.fields()}
        previous = words[-2] if len(words) > 1 else ""
        spec = fields.get(previous[2:]) if previous.startswith("--") else None
        if spec is not None and not word.startswith("-"):
            values = spec.options if spec.kind == "select" else ("true", "false") if spec.kind == "boolean" else ()
            for value in values:
                if value.startswith(word):
                    yield Completion(value, -len(word))
            return
        if word and not word.startswith("-"):
            return
        given = {w[2:].partition("=")[0] for w in words[:-1] if w.startswith("--")}
        for name, field in fields.items():
            option = f"--{name}"
            if name not in given and option.startswith(word):
                yield Completion(option, -len(word), display_meta=field.description)
        for option in self.extra:
            if option.startswith(word) and option not in words[:-1]:
                yield Completion(option, -len(word))


class _Words(Completer):
    """The first word from a list that can change (models, settings, tool names), each with a description."""

    def __init__(self, words: Callable[[], Iterable[tuple[str, str]]], then: Callable[[str], Completer | None]) -> None:
        self.words = words
        self.then = then

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        first, space, rest = text.partition(" ")
        if not space:
            for word, meta in self.words():
                if word.startswith(first):
                    yield Completion(word, -len(first), display_meta=meta)
            return
        following = self.then(first)
        if following is not None:
            yield from following.get_completions(Document(rest, len(rest)), complete_event)


def registry_completer(registry: CommandTable, fallback: Completer | None = None) -> Completer:
    """A completer that asks ``registry`` on every Tab (commands and tools registered later show too)."""
    return _RegistryCompleter(registry, fallback)


class _RegistryCompleter(Completer):
    def __init__(self, registry: CommandTable, fallback: Completer | None) -> None:
        self.registry = registry
        self.fallback = fallback

    def _tool_words(self) -> Iterable[tuple[str, str]]:
        return [(tool.name, tool.description) for tool in self.registry.tools.values()]

    def _tool_options(self, name: str) -> Completer | None:
        tool = self.registry.tools.get(name)
        return _fields_of(tool.fields, ("-i",)) if tool is not None else None

    def _commands(self) -> SlashCommands:
        registry = self.registry
        specs: dict[str, SlashCommand] = {}
        for command in registry.commands.values():
            arguments: Completer | None = _fields_of(command.fields) if command.fields else None
            if command.name == "tool":
                arguments = _Words(self._tool_words, self._tool_options)
            elif command.name == "model":
                arguments = _Words(lambda: [*((m, "") for m in registry.models), ("list", "list the models")], _none)
            elif command.name == "config":
                arguments = _Words(lambda: ((n, s.description) for n, s in registry.settings.items()), _none)
            elif command.name == "help":
                arguments = _Words(lambda: ((c.name, c.description) for c in registry.commands.values()), _none)
            specs[command.name] = SlashCommand(command.description, arguments)
        for tool in registry.tools.values():  # tools by their own name, unless a command has it (precedence)
            if registry.find(tool.name) is None:
                specs[tool.name] = SlashCommand(tool.description, _fields_of(tool.fields))
        return SlashCommands(specs, self.fallback)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        yield from self._commands().get_completions(document, complete_event)


def _fields_of(fields: tuple[FormField, ...], extra: Iterable[str] = ()) -> OptionCompleter:
    return OptionCompleter(lambda: fields, extra)


def _none(_: str) -> Completer | None:
    return None
