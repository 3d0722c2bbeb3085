"""Run a script on a ``TestTerminal`` family model and compare it with a real terminal's snapshots."""

from __future__ import annotations

from collections.abc import Sequence

from inline_render.terminals.memory import TerminalFamily, TestTerminal

from .real import Feed, Resize, Snapshot, Step

__all__ = ["FAMILY", "differences", "low_bytes", "narrowest", "run_model"]

FAMILY = {
    "xterm": TerminalFamily.XTERM,
    "vte": TerminalFamily.VTE,
    "xtermjs": TerminalFamily.XTERMJS,
    "tmux": TerminalFamily.TMUX,
    "screen": TerminalFamily.SCREEN,
}


def run_model(family: TerminalFamily, columns: int, rows: int, steps: Sequence[Step]) -> list[Snapshot]:
    """The script on the model; one snapshot per ``Snap``."""
    terminal = TestTerminal(columns, rows, family=family)
    snaps: list[Snapshot] = []
    for step in steps:
        if isinstance(step, Feed):
            terminal.feed(step.data)
        elif isinstance(step, Resize):
            terminal.resize(step.columns, step.rows)
        else:
            snaps.append(
                Snapshot(
                    tuple(terminal.scrollback),
                    tuple(terminal.screen_lines()),
                    (terminal.x, terminal.y),
                    (terminal.columns, terminal.rows),
                )
            )
    return snaps


def low_bytes(snap: Snapshot) -> Snapshot:
    """``snap`` as GNU screen 4.09's ``hardcopy`` writes it: the low byte of each non-ASCII character."""

    def low(lines: tuple[str, ...]) -> tuple[str, ...]:
        return tuple("".join(chr(ord(c) & 0xFF) if ord(c) > 0x7F else c for c in line) for line in lines)

    return Snapshot(low(snap.history), low(snap.screen), snap.cursor, snap.size)


def _clip(lines: tuple[str, ...], width: int | None) -> tuple[str, ...]:
    if width is None:
        return lines
    # Wide characters count 2 cells: cut by cells, not code points.
    out = []
    for line in lines:
        cells, text = 0, ""
        for char in line:
            cells += 2 if ord(char) > 0x2E80 else 1
            if cells > width:
                break
            text += char
        out.append(text.rstrip(" "))
    return tuple(out)


def differences(real: Sequence[Snapshot], model: Sequence[Snapshot], clip: Sequence[int] | None = None) -> list[str]:
    """What differs, snapshot by snapshot (empty when the model matches).

    ``clip``: per snapshot, compare rows only up to that many cells (xterm beyond the narrowest width
    a script had so far: xterm reuses line buffers, so a widening shows stale cells there).
    """
    out: list[str] = []
    for index, (seen, wanted) in enumerate(zip(real, model, strict=True)):
        width = clip[index] if clip is not None else None
        for field in ("history", "screen", "cursor"):
            a, b = getattr(seen, field), getattr(wanted, field)
            if field != "cursor":
                a, b = _clip(a, width), _clip(b, width)
            if a != b:
                out.append(f"snap {index} {field}: real {a!r} model {b!r}")
    return out


def narrowest(columns: int, steps: Sequence[Step]) -> list[int]:
    """Per snapshot of the script, the narrowest width it had so far."""
    out, width = [], columns
    for step in steps:
        if isinstance(step, Resize):
            width = min(width, step.columns)
        elif not isinstance(step, Feed):
            out.append(width)
    return out
