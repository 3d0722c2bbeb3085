"""The terminal title (a Lemon runtime's ``ui_set_title``): sanitized OSC 2, saved and restored.

The title is untrusted text going *into* an escape sequence, so only printable
characters are kept: a control (ESC, BEL, C1 ST) would end the OSC early and
let the rest run as a sequence of the runtime's choosing (OSC 52 clipboard
writes, say).  Format characters (bidi overrides) go too, whitespace runs are
one space, and the length is capped.  XTWINOPS saves the user's title on the
terminal's title stack before the first change and pops it at exit; terminals
without the stack ignore both (the last title then stays).
"""

from __future__ import annotations

__all__ = ["MAX_TITLE_CHARS", "POP_TITLE", "PUSH_TITLE", "sanitize_title", "title_sequence"]

MAX_TITLE_CHARS = 200
PUSH_TITLE = b"\x1b[22;2t"  # XTWINOPS 22;2: save the window title on the stack
POP_TITLE = b"\x1b[23;2t"  # XTWINOPS 23;2: restore it


def sanitize_title(title: str, max_chars: int = MAX_TITLE_CHARS) -> str:
    """``title`` as printable text on one line: controls and format characters dropped, capped."""
    printable = "".join(ch if ch.isprintable() else " " if ch.isspace() else "" for ch in title)
    return " ".join(printable.split())[:max_chars]


def title_sequence(title: str) -> bytes:
    """OSC 2 (window title) with the sanitized ``title``, ended by ST."""
    return b"\x1b]2;" + sanitize_title(title).encode("utf-8") + b"\x1b\\"
