"""``python -m tests.realterm``: run storms on real terminals and print a table per terminal.

    python -m tests.realterm storm --terminal xterm --storms 5 --seed 1
    python -m tests.realterm storm --terminal all --storms 5 --seed 1 --no-resize   # the baseline
    PYTHONPATH=/path/to/checkout python -m tests.realterm storm -t tmux --seed 7 --storms 1 --dump out/

Terminals: tmux, xtermjs (xterm.js headless through a pty), xterm, vte and kitty (under Xvfb), screen (GNU
screen in tmux), pyte (the library's PyteTerminal through a pty).  ``--plain`` runs the reference
(the same lines without the library), ``--no-resize`` the baseline.
``--library`` (default: the first PYTHONPATH entry, else this repository) is the checkout the app
runs; the rig itself always comes from this tree.  Each failing run is printed with its seed and
storm, so ``--seed SEED --storms 1`` replays it alone; ``--dump DIR`` writes every run's terminal
text (``DIR/<terminal>-<seed>.txt``) to look at.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from inline_render.terminals.memory import TerminalFamily

from .recorded import REPLAYABLE, replay_recording
from .run import RunResult, default_library, run_storm
from .sessions import session_storm
from .storm import make_storm, storm_seeds
from .terminals import adapters

__all__ = ["Tally", "main", "table"]


@dataclass(slots=True)
class Tally:
    """The sums of one terminal's runs."""

    terminal: str
    runs: int = 0
    failed: int = 0
    missing: int = 0
    cut: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    ghosts: int = 0
    truncated: int = 0
    stale: int = 0
    errors: int = 0
    failing_seeds: list[int] = field(default_factory=list)

    def add(self, result: RunResult) -> None:
        """Count one run."""
        verdict = result.verdict
        self.runs += 1
        self.missing += len(verdict.missing)
        self.cut += len(verdict.cut)
        self.duplicated += len(verdict.duplicated)
        self.out_of_order += len(verdict.out_of_order)
        self.ghosts += len(verdict.ghosts)
        self.truncated += len(verdict.truncated)
        self.stale += len(verdict.stale)
        if not verdict.ok or result.exit_code != 0:
            self.failed += 1
            self.failing_seeds.append(result.storm.seed)


def table(tallies: list[Tally]) -> str:
    """The per-terminal table (markdown, so it can go into the README as it is)."""
    columns = ["terminal", "runs", "failed", "lines missing (cut)", "duplicated", "out of order", "ghost rows"]
    columns += ["truncated by the terminal", "rows with stale cells"]
    columns += ["errors", "failing seeds"]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for t in tallies:
        seeds = " ".join(str(seed) for seed in t.failing_seeds) or "-"
        lines.append(
            f"| {t.terminal} | {t.runs} | {t.failed} | {t.missing} ({t.cut}) | {t.duplicated} | "
            f"{t.out_of_order} | {t.ghosts} | {t.truncated} | {t.stale} | {t.errors} | {seeds} |"
        )
    return "\n".join(lines)


