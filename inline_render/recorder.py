"""Recording: a ``Renderer`` appends every tick it runs to a scenario file (``Renderer.record_to``)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .inputs import Fault, Input, input_to_json
from .outputs import output_to_json
from .scenario import Scenario, dumps_line
from .tick import Renderer, TickResult

__all__ = ["ScenarioRecorder"]


@dataclass
class ScenarioRecorder:
    """Appends every tick a ``Renderer`` runs to a scenario file (see ``Renderer.record_to``).

    Each tick's inputs are written with the resulting RenderState fields and
    outputs as ``expect``.  A write that failed on its own (not through a
    ``fault`` input) is recorded as a ``fault`` input with the bytes that got
    through, so the replay fails the same way.
    """

    path: Path
    stream: TextIO
    ticks: int = 0
    closed: bool = field(default=False)
    error: str | None = None
    """Why the recording stopped early (a failed write), if it did."""

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        renderer: Renderer,
        *,
        name: str | None = None,
        description: str | None = None,
    ) -> ScenarioRecorder:
        """Start a file for ``renderer`` (which must not have run a tick yet): writes the header."""
        if renderer.ticks:
            raise ValueError("record_to: start recording before the first tick (the header is the initial state)")
        state = renderer.state
        target = Path(path)
        header = Scenario(
            name=name or target.stem,
            columns=state.columns,
            rows=state.rows,
            cursor_row=state.screen.start_row,
            config=state.config,
            ticks=(),
            description=description,
        ).header()
        stream = target.open("w", encoding="utf-8", newline="\n")
        stream.write(dumps_line(header) + "\n")
        stream.flush()
        return cls(target, stream)

    def record(self, inputs: Sequence[Input], result: TickResult) -> None:
        """Append one tick line; a write that fails stops the recording (``error``), never the app."""
        if self.closed:
            return
        raw = [input_to_json(item) for item in inputs]
        effect = result.effect
        if not effect.complete and not any(isinstance(item, Fault) for item in inputs):
            raw.append(input_to_json(Fault(effect.bytes_written)))
        expect = dict(result.state.render.to_json())
        expect["outputs"] = [output_to_json(o) for o in result.outputs]
        # dumps_line escapes lone surrogates, so the line is always UTF-8; the disk can still fail.
        try:
            self.stream.write(dumps_line({"inputs": raw, "expect": expect}) + "\n")
            self.stream.flush()
        except (OSError, ValueError) as exc:
            self.error = f"{self.path}: recording stopped after {self.ticks} ticks: {exc}"
            self.closed = True
            with contextlib.suppress(OSError, ValueError):
                self.stream.close()
            return
        self.ticks += 1

    def close(self) -> None:
        """Stop recording and close the file."""
        if not self.closed:
            self.closed = True
            self.stream.close()

    def __enter__(self) -> ScenarioRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
