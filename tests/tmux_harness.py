"""A private tmux server running a shell, for integration tests against a real terminal (not a test module)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TERM = "xterm-256color"
# Lines that belong to the live viewport only: never to be found in history after the fact.
VIEWPORT_ONLY = re.compile(r"Type a message|/help for commands|\[y\] Allow|enter: choose|Working|waiting for you")


def require_tmux() -> str:
    """The tmux binary, or skip the test with the reason."""
    binary = shutil.which("tmux")
    if binary is None:
        pytest.skip("tmux is not installed (apt-get install tmux); the real-terminal tests need it")
    return binary


class Tmux:
    """One tmux server on its own socket (``-L``) with one window running ``bash --norc``."""

    def __init__(self, columns: int, rows: int) -> None:
        self.binary = require_tmux()
        self.socket = f"inline-render-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.columns, self.rows = columns, rows
        env = {"PS1": "$ ", "TERM": TERM, "PYTHONPATH": str(REPO), "LANG": "C.UTF-8", "HISTFILE": "/dev/null"}
        args = ["new-session", "-d", "-x", str(columns), "-y", str(rows), "-c", str(REPO)]
        for name, value in env.items():
            args += ["-e", f"{name}={value}"]
        self.run(*args, "bash --norc --noprofile")
        try:
            self.run("set-option", "-g", "history-limit", "20000")
            self.command("PS1='$ '; clear")
            self.wait_for(lambda: self.screen()[0] == "$", what="the shell prompt")
            self.run("clear-history")
        except BaseException:
            self.kill()  # the fixture's teardown never sees a server whose start failed
            raise

    def run(self, *args: str) -> str:
        """A tmux command on this server; its stdout."""
        result = subprocess.run(
            [self.binary, "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def kill(self) -> None:
        """Stop the server (and everything in it)."""
        subprocess.run([self.binary, "-L", self.socket, "kill-server"], capture_output=True, timeout=10, check=False)

    def type(self, text: str) -> None:
        """Type text literally."""
        self.run("send-keys", "-l", text)

    def keys(self, *names: str) -> None:
        """Press named keys (Enter, Escape, C-c, Down...)."""
        self.run("send-keys", *names)

    def command(self, line: str) -> None:
        """Type a shell command line and run it."""
        self.type(line)
        self.keys("Enter")

    def demo(self, *args: str) -> None:
        """Start ``python -m inline_render demo ARGS`` and print its exit status after it."""
        self.command(" ".join([sys.executable, "-m", "inline_render", "demo", *args]) + "; echo EXIT=$?")

    def screen(self) -> list[str]:
        """The visible screen, one string per row (right-trimmed)."""
        return [line.rstrip() for line in self.run("capture-pane", "-p").split("\n")[: self.rows]]

    def everything(self) -> list[str]:
        """History and screen, oldest first, trailing blank lines dropped."""
        lines = [line.rstrip() for line in self.run("capture-pane", "-p", "-S", "-", "-E", "-").split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    def cursor(self) -> tuple[int, int, bool]:
        """(x, y, visible) of the terminal cursor."""
        x, y, flag = self.run("display", "-p", "#{cursor_x} #{cursor_y} #{cursor_flag}").split()
        return int(x), int(y), flag == "1"

    def resize(self, columns: int, rows: int | None = None) -> None:
        """Resize the window (tmux reflows, then the program gets SIGWINCH)."""
        self.columns = columns
        self.rows = rows if rows is not None else self.rows
        self.run("resize-window", "-x", str(columns), "-y", str(self.rows))

    def wait_for(self, done: Callable[[], bool], *, timeout: float = 30.0, what: str = "a condition") -> None:
        """Poll ``done`` every 50 ms; fail with the screen after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if done():
                return
            time.sleep(0.05)
        screen = "\n".join(self.screen())
        raise AssertionError(f"timed out after {timeout} s waiting for {what}; screen:\n{screen}")

    def wait_text(self, text: str, *, timeout: float = 30.0) -> None:
        """Until ``text`` is on the screen."""
        self.wait_for(lambda: any(text in line for line in self.screen()), timeout=timeout, what=repr(text))

    def wait_exit(self, *, timeout: float = 60.0) -> int:
        """Until the demo's ``EXIT=n`` line shows; n."""
        pattern = re.compile(r"^EXIT=(\d+)$")
        found: list[int] = []

        def done() -> bool:
            found[:] = [int(m.group(1)) for line in self.everything() if (m := pattern.match(line))]
            return bool(found)

        self.wait_for(done, timeout=timeout, what="the demo to exit")
        return found[-1]


def assert_in_order_once(lines: list[str], markers: list[str]) -> None:
    """Each marker is found in exactly one line, and those lines come in the markers' order."""
    positions = []
    for marker in markers:
        hits = [index for index, line in enumerate(lines) if marker in line]
        assert len(hits) == 1, f"{marker!r} found {len(hits)} times in:\n" + "\n".join(lines)
        positions.append(hits[0])
    assert positions == sorted(positions), "markers out of order in:\n" + "\n".join(lines)


def assert_exited_cleanly(tmux: Tmux, last_transcript_line: str) -> None:
    """After exit: the transcript, then EXIT=0, then the prompt with the cursor on it, visible; no viewport left."""
    lines = tmux.everything()
    assert lines[-2:] == ["EXIT=0", "$"], "\n".join(lines[-10:])
    assert last_transcript_line in lines[-3], "\n".join(lines[-10:])
    ghosts = [line for line in lines if VIEWPORT_ONLY.search(line)]
    assert not ghosts, f"viewport rows left in the transcript: {ghosts}"
    x, y, visible = tmux.cursor()
    assert visible and x == 2 and tmux.screen()[y] == "$"
