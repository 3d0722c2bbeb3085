"""Recording: a ``Renderer`` appends every tick it runs to a scenario file (``Renderer.record_to``).

How a scenario line is written lives here, with the recorder that writes them; reading, validating and
replaying scenarios is ``inline_render.scenario``'s (above the core, which it drives).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from ..inputs import Fault, Input, Key, Paste, PromptRequest, input_to_json
from ..outputs import Output, PromptAnswer, output_to_json
from ..widgets.composer import is_text_key
from ..widgets.dialogs import PromptDialog
from .app import AppState
from .state import Config

__all__ = [
    "FORMAT",
    "VERSION",
    "Recorded",
    "ScenarioRecorder",
    "TickOutcome",
    "dumps_line",
    "escape_json",
    "scenario_header",
]

FORMAT = "inline-render-scenario"
VERSION = 1
# Characters json.dumps(ensure_ascii=False) leaves raw but that break lines, hide or reorder text in
# editors (bidi controls), or cannot be written as UTF-8 at all (lone surrogates).
_ESCAPE_MORE = re.compile("[\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


class Recorded(Protocol):
    """What the recorder reads of a ``Renderer`` (the tick module imports this one: it names no class of it)."""

    @property
    def ticks(self) -> int: ...

    @property
    def state(self) -> AppState: ...


class _Written(Protocol):
    @property
    def complete(self) -> bool: ...

    @property
    def bytes_written(self) -> int: ...


class TickOutcome(Protocol):
    """What the recorder reads of a ``TickResult``."""

    @property
    def state(self) -> AppState: ...

    @property
    def outputs(self) -> tuple[Output, ...]: ...

    @property
    def effect(self) -> _Written: ...


def escape_json(match: re.Match[str]) -> str:
    """A matched character as its JSON escape ``\\uXXXX``."""
    return f"\\u{ord(match.group(0)):04x}"


def dumps_line(data: Any) -> str:
    """One JSON line, readable (non-ASCII kept) but with C1, bidi controls, surrogates and line separators escaped.

    The result is always encodable as UTF-8 and prints inert on a terminal.
    """
    return _ESCAPE_MORE.sub(escape_json, json.dumps(data, ensure_ascii=False, separators=(", ", ": ")))


def scenario_header(
    name: str, columns: int, rows: int, cursor_row: int | None, config: Config, description: str | None = None
) -> dict[str, Any]:
    """A scenario file's header line (DESIGN, "Scenario files")."""
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": name}
    if description:
        data["description"] = description
    data["terminal"] = {"columns": columns, "rows": rows, "cursor_row": cursor_row}
    data["config"] = config.to_json()
    return data


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
        renderer: Recorded,
        *,
        name: str | None = None,
        description: str | None = None,
    ) -> ScenarioRecorder:
        """Start a file for ``renderer`` (which must not have run a tick yet): writes the header."""
        if renderer.ticks:
            raise ValueError("record_to: start recording before the first tick (the header is the initial state)")
        state = renderer.state
        target = Path(path)
        header = scenario_header(
            name or target.stem, state.columns, state.rows, state.screen.start_row, state.config, description
        )
        stream = target.open("w", encoding="utf-8", newline="\n")
        stream.write(dumps_line(header) + "\n")
        stream.flush()
        return cls(target, stream)

    def record(self, inputs: Sequence[Input], result: TickOutcome) -> None:
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
