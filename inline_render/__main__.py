"""``python -m inline_render <command>``: a dispatcher whose subcommands are imported only when run."""

from __future__ import annotations

import importlib
import sys

from .cli import PROG, run_guarded, version

__all__ = ["COMMANDS", "main"]

# command -> (module with ``main(argv: list[str]) -> int``, one-line help); imported lazily.
COMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("inline_render.bench.cli", "run the seeded performance workloads (W1-W4)"),
    "replay": ("inline_render.scenario.cli", "replay scenario files (*.jsonl) and check their expectations"),
    "demo": ("inline_render.demo.scripted", "the scripted agent session in your terminal (--script: unattended)"),
    "example": ("inline_render.demo.example", "render the README example into the in-memory terminal"),
    "chat": ("inline_render.demo.chat", "a small chat app on the public API: history, completion, confirm, streaming"),
}


def _usage() -> str:
    lines = [f"usage: {PROG} <command> [options]", f"       {PROG} --version", "", "commands:"]
    lines += [f"  {name:<10} {help_text}" for name, (_, help_text) in COMMANDS.items()]
    lines += ["", f"{PROG} <command> --help shows a command's options."]
    return "\n".join(lines)


def _dispatch(args: list[str]) -> int:
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        print(f"inline_render {version()}")
        return 0
    command = COMMANDS.get(args[0])
    if command is None:
        print(f"{PROG}: unknown command {args[0]!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(command[0])
    result: int = module.main(args[1:])
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand named by ``argv[0]`` with the rest of the arguments."""
    args = sys.argv[1:] if argv is None else argv
    return run_guarded(lambda: _dispatch(args))


if __name__ == "__main__":
    sys.exit(main())
