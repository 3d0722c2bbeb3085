"""The tick (four stages in order) and ``Renderer``, the small driver that owns state and backend."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from prompt_toolkit.output.color_depth import ColorDepth

from ..inputs import Input, Resize, check_terminal_size
from ..outputs import Output
from ..terminals.memory import TestTerminal
from .app import AppState, initial_state
from .backend import MemorySink, Vt100Backend
from .effects import EffectResult, apply_terminal_effects
from .evolve import fast_init, maker
from .layout import Frame, Layout, compute_layout, draw_frame
from .record import ScenarioRecorder
from .reduce import reduce_inputs
from .state import Config, RenderState, SyncPhase, check_invariants

__all__ = [
    "InMemoryRenderer",
    "Renderer",
    "TickRecorder",
    "TickResult",
    "apply_terminal_effects",
    "start_position",
    "tick",
]


@fast_init
@dataclass(frozen=True, slots=True)
class TickResult:
    """Everything one tick produced."""

    state: AppState
    outputs: tuple[Output, ...]
    layout: Layout
    frame: Frame
    effect: EffectResult


def tick(state: AppState, inputs: Iterable[Input], backend: Vt100Backend) -> TickResult:
    """One tick: reduce_inputs -> compute_layout -> draw_frame -> apply_terminal_effects."""
    before: RenderState = state.render
    reduced, outputs = reduce_inputs(state, inputs)
    layout = compute_layout(reduced)
    frame = draw_frame(reduced, layout)
    after, effect = apply_terminal_effects(reduced, layout, frame, backend)
    if state.config.check_invariants and not (after.render is before and _CHECKED.get(None) is before):
        check_invariants(before, after.render, log_cleared=after.log_cleared)
        _CHECKED[None] = after.render
    return _MAKE_RESULT(after, tuple(outputs) if outputs else (), layout, frame, effect)


_MAKE_RESULT = maker(TickResult)  # a TickResult without calling the class (evolve.maker)

# The last RenderState that passed ``check_invariants`` as a tick's result.  A tick that leaves that very
# object as it is (no input, a status change) is the pair (r, r): the ordering held when r was checked,
# and nothing decreased or changed phase, so checking it again could only give the same answer.
_CHECKED: dict[None, RenderState] = {}


class TickRecorder(Protocol):
    """Receives every tick a ``Renderer`` runs (``inline_render.core.record.ScenarioRecorder``)."""

    def record(self, inputs: Sequence[Input], result: TickResult) -> None: ...


class Renderer:
    """Owns an ``AppState`` and a backend; ``feed`` runs a tick and the follow-up redraw it asks for."""

    def __init__(
        self,
        backend: Vt100Backend,
        columns: int,
        rows: int,
        *,
        config: Config | None = None,
        cursor_row: int | None = None,
    ) -> None:
        self.backend = backend
        self.state = initial_state(config or Config(), columns, rows, cursor_row)
        self.last: TickResult | None = None
        self.ticks = 0
        self.frames = 0  # ticks that wrote (what the terminal reads as frames; the shell counts these in flight)
        self.recorder: TickRecorder | None = None

    @staticmethod
    def in_memory(
        columns: int = 80, rows: int = 24, *, config: Config | None = None, cursor_row: int | None = 0
    ) -> InMemoryRenderer:
        """A renderer writing into a ``TestTerminal`` (``renderer.terminal``), for tests and replays."""
        return InMemoryRenderer(columns, rows, config=config, cursor_row=cursor_row)

    @property
    def render_state(self) -> RenderState:
        """The current RenderState."""
        return self.state.render

    def step(self, inputs: Iterable[Input] = ()) -> TickResult:
        """Run exactly one tick (no automatic follow-up)."""
        inputs = list(inputs)
        result = tick(self.state, inputs, self.backend)
        self.state = result.state
        self.last = result
        self.ticks += 1
        self.frames += result.effect.bytes_written > 0
        if self.recorder is not None:
            self.recorder.record(inputs, result)
        return result

    def record_to(self, path: str | os.PathLike[str], *, name: str | None = None) -> ScenarioRecorder:
        """Append every tick from now on (follow-ups included) to a scenario file; call before the first tick."""
        recorder = ScenarioRecorder.create(path, self, name=name)
        self.recorder = recorder
        return recorder

    def feed(self, inputs: Iterable[Input] = ()) -> list[Output]:
        """Run a tick with ``inputs``, then the one follow-up redraw if rows were inserted."""
        result = self.step(inputs)
        outputs = list(result.outputs)
        if result.state.render.sync_phase is SyncPhase.INSERTED_NEEDS_REDRAW:
            outputs.extend(self.step().outputs)
        return outputs


def start_position(rows: int, cursor_row: int | None) -> bytes:
    """The bytes that put a test terminal's cursor where a shell left it before the app started."""
    row = rows - 1 if cursor_row is None else max(0, min(cursor_row, rows - 1))
    return f"\x1b[{row + 1};1H".encode()


class InMemoryRenderer(Renderer):
    """A renderer drawing into a ``TestTerminal``; a ``Resize`` input resizes that terminal first,
    as a real terminal has already changed size when the application hears of it."""

    def __init__(
        self, columns: int = 80, rows: int = 24, *, config: Config | None = None, cursor_row: int | None = 0
    ) -> None:
        config = config or Config()
        check_terminal_size(columns, rows)  # before the terminal's cells are allocated
        self.terminal = TestTerminal(columns, rows, config.width_policy)
        # The shell left the cursor on the start row (the bottom row when it is not known): the frames
        # move relative to it, as they do on a real terminal.
        self.terminal.feed(start_position(rows, cursor_row))
        self.sink = MemorySink(self.terminal)
        super().__init__(
            Vt100Backend(self.sink, ColorDepth.DEPTH_4_BIT), columns, rows, config=config, cursor_row=cursor_row
        )

    def step(self, inputs: Iterable[Input] = ()) -> TickResult:
        """Resize the terminal for ``Resize`` inputs, then run exactly one tick."""
        inputs = list(inputs)
        for item in inputs:
            if isinstance(item, Resize):
                self.terminal.resize(item.columns, item.rows)
        return super().step(inputs)
