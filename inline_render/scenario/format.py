"""Scenario files (DESIGN, "Scenario files"): load and validate, write.

A scenario is JSON Lines: a header line, then exactly one tick per line.  Tick numbers count from 1: tick ``n``
is on line ``n + 1`` of its file (blank lines are skipped but still counted).  ``expect.screen`` is the *full*
list of screen rows (trailing empty rows included, each row right-trimmed), so a stale row anywhere is caught.
How a line is written (``dumps_line``) is the recorder's (``core.record``), which the core needs to record a run.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.record import FORMAT, VERSION, dumps_line, escape_json, scenario_header
from ..core.state import Config, ConfirmPhase, CursorPhase, RenderState, SyncPhase
from ..errors import InvalidInput, ScenarioError
from ..inputs import MAX_TERMINAL_SIDE, Input, check_terminal_size, input_from_json

__all__ = [
    "EXPECT_FIELDS",
    "FORMAT",
    "STATE_FIELDS",
    "VERSION",
    "Scenario",
    "ScenarioTick",
    "dumps_line",
    "find_scenarios",
    "inert",
    "load_scenario",
    "parse_scenario",
    "write_scenario",
]

STATE_FIELDS: tuple[str, ...] = tuple(RenderState().to_json())
EXPECT_FIELDS: tuple[str, ...] = (*STATE_FIELDS, "screen", "scrollback", "cursor", "outputs")

_PHASES: dict[str, tuple[str, ...]] = {
    "sync_phase": tuple(p.value for p in SyncPhase),
    "confirm_phase": tuple(p.value for p in ConfirmPhase),
    "cursor_phase": tuple(p.value for p in CursorPhase),
}
_HEADER_KEYS = {"format", "version", "name", "description", "terminal", "config"}
_TICK_KEYS = {"inputs", "expect", "note"}
# What a report may not print raw (file names, messages): C0 but newline, DEL, C1, bidi, surrogates.
_UNPRINTABLE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
# Deeper JSON than this is refused before parsing (the recursion of json.loads would fail far deeper).
MAX_JSON_DEPTH = 100
_STRINGS = re.compile(r'"(?:[^"\\]++|\\.)*+"')  # JSON string literals (possessive: linear on huge strings)


@dataclass(frozen=True, slots=True)
class ScenarioTick:
    """One tick line: its inputs (typed and as written), the ``expect`` object (None: absent), a note."""

    line: int
    inputs: tuple[Input, ...]
    raw_inputs: tuple[Any, ...]
    expect: Mapping[str, Any] | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario: terminal, config and ticks (``path`` is None for an in-memory one)."""

    name: str
    columns: int
    rows: int
    cursor_row: int | None
    config: Config
    ticks: tuple[ScenarioTick, ...]
    path: Path | None = None
    description: str | None = None

    @property
    def label(self) -> str:
        """How reports name the scenario: its path, else its name."""
        return str(self.path) if self.path is not None else self.name

    def header(self) -> dict[str, Any]:
        """The header line's object."""
        return scenario_header(self.name, self.columns, self.rows, self.cursor_row, self.config, self.description)

    def dumps(self) -> str:
        """The whole file, canonically formatted (one JSON object per line)."""
        lines = [dumps_line(self.header())]
        for item in self.ticks:
            data: dict[str, Any] = {}
            if item.note is not None:
                data["note"] = item.note
            data["inputs"] = list(item.raw_inputs)
            if item.expect is not None:
                data["expect"] = dict(item.expect)
            lines.append(dumps_line(data))
        return "\n".join(lines) + "\n"


def inert(text: str) -> str:
    """``text`` safe to print on a terminal: controls (but newlines), bidi controls and surrogates as ``\\uXXXX``."""
    return _UNPRINTABLE.sub(escape_json, text)


def _depth_ok(line: str) -> bool:
    """Whether the JSON text nests at most ``MAX_JSON_DEPTH`` deep (strings are skipped)."""
    if line.count("[") + line.count("{") <= MAX_JSON_DEPTH:
        return True
    depth = 0
    for char in _STRINGS.sub("", line):
        if char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return False
        elif char in "]}":
            depth -= 1
    return True


# ---------------------------------------------------------------- loading
def _fail(where: str, message: str) -> ScenarioError:
    return ScenarioError(f"{where}: {message}")


