"""Stray output while the viewport is live: what is written to ``sys.stdout`` / ``sys.stderr`` becomes log lines.

A ``print``, a ``logging`` record, a warning or a library's banner written while the
inline viewport is on the screen lands wherever the terminal's cursor is (in the
composer) and the next frame is drawn over a screen it does not know: the viewport
is garbled.  prompt_toolkit has ``patch_stdout()``, Ink ``patchConsole``, Textual
captures ``print``.  Here, while an inline app runs, ``sys.stdout`` and ``sys.stderr``
(each one that is a terminal) are replaced by ``LineProxy`` objects: every whole line
written to them becomes a ``text`` entry of the log, above the viewport, in order.

* Lines are whole: text without a line break waits for the rest of its line (or the
  end of the run).  A carriage return inside a line keeps what a terminal would show
  last (a progress counter's final state), nothing else of it.
* Any thread may write: lines are queued under a lock and handed to the loop.
* The streams come back on every exit path (``stop``); a proxy something kept (a
  ``logging.StreamHandler`` created meanwhile) writes through to the real stream after.
* Only the Python streams: output written to file descriptors 1 and 2 directly (C code,
  a child process that inherited them) still goes to the terminal as it is.  Capturing
  the descriptors would put the process's own last words (a ``faulthandler`` traceback, a
  crash in C) into a pipe that dies with it.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import io
import logging
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from .terminal_io import stream_is_tty

__all__ = ["LineProxy", "OutputCapture", "visible_line"]

Emit = Callable[[list[tuple[str, str]]], None]
_NAMES = ("stdout", "stderr")
log = logging.getLogger(__name__)


def visible_line(text: str) -> str:
    """What a terminal shows of a line written with carriage returns: the last piece that has text."""
    if "\r" not in text:
        return text
    pieces = [piece for piece in text.split("\r") if piece]
    return pieces[-1] if pieces else ""


class _BytesProxy:
    """``proxy.buffer``: bytes written to the binary side are decoded into the line proxy (UTF-8, replaced)."""

    def __init__(self, proxy: LineProxy) -> None:
        self._proxy = proxy
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def write(self, data: bytes) -> int:
        self._proxy.write(self._decoder.decode(bytes(data)))
        return len(data)

    def flush(self) -> None:
        self._proxy.flush()


class LineProxy(io.TextIOBase):
    """Stands for ``sys.stdout`` or ``sys.stderr`` while captured: whole lines go to the capture."""

    def __init__(self, name: str, original: TextIO, capture: OutputCapture) -> None:
        super().__init__()
        self.name = name
        self.original = original
        self._capture = capture
        self.detached = False
        self.buffer = _BytesProxy(self)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(self.original, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.original, "errors", None)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        # Not a terminal: libraries then write plain text (no colours, no cursor movement) into the log.
        return False

    def fileno(self) -> int:
        # The real stream's descriptor: a child process given ``stdout=sys.stdout`` writes where it always did.
        return self.original.fileno()

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.detached:
            return self.original.write(text)
        if "\n" not in text:
            self._capture.hold(self, text)
        else:
            self._capture.lines(self, text)
        return len(text)

    def flush(self) -> None:
        if self.detached:
            with contextlib.suppress(Exception):
                self.original.flush()


class OutputCapture:
    """Replaces the terminal-bound ``sys.stdout`` / ``sys.stderr`` with ``LineProxy`` objects until ``stop``.

    ``emit(lines)`` gets ``(stream name, line)`` pairs on the loop's thread, in the order they were written.
    """

    def __init__(self, emit: Emit) -> None:
        self._emit = emit
        self._lock = threading.Lock()
        self._queued: list[tuple[str, str]] = []
        self._partial: dict[str, str] = {}
        self._proxies: list[LineProxy] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = 0
        self._posted = False
        self._emitting = False

    @property
    def active(self) -> bool:
        """Whether a stream is captured now."""
        return bool(self._proxies)

    def start(self) -> None:
        """Capture each of ``sys.stdout`` and ``sys.stderr`` that is a terminal (a pipe or a file is left alone)."""
        self._loop = asyncio.get_running_loop()
        self._thread = threading.get_ident()
        for name in _NAMES:
            current = getattr(sys, name)
            if isinstance(current, LineProxy) or not stream_is_tty(current):
                continue
            with contextlib.suppress(Exception):
                current.flush()  # what was written before the viewport goes out before it
            proxy = LineProxy(name, current, self)
            setattr(sys, name, proxy)
            self._proxies.append(proxy)

    def stop(self) -> None:
        """Put the streams back and hand over every line still held (a partial line as a whole one)."""
        for proxy in self._proxies:
            proxy.detached = True
            if getattr(sys, proxy.name) is proxy:
                setattr(sys, proxy.name, proxy.original)
        with self._lock:
            for proxy in self._proxies:
                rest = self._partial.pop(proxy.name, "")
                if rest:
                    self._queued.append((proxy.name, visible_line(rest)))
        self._proxies.clear()
        try:
            self._drain()
        except Exception:  # on the way out: the terminal's restore must still run (the streams are back already)
            log.exception("the captured output could not be shown")

    # --- from the proxies (any thread) ------------------------------------------------------

    def hold(self, proxy: LineProxy, text: str) -> None:
        """Text with no line break: kept until its line ends."""
        with self._lock:
            self._partial[proxy.name] = self._partial.get(proxy.name, "") + text

    def lines(self, proxy: LineProxy, text: str) -> None:
        """Text with line breaks: its whole lines are queued for the loop, the rest is held."""
        with self._lock:
            pieces = (self._partial.pop(proxy.name, "") + text).split("\n")
            if pieces[-1]:
                self._partial[proxy.name] = pieces[-1]
            self._queued += [(proxy.name, visible_line(line)) for line in pieces[:-1]]
            if self._posted:
                return
            self._posted = True
        if threading.get_ident() == self._thread:
            self._drain()
        elif self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the lines go with stop()
                self._loop.call_soon_threadsafe(self._drain)

    def _drain(self) -> None:
        if self._emitting:  # a line written while emitting (a log record of the emit itself): the loop below
            return
        self._emitting = True
        try:
            while True:
                with self._lock:
                    queued, self._queued = self._queued, []
                    self._posted = False
                if not queued:
                    return
                self._emit(queued)
        finally:
            self._emitting = False
