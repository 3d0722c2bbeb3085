"""Completion for the composer: prompt_toolkit completers, asked by the shell (never by the pure core).

Tab in the composer is a ``CompleteRequest`` output; ``InlineApp`` asks its
``completer`` (any prompt_toolkit ``Completer``) and feeds the answer back as a
``Completions`` input, which the core shows as a menu under the composer's text.
``complete`` does that asking; ``SlashCommands`` completes ``/commands`` with
their descriptions, then each command's arguments (a list of words, or any
completer: ``PathCompleter()`` for paths), and hands other text to a fallback.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter, WordCompleter
from prompt_toolkit.document import Document

from ..inputs import Completions
from ..outputs import CompleteRequest

__all__ = ["PathCompleter", "SlashCommand", "SlashCommands", "complete"]

MAX_ITEMS = 200


class SlashCommand:
    """One command: its description and what completes its arguments (words, a completer, or nothing)."""

    def __init__(self, description: str = "", arguments: Sequence[str] | Completer | None = None) -> None:
        self.description = description
        self.arguments: Completer | None = (
            WordCompleter(list(arguments)) if isinstance(arguments, Sequence) else arguments
        )


class SlashCommands(Completer):
    """``/`` commands with descriptions, then their arguments; any other text goes to ``fallback``."""

    def __init__(self, commands: Mapping[str, SlashCommand | str], fallback: Completer | None = None) -> None:
        self.commands: dict[str, SlashCommand] = {
            name if name.startswith("/") else f"/{name}": spec if isinstance(spec, SlashCommand) else SlashCommand(spec)
            for name, spec in commands.items()
        }
        self.fallback = fallback

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/"):
            if self.fallback is not None:
                yield from self.fallback.get_completions(document, complete_event)
            return
        name, space, rest = text.partition(" ")
        if not space:
            for command, spec in self.commands.items():
                if command.startswith(name):
                    yield Completion(command, -len(name), display_meta=spec.description)
            return
        chosen = self.commands.get(name)
        if chosen is not None and chosen.arguments is not None:
            sub = Document(rest, len(rest))
            yield from chosen.arguments.get_completions(sub, complete_event)


def complete(completer: Completer, request: CompleteRequest) -> Completions:
    """Ask ``completer`` about the composer's text and cursor: the ``Completions`` input that answers.

    Completions that replace a different span than the first are left out (one menu, one span).
    """
    document = Document(request.text, request.cursor)
    items: list[str] = []
    meta: list[str] = []
    span: int | None = None
    for completion in completer.get_completions(document, CompleteEvent(completion_requested=True)):
        if span is None:
            span = -completion.start_position
        if -completion.start_position != span or completion.text in items:
            continue
        items.append(completion.text)
        meta.append(completion.display_meta_text)
        if len(items) >= MAX_ITEMS:
            break
    return Completions(request.text, request.cursor, tuple(items), tuple(meta), span or 0)
