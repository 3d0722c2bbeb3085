"""Hostile scenario files and inputs: clean ERROR lines (exit 2), no traceback; reports and recordings stay inert."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from inline_render import Config, InvalidInput, LogAppend, Renderer, input_from_json
from inline_render.errors import ScenarioError
from inline_render.inputs import MAX_TERMINAL_CELLS
from inline_render.protocol.codec import Decoder
from inline_render.protocol.codelia.session import Session
from inline_render.scenario import load_scenario, parse_scenario, replay
from inline_render.scenario.cli import main

HEADER = '{"format": "inline-render-scenario", "version": 1, "terminal": {"columns": 20, "rows": 6}}\n'
HOSTILE_TICKS = {
    "deep": '{"inputs": ' + "[" * 100_000 + "]" * 100_000 + "}\n",
    "digits": '{"inputs": [{"type": "fault", "after_bytes": 1' + "0" * 5000 + "}]}\n",
    "overflow": '{"inputs": [{"type": "clock", "now": 1' + "0" * 400 + "}]}\n",
    "cells": '{"inputs": [{"type": "resize", "columns": 10000, "rows": 10000}]}\n',
}
# Bytes a report must never carry: C0 but \n, DEL, C1, bidi controls, and anything non-UTF-8.
UNSAFE = [chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]]


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(args), out=out)
    return status, out.getvalue()


def assert_inert(text: str) -> None:
    bad = sorted({c for c in text.replace("\n", "") if c in UNSAFE or "\ud800" <= c <= "\udfff"})
    assert not bad, f"unsafe characters {bad!r} in {text!r}"


@pytest.mark.parametrize("kind", sorted(HOSTILE_TICKS))
def test_hostile_scenario_line_is_an_error_line_not_a_traceback(tmp_path: Path, kind: str) -> None:
    """Deep nesting, huge integers, float overflow, absurd sizes: `ERROR file:line: ...`, exit 2."""
    path = tmp_path / f"{kind}.jsonl"
    path.write_text(HEADER + HOSTILE_TICKS[kind], encoding="utf-8")
    with pytest.raises(ScenarioError, match=f"^{path}:2: "):
        load_scenario(path)
    status, out = run(str(path))
    assert status == 2, out
    assert out.startswith(f"ERROR {path}:2: ") and "Traceback" not in out


def test_hostile_header_sizes_are_rejected_in_cells(tmp_path: Path) -> None:
    """A header terminal within the per-side limit but over the cell limit is an error at line 1."""
    text = HEADER.replace('"columns": 20, "rows": 6', '"columns": 10000, "rows": 5000')
    with pytest.raises(ScenarioError, match=r"^s:1: .*cells"):
        parse_scenario(text, "s")


def test_cell_limit_applies_to_renderer_and_resize_input() -> None:
    """Renderer and the resize input refuse more than MAX_TERMINAL_CELLS cells with an InvalidInput."""
    import time

    start = time.process_time()
    with pytest.raises(InvalidInput, match="cells"):
        Renderer.in_memory(10_000, 10_000)
    assert time.process_time() - start < 1  # refused before 100,000,000 cells were allocated
    with pytest.raises(InvalidInput, match=r"input \(resize\): .*cells"):
        input_from_json({"type": "resize", "columns": 2000, "rows": 2000})
    side = int(MAX_TERMINAL_CELLS**0.5)
    assert input_from_json({"type": "resize", "columns": side, "rows": side})


def test_largest_allowed_terminal_replays_quickly() -> None:
    """A scenario at the cell limit (resize to it, log, answer) replays with both emulators in a few seconds."""
    import time

    side = int(MAX_TERMINAL_CELLS**0.5)
    text = HEADER + "".join(
        json.dumps(line) + "\n"
        for line in (
            {"inputs": [{"type": "resize", "columns": side, "rows": side}]},
            {"inputs": [{"type": "log.append", "kind": "assistant", "text": "x " * 5000}]},
            {"inputs": []},
            {"inputs": [{"type": "resize", "columns": 30, "rows": 8}]},
        )
    )
    start = time.monotonic()
    result = replay(parse_scenario(text))
    assert result.passed, result.report()
    assert time.monotonic() - start < 10


def test_clock_overflow_is_invalid_input() -> None:
    """clock.now = 10**400 (a JSON integer no float holds) is an InvalidInput naming the field."""
    with pytest.raises(InvalidInput, match="input \\(clock\\): field 'now' must be a finite number"):
        input_from_json({"type": "clock", "now": 10**400})


def test_huge_context_percent_is_a_status_not_an_internal_error() -> None:
    """run.context with a 400-digit percentage is clamped like any number, not the protocol's catch-all."""
    session = Session()
    line = b'{"jsonrpc":"2.0","method":"run.context","params":{"run_id":"r","context_left_percent":1' + b"0" * 400
    items = Decoder().feed(line + b"}}\n")
    texts = [str(i) for item in items for i in session.receive(item).inputs]
    assert texts and not any("Internal error" in t for t in texts), texts


