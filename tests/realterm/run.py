"""One storm on one terminal: start the app, resize on schedule, wait for the exit, check the text.

The app runs with the project's python and ``PYTHONPATH=<library>:<tests dir>``, so any checkout
of the library is judged by the same rig (``library`` defaults to this repository).
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .checker import StaleCells, TerminalText, Verdict, check, check_stream
from .storm import Storm
from .terminals import Adapter

__all__ = ["RunResult", "TESTS_DIR", "app_argv", "default_library", "run_storm"]

TESTS_DIR = Path(__file__).resolve().parent.parent
# The demo's own line when a Lemon runtime says it is ready (the cwd and the model vary): not a ghost.
DEMO_OWN = re.compile(r"\s*Lemon runtime ready( in \S.*?)?( \u00b7 model \S+)?")
START_TIMEOUT = 30.0
EXIT_TIMEOUT = 60.0
SETTLE = 0.5


@dataclass(frozen=True, slots=True)
class RunResult:
    """What one storm did on one terminal."""

    terminal: str
    storm: Storm
    verdict: Verdict
    exit_code: int | None
    library: str
    text: TerminalText


def default_library() -> str:
    """The library checkout to judge: the first PYTHONPATH entry, else this repository."""
    entries = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    return str(Path(entries[0]).resolve()) if entries else str(TESTS_DIR.parent)


def app_argv(
    storm: Storm,
    ready: Path,
    result: Path,
    *,
    plain: bool = False,
    ascii_only: bool = False,
    record: Path | None = None,
    content: str = "lines",
) -> list[str]:
    """The storm app's command line (absolute paths: terminals start it in their own directory)."""
    return [
        sys.executable,
        "-P",  # no current directory on sys.path: the library comes from PYTHONPATH, never from the cwd
        "-m",
        "realterm.app",
        f"--seed={storm.seed}",
        f"--lines={storm.lines}",
        f"--width={storm.columns}",
        f"--preamble={storm.preamble}",
        f"--duration={storm.duration}",
        f"--ready={ready}",
        f"--result={result}",
        *(["--plain"] if plain else []),
        *(["--ascii-lines"] if ascii_only else []),
        *([f"--record={record.resolve()}"] if record is not None else []),
        f"--content={content}",
    ]


def app_env(library: str) -> dict[str, str]:
    """The variables the app needs in any terminal (the adapter adds TERM and its own)."""
    return {
        "PYTHONPATH": os.pathsep.join([library, str(TESTS_DIR)]),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _wait(condition_name: str, done: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.02)
    raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {condition_name}")


def run_storm(
    adapter: Adapter,
    storm: Storm,
    library: str | None = None,
    *,
    plain: bool = False,
    record: Path | None = None,
    content: str = "lines",
) -> RunResult:
    """Run ``storm`` on a new terminal of ``adapter``; the verdict on its text after the app exited.

    ``plain``: the reference run, the same lines written without the library.  ``record``: the app records every
    tick there (a scenario file ``realterm.recorded`` replays on the terminal's model).  ``content``: ``lines``
    (numbered lines of varied shapes as ``text`` entries) or ``markdown`` (a chat: questions, Markdown answers
    streamed through ``app.stream`` with the status line changing on every delta, a confirm answered mid-answer).
    """
    library = library or default_library()
    with tempfile.TemporaryDirectory(prefix="realterm-") as folder:
        ready, result = Path(folder) / "ready", Path(folder) / "result.json"
        argv = app_argv(
            storm, ready, result, plain=plain, ascii_only=adapter.ascii_only, record=record, content=content
        )
        terminal = adapter.start(argv, app_env(library), storm.columns, storm.rows)
        try:
            _wait("the app to start streaming", lambda: ready.exists() or terminal.exited(), START_TIMEOUT)
            if not ready.exists():  # it died first (a broken checkout?): show what it said
                time.sleep(SETTLE)
                shown = "\n".join("\n".join(terminal.text().rows).rstrip("\n").split("\n")[-30:])
                raise RuntimeError(f"the app died before streaming ({storm.describe()}); the terminal shows:\n{shown}")
            start = time.monotonic()
            for step in storm.resizes:
                time.sleep(max(0.0, start + step.at - time.monotonic()))
                terminal.resize(step.columns, step.rows)
            _wait("the app to exit", terminal.exited, storm.duration + EXIT_TIMEOUT)
            time.sleep(SETTLE)  # the terminal reads the app's last bytes
            text = terminal.text()
        finally:
            terminal.close()
        if not result.exists():
            tail = "\n".join(text.rows[-30:])
            raise RuntimeError(
                f"the app exited without a result ({storm.describe()}); the terminal's last rows:\n{tail}"
            )
        outcome = json.loads(result.read_text(encoding="utf-8"))
    # Without a resize no terminal truncates anything or shows stale cells: a short row, or a row
    # with a tail, is then always a loss.
    widths = [storm.columns, *(step.columns for step in storm.resizes)]
    stale = StaleCells.of_widths(widths) if adapter.stale_cells and storm.resizes else None
    own = DEMO_OWN if content in ("lemon", "codelia") else None
    if content == "session":  # down to a few cells: judged by the text, not by the rows (``sessions``)
        verdict = check_stream(text, tuple(outcome["lines"]), tuple(outcome.get("others", ())))
    else:
        truncating = adapter.truncates and bool(storm.resizes)
        verdict = check(text, outcome["lines"], truncating=truncating, stale=stale, own=own)
    return RunResult(adapter.name, storm, verdict, outcome.get("exit"), outcome.get("library", "?"), text)
