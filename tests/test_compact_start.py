"""A compact viewport (``Config.compact``, issue 32 item 8): the status line and the composer start right under the
shell's prompt, and the viewport grows with what it shows, up to ``viewport_height``, and shrinks back."""

from __future__ import annotations

from inline_render import Config, Key, LogAppend, LogClear, Paste, Renderer, Status
from inline_render.core.record import scenario_header
from inline_render.inputs import ConfirmRequest
from inline_render.scenario import parse_scenario
from inline_render.terminals.memory import TerminalFamily
from inline_render.testing import CheckedRenderer

SHELL = ["user@host:~/project$ python agent.py", "agent 1.0", "loading tools ... done"]


def _after_shell(rows: int = 24, config: Config | None = None) -> Renderer:
    """A renderer started where a shell left the cursor: under three lines of its output, at row 3."""
    renderer = Renderer.in_memory(80, rows, config=config, cursor_row=len(SHELL))
    renderer.terminal.feed(("\x1b[H" + "\r\n".join(SHELL) + "\r\n").encode())
    return renderer


def _checked(rows: int = 24, config: Config | None = None) -> CheckedRenderer:
    """A checked renderer whose viewport starts on row 3 of a blank screen (the checker owns every row)."""
    return CheckedRenderer(80, rows, config=config, cursor_row=len(SHELL))


def _composer_row(checked: CheckedRenderer | Renderer) -> int:
    """The screen row of the composer's prompt (the last row that starts with it)."""
    screen = checked.terminal.screen_lines()
    return max(y for y, line in enumerate(screen) if line.startswith("\u203a") and not line.startswith("\u203a hi"))


def test_the_first_frame_puts_the_status_line_and_the_composer_right_under_the_shell_output() -> None:
    """Nothing is reserved: the status line is the row under the shell's last line, the composer the next, and every
    row under it stays blank (a fixed viewport put 10 blank rows between them)."""
    checked = _after_shell()
    checked.feed([Status("ready")])
    screen = checked.terminal.screen_lines()
    assert screen[:5] == [*SHELL, "ready", "\u203a"], checked.terminal.dump()
    assert not any(screen[5:]), checked.terminal.dump()
    assert checked.terminal.cursor.y == 4


def test_without_compact_the_viewport_reserves_its_rows_from_the_start() -> None:
    """``Config(compact=False)`` keeps the fixed viewport: the composer is ``viewport_height`` rows under the shell."""
    checked = _after_shell(config=Config(compact=False))
    checked.feed([Status("ready")])
    screen = checked.terminal.screen_lines()
    assert screen[:3] == SHELL and screen[13:15] == ["ready", "\u203a"], checked.terminal.dump()
    assert not any(screen[3:13])


def test_the_viewport_grows_a_row_per_line_then_inserts_into_history_at_its_full_height() -> None:
    """Each logged line makes the viewport a row taller (the composer moves down) until it is ``viewport_height``
    rows; from there lines go into history above it; the shell's lines and every logged line are shown once."""
    checked = _checked(rows=16)
    checked.feed([Status("ready")])
    rows = []
    for number in range(1, 21):
        checked.feed([LogAppend("tool", f"line {number}")])
        rows.append(_composer_row(checked))
    # From row 3: the log tail, the status line, the composer, a row taller per line up to 12 rows (ten lines);
    # then each line enters history through its top and the viewport moves down to the screen's last row.
    assert rows[:10] == [4 + number for number in range(1, 11)], rows
    assert rows[10:] == [15] * 10, rows
    everything = checked.terminal.scrollback + checked.terminal.screen_lines()
    for line in (f"\u2699 line {n}" for n in range(1, 21)):
        assert everything.count(line) == 1, (line, everything)


def test_a_batch_of_lines_grows_the_viewport_once_and_inserts_the_rest() -> None:
    """Thirty lines in one tick: the viewport is ``viewport_height`` rows at once, the older lines in order above it."""
    checked = _checked()
    checked.feed([Status("ready")])
    checked.feed([LogAppend("tool", f"line {number}") for number in range(1, 31)])
    screen = checked.terminal.screen_lines()
    # From row 3, 30 lines and the status and composer rows are 35 rows: the screen scrolled 11 into history.
    assert screen[10] == "\u2699 line 19" and screen[22:] == ["ready", "\u203a"], screen
    assert checked.terminal.scrollback[3:] == [f"\u2699 line {n}" for n in range(1, 9)]
    everything = checked.terminal.scrollback + screen
    shown = [line for line in everything if line.startswith("\u2699 line ")]
    assert shown == [f"\u2699 line {n}" for n in range(1, 31)], everything


