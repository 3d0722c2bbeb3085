"""An open Markdown list costs its last item per delta: the items before it are stable and never parsed again.

The tail is parsed after a one-item stand-in (``mdview._list_lead``); these tests check that the rendering stays the
one-shot rendering wherever earlier items could matter (numbering, bullets and delimiters, indents, tabs, nesting,
lazy lines, loose lists, link reference definitions) and that the stand-in is really used where it may be.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_support import one_shot, streamed

from inline_render.core.log import LogState, RenderOptions
from inline_render.markdown import stream as mdview
from inline_render.markdown.blocks import Options, Refs
from inline_render.testing import strategies
from inline_render.text.themes import DEFAULT_THEME

_OPTIONS = Options(DEFAULT_THEME)


def _parsed_per_delta(items: int, marker: str, sub: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Characters handed to the Markdown parser by one delta after ``items`` open list items were streamed."""
    view = mdview.view_new(_OPTIONS)
    for index in range(items):
        number = marker.replace("N", str(index + 1))
        view = mdview.view_extend(view, f"{number} item {index:04d} with *some* words\n{sub}")
    parsed: list[int] = []
    real = mdview.parse

    def counting(source: str, refs: Refs = ()) -> object:
        parsed.append(len(source))
        return real(source, refs)

    monkeypatch.setattr(mdview, "parse", counting)
    view = mdview.view_extend(view, marker.replace("N", str(items + 1)) + " more")  # the next item starts
    monkeypatch.setattr(mdview, "parse", real)
    return sum(parsed)


