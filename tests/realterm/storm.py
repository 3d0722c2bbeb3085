"""Storms: a starting size, a stream and a schedule of resizes, all drawn from one seed.

A storm is 8 resizes 0.2-0.6 s apart while the app streams at full speed, widths 30-140,
heights 8-50, and at least one growth in height after the stream has started (the terminal then
has history to pull back).  The same seed gives the same storm, so a failing storm is replayed
alone with ``--seed``.  ``baseline`` is the same stream without any resize.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

__all__ = ["Resize", "Storm", "make_storm", "storm_seeds"]

MIN_COLUMNS, MAX_COLUMNS = 30, 140
MIN_ROWS, MAX_ROWS = 8, 50


@dataclass(frozen=True, slots=True)
class Resize:
    """Resize the terminal to ``columns`` x ``rows``, ``at`` seconds after the stream started."""

    at: float
    columns: int
    rows: int


@dataclass(frozen=True, slots=True)
class Storm:
    """One run: the terminal's starting size, what the app streams and when the terminal is resized."""

    seed: int
    columns: int
    rows: int
    lines: int
    preamble: int
    duration: float
    """Seconds the app spreads its stream over (it outlasts the last resize)."""
    resizes: tuple[Resize, ...]

    def describe(self) -> str:
        """One line for a report: the seed, the sizes and when they come."""
        steps = " ".join(f"{r.columns}x{r.rows}@{r.at:.2f}" for r in self.resizes) or "no resize"
        return f"seed {self.seed}: {self.columns}x{self.rows}, {self.lines} lines, preamble {self.preamble}: {steps}"


def make_storm(seed: int, *, resize: bool = True, count: int = 8, lines: int = 80) -> Storm:
    """The storm of ``seed`` (``resize=False``: the same stream and start, no resize)."""
    rng = random.Random(f"storm-{seed}")
    columns, rows = rng.randint(60, 120), rng.randint(14, 40)
    preamble = rng.choice((0, 5, rows + 10))
    at = 0.3
    resizes: list[Resize] = []
    for _ in range(count):
        at += rng.uniform(0.2, 0.6)
        resizes.append(Resize(round(at, 3), rng.randint(MIN_COLUMNS, MAX_COLUMNS), rng.randint(MIN_ROWS, MAX_ROWS)))
    resizes = _with_growth(rng, resizes, rows)
    duration = round(at + 1.0, 3)
    storm = Storm(seed, columns, rows, lines, preamble, duration, tuple(resizes))
    return storm if resize else replace(storm, resizes=())


def _with_growth(rng: random.Random, resizes: list[Resize], rows: int) -> list[Resize]:
    """Make sure some resize after the first grows taller by at least 8 rows (a pull-back from history)."""
    previous = [rows] + [r.rows for r in resizes]
    if any(r.rows >= before + 8 for r, before in zip(resizes[1:], previous[1:], strict=False)):
        return resizes
    index = rng.randrange(1, len(resizes)) if len(resizes) > 1 else 0
    before = previous[index]
    if before + 8 > MAX_ROWS:  # make room first: the resize before it goes small
        resizes[index - 1] = replace(resizes[index - 1], rows=MIN_ROWS)
        before = MIN_ROWS if index > 0 else before
    resizes[index] = replace(resizes[index], rows=rng.randint(min(before + 8, MAX_ROWS), MAX_ROWS))
    return resizes


def storm_seeds(first: int, count: int) -> list[int]:
    """The seeds of ``count`` storms starting at ``first``."""
    return list(range(first, first + count))
