"""Unit tests of the four stages and the invariants, without a terminal."""

from __future__ import annotations

import io
import itertools
import re
from dataclasses import replace

import pytest
from prompt_toolkit.output.color_depth import ColorDepth

from inline_render import (
    BackendError,
    Config,
    ConfirmPhase,
    ConfirmRequest,
    CursorPhase,
    InvalidInput,
    InvariantViolation,
    Key,
    LogAppend,
    LogDelta,
    Paste,
    Renderer,
    RenderState,
    Resize,
    StreamSink,
    SyncPhase,
    Vt100Backend,
    check_invariants,
    compute_layout,
    draw_frame,
    initial_state,
    plan_terminal_effects,
    reduce_inputs,
)
from inline_render.core.app import AppState
from inline_render.core.ops import EndSync, HideCursor, Inserted, LineFeed, Plan, ShowCursor, Text
from inline_render.outputs import Interrupt, Quit, Submit
from inline_render.text.style import DEFAULT


def settled(columns: int = 40, rows: int = 12, **config: object) -> AppState:
    """A state after its first drawn frame (anchored, cursor shown)."""
    renderer = Renderer.in_memory(columns, rows, config=Config(**config))  # type: ignore[arg-type]
    renderer.feed([])
    return renderer.state


def test_reduce_is_pure() -> None:
    """reduce_inputs returns the same result for the same state and inputs and never mutates its input."""
    state = settled()
    inputs = [LogAppend("user", "hi"), Key("a"), Paste("b\nc")]
    first = reduce_inputs(state, inputs)
    assert reduce_inputs(state, inputs) == first
    assert state == settled()


def test_enter_submits_and_appends_a_user_entry() -> None:
    """Enter emits Submit with the composer text, appends it as a user entry, and clears the composer."""
    state, _ = reduce_inputs(settled(), [Key(c) for c in "hello"])
    state, outputs = reduce_inputs(state, [Key("enter")])
    assert outputs == [Submit("hello")]
    assert state.composer.text == ""
    assert state.log.entries[-1].kind == "user" and state.log.entries[-1].text == "hello"


def test_interrupt_and_quit_keys() -> None:
    """Escape and Ctrl-C interrupt; Ctrl-D on an empty composer asks to quit."""
    _, outputs = reduce_inputs(settled(), [Key("escape"), Key("c-c"), Key("c-d")])
    assert outputs == [Interrupt("escape"), Interrupt("c-c"), Quit()]


def test_prompt_toolkit_key_aliases() -> None:
    """prompt_toolkit's control-code names (c-m, c-h) act as enter and backspace."""
    state, _ = reduce_inputs(settled(), [Key("a"), Key("b"), Key("c-h")])
    assert state.composer.text == "a"
    _, outputs = reduce_inputs(state, [Key("c-m")])
    assert outputs == [Submit("a")]


def test_confirm_becomes_active_only_after_a_drawn_frame() -> None:
    """A dialog is pending after its request; it is active on the next tick only if its frame was drawn."""
    state, _ = reduce_inputs(settled(), [ConfirmRequest("c", "ok?")])
    assert state.render.confirm_phase is ConfirmPhase.PENDING
    undrawn, _ = reduce_inputs(state, [])
    assert undrawn.render.confirm_phase is ConfirmPhase.PENDING
    drawn, _ = reduce_inputs(replace(state, screen=replace(state.screen, dialog_drawn=True)), [])
    assert drawn.render.confirm_phase is ConfirmPhase.ACTIVE


def test_layout_regions_fill_the_viewport() -> None:
    """Log, dialog, status and composer heights add up to the viewport height; the frame has that many rows."""
    state, _ = reduce_inputs(settled(viewport_height=8, compact=False), [ConfirmRequest("c", "ok?", "line\n" * 20)])
    layout = compute_layout(state)
    assert layout.height == 8
    assert layout.log_height + layout.dialog_height + layout.status_height + layout.composer_height == 8
    assert layout.log_height == 1  # min_log_rows
    assert len(draw_frame(state, layout).rows) == 8


