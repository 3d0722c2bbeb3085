"""How the bench times an update: the counting sink, the renderer, per-update series and their figures.

Each tick is timed with ``time.process_time_ns`` after a warm-up, with the garbage collector on; bytes are counted,
not emulated, so no terminal emulation is timed.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.output.color_depth import ColorDepth

from ..core.backend import Vt100Backend
from ..core.state import Config, SyncPhase
from ..core.tick import Renderer, TickResult
from ..inputs import Input

__all__ = [
    "Batch",
    "CountingSink",
    "Event",
    "Measured",
    "Series",
    "make_renderer",
    "row_line",
    "run_events",
    "timed_update",
]


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


def row_line(label: str, figures: object, unit: str = "tick") -> str:
    """One line of figures: count, µs median and p95, bytes median, p95 and total."""
    if not isinstance(figures, dict) or not figures.get("count"):
        return f"  {label:<24} (none)"
    return (
        f"  {label:<24} n={figures['count']:<5} µs/{unit} median {figures['us_median']:>8.1f}"
        f"  p95 {figures['us_p95']:>8.1f}   bytes median {figures['bytes_median']:>6}"
        f"  p95 {figures['bytes_p95']:>6}  total {figures['bytes_total']:>9}"
    )
