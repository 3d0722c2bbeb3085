"""The benchmark's workloads are correct (their byte streams pass the emulator check); its figures are well formed.

Speed is never asserted here: performance lives in ``python -m inline_render bench``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from prompt_toolkit.output.color_depth import ColorDepth

from inline_render.bench import cli as bench_cli
from inline_render.bench import measure
from inline_render.bench import workloads as bench
from inline_render.core.state import Config
from inline_render.inputs import LogFinish, Resize, Status
from inline_render.testing import CheckedRenderer

CONFIG = Config(viewport_height=10)
_PREFIX = re.compile(r"^(\u25b8 |  )")


def _checked(events: list[measure.Event]) -> CheckedRenderer:
    checked = CheckedRenderer(80, 24, config=CONFIG)
    for _phase, batch in events:
        checked.feed(batch)
    return checked


def _bench_bytes(events: list[measure.Event]) -> bytes:
    sink = measure.CountingSink(keep=True)
    renderer = measure.make_renderer(80, 24, CONFIG, sink, ColorDepth.DEPTH_4_BIT)
    measure.run_events(iter(events), renderer)
    assert sink.data is not None
    return bytes(sink.data)


def _words_on_terminal(checked: CheckedRenderer) -> list[str]:
    lines = checked.terminal.scrollback + checked.terminal.screen_lines()
    return " ".join(_PREFIX.sub("", line) for line in lines).split()


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    first = needle[0]
    return any(
        haystack[i : i + len(needle)] == needle for i in range(len(haystack) - len(needle) + 1) if haystack[i] == first
    )


def test_w1_stream_bytes_pass_the_emulator_check_and_show_the_answer_once() -> None:
    """A shortened W1 passes the emulator check every tick, shows its answer once, and is what the bench writes."""
    events = list(bench.w1_events(300, deltas=400, warm=30))
    checked = _checked(events)
    assert checked.state.render.inserted_until > 0
    answer = "".join(batch[0].text for phase, batch in events if phase == "measure")  # type: ignore[union-attr]
    checked.feed([LogFinish(bench.STREAM_ID)])
    words = _words_on_terminal(checked)
    expected = answer.split()
    # The screen keeps the tail, so the whole answer is visible as one run, exactly once.
    assert _contains_run(words, expected)
    assert sum(1 for i in range(len(words)) if words[i : i + 12] == expected[:12]) == 1
    assert _bench_bytes(events) == bytes(checked.bytes)


def test_w1_measured_phase_inserts_rows_and_is_timed_per_delta() -> None:
    """The bench's W1 measure phase has one update per delta, and the rows it counts as inserted really were."""
    renderer = measure.make_renderer(80, 24, CONFIG)
    result = measure.run_events(bench.w1_events(200, deltas=300, warm=20), renderer)
    per_update, inserting = result["per_update"], result["inserting"]
    assert isinstance(per_update, dict) and isinstance(inserting, dict)
    assert per_update["count"] == 300
    assert inserting["count"] > 0
    before = result["inserted_before_measure"]
    assert isinstance(before, int)
    assert result["rows_inserted"] == renderer.state.render.inserted_until - before > 0


def test_w3_resize_bytes_pass_the_emulator_check_with_a_half_inserted_entry() -> None:
    """A shortened W3 (streaming entry partly in scrollback, resizes 60x12 <-> 100x24) passes the emulator check."""
    events = list(bench.w3_events(300, resizes=12, answer=3000))
    setup = [event for event in events if event[0] != "measure"]
    measured = [event for event in events if event[0] == "measure"]
    checked = _checked([event for event in setup if not isinstance(event[1][0], Resize)])
    log = checked.state.log
    assert log.entries[0].id == bench.STREAM_ID and log.head > 0  # its first lines are in scrollback already
    assert not log.entries[-1].final
    checked = _checked(events)
    assert len(measured) == 12
    assert checked.state.columns == bench.RESIZES[1][0]
    assert _bench_bytes(events) == bytes(checked.bytes)


def test_bench_quick_json_writes_well_formed_figures(tmp_path: Path) -> None:
    """``bench --quick --json FILE`` runs every workload and writes consistent figures for each."""
    out = tmp_path / "bench.json"
    assert bench_cli.main(["--quick", "--json", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["quick"] is True
    assert {"date", "python", "cpu"} <= report["machine"].keys()
    names = [result["workload"] for result in report["results"]]
    assert names == bench_cli.workload_names(quick=True)
    for result in report["results"]:
        figures = result["per_update"]
        assert figures["count"] > 0, result["workload"]
        assert 0 < figures["us_median"] <= figures["us_p95"] <= figures["us_max"]
        assert 0 <= figures["bytes_median"] <= figures["bytes_p95"] <= figures["bytes_total"]
        assert result["peak_rss_mb"] > 0
        assert result["check_invariants"] is True
        split = result["non_inserting"]["count"] + result["inserting"]["count"]
        assert split == figures["count"]
    w2 = next(result for result in report["results"] if result["workload"] == "w2")
    assert w2["lines_per_s"] > 0
    assert w2["rows_inserted"] >= 2000 - 10  # every appended line reaches scrollback but the viewport's tail


def test_bench_rejects_an_unknown_workload(capsys: object) -> None:
    """An unknown ``--only`` name is a clear error, not a crash."""
    assert bench_cli.main(["--only", "w9"]) == 2


def test_w5_markdown_stream_passes_the_emulator_check_and_shows_no_raw_markers() -> None:
    """A shortened W5 (a Markdown answer in 1-8 character deltas) passes the emulator check every tick, rendered."""
    events = list(bench.w5_events(300, deltas=600, warm=30))
    checked = _checked(events)
    checked.feed([LogFinish(bench.STREAM_ID)])
    assert checked.state.render.inserted_until > 0
    shown = "\n".join(checked.terminal.scrollback + checked.terminal.screen_lines())
    assert "```" not in shown and "**" not in shown and "|---" not in shown
    assert "def f():" in shown and re.search("name +\u254e value \u254e note", shown)  # code and a table, drawn


def test_status_counter_workloads_pass_the_emulator_check_and_show_the_last_count() -> None:
    """W1S and STATUS (a token counter in the status line, written cell by cell) pass the emulator check every
    tick, show the last count, and are what the bench writes; IDLE writes nothing at all."""
    for events in (list(bench.w1s_events(300, deltas=300, warm=20)), list(bench.status_events(200, ticks=120))):
        checked = _checked(events)
        last = events[-1][1][-1]
        assert isinstance(last, Status)
        assert any(line.rstrip() == last.text for line in checked.terminal.screen_lines())
        assert _bench_bytes(events) == bytes(checked.bytes)
    idle = list(bench.idle_events(200, ticks=50))
    settled = [event for event in idle if event[0] != "measure"]
    assert _bench_bytes(idle) == _bench_bytes(settled)
