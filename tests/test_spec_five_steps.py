"""The specification's five-step scenario, asserted field by field, with emulator checks on every tick."""

from __future__ import annotations

from inline_render import (
    Config,
    ConfirmAnswer,
    ConfirmPhase,
    ConfirmRequest,
    CursorPhase,
    Key,
    LogAppend,
    PermissionPreview,
    RenderState,
    SyncPhase,
)
from inline_render.testing import CheckedRenderer

IDLE, NEEDS_REDRAW = SyncPhase.IDLE, SyncPhase.INSERTED_NEEDS_REDRAW
VISIBLE, HIDDEN = CursorPhase.VISIBLE_AT_COMPOSER, CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT
AT_DIALOG = CursorPhase.HIDDEN_AT_DIALOG  # beyond seed 002's two: the confirm has the keys, no cursor shows


def state(
    total: int, start: int, end: int, inserted: int, sync: SyncPhase, confirm: str, cursor: CursorPhase
) -> RenderState:
    return RenderState(total, start, end, inserted, sync, ConfirmPhase(confirm), cursor)


def test_five_step_scenario() -> None:
    """Startup, append+insert, confirm preflight (pending), active, close and next input, exactly as specified."""
    # Seed 002's walk-through, with the fixed 10-row viewport its steps are stated for (no ``Config.compact``).
    app = CheckedRenderer(80, 24, config=Config(viewport_height=10, compact=False), cursor_row=0)

    # 1. Startup frame: empty log, composer at the bottom of a 10-row viewport, cursor visible there.
    app.step([])
    assert app.renderer.render_state == state(0, 0, 0, 0, IDLE, "none", VISIBLE)
    assert app.terminal.cursor.y == 9 and app.terminal.cursor.visible

    # 2. Input -> append -> insert scrollback: 10 rows into an 8-row log area insert the first 2.
    app.step([LogAppend("text", "\n".join(f"row {i}" for i in range(10)))])
    assert app.renderer.render_state == state(10, 2, 10, 2, NEEDS_REDRAW, "none", HIDDEN)
    assert not app.terminal.cursor.visible
    app.step([])  # the one follow-up redraw restores the cursor at the composer
    assert app.renderer.render_state == state(10, 2, 10, 2, IDLE, "none", VISIBLE)
    assert app.history == ["row 0", "row 1"]

    # 3. Confirm preflight preview: header + 3 diff rows, and a 3-row dialog shrinks the log area to 5 rows.
    diff = "@@ -1 +1 @@\n-old\n+new"
    outputs = app.step(
        [
            PermissionPreview("edit_file", diff=diff),
            ConfirmRequest("c1", "Apply edit?", "edit_file wants to write a.txt"),
            Key("y"),  # typed before the dialog was visible: consumed, not an answer
        ]
    ).outputs
    assert outputs == ()
    assert app.renderer.render_state == state(14, 9, 14, 9, NEEDS_REDRAW, "pending", HIDDEN)
    assert app.history[2:] == ["row 2", "row 3", "row 4", "row 5", "row 6", "row 7", "row 8"]

    # 4. Pending -> active on the next tick, after the pending frame was drawn and the sync decided.
    app.step([])
    assert app.renderer.render_state == state(14, 9, 14, 9, IDLE, "active", AT_DIALOG)
    assert not app.terminal.cursor.visible
    screen = app.terminal.screen_lines()
    assert "? Apply edit?" in screen and any("[y] Yes" in line for line in screen)

    # 5. Close -> next input: the answer carries the request id; no log row is drawn twice.
    outputs = app.step([Key("y")]).outputs
    assert outputs == (ConfirmAnswer("c1", True),)
    assert app.renderer.render_state == state(14, 9, 14, 9, IDLE, "none", VISIBLE)
    app.step([Key("o"), Key("k")])
    assert app.renderer.state.composer.text == "ok"
    lines = app.terminal.all_lines()
    for text in ("row 8", "  @@ -1 +1 @@", "  -old", "  +new", "  Planned edit_file diff preview"):
        assert sum(line == text for line in lines) == 1, text
