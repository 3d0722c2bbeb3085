"""What the terminal did with the frames in flight at a resize: they are replayed on a model of it.

Every frame moves the cursor relative to itself, so a resize the terminal applied between frames or
inside one keeps our rows where the cursor expects them (``reduce._resize``).  One move breaks that: a
frame moves up from the composer (``CUU``) as far as the first row it writes, and on a screen that a
shrink left with fewer rows than that, the move stops at the top row.  Every row the frame writes then
lands lower than planned, as a diff over other text than the one it was diffed against, and its line
feeds at the bottom scroll rows it did not mean to scroll.  Which rows reach history intact depends on
the text, so it cannot be reasoned out; it can be replayed.  The screen before the first frame in
flight is known (the viewport as drawn, the cursor, the rows above it are committed text), so are the
frames' operations and the size they met (their acknowledgements say it): a terminal model fed the
same operations shows where every row went.

The model is ``TestTerminal`` with xterm's resize (no reflow): the replay is asked only for a shrink
that kept or widened the width, where the terminals measured (xterm, VTE, xterm.js, tmux) agree: rows
are not re-wrapped, the top rows go into history so the cursor stays on the screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .app import FrameRecord
from .backend import Vt100Backend
from .ops import AutowrapOn, LineFeed, MoveBy, Plan
from .style import row_text
from .terminal import TerminalFamily, TestTerminal
from .text import WidthPolicy

__all__ = ["Replayed", "clamped", "glued_line", "replay_frames"]

# A row above the viewport before the frames in flight (committed text, whatever it says): three
# private-use characters, which no drawn row is in practice (sanitized text may hold them).
_ABOVE = "\ue000\ue001\ue002"


@dataclass(frozen=True, slots=True)
class Replayed:
    """Where the rows went: the rows pushed into history since the first frame (oldest first, the rows
    that were above the viewport left out), the screen's rows, and the cursor."""

    history: tuple[str, ...]
    screen: tuple[str, ...]
    cursor: tuple[int, int]


def clamped(frames: Sequence[FrameRecord], met_rows: int) -> bool:
    """Whether a move up of ``frames`` stopped at the top row of a screen of ``met_rows`` rows that the
    terminal took before the first of them (its cursor then on the same row, or the bottom one)."""
    if not frames:
        return False
    row = min(frames[0].cursor[0], met_rows - 1)
    for frame in frames:
        for op in frame.ops:
            if type(op) is MoveBy:
                if op.rows < 0 and row + op.rows < 0:
                    return True
                row = max(0, min(row + op.rows, met_rows - 1))
            elif type(op) is LineFeed:
                row = min(row + 1, met_rows - 1)
    return False


def replay_frames(
    frames: Sequence[FrameRecord], met: tuple[int, int], now: tuple[int, int], policy: WidthPolicy
) -> Replayed | None:
    """Replay ``frames`` on a terminal that took the size ``met`` (columns, rows) before the first of them
    and is ``now`` in size afterwards; None where the model does not apply (a narrowing, a cursor off the
    screen, a frame that moved the screen's top row)."""
    if not frames:
        return None
    first = frames[0]
    if met[0] < first.columns or now[0] < met[0] or not first.drawn:
        return None
    if first.top < 0 or first.top + len(first.drawn) > first.rows:
        return None
    terminal = TestTerminal(first.columns, first.rows, policy, TerminalFamily.XTERM)
    lines = [_ABOVE] * first.top + [row_text(row).rstrip(" ") for row in first.drawn]
    terminal.feed("\r\n".join(lines))
    row, column = first.cursor
    bottom = len(lines) - 1
    if not 0 <= row <= bottom:
        return None
    terminal.feed(f"\x1b[{bottom - row}A" if row < bottom else "")
    terminal.feed(f"\x1b[{column + 1}G")
    terminal.resize(*met)
    backend = Vt100Backend(lambda data: None)  # only encodes: nothing is written
    for frame in frames:
        data, _ = backend.encode(Plan(frame.ops))
        terminal.feed(data)
    if now != met:
        terminal.resize(*now)
    pushed = terminal.scrollback
    start = len(pushed)
    while start > 0 and pushed[start - 1] != _ABOVE:
        start -= 1
    screen = terminal.screen_lines()
    if any(line == _ABOVE for line in screen):
        return None  # rows from above the viewport still on the screen: not the shrink this is for
    cursor = terminal.cursor
    return Replayed(tuple(pushed[start:]), tuple(screen), (cursor.y, cursor.x))


