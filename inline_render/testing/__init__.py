"""Reusable test kit: emulator checks, hypothesis strategies and a state machine.

``CheckedRenderer`` runs a renderer against the in-memory terminal and pyte and
checks every emulator property after every tick.  ``strategies`` (hypothesis
strategies for inputs) and ``RenderMachine`` (a ``RuleBasedStateMachine`` to
subclass) are imported on first use, so this package works without
hypothesis.  ``run_app`` runs an ``InlineApp`` headless and returns a ``Pilot``
(keys, pastes, resizes, wait for text, snapshots; every tick checked).  pyte and hypothesis are test dependencies
(``pip install inline_render[test]``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .checks import FORBIDDEN, CheckedRenderer, forbidden_sequences

if TYPE_CHECKING:
    from . import strategies
    from .machine import RenderMachine
    from .pilot import Pilot, run_app

__all__ = ["FORBIDDEN", "CheckedRenderer", "Pilot", "RenderMachine", "forbidden_sequences", "run_app", "strategies"]


def __getattr__(name: str) -> Any:
    # hypothesis is imported only by the modules that need it.
    if name == "strategies":
        value: Any = importlib.import_module(".strategies", __name__)
    elif name == "RenderMachine":
        value = importlib.import_module(".machine", __name__).RenderMachine
    elif name in ("Pilot", "run_app"):
        value = getattr(importlib.import_module(".pilot", __name__), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # kept, so that tools reading the module's namespace (pdoc) find it
    return value
