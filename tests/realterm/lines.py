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
from collections.abc import Callable
from dataclasses import dataclass

from inline_render.text.cells import text_width

__all__ = [
    "BlockSizes",
    "Shape",
    "answers",
    "codelia_answer",
    "line_id",
    "markdown_block",
    "markdown_session",
    "preamble_lines",
    "storm_lines",
]

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


# What a Markdown answer is made of.  Every content line (a heading, a paragraph, a list item, a code line, a
# table row, a quote) starts with its own id, so the checker finds it as it finds a plain line; what the library
# renders around the id (a heading's mark, a list's marker, the indent) is part of the line's expected text.
# Code lines, table cells and quotes stay short: the library keeps a code line's or a quote's prefix on every row it
# wraps into, and lays a table out at the width of the moment, so only text that fits the narrowest width (30) has
# one rendered text at every width.  Paragraphs and list items are long: they wrap, and re-wrap at every resize.
_BLOCKS = ("heading", "paragraph", "paragraph", "bullets", "numbered", "code", "table", "quote")


def _words(rng: random.Random, low: int, high: int) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(low, high))]
    if len(words) > 3 and rng.random() < 0.5:  # inline styles the renderer drops the marks of
        at = rng.randrange(1, len(words) - 1)
        words[at] = rng.choice(("**{}**", "*{}*", "`{}`")).format(words[at])
    return " ".join(words)


@dataclass(frozen=True, slots=True)
class BlockSizes:
    """How long a Markdown block's parts are (inclusive ranges) and how its words are drawn: the storm's chat uses
    the defaults; a random session (``sessions``) shorter ones."""

    words: Callable[[random.Random, int, int], str]
    paragraph: tuple[int, int] = (4, 40)
    items: tuple[int, int] = (2, 5)
    item_words: tuple[int, int] = (1, 25)
    nested_words: tuple[int, int] = (1, 12)
    code_lines: tuple[int, int] = (1, 5)
    table_rows: tuple[int, int] = (1, 4)
    quote_words: tuple[int, int] | None = None
    """None: a quote is one word."""


def markdown_block(rng: random.Random, kind: str, next_id: Callable[[], str], sizes: BlockSizes) -> list[str]:
    """The source lines of one Markdown block of ``kind`` (heading, paragraph, bullets, numbered, code, table,
    quote), each content line starting with a new id."""
    if kind == "heading":
        return [f"{'#' * rng.randint(1, 3)} {next_id()} {sizes.words(rng, 1, 3)}"]
    if kind == "paragraph":
        return [f"{next_id()} {sizes.words(rng, *sizes.paragraph)}"]
    if kind in ("bullets", "numbered"):
        lines = []
        for number in range(1, rng.randint(*sizes.items) + 1):
            marker = f"{number}." if kind == "numbered" else "-"
            lines.append(f"{marker} {next_id()} {sizes.words(rng, *sizes.item_words)}")
            if rng.random() < 0.3:  # a nested item under this one
                lines.append(f"{' ' * (len(marker) + 1)}- {next_id()} {sizes.words(rng, *sizes.nested_words)}")
        return lines
    if kind == "code":
        body = [
            f"{next_id()} = {rng.choice(_WORDS)}({rng.randint(0, 99)})" for _ in range(rng.randint(*sizes.code_lines))
        ]
        return ["```python", *body, "```"]
    if kind == "table":
        header = f"| {next_id()} name | value |"
        rows = [
            f"| {next_id()} {rng.choice(_WORDS)[:6]} | {rng.randint(0, 999)} |"
            for _ in range(rng.randint(*sizes.table_rows))
        ]
        return [header, "|---|---|", *rows]
    quote = rng.choice(_WORDS) if sizes.quote_words is None else sizes.words(rng, *sizes.quote_words)
    return [f"> {next_id()} {quote}"]


_CHAT_SIZES = BlockSizes(_words)


def _block(rng: random.Random, kind: str, ids: list[int]) -> list[str]:
    def next_id() -> str:
        ids[0] += 1
        return line_id(ids[0])

    return markdown_block(rng, kind, next_id, _CHAT_SIZES)


def markdown_session(seed: int, count: int) -> tuple[tuple[str, str], ...]:
    """A chat of ``count`` numbered content lines at least: (kind, text) entries, a user's question then a
    Markdown answer of 1-4 blocks, again and again.  After the second answer comes a ``("dialog", text)``
    entry: the app opens a confirm while it streams that answer, answers it, then logs ``text`` (as ``tool``)."""
    rng = random.Random(f"markdown-{seed}")
    ids = [0]
    entries: list[tuple[str, str]] = []
    while ids[0] < count:
        ids[0] += 1
        entries.append(("user", f"{line_id(ids[0])} {_words(rng, 2, 8)}"))
        blocks = [_block(rng, rng.choice(_BLOCKS), ids) for _ in range(rng.randint(1, 4))]
        entries.append(("assistant", "\n\n".join("\n".join(block) for block in blocks) + "\n"))
        if len(entries) == 4:
            ids[0] += 1
            entries.append(("dialog", f"{line_id(ids[0])} the write was approved"))
    return tuple(entries)


def answers(seed: int, lines: int) -> tuple[str, ...]:
    """The assistant answers of the storm's Markdown chat: what a runtime sends (``realterm.runtime``)."""
    return tuple(text for kind, text in markdown_session(seed, lines) if kind == "assistant")


def codelia_answer(texts: tuple[str, ...]) -> str:
    """The answers as codelia's one run sends them: one answer, the blocks as its paragraphs."""
    return "\n\n".join(text.rstrip("\n") for text in texts) + "\n"
