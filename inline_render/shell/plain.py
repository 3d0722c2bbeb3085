"""Non-TTY output: an append-only plain transcript, or JSON Lines, from the same core state.

The core's ``reduce_inputs`` still owns every transition (sanitizing, legacy
preflight lines, dialogs and their answers), so a plain run behaves exactly
like an inline one; only the drawing differs.  Text is written once it is
*committed* (it can no longer change), one line per logical line, with no
escape sequence at all.  With ``ascii`` the output is strict ASCII: kinds
become tokens such as ``[OK]``, ``[WARN]``, ``[ERROR]`` and other characters
become ``?``.

JSON Lines mode runs the core on *carried* text and writes every record with one encoder
(``shell.jsonl``): printable ASCII on the wire, the runtime's exact text after ``json.loads``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TextIO

from ..core.app import AppState, initial_state
from ..core.log import LogRow, LogState, log_rows
from ..core.reduce import reduce_inputs
from ..core.rows import prefix_for
from ..core.state import Config
from ..inputs import Input, LogAppend, LogDelta, LogFinish, LogReplace
from ..outputs import ConfirmAnswer, FormAnswer, Output, PickAnswer, PromptAnswer, output_to_json
from ..protocol.jsonl import carry_input, encode_record, uncarry_output
from ..text.cells import flatten
from ..widgets.approval import approval_json, approval_lines
from ..widgets.dialogs import ConfirmDialog, Dialog, FormDialog, PickDialog, PromptDialog
from ..widgets.forms import field_summary

__all__ = ["ASCII_PREFIXES", "AnswerTracker", "PlainWriter"]

_UNWRAPPED = 1_000_000  # wide enough that every logical line is one row
_ASCII_PREFIXES = {
    "text": "",
    "user": "> ",
    "assistant": "",
    "status": "  ",
    "tool": "* ",
    "error": "[ERROR] ",
    "diff": "  ",
    "reasoning": "  ",
    "info": "[INFO] ",
    "warn": "[WARN] ",
    "success": "[OK] ",
}
ASCII_PREFIXES = _ASCII_PREFIXES


def _ascii(text: str) -> str:
    return text.encode("ascii", "replace").decode("ascii")


class PlainWriter:
    """Feeds inputs through the core reducer and writes what became final to ``stream``."""

    def __init__(self, stream: TextIO, *, config: Config | None = None, jsonl: bool = False, ascii: bool = False):
        self.stream = stream
        self.jsonl = jsonl
        self.ascii = ascii
        # A transcript for pipes and programs keeps the Markdown source: readable as it is, and exact in JSON Lines.
        self.state: AppState = initial_state(replace(config or Config(), markdown=False), 80, 24)
        self._partial: list[str] = []  # text of the entry being written, for JSON Lines
        self._dialog: Dialog | None = None
        self._status = ""

    def feed(self, inputs: Iterable[Input]) -> list[Output]:
        """One reduction: the outputs (answers, submits) it produced; committed text is written."""
        if self.jsonl:
            inputs = [carry_input(item) for item in inputs]
        state, outputs = reduce_inputs(self.state, inputs)
        # Printing a dialog is drawing it: the next reduction may activate it.
        screen = replace(state.screen, dialog_drawn=state.dialog is not None)
        self.state = replace(state, screen=screen)
        self._write_committed(final=False)
        for output in outputs:
            if isinstance(output, (ConfirmAnswer, PromptAnswer, PickAnswer, FormAnswer)):
                self._answer(output)
        self._show_dialog()
        if self.state.status != self._status:
            self._status = self.state.status
            if self.jsonl and self._status:
                self._json({"type": "status", "text": self._status})
        self.stream.flush()
        return [uncarry_output(output) for output in outputs] if self.jsonl else outputs

    def close(self) -> None:
        """Write everything still pending, unfinished entries included."""
        self._write_committed(final=True)
        self.stream.flush()

    # --- log ---------------------------------------------------------------------------------

    def _write_committed(self, final: bool) -> None:
        log = self.state.log
        rows, committed = log_rows(log, _UNWRAPPED, self.state.config.width_policy)
        done = rows if final else rows[:committed]
        if not done:
            return
        for row in done:
            self._row(row)
        self.state = replace(self.state, log=log.advance(tuple(done)) if not final else LogState(next_key=log.next_key))

    def _row(self, row: LogRow) -> None:
        entry = row.entry
        text = entry.piece(row.start, row.end).rstrip("\n")
        last = row.end >= entry.shown_end
        if self.jsonl:
            # A row that continues a logical line (wider than _UNWRAPPED cells) joins without a newline.
            self._partial.append(text if row.start > row.line_start or not self._partial else "\n" + text)
            if last:
                text = "".join(self._partial)
                self._json({"type": "log", "kind": entry.kind, "text": text})
                self._partial = []
            return
        first = row.start == 0 and entry.base == 0
        if self.ascii:
            prefix = _ASCII_PREFIXES.get(entry.kind, "  ")
            lead = prefix if first else " " * len(prefix)
            self.stream.write(_ascii(lead + text).rstrip(" ") + "\n")
        else:
            prefix = prefix_for(entry.kind)[0]
            lead = prefix if first else " " * len(prefix)
            self.stream.write((lead + text).rstrip(" ") + "\n")

    # --- dialogs ------------------------------------------------------------------------------

    def _show_dialog(self) -> None:
        dialog = self.state.dialog
        if dialog is None or (self._dialog is not None and self._dialog.id == dialog.id):
            self._dialog = dialog
            return
        self._dialog = dialog
        request = dialog.request
        kind = {ConfirmDialog: "confirm", PromptDialog: "prompt", PickDialog: "pick", FormDialog: "form"}[type(dialog)]
        if self.jsonl:
            data: dict[str, Any] = {"type": "dialog", "dialog": kind, "id": dialog.id, "title": request.title}
            if request.message:
                data["message"] = request.message
            if isinstance(dialog, PickDialog):
                data["options"] = [option.id for option in dialog.request.options]
            if isinstance(dialog, ConfirmDialog):
                data.update(approval_json(dialog.request))
            if isinstance(dialog, FormDialog):
                data["fields"] = [field.name for field in dialog.request.fields]
            self._json(data)
            return
        lines = [f"? {request.title}"]
        lines += [f"  {line}" for line in request.message.splitlines()]
        if isinstance(dialog, ConfirmDialog):
            lines += approval_lines(dialog.request)
        if isinstance(dialog, FormDialog):  # one line per field; each typed line fills the next (seed 003's -i)
            lines += [f"  {field_summary(f)}" for f in dialog.request.fields]
        if isinstance(dialog, PickDialog):
            lines += [f"  - {option.label}" for option in dialog.request.options]
        self._lines(lines)

    def _answer(self, output: ConfirmAnswer | PromptAnswer | PickAnswer | FormAnswer) -> None:
        if self.jsonl:
            self._json(output_to_json(output))
            return
        if isinstance(output, ConfirmAnswer):
            shown = (output.scope if output.remember and output.scope else "yes") if output.ok else "no"
        elif isinstance(output, PromptAnswer):
            shown = "(dismissed)" if output.value is None else output.value
        elif isinstance(output, FormAnswer):
            values = output.as_dict()
            shown = "(dismissed)" if values is None else ", ".join(f"{k}={v}" for k, v in values.items())
        else:
            shown = ", ".join(output.ids) or "(dismissed)"
        self._lines([f"  -> {shown}"])

    # --- output -------------------------------------------------------------------------------

    def _lines(self, lines: list[str]) -> None:
        for line in lines:
            clean = flatten(line)  # one row: newlines and tabs (a cursor movement) become spaces
            self.stream.write((_ascii(clean) if self.ascii else clean) + "\n")

    def _json(self, data: dict[str, Any]) -> None:
        self.stream.write(encode_record(data) + "\n")


class AnswerTracker:
    """Follows assistant entries through the inputs; ``answer`` is the text of the last finished one."""

    def __init__(self) -> None:
        self._log = LogState()
        self.answer: str | None = None

    def feed(self, inputs: Iterable[Input]) -> None:
        """Apply the log inputs that concern assistant entries (same rules as the core log)."""
        log = self._log
        for item in inputs:
            if isinstance(item, LogAppend) and item.kind == "assistant":
                log = log.append(item.kind, item.text, item.id, item.final)
                if item.final:
                    self.answer = log.entries[-1].text
            elif isinstance(item, (LogDelta, LogReplace, LogFinish)):
                index = log.find(item.id)
                if index < 0 or log.entries[index].final:
                    continue
                if isinstance(item, LogDelta):
                    log = log.delta(index, item.text)
                elif isinstance(item, LogReplace):
                    log = log.replace_text(index, item.text)
                else:
                    log = log.finish(index)
                    self.answer = log.entries[index].text
        # Only unfinished entries are needed later.
        self._log = LogState(tuple(e for e in log.entries if not e.final), 0, log.next_key)
