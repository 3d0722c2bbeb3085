"""Scenario files (DESIGN, "Scenario files"): the format (``format``), replaying them (``replay``), the
``python -m inline_render replay`` command (``cli``).  Recording one is the core's (``Renderer.record_to``)."""

from __future__ import annotations

from .format import (
    EXPECT_FIELDS,
    FORMAT,
    STATE_FIELDS,
    VERSION,
    Scenario,
    ScenarioTick,
    dumps_line,
    find_scenarios,
    inert,
    load_scenario,
    parse_scenario,
    write_scenario,
)
from .replay import Failure, ReplayResult, format_value_diff, iter_trace_lines, observe, replay

__all__ = [
    "EXPECT_FIELDS",
    "FORMAT",
    "STATE_FIELDS",
    "VERSION",
    "Failure",
    "ReplayResult",
    "Scenario",
    "ScenarioTick",
    "dumps_line",
    "find_scenarios",
    "format_value_diff",
    "inert",
    "iter_trace_lines",
    "load_scenario",
    "observe",
    "parse_scenario",
    "replay",
    "write_scenario",
]
