"""Scenario files (DESIGN, "Scenario files"): load and validate, replay, update, record.

A scenario is JSON Lines: a header line, then exactly one tick per line.
``replay`` runs every tick through the real four stages (``Renderer.in_memory``
wrapped in ``CheckedRenderer``, so the emulator properties are checked too),
compares every ``expect`` field that is present and returns a ``ReplayResult``;
it never raises for a failing scenario.  Tick numbers count from 1: tick ``n``
is on line ``n + 1`` of its file (blank lines are skipped but still counted).

``expect.screen`` is the *full* list of screen rows (trailing empty rows
included, each row right-trimmed), so a stale row anywhere is caught.
"""

from __future__ import annotations

import json
import os
import re
import traceback
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .errors import InvalidInput, InvariantViolation, ScenarioError
from .inputs import MAX_TERMINAL_SIDE, Input, check_terminal_size, input_from_json
from .outputs import output_to_json
from .state import Config, ConfirmPhase, CursorPhase, RenderState, SyncPhase
from .testing.checks import CheckedRenderer
from .text import WidthPolicy
from .tick import InMemoryRenderer, Renderer, TickResult

__all__ = [
    "EXPECT_FIELDS",
    "FORMAT",
    "STATE_FIELDS",
    "VERSION",
    "Failure",
    "ReplayResult",
    "Scenario",
    "ScenarioTick",
    "dumps_line",
    "find_scenarios",
    "format_value_diff",
    "inert",
    "iter_trace_lines",
    "load_scenario",
    "observe",
    "parse_scenario",
    "replay",
    "write_scenario",
]

FORMAT = "inline-render-scenario"
VERSION = 1
STATE_FIELDS: tuple[str, ...] = tuple(RenderState().to_json())
EXPECT_FIELDS: tuple[str, ...] = (*STATE_FIELDS, "screen", "scrollback", "cursor", "outputs")
FATAL_FIELDS = ("invariants", "emulator", "error")
"""Failure kinds that stop a replay: an invariant violation, an emulator property, an exception."""

