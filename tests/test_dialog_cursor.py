"""No visible cursor says the keys go where they do not: hidden while a dialog without a text field has them."""

from __future__ import annotations

import pytest

from inline_render import Config, Key, LogAppend, LogDelta, Renderer, Resize
from inline_render.core.state import CursorPhase
from inline_render.inputs import ConfirmRequest, PickOption, PickRequest, PromptRequest
from inline_render.terminals.memory import TerminalFamily, TestTerminal
from inline_render.testing import CheckedRenderer


def _cursor(terminal: TestTerminal) -> tuple[int, int, bool]:
    return terminal.cursor.x, terminal.cursor.y, terminal.cursor.visible


@pytest.mark.parametrize("synchronized", [False, True])
def test_a_confirm_dialog_hides_the_cursor_until_it_is_answered(synchronized: bool) -> None:
    """While a confirm is open no cursor shows (in the composer it would say the keys go there); answered, the
    cursor is shown again at the composer, where it was before the dialog, and streaming meanwhile keeps it hidden."""
    renderer = Renderer.in_memory(40, 12, config=Config(synchronized_output=synchronized))
    renderer.feed([LogAppend("user", "hi"), LogAppend("assistant", "", id="a", final=False)])
    x, y, visible = _cursor(renderer.terminal)
    assert visible
    renderer.feed([ConfirmRequest("c1", "Run tool?")])
    # Parked at the composer, which the dialog moved down (it made the compact viewport taller).
    at_x, at_y, shown = _cursor(renderer.terminal)
    assert (at_x, shown) == (x, False) and at_y > y, renderer.terminal.dump()
    assert renderer.terminal.screen_lines()[at_y].startswith("\u203a"), renderer.terminal.dump()
    assert renderer.state.render.cursor_phase is CursorPhase.HIDDEN_AT_DIALOG
    for token in ("Streaming", " while", " asked."):
        renderer.feed([LogDelta("a", token)])
        assert not renderer.terminal.cursor.visible, renderer.terminal.dump()
    renderer.feed([Key("n")])
    assert _cursor(renderer.terminal) == (x, y, True)  # the dialog's rows are gone: the viewport is as it was
    assert renderer.state.render.cursor_phase is CursorPhase.VISIBLE_AT_COMPOSER


def test_a_pick_dialog_hides_the_cursor_and_a_resize_keeps_it_hidden() -> None:
    """A pick dialog has the keys without a text field: the cursor stays hidden while options move and the
    terminal resizes, and shows again once an option is chosen."""
    renderer = Renderer.in_memory(40, 12)
    options = tuple(PickOption(name, name) for name in ("alpha", "beta", "gamma"))
    renderer.feed([PickRequest("p1", "Pick one", options)])
    assert not renderer.terminal.cursor.visible
    renderer.feed([Key("down")])
    assert not renderer.terminal.cursor.visible
    renderer.feed([Resize(30, 10, cursor_row=renderer.terminal.cursor.y)])
    assert not renderer.terminal.cursor.visible
    renderer.feed([Key("enter")])
    assert renderer.terminal.cursor.visible


def test_a_prompt_dialog_shows_the_cursor_in_its_field() -> None:
    """A prompt's text field has the keys and the cursor, visible, after what was typed."""
    renderer = Renderer.in_memory(40, 12)
    renderer.feed([PromptRequest("q1", "Your name?")])  # keys in the tick that opens it were typed unseen
    renderer.feed([Key("A"), Key("d"), Key("a")])
    x, y, visible = _cursor(renderer.terminal)
    assert visible and renderer.terminal.screen_lines()[y][:x].endswith("Ada"), renderer.terminal.dump()


@pytest.mark.parametrize("family", [TerminalFamily.SIMPLE, TerminalFamily.VTE])
def test_the_checker_fails_a_cursor_shown_while_a_confirm_has_the_keys(family: TerminalFamily) -> None:
    """The checker reads the dialog itself: a cursor the library showed in the composer while a confirm is open
    fails it (here the ``\\e[?25h`` is written behind the library's back)."""
    checked = CheckedRenderer(40, 12, family=family)
    checked.feed([LogAppend("user", "hi"), ConfirmRequest("c1", "Run tool?")])
    checked.feed([])
    checked.terminal.feed(b"\x1b[?25h")
    if checked.pyte is not None:
        checked.pyte.feed(b"\x1b[?25h")
    with pytest.raises(AssertionError, match=r"cursor visible .*(hidden_at_dialog|while a dialog)"):
        checked.feed([LogAppend("assistant", "more")])


def test_a_denial_reason_field_has_the_cursor_after_what_was_typed() -> None:
    """A confirm denied with a reason: the reason's field has the keys, so the cursor shows there, after the text."""
    renderer = Renderer.in_memory(40, 12)
    renderer.feed([ConfirmRequest("c1", "Run tool?", allow_reason=True)])
    renderer.feed([Key("n")])
    renderer.feed([Key("n"), Key("o")])
    x, y, visible = _cursor(renderer.terminal)
    assert visible and renderer.terminal.screen_lines()[y][:x] == "> no", renderer.terminal.dump()
