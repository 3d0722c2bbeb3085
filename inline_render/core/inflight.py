"""What the terminal did with the frames in flight at a resize: they are replayed on a model of it.

Every frame moves the cursor relative to itself, so a resize the terminal applied between frames or
inside one keeps our rows where the cursor expects them (``reduce_resize``).  One move breaks that: a
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

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from ..terminals.memory import TerminalFamily, TestTerminal
from ..text.cells import WidthPolicy
from ..text.style import row_text
from .app import FrameRecord
from .backend import Vt100Backend
from .log import LogRow, continues_line
from .ops import Index, LineFeed, MoveBy, Plan, RestoreCursor, SaveCursor
from .rows import draw_log_row

__all__ = ["Replayed", "clamped", "damaged_lines", "replay_frames", "replay_resize", "replay_resize_in_flight"]

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
    joined: tuple[tuple[str, int], ...] = ()
    """History then screen with each row a re-wrapping terminal continued (soft-wrapped) joined onto the one it
    continues: (the text, the first row's index in ``history + screen``); a row drawn wider than the terminal
    that re-wrapped it is one text again."""


def clamped(frames: Sequence[FrameRecord], met_rows: int) -> bool:
    """Whether a move up of ``frames`` stopped at the top row of a screen of ``met_rows`` rows that the
    terminal took before the first of them (its cursor then on the same row, or the bottom one)."""
    if not frames:
        return False
    row = saved = min(frames[0].cursor[0], met_rows - 1)
    for frame in frames:
        for op in frame.ops:
            if type(op) is MoveBy:
                if op.rows < 0 and row + op.rows < 0:
                    return True
                row = max(0, min(row + op.rows, met_rows - 1))
            elif type(op) is LineFeed or type(op) is Index:
                row = min(row + 1, met_rows - 1)
            elif type(op) is SaveCursor:
                saved = row
            elif type(op) is RestoreCursor:
                row = saved
    return False


def replay_frames(
    frames: Sequence[FrameRecord],
    met: tuple[int, int],
    now: tuple[int, int],
    policy: WidthPolicy,
    family: TerminalFamily = TerminalFamily.XTERM,
) -> Replayed | None:
    """Replay ``frames`` on a terminal that took the size ``met`` (columns, rows) before the first of them
    and is ``now`` in size afterwards; None where the model does not apply (a narrowing, unless ``family`` is
    a terminal that re-wraps rows, a cursor off the screen, a frame that moved the screen's top row)."""
    if not frames:
        return None
    first = frames[0]
    if (met[0] < first.columns and not family.reflows) or now[0] < met[0]:
        return None
    terminal = _model(first, policy, family)
    if terminal is None:
        return None
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
    return Replayed(tuple(pushed[start:]), tuple(screen), (cursor.y, cursor.x), _joined(terminal, start))


def replay_resize(
    before: FrameRecord, now: tuple[int, int], policy: WidthPolicy, family: TerminalFamily
) -> tuple[tuple[int, int], tuple[int, ...]] | None:
    """A resize to ``now`` with no frame in flight, on ``family``'s model of the screen ``before`` shows (its
    viewport as drawn, its cursor): the cursor afterwards, and the screen row where each drawn row now starts
    (negative: in history).  None where the model cannot hold that screen."""
    terminal = _model(before, policy, family)
    if terminal is None:
        return None
    terminal.resize(*now)
    joined = _joined(terminal, 0)
    history = len(terminal.scrollback)
    drawn = [first - history for text, first in joined if text != _ABOVE]
    if len(drawn) < len(before.drawn):
        return None
    return (terminal.cursor.y, terminal.cursor.x), tuple(drawn[: len(before.drawn)])


def replay_resize_in_flight(
    frames: Sequence[FrameRecord],
    now: tuple[int, int],
    policy: WidthPolicy,
    family: TerminalFamily,
    rows: int,
    cuts: int = 48,
) -> list[tuple[int, tuple[int, ...]]] | None:
    """A resize to ``now`` that met ``frames`` in flight, on ``family``'s model of the screen before the first of
    them: for each point of their bytes where the resize may have landed (between operations, at most about
    ``cuts`` of them), the cursor's row afterwards and the screen row where each of the viewport's first ``rows``
    drawn rows now starts (negative: in history).  None where the model cannot hold that screen, or where at some
    point one of those rows does not read as drawn (a frame's move up landed on it): then where they went is not
    what the model can tell."""
    first = frames[0] if frames else None
    terminal = _model(first, policy, family) if first is not None else None
    if first is None or terminal is None or len(first.drawn) < rows:
        return None
    # Compared without blanks: a wide character a re-wrap moved to the next row leaves a blank cell where it was.
    expected = ["".join(row_text(row).split()) for row in first.drawn[:rows]]
    backend = Vt100Backend(lambda data: None)  # only encodes: nothing is written
    data, ends = b"", [0]
    for frame in frames:
        chunk, chunk_ends = backend.encode(Plan(frame.ops))
        ends += [len(data) + end for end in chunk_ends]
        data += chunk
    points = sorted(set(ends))
    step = max(1, len(points) // cuts)
    landed: list[tuple[int, tuple[int, ...]]] = []
    fed = 0
    for cut in [*points[::step], len(data)]:
        terminal.feed(data[fed:cut])  # the bytes before the resize, fed once; each point resizes a copy
        fed = cut
        model = copy.deepcopy(terminal)
        model.resize(*now)
        model.feed(data[cut:])
        history = len(model.scrollback)
        joined = [(text, start - history) for text, start in _joined(model, 0) if text != _ABOVE]
        if ["".join(text.split()) for text, _ in joined[:rows]] != expected:
            return None
        landed.append((model.cursor.y, tuple(start for _, start in joined[:rows])))
    return landed


def _joined(terminal: TestTerminal, start: int) -> tuple[tuple[str, int], ...]:
    """``Replayed.joined`` of ``terminal`` from its history row ``start`` on."""
    if len(terminal.history) != len(terminal.scrollback):  # no cells kept for history: the rows as they are
        texts = [*terminal.scrollback[start:], *terminal.screen_lines()]
        return tuple((text, index) for index, text in enumerate(texts))
    rows = [(line.cells, line.wrapped) for line in terminal.history[start:]]
    rows += list(zip(terminal.grid, terminal.wrapped, strict=True))
    joined: list[tuple[str, int]] = []
    for index, (cells, wrapped) in enumerate(rows):
        text = "".join(" " if cell == "" else "" if cell == "\0" else cell for cell in cells)
        if wrapped and joined:
            joined[-1] = (joined[-1][0] + text, joined[-1][1])
        else:
            joined.append((text, index))
    return tuple((text.rstrip(" "), index) for text, index in joined)


def damaged_lines(
    frames: Sequence[FrameRecord],
    met: tuple[int, int],
    now: tuple[int, int],
    policy: WidthPolicy,
    cursor_row: int | None,
) -> tuple[int, ...] | None:
    """GNU screen (``Config.soft_wrap_lines``), frames in flight at a narrowing: the rows (offsets among the rows the
    frames inserted, in order) of the lines that do not end up whole in screen's text for some resize in the first
    frame after which the cursor ends on ``cursor_row`` (as the terminal reported; None: no report, every point
    counts); None where no such resize puts the cursor there.

    A narrowing splits a row wider than the new width into pieces, each but the last marked as continuing into
    the next row; a frame read after it moves up as far as it planned and lands lower.  Under such a piece, the
    text it writes becomes the piece's continuation (a later resize shows the two as one line, ours cut); a diff
    it writes to a row lands in another row or past the new width (clipped).  Whole means: some logical line of
    screen's (rows joined by their marks) holds the line's text, blanks aside (a line written as one text holds
    the blanks its rows were filled with).  A line damaged at any of the points counts (shown twice is better than
    cut); the lines after it that are whole are not (the one damaged then comes after them)."""
    first = frames[0]
    if _model(first, policy, TerminalFamily.SCREEN) is None:
        return None
    lines = _inserted_lines(frames, policy)
    backend = Vt100Backend(lambda data: None)  # only encodes: nothing is written
    encoded = [backend.encode(Plan(frame.ops)) for frame in frames]
    data, ends = [chunk for chunk, _ in encoded], encoded[0][1]
    damaged: set[int] | None = None
    for cut in sorted({0, *ends}):
        terminal = _model(first, policy, TerminalFamily.SCREEN)
        assert terminal is not None  # checked above
        terminal.feed(data[0][:cut])
        terminal.resize(*met)
        terminal.feed(data[0][cut:])
        for chunk in data[1:]:
            terminal.feed(chunk)
        if now != met:
            terminal.resize(*now)
        if cursor_row is not None and terminal.cursor.y != cursor_row:
            continue
        texts = _logical_texts(terminal)
        if damaged is None:
            damaged = set()
        damaged.update(index for index, (_, text) in enumerate(lines) if text not in texts)
    return None if damaged is None else tuple(row for index in sorted(damaged) for row in lines[index][0])


def _model(first: FrameRecord, policy: WidthPolicy, family: TerminalFamily) -> TestTerminal | None:
    """``family``'s model holding the viewport as drawn before ``first``, committed rows above it (``_ABOVE``), the
    cursor where it was; None where that screen cannot be (no rows drawn, rows or cursor off the screen)."""
    if not first.drawn or first.top < 0 or first.top + len(first.drawn) > first.rows:
        return None
    row, column = first.cursor
    bottom = first.top + len(first.drawn) - 1
    if not 0 <= row <= bottom:
        return None
    terminal = TestTerminal(first.columns, first.rows, policy, family)
    # Autowrap off, as the shell runs every terminal (shell.closing.ENTER_MODES): a row written wider than a
    # narrowed screen has its tail overwrite the last column instead of wrapping into the row under it.
    terminal.feed("\x1b[?7l")
    # Each row as the backend wrote it: a dialog row's trailing blanks are cells a re-wrapping terminal re-wraps too.
    terminal.feed("\r\n".join([_ABOVE] * first.top + [row_text(row) for row in first.drawn]))
    terminal.feed(f"\x1b[{bottom - row}A" if row < bottom else "")
    terminal.feed(f"\x1b[{column + 1}G")
    return terminal


def _inserted_lines(frames: Sequence[FrameRecord], policy: WidthPolicy) -> list[tuple[range, str]]:
    """Each line the frames inserted: the offsets of its rows among their inserted rows, its text without blanks."""
    lines: list[tuple[range, str]] = []
    offset = 0
    previous: LogRow | None = None
    for frame in frames:
        for row in frame.inserted:
            text = "".join(row_text(draw_log_row(row, frame.columns, policy, None)).split())
            if previous is not None and continues_line(previous, row) and lines:
                rows, joined = lines[-1]
                lines[-1] = (range(rows.start, offset + 1), joined + text)
            else:
                lines.append((range(offset, offset + 1), text))
            previous = row
            offset += 1
    return lines


def _logical_texts(terminal: TestTerminal) -> set[str]:
    """Screen's logical lines (rows joined by the mark that a row continues into the next), without blanks."""
    texts: set[str] = set()
    parts: list[str] = []
    history = [(line.cells, line.wrapped) for line in terminal.history]
    rows = [*history, *zip(terminal.grid, terminal.wrapped, strict=True)]
    for cells, wrapped in rows:
        parts.append("".join(cell for cell in cells if cell not in ("", "\0", " ")))
        if not wrapped:
            texts.add("".join(parts))
            parts = []
    if parts:
        texts.add("".join(parts))
    return texts