_PHASES: dict[str, tuple[str, ...]] = {
    "sync_phase": tuple(p.value for p in SyncPhase),
    "confirm_phase": tuple(p.value for p in ConfirmPhase),
    "cursor_phase": tuple(p.value for p in CursorPhase),
}
_HEADER_KEYS = {"format", "version", "name", "description", "terminal", "config"}
_TICK_KEYS = {"inputs", "expect", "note"}
# Characters json.dumps(ensure_ascii=False) leaves raw but that break lines, hide or reorder text in
# editors (bidi controls), or cannot be written as UTF-8 at all (lone surrogates).
_ESCAPE_MORE = re.compile("[\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
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
        data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": self.name}
        if self.description:
            data["description"] = self.description
        data["terminal"] = {"columns": self.columns, "rows": self.rows, "cursor_row": self.cursor_row}
        data["config"] = self.config.to_json()
        return data

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


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def dumps_line(data: Any) -> str:
    """One JSON line, readable (non-ASCII kept) but with C1, bidi controls, surrogates and line separators escaped.

    The result is always encodable as UTF-8 and prints inert on a terminal.
    """
    return _ESCAPE_MORE.sub(_escape, json.dumps(data, ensure_ascii=False, separators=(", ", ": ")))


def inert(text: str) -> str:
    """``text`` safe to print on a terminal: controls (but newlines), bidi controls and surrogates as ``\\uXXXX``."""
    return _UNPRINTABLE.sub(_escape, text)


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


# ---------------------------------------------------------------- replay
@dataclass(frozen=True, slots=True)
class Failure:
    """One failed check: at ``tick`` (line ``line``), ``field`` was ``actual`` instead of ``expected``.

    For the fatal kinds (``invariants``, ``emulator``, ``error``) ``expected`` is
    None and ``actual`` is the message; the replay stopped there.
    """

    tick: int
    line: int
    field: str
    expected: Any
    actual: Any

    @property
    def fatal(self) -> bool:
        return self.field in FATAL_FIELDS

    def describe(self, path: object = None, indent: str = "  ") -> str:
        """Multi-line text: where (``path:line: tick n`` with a path), which field, and an expected/actual diff."""
        head = f"{path}:{self.line}: tick {self.tick}: {self.field}" if path is not None else ""
        head = head or f"tick {self.tick} (line {self.line}): {self.field}"
        body = str(self.actual) if self.fatal else format_value_diff(self.expected, self.actual)
        return head + "\n" + "\n".join(indent + line for line in body.splitlines())


def _json(value: Any) -> str:
    return _ESCAPE_MORE.sub(_escape, json.dumps(value, ensure_ascii=False))


def format_value_diff(expected: Any, actual: Any) -> str:
    """Expected vs actual: rows side by side for lists of rows, else both JSON values."""
    if isinstance(expected, list) and isinstance(actual, list) and all(isinstance(v, str) for v in expected + actual):
        out = [f"rows: expected {len(expected)}, actual {len(actual)} (- expected, + actual)"]
        for index in range(max(len(expected), len(actual))):
            want = expected[index] if index < len(expected) else None
            got = actual[index] if index < len(actual) else None
            if want == got:
                out.append(f"  {index:3} | {_json(want)}")
            else:
                if want is not None:
                    out.append(f"- {index:3} | {_json(want)}")
                if got is not None:
                    out.append(f"+ {index:3} | {_json(got)}")
        return "\n".join(out)
    return f"expected: {_json(expected)}\n  actual: {_json(actual)}"


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """The outcome of a replay: failures, the exact bytes written, a per-tick trace."""

    scenario: Scenario
    failures: tuple[Failure, ...]
    ticks_run: int
    data: bytes
    trace: tuple[dict[str, Any], ...]
    updated: Scenario | None = None
    """With ``update=True``: the scenario with every expectation taken from this run (None on a fatal failure)."""

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def fatal(self) -> Failure | None:
        """The failure that stopped the replay, if any."""
        return next((f for f in self.failures if f.fatal), None)

    def report(self, limit: int = 1, path: object = None) -> str:
        """The failures of the first ``limit`` failing ticks, described (located at ``path:line`` if given)."""
        ticks = sorted({f.tick for f in self.failures})
        shown = [f for f in self.failures if f.tick in ticks[:limit]]
        text = "\n".join(f.describe(path) for f in shown)
        if len(ticks) > limit:
            text += f"\n... and failures in {len(ticks) - limit} later tick(s): {', '.join(map(str, ticks[limit:]))}"
        return text


def observe(renderer: InMemoryRenderer, result: TickResult) -> dict[str, Any]:
    """Every ``expect`` field's actual value after a tick."""
    terminal = renderer.terminal
    cursor = terminal.cursor
    data: dict[str, Any] = dict(result.state.render.to_json())
    data["screen"] = terminal.screen_lines()
    data["scrollback"] = list(terminal.scrollback)
    data["cursor"] = {"x": cursor.x, "y": cursor.y, "visible": cursor.visible}
    data["outputs"] = [output_to_json(o) for o in result.outputs]
    return data


def _exception_text(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    where = "; ".join(f"{Path(f.filename).name}:{f.lineno} in {f.name}" for f in frames)
    return f"{type(error).__name__}: {error}" + (f"\n(at {where})" if where else "")


def replay(
    source: Scenario | Path | str, update: bool = False, *, emulators: bool = True, use_pyte: bool = True
) -> ReplayResult:
    """Run every tick of a scenario and check it; ``ScenarioError`` only when the file is malformed.

    ``emulators`` runs the ticks through ``CheckedRenderer`` (TestTerminal, and
    pyte when installed, ``use_pyte`` and the width policy is ``codepoint``, the
    only one pyte implements), so every emulator property is a check too.  The
    RenderState invariants are checked on every tick even if the header's
    config turns ``check_invariants`` off.  With ``update`` the result carries
    ``updated``: the scenario whose ``expect`` objects hold this run's values
    (the fields present, or all of ``EXPECT_FIELDS`` for a tick without an
    ``expect``).
    """
    scenario = source if isinstance(source, Scenario) else load_scenario(source)
    size, cursor_row = (scenario.columns, scenario.rows), scenario.cursor_row
    config = replace(scenario.config, check_invariants=True)  # a replay always checks them, whatever the header says
    # pyte draws code point by code point: it can only check the codepoint width policy.
    use_pyte = use_pyte and config.width_policy is WidthPolicy.CODEPOINT
    checked = CheckedRenderer(*size, config=config, cursor_row=cursor_row, use_pyte=use_pyte) if emulators else None
    renderer = (
        checked.renderer if checked is not None else Renderer.in_memory(*size, config=config, cursor_row=cursor_row)
    )
    sink: Any = renderer.backend.sink
    failures: list[Failure] = []
    trace: list[dict[str, Any]] = []
    new_ticks: list[ScenarioTick] = []
    for number, item in enumerate(scenario.ticks, 1):
        before = len(sink.data)
        failure: Failure | None = None
        try:
            result = checked.step(item.inputs) if checked is not None else renderer.step(item.inputs)
        except InvariantViolation as error:
            failure = Failure(number, item.line, "invariants", None, f"InvariantViolation: {error}")
        except AssertionError as error:  # an emulator property (CheckedRenderer)
            failure = Failure(number, item.line, "emulator", None, str(error))
        except Exception as error:
            failure = Failure(number, item.line, "error", None, _exception_text(error))
        if failure is not None:
            failures.append(failure)
            return ReplayResult(scenario, tuple(failures), number, bytes(sink.data), tuple(trace))
        actual = observe(renderer, result)
        trace.append(
            {
                "tick": number,
                "state": {k: actual[k] for k in STATE_FIELDS},
                "bytes": len(sink.data) - before,
                "outputs": actual["outputs"],
            }
        )
        for name, want in (item.expect or {}).items():
            if want != actual[name]:
                failures.append(Failure(number, item.line, name, want, actual[name]))
        if update:
            names = item.expect if item.expect is not None else EXPECT_FIELDS
            new_ticks.append(replace(item, expect={k: actual[k] for k in EXPECT_FIELDS if k in names}))
    updated = replace(scenario, ticks=tuple(new_ticks)) if update else None
    return ReplayResult(scenario, tuple(failures), len(scenario.ticks), bytes(sink.data), tuple(trace), updated)


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


def iter_trace_lines(result: ReplayResult) -> Iterator[str]:
    """The trace as JSON lines (``--trace``)."""
    for entry in result.trace:
        yield dumps_line(entry)
