"""An X server of its own (Xvfb) for the X terminals, and the exit marker they share.

Xvfb picks a free display itself (``-displayfd``), so parallel runs never collide; ``stop`` ends
it.  ``reset=False`` starts it with ``-noreset``: Xvfb then does not reset when its last client
leaves, which otherwise made about one kitty start in ten fail to connect.  Terminals that own
their child (xterm, the VTE host) do not tell us when the app exits, so the app runs under ``sh``
which writes the exit code to a marker file once the app has returned.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

__all__ = ["Xvfb", "marked"]

START_TIMEOUT = 15.0


class Xvfb:
    """A running Xvfb on a display it chose; ``display`` is ``:N``."""

    def __init__(self, width: int = 2400, height: int = 1600, *, reset: bool = True) -> None:
        binary = shutil.which("Xvfb")
        if binary is None:
            raise RuntimeError("Xvfb not installed (apt-get install xvfb)")
        read, write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [
                    binary,
                    *(() if reset else ("-noreset",)),
                    *("-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"),
                ],
                pass_fds=(write,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        finally:
            os.close(write)
        try:
            number = b""
            while not number.endswith(b"\n"):
                ready, _, _ = select.select([read], [], [], START_TIMEOUT)
                chunk = os.read(read, 64) if ready else b""
                if not chunk:
                    raise RuntimeError("Xvfb did not start (no display number on -displayfd)")
                number += chunk
        except BaseException:
            self.stop()
            raise
        finally:
            os.close(read)
        self.display = f":{int(number.strip())}"

    def env(self) -> dict[str, str]:
        """The environment for clients of this server."""
        return {**os.environ, "DISPLAY": self.display}

    def stop(self) -> None:
        """End the server (idempotent)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def marked(argv: Sequence[str], marker: Path) -> list[str]:
    """``argv`` run by ``sh``, which writes its exit code to ``marker`` after it returned."""
    with contextlib.suppress(FileNotFoundError):
        marker.unlink()
    script = 'marker="$1"; shift; "$@"; echo $? > "$marker.tmp"; mv "$marker.tmp" "$marker"'
    return ["/bin/sh", "-c", script, "sh", str(marker), *argv]
