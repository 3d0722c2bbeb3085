"""A slash command line's words: ``split_command``, the fields they fill (``parse_arguments``) and ``usage``."""

from __future__ import annotations

import shlex
from collections.abc import Iterable

from ..errors import InvalidInput
from ..inputs import FormField
from ..outputs import FormValue
from ..widgets.forms import convert_value, field_hint, finish_values

__all__ = ["parse_arguments", "split_command", "usage"]


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
