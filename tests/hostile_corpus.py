"""A generated corpus of hostile text, and the inputs that carry it into every field the library shows.

``STRINGS`` holds every C0 and C1 control and DEL alone, the escape sequences an attacker would
try (erase screen and scrollback, OSC 52 clipboard, OSC 8 links, window titles, DCS/APC/PM/SOS
strings, terminal reset, charset switches, 8-bit CSI/OSC, device queries whose answers would be
typed in), bidi overrides, lone surrogates, BOM and line separators, zero-width and wide
characters, tabs and carriage returns, plane-16 private characters and very long lines.
``hostile_inputs`` puts one string into every text field of every input type;
``split_deltas`` streams it in every two-piece split, so a sequence cut between deltas is covered.
"""

from __future__ import annotations

from collections.abc import Iterator

from inline_render import (
    ConfirmRequest,
    EditorSet,
    Input,
    Key,
    LegacyText,
    LogAppend,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    Paste,
    PermissionPreview,
    PermissionReady,
    PickOption,
    PickRequest,
    PromptRequest,
    Status,
    Working,
)
from inline_render.inputs import LOG_KINDS

__all__ = ["STRINGS", "hostile_inputs", "split_deltas"]

_SEQUENCES = [
    "\x1b[2J",  # erase the screen
    "\x1b[3J",  # erase the scrollback
    "\x1b[H\x1b[2J\x1b[3J",
    "\x1bc",  # RIS: full reset
    "\x1b]52;c;aGVsbG8=\x07",  # OSC 52: set the clipboard (BEL)
    "\x1b]52;c;aGVsbG8=\x1b\\",  # OSC 52 with ST
    "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x1b]0;pwned title\x07",
    "\x1bP+q544e\x1b\\",  # DCS XTGETTCAP
    "\x1b_Gf=100;AAAA\x1b\\",  # APC (kitty graphics)
    "\x1b^private\x1b\\",
    "\x1bXsos\x1b\\",
    "\x1b[6n",  # DSR: the answer would arrive as typed input
    "\x1b[c\x1b[>c\x1b[21t",
    "\x1b[?1049h",  # alternate screen
    "\x1b[?25l",  # hide the cursor
    "\x1b[1;1r",  # scroll region
    "\x1b[999;999H",
    "\x1b(0lqqk\x1b(B",  # DEC line drawing
    "\x1b7\x1b8\x1bD\x1bM\x1bE",
    "\x1b[31;1;4mred\x1b[0m",
    "\x1b[38;2;255;0;0mtrue colour",
    "\x9b2J",  # 8-bit CSI
    "\x9d0;title\x9c",  # 8-bit OSC ... ST
    "\x90q\x9c",  # 8-bit DCS
    "\x1b",  # a lone ESC at the end
    "\x1b[",  # an unfinished CSI
    "\x1b]52;c;",  # an unfinished OSC
]
_TEXT = [
    "\u202eevil\u202c",  # right-to-left override ("Trojan Source")
    "\u2066\u2067\u2068isolates\u2069",
    "a\ud800b",  # lone surrogates
    "\udfff",
    "\ufeffbom",
    "line\u2028separator\u2029para",
    "zero\u200bwidth\u200d\u200c",
    "\u0301combining first",
    "wide \u4e2d\u6587 emoji \U0001f468\u200d\U0001f469\u200d\U0001f467 flag \U0001f1fa\U0001f1f8",
    "tab\there\t\tend",
    "over\rwrite",
    "crlf\r\nline",
    "\U00100000\U0010fffd private use",
    "x" * 3000,  # a very long line
    "\n\n\n",
]
STRINGS: tuple[str, ...] = (
    *(chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]),
    *_SEQUENCES,
    *_TEXT,
    "".join(_SEQUENCES),
)


def hostile_inputs(text: str, n: int) -> list[list[Input]]:
    """Batches of inputs carrying ``text`` in every text field (``n`` makes ids unique)."""
    tag = f"{n}"
    option = PickOption(text + tag, text, text)
    return [
        [LogAppend(kind, text) for kind in LOG_KINDS],
        [Status(text), Working(text), Notify(text, "warn"), LegacyText(text)],
        [PermissionPreview(text, diff=f"--- a\n+++ b\n@@ -1 +1 @@\n-{text}\n+{text}\n", summary=text)],
        [PermissionReady(text, tool_call_id=text)],
        [ConfirmRequest("c" + tag, text, text, confirm_label=text, cancel_label=text, allow_remember=True)],
        [],  # drawn: the dialog turns active
        [Key("n")],
        [PromptRequest("p" + tag, text, text, default=text, placeholder=text)],
        [],
        [Paste(text), Key("enter")],
        [PickRequest("k" + tag, text, (option, PickOption(text, text)), message=text, multi=True)],
        [],
        [Key(" "), Key("enter")],
        [EditorSet(text), Paste(text)],
        [LogAppend("assistant", text, id="s" + tag, final=False), LogReplace("s" + tag, text + text)],
        [LogDelta("s" + tag, text), LogFinish("s" + tag), Status("")],
    ]


def split_deltas(text: str, n: int) -> Iterator[list[Input]]:
    """``text`` streamed as two deltas, cut at every position (each cut a batch of its own)."""
    for cut in range(1, len(text)):
        entry = f"d{n}.{cut}"
        yield [LogAppend("assistant", "", id=entry, final=False), LogDelta(entry, text[:cut])]
        yield [LogDelta(entry, text[cut:]), LogFinish(entry)]
