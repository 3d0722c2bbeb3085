"""Widgets (Lemon's ui_widget): small blocks above the status line or under the composer, kept by key."""

from __future__ import annotations

from inline_render import Config, LogAppend, Status
from inline_render.inputs import Key, Widget
from inline_render.testing.checks import CheckedRenderer


def screen(renderer: CheckedRenderer) -> list[str]:
    return [row.rstrip() for row in renderer.renderer.terminal.screen_lines()]


def test_widgets_sit_around_the_composer_are_replaced_by_key_and_removed_by_empty_text() -> None:
    """Above: over the status line; below: under the composer; same key replaces in place; empty removes."""
    renderer = CheckedRenderer(40, 12, config=Config(viewport_height=10))
    renderer.feed([LogAppend("text", "hello"), Status("status here")])
    renderer.feed([Widget("todo", "- read\n- fix"), Widget("hint", "tip: /help", below=True), Widget("b", "two")])
    renderer.feed([Key("x")])
    rows = screen(renderer)
    status = rows.index("status here")
    assert rows[status - 3 : status] == ["- read", "- fix", "two"]
    composer = next(n for n, row in enumerate(rows) if row.endswith("x") and n > status)
    assert rows[composer + 1] == "tip: /help"
    cursor = renderer.renderer.terminal.cursor
    assert (cursor.y, cursor.visible) == (composer, True)

    renderer.feed([Widget("todo", "- done"), Widget("hint", "")])
    rows = screen(renderer)
    status = rows.index("status here")
    assert rows[status - 2 : status] == ["- done", "two"]  # replaced in place, still first
    assert not any("tip:" in row for row in rows) and not any("- read" in row for row in rows)
    composer = next(n for n, row in enumerate(rows) if row.endswith("x") and n > status)
    assert renderer.renderer.terminal.cursor.y == composer and not any(rows[composer + 1 :])


def test_widgets_never_take_the_rows_the_log_needs() -> None:
    """A widget far taller than the viewport is cut: the log keeps min_log_rows, one widget shows 5 rows at most."""
    renderer = CheckedRenderer(40, 12, config=Config(viewport_height=8, min_log_rows=3))
    renderer.feed([LogAppend("text", "line 1"), Widget("big", "\n".join(f"w{n}" for n in range(50)))])
    rows = screen(renderer)
    assert "line 1" in rows
    shown = [row for row in rows if row.startswith("w")]
    assert 0 < len(shown) <= 5 and shown == [f"w{n}" for n in range(len(shown))]


def test_widget_text_is_neutralized() -> None:
    """Escape sequences in a widget are made visible, never sent (the checks refuse OSC/ED on the wire)."""
    renderer = CheckedRenderer(40, 12, config=Config(viewport_height=8))
    renderer.feed([Widget("x", "a\x1b]52;c;ZXZpbA==\x07b\x1b[2Jc")])
    assert any(row.startswith("a") and row.endswith("c") for row in screen(renderer))
