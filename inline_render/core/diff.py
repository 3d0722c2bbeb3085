"""Row diffing (``diff_row``): the least a frame writes to turn the row on screen into its own."""

from __future__ import annotations

import wcwidth

from ..text.cells import WidthPolicy, common_prefix, text_width
from ..text.style import Row, Segment, Style, row_width

__all__ = ["diff_row"]

_new = tuple.__new__  # a NamedTuple's own __new__ is a Python call


def _common_prefix(a: str, b: str) -> int:
    i = common_prefix(a, b)
    if i and not (a.isascii() and b.isascii()):
        # Back off to a cluster start in both texts: "e" -> "e\u0301" changes the cell at "e".
        if i < len(a):
            i = min(i, wcwidth.grapheme_boundary_before(a, i + 1))
        if i < len(b):
            i = min(i, wcwidth.grapheme_boundary_before(b, i + 1))
    return i


def _zero_width_first(text: str, policy: WidthPolicy) -> bool:
    """``text`` starts with a grapheme cluster of width 0 (a format character such as U+202E or U+200B)."""
    if not text or text.isascii():
        return False
    first = next(iter(wcwidth.iter_graphemes(text)))
    return text_width(first, policy) == 0


def _last_segment_change(
    old: Row, a: str, b: str, style: Style, width: int, policy: WidthPolicy
) -> tuple[int, list[Segment], bool] | None:
    """``diff_row`` when only the last segment changed, from ``a`` into the ASCII text ``b`` in the same ``style``
    object: the change, or None when the general path decides (not an addition or an equal-length change, or one
    past the last column)."""
    column = 0
    if len(old) > 1:
        for segment in old[:-1]:
            column += text_width(segment[0], policy)
    if len(a) == len(b) and a.isascii():
        # The XOR branch of ``diff_row``: the texts differ (the rows do), so the XOR has a set bit.
        xor = int.from_bytes(a.encode(), "big") ^ int.from_bytes(b.encode(), "big")
        cut = len(a) - (xor.bit_length() + 7) // 8
        if column + cut < width:
            end = len(b) - ((xor & -xor).bit_length() - 1) // 8
            return column + cut, [_new(Segment, (b[cut:end], style))], False
    elif len(b) > len(a) and b.startswith(a) and column + len(a) < width:
        # Every old cell kept (ASCII: one column each), the addition written after them, nothing erased.
        return column + len(a), [_new(Segment, (b[len(a) :], style))], False
    return None


def diff_row(old: Row | None, new: Row, width: int, policy: WidthPolicy) -> tuple[int, list[Segment], bool] | None:
    """How to turn ``old`` into ``new``: (start column, segments to write, erase the rest), or None."""
    if old is None:
        return 0, list(new), row_width(new, policy) < width
    if old == new:
        return None
    if not old:
        return 0, list(new), False  # onto a blank row (as every row scrolled in is): write it all, erase nothing
    count = len(old)
    if count == len(new):
        a, old_style = old[-1]  # unpacked: cheaper than the NamedTuple's attributes
        b, new_style = new[-1]
        if old_style is new_style and b.isascii() and (count == 1 or old[:-1] == new[:-1]):
            # Only the last segment changed, in the same style object, into ASCII text: a token counter in the
            # status line (at equal length) or a streamed row (text added at its end).  What the general path
            # below gives for both, without its loop and bookkeeping; past the last column it decides.
            last_only = _last_segment_change(old, a, b, new_style, width, policy)
            if last_only is not None:
                return last_only
    column = index = 0
    size = min(len(old), len(new))
    while index < size and old[index] == new[index]:
        column += text_width(new[index].text, policy)
        index += 1
    segments = list(new[index:])
    cut = unchanged_tail = 0
    kept_all = index == len(old)  # every old cell is kept (the usual keystroke: text added at the end)
    if index < size:
        kept, changed = old[index], new[index]
        if kept.style is changed.style or kept.style == changed.style:  # styles are shared objects: identity first
            a, b = kept.text, changed.text
            if len(a) == len(b) and a != b and a.isascii() and b.isascii():
                # Equal-width ASCII texts (a counter in a status line): where they differ, seen from both ends, is
                # where the XOR of their bytes read as big integers has its highest and its lowest set bit.
                xor = int.from_bytes(a.encode(), "big") ^ int.from_bytes(b.encode(), "big")
                cut = len(a) - (xor.bit_length() + 7) // 8
                if index == len(old) - 1 == len(new) - 1:
                    # The last segment changed inside and kept its width: the cells after the change are left
                    # as they are on screen, so only the changed cells are written; the row keeps its width
                    # (ASCII cells are one column each), so nothing is erased and no zero-width cell follows.
                    unchanged_tail = ((xor & -xor).bit_length() - 1) // 8
                    column += cut
                    if column < width:
                        return column, [Segment(b[cut : len(b) - unchanged_tail], changed.style)], False
                    return 0, list(new), row_width(new, policy) < width  # after the last column: see below
            else:
                cut = _common_prefix(a, b)
            if cut:
                if cut == len(a):
                    column += text_width(a, policy)  # b[:cut] is a: the text measured before, not a new one
                    kept_all = index == len(old) - 1
                else:
                    column += text_width(b[:cut], policy)
            if cut or unchanged_tail:
                if cut < len(b):
                    segments[0] = Segment(b[cut : len(b) - unchanged_tail], changed.style)
                else:
                    segments.pop(0)
    if segments and column >= width:
        return 0, list(new), row_width(new, policy) < width  # an addition after the last column: see below
    # What follows the kept cells on screen; all ASCII (the usual case) cannot start zero-wide.
    rest = old[index:]
    for segment in rest:
        if not segment.text.isascii():
            if _zero_width_first("".join([segment.text for segment in rest])[cut:], policy):
                # A zero-width character lives in the cell before it: only rewriting that cell removes it, and
                # one added after the last column cannot be reached by a cursor move (it would attach to the
                # wrong cell).
                return 0, list(new), row_width(new, policy) < width
            break
    new_width = column + unchanged_tail
    for segment in segments:
        new_width += text_width(segment.text, policy)
    # The old row was as wide as the kept cells when all of it was kept: nothing of it is left to erase.
    return column, segments, new_width < width and not kept_all and row_width(old, policy) > new_width
