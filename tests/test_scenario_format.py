"""Scenario files: validation errors name file, line and field; canonical dumping round-trips safely."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inline_render import Config, LogAppend, ScenarioError
from inline_render.scenario import EXPECT_FIELDS, find_scenarios, load_scenario, parse_scenario

HEADER = {"format": "inline-render-scenario", "version": 1, "name": "t", "terminal": {"columns": 20, "rows": 6}}


def text_of(*lines: object) -> str:
    return "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"


def header(**changes: object) -> dict[str, object]:
    data = dict(HEADER)
    data.update(changes)
    return data


MALFORMED = [
    ("", ":1:", "missing the header"),
    ("{not json", ":1:", "invalid JSON"),
    (text_of(header(format="other")), ":1:", "'format'"),
    (text_of(header(version=2)), ":1:", "'version'"),
    (text_of(header(version=True)), ":1:", "'version'"),
    (text_of(header(version=1.0)), ":1:", "'version'"),
    (text_of(header(extra=1)), ":1:", "'extra'"),
    (text_of(header(terminal={"columns": 0, "rows": 5})), ":1:", "'terminal.columns'"),
    (text_of(header(terminal={"columns": 5})), ":1:", "'terminal.rows'"),
    (text_of(header(terminal={"columns": 5, "rows": 5, "cursor_row": 5})), ":1:", "'terminal.cursor_row'"),
    (text_of(header(config={"viewport_height": "9"})), ":1:", "'viewport_height'"),
    (text_of(header(config={"no_such": 1})), ":1:", "'no_such'"),
    (text_of(HEADER, [1, 2]), ":2:", "a tick must be a JSON object"),
    (text_of(HEADER, {"inputs": {}}), ":2:", "'inputs' must be a list"),
    (text_of(HEADER, {"inputs": [], "expekt": {}}), ":2:", "'expekt'"),
    (text_of(HEADER, {"inputs": [{"type": "log.append", "kind": "user", "text": 3}]}), ":2:", "'text'"),
    (text_of(HEADER, {"inputs": [{"type": "warp"}]}), ":2:", "'warp'"),
    (text_of(HEADER, {"inputs": []}, {"inputs": [], "expect": {"screan": []}}), ":3:", "'screan'"),
    (text_of(HEADER, {"inputs": [], "expect": {"sync_phase": "busy"}}), ":2:", "'sync_phase'"),
    (text_of(HEADER, {"inputs": [], "expect": {"visible_end": -1}}), ":2:", "'visible_end'"),
    (text_of(HEADER, {"inputs": [], "expect": {"screen": [1]}}), ":2:", "'screen'"),
    (text_of(HEADER, {"inputs": [], "expect": {"cursor": {"x": 1, "y": 2}}}), ":2:", "'cursor'"),
    (text_of(HEADER, {"inputs": [], "expect": {"outputs": [{}]}}), ":2:", "'outputs'"),
    (text_of(HEADER, {"inputs": []}, "", "[oops"), ":4:", "invalid JSON"),
]


@pytest.mark.parametrize(("content", "line", "field"), MALFORMED)
def test_malformed_file_names_file_line_and_field(tmp_path: Path, content: str, line: str, field: str) -> None:
    """Every kind of malformed scenario raises ScenarioError naming the file, the line and the field."""
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert message.startswith(f"{path}{line}"), message
    assert field in message, message


def test_not_utf8_and_missing_file(tmp_path: Path) -> None:
    """Undecodable bytes and a missing file are ScenarioErrors too (line of the bad byte, the path)."""
    path = tmp_path / "latin.jsonl"
    path.write_bytes(json.dumps(HEADER).encode() + b'\n{"inputs": [\xff]}\n')
    with pytest.raises(ScenarioError, match=r"latin.jsonl:2: not UTF-8"):
        load_scenario(path)
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.jsonl")
    with pytest.raises(ScenarioError, match="no such file"):
        find_scenarios([tmp_path / "nowhere"])


def test_cli_reports_malformed_file_without_traceback(tmp_path: Path) -> None:
    """The replay command prints the located error and exits 2, with no Python traceback."""
    path = tmp_path / "bad.jsonl"
    path.write_text(text_of(HEADER, {"inputs": [{"type": "key"}]}), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "inline_render", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert f"{path}:2: inputs[0] (key): missing field 'key'" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


def test_parse_reads_header_ticks_and_lines() -> None:
    """Header fields, typed inputs, expect objects and real line numbers (blank lines counted) are parsed."""
    text = text_of(
        header(config={"viewport_height": 4}, terminal={"columns": 20, "rows": 6, "cursor_row": None}),
        {"inputs": [{"type": "log.append", "kind": "user", "text": "hi"}], "expect": {"wrapped_total": 1}},
        "",
        {"note": "why", "inputs": []},
    )
    scenario = parse_scenario(text, name="inline")
    assert (scenario.columns, scenario.rows, scenario.cursor_row) == (20, 6, None)
    assert scenario.config == Config(viewport_height=4, compact=False)  # no ``compact``: recorded before it existed
    assert [t.line for t in scenario.ticks] == [2, 4]
    assert scenario.ticks[0].inputs == (LogAppend("user", "hi"),)
    assert scenario.ticks[0].expect == {"wrapped_total": 1}
    assert scenario.ticks[1].expect is None and scenario.ticks[1].note == "why"


def test_dumps_round_trips_and_escapes_line_breaking_characters() -> None:
    """Dumped files keep one tick per line even for NEL/U+2028/C1 text, and parse back to the same scenario."""
    hostile = "a\x85b\u2028c\u2029d\x9b2J\x1b]52;c;eA==\x07 中文 e\u0301"
    text = text_of(HEADER, {"inputs": [{"type": "log.append", "kind": "text", "text": hostile}]})
    scenario = parse_scenario(text, name="t")
    dumped = scenario.dumps()
    assert len(dumped.splitlines()) == 2  # str.splitlines also breaks at NEL and U+2028
    assert "\\u0085" in dumped and "\\u2028" in dumped and "中文" in dumped
    again = parse_scenario(dumped, name="t")
    assert again.ticks[0].inputs == scenario.ticks[0].inputs
    assert again.dumps() == dumped


def test_expect_fields_are_the_documented_ones() -> None:
    """The expect vocabulary is the seven RenderState fields plus screen, scrollback, cursor, outputs."""
    assert EXPECT_FIELDS == (
        "wrapped_total",
        "visible_start",
        "visible_end",
        "inserted_until",
        "sync_phase",
        "confirm_phase",
        "cursor_phase",
        "screen",
        "scrollback",
        "cursor",
        "outputs",
    )


def test_find_scenarios_recurses_and_sorts(tmp_path: Path) -> None:
    """Directories are searched recursively for *.jsonl files, in sorted order; other files are ignored."""
    (tmp_path / "b").mkdir()
    for name in ("b/z.jsonl", "a.jsonl", "b/a.jsonl", "notes.txt"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    found = find_scenarios([tmp_path])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["a.jsonl", "b/a.jsonl", "b/z.jsonl"]
