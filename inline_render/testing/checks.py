"""Emulator properties: run a renderer, feed its exact bytes to emulators, check after every tick.

``CheckedRenderer`` wraps ``Renderer.in_memory`` (the in-memory ``TestTerminal``)
and, when pyte is installed, a ``PyteTerminal`` fed the same bytes.  After every
tick that was written completely it asserts:

* no forbidden sequence was sent (``ESC[2J``, ``ESC[3J``, ``CSI S/T``, OSC, DCS...);
* scrollback + the screen above the viewport end with exactly the rows the
  renderer inserted, once each and in order, with only blank lines before;
* the viewport on screen equals the frame;
* the cursor is visible only at the composer (or a dialog's text field), hidden while a dialog without one has
  the keys, and hidden after an inserting tick;
* an inserting tick hides the cursor before its first scroll-region write and
  never shows it.

A failure raises ``AssertionError`` with both whole screens.

With a ``family`` other than ``SIMPLE`` the terminal resizes as that real terminal does (pull-back,
reflow: see ``inline_render.terminals.resize``), so history rows may be re-wrapped or cut: then the
history check is that every inserted row is still there, in order, as a logical line (soft-wrapped
rows joined; a prefix where the terminal cuts rows), and ``inflight`` runs a tick whose bytes the
terminal has not read yet when it is resized.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..core.app import AppState
from ..core.entry import LogRow, continues_line, same_line
from ..core.log import log_rows
from ..core.rows import draw_log_row
from ..core.state import Config, CursorPhase, SyncPhase
from ..core.tick import Renderer, TickResult, start_position
from ..inputs import Input, Resize
from ..outputs import Output
from ..terminals.memory import TerminalFamily, TestTerminal
from ..text.cells import clip_to_width, text_width
from ..text.style import row_text, row_width
from .lines import Copy, find_copy, squeeze

__all__ = ["FORBIDDEN", "CheckedRenderer", "dialog_has_the_keys", "forbidden_sequences", "stream_end"]

# ED 2/3, SU/SD, string controls (OSC, DCS, APC, PM, SOS), RIS, and C1 controls (UTF-8 encoded).
FORBIDDEN = re.compile(rb"\x1b\[[23]J|\x1b\[\d*[ST]|\x1b[\]P_^X]|\x1bc|\xc2[\x80-\x9f]")


def forbidden_sequences(data: bytes) -> list[bytes]:
    """Every sequence in ``data`` that the renderer must never send."""
    return [m.group(0) for m in FORBIDDEN.finditer(data)]


class CheckedRenderer:
    """A renderer whose every tick is checked against two emulators (pyte optional)."""

    def __init__(
        self,
        columns: int = 80,
        rows: int = 24,
        *,
        config: Config | None = None,
        cursor_row: int | None = 0,
        use_pyte: bool = True,
        family: TerminalFamily = TerminalFamily.SIMPLE,
    ) -> None:
        self.renderer = Renderer.in_memory(columns, rows, config=config, cursor_row=cursor_row)
        self.family = family
        if family is not TerminalFamily.SIMPLE:
            terminal = TestTerminal(columns, rows, self.renderer.terminal.policy, family)
            # The modes the shell sets at start (shell.closing.ENTER_MODES): autowrap off, so a row written at a
            # width the terminal no longer has is clipped, as on a real terminal, not wrapped.
            terminal.feed(b"\x1b[?7l")
            self.renderer.terminal = self.renderer.sink.terminal = terminal
            use_pyte = False  # pyte models no real terminal's resize
        self.terminal: TestTerminal = self.renderer.terminal
        self.pyte: Any = None
        if use_pyte:
            try:
                from .pyte_terminal import PyteTerminal
            except ImportError:  # pragma: no cover - pyte is a test extra
                self.pyte = None
            else:
                self.pyte = PyteTerminal(columns, rows, self.renderer.state.config.width_policy)
                self.pyte.feed(start_position(rows, cursor_row))
        self.history: list[str] = []
        self.history_columns: list[int] = []  # the width each history row was written at
        self.reinserted = 0  # rows inserted again after a replay found them garbled (each copy above is a ghost)
        # Every line that belongs above the viewport, in order: inserted rows, and "ghost" lines that a
        # shrinking terminal pushed into scrollback itself (uncommitted text, dialog, status rows).
        self.expected_above: list[str] = []
        self.ghosts: list[str] = []
        # The committed logical line of each history row (a duplicate is judged on whole lines, not rows), and of
        # each line of ``expected_above`` (-1: a ghost).
        self.line_ids: list[int] = []
        self.above_ids: list[int] = []
        self._lines = 0
        self._last_row: LogRow | None = None
        # The lines a replay of frames in flight found garbled and had inserted again (``reinserted`` counts their
        # rows): the renderer declares their copy above, a known and accepted limit (README, "Known limits"), so the
        # duplicate check does not report it.  Squeezed texts (``lines.squeeze``).
        self.declared_copies: set[str] = set()
        self.bytes = bytearray()
        self.widths: set[int] = set()  # widths narrower than the start: they cut rows on a non-reflowing screen
        self.outputs: list[Output] = []

    @property
    def state(self) -> Any:
        return self.renderer.state

    def step(self, inputs: Iterable[Input] = (), *, resized: bool = False, checked: bool = True) -> TickResult:
        """One tick, then every property check.

        ``resized``: the terminal already has the size of the ``Resize`` inputs (``inflight``);
        ``checked=False``: the terminal has not read this tick's bytes yet, nothing to check.
        """
        inputs = list(inputs)
        if not resized and self.family is not TerminalFamily.SIMPLE and any(isinstance(i, Resize) for i in inputs):
            # A real terminal's resize moves the cursor (pull-back, pushed rows): the shell asks where it went
            # after every resize, and so does this harness (a report the test gave is kept).
            reported: list[Input] = []
            for item in inputs:
                if isinstance(item, Resize):
                    self.terminal.resize(item.columns, item.rows)
                    if item.cursor_row is None:
                        cursor = self.terminal.cursor
                        item = replace(item, cursor_row=cursor.y, cursor_column=cursor.x)
                reported.append(item)
            inputs, resized = reported, True
        for item in inputs:
            if isinstance(item, Resize):
                self.widths.add(item.columns)
                if self.pyte is not None:
                    self.pyte.resize(item.columns, item.rows)
        sink = self.renderer.backend.sink
        before = len(sink.data)  # type: ignore[union-attr]
        top = self.renderer.state.screen.top
        drawn = self.renderer.state.screen.drawn or ()
        # Which log row each drawn row is: the rows a resize leaves in the terminal are grouped into lines by them.
        drawn_rows = _drawn_log_rows(self.renderer.state) if any(isinstance(i, Resize) for i in inputs) else []
        self.terminal.resize_pushes.clear()
        result = Renderer.step(self.renderer, inputs) if resized else self.renderer.step(inputs)
        data = bytes(sink.data[before:])  # type: ignore[union-attr]
        self.bytes += data
        if self.pyte is not None:
            self.pyte.feed(data)
        self.outputs.extend(result.outputs)
        left = result.state.pushed_rows + result.state.kept_rows  # drawn rows the core counted as inserted
        if self.family is TerminalFamily.SIMPLE:
            # Pushed into scrollback first; the rest stayed on screen above the re-anchored viewport (a core that
            # takes the terminal for a re-wrapping one, ``Config.resize_reflow``, keeps them there).
            done = self._account_resizes(top, left, drawn_rows)
            for index in range(done, left):
                self._commit(row_text(drawn[index]).rstrip(" "), self.terminal.columns, _at(drawn_rows, index))
        else:
            # Rows the terminal kept (re-wrapped, on screen or pushed into scrollback) that the core counted as
            # inserted: the top rows of the viewport as drawn before the resize, in order.
            for index, drawn_row in enumerate(drawn[:left]):
                self._commit(row_text(drawn_row).rstrip(" "), self.terminal.columns, _at(drawn_rows, index))
            if result.state.replayed is not None:
                # A replay of the frames in flight found rows they inserted garbled (queued again: their copy
                # above is a ghost now) and rows intact after them (counted as inserted).
                garbled, found = result.state.replayed
                self.reinserted += len(garbled)
                size = len(self.history)
                self._declare(size - max(garbled, default=0))
                for back in sorted(garbled):  # the last first: the rows before it keep their places
                    del self.history[size - back], self.history_columns[size - back], self.line_ids[size - back]
                for text in found:
                    self._commit(text, self.terminal.columns, None)
        if result.state.adopted_rows:
            self._adopt(result.state.adopted_rows)
        width = result.layout.columns
        for row in result.layout.to_insert[: result.effect.rows_inserted]:
            text = row_text(draw_log_row(row, width, self.renderer.state.config.width_policy)).rstrip(" ")
            self._commit(text, width, row)
        if result.effect.complete and checked:
            self.check(result, data)
        return result

    def inflight(
        self, ticks: Iterable[Iterable[Input]], fraction: float, size: tuple[int, int], report: bool
    ) -> list[Output]:
        """Ticks (each with its follow-up redraw) still in flight when the terminal is resized.

        The terminal reads the first ``fraction`` of their bytes, takes the new ``size``, reads the
        rest; only then does the renderer get its ``Resize`` (with the cursor row a report sent now
        would give, if ``report``), and that tick and its follow-up are checked.
        """
        sink: Any = self.renderer.backend.sink
        terminal, held = self.terminal, _Held()
        sink.terminal = held
        outputs: list[Output] = []
        feeds: list[tuple[int, int]] = []  # per feed (the shell acknowledges each): where its bytes end, its ticks
        try:
            for inputs in ticks:
                before = self.renderer.frames
                outputs += self.feed(inputs, checked=False)
                # As the shell counts them: a feed's ticks that wrote (it then asks for an acknowledgement).
                feeds.append((len(held.data), self.renderer.frames - before))
        finally:
            sink.terminal = terminal
        cut = round(len(held.data) * fraction)
        terminal.feed(bytes(held.data[:cut]))
        terminal.resize(*size)
        if self.pyte is not None:
            self.pyte.feed(bytes(held.data[:cut]))
            self.pyte.resize(*size)
            self.pyte.feed(bytes(held.data[cut:]))
        terminal.feed(bytes(held.data[cut:]))
        row = terminal.cursor.y if report else None
        # As the shell says it: a feed acknowledged at its own size (the terminal read it and the probe after it
        # before the resize) is settled, the others are not; without a report the count is unknown.
        count = sum(frames for end, frames in feeds if end >= cut) if report else None
        # Their acknowledgements say the size they met: this one (a report tells it).
        met = size if report and count else (None, None)
        column = terminal.cursor.x if report else None
        resize = Resize(size[0], size[1], row, True, count, met[0], met[1], cursor_column=column)
        return outputs + self.feed([resize], resized=True)

    def _commit(self, text: str, columns: int, row: LogRow | None) -> None:
        """A committed row, ``text`` written at ``columns``: history, and (SIMPLE) above the viewport.  ``row``: the
        log row it is (None: unknown, a line of its own); a row continuing the last one's line is of that line."""
        last, self._last_row = self._last_row, row
        if row is None or last is None or not continues_line(last, row):
            self._lines += 1
        self.history.append(text)
        self.history_columns.append(columns)
        self.line_ids.append(self._lines)
        if self.family is TerminalFamily.SIMPLE:
            self.expected_above.append(text)
            self.above_ids.append(self._lines)

    def _adopt(self, texts: tuple[str, ...]) -> None:
        """Rows of open text a shrink pushed into history that the core now counts as inserted (``core.pushed``):
        history from now on, one line; on ``SIMPLE`` the ghost rows the push left above become those rows."""
        self._last_row = None
        self._lines += 1
        columns = self.terminal.columns
        if self.family is TerminalFamily.SIMPLE:
            # The first ghost rows after the last committed one (nothing was inserted after them), as the terminal
            # has them (cut at a narrowing).
            ids, above = self.above_ids, self.expected_above
            last = max((index for index, line in enumerate(ids) if line != -1), default=-1)
            free = [index for index in range(last + 1, len(ids)) if ids[index] == -1]

            def held(at: int) -> bool:  # the ghosts from free[at] on read as the adopted rows (cut at most)
                rows = [above[index] for index in free[at : at + len(texts)]]
                return len(rows) == len(texts) and all(
                    text.startswith(row) and (row or not text) for row, text in zip(rows, texts, strict=True)
                )

            start = next((at for at in range(len(free)) if held(at)), None)
            if start is None:
                raise AssertionError(f"rows adopted by the core that no shrink pushed: {texts!r}")
            ghosts = free[start : start + len(texts)]
            for index in ghosts:
                ids[index] = self._lines
                self.ghosts.remove(self.expected_above[index])
            texts = tuple(self.expected_above[index] for index in ghosts)
        for text in texts:
            self.history.append(text)
            self.history_columns.append(columns)
            self.line_ids.append(self._lines)

    def _copy(self, shown: list[str], positions: list[int], result: TickResult) -> Copy | None:
        """``find_copy`` of the committed rows among ``shown``; a copy found is looked for again with the log's next
        lines in their place after the last committed row (``find_copy``'s ``waiting``), read off the log."""
        goes_on = self._goes_on(result)
        copy = find_copy(shown, self.history, self.line_ids, positions, self.declared_copies, goes_on)
        if copy is None:
            return None
        # They were drawn at a width the terminal had before (a tiny one drops the kind's prefix): at the widest the
        # rows inserted were drawn at, or at the screen's.
        for width in dict.fromkeys((max(self.history_columns, default=0), result.layout.columns)):
            waiting, unseen = self._waiting(result, width) if width > 0 else ([], 0)
            again = find_copy(
                shown, self.history, self.line_ids, positions, self.declared_copies, goes_on, waiting, unseen
            )
            if again is None:
                return None
        return copy

    def _waiting(self, result: TickResult, width: int, limit: int = 64) -> tuple[list[str], int]:
        """The log's next lines, not inserted yet (the first ``limit``), drawn at ``width`` and squeezed as
        ``find_copy`` compares them; and how many of the first are above the viewport's tail (not shown now)."""
        state = result.state
        policy = state.config.width_policy
        theme = state.log.options.theme if state.log.options is not None else None
        # The lines whose every row is above the tail, at the screen's width (RenderState.visible_start).
        shown_from = state.render.visible_start - state.render.inserted_until
        now, _ = log_rows(state.log, result.layout.columns, policy)
        above = {(row.entry.key, row.line_start) for row in now[:shown_from]}
        above -= {(row.entry.key, row.line_start) for row in now[shown_from : shown_from + 1]}
        pending, _ = log_rows(state.log, width, policy)
        lines: list[str] = []
        unseen = 0
        previous: LogRow | None = None
        for row in pending:
            text = squeeze(row_text(draw_log_row(row, width, policy, theme)))
            if previous is not None and same_line(previous, row):
                lines[-1] += text
            elif len(lines) == limit:
                break
            else:
                if len(lines) == unseen and (row.entry.key, row.line_start) in above:
                    unseen += 1  # one more of the first lines, all above the tail
                lines.append(text)
            previous = row
        return lines, unseen

    def _goes_on(self, result: TickResult) -> bool:
        """The last committed row's line goes on in rows not committed yet (its copy is judged when it is whole)."""
        if self._last_row is None:
            return False
        state = result.state
        pending, _ = log_rows(state.log, result.layout.columns, state.config.width_policy)
        return len(pending) > 0 and continues_line(self._last_row, pending[0])

    def _declare(self, first: int) -> None:
        """The lines of history rows from ``first`` on: a replay inserts them again (from the first garbled row's
        line on), so their copies above are declared."""
        if not 0 <= first < len(self.history):
            return
        ids = self.line_ids
        start = first
        while start > 0 and ids[start - 1] == ids[first]:
            start -= 1
        lines: dict[int, str] = {}
        for index in range(start, len(self.history)):
            lines[ids[index]] = lines.get(ids[index], "") + self.history[index]
        self.declared_copies.update(squeeze(text) for text in lines.values())

    def _account_resizes(self, top: int, accounted: int, rows: list[LogRow | None]) -> int:
        """Sort the lines each resize pushed into scrollback: history the core accounted for (how many are
        returned), or ghosts."""
        done = 0
        for pushed in self.terminal.resize_pushes:
            content = pushed[top:]  # lines above the viewport were history already
            for line in content:
                # The core measures every resize of a tick from the rows it drew before the first one, so the
                # rows it accounted for are the first ones pushed, whichever resize pushed them.
                if done < accounted:
                    self._commit(line, self.terminal.columns, _at(rows, done))
                    done += 1
                else:
                    self.ghosts.append(line)
                    self.expected_above.append(line)
                    self.above_ids.append(-1)
            top = max(0, top - len(pushed))
        return done

    def feed(self, inputs: Iterable[Input] = (), *, resized: bool = False, checked: bool = True) -> list[Output]:
        """A tick and, when rows were inserted, its follow-up redraw (both checked)."""
        result = self.step(inputs, resized=resized, checked=checked)
        outputs = list(result.outputs)
        if result.state.render.sync_phase is SyncPhase.INSERTED_NEEDS_REDRAW:
            outputs.extend(self.step(checked=checked).outputs)
        return outputs

    def _fail(self, message: str) -> None:
        parts = [message, self.terminal.dump()]
        if self.pyte is not None:
            parts.append(self.pyte.dump())
        raise AssertionError("\n".join(parts))

    def check(self, result: TickResult, data: bytes) -> None:
        """Assert every emulator property for the tick that produced ``data``."""
        bad = forbidden_sequences(data)
        if bad or self.terminal.violations:
            self._fail(f"forbidden output {bad!r} {self.terminal.violations!r}")
        if self.pyte is not None and self.pyte.violations:
            self._fail(f"pyte saw forbidden output {self.pyte.violations!r}")
        state = result.state
        if result.effect.rows_inserted:
            hide, feed = data.find(b"\x1b[?25l"), data.find(b"\n")
            if b"\x1b[?25h" in data:
                self._fail("an inserting tick showed the cursor")
            if feed >= 0 and (hide < 0 or hide > feed) and self._was_visible:
                self._fail("the cursor was not hidden before the first line feed")
        top = state.screen.top
        if self.family is not TerminalFamily.SIMPLE:
            self._check_family(result, top)
            return
        for name, lines, scrollback, cursor in self._emulators():
            self._check_emulator(name, lines, scrollback, cursor, result, top)
        self._was_visible = state.render.cursor_phase is CursorPhase.VISIBLE_AT_COMPOSER

    _was_visible = True

    def logical_lines(self, rows: int | None = None) -> list[str]:
        """History and the first ``rows`` screen rows (all by default) as logical lines: soft-wrapped rows joined."""
        terminal = self.terminal
        rows = terminal.rows if rows is None else rows
        pieces = [(line.cells, line.wrapped) for line in terminal.history]
        pieces += list(zip(terminal.grid[:rows], terminal.wrapped[:rows], strict=True))
        if terminal.family is TerminalFamily.SCREEN:  # screen's flag: the row continues into the next one
            pieces = [(cells, i > 0 and pieces[i - 1][1]) for i, (cells, _) in enumerate(pieces)]
        lines: list[list[str]] = []
        for cells, wrapped in pieces:
            row = list(cells[: terminal.columns])
            if wrapped and lines:
                # The row before continued here: a never-written cell at its end was the padding a wide
                # character leaves when it does not fit the last column, and is not part of the line (GNU
                # screen keeps every cell of a row that continues into the next: the line holds them).
                previous = lines[-1]
                while previous and previous[-1] == "" and terminal.family is not TerminalFamily.SCREEN:
                    previous.pop()
                previous.extend(row)
            else:
                lines.append(row)
        return ["".join(" " if c == "" else ("" if c == "\0" else c) for c in line).rstrip(" ") for line in lines]

    def _joined(self, line: str, start: int) -> int:
        """How many history rows from ``start`` the terminal line ``line`` holds soft-wrapped into each other (GNU
        screen, ``Config.soft_wrap_lines``): each but the last with every cell of the width it was written at,
        so exactly their text and padding; 0 if none."""
        policy = self.renderer.state.config.width_policy
        joined = ""
        for index in range(start, len(self.history)):
            text = self.history[index]
            if index > start and (joined + text).rstrip(" ") == line:
                return index - start + 1
            joined += text + " " * (self.history_columns[index] - text_width(text, policy))
            if not line.startswith(joined.rstrip(" ")):
                return 0
        return 0

    def _matched(self, above: list[str], cuts: bool, split: bool) -> tuple[int, list[int]]:
        """How many history rows ``above`` (the terminal's lines above the viewport) holds in order, and the line
        where each was found (-1: not found); ``split``: a history line may be held by several consecutive terminal
        lines (GNU screen)."""
        found = since = index = 0
        positions = [-1] * len(self.history)
        while index < len(above):
            line = above[index]
            if found < len(self.history):
                wanted = self.history[found]
                if line == wanted or (cuts and line and wanted.startswith(line)) or self._stale_after(line, wanted):
                    positions[found] = index
                    since, found = found, found + 1
                elif self.family is TerminalFamily.SCREEN:
                    moved = self._joined_at(line, found, since)
                    extra = 0
                    while split and moved == found and extra < 8 and index + extra + 1 < len(above):
                        extra += 1
                        moved = self._joined_at("".join(above[index : index + extra + 1]), found, since)
                    positions[found:moved] = [index + extra] * (moved - found)
                    if moved != found:
                        index += extra
                    since, found = found, moved
            index += 1
        return found, positions

    def _joined_at(self, line: str, found: int, since: int) -> int:
        """``found`` moved past the history rows the terminal line ``line`` holds soft-wrapped from there; or from a
        row before, back to ``since`` (where the line matched before began), when those were matched by a ghost with
        the same text (a leftover piece of a redrawn line, or of an open line a resize left above the viewport,
        that equals its first rows) and ``line`` is the line itself."""
        for start in range(found, max(min(found - 2, since), 0) - 1, -1):
            joined = self._joined(line, start)
            if joined and start + joined > found:
                return start + joined
        return found

    def _check_family(self, result: TickResult, top: int) -> None:
        """A real terminal's resize model: the viewport equals the frame, every inserted row is kept in order."""
        self._was_visible = result.state.render.cursor_phase is CursorPhase.VISIBLE_AT_COMPOSER
        lines = self.terminal.screen_lines()
        for index, row in enumerate(result.frame.rows):
            if lines[top + index] != row_text(row).rstrip(" "):
                self._fail(f"viewport row {index} (screen row {top + index}) differs from the frame")
        above = self.logical_lines(top)
        cuts = self.family in (TerminalFamily.XTERM, TerminalFamily.XTERMJS)  # they cut rows instead of re-wrapping
        found, positions = self._matched(above, cuts, split=False)
        if found < len(self.history) and self.family is TerminalFamily.SCREEN:
            # screen splits a long soft-wrapped line where a narrowing stopped re-wrapping it (measured on the real
            # screen, tests/test_screen_stream.py): the next terminal lines may continue it.
            found, positions = max((found, positions), self._matched(above, cuts, split=True), key=lambda m: m[0])
        if found < len(self.history):
            lost = self.history[found]
            self._fail(f"inserted row {found} ({lost!r}) is missing above the viewport (lost or out of order)")
        copy = self._copy(above, positions, result)
        if copy is not None:
            self._fail(copy.describe())
        x, y, visible = self._tt_cursor()
        frame = result.frame
        end = stream_end(result.state)
        if end is not None and (visible or (x, y) != end):
            self._fail(f"cursor at {(x, y)} visible={visible}, expected hidden at the open text's end {end}")
        if result.state.render.cursor_phase is CursorPhase.VISIBLE_AT_COMPOSER:
            wanted_cursor = (frame.cursor[1], top + frame.cursor[0])
            if not visible or (x, y) != wanted_cursor:
                self._fail(f"cursor at {(x, y)} visible={visible}, expected visible at {wanted_cursor}")
        elif result.state.render.cursor_phase is CursorPhase.HIDDEN_AT_DIALOG and visible:
            self._fail(f"cursor visible at {(x, y)} while a dialog without a text field has the keys")
        self._check_keys_shown("TestTerminal", result, visible)

    def _stale_after(self, line: str, wanted: str) -> bool:
        """xterm keeps a row's cells up to the next multiple of 4 of a narrower width, where no erase reaches them,
        and shows them again when it widens (``terminal_resize``; the real-terminal checker counts them apart):
        ``line`` is ``wanted`` as it was cut at one of the narrower widths, followed by such cells."""
        if self.family is not TerminalFamily.XTERM:
            return False
        policy = self.state.config.width_policy
        for width in self.widths:
            head, _ = clip_to_width(line, width, policy)
            if (
                head != line
                and text_width(line, policy) <= -(-width // 4) * 4
                and clip_to_width(wanted, width, policy)[0].rstrip(" ") == head.rstrip(" ")
            ):
                return True
        return False

    def _emulators(self) -> list[tuple[str, list[str], list[str], tuple[int, int, bool]]]:
        out = [("TestTerminal", self.terminal.screen_lines(), self.terminal.scrollback, self._tt_cursor())]
        if self.pyte is not None:
            out.append(("pyte", self.pyte.screen_lines(), self.pyte.scrollback, self.pyte.cursor_position))
        return out

    def _tt_cursor(self) -> tuple[int, int, bool]:
        cursor = self.terminal.cursor
        return cursor.x, cursor.y, cursor.visible

    def _check_emulator(
        self,
        name: str,
        lines: list[str],
        scrollback: list[str],
        cursor: tuple[int, int, bool],
        result: TickResult,
        top: int,
    ) -> None:
        frame = result.frame
        for index, row in enumerate(frame.rows):
            if lines[top + index] != row_text(row).rstrip(" "):
                self._fail(f"{name}: viewport row {index} (screen row {top + index}) differs from the frame")
        above = scrollback + lines[:top]
        history = self.expected_above
        if len(above) < len(history):
            self._fail(f"{name}: {len(history)} rows were inserted but only {len(above)} lines are above the viewport")
        tail = above[len(above) - len(history) :]
        narrowed = bool(self.widths)
        for index, (seen, wanted) in enumerate(zip(tail, history, strict=True)):
            # A screen that does not reflow cuts rows when it narrows (each emulator cuts clusters its own
            # way); such a row must still be a prefix of what was inserted.
            if seen != wanted and not (narrowed and wanted.startswith(seen)):
                self._fail(f"{name}: inserted row {index} is {seen!r}, expected {wanted!r}")
        if any(line.strip() for line in above[: len(above) - len(history)]):
            self._fail(f"{name}: unexpected non-blank lines before the inserted history")
        # Every line above is known (history or ghost): a ghost holding a whole committed line again is a copy.
        positions = [index for index, line_id in enumerate(self.above_ids) if line_id >= 0]
        copy = self._copy(tail, positions, result)
        if copy is not None:
            self._fail(f"{name}: {copy.describe()}")
        x, y, visible = cursor
        phase = result.state.render.cursor_phase
        if phase is CursorPhase.VISIBLE_AT_COMPOSER:
            wanted_cursor = (frame.cursor[1], top + frame.cursor[0])
            if not visible or (x, y) != wanted_cursor:
                self._fail(f"{name}: cursor at {(x, y)} visible={visible}, expected visible at {wanted_cursor}")
        elif visible:
            self._fail(f"{name}: cursor visible during {phase.value}")
        self._check_keys_shown(name, result, visible)

    def _check_keys_shown(self, name: str, result: TickResult, visible: bool) -> None:
        """The cursor is not shown while a dialog on screen without a text field has the keys: it would be in the
        composer, which ignores them (read off the dialog itself, not the frame's word for it)."""
        if visible and dialog_has_the_keys(result.state):
            self._fail(f"{name}: cursor visible while a dialog without a text field has the keys")


def _drawn_log_rows(state: AppState) -> list[LogRow | None]:
    """The log row each drawn log row of the viewport is (None where it is not one), as the core reads them when a
    resize leaves its top rows in the terminal (``reduce_resize._commit_drawn_rows``)."""
    screen, render = state.screen, state.render
    drawn = screen.drawn or ()
    width = screen.drawn_columns or state.columns
    policy = state.config.width_policy
    pending, _ = log_rows(state.log, width, policy)
    theme = state.log.options.theme if state.log.options is not None else None
    skip = render.visible_start - render.inserted_until
    out: list[LogRow | None] = []
    for index in range(min(screen.drawn_log_rows, len(drawn))):
        row = pending[skip + index] if 0 <= skip + index < len(pending) else None
        out.append(row if row is not None and draw_log_row(row, width, policy, theme) == drawn[index] else None)
    return out


def _at(rows: list[LogRow | None], index: int) -> LogRow | None:
    return rows[index] if index < len(rows) else None


def dialog_has_the_keys(state: AppState) -> bool:
    """A dialog without a text field (a confirm, a pick) is on screen: it has the keys, and no cursor may show (read
    off the dialog itself, not the frame's word for it)."""
    dialog = state.dialog
    if dialog is None or not state.screen.dialog_drawn:
        return False
    return dialog.render(state.columns, state.config.width_policy).cursor is None


def stream_end(state: AppState) -> tuple[int, int] | None:
    """Where the cursor rests, hidden, while GNU screen streams the open line (``Screen.stream``): (column, row)
    after its last character (on the last column, where it waits to wrap, when the row is full); None otherwise."""
    screen = state.screen
    if screen.stream is None or screen.drawn is None or not screen.drawn_log_rows:
        return None
    line = screen.stream[-1]
    held = 0  # the line's last rows that show nothing: the text waits at the end of the full row before them
    while held < len(line) - 1 and not row_text(line[len(line) - 1 - held]).strip(" "):
        held += 1
    end = screen.drawn_log_rows - 1 - held
    if held and screen.cursor is not None and screen.cursor[1] == 0:
        return 0, screen.top + end + 1  # a resize left it at the start of the row the text continues on
    width = state.columns if held else row_width(screen.drawn[end], state.config.width_policy)
    return min(width, state.columns - 1), screen.top + end


class _Held:
    """Stands in for the terminal while bytes are in flight: keeps them."""

    def __init__(self) -> None:
        self.data = bytearray()

    def feed(self, data: bytes) -> None:
        self.data += data
