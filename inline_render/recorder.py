"""Recording: a ``Renderer`` appends every tick it runs to a scenario file (``Renderer.record_to``)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from .composer import is_text_key
from .dialogs import PromptDialog
from .inputs import Fault, Input, Key, Paste, PromptRequest, input_to_json
from .outputs import Output, PromptAnswer, output_to_json
from .scenario import Scenario, dumps_line
from .tick import Renderer, TickResult

__all__ = ["ScenarioRecorder"]


@dataclass
class ScenarioRecorder:
    """Appends every tick a ``Renderer`` runs to a scenario file (see ``Renderer.record_to``).

    Each tick's inputs are written with the resulting RenderState fields and
    outputs as ``expect``.  What the user types into a ``secret`` prompt (and
    its answer) is stored as ``*`` characters.  A write that failed on its own (not through a
    ``fault`` input) is recorded as a ``fault`` input with the bytes that got
    through, so the replay fails the same way.
    """

    path: Path
    stream: TextIO
    ticks: int = 0
    closed: bool = field(default=False)
    error: str | None = None
    """Why the recording stopped early (a failed write), if it did."""
    secret_open: bool = False  # a secret prompt had the focus at the end of the last tick
    secret_ids: set[str] = field(default_factory=set)

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
        self.secret_ids.update(i.id for i in inputs if isinstance(i, PromptRequest) and i.secret)
        raw = [input_to_json(self._redact(item)) for item in inputs]
        effect = result.effect
        if not effect.complete and not any(isinstance(item, Fault) for item in inputs):
            raw.append(input_to_json(Fault(effect.bytes_written)))
        expect = dict(result.state.render.to_json())
        expect["outputs"] = [output_to_json(self._redact_answer(o)) for o in result.outputs]
        dialog = result.state.dialog
        self.secret_open = isinstance(dialog, PromptDialog) and dialog.request.secret
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

    def _redact(self, item: Input) -> Input:
        """What is typed into a secret prompt is stored as ``*``: the replay still answers alike, with stars."""
        if not self.secret_open:
            return item
        if isinstance(item, Key) and is_text_key(item.key):
            return Key("*")
        if isinstance(item, Paste):
            return Paste("*" * len(item.text))
        return item

    def _redact_answer(self, output: Output) -> Output:
        if isinstance(output, PromptAnswer) and output.id in self.secret_ids and output.value is not None:
            return PromptAnswer(output.id, "*" * len(output.value))
        return output

    def close(self) -> None:
        """Stop recording and close the file."""
        if not self.closed:
            self.closed = True
            self.stream.close()

    def __enter__(self) -> ScenarioRecorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
