"""InlineApp on a real pseudo-terminal: raw mode, cursor reports, keys, resizes, and restore on every exit."""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
import select
import signal
import struct
import termios
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from inline_render import Config, Key, LogAppend, Quit, TestTerminal
from inline_render.outputs import Interrupt, Output
from inline_render.shell import AppOptions, InlineApp, OutputMode
from inline_render.shell.closing import ENTER_MODES, LEAVE_MODES


class Pty:
    """A pty whose far side is a TestTerminal that answers cursor-position queries (unless told not to)."""

    def __init__(self, columns: int = 60, rows: int = 16, *, answer: bool = True, delay: float = 0.0) -> None:
        self.master, self.slave = os.openpty()
        self.set_size(columns, rows)
        self.terminal = TestTerminal(columns, rows)
        self.answer = answer
        self.delay = delay  # seconds before each batch of answers (a slow terminal)
        self.data = bytearray()
        self.lock = threading.Lock()
        self.stop = False
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def set_size(self, columns: int, rows: int) -> None:
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def _pump(self) -> None:
        while not self.stop:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            answers: list[bytes] = []
            with self.lock:
                self.data += chunk
                # Each query is answered with where the cursor is when the terminal reads it (an acknowledgement
                # moves the cursor to the last cell, asks, and restores it).
                *asked, rest = chunk.split(b"\x1b[6n")
                for part in asked:
                    self.terminal.feed(part)
                    answers.append(f"\x1b[{self.terminal.cursor.y + 1};{self.terminal.cursor.x + 1}R".encode())
                self.terminal.feed(rest)
            if answers and self.answer and self.delay:
                time.sleep(self.delay)
            for answer in answers if self.answer else []:
                os.write(self.master, answer)

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    def app(self, **options: Any) -> InlineApp:
        stdin = os.fdopen(os.dup(self.slave), "r", encoding="utf-8")
        stdout = os.fdopen(os.dup(self.slave), "w", encoding="utf-8")
        opts = AppOptions(mode=OutputMode.INLINE, config=Config(viewport_height=6), **options)
        return InlineApp(opts, stdin=stdin, stdout=stdout, env={"TERM": "xterm-256color"})

    def output(self) -> bytes:
        """Everything written so far, once the reader has caught up (no new byte for 100 ms)."""
        size, quiet_since = -1, 0.0
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            with self.lock:
                current = len(self.data)
            if current != size:
                size, quiet_since = current, time.monotonic()
            elif time.monotonic() - quiet_since > 0.1:
                break
            time.sleep(0.01)
        with self.lock:
            return bytes(self.data)

    def close(self) -> None:
        self.stop = True
        self.thread.join(timeout=2)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty() -> Iterator[Pty]:
    terminal = Pty()
    try:
        yield terminal
    finally:
        terminal.close()


