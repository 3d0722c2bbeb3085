"""Replaying a scenario: every tick through the real four stages, every ``expect`` field compared.

``replay`` runs the ticks through ``Renderer.in_memory`` wrapped in ``CheckedRenderer``, so the emulator
properties are checked too; it returns a ``ReplayResult`` and never raises for a failing scenario.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.record import dumps_line
from ..core.tick import InMemoryRenderer, Renderer, TickResult
from ..errors import InvariantViolation
from ..outputs import output_to_json
from ..testing.checks import CheckedRenderer
from ..text.cells import WidthPolicy
from .format import EXPECT_FIELDS, STATE_FIELDS, Scenario, ScenarioTick, load_scenario

__all__ = ["FATAL_FIELDS", "Failure", "ReplayResult", "format_value_diff", "iter_trace_lines", "observe", "replay"]

FATAL_FIELDS = ("invariants", "emulator", "error")
"""Failure kinds that stop a replay: an invariant violation, an emulator property, an exception."""


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
    return dumps_line(value)  # json.dumps' default separators are dumps_line's


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


def iter_trace_lines(result: ReplayResult) -> Iterator[str]:
    """The trace as JSON lines (``--trace``)."""
    for entry in result.trace:
        yield dumps_line(entry)
