"""Tick scheduling: keys at once, streaming updates coalesced to a maximum rate, nothing dropped.

``TickScheduler`` is pure bookkeeping driven by the caller's clock (``now``
arguments), so its timing is testable without sleeping.  Inputs are kept in
arrival order; a tick takes *all* of them, so coalescing never drops or
reorders anything, it only groups.  The one exception is a ``Resize`` that
arrives while another is still pending: it supersedes it, because a
reflowing terminal's state depends only on the final size and only the
newest cursor report describes the screen as it is now.

A tick also joins consecutive ``LogDelta`` inputs of one entry into one
(``coalesce``): appending ``a`` then ``b`` gives the text of appending ``a + b``
(sanitizing is per character; text with a tab is left alone, as a tab's
expansion depends on the column it lands on), and a runtime that streams faster
than the terminal shows then costs one delta per tick, not one per message.

A flood is also cut into ticks of bounded work: with a ``budget``, a tick
takes at most that many characters of streamed text (the rest waits for the
next tick, at the rate), and a key or paste that arrived behind the text it
leaves waits for nothing but text: it is taken now (a delta changes no
dialog, focus or composer, so a key means the same before or after it), and
that tick takes at most ``KEY_SHARE`` of the budget of text, so the key is on
the screen after a short tick, not after a full one.
``backlog`` (streamed characters waiting) lets a reader stop reading while the
UI is behind, so a flood waits in the runtime's pipe, not in our memory.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..inputs import Input, Key, LogDelta, Paste, Resize

__all__ = ["DEFAULT_MAX_RATE", "KEY_SHARE", "TickScheduler", "coalesce"]

DEFAULT_MAX_RATE = 60.0
KEY_SHARE = 8  # a tick taking a key takes at most 1/KEY_SHARE of the budget of streamed text


class TickScheduler:
    """Decides when the next tick runs and which inputs it gets."""

    def __init__(self, max_rate: float = DEFAULT_MAX_RATE) -> None:
        if not (math.isfinite(max_rate) and max_rate > 0):
            raise ValueError(f"max_rate must be a positive number of ticks per second, got {max_rate!r}")
        self.interval = 1.0 / max_rate
        self.last_tick = -math.inf
        self.pending: list[Input] = []
        self.urgent = False
        self.wanted = False  # a tick without inputs was asked for (spinner frame, redraw)
        self.budget: int | None = None  # characters of streamed text one tick takes (None: all)
        self.backlog = 0  # characters of streamed text pending

    def add(self, inputs: Iterable[Input], *, urgent: bool = False) -> None:
        """Queue inputs; ``urgent`` ones (keys, resizes) make the next tick due at once."""
        before = len(self.pending)
        for item in inputs:
            if isinstance(item, Resize):
                self.pending = [old for old in self.pending if not isinstance(old, Resize)]
                before = min(before, len(self.pending))
            self.pending.append(item)
            if type(item) is LogDelta:
                self.backlog += len(item.text)
        if urgent and len(self.pending) > before:
            self.urgent = True

    def request(self, *, urgent: bool = False) -> None:
        """Ask for a tick even if no input is pending (rate-limited unless ``urgent``)."""
        self.wanted = True
        self.urgent = self.urgent or urgent

    @property
    def has_work(self) -> bool:
        """Something is waiting for a tick."""
        return bool(self.pending) or self.wanted

    def delay(self, now: float) -> float | None:
        """Seconds until the next tick may run (0: now), or None when nothing waits."""
        if not self.has_work:
            return None
        if self.urgent:
            return 0.0
        return max(0.0, self.last_tick + self.interval - now)

    def take(self, now: float) -> list[Input]:
        """Start a tick at ``now``: the pending inputs in arrival order (within ``budget``, see the docstring)."""
        taken, self.pending = coalesce(self.pending), []
        self.urgent = self.wanted = False
        self.last_tick = now
        if self.budget is not None:
            taken, self.pending = _within(taken, self.budget)
        self.backlog = sum(len(item.text) for item in self.pending if type(item) is LogDelta)
        return taken

    def take_at_exit(self) -> tuple[list[Input], int]:
        """The last tick's inputs when the app ends: every pending input, but streamed text only up to one
        tick's ``budget``; and how many characters of streamed text that leaves undrawn (dropped).

        A quit under a flood must not draw the whole backlog first (issue 33: the exit waited for it); the
        inputs that are no streamed text (a finish, a line, the status) are kept, so the log ends as it would.
        """
        inputs, self.pending = coalesce(self.pending), []
        self.urgent = self.wanted = False
        self.backlog = 0
        if self.budget is None:
            return inputs, 0
        room = self.budget
        kept: list[Input] = []
        dropped = 0
        for item in inputs:
            if type(item) is LogDelta:
                shown = item.text[:room]
                room -= len(shown)
                dropped += len(item.text) - len(shown)
                if not shown:
                    continue
                item = item if len(shown) == len(item.text) else LogDelta(item.id, shown)
            kept.append(item)
        return kept, dropped


def _within(inputs: list[Input], budget: int) -> tuple[list[Input], list[Input]]:
    """What a tick takes of ``inputs`` with ``budget`` characters of streamed text, and what waits."""
    for item in inputs:
        if isinstance(item, (Key, Paste)):
            budget //= KEY_SHARE  # a key waits behind text only (or none): a short tick shows it sooner
            break
        if type(item) is not LogDelta:
            break  # a key behind anything else keeps its place: a full tick
    taken: list[Input] = []
    rest: list[Input] = []
    only_text = True  # nothing but streamed text waits so far
    for item in inputs:
        if not rest:
            if type(item) is LogDelta and len(item.text) > budget and "\t" not in item.text:  # (a tab: see coalesce)
                if budget > 0:
                    taken.append(LogDelta(item.id, item.text[:budget]))
                rest.append(LogDelta(item.id, item.text[budget:]))
                budget = 0
                continue
            taken.append(item)
            if type(item) is LogDelta:
                budget = max(0, budget - len(item.text))  # a whole tabbed delta may exceed it
        elif only_text and isinstance(item, (Key, Paste)):
            taken.append(item)  # only streamed text is ahead of it
        else:
            rest.append(item)
            only_text = only_text and type(item) is LogDelta
    return taken, rest


def coalesce(inputs: list[Input]) -> list[Input]:
    """``inputs`` with every run of consecutive tab-free ``LogDelta`` of one entry joined into one."""
    out: list[Input] = []
    run: list[str] = []
    run_id: str | None = None
    for item in inputs:
        if type(item) is LogDelta and "\t" not in item.text:
            if item.id == run_id:
                run.append(item.text)
                continue
            _flush(out, run_id, run)
            run, run_id = [item.text], item.id
            continue
        _flush(out, run_id, run)
        run, run_id = [], None
        out.append(item)
    _flush(out, run_id, run)
    return out


def _flush(out: list[Input], entry_id: str | None, texts: list[str]) -> None:
    if entry_id is not None and texts:
        out.append(LogDelta(entry_id, "".join(texts)))
