"""What the peers replay, and the check that they drew it: our run of a workload, captured update by update.

Our renderer runs the workload (timed as the bench times it, ``Config(markdown=False)`` as the bench runs W1)
and every row it puts on the terminal is kept: the rows inserted into scrollback before the measured updates
(the prefilled log: ``history``), and per measured update the rows it inserted, the viewport after it and the
cursor.  Each peer's bytes are then replayed through pyte (``drew``): the end of its history and screen must be
the rows our last updates inserted and our last viewport, in order.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core.rows import draw_log_row
from ..core.state import Config, SyncPhase
from ..core.tick import Renderer, TickResult
from ..text.style import Row, row_text
from . import measure

__all__ = ["ByteCounter", "Capture", "Run", "TAIL_ROWS", "capture_events", "drew", "expected_lines"]

TAIL_ROWS = 8  # inserted rows (the last ones) that must sit right above the last viewport in a peer's history


@dataclass(frozen=True, slots=True)
class Capture:
    """What one measured update showed: rows it inserted above the viewport, the viewport after it, the cursor."""

    inserted: tuple[Row, ...]
    viewport: tuple[Row, ...]
    cursor: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Run:
    """Our run of a workload: its figures, the rows it had inserted before measuring, each measured update, and
    every byte it wrote (for the same pyte check as the peers')."""

    ours: dict[str, object]
    history: tuple[Row, ...]
    updates: list[Capture]
    output: bytes


class ByteCounter:
    """A text stream that counts the UTF-8 bytes written to it (what a terminal would receive), and keeps them."""

    encoding = "utf-8"

    def __init__(self) -> None:
        self.total = 0
        self.chunks: list[str] = []

    def write(self, text: str) -> int:
        self.total += len(text.encode("utf-8"))
        self.chunks.append(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True

    def data(self) -> bytes:
        return "".join(self.chunks).encode("utf-8")


def _inserted(result: TickResult, config: Config) -> list[Row]:
    """The rows a tick inserted into scrollback, drawn as the terminal shows them."""
    width = result.layout.columns
    rows = result.layout.to_insert[: result.effect.rows_inserted]
    return [draw_log_row(row, width, config.width_policy) for row in rows]


def _feed(renderer: Renderer, batch: measure.Batch, config: Config, history: list[Row]) -> None:
    """``Renderer.feed`` (a tick and its follow-up redraw), keeping the rows both inserted."""
    result = renderer.step(batch)
    history += _inserted(result, config)
    if result.state.render.sync_phase is SyncPhase.INSERTED_NEEDS_REDRAW:
        history += _inserted(renderer.step(), config)


def capture_events(events: Iterable[measure.Event]) -> Run:
    """Run a workload's events (timed as the bench does) and capture every row it showed."""
    config = Config(viewport_height=10, markdown=False)
    sink = measure.CountingSink(keep=True)
    renderer = measure.make_renderer(80, 24, config, sink)
    measured = measure.Measured()
    history: list[Row] = []
    captures: list[Capture] = []
    for phase, batch in events:
        if phase != "measure":
            _feed(renderer, batch, config, history)
            continue
        if not measured.updates.ns:
            gc.collect()
        first = measure.timed_update(renderer, sink, batch, measured)
        last = renderer.last
        assert last is not None
        captures.append(Capture(tuple(_inserted(first, config)), last.frame.rows, last.frame.cursor))
    assert sink.data is not None
    return Run(measured.figures(), tuple(history), captures, bytes(sink.data))


def expected_lines(updates: Sequence[Capture]) -> list[str]:
    """What the end of a terminal's history and screen must read after the run: the last ``TAIL_ROWS`` rows the
    measured updates inserted, then the last viewport (trailing spaces and blank rows dropped).  Not the history
    before them: Rich and prompt_toolkit keep no transcript, so they are not given it."""
    inserted = [row for update in updates for row in update.inserted]
    lines = [row_text(row).rstrip(" ") for row in [*inserted[-TAIL_ROWS:], *updates[-1].viewport]]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def drew(output: bytes, expected: Sequence[str], columns: int = 80, rows: int = 24) -> tuple[bool, str]:
    """Whether ``output``, replayed through pyte, ends with ``expected`` (history and screen); and why not."""
    try:
        from ..testing.pyte_terminal import PyteTerminal
    except ImportError as error:  # pyte is a test (and bench) dependency, not a runtime one
        return False, f"not checked: {error}"
    terminal = PyteTerminal(columns, rows)
    terminal.feed(output)
    lines = [*terminal.scrollback, *terminal.screen_lines()]
    while lines and not lines[-1]:
        lines.pop()
    tail = lines[-len(expected) :] if expected else []
    if tail == list(expected):
        return True, ""
    for index, (want, got) in enumerate(zip(expected, tail, strict=False)):
        if want != got:
            return False, f"line {index - len(expected)} from the end reads {got!r}, not {want!r}"
    return False, f"{len(tail)} lines where {len(expected)} were expected"
