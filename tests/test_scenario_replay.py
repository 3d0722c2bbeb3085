"""Replay: every expect field is checked, invariants and emulator properties fail a tick, output is deterministic."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from inline_render import Config, CursorPhase, Fault, InvariantViolation, LogAppend, SyncPhase
from inline_render.scenario import EXPECT_FIELDS, STATE_FIELDS, Scenario, parse_scenario, replay
from inline_render.testing import CheckedRenderer

TICK_MODULE = importlib.import_module("inline_render.core.tick")  # the package exports a function named tick
HEADER = {
    "format": "inline-render-scenario",
    "version": 1,
    "name": "sample",
    "terminal": {"columns": 24, "rows": 8, "cursor_row": 0},
    "config": {"viewport_height": 5},
}
TICKS: list[dict[str, Any]] = [
    {"inputs": []},
    {"inputs": [{"type": "log.append", "kind": "text", "text": "\n".join(f"row {i}" for i in range(6))}]},
    {"inputs": []},
    {"inputs": [{"type": "confirm.request", "id": "c1", "title": "Go?"}, {"type": "key", "key": "y"}]},
    {"inputs": []},
    {"inputs": [{"type": "key", "key": "y"}]},
]


def sample(ticks: list[dict[str, Any]] | None = None, **header: Any) -> Scenario:
    lines = [json.dumps({**HEADER, **header})] + [json.dumps(t) for t in (ticks if ticks is not None else TICKS)]
    return parse_scenario("\n".join(lines), name="sample")


def exact(scenario: Scenario) -> Scenario:
    """The scenario with every expectation filled from a run (what --update writes)."""
    result = replay(scenario, update=True)
    assert result.passed and result.updated is not None
    return result.updated


def test_update_fills_every_field_and_the_result_replays_green() -> None:
    """A tick without expect gets all eleven fields; the updated scenario passes with the emulator checks."""
    updated = exact(sample())
    for tick in updated.ticks:
        assert tick.expect is not None and tuple(tick.expect) == EXPECT_FIELDS
    result = replay(updated)
    assert result.passed, result.report()
    assert result.ticks_run == len(TICKS)
    # The values are the real ones: the confirm answer is an output of the last tick only.
    assert updated.ticks[5].expect is not None
    assert updated.ticks[5].expect["outputs"] == [{"type": "confirm.answer", "id": "c1", "ok": True}]
    assert updated.ticks[3].expect is not None and updated.ticks[3].expect["confirm_phase"] == "pending"
    assert updated.ticks[4].expect is not None and updated.ticks[4].expect["confirm_phase"] == "active"


def test_update_keeps_only_the_fields_present() -> None:
    """A tick whose expect names some fields is updated in exactly those fields."""
    ticks = [dict(t) for t in TICKS]
    ticks[1] = {**ticks[1], "expect": {"wrapped_total": 99, "cursor": {"x": 0, "y": 0, "visible": False}}}
    updated = replay(sample(ticks), update=True).updated
    assert updated is not None and updated.ticks[1].expect is not None
    assert set(updated.ticks[1].expect) == {"wrapped_total", "cursor"}
    assert updated.ticks[1].expect["wrapped_total"] == 6


@pytest.mark.parametrize("field", EXPECT_FIELDS)
def test_every_expect_field_is_checked(field: str) -> None:
    """Changing any one expected field of one tick fails exactly that tick and field, with both values."""
    good = exact(sample())
    tick = good.ticks[3]
    assert tick.expect is not None
    value = tick.expect[field]
    wrong: Any
    if isinstance(value, bool) or field == "cursor":
        wrong = {**value, "visible": not value["visible"]}
    elif isinstance(value, int):
        wrong = value + 1
    elif field in STATE_FIELDS:
        wrong = "idle" if value != "idle" else "none"
    elif field == "outputs":
        wrong = [{"type": "quit"}]
    else:
        wrong = [*value, "extra row"]
    ticks = list(good.ticks)
    ticks[3] = type(tick)(tick.line, tick.inputs, tick.raw_inputs, {**tick.expect, field: wrong})
    result = replay(_with_ticks(good, ticks))
    assert [(f.tick, f.line, f.field) for f in result.failures] == [(4, tick.line, field)]
    assert result.failures[0].expected == wrong
    assert result.failures[0].actual == value


def _with_ticks(scenario: Scenario, ticks: list[Any]) -> Scenario:
    return replace(scenario, ticks=tuple(ticks))


def test_failure_description_shows_a_row_diff() -> None:
    """A screen mismatch is described with its location and '-' expected / '+' actual rows."""
    good = exact(sample())
    tick = good.ticks[1]
    assert tick.expect is not None
    screen = list(tick.expect["screen"])
    screen[0] = "row X"
    ticks = list(good.ticks)
    ticks[1] = type(tick)(tick.line, tick.inputs, tick.raw_inputs, {**tick.expect, "screen": screen})
    result = replay(_with_ticks(good, ticks))
    text = result.failures[0].describe("s.jsonl")
    assert text.splitlines()[0] == f"s.jsonl:{tick.line}: tick 2: screen"
    assert '-   0 | "row X"' in text and '+   0 | "row 0"' in text


@pytest.mark.parametrize("config", [{"viewport_height": 5}, {"viewport_height": 5, "check_invariants": False}])
def test_invariant_violation_fails_the_tick_without_expect(monkeypatch: pytest.MonkeyPatch, config: Any) -> None:
    """An InvariantViolation fails its tick (field 'invariants') with no expect, even if the header turns checks off."""
    calls = {"n": 0}

    def broken(before: Any, after: Any, *, log_cleared: bool = False) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise InvariantViolation("visible_start went backwards")

    monkeypatch.setattr(TICK_MODULE, "check_invariants", broken)
    result = replay(sample(config=config))
    assert [(f.tick, f.line, f.field) for f in result.failures] == [(3, 4, "invariants")]
    assert "visible_start went backwards" in result.failures[0].actual
    assert result.ticks_run == 3 and not result.passed


def test_emulator_property_and_exception_fail_the_tick(monkeypatch: pytest.MonkeyPatch) -> None:
    """An emulator property failure and an unexpected exception are reported at their tick, not raised."""

    def bad_check(self: CheckedRenderer, result: Any, data: bytes) -> None:
        raise AssertionError("pyte: inserted row 0 is 'x', expected 'y'")

    with monkeypatch.context() as patch:
        patch.setattr(CheckedRenderer, "check", bad_check)
        result = replay(sample())
    assert [(f.tick, f.field) for f in result.failures] == [(1, "emulator")]
    assert "inserted row 0" in result.failures[0].actual

    def explode(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(TICK_MODULE, "draw_frame", explode)
    result = replay(sample())
    assert [(f.tick, f.field) for f in result.failures] == [(1, "error")]
    assert result.failures[0].actual.startswith("RuntimeError: boom")


def test_trace_has_one_entry_per_tick_and_counts_bytes() -> None:
    """The trace holds every tick's seven state fields, byte count and outputs; byte counts sum to the stream."""
    result = replay(sample())
    assert [entry["tick"] for entry in result.trace] == list(range(1, len(TICKS) + 1))
    assert sum(entry["bytes"] for entry in result.trace) == len(result.data)
    assert all(tuple(entry["state"]) == STATE_FIELDS for entry in result.trace)
    assert result.trace[-1]["outputs"] == [{"type": "confirm.answer", "id": "c1", "ok": True}]


