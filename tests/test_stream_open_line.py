"""A long open line kept in pieces (``chunks.Tail``, issue 14): same text, same bytes, cost of the delta only."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stream_cost import _delta_allocation, _stream_bytes

from inline_render.core.chunks import Chunks, Tail
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.inputs import Input, LogAppend, LogDelta, LogFinish, LogReplace, Resize
from inline_render.text.cells import WidthPolicy

PIECES = st.lists(st.text(alphabet="ab \u4e00", max_size=300), max_size=200)


@settings(max_examples=60, deadline=None)
@given(PIECES, st.data())
def test_chunks_read_what_a_string_would(pieces: list[str], data: st.DataObject) -> None:
    """Every slice read from the pieces is the slice of the joined text, for every version so far."""
    chunks = Chunks("start")
    versions = [(Tail(chunks, 5), "start")]
    text = "start"
    for piece in pieces:
        tail, _ = versions[-1]
        text += piece
        versions.append((tail.extend(piece), text))
    for tail, expected in versions:
        start = data.draw(st.integers(0, len(expected)))
        stop = data.draw(st.integers(start, len(expected)))
        assert tail.read(start, stop) == expected[start:stop]
        assert tail.read(0, len(expected)) == expected and len(tail) == len(expected)


def test_a_branch_from_an_older_version_does_not_change_the_newer_one() -> None:
    """Appending to an older version of a line gives its own text; the newest keeps its own."""
    old = Tail.of("x" * 20)
    newest = old.extend("yy").extend("zz")
    branch = old.extend("ww")
    assert branch.read(0, 22) == "x" * 20 + "ww"
    assert newest.read(0, 24) == "x" * 20 + "yyzz"
    assert old.read(0, 100) == "x" * 20
    assert branch != newest and Tail.of("x" * 20 + "ww") == branch


def test_an_entry_with_its_open_line_in_pieces_has_the_same_text_and_rows() -> None:
    """Deltas (a tab, controls, a branch from an older log) give the same text and rows in pieces or whole."""
    from inline_render.core import log as log_module

    rng = random.Random(21)
    deltas = ["".join(rng.choice("ab c\t\x1b\u4e00") for _ in range(rng.randint(1, 120))) for _ in range(300)]
    results = []
    for open_pieces in (1 << 60, 50):
        saved = log_module._OPEN_PIECES
        log_module._OPEN_PIECES = open_pieces
        try:
            log = LogState(options=RenderOptions(markdown=False)).append("assistant", "one\ntwo ", "s", final=False)
            older = log
            for number, delta in enumerate(deltas):
                log = log.delta(0, delta)
                if number == 150:
                    older = log
            branch = older.delta(0, "branch\nafter")
            rows, committed = log_rows(log, 37, WidthPolicy.CODEPOINT)
            rows_text = [log.entries[0].piece(row.start, row.end) for row in rows]
            results.append((log.entries[0].text, branch.entries[0].text, rows_text, committed))
            if open_pieces == 50:
                assert log.entries[0].tail is not None  # the open line was kept in pieces
        finally:
            log_module._OPEN_PIECES = saved
    assert results[0] == results[1]
    assert "".join(results[0][2]) == results[0][0]


def test_an_open_line_in_pieces_writes_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Open lines streamed in pieces, with resizes, a replace, a line end and a finish: the bytes of whole text."""
    extended: list[int] = []
    extend = Tail.extend
    monkeypatch.setattr(Tail, "extend", lambda tail, text: extended.append(1) or extend(tail, text))
    rng = random.Random(14)
    pieces: list[Input] = [LogAppend("assistant", "", "s", final=False), LogAppend("reasoning", "", "r", final=False)]
    for step in range(500):
        text = "".join(rng.choice(["word ", "wide \u4e00\u4e01 ", "tab\t", "esc\x1b[2J "]) for _ in range(8))
        pieces.append(LogDelta("r" if step % 7 == 0 else "s", text))
        if step % 90 == 0:
            pieces.append(Resize(rng.choice((40, 60, 80)), 16))
        if step == 300:
            pieces.append(LogDelta("s", " the line ends\nand a new one starts "))
        if step == 400:
            pieces.append(LogReplace("s", "replaced\nwith an open line " + "z " * 3_000))
    pieces += [LogDelta("s", "\nlast line\n"), LogFinish("s"), LogFinish("r")]
    whole = _stream_bytes(False, True, pieces)
    assert not extended
    assert whole == _stream_bytes(False, True, pieces, open_pieces=100)
    assert len(extended) > 300  # the open lines were in pieces
    assert b"last line" in whole


def test_a_delta_to_a_3_mb_open_line_allocates_about_what_one_to_a_short_line_does() -> None:
    """A delta to an open 3 MB line allocates at most 64 KB more than one after 1 KB (a copy per delta was 3 MB)."""
    small = _delta_allocation(1_000, True)
    large = _delta_allocation(3_000_000, True)
    assert large < small + 64_000, (small, large)
