"""``python -m inline_render bench``: fixed, seeded workloads through the real four stages.

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

import argparse
import gc
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.output.color_depth import ColorDepth

from .backend import Vt100Backend
from .cli import PROG, help_text
from .inputs import Input, Key, LogAppend, LogDelta, LogFinish, Resize, Status
from .state import Config, SyncPhase
from .tick import Renderer, TickResult

__all__ = [
    "WORKLOADS",
    "CountingSink",
    "Event",
    "Measured",
    "Series",
    "assistant_deltas",
    "keystrokes",
    "log_lines",
    "main",
    "make_renderer",
    "row_line",
    "prefill_batches",
    "run_events",
    "run_workload",
    "w1_events",
    "w2_events",
    "w3_events",
    "w4_events",
    "w5_events",
    "w1s_events",
    "idle_events",
    "status_events",
    "status_text",
    "markdown_text",
    "workload_names",
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


class CountingSink:
    """A sink that counts bytes (no terminal emulation is measured); ``keep`` also keeps them."""

    def __init__(self, keep: bool = False) -> None:
        self.total = 0
        self.data: bytearray | None = bytearray() if keep else None

    def write(self, data: bytes) -> int:
        self.total += len(data)
        if self.data is not None:
            self.data += data
        return len(data)


def make_renderer(
    columns: int,
    rows: int,
    config: Config,
    sink: CountingSink | None = None,
    color_depth: ColorDepth = ColorDepth.DEPTH_8_BIT,
) -> Renderer:
    """A real renderer whose real backend writes into a ``CountingSink`` (``renderer.backend.sink``)."""
    return Renderer(Vt100Backend(sink or CountingSink(), color_depth), columns, rows, config=config, cursor_row=0)


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


@dataclass
class Series:
    """CPU time and bytes of a sequence of updates (ticks)."""

    ns: list[int] = field(default_factory=list)
    nbytes: list[int] = field(default_factory=list)

    def add(self, ns: int, nbytes: int) -> None:
        self.ns.append(ns)
        self.nbytes.append(nbytes)

    def figures(self) -> dict[str, float | int]:
        """Count, µs median/p95/max/mean, bytes median/p95/total (empty series: count only)."""
        if not self.ns:
            return {"count": 0}
        us = sorted(n / 1000 for n in self.ns)
        nb = sorted(self.nbytes)
        return {
            "count": len(us),
            "us_median": round(statistics.median(us), 2),
            "us_p95": round(_p95(us), 2),
            "us_max": round(us[-1], 2),
            "us_mean": round(statistics.fmean(us), 2),
            "us_total": round(sum(us), 1),
            "bytes_median": statistics.median(nb),
            "bytes_p95": _p95(nb),
            "bytes_total": sum(nb),
        }


def _p95(ordered: Sequence[float]) -> float:
    """Nearest-rank 95th percentile of a sorted sequence."""
    return ordered[max(0, -(-len(ordered) * 95 // 100) - 1)]


Batch = list[Input]
Event = tuple[str, Batch]
"""``(phase, inputs)``: phases ``prefill`` and ``warmup`` run untimed, every ``measure`` batch is one timed update."""


@dataclass
class Measured:
    """Every timed update of a run, and the same split by whether its tick inserted rows into scrollback."""

    updates: Series = field(default_factory=Series)
    plain: Series = field(default_factory=Series)
    inserting: Series = field(default_factory=Series)
    inserting_tick: Series = field(default_factory=Series)
    followup: Series = field(default_factory=Series)
    rows_inserted: int = 0

    def figures(self) -> dict[str, object]:
        return {
            "rows_inserted": self.rows_inserted,
            "per_update": self.updates.figures(),
            "non_inserting": self.plain.figures(),
            "inserting": self.inserting.figures(),
            "inserting_tick_only": self.inserting_tick.figures(),
            "followup_redraw": self.followup.figures(),
        }


def timed_update(renderer: Renderer, sink: CountingSink, inputs: Batch, into: Measured) -> TickResult:
    """One update (tick, and the follow-up redraw it asks for), each tick timed with ``process_time_ns``.

    Returns the result of the update's first tick.
    """
    clock = time.process_time_ns
    before = sink.total
    start = clock()
    result = renderer.step(inputs)
    ns = clock() - start
    nbytes = sink.total - before
    follow_ns = follow_bytes = 0
    if result.state.render.sync_phase is SyncPhase.INSERTED_NEEDS_REDRAW:
        before = sink.total
        start = clock()
        renderer.step(())
        follow_ns = clock() - start
        follow_bytes = sink.total - before
    into.updates.add(ns + follow_ns, nbytes + follow_bytes)
    inserted = result.effect.rows_inserted
    if inserted:
        into.rows_inserted += inserted
        into.inserting.add(ns + follow_ns, nbytes + follow_bytes)
        into.inserting_tick.add(ns, nbytes)
        into.followup.add(follow_ns, follow_bytes)
    else:
        into.plain.add(ns, nbytes)
    return result


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


def _retained(renderer: Renderer) -> dict[str, int]:
    """What the state keeps of the log: pending entries and their characters (inserted rows are dropped)."""
    log = renderer.state.log
    render = renderer.state.render
    return {
        "pending_entries": len(log.entries),
        "pending_chars": sum(e.size for e in log.entries) - log.head,
        "inserted_until": render.inserted_until,
        "wrapped_total": render.wrapped_total,
    }


def _rss_mb() -> float:
    """Current resident set size (Linux ``/proc/self/statm``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return round(int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except (OSError, ValueError, IndexError):
        return 0.0


def run_events(events: Iterable[Event], renderer: Renderer) -> dict[str, object]:
    """Drive ``renderer`` through ``events``; time the ``measure`` phase."""
    sink = renderer.backend.sink
    assert isinstance(sink, CountingSink)
    measured = Measured()
    out: dict[str, object] = {}
    phase = ""
    started = time.perf_counter()
    for kind, batch in events:
        if kind != phase:
            if phase == "prefill":
                out["setup_s"] = round(time.perf_counter() - started, 2)
                gc.collect()
                out["retained_after_prefill"] = _retained(renderer)
                out["rss_after_prefill_mb"] = _rss_mb()
            if kind == "measure":
                out["inserted_before_measure"] = renderer.state.render.inserted_until
                gc.collect()
            phase = kind
        if kind == "measure":
            timed_update(renderer, sink, batch, measured)
        else:
            renderer.feed(batch)
    out.update(measured.figures())
    return out


WORKLOADS: dict[str, Callable[[int, bool], Iterator[Event]]] = {
    "w1": lambda lines, quick: w1_events(lines, 200 if quick else 2000, 30 if quick else 300),
    "w2": lambda _lines, quick: w2_events(2_000 if quick else 100_000),
    "w3": lambda lines, quick: w3_events(lines, 20 if quick else 100),
    "w4": lambda _lines, quick: w4_events(1_000 if quick else 10_000, 100 if quick else 1000),
    "w5": lambda lines, quick: w5_events(lines, 200 if quick else 2000, 30 if quick else 300),
    "w1s": lambda lines, quick: w1s_events(lines, 200 if quick else 2000, 30 if quick else 300),
    "idle": lambda _lines, quick: idle_events(1_000 if quick else 10_000, 200 if quick else 2000),
    "status": lambda _lines, quick: status_events(1_000 if quick else 10_000, 200 if quick else 2000),
}

from .bench_stream import STREAM_WORKLOADS  # noqa: E402  (issue 14's workloads; it imports this module)

WORKLOADS.update(STREAM_WORKLOADS)
_SIZED = ("w1", "w3", "w5", "w1s", "s1", "s2", "s3")  # workloads named kind:N
_KNOWN = "w1:N, w2, w3:N, w4, w5:N, w1s:N, idle, status, s1:N, s2:N, s3:N, flood, flood_md"
_UNITS = {"w1": "delta", "w2": "batch", "w3": "resize", "w4": "key", "w5": "delta", "w1s": "delta"}
_UNITS.update({"s1": "delta", "s2": "delta", "s3": "delta", "flood": "100 KB", "flood_md": "100 KB"})


def _sizes(quick: bool) -> tuple[list[int], list[int]]:
    return ([100, 10_000], [1_000, 10_000]) if quick else ([100, 10_000, 1_000_000], [1_000, 1_000_000])


def workload_names(quick: bool) -> list[str]:
    """Every workload of a run, as ``name[:lines]`` strings."""
    w1, w3 = _sizes(quick)
    issue14 = [f"w1s:{w1[1]}", "idle", "status"]  # a token counter in the status line; ticks that change little
    streams = ["s1:1000", "flood"] if quick else [f"{kind}:{n}" for kind in ("s1", "s2", "s3") for n in (1000, 10**7)]
    flood = [] if quick else ["flood", "flood_md"]
    sized = [*(f"w1:{n}" for n in w1), "w2", *(f"w3:{n}" for n in w3), "w4", *(f"w5:{n}" for n in w1)]
    return [*sized, *issue14, *streams, *flood]


def _valid_name(name: str) -> bool:
    kind, colon, lines = name.partition(":")
    if kind in _SIZED:
        return bool(colon) and lines.isdigit() and int(lines) > 0
    return kind in WORKLOADS and not colon


def run_workload(name: str, quick: bool, check_invariants: bool = True) -> dict[str, object]:
    """Run one workload in this process; add its CPU time and this process's peak RSS."""
    kind, _, lines = name.partition(":")
    markdown = kind in ("w5", "s3", "flood_md")
    config = Config(viewport_height=10, check_invariants=check_invariants, markdown=markdown)
    started = time.process_time()
    result: dict[str, object] = {"workload": name}
    result.update(run_events(WORKLOADS[kind](int(lines or 0), quick), make_renderer(80, 24, config)))
    if kind == "w2":
        figures = result["per_update"]
        assert isinstance(figures, dict)
        result["lines_per_s"] = round(W2_PER_TICK * figures["count"] / (figures["us_total"] / 1e6))
    if kind.startswith("flood"):
        figures = result["per_update"]
        assert isinstance(figures, dict)
        result["mb_per_s"] = round(figures["count"] * 0.1 / (figures["us_total"] / 1e6), 2)  # 100 KB an update
    result["cpu_s"] = round(time.process_time() - started, 2)
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    result["check_invariants"] = check_invariants
    return result


def _run_child(name: str, quick: bool, check_invariants: bool) -> dict[str, object]:
    command = [sys.executable, "-m", "inline_render", "bench", "--one", name]
    if quick:
        command.append("--quick")
    if not check_invariants:
        command.append("--no-invariants")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench workload {name} failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


# ----------------------------------------------------------------------------- report


def row_line(label: str, figures: object, unit: str = "tick") -> str:
    """One line of figures: count, µs median and p95, bytes median, p95 and total."""
    if not isinstance(figures, dict) or not figures.get("count"):
        return f"  {label:<24} (none)"
    return (
        f"  {label:<24} n={figures['count']:<5} µs/{unit} median {figures['us_median']:>8.1f}"
        f"  p95 {figures['us_p95']:>8.1f}   bytes median {figures['bytes_median']:>6}"
        f"  p95 {figures['bytes_p95']:>6}  total {figures['bytes_total']:>9}"
    )


def format_results(results: list[dict[str, object]]) -> str:
    """Human-readable figures, one block per workload."""
    lines: list[str] = []
    for result in results:
        name = str(result["workload"])
        unit = _UNITS.get(name.partition(":")[0], "tick")
        lines.append(f"{name}  (cpu {result['cpu_s']} s, peak RSS {result['peak_rss_mb']} MB)")
        lines.append(row_line(f"per {unit}", result["per_update"], "upd"))
        if result["inserting"] != {"count": 0}:
            lines.append(row_line("  not inserting", result["non_inserting"]))
            lines.append(row_line("  inserting (+redraw)", result["inserting"], "upd"))
            lines.append(row_line("    inserting tick", result["inserting_tick_only"]))
            lines.append(row_line("    follow-up redraw", result["followup_redraw"]))
        if "lines_per_s" in result:
            lines.append(f"  {result['lines_per_s']:,} lines/s")
        if "mb_per_s" in result:
            figures = result["per_update"]
            assert isinstance(figures, dict)
            lines.append(
                f"  {result['mb_per_s']} MB of text per CPU second; slowest update {figures['us_max'] / 1000:.1f} ms"
            )
        if "retained_after_prefill" in result:
            lines.append(
                f"  after prefill: {result['retained_after_prefill']}, RSS {result['rss_after_prefill_mb']} MB,"
                f" setup {result['setup_s']} s"
            )
    return "\n".join(lines)


def machine() -> dict[str, object]:
    """Where the figures were measured."""
    model = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    return {
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "cpu": model,
        "cpus": os.cpu_count(),
        "build": build(),
    }


def build() -> str:
    """Which build runs the bench: pure Python or the opt-in mypyc build (README, "A compiled build")."""
    from .native import compiled_modules

    return f"compiled (mypyc: {len(compiled_modules)} modules)" if compiled_modules else "pure Python"


def main(argv: list[str]) -> int:
    """Entry point of ``python -m inline_render bench``."""
    parser = argparse.ArgumentParser(prog=f"{PROG} bench", description=help_text(__doc__.split("\n\n")[0]))
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument("--peers", action="store_true", help="also run W1 and W1S through Rich Live and prompt_toolkit")
    parser.add_argument(
        "--only",
        metavar="NAMES",
        help="comma-separated workloads (w1:100,w2,w3:1000,w4,w5:100,w1s:100,idle,status,s1:N,flood,...)",
    )
    parser.add_argument("--no-invariants", action="store_true", help="Config(check_invariants=False)")
    parser.add_argument("--one", metavar="NAME", help=argparse.SUPPRESS)  # child process: one workload
    args = parser.parse_args(argv)
    check = not args.no_invariants
    if args.one and args.one.partition(":")[0] == "peers":  # "peers" (W1) or "peers:w1s"
        from .bench_peers import main_peers

        print(json.dumps(main_peers(args.quick, args.one.partition(":")[2] or "w1")))
        return 0
    if args.one:
        print(json.dumps(run_workload(args.one, args.quick, check)))
        return 0
    names = args.only.split(",") if args.only else workload_names(args.quick)
    bad = [name for name in names if not _valid_name(name)]
    if bad:
        print(
            f"{PROG} bench: unknown workload {', '.join(bad)} (known: {_KNOWN})",
            file=sys.stderr,
        )
        return 2
    print(f"inline_render {build()}", flush=True)  # every workload's child process runs the same build
    results: list[dict[str, object]] = []
    for name in names:
        result = _run_child(name, args.quick, check)
        results.append(result)
        print(format_results([result]), flush=True)
    report: dict[str, object] = {"machine": machine(), "quick": args.quick, "results": results}
    if args.peers:
        from .bench_peers import format_peers, run_peers

        peers = run_peers(args.quick)
        report["peers"] = peers
        print(format_peers(peers), flush=True)
        report["peers_status"] = peers = run_peers(args.quick, "w1s")  # issue 14: with a token counter
        print(format_peers(peers), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    return 0
