"""Stray output while the viewport is live (issue 32, item 3): sys.stdout / sys.stderr become log lines above it."""

from __future__ import annotations

import asyncio
import io
import os
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from tmux_harness import Tmux

from inline_render.shell.capture import LineProxy, OutputCapture, visible_line

APP = """
import asyncio, logging, sys, threading, warnings
from inline_render import Submit
from inline_render.shell import AppOptions, InlineApp

async def main(app):
    app.status("status-marker")
    async for output in app.outputs():
        if isinstance(output, Submit):
            print("stray print one")
            sys.stderr.write("stray stderr two\\n")
            logging.getLogger("lib").warning("stray logging three")
            warnings.warn("stray warning four")
            thread = threading.Thread(target=lambda: print("stray thread five"))
            thread.start()
            thread.join()
            print("stray partial ", end="", flush=True)
            print("six")
            sys.stdout.buffer.write(b"stray bytes seven\\n")
            await asyncio.sleep(0.3)
            app.log("assistant", "answered " + output.text)

raise SystemExit(asyncio.run(InlineApp(AppOptions(capture_output=CAPTURE)).run(main)))
"""
STRAY = [
    "stray print one",
    "stray stderr two",
    "stray logging three",
    "UserWarning: stray warning four",
    "stray thread five",
    "stray partial six",
    "stray bytes seven",
]


def _run_in_tmux(tmp_path: Path, capture: bool) -> tuple[list[str], list[str]]:
    """The app in tmux: 'go' submitted, the answer waited for; (screen then, everything after exit)."""
    script = tmp_path / "stray_app.py"
    script.write_text(APP.replace("CAPTURE", str(capture)), encoding="utf-8")
    tmux = Tmux(70, 16)
    try:
        tmux.command(f"{sys.executable} {script}; echo EXIT=$?")
        tmux.wait_text("status-marker")
        tmux.type("go")
        tmux.keys("Enter")
        tmux.wait_text("answered go")
        screen = tmux.screen()
        tmux.keys("C-d")
        assert tmux.wait_exit() == 0
        return screen, tmux.everything()
    finally:
        tmux.kill()


def test_printed_lines_go_above_an_intact_viewport(tmp_path: Path) -> None:
    """print, stderr, logging, warnings, a thread's print, a partial line and bytes on sys.stdout.buffer each show
    once, whole, above the viewport; the status line and composer stay one each at the bottom; none is left in
    history after exit (before: the lines were written into the composer row and the viewport was drawn over)."""
    screen, everything = _run_in_tmux(tmp_path, capture=True)
    for text in STRAY:
        hits = [line for line in everything if text in line]
        assert len(hits) == 1, (text, everything)
    whole = [line for line in everything if line.startswith("stray")]
    assert whole == [text for text in STRAY if text.startswith("stray")], everything  # whole lines, in order
    shown = [line for line in screen if line]
    assert shown[-2:] == ["status-marker", "\u203a"], screen  # the viewport: the status line, then the composer
    assert sum("status-marker" in line for line in screen) == 1, screen
    assert not any("status-marker" in line for line in everything), everything  # no viewport row left behind


def test_capture_off_leaves_the_streams_alone(tmp_path: Path) -> None:
    """``capture_output=False``: the print goes to the terminal as it comes, into the composer's row (the
    garbling the default prevents, as before the fix)."""
    screen, _ = _run_in_tmux(tmp_path, capture=False)
    assert "\u203a stray print one" in screen, screen


class _Tty(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _captured(run: Callable[[OutputCapture], Awaitable[None]]) -> tuple[list[tuple[str, str]], _Tty, _Tty]:
    """Run ``run(capture)`` with fake terminal streams for sys.stdout/sys.stderr; (lines emitted, out, err)."""
    emitted: list[tuple[str, str]] = []
    out, err = _Tty(), _Tty()

    async def scenario() -> None:
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            capture = OutputCapture(emitted.extend)
            capture.start()
            try:
                await run(capture)
            finally:
                capture.stop()
            assert sys.stdout is out and sys.stderr is err  # put back
        finally:
            sys.stdout, sys.stderr = saved

    asyncio.run(scenario())
    return emitted, out, err


def test_capture_keeps_order_threads_partial_lines_and_restores() -> None:
    """Whole lines in order from both streams and a thread; a partial line waits for its end or for stop; after
    stop a proxy still held writes through to the real stream."""
    kept: list[LineProxy] = []

    async def run(capture: OutputCapture) -> None:
        assert isinstance(sys.stdout, LineProxy) and isinstance(sys.stderr, LineProxy)
        assert not sys.stdout.isatty()
        print("one")
        sys.stderr.write("two\nthree")
        print(" and more", file=sys.stderr)
        worker = threading.Thread(target=lambda: print("from a thread"))
        worker.start()
        worker.join()
        await asyncio.sleep(0.01)  # the thread's line is handed to the loop
        print("no end", end="")
        kept.append(sys.stdout)

    emitted, out, err = _captured(run)
    assert emitted == [
        ("stdout", "one"),
        ("stderr", "two"),
        ("stderr", "three and more"),
        ("stdout", "from a thread"),
        ("stdout", "no end"),
    ]
    assert out.getvalue() == "" and err.getvalue() == ""
    kept[0].write("after\n")
    assert out.getvalue() == "after\n"


def test_a_stream_that_is_no_terminal_is_not_captured() -> None:
    """A pipe or a file on sys.stdout is left as it is (a transcript or a result written there is not taken)."""
    emitted: list[tuple[str, str]] = []

    async def scenario() -> None:
        saved = sys.stdout
        pipe = io.StringIO()
        sys.stdout = pipe
        try:
            capture = OutputCapture(emitted.extend)
            capture.start()
            assert sys.stdout is pipe
            print("to the pipe")
            capture.stop()
        finally:
            sys.stdout = saved
        assert pipe.getvalue() == "to the pipe\n"

    asyncio.run(scenario())
    assert emitted == []


def test_carriage_returns_keep_what_a_terminal_shows_last() -> None:
    """A progress counter written with carriage returns is one line: its last state."""
    assert visible_line("10%\r50%\r100%") == "100%"
    assert visible_line("done\r") == "done"
    assert visible_line("plain") == "plain"


def test_streams_come_back_when_main_raises() -> None:
    """In a pty (in process): main prints, leaves a partial line and raises; sys.stdout/sys.stderr are the
    originals again, and both lines are in the transcript above where the viewport was."""
    from test_shell_runner import Pty

    from inline_render.shell import InlineApp

    pty = Pty()
    saved = sys.stdout, sys.stderr
    out = os.fdopen(os.dup(pty.slave), "w", encoding="utf-8")
    try:
        sys.stdout = sys.stderr = out
        app = pty.app()

        async def main(app: InlineApp) -> None:
            assert isinstance(sys.stdout, LineProxy) and isinstance(sys.stderr, LineProxy)
            print("printed while running")
            print("left unfinished", end="", file=sys.stderr)
            await asyncio.sleep(0.05)
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            asyncio.run(app.run(main))
        assert sys.stdout is out and sys.stderr is out
    finally:
        sys.stdout, sys.stderr = saved
        out.close()
    try:
        pty.output()
        lines = [line.rstrip() for line in pty.terminal.screen_lines()]
        assert lines.count("printed while running") == 1 and lines.count("left unfinished") == 1, lines
    finally:
        pty.close()
