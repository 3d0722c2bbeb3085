"""What real terminals do to screen, history and cursor on a resize: one model per family.

Measured on xterm 379, VTE 0.70, xterm.js 6 (headless), tmux 3.3a and GNU screen 4.09 with the scripted
probes of ``tests/termprobe`` (``python -m tests.termprobe`` prints every answer), and checked
by the differential tests of ``tests/test_terminal_models.py``:

================  ===========================  ============================  =====================
terminal          taller (with history)        shorter                       narrower / wider
================  ===========================  ============================  =====================
xterm             pulls back min(gained,       drops rows below the cursor   no reflow: rows are
                  history) rows; the cursor    (text too), then pushes top   cut; cells up to the
                  moves down by as many        rows into history             next multiple of 4
                                                                             come back on widening
VTE               the ring's last rows are     drops rows below the cursor's  re-wraps history and
                  shown: pull-back as xterm    paragraph, then pushes        screen; rows below
                                                                             the last written one
                                                                             are not content
xterm.js          pulls back only while the    drops rows below the cursor,  re-wraps every line
                  cursor is on the last row    then pushes                   but the cursor's; the
                                                                             cursor moves down
                                                                             while ybase is 0
tmux              pulls back as xterm          as xterm                      re-wraps all; the
                                                                             screen is the last
                                                                             rows of the grid
GNU screen 4.09   history + screen are one     pushes the top rows (those    re-wraps all, from the
                  array laid out from the      below the cursor too);        last row up; rows below
                  bottom: pulls back rows      drops bottom rows only to     the cursor drop where
                  (blank ones past history)    keep the cursor's line on     its line would start
                                               screen                        above the screen
simple            never (the historical model) rows cut at the top           cut, never reflowed
================  ===========================  ============================  =====================

``ESC[K`` right after a full-width write (the pending-wrap position): xterm erases the last cell
(autowrap on or off) and forgets the pending wrap; tmux erases it only with autowrap off (DECAWM
reset, as the library runs); VTE and xterm.js keep it (their cursor sits past the last column,
where a widening leaves it), but VTE's ``ESC[J`` there erases it.  Without autowrap, xterm and
tmux have no pending wrap at all, and xterm.js drops a wide character that does not fit.

tmux (option ``scroll-on-clear``, on by default) moves the screen's rows down to the last one in use
into history when ``ESC[J`` is sent from the top-left cell, GNU screen every row; the others just clear.
GNU screen's ``hardcopy -h`` (and copy mode) shows only as many history rows as line feeds scrolled into
it (``TestTerminal.scrolled``): rows a resize pushes are kept but shift older rows out of reach.

What makes a row a continuation (joined again when the window widens): the autowrap of a long
line, or a split made by an earlier narrowing.  tmux forgets it when the row, or the row above, is
wholly erased; VTE when the row above is erased to its end (``ESC[K``/``ESC[J``); xterm.js when the
row itself is erased from its first column, or reached by an explicit line feed.  The cursor's own
line: xterm.js never re-wraps it (cut on narrowing); tmux puts a cursor past the written cells at
the end of its line, and home (0, 0) when its row went into history.

Known gaps (``tests/test_terminal_models.py``): on seeded scripts the VTE, tmux and xterm.js models
still differ from the real terminal now and then (continuation flags of rows overwritten after a
split, blank history rows, wide characters at row ends); xterm matches, compared up to the narrowest
width the script had (xterm reuses line buffers: a widening shows stale cells beyond it).

A buffer here is history lines then screen rows; a ``Line`` keeps its cells (``""`` blank,
``"\\0"`` the right half of a wide character), whether it continues the line above (a soft
wrap, or a split made by an earlier reflow) and how many cells the terminal counts as written
(tmux's ``cellused``, VTE's row length; xterm.js uses the trimmed length).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Buffer", "Line", "TerminalFamily", "resize_buffer"]


class TerminalFamily(enum.Enum):
    """A terminal family: how a ``TestTerminal`` behaves on resize and on ``ESC[K`` at the last column, and what
    the shell's startup probe found (``inline_render.shell.probe``).  ``SIMPLE``: the historical model, and
    what the library assumes of a terminal it does not know (it cuts rows instead of re-wrapping them)."""

    SIMPLE = "simple"
    XTERM = "xterm"
    VTE = "vte"
    XTERMJS = "xtermjs"
    TMUX = "tmux"
    SCREEN = "screen"

    @property
    def reflows(self) -> bool:
        """Re-wraps rows on a width change instead of cutting them (measured): a resize may then keep the
        committed rows where the terminal put them (see ``reduce_resize``)."""
        return self in (TerminalFamily.TMUX, TerminalFamily.VTE, TerminalFamily.XTERMJS, TerminalFamily.SCREEN)


@dataclass(slots=True)
class Line:
    """One row of history or screen."""

    cells: list[str]
    wrapped: bool = False  # continues the line above
    used: int = 0  # cells counted as written (tmux cellused, VTE row length)


@dataclass(slots=True)
class Buffer:
    """History lines then screen rows, the cursor (screen-relative) and the size."""

    lines: list[Line]
    top: int  # index of the first screen row: the history length
    x: int
    y: int
    columns: int
    rows: int
    extent: int  # VTE: screen rows that exist in its ring (the ones below were never written)


def _blank(columns: int) -> Line:
    return Line([""] * columns)


def _content(line: Line, columns: int, trimmed: bool) -> list[str]:
    """The cells of ``line`` that reflow carries along."""
    if trimmed:
        end = columns
        while end > 0 and line.cells[end - 1] == "":
            end -= 1
        return line.cells[:end]
    return line.cells[: min(line.used, columns)]


def _split(cells: list[str], width: int) -> list[list[str]]:
    """``cells`` cut into rows of ``width``; a wide character that does not fit starts the next row."""
    rows: list[list[str]] = [[]]
    i = 0
    while i < len(cells):
        end = i + 1
        while end < len(cells) and cells[end] == "\0":
            end += 1
        cluster = cells[i:end] if cells[i] != "\0" else [""]
        if len(rows[-1]) + len(cluster) > width:
            if len(cluster) > width:
                cluster = [""]  # a wide character in a 1-column terminal cannot be shown
            rows.append([])
        rows[-1].extend(cluster)
        i = end
    return rows


def _groups(lines: list[Line]) -> list[tuple[int, int]]:
    """(start, end) of each logical line: a line and the wrapped lines after it."""
    out: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(lines) + 1):
        if index == len(lines) or not lines[index].wrapped:
            out.append((start, index))
            start = index
    return out


def _rewrap(
    lines: list[Line], old: int, new: int, cursor: tuple[int, int], trimmed: bool, to_end: bool
) -> tuple[list[Line], tuple[int, int]]:
    """Re-wrap every logical line at ``new`` columns; map the cursor (x, absolute row) along.

    ``to_end``: a cursor past the written cells goes to the end of its logical line (tmux);
    otherwise it keeps its distance from the start of the logical line (VTE).
    """
    out: list[Line] = []
    cx, cy = cursor
    moved = (min(cx, new - 1), cy)
    for start, end in _groups(lines):
        parts = [_content(line, old, trimmed) for line in lines[start:end]]
        flat = [cell for part in parts for cell in part]
        rows = _split(flat, new)
        first = len(out)
        for index, row in enumerate(rows):
            used = len(row)
            out.append(Line(row + [""] * (new - len(row)), index > 0, used))
        if start <= cy < end:
            before = sum(len(part) for part in parts[: cy - start])
            offset = before + cx
            if to_end and cx >= len(parts[cy - start]):
                offset = len(flat)
            moved = _locate(rows, offset, new, first)
    return out, moved


def _locate(rows: list[list[str]], offset: int, width: int, first: int) -> tuple[int, int]:
    """The (x, absolute row) of cell ``offset`` of a logical line laid out as ``rows`` (past its end: the
    rows it would take if it went on)."""
    for index, row in enumerate(rows[:-1]):
        if offset < len(row):
            return offset, first + index
        offset -= len(row)
    row_index = first + len(rows) - 1
    while offset > width:  # at ``width``: past the last cell of the row, as a pending wrap
        offset -= width
        row_index += 1
    return offset, row_index


# ----------------------------------------------------------------------------- heights
def _pull_back(buf: Buffer, rows: int) -> None:
    """Taller: rows come back from history (as many as gained, as many as there are)."""
    pulled = min(rows - buf.rows, buf.top)
    buf.top -= pulled
    buf.y += pulled
    buf.lines += [_blank(buf.columns) for _ in range(rows - buf.rows - pulled)]


def _shrink(buf: Buffer, rows: int) -> None:
    """Shorter: drop rows below the cursor from the bottom, then push top rows into history."""
    need = buf.rows - rows
    eaten = min(need, buf.rows - 1 - buf.y)
    if eaten > 0:
        del buf.lines[len(buf.lines) - eaten :]
    buf.top += need - eaten
    buf.y -= need - eaten


def _heights(buf: Buffer, rows: int) -> None:
    if rows > buf.rows:
        _pull_back(buf, rows)
    elif rows < buf.rows:
        _shrink(buf, rows)
    buf.rows = rows


# ----------------------------------------------------------------------------- families
def _xterm(buf: Buffer, columns: int, rows: int) -> Buffer:
    _heights(buf, rows)
    # xterm keeps each row's cells up to the next multiple of 4 of the narrower width: they show again
    # when the window widens; the rest is gone.
    keep = -(-columns // 4) * 4
    for line in buf.lines:
        if columns < buf.columns:
            del line.cells[keep:]
        line.cells += [""] * (columns - len(line.cells))
    buf.columns = columns
    buf.x = min(buf.x, columns - 1)
    return buf


def _tmux(buf: Buffer, columns: int, rows: int) -> Buffer:
    _heights(buf, rows)
    if columns != buf.columns:
        lines, (x, absolute) = _rewrap(buf.lines, buf.columns, columns, (buf.x, buf.top + buf.y), False, True)
        lines += [_blank(columns) for _ in range(rows - len(lines))]
        buf.lines, buf.top = lines, len(lines) - rows
        # The screen is the grid's last rows: a cursor whose row went into history goes home.
        buf.x, buf.y = (x, absolute - buf.top) if absolute >= buf.top else (0, 0)
        buf.columns = columns
    buf.y = min(buf.y, rows - 1)
    return buf


def _vte(buf: Buffer, columns: int, rows: int) -> Buffer:
    ring = buf.lines[: buf.top + buf.extent]
    cursor_row = buf.top + buf.y
    below = cursor_row + 1  # the row after the cursor's paragraph
    while below < len(ring) and ring[below].wrapped:
        below += 1
    old_top_lines = below - buf.top
    if columns != buf.columns:
        ring, (x, cursor_row) = _rewrap(ring, buf.columns, columns, (buf.x, cursor_row), False, False)
        # Rows below the ring keep their distance from its end.
        if buf.y >= buf.extent:
            cursor_row = len(ring) + (buf.y - buf.extent)
        if buf.y < buf.extent and cursor_row >= len(ring):
            ring += [_blank(columns) for _ in range(cursor_row + 1 - len(ring))]  # the cursor's row exists
        below = cursor_row + 1
        while below < len(ring) and ring[below].wrapped:
            below += 1
        buf.x = x
    if len(ring) > rows:
        # VTE drops rows below the cursor's paragraph (as xterm does) so that the paragraph keeps its
        # distance from the top: at most as many as the screen lost above it, and only rows that exist.
        new_top_lines = below - (len(ring) - rows)
        drop = min(len(ring) - rows, len(ring) - below, old_top_lines - new_top_lines)
        if drop > 0:
            del ring[len(ring) - drop :]
    top = 0 if len(ring) <= rows else len(ring) - rows
    buf.lines = ring + [_blank(columns) for _ in range(top + rows - len(ring))]
    buf.top, buf.extent = top, len(ring) - top
    buf.y = min(max(0, cursor_row - top), rows - 1)
    buf.columns, buf.rows = columns, rows
    for line in buf.lines:
        line.cells = (line.cells + [""] * columns)[:columns]
    return buf  # a cursor at ``columns`` is past the last cell (TestTerminal keeps it as a pending wrap)


def _xtermjs(buf: Buffer, columns: int, rows: int) -> Buffer:
    lines, old = buf.lines, buf.columns
    add = 0
    if rows > buf.rows:
        for _ in range(rows - buf.rows):
            if len(lines) < rows + buf.top:
                if buf.top > 0 and len(lines) <= buf.top + buf.y + add + 1:
                    buf.top -= 1  # the cursor is on the last row: scroll history back down
                    add += 1
                else:
                    lines.append(_blank(max(old, columns)))
    else:
        for _ in range(buf.rows - rows):
            if len(lines) > rows + buf.top:
                if len(lines) > buf.top + buf.y + 1:
                    lines.pop()  # a row below the cursor, whatever it holds
                else:
                    buf.top += 1
    buf.x = min(buf.x, columns - 1)
    buf.y = min(buf.y, rows - 1) + add
    if columns > old:
        _xtermjs_larger(buf, old, columns, rows)
    elif columns < old:
        _xtermjs_smaller(buf, old, columns, rows)
    for line in buf.lines:
        line.cells = (line.cells + [""] * columns)[:columns]
    buf.columns, buf.rows = columns, rows
    return buf


def _xtermjs_larger(buf: Buffer, old: int, columns: int, rows: int) -> None:
    cursor = buf.top + buf.y
    out: list[Line] = []
    removed = 0
    for start, end in _groups(buf.lines):
        group = buf.lines[start:end]
        if end - start == 1 or start <= cursor < end:
            out += group
            continue
        cells = [c for i, line in enumerate(group) for c in _content(line, old, i == len(group) - 1)]
        new = _split(cells, columns)
        while len(new) > 1 and not any(new[-1]):
            new.pop()
        out += [Line(row + [""] * (columns - len(row)), i > 0, len(row)) for i, row in enumerate(new)]
        removed += len(group) - len(new)
    buf.lines = out
    for _ in range(removed):
        if buf.top == 0:
            buf.y = max(0, buf.y - 1)
            if len(buf.lines) < rows:
                buf.lines.append(_blank(columns))
        else:
            buf.top -= 1


def _xtermjs_smaller(buf: Buffer, old: int, columns: int, rows: int) -> None:
    lines = buf.lines
    extra: dict[int, list[Line]] = {}  # index of a group's last line -> lines inserted after it
    count = 0
    for start, end in reversed(_groups(lines)):
        # A group re-wrapped below the cursor with no history pops the bottom lines (the cursor moves down
        # instead): lines popped are gone when their index comes (xterm.js skips a line it no longer has).
        if start >= len(lines):
            continue
        end = min(end, len(lines))
        group = lines[start:end]
        if end - start == 1 and len(_content(group[0], old, True)) <= columns:
            continue
        if start <= buf.top + buf.y < end:
            continue  # the cursor's own line is left alone (then cut at the new width)
        cells = [c for i, line in enumerate(group) for c in _content(line, old, i == len(group) - 1)]
        new = _split(cells, columns)
        for line, row in zip(group, new, strict=False):
            line.cells, line.used = row + [""] * (columns - len(row)), len(row)
        added = [Line(row + [""] * (columns - len(row)), True, len(row)) for row in new[len(group) :]]
        if not added:
            continue
        extra[end - 1] = added
        count += len(added)
        for _ in added:
            if buf.top == 0:
                if buf.y < rows - 1:
                    buf.y += 1
                    lines.pop()
                else:
                    buf.top += 1
            elif buf.top < len(lines) + count - rows:
                buf.top += 1
    kept = [item for index, line in enumerate(lines) for item in [line, *extra.get(index, [])]]
    # The rows a re-wrap added after a line that a later one popped still come (xterm.js inserts them after
    # the re-wrap, in order, below the lines it kept): the line they continued is what is lost.
    buf.lines = kept + [item for index in sorted(extra) if index >= len(lines) for item in extra[index]]


def _screen(buf: Buffer, columns: int, rows: int) -> Buffer:
    """GNU screen 4.09 (``ChangeWindowSize``): history and screen are one array, laid out again from its last
    row up (bottom-aligned), so growing pulls rows (or blank rows) down from history and shrinking pushes the
    top rows into it, rows below the cursor included; rows are dropped from the bottom only where the cursor's
    logical line would start above the new screen.  A screen ``Line.wrapped`` says the row continues into the
    next one (screen keeps the flag past the row's last cell), so a row whose continuation was dropped keeps it."""
    lines, x = buf.lines, buf.x
    cursor = buf.top + buf.y
    addone = x >= buf.columns  # the pending-wrap column: screen keeps the cursor past the last cell
    if addone:
        x = buf.columns - 1
    if columns == buf.columns:
        start = cursor
        while start > 0 and lines[start - 1].wrapped:
            start -= 1
        reach, last = rows, -1  # screen's loop stops one row later here (the cursor is clamped after)
    else:
        lines, (x, cursor), start, last = _screen_rewrap(lines, buf.columns, columns, (x, cursor))
        reach = rows - 1
    # The cursor's logical line must start on the screen: the rows below it go (at most as far as the cursor
    # reaching the last row).
    y = cursor - (len(lines) - rows)
    shift = max(0, min(cursor - start, reach) - y)
    if shift:
        del lines[len(lines) - shift :]
        # screen writes the cursor's line from its last row up and marks the row it writes where that last row
        # was before the shift as the line's end (it does not move that mark with the shift).
        if start <= last - shift < cursor:
            lines[last - shift].wrapped = False
    if len(lines) < rows:  # not enough history: blank rows come down from screen's empty ring
        cursor += rows - len(lines)
        lines = [_blank(columns) for _ in range(rows - len(lines))] + lines
    buf.lines, buf.top = lines, len(lines) - rows
    buf.x, buf.y = min(x + addone, columns), min(cursor - buf.top, rows - 1)
    buf.columns, buf.rows = columns, rows
    return buf


def _screen_rewrap(
    lines: list[Line], old: int, new: int, cursor: tuple[int, int]
) -> tuple[list[Line], tuple[int, int], int, int]:
    """Every logical line (rows joined by their continues-into-next flag) cut again into rows of ``new`` cells:
    each row but the last counts ``old`` cells, the last up to its last non-blank cell (a written space is
    blank too) or the cursor's, a blank row stays one row.  The cursor's new (x, absolute row), the first and
    the last row of its line."""
    out: list[Line] = []
    cx, cy = cursor
    moved, start, last = cursor, cy, cy
    first = 0
    for end in range(1, len(lines) + 1):
        if end < len(lines) and lines[end - 1].wrapped:
            continue  # the logical line goes on
        flat = [cell for line in lines[first : end - 1] for cell in line.cells[:old]]
        tail = lines[end - 1].cells[:old]
        length = len(tail)
        while length > 0 and tail[length - 1] in ("", " "):  # a written space is blank to screen
            length -= 1
        if end - 1 == cy:
            length = max(length, cx + 1)
        flat += (tail + [""] * old)[: max(1, length)]
        begin = len(out)
        for index in range(0, len(flat), new):
            row = flat[index : index + new]
            out.append(Line(row + [""] * (new - len(row)), index + new < len(flat), len(row)))
        if first <= cy < end:
            offset = (cy - first) * old + cx
            moved, start, last = (offset % new, begin + offset // new), begin, len(out) - 1
        first = end
    return out, moved, start, last


_FAMILIES: dict[TerminalFamily, Callable[[Buffer, int, int], Buffer]] = {
    TerminalFamily.XTERM: _xterm,
    TerminalFamily.VTE: _vte,
    TerminalFamily.XTERMJS: _xtermjs,
    TerminalFamily.TMUX: _tmux,
    TerminalFamily.SCREEN: _screen,
}


def resize_buffer(family: TerminalFamily, buf: Buffer, columns: int, rows: int) -> Buffer:
    """``buf`` after the window became ``columns`` x ``rows``, as ``family`` does it (not ``SIMPLE``)."""
    return _FAMILIES[family](buf, columns, rows)
