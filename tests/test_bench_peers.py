"""``bench --peers``: pi-tui and Ink (node) beside Rich and prompt_toolkit on the same rows, each shown to draw them.

No figure is asserted (performance lives in ``python -m inline_render bench --peers``); the Node tests skip with
the reason when node or npm is missing or ``npm ci`` cannot install the pinned peers.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from inline_render.bench import cli as bench_cli
from inline_render.bench import peers
from inline_render.bench.peers_capture import Capture, Run, drew, expected_lines
from inline_render.bench.peers_node import NODE_PEERS, SOURCE, prepare_node, run_node_peer, write_input
from inline_render.bench.peers_report import failures, format_peers, format_table
from inline_render.testing.pyte_terminal import PyteTerminal
from inline_render.text.style import Row, Segment, Style, row_text

GREEN = Style(fg="ansigreen")
DIM = Style(dim=True)


@pytest.fixture(scope="module")
def node_dir() -> Path:
    """The installed harness directory (the bench's cache), or a skip saying why there is none."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node or npm not installed (apt-get install nodejs npm)")
    directory = prepare_node()
    if isinstance(directory, str):
        pytest.skip(directory)
    return directory


def _viewport(step: int) -> tuple[Row, ...]:
    log = tuple((Segment("  "), Segment(f"answer row {step}.{index} 漢字")) for index in range(3))
    return (*log, (Segment(f"status {step}", DIM),), (Segment("› ", DIM), Segment("typed")))


def _tiny_run() -> Run:
    """Three updates over a 30-row history: the second and third insert rows (one styled) above the viewport."""
    history = tuple((Segment(f"history row {index}"),) for index in range(30))
    inserted: list[tuple[Row, ...]] = [(), ((Segment("▸ ", GREEN), Segment("inserted one")),), ((Segment("two"),),)]
    updates = [Capture(inserted[step], _viewport(step), (4, 3)) for step in range(3)]  # cursor inside the text
    return Run({}, history, updates, b"")


def _screen_text(output: bytes) -> list[str]:
    terminal = PyteTerminal(80, 24)
    terminal.feed(output)
    return [*terminal.scrollback, *terminal.screen_lines()]


def test_each_node_peer_replayed_through_pyte_shows_the_rows_it_was_given(node_dir: Path, tmp_path: Path) -> None:
    """pi-tui, Ink and Ink incremental, fed a tiny 3-update capture, write bytes that pyte shows as its rows."""
    run = _tiny_run()
    path = tmp_path / "input.json"
    write_input(run, 1, path)
    history = [row_text(row) for row in run.history]
    for peer in NODE_PEERS:
        result = run_node_peer(node_dir, peer, path, run.updates)
        assert "error" not in result, result
        output = result["output"]
        assert isinstance(output, bytes)
        assert drew(output, expected_lines(run.updates)) == (True, ""), peer
        lines = _screen_text(output)
        assert any(lines[i : i + len(history)] == history for i in range(len(lines))), peer  # the whole history
        per_update = result["per_update"]
        assert isinstance(per_update, dict) and per_update["count"] == 3


def test_the_peers_table_names_pi_tui_and_ink_and_every_peer_drew_the_content(node_dir: Path) -> None:
    """A short W1S run through every renderer: the table names all six, and each one drew our last rows."""
    result = peers.measure_peers(30, 60, 3, "w1s", peer_warm=5)
    table = format_table([result])
    for label in ("Rich", "prompt_toolkit", "pi-tui", "Ink", "Ink incremental", "inline_render"):
        assert re.search(rf"^{re.escape(label)}  +\d", table, re.MULTILINE), (label, table)
    for name in NODE_PEERS:
        figures = result[name]
        assert isinstance(figures, dict) and figures["drew"] is True, (name, figures)
    assert "pi-tui (drew the content)" in format_peers(result)
    assert failures([result]) == []
    assert json.loads(json.dumps(result)) == result  # what the child process prints, and --json writes


def test_without_node_the_node_peers_are_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With no node on PATH, pi-tui and Ink are skipped, the output says why, and a skip is not a failure."""
    monkeypatch.setenv("PATH", str(tmp_path))
    result = peers.measure_peers(30, 20, 3, "w1", peer_warm=3)
    for name in NODE_PEERS:
        assert result[name] == {"skipped": "node not found on PATH"}
    assert "pi-tui: skipped: node not found on PATH" in format_peers(result)
    table = format_table([result])
    assert "pi-tui: skipped (node not found on PATH)" in table and "Ink incremental: skipped" in table
    assert failures([result]) == []


def test_a_failing_npm_ci_skips_the_node_peers_with_its_last_line(tmp_path: Path) -> None:
    """When ``npm ci`` fails (offline), preparing says so in one line, naming the directory, and installs nothing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "node").symlink_to(node)
    (tools / "npm").write_text("#!/bin/sh\necho 'npm error network request failed' >&2\nexit 1\n", encoding="utf-8")
    (tools / "npm").chmod(0o755)
    cache = tmp_path / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", str(tools))
        reason = prepare_node(cache)
    assert reason == f"npm ci failed in {cache}: npm error network request failed"
    assert not (cache / ".installed").exists() and (cache / "peers.mjs").is_file()


def test_a_renderer_that_did_not_draw_the_rows_fails_bench_peers_loudly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bytes that do not show the rows make ``drew`` false, and ``bench --peers`` names the renderer and exits 1."""
    assert drew(b"\x1b[2Jsomething else", ["a row", "another"])[0] is False
    monkeypatch.setenv("PATH", str(tmp_path))
    result = peers.measure_peers(30, 20, 3, "w1", peer_warm=3)
    figures = result["prompt_toolkit"]
    assert isinstance(figures, dict) and figures["drew"] is True
    figures["drew"], figures["drew_detail"] = drew(b"nothing drawn", ["a row"])
    monkeypatch.setattr(peers, "peer_runs", lambda: [("w1", 30)])
    monkeypatch.setattr(peers, "run_peers", lambda quick, workload, lines: result)
    assert bench_cli.main(["--only", "idle", "--quick", "--peers"]) == 1
    captured = capsys.readouterr()
    assert "prompt_toolkit (DID NOT DRAW THE CONTENT" in captured.out
    assert "bench --peers: prompt_toolkit on w1:30 did not draw the content" in captured.err


def test_the_node_peers_are_pinned_exactly_and_their_node_modules_is_not_in_git() -> None:
    """package.json pins exact versions, the lock agrees, and npm's node_modules is ignored by git."""
    package = json.loads((SOURCE / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((SOURCE / "package-lock.json").read_text(encoding="utf-8"))
    assert package["dependencies"] == {"@mariozechner/pi-tui": "0.73.1", "ink": "8.0.0", "react": "19.3.1"}
    assert lock["packages"][""]["dependencies"] == package["dependencies"]
    for name, pinned in package["dependencies"].items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == pinned
    assert (SOURCE / ".gitignore").read_text(encoding="utf-8").split() == ["node_modules"]
