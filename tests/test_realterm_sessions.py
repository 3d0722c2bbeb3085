"""Random sessions (issue 31, case 5): the checker that judges them by their text, the sessions recorded live on
xterm.js that showed committed lines twice, and a session on every real terminal without a resize.

``python -m tests.realterm storm -t xtermjs --storms 200 --content session`` runs the 200 live sessions; here the
failures it found are kept as recordings (``storm --record``), replayed on xterm.js's model with every cursor
report reproduced.
"""

from __future__ import annotations

import asyncio
import gzip
from dataclasses import replace
from pathlib import Path

import pytest
from realterm.checker import TerminalText, check_stream
from realterm.recorded import replay_recording
from realterm.run import run_storm
from realterm.sessions import expected_rows, is_tiny, preview_of, random_session, session_storm
from realterm.terminals import adapters

from inline_render import LogAppend
from inline_render.core.tick import Renderer
from inline_render.inputs import Input
from inline_render.shell import InlineApp
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing.pilot import run_app

RECORDINGS = Path(__file__).parent / "realterm" / "recordings"
RIG_LINES = 80  # the rig's default (storm --lines): the sessions were recorded with it


def _inputs(seed: int) -> list[Input]:
    inputs: list[Input] = []
    for kind, text in random_session(seed):
        inputs.append(preview_of(text) if kind == "approval" else LogAppend("tool" if kind == "dialog" else kind, text))
    return inputs


def _rows_at(columns: int, inputs: list[Input]) -> TerminalText:
    renderer = Renderer.in_memory(columns, 30, cursor_row=0)
    for item in inputs:
        renderer.feed([item])
    return TerminalText(tuple([*renderer.terminal.scrollback, *renderer.terminal.screen_lines()]))


@pytest.mark.parametrize("columns", [1, 2, 3, 5, 8, 13, 30, 80])
@pytest.mark.parametrize("seed", [2, 4, 6])
def test_a_tiny_session_reads_whole_at_every_width(seed: int, columns: int) -> None:
    """A tiny session's text, committed at any width down to one column, is every line once, whole, no ghost."""
    assert is_tiny(seed)
    lines, others = expected_rows(random_session(seed))
    verdict = check_stream(_rows_at(columns, _inputs(seed)), lines, others)
    assert verdict.ok and not verdict.ghosts and not verdict.cut, verdict.summary()


def test_the_stream_checker_counts_a_line_twice_lost_cut_or_out_of_order() -> None:
    """check_stream fails a line shown twice, one missing, one cut short and two swapped, and names each."""
    lines = ("L0001 alpha bravo", "  - L0002 charlie delta", "L0003 echo")
    whole = ("L0001 alpha", "bravo", "  - L0002", "    charlie delta", "L0003 echo")
    assert check_stream(TerminalText(whole), lines).ok
    twice = check_stream(TerminalText((*whole[:4], *whole[2:4], whole[4])), lines)
    assert twice.duplicated == ("L0002",) and not twice.ok
    lost = check_stream(TerminalText(whole[:4]), lines)
    assert lost.missing == ("L0003",) and lost.cut == ()
    cut = check_stream(TerminalText((*whole[:3], "    charlie", whole[4])), lines)
    assert cut.missing == cut.cut == ("L0002",)
    assert cut.ghosts == ("  - L0002", "    charlie")
    swapped = check_stream(TerminalText((whole[4], *whole[:4])), lines)
    assert swapped.out_of_order == ("L0003",)


def test_rows_the_library_draws_around_a_line_are_not_ghosts_but_a_piece_is() -> None:
    """Markers, bars and rules are not text; a leftover piece of a line found whole elsewhere is a ghost row."""
    lines = ("› L0001 alpha bravo", "  ╎ L0002 quote")
    rows = ("› L0001", "  alpha bravo", "  ╌╌╌╌", "  ╎ L0002", "  ╎ quote", "  alph")
    verdict = check_stream(TerminalText(rows), lines)
    assert verdict.ok and verdict.ghosts == ("  alph",), verdict.summary()


