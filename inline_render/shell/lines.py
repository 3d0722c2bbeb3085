"""Line input: when there is no terminal to read keys from, stdin's lines are the user's input.

``InlineApp`` reads keys from a terminal in raw mode.  With stdin a pipe or a
file (``echo hi | app``, ``app < script.txt``), or on a dumb terminal, there
are no keys: each line is typed into whatever has the focus and submitted,
and the end of input is a Ctrl-D on an empty composer (``Quit``).

``line_inputs`` (pure) turns one line into the core inputs that type it;
``LineReader`` reads the lines on a daemon thread (a blocking read that never
returns must not keep the process alive at exit) and hands them to the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from typing import TextIO

from ..core.app import AppState
from ..errors import InvalidInput
from ..inputs import Input, Key, LogAppend, Paste, input_from_json
from ..widgets.dialogs import ConfirmDialog

__all__ = ["LineReader", "line_inputs"]

log = logging.getLogger(__name__)


def line_inputs(line: str, state: AppState | None, *, jsonl: bool = False) -> list[Input]:
    """The inputs that type ``line`` (without its newline) into what has the focus, then submit it.

    A confirm dialog takes the whole line as its answer (``y``, ``yes``, ``n``, ``no``, ``a``/``always``,
    ``s``/``session``; anything else denies); the composer, a prompt or a pick dialog take it as one
    paste followed by Enter.  In JSON Lines mode a line that
    is a JSON object is one input in the scenario vocabulary (``{"type": "key", "key": "y"}``); a bad
    one is reported as an error entry, never an exception.
    """
    if jsonl and line.lstrip().startswith("{"):
        try:
            return [input_from_json(json.loads(line), "stdin line")]
        except (ValueError, InvalidInput) as error:
            return [LogAppend("error", f"stdin: {error}")]
    dialog = state.dialog if state is not None else None
    if isinstance(dialog, ConfirmDialog):
        return _confirm_inputs(dialog, line)
    return [Paste(line), Key("enter")] if line else [Key("enter")]


def _confirm_inputs(dialog: ConfirmDialog, line: str) -> list[Input]:
    """A confirm takes a whole line: one of its choices, or the denial of a line that is none of them.

    Read letter by letter, "okay, no" approved through its ``y`` and left ", no" for the next message.  A line
    that is no choice denies (a script's next line is not eaten by a question asked again) and says why.
    """
    if dialog.reason is not None:  # the deny reason being asked for: the line is the reason
        return [*(Key(char) for char in line), Key("enter")]
    key = dialog.line_key(line)
    if key is not None:
        return [Key(key)]
    note = LogAppend("warn", f"{line.strip()!r} is no answer ({', '.join(dialog.answer_words())}): denied")
    return [note, Key("escape")]


class LineReader:
    """Reads ``stream`` line by line on a daemon thread; ``get`` returns the next line, None at its end.

    A stream that cannot be read (closed, or pytest's captured stdin) gives no lines and never ends:
    only a true end of input (an empty read) is an end.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._read, name="inline_render-stdin", daemon=True)
        self._thread.start()

    async def get(self) -> str | None:
        """The next line without its line break; None once the input has ended."""
        return await self._queue.get()

    def _post(self, line: str | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits for lines any more
            self._loop.call_soon_threadsafe(self._queue.put_nowait, line)

    def _read(self) -> None:
        try:
            for line in iter(self.stream.readline, ""):
                self._post(line.rstrip("\r\n"))
        except (OSError, ValueError, UnicodeDecodeError) as error:
            log.warning("stdin cannot be read as lines: %s", error)
            return
        self._post(None)
