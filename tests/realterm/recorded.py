"""A run recorded on a real terminal (``storm --record``), replayed on that terminal's model.

The recording holds every tick the app ran, with each resize as the shell fed it: the cursor row the terminal
reported and how many frames were still in flight.  The replay draws the same ticks on the family's
``TestTerminal``, the preamble first; at a resize with frames in flight it rewinds the model to before the
first of them and lets the resize land at the first point of their bytes after which the model's cursor is where
the real terminal reported it.  Where the model gives the real run's verdict, a failure on the real terminal
can be studied, and a fix tried, in-process and exactly.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from inline_render import Resize
from inline_render.scenario import load_scenario
from inline_render.terminals.memory import TerminalFamily, TestTerminal
from inline_render.testing.checks import CheckedRenderer

from .app import rendered_lines
from .checker import TerminalText, Verdict, check, check_stream
from .lines import markdown_session, preamble_lines, storm_lines
from .sessions import expected_rows, random_session
from .storm import Storm

__all__ = ["REPLAYABLE", "InFlight", "Replayed", "expected_lines", "replay_recording", "retimed"]

REPLAYABLE = (TerminalFamily.SCREEN, TerminalFamily.TMUX, TerminalFamily.VTE, TerminalFamily.XTERMJS)
_CUTS = 200  # resize points tried in the bytes in flight (evenly spread)


@dataclass(frozen=True, slots=True)
class Replayed:
    """The checker's verdict on the model's text, and how many resizes' cursor reports it could not reproduce."""

    verdict: Verdict
    resizes: int
    disagreed: int
    terminal: TestTerminal


@dataclass(frozen=True, slots=True)
class InFlight:
    """A resize moved to another point of a recorded run: before its tick ``at`` (counted among the ticks without a
    resize), with ``ticks`` ticks from there in flight, landing after ``fraction`` of their bytes."""

    at: int
    size: tuple[int, int]
    ticks: int
    fraction: float


class _Unchecked(CheckedRenderer):
    """The renderer without the per-tick checks: the verdict at the end is the point."""

    def _fail(self, message: str) -> None:
        pass


def replay_recording(path: Path, storm: Storm, family: TerminalFamily, content: str = "lines") -> Replayed:
    """Replay the recording at ``path`` of ``storm`` on ``family``'s model (the lines as the rig's app made them for
    that terminal: ASCII only on GNU screen; ``content`` ``markdown``: the storm's Markdown chat)."""
    scenario = load_scenario(path)
    terminal = _started(TestTerminal(storm.columns, storm.rows, family=family), storm)
    app = _Unchecked(storm.columns, storm.rows, config=scenario.config, cursor_row=scenario.cursor_row, family=family)
    app.renderer.terminal = app.renderer.sink.terminal = app.terminal = terminal
    sink = app.renderer.backend.sink
    # The model before each tick that wrote, and what it wrote: the shell counts these ticks (frames) in flight.
    written: list[tuple[TestTerminal, bytes]] = []
    resizes = disagreed = 0
    for tick in scenario.ticks:
        inputs = list(tick.inputs)
        resize = next((item for item in inputs if isinstance(item, Resize)), None)
        if resize is not None:
            resizes += 1
            flight = written[-resize.in_flight_frames :] if resize.in_flight_frames else []
            if flight:
                model = _landed(flight[0][0], b"".join(data for _, data in flight), resize)
                disagreed += model is None
                if model is None:  # no point agrees: the resize before them all
                    model = copy.deepcopy(flight[0][0])
                    model.resize(resize.columns, resize.rows)
                    model.feed(b"".join(data for _, data in flight))
                terminal.__dict__.update(model.__dict__)
                terminal.resize_pushes.clear()
            else:
                terminal.resize(resize.columns, resize.rows)
                disagreed += resize.cursor_row is not None and terminal.cursor.y != resize.cursor_row
        before, start = copy.deepcopy(terminal), len(sink.data)
        app.step(inputs, resized=resize is not None)  # the recording holds the follow-up ticks too
        if len(sink.data) > start:
            written = [*written[-7:], (before, bytes(sink.data[start:]))]
    return Replayed(_verdict(terminal, storm, family, content), resizes, disagreed, terminal)


def _verdict(terminal: TestTerminal, storm: Storm, family: TerminalFamily, content: str) -> Verdict:
    text = TerminalText(tuple(terminal.all_lines()))
    if content == "session":  # judged by its text, as the rig judges it (``check_stream``)
        others = expected_rows(random_session(storm.seed, storm.lines))[1]
        return check_stream(text, tuple(expected_lines(storm, family, content)), others)
    return check(text, expected_lines(storm, family, content))


def expected_lines(storm: Storm, family: TerminalFamily, content: str = "lines") -> list[str]:
    """The lines the rig's app shows in ``storm``, the shell's preamble first (as it made them for ``family``'s
    terminal: ASCII only on GNU screen; ``content`` ``markdown``: the storm's Markdown chat, as rendered;
    ``session``: the random session of the storm's seed)."""
    if content == "markdown":
        texts = list(rendered_lines(markdown_session(storm.seed, storm.lines)))
    elif content == "session":
        texts = list(expected_rows(random_session(storm.seed, storm.lines))[0])
    else:
        ascii_only = family is TerminalFamily.SCREEN
        texts = storm_lines(storm.seed, storm.lines, storm.columns, ascii_only=ascii_only)
    return [*preamble_lines(storm.preamble), *texts]


def _started(terminal: TestTerminal, storm: Storm) -> TestTerminal:
    """``terminal`` as the rig's app finds it: the storm's preamble written, autowrap off as the shell starts."""
    for line in preamble_lines(storm.preamble):
        terminal.feed((line + "\r\n").encode())
    terminal.feed(b"\x1b[?7l")  # as the shell starts (shell.closing.ENTER_MODES)
    return terminal


def _landed(before: TestTerminal, data: bytes, resize: Resize) -> TestTerminal | None:
    """The model after ``data`` with the resize at the first point that leaves the cursor on the reported row."""
    step = max(1, len(data) // _CUTS)
    for cut in [*range(0, len(data), step), len(data)]:
        model = copy.deepcopy(before)
        model.feed(data[:cut])
        model.resize(resize.columns, resize.rows)
        model.feed(data[cut:])
        if resize.cursor_row is None or model.cursor.y == resize.cursor_row:
            return model
    return None


def retimed(path: Path, storm: Storm, family: TerminalFamily, resizes: Sequence[InFlight]) -> Verdict:
    """The checker's verdict on the Markdown storm recorded at ``path`` replayed from its app's ticks (its resizes
    left out) on ``family``'s model, with ``resizes`` landing in frames in flight instead: a real run's inputs, as
    the app batched them into ticks, with its resizes at other points.  Checked tick by tick too
    (``CheckedRenderer`` raises where a tick breaks a property)."""
    scenario = load_scenario(path)
    ticks = [[item for item in tick.inputs if not isinstance(item, Resize)] for tick in scenario.ticks]
    app = CheckedRenderer(
        storm.columns, storm.rows, config=scenario.config, cursor_row=scenario.cursor_row, family=family
    )
    _started(app.terminal, storm)
    moved = {resize.at: resize for resize in resizes}
    index = 0
    while index < len(ticks):
        resize = moved.get(index)
        if resize is None:
            app.feed(ticks[index])
            index += 1
            continue
        app.inflight(ticks[index : index + resize.ticks], resize.fraction, resize.size, True)
        index += resize.ticks
    return check(TerminalText(tuple(app.terminal.all_lines())), expected_lines(storm, family, "markdown"))
