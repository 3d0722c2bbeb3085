"""``realterm.recorded``: a recorded run replayed on the terminal's model gives the run's own text.

The run here is in-process (GNU screen's model, the rig's storm 6 with frames in flight at its resizes), recorded
as the shell records a real one (``AppOptions.record``: every tick, each resize with the cursor row and the frames
in flight); the replay only has the recording, so it must find where each resize landed in the bytes in flight.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from realterm.app import chunks, entries
from realterm.checker import TerminalText, check
from realterm.lines import storm_lines
from realterm.recorded import replay_recording
from realterm.storm import make_storm

from inline_render import Config, Input, LogAppend, LogDelta, LogFinish, Resize
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.checks import CheckedRenderer

SEED = 6  # starts with no preamble, so the in-process run starts as the rig's app does


class _Unchecked(CheckedRenderer):
    def _fail(self, message: str) -> None:
        pass


def _run(path: Path) -> tuple[list[str], list[str], int]:
    """Storm ``SEED`` on screen's model at 60 ticks a second, each resize landing before the bytes of the tick still
    in flight (the replay tries the points in order and takes the first the cursor report agrees with: where
    several agree, only that one is sure to be the run's), recorded to ``path``: the terminal's text, the storm's
    lines and how many resizes it fed."""
    storm = make_storm(SEED)
    texts = storm_lines(SEED, storm.lines, storm.columns, ascii_only=True)
    events: list[Input] = []
    for index, text in enumerate(entries(SEED, texts)):
        events.append(LogAppend("text", "", id=f"e{index}", final=False))
        events += [LogDelta(f"e{index}", part) for part in chunks(SEED + index, text)]
        events.append(LogFinish(f"e{index}"))
    config = Config(resize_reflow=True, soft_wrap_lines=True, synchronized_output=False)
    app = _Unchecked(storm.columns, storm.rows, config=config, cursor_row=0, family=TerminalFamily.SCREEN)
    recorder = app.renderer.record_to(path)
    ticks = int((storm.duration - 1.0) * 60)
    at = {round(resize.at * 60): resize for resize in storm.resizes}
    sent = 0
    for tick in range(ticks + 1):
        upto = min(len(events), round(len(events) * tick / ticks))
        batch, sent = events[sent:upto], upto
        if tick in at:
            app.inflight([batch], 0.0, (at[tick].columns, at[tick].rows), True)
        else:
            app.feed(batch)
    app.feed([Resize(storm.columns, storm.rows)])  # one more resize, nothing in flight
    recorder.close()
    return app.terminal.all_lines(), list(texts), len([tick for tick in at if tick <= ticks]) + 1


def test_a_recorded_run_replays_to_the_same_text(tmp_path: Path) -> None:
    """The replay reproduces every cursor report and ends with the run's own text and verdict."""
    path = tmp_path / "screen-6.jsonl"
    shown, lines, resizes = _run(path)
    replayed = replay_recording(path, make_storm(SEED), TerminalFamily.SCREEN)
    assert replayed.resizes == resizes and replayed.disagreed == 0
    assert replayed.terminal.all_lines() == shown
    assert replayed.verdict.summary() == check(TerminalText(tuple(shown)), lines).summary()


# Runs recorded on VTE 0.70 (``storm -t vte --storms 1 --seed S --record``) that cut a line, each a regression test:
# * seed 15 cut ``L0050``: at the shrink from 33x17 to 55x8 two frames in flight moved up past the top of the shorter
#   screen (``inline_render.core.inflight``).  The replay of those frames found the line's first rows (inserted by a
#   frame in flight, of an older version of the open entry) and, further on, its later rows, and took the line for
#   whole: the rows of two versions of one line were compared as two lines.  The line is now checked as one
#   (``log.continues_line``) and inserted again whole.
# * seed 1 cut ``L0033``: a frame in flight at the narrowing from 35x32 to 34x26 moved up 6 rows to rewrite the line's
#   last row, which the narrowing had re-wrapped into two rows (it was 35 wide); it wrote on the second piece and left
#   the first above.  Every row the frame wrote fit the new width, so its rows were trusted and counted as inserted.
#   Now the rows it was planned over count too (a row re-wrapped taller among them is distrusted), and the line,
#   whose first rows were in scrollback already, is inserted again whole.
RECORDED_VTE = {15: "vte-15-clamped-widening.jsonl", 1: "vte-1-rewrapped-target-row.jsonl"}


@pytest.mark.parametrize("seed", sorted(RECORDED_VTE), ids=[RECORDED_VTE[seed] for seed in sorted(RECORDED_VTE)])
def test_a_recorded_vte_run_that_cut_a_line_replays_with_every_line_once(seed: int) -> None:
    """The recorded VTE run replays on VTE's model, every cursor report reproduced, with every line once, in order."""
    path = Path(__file__).parent / "realterm" / "recordings" / RECORDED_VTE[seed]
    replayed = replay_recording(path, make_storm(seed), TerminalFamily.VTE)
    assert replayed.resizes == 8 and replayed.disagreed == 0
    verdict = replayed.verdict
    assert verdict.found == verdict.expected and verdict.ok, verdict.summary()


TALLER = "tmux-4-grown-taller.jsonl.gz"


def test_a_recorded_tmux_run_that_grew_taller_leaves_no_piece_of_the_open_line_above_the_viewport(
    tmp_path: Path,
) -> None:
    """tmux storm seed 4 (recorded live): a narrowing that also grew the screen (114x21 to 80x44) pulled history
    back, so the models' cursor was above the reported one and the resize counted one screen row a drawn row; the
    re-wrapped start of the open line L0015 stayed above the viewport as a ghost, and L0031's at 87x31 too."""
    path = tmp_path / "tmux-4.jsonl"
    path.write_bytes(gzip.decompress((Path(__file__).parent / "realterm" / "recordings" / TALLER).read_bytes()))
    replayed = replay_recording(path, make_storm(4), TerminalFamily.TMUX)
    assert replayed.resizes == 8 and replayed.disagreed == 0
    verdict = replayed.verdict
    assert verdict.found == verdict.expected and verdict.ok, verdict.summary()
    pieces = [row for row in verdict.ghosts if row.startswith(("L0015", "L0031"))]
    assert not pieces, verdict.ghosts


# VTE plain-line storms recorded live (87f11c6): a resize that met a frame in flight appending to the open line;
# the rows above the first row it wrote were counted one screen row each, so the re-wrapped start of the open line
# stayed above the viewport as a ghost (the line's name, the seed).
IN_FLIGHT_NARROWINGS = {2: ("L0014",), 6: ("L0039", "L0051"), 9: ("L0018",)}


@pytest.mark.parametrize("seed", sorted(IN_FLIGHT_NARROWINGS))
def test_a_resize_that_met_a_frame_in_flight_leaves_no_piece_of_the_open_line_above_the_viewport(
    tmp_path: Path, seed: int
) -> None:
    """VTE storms 2, 6 and 9 (recorded live): the rows above the first one the frames in flight wrote are read off
    the re-wrapping models at every point where the resize may have met them; no ghost copy of the open line stays
    above the viewport, and every line is there once, in order (seed 9: where those points disagree on a row's
    height, the piece left above does not join the row drawn under it)."""
    path = tmp_path / f"vte-{seed}.jsonl"
    recording = Path(__file__).parent / "realterm" / "recordings" / f"vte-{seed}-inflight-narrowing.jsonl.gz"
    path.write_bytes(gzip.decompress(recording.read_bytes()))
    replayed = replay_recording(path, make_storm(seed), TerminalFamily.VTE)
    assert replayed.resizes == 8 and replayed.disagreed == 0
    verdict = replayed.verdict
    assert verdict.found == verdict.expected and verdict.ok, verdict.summary()
    pieces = [row for row in verdict.ghosts if row.startswith(IN_FLIGHT_NARROWINGS[seed])]
    assert not pieces, verdict.ghosts
