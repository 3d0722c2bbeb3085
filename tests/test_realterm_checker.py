"""The real-terminal rig's own logic: the checker finds every kind of damage, storms are what issue 9 asks."""

from __future__ import annotations

import itertools
import re

from realterm.app import chunks, entries, rendered_lines
from realterm.checker import ID, StaleCells, TerminalText, check, join_wrapped, without_stale_tail
from realterm.lines import line_id, markdown_session, preamble_lines, storm_lines
from realterm.storm import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, make_storm

from inline_render.text.cells import text_width

LINES = (
    "P001 shell output",
    "L0001 alpha bravo",
    "L0002 charlie delta echo foxtrot golf hotel",
    "L0003 漢字表示端末履歴",
    "L0004 india",
)


def text(*rows: str, wrapped: tuple[bool, ...] | None = None) -> TerminalText:
    return TerminalText(rows, wrapped)


def test_every_line_once_in_order_is_ok() -> None:
    """The lines as written, wrapped by word or cell, with blank rows around, are found once each: ok."""
    verdict = check(
        text("", "P001 shell output", "L0001 alpha bravo", "L0002 charlie delta", "echo foxtrot golf", "hotel", "L0003",
             "漢字表示", "端末履歴", "L0004 india", ""),
        LINES,
    )  # fmt: skip
    assert verdict.ok and verdict.found == 5 and not verdict.ghosts, verdict


def test_a_missing_line_is_reported() -> None:
    """A line that is not in the text at all is missing, and the run is not ok."""
    verdict = check(text("P001 shell output", "L0001 alpha bravo", "L0003 漢字表示端末履歴", "L0004 india"), LINES)
    assert verdict.missing == ("L0002",) and verdict.cut == () and not verdict.ok


def test_a_duplicated_line_is_reported() -> None:
    """A line found whole twice is duplicated, and the run is not ok."""
    rows = ("P001 shell output", "L0001 alpha bravo", "L0001 alpha", "bravo", *LINES[2:])
    verdict = check(text(*rows), LINES)
    assert verdict.duplicated == ("L0001",) and verdict.missing == () and not verdict.ok


def test_a_line_whose_tail_was_erased_is_cut_and_missing() -> None:
    """A row holding only the start of a line (its last cell erased) is a missing line, counted as cut."""
    rows = ("P001 shell output", "L0001 alpha brav", *LINES[2:])
    verdict = check(text(*rows), LINES)
    assert verdict.missing == ("L0001",) and verdict.cut == ("L0001",) and not verdict.ok


def test_a_lost_continuation_row_is_a_cut_line() -> None:
    """A wrapped line missing its middle row is cut; its orphaned last row is a ghost."""
    rows = ("P001 shell output", "L0001 alpha bravo", "L0002 charlie delta", "hotel", *LINES[3:])
    verdict = check(text(*rows), LINES)
    assert verdict.cut == ("L0002",) and verdict.ghosts == ("hotel",)


def test_lines_out_of_order_are_reported() -> None:
    """Lines present once each but swapped are out of order (one of the pair), and the run is not ok."""
    rows = ("P001 shell output", "L0002 charlie delta echo foxtrot golf hotel", "L0001 alpha bravo", *LINES[3:])
    verdict = check(text(*rows), LINES)
    assert len(verdict.out_of_order) == 1 and verdict.out_of_order[0] in {"L0001", "L0002"} and not verdict.ok


def test_leftover_viewport_rows_are_ghosts_not_failures() -> None:
    """A partial copy of a line found whole, a status and a composer row are ghosts; the lines are still ok."""
    rows = ("P001 shell output", "L0001 alpha", "working", "› Type a message", "L0001 alpha bravo", *LINES[2:])
    verdict = check(text(*rows), LINES)
    assert verdict.ok and set(verdict.ghosts) == {"L0001 alpha", "working", "› Type a message"}


def test_a_row_with_an_id_but_other_text_is_a_ghost() -> None:
    """A row that starts with a line's id and then says something else is not that line."""
    rows = ("P001 shell output", "L0001 alpha zzz", *LINES[1:])
    verdict = check(text(*rows), LINES)
    assert verdict.ok and verdict.ghosts == ("L0001 alpha zzz",)


def test_soft_wrapped_rows_are_joined_before_judging() -> None:
    """Rows the terminal marks as soft-wrapped continue the row before, so a wrapped ghost counts once."""
    rows = ("P001 shell output", "L0001 alpha bravo", "ghost ro", "w here", *LINES[2:])
    wrapped = (False, False, False, True, False, False, False)
    assert join_wrapped(text(*rows, wrapped=wrapped))[2] == "ghost row here"
    assert check(text(*rows, wrapped=wrapped), LINES).ghosts == ("ghost row here",)


