"""Hand-written resize probes: one question each about what a terminal does on a resize.

Each case is a start size and steps (see ``real.py``) ending in ``Snap``s; ``python -m
tests.termprobe`` runs them on every terminal found and prints what each terminal did.
"""

from __future__ import annotations

from dataclasses import dataclass

from .real import Feed, Resize, Snap, Step

__all__ = ["CASES", "Case"]

NOWRAP = b"\x1b[?7l"


@dataclass(frozen=True, slots=True)
class Case:
    """A named probe: start size and steps."""

    name: str
    question: str
    columns: int
    rows: int
    steps: tuple[Step, ...]


def _lines(count: int, prefix: str = "line ") -> bytes:
    return "\n".join(f"{prefix}{i}" for i in range(count)).encode()


CASES = (
    Case("grow-history", "taller by 3 with 10 lines of history", 10, 5, (Feed(_lines(15)), Resize(10, 8), Snap())),
    Case(
        "grow-no-history", "taller by 3, no history, cursor on row 2", 10, 5, (Feed(_lines(3)), Resize(10, 8), Snap())
    ),
    Case(
        "grow-history-cursor-up",
        "taller by 3 with history, cursor moved to row 1",
        10,
        5,
        (Feed(_lines(15) + b"\x1b[2;3H"), Resize(10, 8), Snap()),
    ),
    Case(
        "grow-little-history",
        "taller by 3 with 1 line of history",
        10,
        5,
        (Feed(_lines(6)), Resize(10, 8), Snap()),
    ),
    Case("shrink-bottom", "shorter by 2, cursor on the last row", 10, 5, (Feed(_lines(5)), Resize(10, 3), Snap())),
    Case(
        "shrink-cursor-middle",
        "shorter by 2, cursor on row 1 with text below it",
        10,
        5,
        (Feed(_lines(5) + b"\x1b[2;3H"), Resize(10, 3), Snap()),
    ),
    Case(
        "shrink-blank-below",
        "shorter by 2, cursor on row 1, blank rows below",
        10,
        5,
        (Feed(_lines(2)), Resize(10, 3), Snap()),
    ),
    Case(
        "shrink-one-blank-below",
        "shorter by 3, cursor on row 2, 2 blank rows below",
        10,
        6,
        (Feed(_lines(4) + b"\x1b[3;1H"), Resize(10, 3), Snap()),
    ),
    Case(
        "narrow-soft-wrapped",
        "soft-wrapped line (autowrap on) narrowed 10->6 then widened to 15",
        10,
        5,
        (Feed(b"abcdefghijklmnopqrstuvwxy\nshort\n"), Resize(6, 5), Snap(), Resize(15, 5), Snap()),
    ),
    Case(
        "narrow-hard-lines",
        "hard lines of 10 (autowrap off) narrowed to 6, widened to 12",
        10,
        5,
        (Feed(NOWRAP + b"0123456789\nabcdefghij\n"), Resize(6, 5), Snap(), Resize(12, 5), Snap()),
    ),
    Case(
        "narrow-cursor-line",
        "cursor at the end of a soft-wrapped line, narrowed 10->6 then widened to 15",
        10,
        5,
        (Feed(b"top\nabcdefghijklmnopq"), Resize(6, 5), Snap(), Resize(15, 5), Snap()),
    ),
    Case(
        "narrow-cursor-bottom",
        "screen full, cursor at bottom on a soft-wrapped line, narrowed 10->5",
        10,
        4,
        (Feed(b"r1\nr2\nabcdefghijklmn"), Resize(5, 4), Snap()),
    ),
    Case(
        "narrow-cursor-mid-line",
        "cursor moved into the middle of a long hard line, narrowed 12->5",
        12,
        4,
        (Feed(NOWRAP + b"top\nabcdefghijkl\nbelow\x1b[2;9H"), Resize(5, 4), Snap()),
    ),
    Case(
        "el-pending-wrap-autowrap",
        "full-width row, ESC[K, then 'Z' (autowrap on)",
        10,
        4,
        (Feed(b"abcdefghij\x1b[K"), Snap(), Feed(b"Z"), Snap()),
    ),
    Case(
        "el-pending-wrap-nowrap",
        "full-width row, ESC[K, then 'Z' (autowrap off)",
        10,
        4,
        (Feed(NOWRAP + b"abcdefghij\x1b[K"), Snap(), Feed(b"Z"), Snap()),
    ),
    Case(
        "clear-from-home",
        "three lines, then ESC[J from the top-left cell",
        10,
        5,
        (Feed(_lines(3) + b"\x1b[1;1H\x1b[J"), Snap()),
    ),
    Case(
        "wide-cut",
        "a CJK character across the new right edge",
        10,
        4,
        (Feed(NOWRAP + "abcd中文字ef".encode()), Resize(5, 4), Snap(), Resize(10, 4), Snap()),
    ),
    Case(
        "combining-last-column",
        "a combining accent after the character written at the last column (autowrap off): tmux and screen put it on "
        "the cell before",
        8,
        4,
        (Feed(NOWRAP + "12345678\u0301".encode()), Snap()),
    ),
    Case(
        "combining-last-column-autowrap",
        "the same with autowrap on (the cursor waits past the last cell), then off and a new line",
        8,
        4,
        (Feed(b"\x1b[?7h" + "12345678\u0301".encode() + NOWRAP + b"\r\n"), Snap()),
    ),
)