def test_fault_input_cuts_the_write_and_the_next_tick_recovers() -> None:
    """A fault input makes that tick write exactly after_bytes bytes; the next ticks recover with emulator checks."""
    ticks = [
        {"inputs": []},
        {
            "inputs": [
                {"type": "fault", "after_bytes": 17},
                {"type": "log.append", "kind": "text", "text": "a\nb\nc\nd\ne"},
            ]
        },
        {"inputs": []},
        {"inputs": []},
    ]
    result = replay(sample(ticks))
    assert result.passed, result.report()
    assert result.trace[1]["bytes"] == 17
    assert result.trace[-1]["state"]["sync_phase"] == "idle"


def test_replay_is_byte_identical_across_runs_and_environments(tmp_path: Path) -> None:
    """Two replays give the same bytes, and so does a fresh interpreter with a different environment."""
    scenario = sample()
    first, second = replay(scenario), replay(scenario)
    assert first.data == second.data and first.data
    path = tmp_path / "s.jsonl"
    path.write_text(scenario.dumps(), encoding="utf-8")
    out = tmp_path / "bytes.bin"
    env = dict(
        os.environ, TERM="dumb", NO_COLOR="1", COLUMNS="7", LINES="3", LANG="C", PYTHONHASHSEED="12345", TZ="UTC"
    )
    run = subprocess.run(
        [sys.executable, "-m", "inline_render", "replay", "--bytes", str(out), str(path)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert hashlib.sha256(out.read_bytes()).hexdigest() == hashlib.sha256(first.data).hexdigest()


def test_a_write_failing_mid_insertion_reports_the_cursor_hidden() -> None:
    """After a failed insertion (retry pending) cursor_phase says hidden, as the terminal's cursor really is."""
    app = CheckedRenderer(24, 8, config=Config(viewport_height=4))
    app.feed([])
    app.feed([LogAppend("text", "before 0\nbefore 1\nbefore 2")])
    result = app.step([Fault(60), LogAppend("text", "\n".join(f"during {i}" for i in range(6)))])
    assert not result.effect.complete and 0 < result.effect.rows_inserted < 7
    assert result.state.render.sync_phase is SyncPhase.NEEDS_INSERT
    assert not app.terminal.cursor.visible
    assert result.state.render.cursor_phase is CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
    app.feed([])  # the retry inserts the rest and shows the cursor at the composer again
    assert app.state.render.cursor_phase is CursorPhase.VISIBLE_AT_COMPOSER and app.terminal.cursor.visible
