"""The storm app: streams numbered lines through ``InlineApp`` (default options), then exits.

Run inside the terminal under test as ``python -m realterm.app --seed S --lines N ...`` with the
library checkout and the tests directory on PYTHONPATH.  It prints the preamble lines (plain
output, before the inline viewport exists), then streams the lines in entries of 1-12 lines as
deltas of 2-7 characters, spread evenly over ``--duration`` seconds (far more deltas than the
60 ticks/s the runner draws, so every tick carries new text: full speed), finishes the entries
and returns 0: everything shown stays in scrollback.  ``--plain`` is the reference: the same
deltas at the same pace written straight to the terminal (what a ``printf`` loop loses to the
terminal's own resize handling is not the library's doing).  ``--ready`` is created when streaming
starts (the rig starts resizing then); ``--result`` receives, at exit, the JSON of the exit code,
the lines it committed and which library ran.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

import inline_render
from inline_render import LogAppend, LogDelta, LogFinish
from inline_render.shell import AppOptions, InlineApp

from .lines import preamble_lines, storm_lines

__all__ = ["chunks", "entries", "main"]


def entries(seed: int, texts: tuple[str, ...]) -> list[str]:
    """The lines grouped into entries of 1-12 lines (each entry's text joined by newlines)."""
    rng = random.Random(f"entries-{seed}")
    groups: list[str] = []
    start = 0
    while start < len(texts):
        size = rng.randint(1, 12)
        groups.append("\n".join(texts[start : start + size]))
        start += size
    return groups


def chunks(seed: int, text: str) -> list[str]:
    """``text`` cut into deltas of 2-7 characters."""
    rng = random.Random(f"chunks-{seed}-{len(text)}")
    out: list[str] = []
    start = 0
    while start < len(text):
        size = rng.randint(2, 7)
        out.append(text[start : start + size])
        start += size
    return out


async def _plain(seed: int, groups: list[str], duration: float, ready: str | None) -> int:
    """The reference: the same deltas at the same pace written straight to the terminal (no library)."""
    plan = [chunks(seed + index, text + "\n") for index, text in enumerate(groups)]
    total = sum(len(parts) for parts in plan)
    interval = duration / max(1, total)
    if ready:
        Path(ready).write_text("streaming\n", encoding="utf-8")
    start = time.monotonic()
    sent = 0
    for parts in plan:
        for part in parts:
            sys.stdout.write(part)
            sys.stdout.flush()
            sent += 1
            await asyncio.sleep(max(0.0, start + sent * interval - time.monotonic()))
    return 0


async def _stream(app: InlineApp, seed: int, groups: list[str], duration: float, ready: str | None) -> int:
    plan = [(f"e{index}", chunks(seed + index, text)) for index, text in enumerate(groups)]
    total = sum(len(parts) for _, parts in plan)
    interval = duration / max(1, total)
    if ready:
        Path(ready).write_text("streaming\n", encoding="utf-8")
    start = time.monotonic()
    sent = 0
    for entry, parts in plan:
        app.send(LogAppend("text", "", id=entry, final=False))
        for part in parts:
            app.send(LogDelta(entry, part))
            sent += 1
            # Paced by a deadline, not by sleep lengths: the stream lasts ``duration`` even when a tick is slow.
            delay = start + sent * interval - time.monotonic()
            await asyncio.sleep(max(0.0, delay))
        app.send(LogFinish(entry))
    await asyncio.sleep(0.3)  # the last ticks are drawn before the exit flush
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the options, print the preamble, run the stream; write ``--result``."""
    parser = argparse.ArgumentParser(prog="realterm.app", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--lines", type=int, default=80)
    parser.add_argument("--width", type=int, required=True, help="the starting width the line shapes are made for")
    parser.add_argument("--preamble", type=int, default=0)
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--ready", help="file created when streaming starts")
    parser.add_argument("--result", help="file that receives the JSON result at exit")
    parser.add_argument("--ascii-lines", action="store_true", help="no CJK or emoji lines")
    parser.add_argument("--plain", action="store_true", help="the reference: write the lines without the library")
    parser.add_argument("--record", help="record every tick to this scenario file (AppOptions.record)")
    args = parser.parse_args(argv)
    before = preamble_lines(args.preamble)
    texts = storm_lines(args.seed, args.lines, args.width, ascii_only=args.ascii_lines)
    for line in before:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()
    groups = entries(args.seed, texts)
    code: int
    if args.plain:
        code = asyncio.run(_plain(args.seed, groups, args.duration, args.ready))
    else:
        app = InlineApp(AppOptions(record=args.record))
        code = asyncio.run(app.run(lambda app: _stream(app, args.seed, groups, args.duration, args.ready)))
    if args.result:
        result = {"exit": code, "lines": [*before, *texts], "library": os.path.dirname(inline_render.__file__)}
        Path(args.result).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
