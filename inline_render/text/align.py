"""Where a new full text continues what was kept of an old one: ``continued_at``.

A runtime may resend an answer whole (codelia's ``final``, a Lemon snapshot after an edit) with its whitespace
normalized: the parts it streamed joined by one blank line where the UI joined them by two, a trailing newline
dropped.  The committed part of the old text is on the screen already and stays as it is; the new text continues
it from the offset where the same words end, not from the old text's offset (which would skip or repeat text).
"""

from __future__ import annotations

import re

__all__ = ["continued_at", "started_at"]


_TAIL_WORDS = 64  # words of the kept text's end looked for when its start is not where it was


def continued_at(old: str, new: str, start: int = 0) -> int:
    """The offset in ``new`` where ``old``, which started at ``start`` in the text ``new`` replaces, ends there: runs
    of whitespace are taken as equal to any other run, and where the text before ``start`` was spaced otherwise
    too, ``old``'s last words are found nearest to where they were.  ``start + len(old)`` when ``new`` does not
    hold them (the text changed: the offset stays as it was)."""
    if new.startswith(old, start):
        return start + len(old)
    walked = _walk(old, new, start)
    return walked if walked is not None else _nearest_tail(old, new, start + len(old))


def _nearest_tail(old: str, new: str, near: int) -> int:
    """The end in ``new`` of ``old``'s last words, whitespace runs equal, the occurrence nearest ``near``."""
    words = old.split()[-_TAIL_WORDS:]
    if not words:
        return near
    pattern = re.compile(r"\s+".join(map(re.escape, words)) + (r"\s*" if old[-1:].isspace() else ""))
    ends = [match.end() for match in pattern.finditer(new)]
    return min(ends, key=lambda end: abs(end - near)) if ends else near


def _walk(old: str, new: str, start: int) -> int | None:
    """``old`` read in ``new`` from ``start`` with whitespace runs equal: where it ends, or None."""
    i, j, end = 0, start, len(new)
    while i < len(old):
        if old[i].isspace():
            if j >= end or not new[j].isspace():
                return None
            while i < len(old) and old[i].isspace():
                i += 1
            while j < end and new[j].isspace():
                j += 1
            continue
        if j >= end or new[j] != old[i]:
            return None
        i, j = i + 1, j + 1
    return j


def started_at(text: str, new: str, near: int) -> int:
    """Where ``text``'s first words start in ``new``, whitespace runs equal, the occurrence nearest ``near`` (the
    offset ``text`` had in the text ``new`` replaces); ``near`` when ``new`` does not hold them."""
    if new.startswith(text[:256], near):
        return near
    words = text.split()[:_TAIL_WORDS]
    if not words:
        return near
    starts = [match.start() for match in re.finditer(r"\s+".join(map(re.escape, words)), new)]
    return min(starts, key=lambda start: abs(start - near)) if starts else near
