"""kitty as a probed terminal, and which family model its resizes match best.

kitty (Debian's 0.26.5) runs ``agent.py`` in the rig's ``KittyTerminal`` (``tests/realterm/kitty_term.py``:
its own Xvfb, llvmpipe, resized in pixels to exact sizes); a resize waits until the agent's pty has the
new size, a snapshot takes the cursor from the agent's cursor report and the rows from ``kitty @ get-text
--extent all --add-wrap-markers`` (rows as kitty holds them, history then the screen).  kitty has no
``TerminalFamily`` of its own (the library treats it as ``SIMPLE``), so it is not in ``real.TERMINALS``
(``tests/test_terminal_models.py`` compares each of those with its own family); ``PROBES`` is that registry
with kitty added, for ``python -m tests.termprobe``.

``python -m tests.termprobe.kitty [SEEDS]`` runs the hand-written cases and ``SEEDS`` (default 10) seeded
scripts of the library's dialect on kitty and on every family model, and prints which models match kitty
where, and how many snapshot fields each model gets wrong.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from inline_render.terminals.memory import TerminalFamily

from .cases import CASES
from .compare import differences, run_model
from .real import TERMINALS, Feed, Resize, Script, Snapshot, Step, _Agent, _snapshot, _wire
from .scripts import library_script

# The rig's modules import each other as ``realterm``: the tests directory must be on sys.path.
_TESTS = str(Path(__file__).resolve().parent.parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from realterm.kitty_term import KittyAdapter, KittyTerminal  # noqa: E402

__all__ = ["FAMILIES", "PROBES", "fit", "main", "run_kitty", "why_not_kitty"]

FAMILIES = (
    TerminalFamily.XTERM,
    TerminalFamily.VTE,
    TerminalFamily.XTERMJS,
    TerminalFamily.TMUX,
    TerminalFamily.SCREEN,
    TerminalFamily.SIMPLE,
)


def why_not_kitty() -> str | None:
    """Why kitty cannot run here, or None."""
    return KittyAdapter().missing()


def _kitty_steps(terminal: KittyTerminal, agent: _Agent, rows: int, steps: Sequence[Step]) -> list[Snapshot]:
    snaps: list[Snapshot] = []
    for step in steps:
        if isinstance(step, Feed):
            agent.write(_wire(step.data))
        elif isinstance(step, Resize):
            terminal.resize(step.columns, step.rows)
            agent.wait_size(step.columns, step.rows)
            rows = step.rows
        else:
            x, y = agent.cursor()  # answered after kitty processed every byte before it
            text = terminal.text()
            state = terminal.window_state()
            history, screen = text.rows[: len(text.rows) - rows], text.rows[len(text.rows) - rows :]
            size = [int(state["columns"]), int(state["lines"])]
            snaps.append(_snapshot({"history": list(history), "screen": list(screen), "cursor": [x, y], "size": size}))
    return snaps


def run_kitty(scripts: Sequence[Script]) -> list[list[Snapshot]]:
    """Each script in a new kitty running the agent; per script, one snapshot per ``Snap``."""
    out: list[list[Snapshot]] = []
    for columns, rows, steps in scripts:
        with tempfile.TemporaryDirectory(prefix="termprobe-kitty-") as tmp:
            agent = _Agent(Path(tmp))
            env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
            terminal = KittyTerminal(agent.command_line().split(), env, columns, rows)
            try:
                agent.open()
                agent.wait_size(columns, rows)
                out.append(_kitty_steps(terminal, agent, rows, steps))
            finally:
                agent.close()
                terminal.close()
    return out


PROBES: dict[str, tuple[Callable[[Sequence[Script]], list[list[Snapshot]]], Callable[[], str | None]]] = {
    **TERMINALS,
    "kitty": (run_kitty, why_not_kitty),
}


def fit(scripts: Sequence[tuple[str, Script]]) -> dict[str, dict[TerminalFamily, list[str]]]:
    """Per named script, per family model: the differences between kitty and the model (empty: it matches)."""
    real = run_kitty([script for _, script in scripts])
    out: dict[str, dict[TerminalFamily, list[str]]] = {}
    for (name, (columns, rows, steps)), seen in zip(scripts, real, strict=True):
        out[name] = {family: differences(seen, run_model(family, columns, rows, steps)) for family in FAMILIES}
    return out


def main(argv: Sequence[str]) -> None:
    """Print, per script, the models that match kitty, then each model's count of wrong snapshot fields."""
    why = why_not_kitty()
    if why:
        raise SystemExit(f"kitty cannot run here: {why}")
    seeds = int(argv[0]) if argv else 10
    scripts = [(case.name, (case.columns, case.rows, list(case.steps))) for case in CASES]
    scripts += [(f"library-seed-{seed}", library_script(seed)) for seed in range(seeds)]
    results = fit(scripts)
    wrong = dict.fromkeys(FAMILIES, 0)
    for name, by_family in results.items():
        matching = [family.value for family, problems in by_family.items() if not problems]
        print(f"{name:32} matches: {', '.join(matching) or 'none'}")
        for family, problems in by_family.items():
            wrong[family] += len(problems)
    print("\nwrong snapshot fields per model (history, screen, cursor of every snapshot):")
    for family, count in sorted(wrong.items(), key=lambda item: item[1]):
        print(f"  {family.value:8} {count}")


if __name__ == "__main__":
    main(sys.argv[1:])
