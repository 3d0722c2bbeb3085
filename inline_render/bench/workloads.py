"""The bench's workloads (``python -m inline_render bench``): fixed, seeded events through the real four stages.

Every workload drives a real ``Renderer`` (``tick``: reduce, layout, frame,
effects) with the real ``Vt100Backend`` writing into ``CountingSink`` (bytes
are counted, not emulated, so no terminal emulation is timed).  Each tick is
timed with ``time.process_time_ns`` after a warm-up, with the garbage
collector on.  Each workload runs in a child process of its own, so caches and
allocations of one never help or hurt another and the peak memory figure
(``ru_maxrss`` of that child) belongs to it alone.

Workloads (the ``issue 6`` contract):

* ``w1``: 80x24, ``Config(viewport_height=10)`` (8 log rows, status, composer),
  log prefilled with N lines of 10-120 characters, then one assistant entry
  streamed as 2,000 deltas of 1-8 characters, one tick per delta;
* ``w2``: 100,000 appended log lines, 100 per tick;
* ``w3``: N lines and a half-inserted streaming entry, then 100 resizes
  alternating 60x12 / 100x24;
* ``w4``: 1,000 keystrokes (wide characters and backspace included) into the
  composer over a 10,000-line log;
* ``w5``: as ``w1``, but the answer is Markdown (headings, paragraphs, nested
  lists, highlighted code blocks, tables) rendered with the commit rule of
  ``mdview.py``.  W1-W4 run with ``markdown=False`` (plain text, as measured
  before Markdown existed); only W5 renders Markdown;
* ``w1s``: W1 with a token counter in the status line, changed with every
  delta (issue 14);
* ``idle`` and ``status``: a settled UI (10,000-line log, an answer in the
  viewport), then ticks without input, or whose only input is a new status
  text (issue 14: an unchanged region is neither re-derived nor re-diffed).

An *update* is what one input batch costs: its tick plus, when that tick
inserted rows into scrollback, the one follow-up redraw tick (``Renderer.feed``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..inputs import Key, LogAppend, LogDelta, LogFinish, Resize, Status
from .measure import Batch, Event

__all__ = [
    "assistant_deltas",
    "idle_events",
    "keystrokes",
    "log_lines",
    "markdown_text",
    "prefill_batches",
    "status_events",
    "status_text",
    "w1_events",
    "w1s_events",
    "w2_events",
    "w3_events",
    "w4_events",
    "w5_events",
]

SEED = 20240611
STREAM_ID = "a1"
_VOCABULARY = (
    "the a of to and in is it for on with as this that be are was by from or an at not but can "
    "render terminal buffer scroll region cursor viewport composer entry stream delta tick frame "
    "width wrap layout insert history commit function return value state config python module "
    "error result request response token model agent tool call diff file path line column "
    "performance benchmark median percentile memory allocation cache update redraw sequence"
)
_WORDS = tuple(_VOCABULARY.split(" "))


# ----------------------------------------------------------------------------- seeded text


def _words_to(rng: random.Random, length: int) -> str:
    parts: list[str] = []
    size = -1
    while size < length:
        word = rng.choice(_WORDS)
        parts.append(word)
        size += len(word) + 1
    return " ".join(parts)[:length].rstrip(" ") or "x"


def log_lines(rng: random.Random, count: int) -> list[str]:
    """``count`` lines of 10-120 characters of words (seeded)."""
    return [_words_to(rng, rng.randint(10, 120)) for _ in range(count)]


_KINDS = ("text", "tool", "assistant", "status", "text", "diff")


def assistant_text(rng: random.Random, size: int) -> str:
    """About ``size`` characters of prose: lines of 20-300 characters, sometimes a blank line."""
    parts: list[str] = []
    total = 0
    while total < size:
        line = _words_to(rng, rng.randint(20, 300))
        parts.append(line + ("\n\n" if rng.random() < 0.2 else "\n"))
        total += len(parts[-1])
    return "".join(parts)


def assistant_deltas(rng: random.Random, count: int) -> list[str]:
    """``count`` chunks of 1-8 characters (spaces and newlines included) of one assistant answer."""
    text = assistant_text(rng, count * 8)
    chunks: list[str] = []
    position = 0
    for _ in range(count):
        step = rng.randint(1, 8)
        chunks.append(text[position : position + step])
        position += step
    return chunks


def keystrokes(rng: random.Random, count: int) -> list[str]:
    """``count`` key names: ASCII letters and spaces, wide CJK and emoji, some backspaces."""
    wide = "漢字仮名한국어中文😀🎉👍"
    keys: list[str] = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.1:
            keys.append("backspace")
        elif roll < 0.2:
            keys.append(rng.choice(wide))
        elif roll < 0.35:
            keys.append("space")
        else:
            keys.append(rng.choice("abcdefghijklmnopqrstuvwxyz"))
    return keys


# ----------------------------------------------------------------------------- measuring


def prefill_batches(rng: random.Random, lines: int, per_tick: int = 1000) -> Iterator[Batch]:
    """Final entries of ``lines`` lines in all, about ``per_tick`` lines per batch (generated lazily)."""
    batch: Batch = []
    size = 0
    left = lines
    while left > 0:
        count = min(left, rng.randint(1, 8))
        batch.append(LogAppend(_KINDS[rng.randrange(len(_KINDS))], "\n".join(log_lines(rng, count))))
        left -= count
        size += count
        if size >= per_tick:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _prefill(rng: random.Random, lines: int) -> Iterator[Event]:
    for batch in prefill_batches(rng, lines):
        yield "prefill", batch


def w1_events(lines: int, deltas: int = 2000, warm: int = 300) -> Iterator[Event]:
    """W1: prefill ``lines``; warm up with a short streamed answer; stream one answer, one delta per update."""
    rng = random.Random(SEED)
    yield from _prefill(rng, lines)
    yield "warmup", [LogAppend("assistant", "", "warm", final=False)]
    for chunk in assistant_deltas(rng, warm):
        yield "warmup", [LogDelta("warm", chunk)]
    yield "warmup", [LogFinish("warm")]
    yield "warmup", [LogAppend("assistant", "", STREAM_ID, final=False)]
    for chunk in assistant_deltas(rng, deltas):
        yield "measure", [LogDelta(STREAM_ID, chunk)]


def markdown_text(rng: random.Random, size: int) -> str:
    """About ``size`` characters of a Markdown answer: every block kind the renderer knows, seeded."""
    parts: list[str] = []
    total = 0
    while total < size:
        roll = rng.random()
        if roll < 0.1:
            block = f"## {_words_to(rng, rng.randint(10, 40))}\n\n"
        elif roll < 0.45:
            words = [rng.choice(_WORDS) for _ in range(rng.randint(20, 60))]
            for index in rng.sample(range(len(words)), 3):
                words[index] = rng.choice(("**{}**", "*{}*", "`{}`", "[{}](https://example.org/x)")).format(
                    words[index]
                )
            block = " ".join(words) + "\n\n"
        elif roll < 0.65:
            items = [f"- {_words_to(rng, rng.randint(10, 90))}\n" for _ in range(rng.randint(2, 6))]
            items.insert(1, f"  1. {_words_to(rng, rng.randint(10, 50))}\n")
            block = "".join(items) + "\n"
        elif roll < 0.85:
            body = "".join(
                f"    {_words_to(rng, rng.randint(5, 70)).replace(' ', '_', 2)} = {index}\n" for index in range(8)
            )
            block = f"```python\ndef f():\n{body}    return None\n```\n\n"
        else:
            rows = "".join(
                f"| {rng.choice(_WORDS)} | {rng.randint(0, 999)} | {_words_to(rng, 30)} |\n" for _ in range(5)
            )
            block = "| name | value | note |\n|---|--:|---|\n" + rows + "\n"
        parts.append(block)
        total += len(block)
    return "".join(parts)


def w5_events(lines: int, deltas: int = 2000, warm: int = 300) -> Iterator[Event]:
    """W5: W1 with a Markdown answer: prefill ``lines``; warm up; stream it, one delta of 1-8 characters per update."""
    rng = random.Random(SEED + 5)
    yield from _prefill(rng, lines)
    text = markdown_text(rng, (warm + deltas) * 8)
    chunks: list[str] = []
    position = 0
    for _ in range(warm + deltas):
        step = rng.randint(1, 8)
        chunks.append(text[position : position + step])
        position += step
    yield "warmup", [LogAppend("assistant", "", "warm", final=False)]
    for chunk in chunks[:warm]:
        yield "warmup", [LogDelta("warm", chunk)]
    yield "warmup", [LogFinish("warm")]
    yield "warmup", [LogAppend("assistant", "", STREAM_ID, final=False)]
    for chunk in chunks[warm:]:
        yield "measure", [LogDelta(STREAM_ID, chunk)]


W2_PER_TICK = 100


def w2_events(lines: int = 100_000, per_tick: int = W2_PER_TICK) -> Iterator[Event]:
    """W2: a 1,000-line log, then ``lines`` one-line entries, ``per_tick`` per update."""
    rng = random.Random(SEED + 2)
    yield from _prefill(rng, 1000)
    for _ in range(20):
        yield "warmup", [LogAppend("text", line) for line in log_lines(rng, per_tick)]
    for _ in range(lines // per_tick):
        yield "measure", [LogAppend("text", line) for line in log_lines(rng, per_tick)]


RESIZES = ((60, 12), (100, 24))


def w3_events(lines: int, resizes: int = 100, answer: int = 6000) -> Iterator[Event]:
    """W3: prefill ``lines``; stream half an answer (its first lines reach scrollback); resize back and forth."""
    rng = random.Random(SEED + 3)
    yield from _prefill(rng, lines)
    yield "warmup", [LogAppend("assistant", "", STREAM_ID, final=False)]
    text = assistant_text(rng, answer)
    half = text[: len(text) // 2]
    for position in range(0, len(half), 200):
        yield "warmup", [LogDelta(STREAM_ID, half[position : position + 200])]
    for index in range(10):
        yield "warmup", [Resize(*RESIZES[index % 2])]
    for index in range(resizes):
        yield "measure", [Resize(*RESIZES[index % 2])]


def w4_events(lines: int = 10_000, keys: int = 1000) -> Iterator[Event]:
    """W4: prefill ``lines``; ``keys`` keystrokes into the composer."""
    rng = random.Random(SEED + 4)
    yield from _prefill(rng, lines)
    for key in keystrokes(rng, 100):
        yield "warmup", [Key(key)]
    yield "warmup", [Key("c-u")]
    for key in keystrokes(rng, keys):
        yield "measure", [Key(key)]


def status_text(tokens: int) -> str:
    """A token counter's status line (ASCII, as the harness of issue 14 used)."""
    return f"assistant: {tokens:,} tokens"


