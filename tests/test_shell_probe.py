"""The startup probe: what a terminal says about itself decides the resize model and synchronized output."""

from __future__ import annotations

import copy

import pytest

from inline_render import Config, LogAppend, LogDelta, Renderer
from inline_render.shell import AppOptions, TerminalFamily, TerminalInfo, config_for, parse_replies
from inline_render.shell.keys import CursorReport
from inline_render.shell.probe import QUERIES

# Replies recorded from the real terminals (DA2 and XTVERSION; DECRPM where they know it).
REPLIES = {
    TerminalFamily.XTERM: b"\x1bP>|XTerm(379)\x1b\\\x1b[>41;379;0c\x1b[?2026;0$y\x1b[?2027;0$y\x1b[5;1R",
    TerminalFamily.VTE: b"\x1b[>65;7006;1c\x1b[?2026;2$y\x1b[?2027;0$y\x1b[5;1R",
    TerminalFamily.XTERMJS: b"\x1b[>0;276;0c\x1b[?2026;2$y\x1b[5;1R",
    TerminalFamily.TMUX: b"\x1bP>|tmux 3.3a\x1b\\\x1b[>84;0;0c\x1b[5;1R",
    TerminalFamily.SCREEN: b"\x1b[>83;40900;0c\x1b[5;1R",  # GNU screen 4.09: DA2 only, no XTVERSION
}


@pytest.mark.parametrize("family", list(REPLIES))
def test_each_family_is_recognised_from_its_replies(family: TerminalFamily) -> None:
    """DA2/XTVERSION replies name the family; the closing cursor report gives the start row."""
    info, rest, closed = parse_replies(REPLIES[family], env={})
    assert info.family is family
    assert info.cursor == CursorReport(4, 0)
    assert rest == b"" and closed


def test_replies_beat_the_environment() -> None:
    """An xterm started from a tmux shell inherits TMUX: the terminal's own answer wins."""
    info, _, _ = parse_replies(REPLIES[TerminalFamily.XTERM], env={"TMUX": "/tmp/tmux-0/default,1,0"})
    assert info.family is TerminalFamily.XTERM


def test_the_environment_is_the_fallback_when_nothing_answers() -> None:
    """A terminal that answers only the cursor report is known by its environment, else unknown."""
    assert parse_replies(b"\x1b[1;1R", env={"TMUX": "x"})[0].family is TerminalFamily.TMUX
    assert parse_replies(b"\x1b[1;1R", env={"TERM_PROGRAM": "vscode"})[0].family is TerminalFamily.XTERMJS
    assert parse_replies(b"\x1b[1;1R", env={})[0].family is TerminalFamily.SIMPLE
    assert parse_replies(REPLIES[TerminalFamily.SCREEN], env={"TMUX": "x"})[0].family is TerminalFamily.SCREEN


def test_synchronized_output_only_where_the_terminal_knows_the_mode() -> None:
    """DECRPM 1/2 (set/reset) means the mode exists; 0 (unknown) or no answer means it does not."""
    assert parse_replies(REPLIES[TerminalFamily.VTE], env={})[0].synchronized_output is True
    assert parse_replies(REPLIES[TerminalFamily.XTERM], env={})[0].synchronized_output is False
    assert parse_replies(REPLIES[TerminalFamily.TMUX], env={})[0].synchronized_output is None


def test_keys_typed_during_the_probe_are_kept_in_order() -> None:
    """Bytes that are no reply (the user typing while the app starts) are handed back untouched."""
    info, rest, closed = parse_replies(b"ab\x1b[>41;379;0c\x1b[Ac\x1b[3;7R", env={})
    assert rest == b"ab\x1b[Ac" and closed
    assert info.family is TerminalFamily.XTERM and info.cursor == CursorReport(2, 6)


def test_an_unclosed_round_says_so() -> None:
    """Without the cursor report the round is not closed (a timeout ends it)."""
    assert parse_replies(b"\x1b[>41;379;0c", env={})[2] is False


def test_queries_end_with_the_cursor_report() -> None:
    """The cursor report is the last query: its answer closes the round for every terminal."""
    assert QUERIES.endswith(b"\x1b[6n")


def test_config_follows_the_terminal_unless_the_app_decides() -> None:
    """Re-wrapping families (tmux, VTE, xterm.js) and unknown terminals keep committed rows on resize; sync only
    when confirmed; an explicit option wins."""
    tmux = TerminalInfo(family=TerminalFamily.TMUX)
    assert config_for(AppOptions(), tmux).resize_reflow is True
    assert config_for(AppOptions(), TerminalInfo(family=TerminalFamily.XTERM)).resize_reflow is False
    assert config_for(AppOptions(), TerminalInfo(family=TerminalFamily.VTE)).resize_reflow is True
    assert config_for(AppOptions(), TerminalInfo()).resize_reflow is True  # unknown: its kept rows stay kept
    assert config_for(AppOptions(reflow=False), tmux).resize_reflow is False
    assert config_for(AppOptions(), tmux).synchronized_output is False
    assert config_for(AppOptions(), TerminalInfo(synchronized_output=True)).synchronized_output is True
    off = AppOptions(config=Config(synchronized_output=False))
    assert config_for(off, TerminalInfo(synchronized_output=True)).synchronized_output is False


def _visible_cursor_positions(renderer: Renderer, inputs: list[object]) -> set[tuple[int, int]]:
    """Every position at which the cursor is visible while the tick's bytes are read one at a time."""
    terminal = copy.deepcopy(renderer.terminal)  # type: ignore[attr-defined]
    sink = renderer.backend.sink
    before = len(sink.data)  # type: ignore[union-attr]
    renderer.feed(inputs)  # type: ignore[arg-type]
    seen: set[tuple[int, int]] = set()
    for byte in bytes(sink.data[before:]):  # type: ignore[union-attr]
        terminal.feed(bytes([byte]))
        if terminal.cursor.visible:
            seen.add((terminal.cursor.x, terminal.cursor.y))
    return seen


@pytest.mark.parametrize("sync", [False, True])
def test_without_synchronized_output_the_cursor_never_shows_away_from_the_composer(sync: bool) -> None:
    """A streamed token redraws a row above the composer: without mode 2026 the cursor is hidden while it
    moves there and back, so at no byte is it visible anywhere but at the composer."""
    renderer = Renderer.in_memory(40, 12, config=Config(viewport_height=6, synchronized_output=sync))
    renderer.feed([LogAppend("assistant", "", id="a", final=False)])
    composer = (renderer.terminal.cursor.x, renderer.terminal.cursor.y)
    for token in ["Hello", " there", ", streaming", " tokens"]:
        seen = _visible_cursor_positions(renderer, [LogDelta("a", token)])
        if not sync:
            assert seen <= {composer}, seen
    assert renderer.terminal.cursor.visible and (renderer.terminal.cursor.x, renderer.terminal.cursor.y) == composer
