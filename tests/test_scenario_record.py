"""Recording: a Renderer session written with record_to replays green to the very same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from prompt_toolkit.output.color_depth import ColorDepth

from inline_render import (
    BackendError,
    Config,
    ConfirmRequest,
    Key,
    LogAppend,
    LogDelta,
    LogFinish,
    MemorySink,
    Renderer,
    Resize,
    TestTerminal,
    Vt100Backend,
)
from inline_render.scenario import load_scenario, replay


def session(renderer: Renderer) -> None:
    """Streaming, overflow, two resizes (narrow then wide), a confirm answered after it became active."""
    renderer.feed([])
    renderer.feed([LogAppend("user", "summarize the repository layout please")])
    renderer.feed([LogAppend("assistant", "Sure", "a1", final=False)])
    for i in range(8):
        renderer.feed([LogDelta("a1", f" step {i} of the answer\n")])
    renderer.feed([Resize(18, 7)])
    renderer.feed([LogDelta("a1", "after narrowing, more words to wrap")])
    renderer.feed([Resize(40, 9)])
    renderer.feed([LogFinish("a1"), ConfirmRequest("c1", "Apply the patch?", "edit src/main.py"), Key("y")])
    renderer.feed([])
    renderer.feed([Key("y")])


def test_recorded_session_replays_to_the_same_bytes(tmp_path: Path) -> None:
    """Every tick (follow-ups included) is recorded; the replay passes all checks and writes identical bytes."""
    renderer = Renderer.in_memory(30, 8, config=Config(viewport_height=6), cursor_row=2)
    path = tmp_path / "session.jsonl"
    with renderer.record_to(path, name="recorded session"):
        session(renderer)
    scenario = load_scenario(path)
    assert scenario.name == "recorded session"
    assert (scenario.columns, scenario.rows, scenario.cursor_row) == (30, 8, 2)
    assert scenario.config == Config(viewport_height=6)
    assert len(scenario.ticks) == renderer.ticks  # one line per tick, follow-up redraws included
    assert any(not t.inputs for t in scenario.ticks[1:])
    result = replay(scenario)
    assert result.passed, result.report()
    sink = renderer.backend.sink
    assert isinstance(sink, MemorySink)
    assert result.data == bytes(sink.data)
    last = scenario.ticks[-1].expect
    assert last is not None and last["outputs"] == [{"type": "confirm.answer", "id": "c1", "ok": True}]


class FlakySink:
    """A terminal whose third write breaks after 5 bytes (like a full pipe); everything reaching it is kept."""

    def __init__(self, terminal: TestTerminal) -> None:
        self.inner = MemorySink(terminal)
        self.writes = 0

    def write(self, data: bytes) -> int:
        self.writes += 1
        if self.writes == 3:
            self.inner.write(data[:5])
            raise BackendError("broken pipe", written=5)
        return self.inner.write(data)


def test_a_real_write_failure_is_recorded_as_a_fault(tmp_path: Path) -> None:
    """A write that failed on its own is recorded as a fault input, so the replay fails and recovers identically."""
    terminal = TestTerminal(30, 8)
    sink = FlakySink(terminal)
    renderer = Renderer(
        Vt100Backend(sink, ColorDepth.DEPTH_4_BIT), 30, 8, config=Config(viewport_height=5), cursor_row=0
    )
    path = tmp_path / "flaky.jsonl"
    recorder = renderer.record_to(path)
    renderer.feed([])
    renderer.feed([LogAppend("text", "one\ntwo\nthree\nfour\nfive")])
    renderer.feed([LogAppend("text", "six")])
    renderer.feed([])
    recorder.close()
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    faults = [i for i, line in enumerate(lines) if {"type": "fault", "after_bytes": 5} in line.get("inputs", [])]
    assert faults == [3]  # the third write is the third tick (line 4)
    result = replay(path)
    assert result.passed, result.report()
    assert result.data == bytes(sink.inner.data)


def test_recording_must_start_before_the_first_tick(tmp_path: Path) -> None:
    """The header is the initial state, so record_to after a tick is refused."""
    renderer = Renderer.in_memory(20, 5)
    renderer.feed([])
    with pytest.raises(ValueError, match="before the first tick"):
        renderer.record_to(tmp_path / "late.jsonl")
