"""The Node peers of ``bench --peers``: pi-tui and Ink (twice: plain and ``incrementalRendering``), in node.

``node/`` (shipped in the package) holds a pinned ``package.json`` and ``package-lock.json`` and the harness
``peers.mjs``, whose header says how each peer is driven.  Those files are copied into a cache directory
(``$INLINE_RENDER_BENCH_NODE_DIR``, else ``$XDG_CACHE_HOME/inline_render/bench-node``, else
``~/.cache/inline_render/bench-node``) and ``npm ci`` installs the lock there, once per lock (never in the
source tree, which may be an installed wheel).  Without node or npm, or when ``npm ci`` fails (offline), the
Node peers are skipped with a one-line reason.

The harness gets our run's rows already wrapped, their styles as SGR escapes (``row_sgr``): it measures the
peers' rendering and terminal output, not text preparation (inline_render wraps the raw deltas itself).  Each
peer runs in a node process of its own with ``NODE_ENV=production`` (React's production build).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..text.spans import sgr
from ..text.style import DEFAULT, Row, Segment, clip_row, row_width
from . import measure
from .peers_capture import Capture, Run

__all__ = [
    "NODE_FILES",
    "NODE_PEERS",
    "SOURCE",
    "node_dir",
    "prepare_node",
    "row_sgr",
    "run_node_peer",
    "run_node_peers",
    "write_input",
]

SOURCE = Path(__file__).resolve().parent / "node"
NODE_FILES = ("package.json", "package-lock.json", "peers.mjs")
NODE_PEERS = {"pi-tui": "pi-tui", "ink": "Ink", "ink-incremental": "Ink incremental"}  # harness name: label
_NPM_CI = ("ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")  # no dependency needs a script


def node_dir() -> Path:
    """Where the harness and its ``node_modules`` live (a cache directory, not the package)."""
    chosen = os.environ.get("INLINE_RENDER_BENCH_NODE_DIR")
    if chosen:
        return Path(chosen)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "inline_render" / "bench-node"


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """One installer at a time (two bench runs, or test workers, may prepare the same directory)."""
    with open(directory / ".lock", "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def prepare_node(directory: Path | None = None) -> Path | str:
    """The directory to run the harness in, installed; or why the Node peers are skipped (one line)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return f"{'node' if node is None else 'npm'} not found on PATH"
    target = directory or node_dir()
    try:
        target.mkdir(parents=True, exist_ok=True)
        with _locked(target):
            for name in NODE_FILES:
                data = (SOURCE / name).read_bytes()
                if not (target / name).is_file() or (target / name).read_bytes() != data:
                    (target / name).write_bytes(data)
            stamp = target / ".installed"
            digest = hashlib.sha256((SOURCE / "package-lock.json").read_bytes()).hexdigest()
            if (target / "node_modules").is_dir() and stamp.is_file() and stamp.read_text() == digest:
                return target
            done = subprocess.run([npm, *_NPM_CI], cwd=target, capture_output=True, text=True, timeout=600, check=False)
            if done.returncode != 0:
                last = (done.stderr.strip().splitlines() or ["no message"])[-1]
                return f"npm ci failed in {target}: {last}"
            stamp.write_text(digest)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"could not install the Node peers in {target}: {error}"
    return target


def _encode(row: Row) -> str:
    """A row as one terminal line: its text, each styled run set by SGR from the default, reset at its end."""
    parts: list[str] = []
    styled = False
    for segment in row:
        if segment.style != DEFAULT:
            parts.append(sgr(segment.style))
            styled = True
        elif styled:
            parts.append("\x1b[0m")
            styled = False
        parts.append(segment.text)
    if styled:
        parts.append("\x1b[0m")
    return "".join(parts)


def row_sgr(row: Row, cursor: int | None = None) -> tuple[str, int]:
    """``row`` as an SGR string, and where in it column ``cursor`` starts (pi-tui puts its cursor marker there)."""
    if cursor is None:
        return _encode(row), 0
    before = clip_row(row, cursor)
    taken = sum(len(segment.text) for segment in before)
    after: list[Segment] = []
    for segment in row:
        cut = min(taken, len(segment.text))
        taken -= cut
        if cut < len(segment.text):
            after.append(Segment(segment.text[cut:], segment.style))
    head = _encode(before) + " " * max(0, cursor - row_width(before))
    return head + _encode(tuple(after)), len(head)


def _update(capture: Capture) -> dict[str, object]:
    y, x = capture.cursor
    rows = [_encode(row) for row in capture.viewport]
    offset = 0
    if y < len(rows):
        rows[y], offset = row_sgr(capture.viewport[y], x)
    return {"i": [_encode(row) for row in capture.inserted], "v": rows, "c": [y, x, offset]}


def write_input(run: Run, warm: int, path: Path) -> None:
    """The harness's input: the history, then every measured update's rows (see ``node/peers.mjs``)."""
    document = {
        "columns": 80,
        "rows": 24,
        "warm": warm,
        "history": [_encode(row) for row in run.history],
        "updates": [_update(capture) for capture in run.updates],
    }
    path.write_text(json.dumps(document), encoding="utf-8")


def _figures(us: Sequence[int], nbytes: Sequence[int], updates: Sequence[Capture]) -> dict[str, object]:
    """The harness's per-update CPU and bytes as the bench's figures (split by whether the update inserted)."""
    measured = measure.Measured()
    for micros, written, capture in zip(us, nbytes, updates, strict=True):
        measured.updates.add(micros * 1000, written)
        (measured.inserting if capture.inserted else measured.plain).add(micros * 1000, written)
        measured.rows_inserted += len(capture.inserted)
    return measured.figures()


def run_node_peer(directory: Path, peer: str, input_path: Path, updates: Sequence[Capture]) -> dict[str, object]:
    """One peer in a node process of its own: its figures, versions and ``output`` (the bytes it wrote, for the
    pyte check); ``error`` when the harness failed."""
    node = shutil.which("node") or "node"
    environment = {**os.environ, "NODE_ENV": "production"}
    command = [node, str(directory / "peers.mjs"), peer, str(input_path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=1800, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"the harness timed out ({peer})"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return {"error": f"the harness failed with status {done.returncode} ({peer}): {last}"}
    result = json.loads(done.stdout)
    figures = _figures(result["us"], result["bytes"], updates)
    figures["versions"] = result["versions"]
    figures["output"] = result["output"].encode("utf-8")
    return figures


def run_node_peers(run: Run, warm: int) -> dict[str, dict[str, object]]:
    """Every Node peer on ``run``'s rows (harness name: result), each ``skipped`` with the reason when node, npm
    or the install is missing."""
    directory = prepare_node()
    if isinstance(directory, str):
        return {peer: {"skipped": directory} for peer in NODE_PEERS}
    with tempfile.TemporaryDirectory(prefix="inline-render-peers-") as scratch:
        path = Path(scratch) / "input.json"
        write_input(run, warm, path)
        return {peer: run_node_peer(directory, peer, path, run.updates) for peer in NODE_PEERS}