def glued_line(
    frames: Sequence[FrameRecord], met: tuple[int, int], now: tuple[int, int], policy: WidthPolicy, cursor_row: int
) -> int:
    """GNU screen (``Config.soft_wrap_lines``), frames in flight at a narrowing: the offset, in the rows the frames
    inserted, of the first line that one of them wrote as one text where the row above continues into it, for a
    resize anywhere in the first frame after which the cursor ends on ``cursor_row`` (as the terminal reported);
    ``len`` of those rows where none was, -1 where no such resize puts the cursor there.

    A narrowing splits a row wider than the new width into pieces, each but the last marked as continuing into
    the next row; a frame read after it moves up as far as it planned and lands lower, under such a piece, and
    GNU screen then holds the text it writes there as the piece's continuation (a later resize shows the two as
    one line, ours cut).  No erase clears the mark, so the line has to be inserted again."""
    first = frames[0]
    inserted = sum(len(frame.inserted) for frame in frames)
    if not first.drawn or first.top < 0 or first.top + len(first.drawn) > first.rows:
        return -1
    if not 0 <= first.cursor[0] < first.top + len(first.drawn):
        return -1
    backend = Vt100Backend(lambda data: None)  # only encodes: nothing is written
    encoded = [backend.encode(Plan(frame.ops)) for frame in frames]
    starts: list[list[int]] = []  # per frame: the byte offset of each AutowrapOn
    for frame, (_, ends) in zip(frames, encoded, strict=True):
        offsets = [ends[index - 1] if index else 0 for index, op in enumerate(frame.ops) if type(op) is AutowrapOn]
        starts.append(offsets)
    cuts = sorted({0, *encoded[0][1]})
    found: int | None = None
    for cut in cuts:
        terminal = _screen_model(first, policy)
        glued = inserted
        offset = 0
        for index, (frame, (data, _)) in enumerate(zip(frames, encoded, strict=True)):
            marks = sorted({*starts[index], *((cut,) if index == 0 else ())})
            done = 0
            for mark in marks:
                terminal.feed(data[done:mark])
                done = mark
                if index == 0 and mark == cut:
                    terminal.resize(*met)
                if mark in starts[index] and glued == inserted and _continued(terminal):
                    glued = offset + frame.soft_lines[starts[index].index(mark)]
            terminal.feed(data[done:])
            if index == 0 and cut >= len(data):
                terminal.resize(*met)
            offset += len(frame.inserted)
        if now != met:
            terminal.resize(*now)
        if terminal.cursor.y == cursor_row:
            found = glued if found is None else min(found, glued)
    return -1 if found is None else found


def _screen_model(first: FrameRecord, policy: WidthPolicy) -> TestTerminal:
    """GNU screen's model holding the viewport as drawn before ``first``, committed rows above it, the cursor."""
    terminal = TestTerminal(first.columns, first.rows, policy, TerminalFamily.SCREEN)
    terminal.feed("\x1b[?7l")  # as the shell runs it (shell.closing.ENTER_MODES)
    lines = [_ABOVE] * first.top + [row_text(row).rstrip(" ") for row in first.drawn]
    terminal.feed("\r\n".join(lines))
    row, column = first.cursor
    bottom = len(lines) - 1
    terminal.feed(f"\x1b[{bottom - row}A" if row < bottom else "")
    terminal.feed(f"\x1b[{column + 1}G")
    return terminal


def _continued(terminal: TestTerminal) -> bool:
    """The row above the cursor's continues into it (GNU screen marks the row it wraps from)."""
    y = terminal.cursor.y
    if y > 0:
        return terminal.wrapped[y - 1]
    return bool(terminal.history) and terminal.history[-1].wrapped
