"""The one place that turns operations into bytes and writes them.

Styles are encoded by prompt_toolkit's output layer (colour depth, NO_COLOR via
``ColorDepth.from_env``); the few sequences it has no call for (relative
cursor moves, synchronized output) are written raw.  A write that fails part-way
reports how many bytes, and so how many whole operations, reached the terminal.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Callable
from typing import Protocol

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import Attrs

from ..errors import BackendError
from ..terminals.memory import TestTerminal
from ..text.style import DEFAULT, Segment, Style
from .ops import (
    Anchored,
    AutowrapOff,
    AutowrapOn,
    BeginSync,
    Cancel,
    DeleteLines,
    EffectResult,
    EndSync,
    EraseDown,
    EraseLine,
    HideCursor,
    Index,
    Inserted,
    LineFeed,
    MoveBy,
    Op,
    Plan,
    ResetStyle,
    RestoreCursor,
    SaveCursor,
    ShowCursor,
    Text,
)

__all__ = ["MemorySink", "Sink", "StreamSink", "Vt100Backend"]


class Sink(Protocol):
    """Where bytes go: ``write`` returns how many bytes it took (None: all) or raises."""

    def write(self, data: bytes) -> int | None: ...


class MemorySink:
    """Feeds everything written into a ``TestTerminal`` and keeps the raw bytes."""

    def __init__(self, terminal: TestTerminal) -> None:
        self.terminal = terminal
        self.data = bytearray()

    def write(self, data: bytes) -> int:
        self.data += data
        self.terminal.feed(data)
        return len(data)


class StreamSink:
    """Writes to a binary stream (``sys.stdout.buffer``), looping over short writes, then flushes."""

    def __init__(self, stream: io.BufferedIOBase | io.RawIOBase) -> None:
        self.stream = stream

    def write(self, data: bytes) -> int:
        view = memoryview(data)
        done = 0
        while done < len(data):
            try:
                count = self.stream.write(view[done:])
            except OSError as error:
                raise BackendError(f"terminal write failed: {error}", written=done) from error
            done += len(data) - done if count is None else count
        self.stream.flush()
        return done


class _Collector:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, data: str) -> None:
        self.parts.append(data)

    def flush(self) -> None:
        pass


def _attrs(style: Style) -> Attrs:
    return Attrs(
        color=(style.fg or "").lstrip("#"),
        bgcolor=(style.bg or "").lstrip("#"),
        bold=style.bold,
        underline=style.underline,
        strike=False,
        italic=style.italic,
        blink=False,
        reverse=style.reverse,
        hidden=False,
        dim=style.dim,
    )


_FIXED: dict[type[Op], str] = {
    BeginSync: "\x1b[?2026h",
    EndSync: "\x1b[?2026l",
    Cancel: "\x18",
    HideCursor: "\x1b[?25l",
    ShowCursor: "\x1b[?25h",
    LineFeed: "\n",
    AutowrapOff: "\x1b[?7l",
    AutowrapOn: "\x1b[?7h",
    Index: "\x1bD",
    SaveCursor: "\x1b7",
    RestoreCursor: "\x1b8",
    Inserted: "",
    Anchored: "",
}


@functools.lru_cache(maxsize=4096)
def _move_code(rows: int, col: int | None) -> str:
    column = "" if col is None else ("\r" if col == 0 else f"\x1b[{col + 1}G")
    if rows > 0:
        # Down: line feeds, then the column (onlcr may have returned to column 0).  See ops.MoveBy.
        return "\n" * rows + column
    # Up: CUU, which never scrolls, then the column: set last, so that it is the terminal's when the text
    # comes (a terminal that re-wraps at a resize read between the two may move the cursor's column, e.g.
    # tmux puts it at column 0 of a blank row, and a column set before would be lost).
    return (f"\x1b[{-rows if rows < -1 else ''}A" if rows else "") + column


_LINK_URL = re.compile(r"[\x21-\x5b\x5d-\x7e]{1,2048}")  # printable ASCII but backslash: no ESC, no ST, no space


def _hyperlink(piece: str, text: str, url: str) -> str:
    """``piece`` (style code + ``text``) with ``text`` wrapped in an OSC 8 hyperlink to ``url``.

    Each linked run opens and closes its own link, so no link stays open past the text it is on
    (a cursor move, an erase or the next frame never inherit it).  The URL was validated by the
    Markdown renderer (markdown.safe_url); one that is not plain printable ASCII is never sent.
    """
    if _LINK_URL.fullmatch(url) is None:
        return piece
    head = piece[: len(piece) - len(text)]
    return f"{head}\x1b]8;;{url}\x1b\\{text}\x1b]8;;\x1b\\"


_NOTHING_WRITTEN = EffectResult(0, 0, 0, True)


def _ends(pieces: list[str]) -> list[int]:
    """The byte offset at which each piece ends once the pieces are joined and encoded as UTF-8."""
    ends: list[int] = []
    size = 0
    for piece in pieces:
        size += len(piece) if piece.isascii() else len(piece.encode("utf-8", "replace"))
        ends.append(size)
    return ends


# Complete results are values, and a few of them (a counter's digits: the same bytes and operations every
# update) are most of them: shared, as effects shares its MoveBy operations.  Bounded like those.
_COMPLETE: dict[tuple[int, int, int], EffectResult] = {}


def _complete(nbytes: int, nops: int, inserted: int) -> EffectResult:
    """The ``EffectResult`` of a complete write (one object per distinct triple)."""
    key = (nbytes, nops, inserted)
    result = _COMPLETE.get(key)
    if result is None:
        if len(_COMPLETE) >= 4096:
            _COMPLETE.clear()
        result = _COMPLETE[key] = EffectResult(nbytes, nops, inserted, True)
    return result


def _rows_inserted(ops: tuple[Op | Segment, ...]) -> int:
    return sum([op.rows for op in ops if type(op) is Inserted])


class Vt100Backend:
    """Encodes plans for a VT100/xterm-compatible terminal and writes them to a sink."""

    def __init__(self, sink: Sink | Callable[[bytes], int | None], color_depth: ColorDepth | None = None) -> None:
        self.sink = sink
        self.color_depth = color_depth or ColorDepth.from_env() or ColorDepth.DEPTH_8_BIT
        # The terminal's current attributes (None when unknown): the style object last written, and the *known*
        # style of its value (the first object seen of it), so that equal styles compare by identity.
        self._style: Style | None = None
        self._current: Style | None = None
        self._codes: dict[Style, str] = {}
        # Every style object written (by ``id``): (the object, the known style of its value, its code).  A frame
        # holds a few style objects, often equal ones from different places (the theme's, the log's), and a
        # status line switches between two of them on every update: the value's hash, comparison and code are
        # looked up once per object instead of per text written.  The entry holds the object, so its ``id`` is
        # not reused while the entry lives; bounded like the other caches.
        self._seen: dict[int, tuple[Style, Style, str]] = {}
        self._known_styles: dict[Style, Style] = {}
        collector = _Collector()
        self._output = Vt100_Output(collector, lambda: Size(rows=24, columns=80), term="xterm")  # type: ignore[arg-type]
        self._collector = collector

    def _code(self, style: Style) -> str:
        code = self._codes.get(style)
        if code is None:
            if style == DEFAULT:
                self._output.reset_attributes()
            else:
                self._output.set_attributes(_attrs(style), self.color_depth)
            self._output.flush()
            code = "".join(self._collector.parts)
            self._collector.parts.clear()
            self._codes[style] = code
        return code

    def _known(self, style: Style) -> tuple[Style, Style, str]:
        """``style``, the known style of its value (the first object seen of it) and its code."""
        seen = self._seen.get(id(style))
        if seen is None:
            if len(self._seen) >= 4096:
                self._seen.clear()
            known = self._known_styles.setdefault(style, style)
            seen = self._seen[id(style)] = (style, known, self._code(known))
        return seen

    def _style_to(self, style: Style, parts: list[str]) -> None:
        if style is not self._style:
            _, known, code = self._known(style)
            if known is not self._current:
                parts.append(code)
                self._current = known
            self._style = style

    def encode(self, plan: Plan) -> tuple[bytes, list[int]]:
        """The bytes of a plan and the byte offset at which each operation ends."""
        pieces, _ = self._encode(plan.ops)
        # One encode for the whole plan: UTF-8 (with "replace") encodes code point by code point.
        return "".join(pieces).encode("utf-8", "replace"), _ends(pieces)

    def _encode(self, ops: tuple[Op, ...]) -> tuple[list[str], int]:
        """The text of each operation, in order (the backend's style follows them), and the rows the
        ``Inserted`` markers among them count (one pass: a write needs both)."""
        pieces: list[str] = []
        append = pieces.append  # a flood's plan has about 20,000 operations: locals, not attribute lookups
        fixed_of, seen = _FIXED.get, self._seen.get
        inserted = 0
        last = self._style  # self._style, kept in a local between the operations that change it
        for op in ops:
            if type(op) is Text:  # the most frequent operation first
                style = op.style
                if style is last:
                    piece = op.text
                else:
                    _, known, code = seen(id(style)) or self._known(style)
                    if known is self._current:  # an equal style (the theme's object, not the log's)
                        piece = op.text
                    else:
                        piece = code + op.text
                        self._current = known
                    last = self._style = style
                if style.link is not None:
                    piece = _hyperlink(piece, op.text, style.link)
            elif type(op) is MoveBy:
                piece = _move_code(op.rows, op.col)
            elif (fixed := fixed_of(type(op))) is not None:
                piece = fixed
                if type(op) is Inserted:
                    inserted += op.rows
            elif isinstance(op, (EraseLine, EraseDown)):
                parts: list[str] = []
                self._style_to(DEFAULT, parts)  # erased cells take the current background
                last = self._style
                parts.append("\x1b[K" if isinstance(op, EraseLine) else "\x1b[J")
                piece = "".join(parts)
            elif isinstance(op, ResetStyle):
                piece = "\x1b[0m"
                self._style, self._current = DEFAULT, self._known(DEFAULT)[1]
                last = DEFAULT
            elif isinstance(op, DeleteLines):
                piece = f"\x1b[{op.count}M"
            else:  # pragma: no cover - every Op type is handled above
                raise AssertionError(f"unknown operation {op!r}")
            append(piece)
        return pieces, inserted

    def write(self, plan: Plan) -> EffectResult:
        """Write a plan; never raises: a failure is reported in the result."""
        if not plan.ops and plan.fail_after is None:
            return _NOTHING_WRITTEN  # an idle tick: no bytes, no call into the sink
        pieces, inserted = self._encode(plan.ops)
        return self._deliver(pieces, inserted, plan.fail_after, plan.ops)

    def write_rows(self, items: tuple[Op | Segment, ...], fail_after: int | None = None) -> EffectResult:
        """Write a rows-only plan (``effects.RowsPlan.items``: operations, a text as its ``Segment``) as
        ``write`` writes the same plan as operations, byte for byte; never raises."""
        if not items and fail_after is None:
            return _NOTHING_WRITTEN
        pieces: list[str] = []
        append = pieces.append
        seen, last = self._seen.get, self._style
        for item in items:
            kind = type(item)
            if kind is Segment:  # a text (what ``_encode`` does for a ``Text``)
                text, style = item  # type: ignore[misc]
                if style is last:
                    piece = text
                else:
                    _, known, code = seen(id(style)) or self._known(style)
                    if known is self._current:
                        piece = text
                    else:
                        piece = code + text
                        self._current = known
                    last = self._style = style
                if style.link is not None:
                    piece = _hyperlink(piece, text, style.link)
            elif kind is MoveBy:
                piece = _move_code(item.rows, item.col)  # type: ignore[union-attr]
            elif kind is EraseLine:
                parts: list[str] = []
                self._style_to(DEFAULT, parts)  # erased cells take the current background
                last = self._style
                parts.append("\x1b[K")
                piece = "".join(parts)
            else:  # BeginSync, EndSync, LineFeed, ShowCursor: what a rows-only plan holds besides
                piece = _FIXED[kind]  # type: ignore[index]
            append(piece)
        return self._deliver(pieces, 0, fail_after, items)

    def _deliver(
        self, pieces: list[str], inserted: int, fail_after: int | None, ops: tuple[Op | Segment, ...]
    ) -> EffectResult:
        """Send the encoded ``pieces`` of ``ops`` (failing after ``fail_after`` bytes when set); the result."""
        data = "".join(pieces).encode("utf-8", "replace")
        written, error = len(data), None
        try:
            if fail_after is not None and fail_after < len(data):
                written = fail_after
                self._send(data[:written])
                raise BackendError(f"injected fault after {written} bytes", written=written)
            if data:
                self._send(data)
        except BackendError as failure:
            written, error = failure.written, str(failure)
        except OSError as failure:
            written, error = 0, f"terminal write failed: {failure}"
        if error is None:
            return _complete(len(data), len(pieces), inserted)
        self._style = self._current = None
        ends = _ends(pieces)  # where each operation ends: only a failure needs them
        done = 0
        while done < len(ends) and ends[done] <= written:
            done += 1
        return EffectResult(written, done, _rows_inserted(ops[:done]), False, error)

    def _send(self, data: bytes) -> None:
        sink = self.sink
        if callable(sink):
            sink(data)
        else:
            sink.write(data)