def test_fail_report_and_names_are_printed_inert(tmp_path: Path) -> None:
    """A FAIL report quoting C1, bidi and ESC from the file, and a file name with ESC, print no control."""
    path = tmp_path / "evil\x1b[2J\u202e.jsonl"
    tick = {"inputs": [], "expect": {"screen": ["\x9b2J\x1b]52;c;x\x07\u202e\ud800"], "outputs": [{"type": "\x9d"}]}}
    path.write_text(HEADER + json.dumps(tick) + "\n", encoding="utf-8")
    status, out = run(str(path))
    assert status == 1 and "FAIL" in out
    assert_inert(out)
    assert "\\u009b2J" in out  # the report still shows what was there, escaped
    broken = tmp_path / "bad\x9b.jsonl"
    broken.write_text(HEADER + '{"inputs": [{"type": "key\x9b"}]}\n', encoding="utf-8")
    status, out = run(str(broken))
    assert status == 2
    assert_inert(out)


def test_recording_a_lone_surrogate_does_not_crash_the_app(tmp_path: Path) -> None:
    """--record with a lone surrogate in a log entry: the tick runs, the file is written and replays green."""
    path = tmp_path / "rec.jsonl"
    renderer = Renderer.in_memory(30, 8, config=Config(viewport_height=4))
    with renderer.record_to(path):
        renderer.feed([LogAppend("assistant", "bad \ud800 text \u202e \x9b")])
    raw = path.read_bytes()
    raw.decode("utf-8")  # valid UTF-8: the surrogate and the controls are JSON escapes
    assert b"\\ud800" in raw and b"\\u202e" in raw and b"\\u009b" in raw
    result = replay(path)
    assert result.passed, result.report()


def test_plugin_reports_hostile_files_without_a_traceback(tmp_path: Path) -> None:
    """The pytest plugin reports a 100,000-deep and a huge-number scenario as clean failures naming file:line."""
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    for kind in ("deep", "digits"):
        (scenarios / f"{kind}.jsonl").write_text(HEADER + HOSTILE_TICKS[kind], encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "scenarios"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1, proc.stdout
    assert "deep.jsonl:2: " in proc.stdout and "digits.jsonl:2: " in proc.stdout
    assert "Traceback" not in proc.stdout and "RecursionError" not in proc.stdout and "\n    def " not in proc.stdout


def test_a_failing_recording_disk_stops_the_recording_not_the_app(tmp_path: Path) -> None:
    """A recording whose writes fail (a full disk: /dev/full) stops with an error; the renderer keeps running."""
    renderer = Renderer.in_memory(30, 8, config=Config(viewport_height=4))
    recorder = renderer.record_to(tmp_path / "rec.jsonl")
    recorder.stream.close()
    recorder.stream = open("/dev/full", "w", encoding="utf-8")  # noqa: SIM115 - the recorder owns and closes it
    renderer.feed([LogAppend("assistant", "still drawn")])
    renderer.feed([LogAppend("assistant", "and again")])
    assert recorder.closed and recorder.error is not None and "recording stopped after 0 ticks" in recorder.error
    assert "and again" in "\n".join(renderer.terminal.screen_lines())


def test_an_open_dialog_does_not_rewrap_its_huge_message_every_tick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 50,000-line confirm message is wrapped once, not on every tick it stays open (a tick's cost stays bounded)."""
    import inline_render.widgets.view as view
    from inline_render import ConfirmRequest

    calls = []
    real = view.wrap_line
    monkeypatch.setattr(view, "wrap_line", lambda *args: calls.append(1) or real(*args))
    renderer = Renderer.in_memory(80, 24)
    renderer.feed([ConfirmRequest("c", "Allow?", "line\n" * 50_000)])
    first = len(calls)
    assert first >= 50_000
    for _ in range(3):
        renderer.feed([])
    assert len(calls) == first
