"""The storm's text: numbered lines of varied shapes, the same for the same seed and width.

Every line starts with a unique id (``L0001``; ``P001`` for the preamble printed before the app
starts), so the checker can find a line by its id and then compare its whole text.  Shapes are
chosen to hit what breaks on resize: short lines, lines exactly as wide as the starting terminal
(the pending-wrap column), lines two to four times wider (they wrap), CJK lines without spaces
(wrapped by cells, wide characters) and lines with emoji.  Only characters whose width every
terminal agrees on are used (BMP CJK ideographs, single code point emoji without VS16).
"""

from __future__ import annotations

import enum
import random

from inline_render.text.cells import text_width

__all__ = ["Shape", "line_id", "preamble_lines", "storm_lines"]

_WORDS = (
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "xray",
    "yankee",
    "zulu",
    "scroll",
    "row",
    "cell",
    "wrap",
    "resize",
    "commit",
    "stream",
    "token",
    "frame",
    "history",
    "viewport",
    "composer",
    "status",
)
_CJK = "漢字表示端末履歴行列幅高改行確認"
_EMOJI = "🙂🚀🌟🍀🔥🎉"


class Shape(enum.Enum):
    """What a line is made to exercise."""

    SHORT = "short"
    EXACT = "exact"
    LONG = "long"
    CJK = "cjk"
    EMOJI = "emoji"


_SHAPES = (Shape.SHORT, Shape.SHORT, Shape.EXACT, Shape.LONG, Shape.LONG, Shape.CJK, Shape.EMOJI)


def line_id(number: int) -> str:
    """The id that starts line ``number`` (1-based) of the stream."""
    return f"L{number:04d}"


def _words_to_width(rng: random.Random, head: str, width: int) -> str:
    """``head`` then words until the text is exactly ``width`` cells (the last word cut to fit)."""
    text = head
    while text_width(text) < width:
        text += " " + rng.choice(_WORDS)
    text = text[:width]
    # A cut that ends on a space would be trimmed by every terminal: end on a letter instead.
    return text[:-1] + "x" if text.endswith(" ") else text


def _line(rng: random.Random, number: int, width: int, ascii_only: bool) -> str:
    head = line_id(number)
    shape = rng.choice(_SHAPES)
    if ascii_only and shape in (Shape.CJK, Shape.EMOJI):
        shape = Shape.LONG if shape is Shape.CJK else Shape.SHORT
    if shape is Shape.SHORT:
        return " ".join([head, *rng.choices(_WORDS, k=rng.randint(1, 4))])
    if shape is Shape.EXACT:
        return _words_to_width(rng, head, width)
    if shape is Shape.LONG:
        return _words_to_width(rng, head, rng.randint(2 * width, 4 * width))
    if shape is Shape.CJK:
        return head + " " + "".join(rng.choices(_CJK, k=rng.randint(width // 4, width)))
    words = [rng.choice(_WORDS) + rng.choice(_EMOJI) for _ in range(rng.randint(2, 8))]
    return " ".join([head, *words])


def storm_lines(seed: int, count: int, width: int, *, ascii_only: bool = False) -> tuple[str, ...]:
    """``count`` numbered lines for a terminal that starts ``width`` columns wide.

    ``ascii_only``: no CJK or emoji lines (for GNU screen, whose ``hardcopy`` cannot write them).
    """
    rng = random.Random(f"lines-{seed}-{width}")
    return tuple(_line(rng, number, width, ascii_only) for number in range(1, count + 1))


def preamble_lines(count: int) -> tuple[str, ...]:
    """Lines printed before the app starts: the history a user's terminal already holds."""
    return tuple(f"P{number:03d} shell output before the app started" for number in range(1, count + 1))
