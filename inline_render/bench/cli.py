"""``python -m inline_render bench``: fixed, seeded workloads through the real four stages.

Each runs in a child process of its own (its peak memory is its own), by name; the workloads are ``workloads``
and ``stream``; how one is timed is ``measure``; ``--peers`` runs ``peers``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

from ..cli import PROG, help_text
from ..core.state import Config
from .code import CODE_WORKLOADS
from .constructs import CONSTRUCT_WORKLOADS
from .measure import Event, make_renderer, row_line, run_events
from .stream import STREAM_WORKLOADS
from .workloads import (
    W2_PER_TICK,
    idle_events,
    status_events,
    w1_events,
    w1s_events,
    w2_events,
    w3_events,
    w4_events,
    w5_events,
)

__all__ = ["WORKLOADS", "build", "format_results", "machine", "main", "run_workload", "workload_names"]


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
WORKLOADS.update(STREAM_WORKLOADS)
WORKLOADS.update(CODE_WORKLOADS)
WORKLOADS.update(CONSTRUCT_WORKLOADS)


_SIZED = ("w1", "w3", "w5", "w1s", "s1", "s2", "s3", "c1", "c2", *CONSTRUCT_WORKLOADS)  # kind:N


_KNOWN = "w1:N, w2, w3:N, w4, w5:N, w1s:N, idle, status, s1:N, s2:N, s3:N, flood, flood_md, c1:N, c2:N"
_KNOWN += ", " + ", ".join(f"{name}:N" for name in CONSTRUCT_WORKLOADS)


_UNITS = {"w1": "delta", "w2": "batch", "w3": "resize", "w4": "key", "w5": "delta", "w1s": "delta"}
_UNITS.update({"s1": "delta", "s2": "delta", "s3": "delta", "flood": "100 KB", "flood_md": "100 KB"})
_UNITS.update({"c1": "delta", "c2": "delta"})
_UNITS.update(dict.fromkeys(CONSTRUCT_WORKLOADS, "delta"))


def _sizes(quick: bool) -> tuple[list[int], list[int]]:
    return ([100, 10_000], [1_000, 10_000]) if quick else ([100, 10_000, 1_000_000], [1_000, 1_000_000])


def workload_names(quick: bool) -> list[str]:
    """Every workload of a run, as ``name[:lines]`` strings."""
    w1, w3 = _sizes(quick)
    issue14 = [f"w1s:{w1[1]}", "idle", "status"]  # a token counter in the status line; ticks that change little
    streams = ["s1:1000", "flood"] if quick else [f"{kind}:{n}" for kind in ("s1", "s2", "s3") for n in (1000, 10**7)]
    flood = [] if quick else ["flood", "flood_md"]
    sized = [*(f"w1:{n}" for n in w1), "w2", *(f"w3:{n}" for n in w3), "w4", *(f"w5:{n}" for n in w1)]
    code = ["c1:1000", "c2:1000"] if quick else [f"{kind}:{n}" for kind in ("c1", "c2") for n in (1000, 100_000)]
    # Issue 33: a delta to a long open Markdown table or paragraph costs as much after 100 KB of it as after 1 KB.
    constructs = [f"{name}:{n}" for name in CONSTRUCT_WORKLOADS for n in ((1000,) if quick else (1000, 100_000))]
    return [*sized, *issue14, *streams, *flood, *code, *constructs]  # c1, c2: issue 33, code blocks and one long line


def _valid_name(name: str) -> bool:
    kind, colon, lines = name.partition(":")
    if kind in _SIZED:
        return bool(colon) and lines.isdigit() and int(lines) > 0
    return kind in WORKLOADS and not colon


def run_workload(name: str, quick: bool, check_invariants: bool = True) -> dict[str, object]:
    """Run one workload in this process; add its CPU time and this process's peak RSS."""
    kind, _, lines = name.partition(":")
    markdown = kind in ("w5", "s3", "flood_md", "c1", "c2", *CONSTRUCT_WORKLOADS)
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
    from ..native import compiled_modules

    return f"compiled (mypyc: {len(compiled_modules)} modules)" if compiled_modules else "pure Python"


def main(argv: list[str]) -> int:
    """Entry point of ``python -m inline_render bench``."""
    parser = argparse.ArgumentParser(prog=f"{PROG} bench", description=help_text(__doc__.split("\n\n")[0]))
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    parser.add_argument(
        "--peers", action="store_true", help="also run W1 and W1S through Rich Live, prompt_toolkit, pi-tui and Ink"
    )
    parser.add_argument(
        "--only",
        metavar="NAMES",
        help="comma-separated workloads (w1:100,w2,w3:1000,w4,w5:100,w1s:100,idle,status,s1:N,flood,...)",
    )
    parser.add_argument("--no-invariants", action="store_true", help="Config(check_invariants=False)")
    parser.add_argument("--one", metavar="NAME", help=argparse.SUPPRESS)  # child process: one workload
    args = parser.parse_args(argv)
    check = not args.no_invariants
    if args.one and args.one.partition(":")[0] == "peers":  # "peers", "peers:w1s" or "peers:w1s:100"
        from .peers import PEER_LINES, main_peers

        _, workload, lines = [*args.one.split(":"), "", ""][:3]
        print(json.dumps(main_peers(args.quick, workload or "w1", int(lines or PEER_LINES[-1]))))
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
    failed = _run_peers(args.quick, report) if args.peers else []
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
            out.write("\n")
    for line in failed:
        print(f"{PROG} bench --peers: {line}", file=sys.stderr)
    return 1 if failed else 0


def _run_peers(quick: bool, report: dict[str, object]) -> list[str]:
    """``--peers``: W1 and W1S (issue 14: with a token counter) after 100 and 10,000 lines, every renderer, each
    run in a child process; its blocks, then one table; returns what failed or did not draw the content."""
    from .peers import peer_runs, run_peers
    from .peers_report import failures, format_peers, format_table, ratios, targets

    results: list[dict[str, object]] = []
    for workload, lines in peer_runs():
        result = run_peers(quick, workload, lines)
        result["ratios"], result["targets"] = ratios(result), targets(result)  # in the JSON too
        results.append(result)
        print(format_peers(result), flush=True)
    print(format_table(results), flush=True)
    report["peers"] = results
    return failures(results)
