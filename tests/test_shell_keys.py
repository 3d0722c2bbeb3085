"""Key mapping: prompt_toolkit's vt100 parser output to core inputs; cursor reports never become text."""

from __future__ import annotations

from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys

from inline_render import Key, Paste
from inline_render.shell.keys import CursorReport, map_key_presses, parse_cursor_report


def _parse(data: str, *, flush: bool = True) -> list[KeyPress]:
    presses: list[KeyPress] = []
    parser = Vt100Parser(presses.append)
    parser.feed(data)
    if flush:
        parser.flush()
    return presses


def test_text_and_named_keys() -> None:
    """Printable characters are their own key; Enter, Backspace, Tab and arrows get the core's names."""
    items = map_key_presses(_parse("hi\r\x7f\t\x1b[D\x1b[A\x03\x04"))
    assert items == [Key("h"), Key("i"), Key("enter"), Key("backspace"), Key("tab"), Key("left"), Key("up"),
                     Key("c-c"), Key("c-d")]  # fmt: skip


def test_a_lone_escape_is_the_escape_key() -> None:
    """An ESC alone (flushed after the timeout) is the Esc key."""
    assert map_key_presses(_parse("\x1b")) == [Key("escape")]


def test_escape_before_a_key_in_one_read_is_a_meta_chord() -> None:
    """Terminals send Alt-b as ESC b and Alt-Enter as ESC CR: one chord each."""
    assert map_key_presses(_parse("\x1bb")) == [Key("m-b")]
    assert map_key_presses(_parse("\x1b\r")) == [Key("m-enter")]
    assert map_key_presses(_parse("\x1b\x1b")) == [Key("escape"), Key("escape")]


def test_bracketed_paste_is_one_paste() -> None:
    """A bracketed paste arrives whole, newlines and escapes inside it included."""
    items = map_key_presses(_parse("\x1b[200~line one\nline \x1b[31mtwo\x1b[201~x"))
    assert items == [Paste("line one\nline \x1b[31mtwo"), Key("x")]


def test_pasted_carriage_returns_are_line_breaks() -> None:
    """A paste whose lines end in CR (as terminals send them) keeps its line breaks."""
    assert map_key_presses(_parse("\x1b[200~one\rtwo\r\nthree\x1b[201~")) == [Paste("one\ntwo\nthree")]


def test_cursor_position_reports_are_pulled_out_of_the_key_stream() -> None:
    """ESC[12;5R between typed keys is a report (0-based), never composer text."""
    items = map_key_presses(_parse("a\x1b[12;5Rb"))
    assert items == [Key("a"), CursorReport(11, 4), Key("b")]
    assert not any(isinstance(item, Key) and item.key in "R;12" for item in items)


def test_mouse_and_internal_keys_are_dropped() -> None:
    """Mouse events and prompt_toolkit internals do not reach the core."""
    items = map_key_presses([KeyPress(Keys.Vt100MouseEvent, "\x1b[M ab"), KeyPress(Keys.Ignore, ""), KeyPress("z")])
    assert items == [Key("z")]


def test_parse_cursor_report_rejects_malformed_replies() -> None:
    """Only ESC[row;colR with positive numbers is a report."""
    assert parse_cursor_report("\x1b[3;7R") == CursorReport(2, 6)
    assert parse_cursor_report("\x1b[0;7R") is None
    assert parse_cursor_report("\x1b[;R") is None
