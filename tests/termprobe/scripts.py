"""Seeded random scripts: text with long lines, CJK, line feeds, cursor moves, erases, autowrap
on and off, insertions through a scroll region at the top (as the library does), and resizes."""

from __future__ import annotations

import random

from .real import Feed, Resize, Snap, Step

__all__ = ["ascii_only", "library_script", "random_script"]

WORDS = ("alpha", "beta", "gamma", "x", "中文", "漢字テスト", "delta-epsilon", "1234567890", " ", "z")


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))


def _chunk(rng: random.Random, columns: int, rows: int) -> bytes:
    kind = rng.randrange(12)
    if kind <= 2:
        return _text(rng).encode()
    if kind == 3:
        return b"\n" * rng.randint(1, 3)
    if kind == 4:
        return f"\x1b[{rng.randint(1, rows)};{rng.randint(1, columns)}H".encode()
    if kind == 5:
        return f"\x1b[{rng.randint(1, 3)}{rng.choice('ABCD')}".encode()
    if kind == 6:
        return f"\x1b[{rng.choice(('', '0', '1', '2'))}K".encode()
    if kind == 7:
        return b"\x1b[J"
    if kind == 8:
        return rng.choice((b"\x1b[?7l", b"\x1b[?7h"))
    if kind == 9:
        return b"\r" + _text(rng).encode() + b"\x1b[K"
    if kind == 10 and rows >= 3:
        # Insert lines above a viewport through a region whose top is row 1, as the library does.
        bottom = rng.randint(2, rows - 1)
        lines = b"".join(b"\r\n" + _text(rng).encode() + b"\x1b[K" for _ in range(rng.randint(1, 3)))
        return f"\x1b[1;{bottom}r\x1b[{bottom};1H".encode() + lines + b"\x1b[r"
    return ("x" * rng.randint(columns - 2, columns + 2)).encode()


def random_script(seed: int, steps: int = 30) -> tuple[int, int, list[Step]]:
    """(columns, rows, steps) of script ``seed``: feeds with a resize now and then, a snapshot after each resize."""
    rng = random.Random(seed)
    columns, rows = rng.randint(4, 24), rng.randint(2, 10)
    out: list[Step] = []
    size = (columns, rows)
    for _ in range(steps):
        if rng.random() < 0.25:
            size = (max(2, min(40, size[0] + rng.randint(-8, 8))), max(2, min(14, size[1] + rng.randint(-4, 4))))
            out += [Resize(*size), Snap()]
        else:
            out.append(Feed(_chunk(rng, *size)))
    out.append(Snap())
    return columns, rows, out


def _row_text(rng: random.Random, width: int) -> str:
    """Text of at most ``width`` cells (CJK counted 2), as the library writes a row."""
    out, used = "", 0
    for _ in range(rng.randint(0, 6)):
        word = rng.choice(WORDS)
        cells = sum(2 if ord(c) > 0x2E80 else 1 for c in word)
        if used + cells > width:
            break
        out, used = out + word, used + cells
    if rng.random() < 0.3:
        out += "x" * (width - used)  # a full-width row
    return out


def library_script(seed: int, steps: int = 30) -> tuple[int, int, list[Step]]:
    """A script in the library's dialect: autowrap off, every row written at an absolute position and
    never past the right edge, rows erased with ``ESC[2K``/``ESC[K``/``ESC[J``, lines inserted above
    through a scroll region whose top is row 1, resizes (a snapshot after each)."""
    rng = random.Random(seed)
    columns, rows = rng.randint(4, 30), rng.randint(2, 12)
    size = (columns, rows)
    out: list[Step] = [Feed(b"\x1b[?7l")]
    for _ in range(steps):
        c, r = size
        kind = rng.randrange(10)
        if kind < 2:
            size = (max(2, min(40, c + rng.randint(-10, 10))), max(2, min(16, r + rng.randint(-5, 5))))
            out += [Resize(*size), Snap()]
        elif kind < 6:
            row, col = rng.randint(1, r), rng.choice((1, 1, rng.randint(1, c)))
            erase = rng.choice((b"\x1b[2K", b"", b""))
            text = _row_text(rng, c - col + 1).encode()
            out.append(Feed(f"\x1b[{row};{col}H".encode() + erase + text + rng.choice((b"\x1b[K", b"", b"\x1b[J"))))
        elif kind < 8 and r >= 3:
            bottom = rng.randint(2, r - 1)
            lines = b"".join(b"\r\n" + _row_text(rng, c).encode() + b"\x1b[K" for _ in range(rng.randint(1, 4)))
            out.append(Feed(f"\x1b[1;{bottom}r\x1b[{bottom};1H".encode() + lines + b"\x1b[r"))
        else:
            # Line feeds at the bottom row scroll the whole screen (startup, tiny terminals).
            lines = b"".join(b"\r\n" + _row_text(rng, c).encode() for _ in range(rng.randint(1, 3)))
            out.append(Feed(f"\x1b[{r};1H".encode() + lines))
    out.append(Snap())
    return columns, rows, out


def ascii_only(script: tuple[int, int, list[Step]]) -> tuple[int, int, list[Step]]:
    """``script`` with every non-ASCII character written as ``ww`` (as wide, two cells): GNU screen 4.09's
    ``hardcopy`` writes only the low byte of a non-ASCII character, so its text cannot be compared."""
    columns, rows, steps = script
    out: list[Step] = []
    for step in steps:
        if isinstance(step, Feed):
            text = step.data.decode("utf-8")
            step = Feed("".join("ww" if ord(char) > 0x7F else char for char in text).encode())
        out.append(step)
    return columns, rows, out
