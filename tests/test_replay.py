"""The replay of frames in flight (``inline_render.core.inflight``) and the log's second insertion of text it
found garbled (``LogState.reinsert``)."""

from __future__ import annotations

import copy

from inline_render.core.app import FrameRecord
from inline_render.core.inflight import clamped, replay_frames
from inline_render.core.log import LogState, continues_line, log_rows
from inline_render.core.ops import LineFeed, MoveBy, Text
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import DEFAULT, Segment

POLICY = WidthPolicy.CODEPOINT


def _frame(ops: tuple[object, ...], rows: int = 12, top: int = 0, cursor: int = 11) -> FrameRecord:
    drawn = tuple((Segment(f"row {index}", DEFAULT),) for index in range(12))
    return FrameRecord(top, drawn, 20, rows, (cursor, 0), ops, ())  # type: ignore[arg-type]


def test_a_move_up_past_the_top_of_the_met_screen_is_a_clamp() -> None:
    """A frame that moves up 11 rows from the bottom of a screen shrunk to 8 rows clamps; to 12 it does not."""
    frame = _frame((MoveBy(-11, 0), Text("x", DEFAULT)))
    assert clamped([frame], 8)
    assert not clamped([frame], 12)
    assert not clamped([_frame((MoveBy(-3, 0), Text("x", DEFAULT)))], 8)


def test_line_feeds_at_the_bottom_keep_the_row_for_the_next_move() -> None:
    """Line feeds stop at the bottom row of the met screen, so a later move up counts from there."""
    frame = _frame((MoveBy(-2, 0), LineFeed(), LineFeed(), LineFeed(), MoveBy(-7, 0)))
    assert not clamped([frame], 8)  # from row 7: up to 5, down to 7 (the bottom), up to 0
    assert clamped([_frame((MoveBy(-2, 0), LineFeed(), LineFeed(), MoveBy(-8, 0)))], 8)


def test_the_replay_shows_a_clamped_write_landing_below_where_it_was_planned() -> None:
    """Rows above the shrunk screen go to history; a write planned 11 rows up lands on the top row."""
    frame = _frame((MoveBy(-11, 0), Text("new", DEFAULT)), rows=12)
    replayed = replay_frames([frame], (20, 8), (20, 8), POLICY)
    assert replayed is not None
    assert replayed.history == ("row 0", "row 1", "row 2", "row 3")  # pushed by the shrink, in order
    assert replayed.screen[0] == "new 4"  # "new" written over "row 4", not over "row 0"
    assert replayed.cursor == (0, 3)


def test_the_replay_leaves_out_the_rows_above_the_viewport() -> None:
    """Rows above the viewport before the frames (committed text) are not among the rows pushed."""
    frame = FrameRecord(
        3, tuple((Segment(f"v{index}", DEFAULT),) for index in range(5)), 20, 10, (7, 0), (LineFeed(),), ()
    )
    replayed = replay_frames([frame], (20, 4), (20, 4), POLICY)
    assert replayed is not None
    assert replayed.history == ("v0", "v1")  # the shrink pushed the 3 rows above and v0, the line feed v1
    assert replayed.screen[:3] == ("v2", "v3", "v4")


def test_a_narrowing_is_not_replayed() -> None:
    """The model is asked only for a shrink that kept or widened the width."""
    assert replay_frames([_frame((MoveBy(-11, 0),))], (10, 8), (10, 8), POLICY) is None


def _rows(log: LogState, width: int = 20) -> list[tuple[str, int, int]]:
    pending, _ = log_rows(log, width, POLICY)
    return [(row.entry.piece(row.start, row.end), row.start, row.end) for row in pending]


def test_reinserted_rows_come_first_and_whole_from_their_line_start() -> None:
    """Rows queued again are pending before the entries, from the start of their line, cut where they ended."""
    log = LogState().append("text", "alpha bravo charlie delta echo\nfoxtrot\n", final=False)
    first = log_rows(log, 12, POLICY)[0]
    inserted = (first[1], first[2])  # the 2nd and 3rd rows of the first line, inserted once
    log = log.advance((first[0], *inserted))
    again = log.reinsert(inserted)
    texts = [text for text, _, _ in _rows(again, 12)]
    line = [row.entry.piece(row.start, row.end) for row in first[:3]]
    assert texts[:3] == line  # the line from its start, up to where the rows inserted ended
    assert texts[3:] == [text for text, _, _ in _rows(log, 12)]  # then the pending rows as before


