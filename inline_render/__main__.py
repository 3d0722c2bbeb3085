"""``python -m inline_render <command>``: a dispatcher whose subcommands are imported only when run."""

from __future__ import annotations

import importlib
import sys

__all__ = ["COMMANDS", "main"]

# command -> (module with ``main(argv: list[str]) -> int``, one-line help); imported lazily.
COMMANDS: dict[str, tuple[str, str]] = {
    "bench": ("inline_render.bench", "run the seeded performance workloads (W1-W4)"),
    "replay": ("inline_render.cli_replay", "replay scenario files (*.jsonl) and check their expectations"),
    "demo": ("inline_render.demo", "the scripted agent session in your terminal (--script: unattended)"),
    "example": ("inline_render.example", "render the README example into the in-memory terminal"),
}


def _usage() -> str:
    lines = ["usage: python -m inline_render <command> [options]", "", "commands:"]
    lines += [f"  {name:<10} {help_text}" for name, (_, help_text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand named by ``argv[0]`` with the rest of the arguments."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print(_usage())
        return 0 if args else 2
    command = COMMANDS.get(args[0])
    if command is None:
        print(f"inline_render: unknown command {args[0]!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(command[0])
    result: int = module.main(args[1:])
    return result


if __name__ == "__main__":
    sys.exit(main())