def w1s_events(lines: int, deltas: int = 2000, warm: int = 300) -> Iterator[Event]:
    """W1S: W1 with a token counter in the status line: every update is a delta and the status's new count."""
    tokens = 0
    for phase, batch in w1_events(lines, deltas, warm):
        if phase != "prefill" and type(batch[0]) is LogDelta:
            tokens += 1
            batch = [*batch, Status(status_text(tokens))]
        yield phase, batch


def _settled(lines: int, seed: int) -> Iterator[Event]:
    """A prefilled log, a finished answer in the viewport, a status line: a UI waiting for input."""
    rng = random.Random(seed)
    yield from _prefill(rng, lines)
    yield "warmup", [LogAppend("assistant", "\n".join(log_lines(rng, 6)))]
    yield "warmup", [Status(status_text(0))]


def idle_events(lines: int = 10_000, ticks: int = 2000) -> Iterator[Event]:
    """IDLE: a settled UI (``_settled``); ``ticks`` ticks without input (what a wake-up with nothing new costs)."""
    yield from _settled(lines, SEED + 7)
    for _ in range(100):
        yield "warmup", []
    for _ in range(ticks):
        yield "measure", []


def status_events(lines: int = 10_000, ticks: int = 2000) -> Iterator[Event]:
    """STATUS: a settled UI; ``ticks`` status-only changes (a token counter counting up), one per update."""
    yield from _settled(lines, SEED + 8)
    for tokens in range(1, 101):
        yield "warmup", [Status(status_text(tokens))]
    for tokens in range(101, 101 + ticks):
        yield "measure", [Status(status_text(tokens * 7))]


# ----------------------------------------------------------------------------- report
