"""``python -m tests.termprobe [TERMINAL...]``: run the hand-written probes and print each terminal's answer."""

from __future__ import annotations

import sys

from .cases import CASES
from .kitty import PROBES  # real.TERMINALS and kitty (which has no family model of its own)


def main(names: list[str]) -> None:
    for case in CASES:
        print(f"== {case.name}: {case.question} ({case.columns}x{case.rows})")
        for name in names or list(PROBES):
            run, why_not = PROBES[name]
            why = why_not()
            if why:
                print(f"  {name}: skipped ({why})")
                continue
            for snap in run([(case.columns, case.rows, list(case.steps))])[0]:
                shown = f"hist[-3:]={list(snap.history[-3:])} hist={len(snap.history)} screen={list(snap.screen)}"
                print(f"  {name:8} {shown} cursor={snap.cursor}")


main(sys.argv[1:])