def _int(where: str, name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(where, f"field {name!r} must be an integer between {low} and {high}, got {value!r}")
    return value


def _str_list(where: str, name: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(where, f"expect field {name!r} must be a list of strings")
    return value


def _check_expect(where: str, expect: Any) -> dict[str, Any]:
    if not isinstance(expect, dict):
        raise _fail(where, "field 'expect' must be a JSON object")
    for name, value in expect.items():
        if name in ("wrapped_total", "visible_start", "visible_end", "inserted_until"):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise _fail(where, f"expect field {name!r} must be an integer >= 0, got {value!r}")
        elif name in _PHASES:
            if value not in _PHASES[name]:
                raise _fail(where, f"expect field {name!r} must be one of {', '.join(_PHASES[name])}, got {value!r}")
        elif name in ("screen", "scrollback"):
            _str_list(where, name, value)
        elif name == "cursor":
            ok = isinstance(value, dict) and set(value) == {"x", "y", "visible"}
            ok = ok and all(isinstance(value[k], int) and not isinstance(value[k], bool) for k in ("x", "y"))
            if not ok or not isinstance(value["visible"], bool):
                raise _fail(where, 'expect field \'cursor\' must be {"x": int, "y": int, "visible": bool}')
        elif name == "outputs":
            if not isinstance(value, list) or not all(isinstance(v, dict) and "type" in v for v in value):
                raise _fail(where, "expect field 'outputs' must be a list of objects with a 'type'")
        else:
            raise _fail(where, f"unknown expect field {name!r} (known: {', '.join(EXPECT_FIELDS)})")
    return expect


def _header(where: str, data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _fail(where, "the header must be a JSON object")
    if data.get("format") != FORMAT:
        raise _fail(where, f"field 'format' must be {FORMAT!r}, got {data.get('format')!r}")
    if type(data.get("version")) is not int or data["version"] != VERSION:  # not true, not 1.0
        raise _fail(where, f"field 'version' must be {VERSION}, got {data.get('version')!r}")
    unknown = sorted(set(data) - _HEADER_KEYS)
    if unknown:
        raise _fail(where, f"unknown header field {unknown[0]!r}")
    for name in ("name", "description"):
        if name in data and not isinstance(data[name], str):
            raise _fail(where, f"field {name!r} must be a string")
    if "terminal" not in data:
        raise _fail(where, "missing field 'terminal'")
    return data


def _terminal(where: str, data: Any) -> tuple[int, int, int | None]:
    if not isinstance(data, dict):
        raise _fail(where, "field 'terminal' must be a JSON object")
    unknown = sorted(set(data) - {"columns", "rows", "cursor_row"})
    if unknown:
        raise _fail(where, f"unknown field 'terminal.{unknown[0]}'")
    for name in ("columns", "rows"):
        if name not in data:
            raise _fail(where, f"missing field 'terminal.{name}'")
    columns = _int(where, "terminal.columns", data["columns"], 1, MAX_TERMINAL_SIDE)
    rows = _int(where, "terminal.rows", data["rows"], 1, MAX_TERMINAL_SIDE)
    try:
        check_terminal_size(columns, rows, "field 'terminal'")
    except InvalidInput as error:
        raise _fail(where, str(error)) from None
    cursor_row = data.get("cursor_row", 0)
    if cursor_row is not None:
        cursor_row = _int(where, "terminal.cursor_row", cursor_row, 0, rows - 1)
    return columns, rows, cursor_row


def _tick(where: str, line: int, data: Any) -> ScenarioTick:
    if not isinstance(data, dict):
        raise _fail(where, 'a tick must be a JSON object {"inputs": [...], "expect": {...}}')
    unknown = sorted(set(data) - _TICK_KEYS)
    if unknown:
        raise _fail(where, f"unknown tick field {unknown[0]!r} (known: inputs, expect, note)")
    raw = data.get("inputs", [])
    if not isinstance(raw, list):
        raise _fail(where, "field 'inputs' must be a list")
    inputs: list[Input] = []
    for index, item in enumerate(raw):
        try:
            inputs.append(input_from_json(item, f"inputs[{index}]"))
        except InvalidInput as error:
            raise _fail(where, str(error)) from None
    expect = _check_expect(where, data["expect"]) if "expect" in data else None
    note = data.get("note")
    if note is not None and not isinstance(note, str):
        raise _fail(where, "field 'note' must be a string")
    return ScenarioTick(line, tuple(inputs), tuple(raw), expect, note)


def parse_scenario(text: str, path: Path | str | None = None, name: str | None = None) -> Scenario:
    """Parse a scenario's text; ``ScenarioError`` names the file, line and field of any problem."""
    label = str(path) if path is not None else (name or "<scenario>")
    lines = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not lines:
        raise ScenarioError(f"{label}:1: empty file: missing the header line")

    def load(number: int, line: str) -> Any:
        if not _depth_ok(line):
            raise ScenarioError(f"{label}:{number}: JSON nested deeper than {MAX_JSON_DEPTH} levels")
        try:
            return json.loads(line)
        except json.JSONDecodeError as error:
            raise ScenarioError(f"{label}:{number}: invalid JSON: {error.msg} (column {error.colno})") from None
        except (ValueError, RecursionError) as error:  # an integer of over 4,300 digits (int_max_str_digits)
            raise ScenarioError(f"{label}:{number}: invalid JSON: {error}") from None

    number, line = lines[0]
    where = f"{label}:{number}"
    header = _header(where, load(number, line))
    columns, rows, cursor_row = _terminal(where, header["terminal"])
    try:
        config = Config.from_json(header.get("config", {}))
    except InvalidInput as error:
        raise _fail(where, str(error)) from None
    ticks = tuple(_tick(f"{label}:{n}", n, load(n, text)) for n, text in lines[1:])
    default_name = Path(path).stem if path is not None else (name or "scenario")
    return Scenario(
        name=header.get("name", default_name),
        columns=columns,
        rows=rows,
        cursor_row=cursor_row,
        config=config,
        ticks=ticks,
        path=Path(path) if path is not None else None,
        description=header.get("description"),
    )


def load_scenario(path: Path | str) -> Scenario:
    """Read and parse a scenario file."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise ScenarioError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ScenarioError(f"{path}:{line}: not UTF-8 text (byte offset {error.start})") from None
    return parse_scenario(text.removeprefix("\ufeff"), path)


def find_scenarios(paths: Iterable[Path | str]) -> list[Path]:
    """The ``*.jsonl`` files named or found (recursively, sorted) under ``paths``."""
    found: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.jsonl") if p.is_file()))
        elif path.exists():
            found.append(path)
        else:
            raise ScenarioError(f"{path}: no such file or directory")
    return found


def write_scenario(scenario: Scenario, path: Path | str | None = None) -> bool:
    """Write ``scenario`` (atomically) to ``path`` or its own path; False when the file was already equal."""
    target = Path(path) if path is not None else scenario.path
    if target is None:
        raise ValueError("write_scenario: the scenario has no path")
    text = scenario.dumps()
    try:
        if target.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    temporary = target.with_name(target.name + ".tmp")
    temporary.write_text(text, encoding="utf-8", newline="\n")
    os.replace(temporary, target)
    return True
