"""``python -m tests.realterm``: the rig's CLI (see ``realterm.cli``)."""

from __future__ import annotations

import sys
from pathlib import Path

# The rig's modules import each other as ``realterm`` (so the app subprocess, started with the
# tests directory on PYTHONPATH, finds them next to any library checkout): put that directory first.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from realterm.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
