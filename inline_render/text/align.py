"""Where a new full text continues what was kept of an old one: ``continued_at``.

A runtime may resend an answer whole (codelia's ``final``, a Lemon snapshot after an edit) with its whitespace
normalized: the parts it streamed joined by one blank line where the UI joined them by two, a trailing newline
dropped.  The committed part of the old text is on the screen already and stays as it is; the new text continues
it from the offset where the same words end, not from the old text's offset (which would skip or repeat text).
"""

from __future__ import annotations

__all__ = ["continued_at"]


def continued_at(old: str, new: str, start: int = 0) -> int:
    """The offset in ``new`` (from ``start``) where ``old`` ends, runs of whitespace taken as equal to any other run;
    ``start + len(old)`` when ``new`` does not hold ``old``'s words in order there (the text changed: the offset
    stays as it was)."""
    if new.startswith(old, start):
        return start + len(old)
    i, j, end = 0, start, len(new)
    while i < len(old):
        if old[i].isspace():
            if j >= end or not new[j].isspace():
                return start + len(old)
            while i < len(old) and old[i].isspace():
                i += 1
            while j < end and new[j].isspace():
                j += 1
            continue
        if j >= end or new[j] != old[i]:
            return start + len(old)
        i, j = i + 1, j + 1
    return j