def test_a_compact_layout_is_as_tall_as_what_it_shows() -> None:
    """``Config.compact``: an empty log takes no row (the dialog, the status line and the composer are the viewport),
    and logged lines take rows up to ``viewport_height``, where the log tail keeps ``min_log_rows`` for a dialog."""
    state, _ = reduce_inputs(settled(viewport_height=8), [ConfirmRequest("c", "ok?", "line\n" * 2)])
    layout = compute_layout(state)
    assert layout.dialog is not None and layout.dialog_height == len(layout.dialog.rows)  # the whole dialog
    assert (layout.height, layout.log_height) == (layout.dialog_height + 2, 0)
    assert len(draw_frame(state, layout).rows) == layout.height
    state, _ = reduce_inputs(state, [LogAppend("tool", f"line {n}") for n in range(20)])
    layout = compute_layout(state)
    assert (layout.height, layout.log_height) == (8, 8 - 2 - layout.dialog_height)
    assert layout.log_height >= 1


def test_layout_never_shows_inserted_rows() -> None:
    """visible_start is at least inserted_until (the viewport lower bound)."""
    state = settled(viewport_height=4)
    state = replace(state, render=replace(state.render, inserted_until=5))
    state, _ = reduce_inputs(state, [LogAppend("text", "a")])
    layout = compute_layout(state)
    assert layout.render.visible_start == 5 and layout.render.wrapped_total == 6


def test_insert_plan_hides_cursor_first_and_never_shows_it() -> None:
    """An inserting plan hides the cursor before the first line feed, one line feed per inserted row."""
    state = settled(viewport_height=4, columns=30, rows=4)
    state, _ = reduce_inputs(state, [LogAppend("text", "\n".join("abcdef"))])
    layout = compute_layout(state)
    plan, projection = plan_terminal_effects(state, layout, draw_frame(state, layout))
    ops = list(plan.ops)
    first_feed = next(i for i, op in enumerate(ops) if isinstance(op, LineFeed))
    assert any(isinstance(op, HideCursor) for op in ops[:first_feed])
    assert not any(isinstance(op, ShowCursor) for op in ops)
    # Line feeds also move the cursor down (ops.MoveBy); an inserting one is followed by its Inserted marker.
    inserting = sum(isinstance(op, LineFeed) and isinstance(after, Inserted) for op, after in itertools.pairwise(ops))
    assert inserting == projection.rows_planned == 4
    assert sum(op.rows for op in ops if isinstance(op, Inserted)) == 4


def test_plans_move_the_cursor_only_relative_to_itself() -> None:
    """No plan contains an absolute cursor position or a scroll region: a frame the terminal reads after a
    resize lands relative to where the terminal carried the cursor (the bytes have no CUP/DECSTBM)."""
    renderer = Renderer.in_memory(30, 8, config=Config(viewport_height=4))
    renderer.feed([LogAppend("text", "\n".join(f"line {i}" for i in range(20)))])
    renderer.feed([Resize(20, 10), LogAppend("user", "x" * 50)])
    data = bytes(renderer.sink.data)
    assert re.search(rb"\x1b\[[0-9;]*[Hfr]", data) is None
    assert b"\x1b[?25l" in data


def test_an_unchanged_frame_writes_nothing() -> None:
    """A tick with nothing to change plans no operation at all (not even synchronized-output markers)."""
    state = settled()
    layout = compute_layout(state)
    plan, _ = plan_terminal_effects(state, layout, draw_frame(state, layout))
    assert plan.ops == ()


