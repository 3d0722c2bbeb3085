"""``python -m inline_render replay [--update] [--bytes FILE] [--trace FILE] PATH...``

One line per scenario (PASS/FAIL/UPDATED/ERROR, ticks, bytes); a failure adds
the tick, its line, the field and an expected/actual diff.  Exit status: 0 all
passed, 1 some failed, 2 invalid input (a malformed scenario, a missing path,
bad options); never a traceback for a bad file.  Every line is printed inert (controls quoted
from a file or its name as ``\\uXXXX``).  Every replay also checks the emulator properties
(``inline_render.testing.CheckedRenderer``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from ..cli import PROG
from ..errors import ScenarioError
from .format import find_scenarios, inert, load_scenario, write_scenario
from .replay import ReplayResult, iter_trace_lines, replay

__all__ = ["build_parser", "main"]

EXIT_OK, EXIT_FAILED, EXIT_INVALID = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The ``replay`` subcommand's argument parser."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} replay",
        description="Replay scenario files (*.jsonl) through the renderer and check every expectation.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or directories (searched recursively)")
    parser.add_argument("--update", action="store_true", help="rewrite the expect fields from the actual run")
    parser.add_argument("--bytes", metavar="FILE", type=Path, help="(one scenario) write the exact bytes sent")
    parser.add_argument("--trace", metavar="FILE", type=Path, help="(one scenario) write a JSON line per tick")
    parser.add_argument("--no-pyte", action="store_true", help="check with the in-memory terminal only, not pyte")
    return parser


def _say(out: TextIO, line: str) -> None:
    # File names, messages and diffs quote the scenario file: never print a control from it raw.
    print(inert(line), file=out)


def _summary(result: ReplayResult) -> str:
    return f"{result.ticks_run} ticks, {len(result.data)} bytes"


def _run_one(path: Path, args: argparse.Namespace, out: TextIO) -> int:
    try:
        scenario = load_scenario(path)
    except ScenarioError as error:
        _say(out, f"ERROR {error}")
        return EXIT_INVALID
    result = replay(scenario, update=args.update, use_pyte=not args.no_pyte)
    target = path
    try:
        if args.bytes is not None:
            target = args.bytes
            target.write_bytes(result.data)
        if args.trace is not None:
            target = args.trace
            target.write_text("".join(line + "\n" for line in iter_trace_lines(result)), encoding="utf-8")
        if args.update and result.updated is not None:
            target = path
            changed = write_scenario(result.updated)
            _say(out, f"{'UPDATED' if changed else 'PASS'} {path} ({_summary(result)})")
            return EXIT_OK
    except OSError as error:
        _say(out, f"ERROR {target}: cannot write: {error.strerror or error}")
        return EXIT_INVALID
    if result.passed:
        _say(out, f"PASS {path} ({_summary(result)})")
        return EXIT_OK
    first = result.failures[0]
    _say(out, f"FAIL {path} ({_summary(result)}) at tick {first.tick}, line {first.line}: {first.field}")
    _say(out, "  " + result.report(path=path).replace("\n", "\n  "))
    return EXIT_FAILED


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the subcommand; returns the exit status (never raises for bad input)."""
    out = out if out is not None else sys.stdout
    parser = build_parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:  # argparse has printed the usage error
        return EXIT_OK if stop.code in (0, None) else EXIT_INVALID
    try:
        paths = find_scenarios(args.paths)
    except ScenarioError as error:
        _say(out, f"ERROR {error}")
        return EXIT_INVALID
    if not paths:
        _say(out, f"ERROR no *.jsonl scenario files under {' '.join(args.paths)}")
        return EXIT_INVALID
    if (args.bytes is not None or args.trace is not None) and len(paths) != 1:
        _say(out, f"ERROR --bytes and --trace need exactly one scenario, got {len(paths)}")
        return EXIT_INVALID
    statuses = [_run_one(path, args, out) for path in paths]
    failed = statuses.count(EXIT_FAILED)
    invalid = statuses.count(EXIT_INVALID)
    passed = len(statuses) - failed - invalid
    _say(out, f"{passed} passed, {failed} failed, {invalid} invalid")
    if invalid:
        return EXIT_INVALID
    return EXIT_FAILED if failed else EXIT_OK