@pytest.mark.parametrize("sub", ["", "     - a nested item\n", "\n"])
@pytest.mark.parametrize("marker", ["-", "*", "N.", "N)", "  +"])
def test_a_delta_to_an_open_list_parses_only_its_last_item(
    marker: str, sub: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With 800 open items (tight, with nested items, or loose) a delta parses as much text as with 50."""
    few = _parsed_per_delta(50, marker, sub, monkeypatch)
    many = _parsed_per_delta(800, marker, sub, monkeypatch)
    assert few <= many <= few + 6  # "801." is two characters longer than "51.", in each of the last two items
    assert few < 110 + len(sub)  # the stand-in item and the last two items, not 50 items of ~35 characters


def _stand_in_used(text: str, sizes: list[int]) -> bool:
    """Whether streaming ``text`` in deltas of ``sizes`` ever parsed its tail after a list item stand-in."""
    view, position, index, used = mdview.view_new(_OPTIONS), 0, 0, False
    while position < len(text):
        size = sizes[index % len(sizes)]
        view = mdview.view_extend(view, text[position : position + size])
        position, index = position + size, index + 1
        used = used or view.lead not in ("", mdview._DUMMY)
    return used


# (text, whether the stand-in may be used while it streams).  Each case is one where the items before the last
# could change how the rest renders, if the stand-in did not stand for them exactly.
_CASES = {
    "tight": ("- a\n- b\n- c\n", True),
    "loose": ("- a\n\n- b\n- c\n\n\n- d\n  \n  e\n- f\n", True),
    "ordered start and numbers": ("3. a\n4. b\n10. c\n2. d\n", True),
    "ordered delimiter changes": ("1) a\n2) b\n3. c\n4. d\n5) e\n", True),
    "bullet changes": ("- a\n- b\n* c\n* d\n+ e\n+ f\n- g\n", True),
    "bullet then ordered": ("- a\n- b\n1. c\n2. d\n", True),
    "indents of siblings": ("- a\n - b\n  - c\n   - d\n    - e\n1. f\n 2. g\n  3. h\n", True),
    "indents of nested items": (" - a\n   - b\n- c\n  - d\n", True),
    "wide marker indent": ("-    a\n - b\n     c\n -   d\n", True),
    "nested lists": ("- a\n  - b\n  - c\n- d\n  1. e\n  2. f\n     - g\n- h\n", True),
    "nested marker is no sibling": ("10. a\n    - b\n11. c\n    - d\n   - e\n", True),
    "lazy continuation": ("- a\n- b *open\nlazy*\n- c\nlazy\n", True),
    "indented code in items": ("- a\n-     code\n- b\n\n      more code\n- c\n", True),
    "tabs": ("-\ta\n-\tb\n\tc\n-\t\td\n", True),
    "tab before a nested item": ("- a\n- b\n\t- c\n- d\n", True),
    "empty items": ("- a\n-\n- b\n-\n  x\n-\n\n  y\n", True),
    "rule ends the list": ("- a\n- b\n- - -\n- c\n* d\n* * *\n", True),
    "setext underline": ("- a\n- b\n---\n- c\n- d\n  ---\n", True),
    "fence in items": ("- a\n- ```\n  code\n- b\n- ~~~\n  x\n  ~~~\n", True),
    "quote in items": ("- > a\n- > b\nlazy\n- c\n", True),
    "list after a paragraph": ("l1\nl2\nl3\n- a\n- b\n- c\ntext\n\nafter\n", True),
    "paragraph after a list": ("- a\n- b\n\npara one\npara two\npara three\n- c\n- d\n", True),
    "lists separated by blanks": ("- a\n- b\n\n\n- c\n- d\n", True),
    "huge numbers": ("999999999. a\n999999999. b\n1000000000. c\n", True),
    "table after a list": ("- a\n- b\n|x|y|\n|-|-|\n|1|2|\n", True),
    "definition in an item": ("- [a]: https://x.org/a\n- b\n- see [a]\n- and [a]\n", True),
    "definition before the list": ("[a]: https://x.org/b\n\n- b\n- see [a]\n\nand [a]\n", True),
    "first definition wins": ("- [a]: https://x.org/1\n- b\n- [a]: https://x.org/2\n- see [a]\n", True),
    "definition in a quoted item": ("- a\n- > [a]: https://x.org/q\n- b\n- see [a]\n", True),
    "definition over lines": ("- a\n- [a]:\n  https://x.org/l\n  'title'\n- b\n- see [a]\n", True),
    "label over lines": ("- a\n- [a\n  b]: https://x.org/m\n- c\n- see [a b]\n", True),
    "definition in a nested item": ("- a\n- b\n  - [c]: https://x.org/n\n- d\n- see [c]\n", True),
}


@pytest.mark.parametrize("sizes", [[1], [3, 7, 2]], ids=["chars", "chunks"])
@pytest.mark.parametrize("name", list(_CASES))
def test_tricky_lists_stream_as_rendered_at_once(name: str, sizes: list[int]) -> None:
    """Lists where earlier items could matter, streamed char by char and in chunks: committed text never changes,
    scrollback ends as the one-shot rendering, and the stand-in was used where it may be."""
    text, stand_in = _CASES[name]
    for width in (40, 9):
        want = one_shot(text, width)
        assert streamed(text, width, sizes).history[: len(want)] == want
    assert _stand_in_used(text, sizes) == stand_in


def test_a_link_reference_in_a_stable_item_applies_to_the_tail() -> None:
    """A reference definition in an item made stable still applies to the last item, parsed after the stand-in."""
    text = "- [a]: https://example.org/r\n" + "".join(f"- item {index}\n" for index in range(5)) + "- see [a]\n"
    view = mdview.view_new(_OPTIONS)
    for char in text:
        view = mdview.view_extend(view, char)
    assert [line for line in view.text.split("\n") if line.startswith("- see")] == ["- see a (https://example.org/r)"]
    assert view.lead == "- x\n" and view.stable_src == text.index("- see")


def test_random_chunks_of_a_long_list_render_as_at_once() -> None:
    """A 60-item list of every kind of item, in random chunks of 1 to 40 characters, ends as the one-shot view."""
    rng = random.Random(14)
    kinds = ["- plain {i}\n", "- *em {i}*\n  more\n", "  - nested {i}\n", "\n", "- `code {i}`\nlazy {i}\n", "-\t{i}\n"]
    text = "".join(rng.choice(kinds).format(i=index) for index in range(60))
    view, position = mdview.view_new(_OPTIONS), 0
    while position < len(text):
        size = rng.randint(1, 40)
        view = mdview.view_extend(view, text[position : position + size])
        position += size
    whole = mdview.view_extend(mdview.view_new(_OPTIONS), text)
    assert mdview.view_final(view).text == mdview.view_final(whole).text
    assert view.stable_src > len(text) // 2  # the stand-in moved on with the list (one-shot parses it whole)


_MARKERS = ("-", "*", "+", "1.", "7.", "10)", "2)", "1)")
_CONTENT = st.one_of(
    st.sampled_from(
        (
            "word",
            "*em* and **strong**",
            "`code`",
            "open *star",
            "under_score",
            "[link](https://example.org)",
            "",
            "- - -",
            "* * *",
            "---",
            "# head",
            "> quoted",
            "```",
            "a\tb",
            "[a]",
            "- nested",
            "1.",
        )
    ),
    strategies.unicode_texts(2).map(lambda text: text.replace("\n", " ")),
)
_LINE = st.one_of(
    st.tuples(st.sampled_from(("", " ", "  ", "   ")), st.sampled_from(_MARKERS), _CONTENT).map(
        lambda part: f"{part[0]}{part[1]} {part[2]}".rstrip(" ") + "\n"
    ),
    st.tuples(st.sampled_from(("", " ")), st.sampled_from(_MARKERS), st.sampled_from(("\t", "     ")), _CONTENT).map(
        lambda part: "".join(part) + "\n"  # a tab or five spaces after the marker: indented code or a tab stop
    ),
    st.tuples(st.sampled_from(("  ", "    ", "   ", "\t", " \t")), st.sampled_from(_MARKERS), _CONTENT).map(
        lambda part: f"{part[0]}{part[1]} {part[2]}\n"  # nested items (or code, or lazy text)
    ),
    _CONTENT.map(lambda content: content + "\n"),  # lazy continuation or a new block
    st.sampled_from(("\n", "  continued\n", "  ```\n", "  code line\n", "===\n", "|a|b|\n", "|-|-|\n")),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(_LINE, min_size=1, max_size=14),
    tail=st.sampled_from(("", "x", "\n", "- ", "2.", "\nafter\n")),
    width=st.integers(8, 60),
    sizes=st.lists(st.integers(1, 9), min_size=1, max_size=5),
)
def test_random_lists_stream_as_rendered_at_once(lines: list[str], tail: str, width: int, sizes: list[int]) -> None:
    """Random lists (markers, indents, tabs, nesting, blank and lazy lines) streamed in small deltas: committed text
    never changes and scrollback ends as the one-shot rendering.  (Link reference definitions are in ``_CASES``: a
    definition also applies to links before it, which text committed before it arrived does not show.)"""
    text = "".join(lines) + tail
    want = one_shot(text, width)
    assert streamed(text, width, sizes).history[: len(want)] == want


def test_a_closed_fence_ending_an_open_item_keeps_its_committed_lines() -> None:
    """Issue 31, case 8: a fence inside a list item, streamed a character at a time; when its closing line completes,
    the lines committed while it was open (the separator before it) stay committed (they were taken back)."""
    text = "- word\n  ```\n  - word\n  ```\n"
    log = LogState(options=RenderOptions()).append("assistant", "", entry_id="a", final=False)
    committed = ""
    for character in text:
        log = log.delta(0, character)
        entry = log.entries[0]
        now = entry.text[: entry.committed]
        assert now.startswith(committed), (character, committed, now)
        committed = now
    assert committed == "- word\n\n"
