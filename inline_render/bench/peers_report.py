"""``bench --peers`` as text: each run's figures per renderer, one table of every run, and what went wrong.

A run's result (``peers.measure_peers``) holds, per renderer, the bench's figures and ``drew`` (its bytes replayed
through pyte end with our last rows), or ``skipped`` (not installed: a reason, not a failure), or ``error`` (the
peer failed: a failure, as is ``drew`` false).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import measure
from .peers import PEER_NAMES

__all__ = ["failures", "format_peers", "format_table", "ratios", "targets"]

_PEERS = [name for name in PEER_NAMES if name != "ours"]


def _figures(result: dict[str, object], name: str) -> dict[str, object] | None:
    """A renderer's figures in a run, or None when it was skipped or failed."""
    figures = result.get(name)
    if not isinstance(figures, dict) or "skipped" in figures or "error" in figures:
        return None
    return figures


def _median(figures: dict[str, object] | None, key: str) -> float | None:
    if figures is None:
        return None
    per_update = figures["per_update"]
    assert isinstance(per_update, dict)
    value = per_update.get(key)
    return float(value) if isinstance(value, int | float) else None


def ratios(result: dict[str, object]) -> dict[str, dict[str, float]]:
    """Each peer's medians over ours (CPU and bytes), per split of the updates."""
    ours = _figures(result, "ours")
    assert ours is not None
    out: dict[str, dict[str, float]] = {}
    for name in _PEERS:
        peer = _figures(result, name)
        if peer is None:
            continue
        ratio: dict[str, float] = {}
        for split in ("per_update", "non_inserting", "inserting"):
            mine, theirs = ours[split], peer[split]
            assert isinstance(mine, dict) and isinstance(theirs, dict)
            if mine.get("count") and theirs.get("count"):
                ratio[f"{split}_us_median"] = round(theirs["us_median"] / mine["us_median"], 1)
                if mine["bytes_median"]:
                    ratio[f"{split}_bytes_median"] = round(theirs["bytes_median"] / mine["bytes_median"], 1)
        out[name] = ratio
    return out


def targets(result: dict[str, object]) -> list[str]:
    """Issue 14's targets against a run: CPU per update at most 1/10 of Rich's with the status change (1/15
    without), bytes per update at most prompt_toolkit's with it."""
    workload = str(result["workload"]).partition(":")[0]
    ours = _figures(result, "ours")
    mine_us, mine_bytes = _median(ours, "us_median"), _median(ours, "bytes_median")
    rich_us = _median(_figures(result, "rich"), "us_median")
    toolkit_bytes = _median(_figures(result, "prompt_toolkit"), "bytes_median")
    assert mine_us is not None and mine_bytes is not None
    lines: list[str] = []
    share = 10 if workload == "w1s" else 15
    if rich_us is not None:
        limit = rich_us / share
        verdict = "met" if mine_us <= limit else f"not met ({mine_us / limit:.2f}x the limit)"
        lines.append(f"CPU/update {mine_us} us <= 1/{share} of Rich's ({limit:.1f} us): {verdict}")
    if workload == "w1s" and toolkit_bytes is not None:
        verdict = "met" if mine_bytes <= toolkit_bytes else f"not met ({mine_bytes / toolkit_bytes:.2f}x)"
        lines.append(f"bytes/update {mine_bytes:g} <= prompt_toolkit's ({toolkit_bytes:g}): {verdict}")
    return lines


def _drew(figures: dict[str, object]) -> str:
    if figures.get("drew"):
        return "drew the content"
    return f"DID NOT DRAW THE CONTENT: {figures.get('drew_detail', '')}"


def format_peers(result: dict[str, object]) -> str:
    """One run as text: each renderer's figures and whether it drew the content, the ratios, the targets."""
    lines = [f"peers on {result['workload']} (same rows; versions {result['versions']})"]
    for name in ("ours", *_PEERS):
        figures = result.get(name)
        if not isinstance(figures, dict):
            continue
        label = PEER_NAMES[name]
        if "skipped" in figures:
            lines.append(f"  {label}: skipped: {figures['skipped']}")
            continue
        if "error" in figures:
            lines.append(f"  {label}: FAILED: {figures['error']}")
            continue
        lines.append(f"  {label} ({_drew(figures)})")
        lines.append(measure.row_line("per delta", figures["per_update"], "upd"))
        lines.append(measure.row_line("  not inserting", figures["non_inserting"], "upd"))
        lines.append(measure.row_line("  inserting", figures["inserting"], "upd"))
    for name, ratio in ratios(result).items():
        text = ", ".join(f"{key} {value}x" for key, value in ratio.items())
        lines.append(f"  {PEER_NAMES[name]} / ours: {text}")
    lines.extend(f"  target: {line}" for line in targets(result))
    return "\n".join(lines)


def _cell(value: float | None, suffix: str = "") -> str:
    return f"{'-' if value is None else f'{value:,.1f}{suffix}' if suffix else f'{value:,.0f}':>14}"


def _drew_cell(row: Sequence[dict[str, object] | None]) -> str:
    """``yes`` when every run of a renderer drew the content, ``NO`` when one did not."""
    return "yes" if all(figures.get("drew") for figures in row if figures is not None) else "NO"


def format_table(results: Sequence[dict[str, object]]) -> str:
    """Every run side by side, per renderer: CPU µs per update (median) and whether it drew the content, bytes
    per update (median), and each peer's CPU over ours; skipped renderers are named with their reason."""
    names: list[str] = []
    for result in results:
        workload, _, size = str(result["workload"]).partition(":")
        names.append(f"{workload.upper()} N={int(size):,}")
    header = "".join(f"{name:>14}" for name in names)
    shown: list[tuple[str, list[dict[str, object] | None]]] = []
    skipped: list[str] = []
    for name in (*_PEERS, "ours"):
        row = [_figures(result, name) for result in results]
        if any(figures is not None for figures in row):
            shown.append((name, row))
            continue
        first = results[0].get(name)
        if isinstance(first, dict):
            skipped.append(f"{PEER_NAMES[name]}: skipped ({first.get('skipped') or first.get('error')})")
    lines = ["peers, one run, the same rows, every update drawn", f"{'CPU µs/update':<16}{header}  drew"]
    for name, row in shown:
        cells = "".join(_cell(_median(figures, "us_median")) for figures in row)
        lines.append(f"{PEER_NAMES[name]:<16}{cells}  {_drew_cell(row)}")
    lines.append(f"{'bytes/update':<16}{header}")
    for name, row in shown:
        lines.append(f"{PEER_NAMES[name]:<16}" + "".join(_cell(_median(figures, "bytes_median")) for figures in row))
    lines.append(f"{'CPU / ours':<16}{header}")
    for name, _row in shown[:-1]:
        shares = [ratios(result).get(name, {}).get("per_update_us_median") for result in results]
        lines.append(f"{PEER_NAMES[name]:<16}" + "".join(_cell(share, "x") for share in shares))
    lines.extend(skipped)
    return "\n".join(lines)


def failures(results: Sequence[dict[str, object]]) -> list[str]:
    """Every renderer that failed or did not draw the content, with the run and why (skips are not failures)."""
    out: list[str] = []
    for result in results:
        for name in ("ours", *_PEERS):
            figures = result.get(name)
            if not isinstance(figures, dict) or "skipped" in figures:
                continue
            if "error" in figures:
                out.append(f"{PEER_NAMES[name]} on {result['workload']} failed: {figures['error']}")
            elif not figures.get("drew"):
                out.append(
                    f"{PEER_NAMES[name]} on {result['workload']} did not draw the content: {figures.get('drew_detail')}"
                )
    return out