def test_a_dialog_grows_the_viewport_and_answered_leaves_no_row_behind() -> None:
    """A confirm at start makes the viewport as tall as the dialog; answered, it shrinks back to the status line and
    the composer, with nothing of the dialog left on any row."""
    checked = _after_shell()
    checked.feed([Status("ready")])
    checked.feed([ConfirmRequest("c1", "Run tool?", message="rm -rf build")])
    screen = checked.terminal.screen_lines()
    assert "? Run tool?" in screen[3], checked.terminal.dump()
    assert any("rm -rf build" in line for line in screen), checked.terminal.dump()
    checked.feed([Key("n")])
    screen = checked.terminal.screen_lines()
    assert screen[3:5] == ["ready", "\u203a"], checked.terminal.dump()
    assert not any(screen[5:]), checked.terminal.dump()


def test_a_clear_shrinks_the_viewport_back_and_keeps_what_was_shown() -> None:
    """``/clear`` (``LogClear``): the lines the tail showed go into history, the viewport is two rows again."""
    checked = _checked()
    checked.feed([Status("ready")])
    checked.feed([LogAppend("tool", f"line {number}") for number in range(1, 6)])
    checked.feed([LogClear()])
    checked.feed([])
    screen = checked.terminal.screen_lines()
    composer = _composer_row(checked)
    assert screen[composer - 1] == "ready" and not any(screen[composer + 1 :]), checked.terminal.dump()
    everything = checked.terminal.scrollback + screen
    assert [line for line in everything if line.startswith("\u2699")] == [f"\u2699 line {n}" for n in range(1, 6)]


def test_the_composer_grows_the_viewport_with_its_text() -> None:
    """A pasted text of four lines makes the composer, and the viewport, four rows; sent, it is one row again."""
    checked = _checked(config=Config(log_submit=True))
    checked.feed([Status("ready")])
    checked.feed([Paste("hi one\ntwo\nthree\nfour")])
    screen = checked.terminal.screen_lines()
    assert screen[3:8] == ["ready", "\u203a hi one", "  two", "  three", "  four"], checked.terminal.dump()
    checked.feed([Key("enter")])
    checked.feed([])
    everything = checked.terminal.scrollback + checked.terminal.screen_lines()
    assert everything.count("\u203a hi one") == 1 and everything.count("  four") == 1, everything


def test_the_viewport_grows_at_the_screen_bottom_by_scrolling_the_screen() -> None:
    """Started on the screen's last row, each new row scrolls the screen: every line reaches history whole, once and
    in order (on every family model, checked by ``CheckedRenderer``)."""
    for family in (TerminalFamily.SIMPLE, TerminalFamily.XTERM, TerminalFamily.TMUX, TerminalFamily.VTE):
        checked = CheckedRenderer(40, 8, cursor_row=7, family=family)
        if family is not TerminalFamily.SIMPLE:
            checked.terminal.feed(b"\r\n" * 7)  # a family model starts at the home position: the shell's rows
        checked.feed([Status("ready")])
        for number in range(1, 10):
            checked.feed([LogAppend("tool", f"line {number}")])
        everything = checked.terminal.scrollback + checked.terminal.screen_lines()
        for line in (f"\u2699 line {n}" for n in range(1, 10)):
            assert everything.count(line) == 1, (family, line, everything)


def test_a_scenario_header_states_compact_and_one_without_it_replays_as_recorded() -> None:
    """A recorded header names ``compact`` when it is on; a file without it (recorded before it existed) loads with
    ``compact=False``, the fixed viewport it was recorded with, so it replays byte for byte."""
    assert scenario_header("s", 80, 24, 0, Config())["config"] == {"compact": True}
    assert scenario_header("s", 80, 24, 0, Config(compact=False, viewport_height=5))["config"] == {"viewport_height": 5}
    old = '{"format": "inline-render-scenario", "version": 1, "terminal": {"columns": 80, "rows": 24}, "config": {}}\n'
    assert parse_scenario(old).config.compact is False
    new = old.replace('"config": {}', '"config": {"compact": true}')
    assert parse_scenario(new).config.compact is True