async def _until(predicate: Any, timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def _lflag(fd: int) -> int:
    return int(termios.tcgetattr(fd)[3])


def test_an_exception_in_main_still_restores_the_terminal(pty: Pty) -> None:
    """main raises: the transcript is flushed, modes reset, cursor shown below, raw mode off, error re-raised."""
    cooked = _lflag(pty.slave)
    app = pty.app()

    async def main(app: InlineApp) -> None:
        app.send(LogAppend("text", "first line"), LogAppend("assistant", "streaming", id="a", final=False))
        await _until(lambda: "streaming" in "".join(pty.terminal.screen_lines()))
        assert _lflag(pty.slave) & termios.ICANON == 0  # raw while running
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        asyncio.run(app.run(main))
    data = pty.output()  # waits for the reader to catch up with the restore
    assert data.startswith(ENTER_MODES)
    assert data.endswith(LEAVE_MODES)
    assert _lflag(pty.slave) == cooked
    lines = [line.rstrip() for line in pty.terminal.screen_lines()]
    cursor = pty.terminal.cursor
    assert cursor.visible and cursor.x == 0
    assert [line for line in lines[: cursor.y] if line][-2:] == ["first line", "\u25b8 streaming"]
    assert not any(line for line in lines[cursor.y :])  # no status or composer left behind


def test_starts_at_the_reported_cursor_row(pty: Pty) -> None:
    """The viewport starts where the shell left the cursor (from ESC[6n), not at the bottom."""
    pty.terminal.feed(b"$ prompt\r\n$ command\r\n")
    app = pty.app()

    async def main(app: InlineApp) -> None:
        app.send(LogAppend("text", "hello"))
        await _until(lambda: pty.terminal.screen_lines()[2].rstrip() == "hello")
        app.exit(0)

    assert asyncio.run(app.run(main)) == 0


def test_no_cursor_report_falls_back_after_the_timeout(pty: Pty) -> None:
    """A terminal that never answers: the app starts after cpr_timeout, viewport at the bottom, still works."""
    pty.answer = False
    app = pty.app(cpr_timeout=0.2)

    async def main(app: InlineApp) -> None:
        app.send(LogAppend("text", "hello"))
        await _until(lambda: any(line.rstrip() == "hello" for line in pty.terminal.screen_lines()))
        app.exit(0)

    assert asyncio.run(app.run(main)) == 0
    lines = [line.rstrip() for line in pty.terminal.scrollback + pty.terminal.screen_lines()]
    assert "hello" in lines


def test_keys_reach_the_composer_and_a_cursor_report_never_does(pty: Pty) -> None:
    """Typed text lands in the composer; a stray ESC[7;3R among the keys is not text; Enter submits it."""
    app = pty.app()
    seen: list[Output] = []

    async def main(app: InlineApp) -> None:
        await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
        pty.type(b"ab\x1b[7;3Rc\r")
        seen.append(await app.next_output())
        app.exit(0)

    asyncio.run(app.run(main))
    assert [type(output).__name__ for output in seen] == ["Submit"]
    assert seen[0].text == "abc"  # type: ignore[union-attr]


def test_ctrl_c_is_an_interrupt_and_a_second_one_exits(pty: Pty) -> None:
    """The first Ctrl-C reaches main as Interrupt('c-c'); the second ends the app with code 0."""
    app = pty.app()
    seen: list[Output] = []

    async def main(app: InlineApp) -> int:
        await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
        pty.type(b"\x03")
        seen.append(await app.next_output())
        pty.type(b"\x03")
        await asyncio.sleep(10)
        return 5

    assert asyncio.run(app.run(main)) == 0
    assert seen == [Interrupt("c-c")]


def test_ctrl_d_on_an_empty_composer_quits(pty: Pty) -> None:
    """Ctrl-D with nothing typed is Quit: outputs() ends and the app exits 0."""
    app = pty.app()

    async def main(app: InlineApp) -> None:
        await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
        pty.type(b"x\x7f\x04")
        outputs = [output async for output in app.outputs()]
        assert outputs == [Quit()]

    assert asyncio.run(app.run(main)) == 0


def test_sigterm_exits_with_143_and_restores(pty: Pty) -> None:
    """SIGTERM is an exit request: main is cancelled, the terminal restored, the code is 128 + 15."""
    app = pty.app()

    async def main(app: InlineApp) -> None:
        await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(10)

    assert asyncio.run(app.run(main)) == 143
    assert pty.output().endswith(LEAVE_MODES)


def test_sigwinch_resizes_the_viewport(pty: Pty) -> None:
    """A SIGWINCH with a new pty size reaches the core as a Resize (after a cursor report)."""
    app = pty.app()

    async def main(app: InlineApp) -> None:
        await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
        app.send(Key("h"))
        with pty.lock:
            pty.terminal.resize(40, 12)
        pty.set_size(40, 12)
        os.kill(os.getpid(), signal.SIGWINCH)
        await _until(lambda: app.state is not None and app.state.columns == 40)
        assert app.state is not None and app.state.rows == 12
        app.exit(0)

    assert asyncio.run(app.run(main)) == 0


def test_a_frame_the_terminal_read_after_its_resize_is_reported_with_the_size_it_met(pty: Pty, tmp_path: Any) -> None:
    """The terminal shrinks before it reads a frame: the frame's acknowledgement gives the size it met, and the
    Resize the core gets says so (``in_flight_columns`` / ``in_flight_rows``: what a replay needs)."""
    target = tmp_path / "session.jsonl"
    app = pty.app(record=str(target))

    async def main(app: InlineApp) -> None:
        await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
        await asyncio.sleep(0.2)  # the startup frames acknowledged at their own size
        with pty.lock:
            pty.terminal.resize(40, 9)  # the terminal took its new size; the app has not heard of it yet
        app.send(LogAppend("text", "written for 60x16, read at 40x9"))
        await _until(lambda: any("read at" in line for line in pty.terminal.screen_lines()))
        await asyncio.sleep(0.2)  # its acknowledgement read
        pty.set_size(40, 9)
        os.kill(os.getpid(), signal.SIGWINCH)
        await _until(lambda: app.state is not None and app.state.columns == 40)
        app.exit(0)

    assert asyncio.run(app.run(main)) == 0
    resizes = [
        item
        for line in target.read_text(encoding="utf-8").splitlines()
        for item in json.loads(line).get("inputs", [])
        if isinstance(item, dict) and item.get("type") == "resize"
    ]
    assert resizes and resizes[-1]["frames_in_flight"] is True
    assert (resizes[-1]["in_flight_columns"], resizes[-1]["in_flight_rows"]) == (40, 9), resizes[-1]


def test_a_record_file_that_cannot_be_opened_is_an_error_line_not_a_crash(pty: Pty, tmp_path: Any) -> None:
    """record= into a missing directory: the app still runs, shows why it is not recording, and exits 0."""
    target = tmp_path / "missing" / "session.jsonl"
    app = pty.app(record=str(target))

    async def main(app: InlineApp) -> None:
        # The words of the reason, whichever rows they wrapped onto (continuation rows are indented).
        await _until(lambda: "No such file or directory" in " ".join(" ".join(pty.terminal.screen_lines()).split()))
        assert any("Cannot record to" in line for line in pty.terminal.screen_lines())
        app.exit(0)

    assert asyncio.run(app.run(main)) == 0
    assert not target.exists()
    assert pty.output().endswith(LEAVE_MODES)


def test_replies_owed_at_exit_are_read_before_raw_mode_ends() -> None:
    """A slow terminal answers the last frame's acknowledgement after the app finished: the reply is read
    while raw mode still holds, so the tty never echoes it (``^[[5;1R``) after the restore."""
    pty = Pty(delay=0.15)
    try:
        app = pty.app()

        async def main(app: InlineApp) -> None:
            await _until(lambda: app.renderer is not None and app.renderer.ticks > 0)
            app.send(LogAppend("text", "last words"))
            await asyncio.sleep(0.05)

        assert asyncio.run(app.run(main)) == 0
        time.sleep(0.3)
        output = pty.output()
        assert output.endswith(LEAVE_MODES), output[-80:]
        assert b"^[" not in output
    finally:
        pty.close()