def test_advance_consumes_reinserted_rows_first_and_resumes_a_piece() -> None:
    """Inserting some of the queued rows leaves the rest queued; inserting all of them empties the queue."""
    log = LogState().append("text", "one two three four five six\n", final=True)
    rows = log_rows(log, 8, POLICY)[0]
    done = log.advance(tuple(rows))
    again = done.reinsert(tuple(rows))
    pending = log_rows(again, 8, POLICY)[0]
    assert [row.entry.piece(row.start, row.end) for row in pending] == [
        row.entry.piece(row.start, row.end) for row in rows
    ]
    part = again.advance(tuple(pending[:2]))
    assert len(part.again) == 1 and len(log_rows(part, 8, POLICY)[0]) == len(rows) - 2
    assert part.advance(tuple(log_rows(part, 8, POLICY)[0])).again == ()


def test_rows_of_two_versions_of_a_streaming_entry_make_one_piece() -> None:
    """A delta's newer version continuing a queued piece extends it: the line is not queued twice."""
    log = LogState().append("text", "alpha bravo charlie ", entry_id="e", final=False)
    early = log_rows(log, 12, POLICY)[0]
    log = log.delta(0, "delta echo\n")
    late = log_rows(log, 12, POLICY)[0]
    again = LogState().reinsert((early[0], late[1], late[2]))
    assert len(again.again) == 1
    assert again.again[0].entry is late[2].entry and again.again[0].start == 0


def test_a_line_continued_by_a_version_that_dropped_the_lines_before_it_is_one_line() -> None:
    """Rows of a long streamed entry inserted up to the middle of a line, then a delta: the newer version dropped the
    inserted lines before that line (its offsets start later), and its first row still continues the line."""
    body = "".join(f"line {number:04d} {'a' * 20}\n" for number in range(200))
    log = LogState().append("text", "", entry_id="e", final=False).delta(0, body + f"long {'b' * 200}\n")
    pending, _ = log_rows(log, 40, POLICY)
    inserted = tuple(pending[:202])  # the 200 short lines, then the long line's first two rows
    log = log.advance(inserted).delta(0, "more\n")
    later = log_rows(log, 40, POLICY)[0]
    assert later[0].entry.base > inserted[-1].entry.base  # the inserted text before the long line was dropped
    assert continues_line(inserted[-1], later[0])
    assert not continues_line(inserted[-3], later[0])  # the last short line's row: another line


def test_a_new_entry_reusing_a_finished_ones_id_is_not_merged_into_its_piece() -> None:
    """Two entries with one id (a new one after the first finished) give two pieces: no text is dropped."""
    log = LogState().append("text", "first message\n", entry_id="m")
    log = log.append("text", "second\n", entry_id="m")
    rows = tuple(log_rows(log, 40, POLICY)[0])
    again = log.advance(rows).reinsert(rows)
    texts = [row.entry.piece(row.start, row.end) for row in log_rows(again, 40, POLICY)[0]]
    assert [text.rstrip("\n") for text in texts] == ["first message", "second"]


def test_an_empty_open_line_after_a_piece_is_not_inserted_with_it() -> None:
    """A streaming entry's empty open line after the reinserted rows stays the entry's own (one row, not two)."""
    log = LogState().append("text", "abc\n", entry_id="s", final=False)
    pending, committed = log_rows(log, 20, POLICY)
    inserted = tuple(pending[:committed])
    done = log.advance(inserted)
    again = done.reinsert(inserted)
    rows, _ = log_rows(again, 20, POLICY)
    assert len(rows) == len(log_rows(done, 20, POLICY)[0]) + len(inserted)
    assert again.advance(tuple(rows[: len(inserted)])).again == ()


def test_advance_matches_a_queued_piece_by_entry_key_not_object() -> None:
    """Rows queued again and inserted through a row holding an equal copy of the piece's entry (rows are cached by
    value) are consumed: the queue empties, where matching by object recursed without end."""
    log = LogState().append("text", "one two three four five six\n", final=True)
    rows = tuple(log_rows(log, 8, POLICY)[0])
    again = log.advance(rows).reinsert(rows)
    pending = log_rows(again, 8, POLICY)[0]
    copies = tuple(row._replace(entry=copy.copy(row.entry)) for row in pending)
    assert all(a.entry is not b.entry and a.entry.key == b.entry.key for a, b in zip(copies, pending, strict=True))
    assert again.advance(copies).again == ()
