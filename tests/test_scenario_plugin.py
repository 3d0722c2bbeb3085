"""The pytest plugin: scenario files are items, failures point at file:line with a diff, opt-out, update."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from inline_render.scenario import find_scenarios

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "scenarios"
SAMPLE = "confirm_open_close_while_log_overflows.jsonl"


def pytest_in(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-q", *args],
        cwd=directory,
        capture_output=True,
        text=True,
        check=False,
    )


def project(tmp_path: Path, ini: str = "") -> Path:
    """A tiny project: a good and a broken scenario under scenarios/, plus an unrelated JSON Lines file."""
    scenarios = tmp_path / "scenarios" / "nested"
    scenarios.mkdir(parents=True)
    shutil.copy(LIBRARY / SAMPLE, scenarios / "good.jsonl")
    lines = (LIBRARY / SAMPLE).read_text(encoding="utf-8").splitlines()
    tick = json.loads(lines[2])
    tick["expect"]["inserted_until"] += 5
    lines[2] = json.dumps(tick, ensure_ascii=False)
    (scenarios / "broken.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "scenarios" / "other.jsonl").write_text('{"event": "not a scenario"}\n', encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n" + ini, encoding="utf-8")
    return tmp_path


def test_every_library_scenario_is_collected_as_an_item() -> None:
    """pytest collects one item per scenarios/**/*.jsonl file of this repository."""
    proc = pytest_in(ROOT, "--collect-only", "scenarios")
    items = [line for line in proc.stdout.splitlines() if line.startswith("scenarios/") and "::" in line]
    assert len(items) == len(find_scenarios([LIBRARY])) >= 25, proc.stdout


def test_broken_expectation_is_reported_at_file_and_line_with_a_diff(tmp_path: Path) -> None:
    """The broken scenario fails at its tick's file:line with expected and actual; the good one passes."""
    proc = pytest_in(project(tmp_path))
    assert proc.returncode == 1, proc.stdout
    assert "1 failed, 1 passed" in proc.stdout
    assert "scenarios/nested/broken.jsonl:3: tick 2: inserted_until" in proc.stdout
    assert "expected: " in proc.stdout and "actual: " in proc.stdout
    assert "other.jsonl" not in proc.stdout  # not a scenario header: not collected


def test_update_scenarios_rewrites_the_broken_file(tmp_path: Path) -> None:
    """--update-scenarios rewrites expectations from the run; the next run passes and equals the original."""
    root = project(tmp_path)
    assert pytest_in(root, "--update-scenarios").returncode == 0
    broken = root / "scenarios" / "nested" / "broken.jsonl"
    assert broken.read_text(encoding="utf-8") == (LIBRARY / SAMPLE).read_text(encoding="utf-8")
    assert "2 passed" in pytest_in(root).stdout


def test_opt_out_by_ini_option_and_by_disabling_the_plugin(tmp_path: Path) -> None:
    """inline_render_scenarios = false, or -p no:inline_render, collects no scenario."""
    root = project(tmp_path, "inline_render_scenarios = false\n")
    assert pytest_in(root).returncode == 5  # no tests collected
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    assert pytest_in(root, "-p", "no:inline_render").returncode == 5


def test_invalid_scenario_file_is_a_failing_item(tmp_path: Path) -> None:
    """A malformed scenario is a failure naming file, line and field, not a collection crash."""
    root = project(tmp_path)
    bad = root / "scenarios" / "bad.jsonl"
    bad.write_text(
        '{"format": "inline-render-scenario", "version": 1, "terminal": {"columns": 9, "rows": 4}}\n{"inputs": 1}\n',
        encoding="utf-8",
    )
    proc = pytest_in(root, "scenarios/bad.jsonl")
    assert proc.returncode == 1
    assert "bad.jsonl:2: field 'inputs' must be a list" in proc.stdout
