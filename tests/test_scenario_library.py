"""The scenario library covers the required cases with exact expectations on every tick."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_render import Resize
from inline_render.scenario import EXPECT_FIELDS, find_scenarios, load_scenario

LIBRARY = Path(__file__).resolve().parent.parent / "scenarios"
REQUIRED = [
    "spec_five_steps",
    "streaming_long_answer_overflows_viewport",
    "confirm_open_close_while_log_overflows",
    "permission_preview_long_diff",
    "permission_preview_truncated",
    "legacy_text_preflight",
    "pending_confirm_blocks_keys",
    "resize_narrow_widen_narrow_mid_stream",
    "resize_with_partly_inserted_entry",
    "tiny_terminal_1x1",
    "tiny_terminal_rows_1_to_6",
    "tiny_terminal_columns_1_to_10",
    "cjk_at_wrap_boundary",
    "emoji_zwj_vs16_flags_at_wrap_boundary",
    "combining_marks_at_wrap_boundary",
    "log_clear_resets_boundary",
    "log_replace_after_partial_commit",
    "backend_write_failure_and_recovery",
    "hostile_text_is_neutralized",
]
FILES = find_scenarios([LIBRARY])


def test_library_has_every_required_scenario() -> None:
    """At least 25 scenarios, including one per case the issue lists."""
    names = {path.stem for path in FILES}
    assert len(names) >= 25
    assert [name for name in REQUIRED if name not in names] == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_tick_has_exact_expectations(path: Path) -> None:
    """Each file has a description and all eleven expect fields on every tick, the screen as all of its rows."""
    scenario = load_scenario(path)
    assert scenario.description
    assert scenario.ticks
    rows = scenario.rows
    for tick in scenario.ticks:
        rows = next((i.rows for i in reversed(tick.inputs) if isinstance(i, Resize)), rows)
        assert tick.expect is not None and tuple(tick.expect) == EXPECT_FIELDS, f"{path}:{tick.line}"
        assert len(tick.expect["screen"]) == rows, f"{path}:{tick.line}: screen is the full list of rows"