# Sessions recorded live on xterm.js (``storm --content session --record``) that showed a line twice or cut it, each
# replayed on xterm.js's model with every cursor report reproduced; what the library did wrong, by seed.
RECORDED = {
    4: "a narrowing to a few cells with frames in flight: the replay of the frames compared rows as drawn, and a row "
    "the terminal re-wrapped into cells was never found, so every line was inserted again",
    6: "the same, and tmux's model kept one more composer row than VTE's and xterm.js's: the replays disagreed, and "
    "every line the frames inserted was inserted again (now a row counts as intact where every model shows it)",
    8: "the replay wrote with autowrap on: a question wider than the narrowed screen wrapped on the model, while on "
    "the terminal (autowrap off, as the shell runs it) its last cell was overwritten, and it was counted whole",
    24: "a shrink pushed a streaming line's committed rows, its open row and the status line into history: the rows "
    "counted as inserted, the line's rest was drawn after the ghost rows, and the line read as two broken pieces",
    60: "a shrink to three rows pushed an open code block's last line into history, drawn plain (the lexer waits for "
    "the next line) while the log now coloured it: compared with its colours it was neither counted as pushed nor "
    "remembered, and was inserted again when the block ended",
    70: "a narrowing with no frame in flight re-wrapped rows taller and pushed a held code line into history: counted "
    "one screen row a drawn row, it was neither remembered as pushed nor erased, and was drawn again",
    82: "frames in flight replayed at a shrink to two rows: a held code line the replay showed intact in history was "
    "drawn again below, then inserted when the block went on",
    86: "a narrowing re-wrapped a list item's rows taller: its first row went into history whole and its next, open, "
    "across the top of the screen; the first counted as pushed and the piece in history split the line in two",
}


@pytest.mark.parametrize("seed", sorted(RECORDED))
def test_a_recorded_session_replays_with_every_line_once(seed: int, tmp_path: Path) -> None:
    """Each recorded session that failed live replays on xterm.js's model with every line once, whole, in order."""
    path = tmp_path / f"xtermjs-{seed}-session.jsonl"
    path.write_bytes(gzip.decompress((RECORDINGS / f"xtermjs-{seed}-session.jsonl.gz").read_bytes()))
    replayed = replay_recording(path, session_storm(seed, lines=RIG_LINES), TerminalFamily.XTERMJS, "session")
    assert replayed.disagreed == 0, "the model no longer reproduces the terminal's cursor reports"
    assert replayed.verdict.ok, f"{RECORDED[seed]}: {replayed.verdict.summary()}"


# Known (strict: a fix makes it pass).  A narrowing from 13 to 2 columns met the first of three frames in flight
# mid-way: the rows it inserted after the terminal took the new size were written with autowrap off, each cut to its
# first cells, and count as inserted: four lines lost.  Which of a frame's rows came after the resize the
# acknowledgements do not tell (only that the frame met the new size); inserting every wider row again shows most of
# them twice in the storm models (``test_storm_models``), so the resize does not.
@pytest.mark.xfail(strict=True, reason="rows a frame in flight wrote after a narrowing are cut and count as inserted")
def test_rows_a_frame_in_flight_writes_after_a_narrowing_are_not_lost(tmp_path: Path) -> None:
    """A session recorded live on xterm.js (seed 72) keeps the lines a frame in flight inserted at a narrowing."""
    path = tmp_path / "xtermjs-72-session.jsonl"
    path.write_bytes(gzip.decompress((RECORDINGS / "xtermjs-72-session.jsonl.gz").read_bytes()))
    replayed = replay_recording(path, session_storm(72, lines=RIG_LINES), TerminalFamily.XTERMJS, "session")
    assert replayed.disagreed == 0, "the model no longer reproduces the terminal's cursor reports"
    assert replayed.verdict.ok, replayed.verdict.summary()


@pytest.mark.parametrize("size", [(14, 2), (40, 2)])
def test_a_confirm_on_a_screen_of_two_rows_is_drawn_and_answered(size: tuple[int, int]) -> None:
    """At two rows a confirm takes the status line's row: keys wait until a dialog is drawn, and it never was."""

    async def main(app: InlineApp) -> int:
        asked = asyncio.create_task(app.confirm("Write the file?", "The answer asks to write."))
        while app.state is None or not app.state.screen.dialog_drawn:
            await asyncio.sleep(0.01)
        app.press("y")
        return 0 if await asyncio.wait_for(asked, 5) else 1

    async def run() -> int | None:
        async with run_app(main, columns=size[0], rows=size[1], family=TerminalFamily.XTERMJS) as pilot:
            await asyncio.wait_for(asyncio.shield(pilot.task), 10)
        return pilot.exit_code

    assert asyncio.run(run()) == 0


@pytest.mark.parametrize("name", [name for name in adapters() if name not in ("screen", "pyte")])
def test_without_resize_a_session_is_shown_once(name: str) -> None:
    """A random session (approvals, confirms, hostile text) without a resize: every line once, in order, no ghost."""
    adapter = adapters()[name]()
    reason = adapter.missing()
    if reason:
        pytest.skip(f"{name}: {reason}")
    result = run_storm(adapter, replace(session_storm(1), resizes=()), content="session")
    assert result.exit_code == 0
    assert result.verdict.ok and not result.verdict.ghosts, result.verdict.summary()
