"""``python -m inline_render replay``: the library passes, failures are located and diffed, exit codes, options."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from inline_render.scenario import find_scenarios, replay
from inline_render.scenario.cli import main

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "scenarios"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(args), out=out)
    return status, out.getvalue()


def some_scenario(tmp_path: Path, name: str = "confirm_open_close_while_log_overflows.jsonl") -> Path:
    target = tmp_path / name
    shutil.copy(LIBRARY / name, target)
    return target


def test_replay_of_the_scenario_library_passes() -> None:
    """``python -m inline_render replay scenarios`` exits 0 with one PASS line per scenario file."""
    files = find_scenarios([LIBRARY])
    assert len(files) >= 25
    proc = subprocess.run(
        [sys.executable, "-m", "inline_render", "replay", "scenarios"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert sum(line.startswith("PASS scenarios/") for line in lines) == len(files)
    assert lines[-1] == f"{len(files)} passed, 0 failed, 0 invalid"


def test_a_broken_expectation_fails_with_tick_field_and_diff(tmp_path: Path) -> None:
    """Changing one screen row makes the command exit 1 and print the tick, line, field and both rows."""
    path = some_scenario(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    tick = json.loads(lines[3])
    row = tick["expect"]["screen"][0]
    tick["expect"]["screen"][0] = "not what the renderer drew"
    lines[3] = json.dumps(tick, ensure_ascii=False)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out = run(str(path))
    assert status == 1
    assert f"FAIL {path}" in out and "at tick 3, line 4: screen" in out
    assert f"{path}:4: tick 3: screen" in out
    assert '-   0 | "not what the renderer drew"' in out
    assert f"+   0 | {json.dumps(row, ensure_ascii=False)}" in out


def test_update_rewrites_expectations(tmp_path: Path) -> None:
    """--update restores a stripped and a wrong expectation exactly; a second run is a PASS with no change."""
    path = some_scenario(tmp_path)
    original = path.read_text(encoding="utf-8")
    lines = original.splitlines()
    second = json.loads(lines[2])
    del second["expect"]
    third = json.loads(lines[3])
    third["expect"]["wrapped_total"] = 1234
    lines[2], lines[3] = json.dumps(second), json.dumps(third)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run(str(path))[0] == 1
    status, out = run("--update", str(path))
    assert status == 0 and out.startswith(f"UPDATED {path}")
    assert path.read_text(encoding="utf-8") == original
    status, out = run("--update", str(path))
    assert status == 0 and out.startswith(f"PASS {path}")


def test_bytes_and_trace_files(tmp_path: Path) -> None:
    """--bytes writes the exact stream; --trace one JSON line per tick whose byte counts add up to it."""
    path = some_scenario(tmp_path)
    stream, trace = tmp_path / "out.bin", tmp_path / "trace.jsonl"
    status, _ = run("--bytes", str(stream), "--trace", str(trace), str(path))
    assert status == 0
    assert stream.read_bytes() == replay(path).data
    entries = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    ticks = len(path.read_text(encoding="utf-8").splitlines()) - 1
    assert [e["tick"] for e in entries] == list(range(1, ticks + 1))
    assert sum(e["bytes"] for e in entries) == len(stream.read_bytes())
    assert set(entries[0]) == {"tick", "state", "bytes", "outputs"}
    assert set(entries[0]["state"]) == {
        "wrapped_total",
        "visible_start",
        "visible_end",
        "inserted_until",
        "sync_phase",
        "confirm_phase",
        "cursor_phase",
    }


def test_invalid_input_exits_2(tmp_path: Path) -> None:
    """Missing paths, empty directories, --bytes with several scenarios and bad options exit 2."""
    assert run(str(tmp_path / "missing"))[0] == 2
    assert run(str(tmp_path))[0] == 2
    some_scenario(tmp_path)
    some_scenario(tmp_path, "log_clear_resets_boundary.jsonl")
    status, out = run("--bytes", str(tmp_path / "b.bin"), str(tmp_path))
    assert status == 2 and "exactly one scenario" in out
    assert run("--no-such-option", str(tmp_path))[0] == 2
    (tmp_path / "broken.jsonl").write_text("{}\n", encoding="utf-8")
    status, out = run(str(tmp_path))
    assert status == 2
    assert "2 passed, 0 failed, 1 invalid" in out


def test_unwritable_output_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    """--bytes or --trace into a missing directory exits 2 with an ERROR line naming the file."""
    path = some_scenario(tmp_path)
    for option in ("--bytes", "--trace"):
        target = tmp_path / "missing" / "out"
        status, out = run(option, str(target), str(path))
        assert status == 2, out
        assert f"ERROR {target}: cannot write" in out