def _storm_command(args: argparse.Namespace) -> int:
    known = adapters()
    names = list(known) if args.terminal == ["all"] else args.terminal
    unknown = [name for name in names if name not in known]
    if unknown:
        print(f"unknown terminal {', '.join(unknown)}; known: {', '.join(known)}, all", file=sys.stderr)
        return 2
    library = args.library or default_library()
    print(f"library: {library}", flush=True)
    tallies: list[Tally] = []
    for name in names:
        adapter = known[name]()
        tally = Tally(name)
        tallies.append(tally)
        reason = adapter.missing()
        if reason:
            print(f"{name}: skipped: {reason}", flush=True)
            continue
        for seed in storm_seeds(args.seed, args.storms):
            storm = make_storm(seed, resize=not args.no_resize, count=args.resizes, lines=args.lines)
            if args.content == "session":
                storm = session_storm(seed, lines=args.lines, count=args.resizes)
                storm = storm if not args.no_resize else replace(storm, resizes=())
            try:
                record = Path(args.record) / f"{name}-{seed}.jsonl" if args.record else None
                if record is not None:
                    record.parent.mkdir(parents=True, exist_ok=True)
                result = run_storm(adapter, storm, library, plain=args.plain, record=record, content=args.content)
            except (RuntimeError, TimeoutError, OSError) as error:
                tally.errors += 1
                tally.failing_seeds.append(seed)
                print(f"{name} {storm.describe()}\n  ERROR {error}", flush=True)
                continue
            tally.add(result)
            if not Path(result.library).resolve().is_relative_to(Path(library).resolve()):
                print(f"warning: the app ran the library at {result.library}, not at {library}", flush=True)
            mark = "ok  " if result.verdict.ok and result.exit_code == 0 else "FAIL"
            print(
                f"{mark} {name} {storm.describe()}\n     exit {result.exit_code}: {result.verdict.summary()}",
                flush=True,
            )
            if args.dump:
                folder = Path(args.dump)
                folder.mkdir(parents=True, exist_ok=True)
                body = "\n".join(result.text.rows)
                extra = "\n".join(["", "--- ghost rows:", *result.verdict.ghosts])
                (
                    folder / f"{name}-{seed}{'-baseline' * args.no_resize}{'-plain' * args.plain}-{args.content}.txt"
                ).write_text(body + "\n" + extra + "\n", encoding="utf-8")
    print()
    print(table(tallies))
    options = f"-t {' '.join(names)} --storms {args.storms} --seed {args.seed}"
    options += (
        " --no-resize" * args.no_resize
        + " --plain" * args.plain
        + f" --content {args.content}" * (args.content != "lines")
    )
    options += f" --lines {args.lines}" * (args.lines != 80) + f" --resizes {args.resizes}" * (args.resizes != 8)
    print(f"\nreproduce: python -m tests.realterm storm {options}")
    return 0 if all(t.failed == 0 and t.errors == 0 for t in tallies) else 1


def _replay_command(args: argparse.Namespace) -> int:
    family = TerminalFamily(args.family)
    storm = make_storm(args.seed, lines=args.lines)
    if args.content == "session":
        storm = session_storm(args.seed, lines=args.lines)
    replayed = replay_recording(Path(args.file), storm, family, args.content)
    print(f"{args.file} on the {family.value} model: {replayed.verdict.summary()}")
    print(f"cursor reports the model could not reproduce: {replayed.disagreed} of {replayed.resizes} resizes")
    return 0 if replayed.verdict.ok else 1


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run it; 0 when every run kept every line once and in order."""
    parser = argparse.ArgumentParser(prog="python -m tests.realterm", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    storm = commands.add_parser("storm", help="resize storms while the app streams; a table per terminal")
    names = "tmux, xtermjs, xterm, vte, kitty, screen, pyte, or all"
    storm.add_argument("-t", "--terminal", nargs="+", default=["all"], help=names)
    storm.add_argument("--storms", type=int, default=5, help="storms per terminal (seeds SEED, SEED+1, ...)")
    storm.add_argument("--seed", type=int, default=1, help="the first storm's seed")
    storm.add_argument("--no-resize", action="store_true", help="the baseline: the same streams, no resize")
    storm.add_argument("--plain", action="store_true", help="the reference: the same lines without the library")
    storm.add_argument("--lines", type=int, default=80, help="numbered lines the app streams")
    storm.add_argument(
        "--content",
        choices=("lines", "markdown", "lemon", "codelia", "session"),
        default="lines",
        help="plain numbered lines, a Markdown chat through the app API, its answers through the demo's dialects, "
        "or a random session (dialogs, approvals, hostile text; every other seed resized down to a few cells)",
    )
    storm.add_argument("--resizes", type=int, default=8, help="resizes per storm (at least 2)")
    storm.add_argument("--library", help="the library checkout to run (default: first PYTHONPATH entry)")
    storm.add_argument("--dump", help="write each run's terminal text into this folder")
    storm.add_argument("--record", help="the app records every tick into this folder (TERMINAL-SEED.jsonl)")
    again = commands.add_parser("replay", help="replay a recorded run (storm --record) on the terminal's model")
    again.add_argument("file", help="the recording")
    again.add_argument("--seed", type=int, required=True, help="the storm's seed")
    again.add_argument("--family", default="screen", choices=[family.value for family in REPLAYABLE])
    again.add_argument("--lines", type=int, default=80, help="numbered lines the app streamed")
    again.add_argument("--content", choices=("lines", "markdown", "session"), default="lines", help="what it streamed")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay_command(args)
    if args.command == "storm":
        if args.resizes < 2:
            parser.error("--resizes must be at least 2 (a storm grows taller after its first resize)")
        return _storm_command(args)
    return 2  # pragma: no cover - argparse rejects other commands