def test_storms_follow_the_issue() -> None:
    """A storm: 8 resizes 0.2-0.6 s apart, sizes in range, a growth of 8+ rows, the stream outlasts it."""
    for seed in range(40):
        storm = make_storm(seed)
        assert storm == make_storm(seed)
        times = [0.3] + [step.at for step in storm.resizes]
        assert len(storm.resizes) == 8
        assert all(0.2 <= round(b - a, 3) <= 0.6 for a, b in itertools.pairwise(times))
        assert all(MIN_COLUMNS <= s.columns <= MAX_COLUMNS and MIN_ROWS <= s.rows <= MAX_ROWS for s in storm.resizes)
        heights = [s.rows for s in storm.resizes]
        assert any(b >= a + 8 for a, b in itertools.pairwise(heights)), storm.describe()
        assert storm.duration > storm.resizes[-1].at
        assert make_storm(seed, resize=False).resizes == ()


def test_lines_are_deterministic_and_varied() -> None:
    """The same seed gives the same lines; every shape occurs, exact lines are exactly the width."""
    lines = storm_lines(3, 200, 57)
    assert lines == storm_lines(3, 200, 57) and lines != storm_lines(4, 200, 57)
    assert all(line.startswith(line_id(n)) for n, line in enumerate(lines, 1))
    assert any(text_width(line) == 57 for line in lines) and any(text_width(line) > 2 * 57 for line in lines)
    assert any("漢" in line or "字" in line for line in lines)
    assert any(any(emoji in line for emoji in "🙂🚀🌟🍀🔥🎉") for line in lines)
    assert preamble_lines(2) == ("P001 shell output before the app started", "P002 shell output before the app started")


def test_the_stream_carries_every_line_in_small_deltas() -> None:
    """Entries joined and deltas concatenated give back exactly the lines, deltas 2-7 characters."""
    lines = storm_lines(5, 80, 70)
    groups = entries(5, lines)
    assert "\n".join(groups).split("\n") == list(lines)
    for index, group in enumerate(groups):
        parts = chunks(5 + index, group)
        assert "".join(parts) == group and all(1 <= len(part) <= 7 for part in parts)
        assert all(len(part) >= 2 for part in parts[:-1])


def test_rows_cut_by_a_narrowing_terminal_are_truncated_not_missing() -> None:
    """Truncating mode (xterm): a line whose rows were each cut short is found, counted as truncated."""
    rows = ("P001 shell", "L0001 alpha bravo", "L0002 charlie del", "echo foxtrot", "hotel", *LINES[3:])
    verdict = check(text(*rows), LINES, truncating=True)
    assert verdict.ok and verdict.truncated == ("P001", "L0002") and not verdict.ghosts, verdict
    strict = check(text(*rows), LINES)
    assert strict.missing == ("P001", "L0002") and not strict.ok


def test_truncating_mode_still_finds_losses_and_duplicates() -> None:
    """Truncating mode does not excuse a line that is gone, rows that are not the line's, or a second whole copy."""
    rows = ("P001 shell output", "L0001 alpha bravo", "L0001 alpha bravo", "L0003 漢字表示XX", "L0004 india")
    verdict = check(text(*rows), LINES, truncating=True)
    assert verdict.missing == ("L0002", "L0003") and verdict.duplicated == ("L0001",) and not verdict.ok
    assert verdict.ghosts == ("L0003 漢字表示XX",)


def test_the_cursor_gap_says_where_the_cursor_was_left() -> None:
    """The cursor right below the last line is gap 0; two rows lower is +2; an unknown cursor is None."""
    rows = (*LINES, "", "", "")
    assert check(TerminalText(rows, None, (0, 5)), LINES).cursor_gap == 0
    assert check(TerminalText(rows, None, (0, 7)), LINES).cursor_gap == 2
    assert check(TerminalText(rows), LINES).cursor_gap is None


# xterm showed: a row of L0002 written full at width 19 ("L0002 charlie delta"), then stale cells of
# the hidden band 19..20 ("xy"); a short row followed by a hidden band cell after one blank; a row with
# a print-immediate tail past a saved line's storage, two blanks at column 30 and beyond.
STALE = StaleCells.of_widths([19, 25, 40])


def test_stale_cells_on_hidden_columns_are_dropped_and_counted() -> None:
    """Stale mode (xterm): a tail on a hidden column, or after two blanks past the narrowest width, is not text."""
    rows = ("P001 shell output", "L0001 alpha bravo", "L0002 charlie deltaxy", "echo foxtrot golf" + " " * 8 + "e",
            "hotel" + " " * 29 + "\ufffdA", "L0003 漢字表示端末履歴", "L0004 india")  # fmt: skip
    verdict = check(text(*rows), LINES, stale=STALE)
    assert verdict.ok and verdict.found == 5 and not verdict.ghosts, verdict
    assert verdict.stale == rows[2:5], verdict
    strict = check(text(*rows), LINES)
    assert strict.missing == ("L0002",) and not strict.stale


def test_a_stale_cell_that_is_the_lines_next_letter_does_not_end_the_line() -> None:
    """A stale tail whose cell happens to be the line's next letter is read both ways: the line is whole, no ghost."""
    # xterm, seed 1: "golf" + a stale "h" on a hidden column reads as the start of the next row's "hotel".
    rows = ("P001 shell output", "L0001 alpha bravo", "L0002 charlie delta", "echo foxtrot golf  h", "hotel",
            "L0003 漢字表示端末履歴", "L0004 india")  # fmt: skip
    for truncating in (False, True):
        verdict = check(text(*rows), LINES, stale=STALE, truncating=truncating)
        assert verdict.ok and verdict.found == 5 and not verdict.ghosts and not verdict.truncated, verdict
        assert verdict.stale == (rows[3],), verdict
    assert check(text(*rows), LINES).missing == ("L0002",)