def test_streaming_delta_writes_only_the_new_cells() -> None:
    """Appending to the last row plans one small Text op with just the new characters."""
    renderer = Renderer.in_memory(40, 12)
    renderer.feed([LogAppend("text", "", id="s", final=False)])
    renderer.feed([LogDelta("s", "hello")])
    state, _ = reduce_inputs(renderer.state, [LogDelta("s", " world")])
    layout = compute_layout(state)
    plan, _ = plan_terminal_effects(state, layout, draw_frame(state, layout))
    assert [op.text for op in plan.ops if isinstance(op, Text)] == [" world"]
    assert isinstance(plan.ops[-1], EndSync)


def test_backend_reports_partial_writes_by_whole_operations() -> None:
    """A write failing after N bytes reports exactly the operations and inserted rows that fit in N."""
    plan = Plan((LineFeed(), Inserted(1), LineFeed(), Inserted(1), Text("abc", DEFAULT)), fail_after=1)
    written = bytearray()
    result = Vt100Backend(written.extend).write(plan)
    assert (result.complete, result.bytes_written, result.rows_inserted, result.ops_written) == (False, 1, 1, 2)
    assert bytes(written) == b"\n"


def test_stream_sink_reports_written_bytes_on_error() -> None:
    """An OSError from the stream becomes a BackendError carrying the bytes already written."""

    class Broken(io.RawIOBase):
        def write(self, data: object) -> int:
            raise BrokenPipeError("gone")

    with pytest.raises(BackendError) as caught:
        StreamSink(Broken()).write(b"abc")  # type: ignore[arg-type]
    assert caught.value.written == 0


def test_check_invariants_rejects_each_violation() -> None:
    """Every DESIGN invariant has a state that violates it and raises InvariantViolation."""
    ok = RenderState(10, 4, 10, 4)
    check_invariants(ok, ok)
    for bad in (
        replace(ok, inserted_until=5),  # inserted_until > visible_start
        replace(ok, visible_end=11),  # beyond wrapped_total
        replace(ok, inserted_until=3, visible_start=3),  # decreased without log.clear
        replace(ok, sync_phase=SyncPhase.INSERTED_NEEDS_REDRAW),  # cursor must be hidden then
        replace(ok, cursor_phase=CursorPhase.HIDDEN_DURING_SCROLLBACK_INSERT),  # idle with a hidden cursor
    ):
        with pytest.raises(InvariantViolation):
            check_invariants(ok, bad)
    check_invariants(ok, RenderState(0, 0, 0, 0), log_cleared=True)
    with pytest.raises(InvariantViolation):
        check_invariants(RenderState(), replace(RenderState(), confirm_phase=ConfirmPhase.ACTIVE))


def test_initial_state_keeps_the_start_row() -> None:
    """The shell's cursor row is where the first frame will anchor."""
    assert initial_state(Config(), 80, 24, cursor_row=7).screen.start_row == 7


def test_no_color_depth_drops_colours_but_keeps_attributes(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR (prompt_toolkit's 1-bit depth) writes bold but no colour; 4-bit writes the ANSI colour."""
    from inline_render.text.style import Style

    plan = Plan((Text("x", Style(fg="ansired", bold=True)),))
    coloured, plain = bytearray(), bytearray()
    Vt100Backend(coloured.extend, ColorDepth.DEPTH_4_BIT).write(plan)
    monkeypatch.setenv("NO_COLOR", "1")
    Vt100Backend(plain.extend).write(plan)
    assert b"31" in coloured and b"1" in plain
    assert b"31" not in plain and plain.endswith(b"x")


@pytest.mark.parametrize(("columns", "rows"), [(0, 24), (80, 0), (10**6, 24), (80, -1)])
def test_absurd_terminal_sizes_are_invalid_input(columns: int, rows: int) -> None:
    """A renderer refuses a size no terminal has with InvalidInput naming the field, before allocating."""
    with pytest.raises(InvalidInput, match="terminal size"):
        Renderer.in_memory(columns, rows)


def test_a_start_row_below_the_screen_means_the_bottom_row() -> None:
    """A cursor row outside the screen (a stale report) anchors at the bottom instead of failing."""
    assert initial_state(Config(), 80, 24, cursor_row=99).screen.start_row == 23
