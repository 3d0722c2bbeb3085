"""Unit and property tests of sanitizing, widths and wrapping (inline_render.text.cells)."""

from __future__ import annotations

import wcwidth
from hypothesis import given
from hypothesis import strategies as st

from inline_render.text.cells import (
    WidthPolicy,
    _wrap_ascii,
    _wrap_clusters,
    clip_to_width,
    expand_tabs,
    grapheme_width,
    sanitize,
    text_width,
    wrap_line,
)

CP, GR = WidthPolicy.CODEPOINT, WidthPolicy.GRAPHEME


def rows_of(line: str, width: int, policy: WidthPolicy = CP) -> list[str]:
    ends = wrap_line(line, width, policy)
    starts = (0, *ends[:-1])
    return [line[s:e] for s, e in zip(starts, ends, strict=True)]


def test_sanitize_neutralizes_every_escape_sequence_visibly() -> None:
    """ESC, C0, DEL and C1 become visible pictures; no control byte survives."""
    hostile = "a\x1b]52;c;ZXZpbA==\x07b\x1b[2Jc\x9b31md\x90qe\x7f\x00"
    clean = sanitize(hostile)
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in clean)
    assert clean == "a\u241b]52;c;ZXZpbA==\u2407b\u241b[2Jc\u241b[31md\u241bPqe\u2421\u2400"


def test_sanitize_shows_bidi_overrides() -> None:
    """Trojan Source characters (bidi overrides and isolates) are shown, not obeyed."""
    assert sanitize("a\u202eb\u2066c") == "a<U+202E>b<U+2066>c"


def test_sanitize_keeps_newlines_and_tabs_and_drops_carriage_returns() -> None:
    """Line structure survives; \\r never moves the cursor (it is dropped)."""
    assert sanitize("a\r\nb\tc\rd") == "a\nb\tcd"


def test_sanitize_replaces_lone_surrogates() -> None:
    """Text decoded with surrogateescape can always be encoded after sanitizing."""
    assert sanitize("x\udcff").encode("utf-8") == "x\ufffd".encode()


@given(st.text(), st.integers(0, 40))
def test_sanitize_is_stateless_so_split_deltas_are_safe(text: str, cut: int) -> None:
    """Sanitizing two halves equals sanitizing the whole (a sequence split across deltas is still inert)."""
    cut = min(cut, len(text))
    assert sanitize(text[:cut]) + sanitize(text[cut:]) == sanitize(text)


def test_codepoint_policy_matches_xterm_js_unicode_11() -> None:
    """Per code point: VS16 adds nothing, ZWJ families add up, a regional indicator is 1 cell."""
    assert grapheme_width("\u2764\ufe0f", CP) == 1
    assert grapheme_width("\U0001f468\u200d\U0001f469\u200d\U0001f467", CP) == 6
    assert grapheme_width("\U0001f1fa\U0001f1f8", CP) == 2
    assert grapheme_width("\U0001f1fa", CP) == 1
    assert grapheme_width("e\u0301", CP) == 1


def test_grapheme_policy_uses_wcwidth_width() -> None:
    """Per grapheme: emoji sequences are two cells, as in terminals with mode 2027."""
    for cluster in ("\u2764\ufe0f", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f1fa\U0001f1f8"):
        assert grapheme_width(cluster, GR) == wcwidth.width(cluster) == 2


def test_expand_tabs_uses_tab_stops_from_the_line_start() -> None:
    """Tabs expand to the next multiple of 8 counted from the given column, per line."""
    assert expand_tabs("ab\tc\n\td") == "ab      c\n        d"
    assert expand_tabs("\tx", start_column=5) == "   x"


def test_clip_never_cuts_a_wide_character() -> None:
    """A wide character that does not fit is left out; alone in too small a space it becomes '?'."""
    assert clip_to_width("ab中", 3) == ("ab", 2)
    assert clip_to_width("中", 1) == ("?", 1)


def test_word_wrap_breaks_before_words_and_hangs_spaces() -> None:
    """Greedy word wrap: words move down whole, spaces stay at the end of the row."""
    assert rows_of("hello world this is", 10) == ["hello ", "world this ", "is"]
    assert rows_of("aaaa     bb", 4) == ["aaaa     ", "bb"]


def test_long_word_is_broken_hard() -> None:
    """A word longer than the row is split at the width."""
    assert rows_of("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_wide_character_never_straddles_the_last_column() -> None:
    """A CJK character that would start in the last column moves to the next row."""
    rows = rows_of("ab中文字", 5)
    assert rows == ["ab中", "文字"]
    assert all(text_width(r) <= 5 for r in rows)


def test_grapheme_clusters_are_never_split() -> None:
    """A ZWJ family and a flag stay whole in one row."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    for row in rows_of("x" * 3 + family + "\U0001f1fa\U0001f1f8", 4):
        assert family in row or "\u200d" not in row


def test_empty_line_is_one_row() -> None:
    """An empty logical line still occupies a row."""
    assert wrap_line("", 10) == (0,)


@given(st.text(alphabet=st.sampled_from("ab c"), max_size=60), st.integers(1, 12))
def test_ascii_fast_path_agrees_with_cluster_wrapper(line: str, width: int) -> None:
    """The rfind-based ASCII wrapper and the general cluster wrapper give the same rows."""
    assert _wrap_ascii(line, width) == _wrap_clusters(line, width, CP)


PIECES = ["a", "b", " ", "中", "e\u0301", "\U0001f600", "\u2764\ufe0f", "\U0001f1fa"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@given(TEXT, st.integers(2, 12))
def test_wrapped_rows_tile_the_line_and_fit(line: str, width: int) -> None:
    """Rows partition the line exactly and every row's visible part fits the width."""
    ends = wrap_line(line, width, CP)
    assert ends[-1] == len(line) and list(ends) == sorted(ends)
    starts = (0, *ends[:-1])
    for start, end in zip(starts, ends, strict=True):
        assert text_width(line[start:end].rstrip(" "), CP) <= width
        if start < len(line):
            assert start == 0 or wcwidth.grapheme_boundary_before(line, start + 1) == start