def test_a_rule_followed_by_stale_cells_is_decoration_but_text_after_a_rule_is_a_ghost() -> None:
    """A code block's rule with a stale tail is a rule (counted stale); a rule with a tail off the hidden columns
    is a ghost, and without stale mode the tail always is."""
    rule = "  " + "\u254c" * 17
    rows = (*LINES[:2], rule + "  \ufffd\ufffd", *LINES[2:])
    verdict = check(text(*rows), LINES, stale=STALE)
    assert verdict.ok and not verdict.ghosts and verdict.stale == (rows[2],), verdict
    assert check(text(*rows), LINES).ghosts == (rows[2],)
    damaged = (*LINES[:2], "\u254c" * 3 + " q", *LINES[2:])
    assert check(text(*damaged), LINES, stale=STALE).ghosts == (damaged[2],)


def test_stale_mode_does_not_excuse_a_tail_off_the_hidden_columns() -> None:
    """A tail after one blank on a column no narrowing hid, or garbage before the narrowest width, is still damage."""
    for damaged in ("L0002 charlie delta", "echo foxtrot q", "hotel"), ("L0002 charlie delta", "echo  zz", "hotel"):
        verdict = check(text(*LINES[:2], *damaged, *LINES[3:]), LINES, stale=STALE)
        assert "L0002" in verdict.missing and not verdict.ok, (damaged, verdict)


def test_stale_tails_are_cut_at_cells_not_characters() -> None:
    """The hidden columns are counted in cells: a wide character before a tail moves it two columns."""
    assert without_stale_tail("漢字表示端末履歴漢xy", STALE) == ("漢字表示端末履歴漢x",)
    assert without_stale_tail("L0002 charlie delta", STALE) == ()


MARKDOWN = ("› L0001 a question", "▸ - L0002 an item long enough to wrap", "     ◦ L0003 nested", "  ╎ L0004 quoted")


def test_markdown_lines_are_found_behind_their_markers() -> None:
    """A list marker, a number, a quote bar or the indent in front of the id is part of the line: found whole."""
    verdict = check(
        text("› L0001 a question", "▸ - L0002 an item long", "    enough to wrap", "     ◦ L0003 nested", "",
             "  ╎ L0004 quoted"),
        MARKDOWN,
    )  # fmt: skip
    assert verdict.ok and verdict.found == 4 and not verdict.ghosts, verdict


def test_a_repeated_markdown_item_or_a_lost_continuation_is_reported() -> None:
    """An item shown twice is duplicated; an item whose wrapped row is gone is cut: the markers excuse neither."""
    twice = check(text(*MARKDOWN[:3], "▸ - L0002 an item long enough to wrap", MARKDOWN[3]), MARKDOWN)
    assert twice.duplicated == ("L0002",) and not twice.ok, twice
    cut = check(text(MARKDOWN[0], "▸ - L0002 an item long", *MARKDOWN[2:]), MARKDOWN)
    assert cut.missing == ("L0002",) and cut.cut == ("L0002",), cut


def test_a_table_rule_is_not_a_ghost_but_a_stray_row_is() -> None:
    """A row of box-drawing characters only (a table's rule) is decoration; any other row without an id is a ghost."""
    lines = ("  L0001 name ╎ value", "  L0002 a    ╎ 1")
    verdict = check(text(lines[0], "  ╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌", lines[1]), lines)
    assert verdict.ok and not verdict.ghosts, verdict
    stray = check(text(lines[0], "  ╌╌╌ a", lines[1]), lines)
    assert stray.ghosts == ("  ╌╌╌ a",), stray


def test_the_markdown_chat_renders_every_id_once_in_order() -> None:
    """The Markdown chat's expected lines: one per id, in order, each with the blocks users stream around it."""
    session = markdown_session(3, 80)
    lines = rendered_lines(session)
    ids = [ID.match(line).group(1) for line in lines]  # type: ignore[union-attr]
    assert ids == [line_id(number) for number in range(1, len(ids) + 1)] and len(ids) >= 80
    kinds = {kind for kind, _ in session}
    assert kinds == {"user", "assistant", "dialog"}
    shown = "\n".join(lines)
    for mark in ("◦", "╎", "1. ", "= "):  # nested list, table or quote, numbered list, code
        assert mark in shown, mark


def test_the_apps_own_rows_are_neither_lines_nor_ghosts_but_others_still_are() -> None:
    """``own``: a row of the app's own (the demo's ready line) is not a ghost; a stray row still is."""
    own = re.compile(r"\s*ready")
    verdict = check(text("  ready", "L0001 alpha", "stray"), ("L0001 alpha",), own=own)
    assert verdict.ok and verdict.ghosts == ("stray",), verdict
