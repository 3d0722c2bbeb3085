"""Streaming workloads of ``python -m inline_render bench`` (issue 14): cost per delta after N streamed, and a flood.

* ``s1:N``: one assistant entry (plain text, lines of 20-300 characters) streamed up to N characters
  in large untimed deltas, then 2,000 timed deltas of 100 characters (one update each): the cost of
  a delta must not depend on N (compare ``s1:1000`` and ``s1:10000000``);
* ``s2:N``: as ``s1``, but the answer is one open line (no newline at all): nothing of it can
  enter scrollback, all of it stays pending and re-wrappable;
* ``s3:N``: as ``s1`` with a Markdown answer (``bench.markdown_text``), ``markdown=True``;
* ``flood``: 100 MB (``--quick``: 5 MB) of answer in 100-character deltas, 1,000 deltas joined per
  update as the shell's scheduler joins what arrives between two ticks (``shell.schedule.coalesce``):
  MB of text per CPU second the core renders into scrollback (``mb_per_s``), the slowest update (a
  key waits at most that long behind output in the core) and the peak RSS;  ``flood_md``: the same
  rendered as Markdown (2 MB; ``--quick``: 0.5 MB).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..inputs import LogAppend, LogDelta
from .measure import Event
from .workloads import SEED, STREAM_ID, assistant_text, markdown_text

__all__ = ["STREAM_WORKLOADS", "flood_events", "stream_events"]

_CHUNK = 100


def _answer(rng: random.Random, kind: str, size: int) -> str:
    if kind == "s2":
        return assistant_text(rng, size).replace("\n", " ")
    if kind == "s3":
        return markdown_text(rng, size)
    return assistant_text(rng, size)


def stream_events(kind: str, size: int, deltas: int = 2000) -> Iterator[Event]:
    """``s1``/``s2``/``s3``: stream ``size`` characters untimed (64 K deltas), then ``deltas`` timed ones."""
    rng = random.Random(SEED + 14)
    # A seeded text of 1 MB, repeated: generating 10 MB of words would take longer than streaming it.
    block = _answer(rng, kind, 1_000_000)
    more = _answer(rng, kind, deltas * _CHUNK + 1000)
    yield "warmup", [LogAppend("assistant", "", STREAM_ID, final=False)]
    left = size
    while left > 0:
        piece = block[: min(left, len(block))]
        for position in range(0, len(piece), 65536):
            yield "warmup", [LogDelta(STREAM_ID, piece[position : position + 65536])]
        left -= len(piece)
    for index in range(deltas):
        yield "measure", [LogDelta(STREAM_ID, more[index * _CHUNK : (index + 1) * _CHUNK])]


def flood_events(size: int, markdown: bool = False, per_update: int = 1000) -> Iterator[Event]:
    """``size`` characters in 100-character deltas, ``per_update`` of them joined per update."""
    rng = random.Random(SEED + 15)
    block = markdown_text(rng, 1_000_000) if markdown else assistant_text(rng, 1_000_000)
    yield "warmup", [LogAppend("assistant", "", STREAM_ID, final=False)]
    step = _CHUNK * per_update
    position = 0
    for _ in range(5):
        yield "warmup", [LogDelta(STREAM_ID, block[position : position + step])]
        position += step
    sent = 0
    while sent < size:
        if position + step > len(block):
            position = 0
        yield "measure", [LogDelta(STREAM_ID, block[position : position + step])]
        position += step
        sent += step


STREAM_WORKLOADS = {
    "s1": lambda size, quick: stream_events("s1", size, 200 if quick else 2000),
    "s2": lambda size, quick: stream_events("s2", size, 200 if quick else 2000),
    "s3": lambda size, quick: stream_events("s3", size, 200 if quick else 2000),
    "flood": lambda _size, quick: flood_events(5_000_000 if quick else 100_000_000),
    "flood_md": lambda _size, quick: flood_events(500_000 if quick else 2_000_000, markdown=True),
}
