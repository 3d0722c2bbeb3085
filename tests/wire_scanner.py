"""An independent scanner of the bytes on the wire, written from the ECMA-48 grammar (not from the renderer).

``scan`` splits a byte stream into text and control functions:

* C0 controls (0x00-0x1F) and DEL, one at a time;
* ``ESC [`` CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, a final byte 0x40-0x7E
  (ECMA-48 5.4);
* ``ESC ]`` OSC, ``ESC P`` DCS, ``ESC X`` SOS, ``ESC ^`` PM, ``ESC _`` APC: a control string up to ST
  (``ESC \\``) or BEL, or to the end of the data (ECMA-48 5.6);
* other escape sequences: ``ESC``, intermediates 0x20-0x2F, a final 0x30-0x7E (ECMA-35 nF/Fp/Fe/Fs);
* C1 controls as code points U+0080-U+009F of the UTF-8 text (terminals that read 8-bit controls
  in UTF-8, such as xterm.js, act on them);
* invalid UTF-8, lone surrogates, and the bidi embedding/override/isolate characters, which reorder
  text invisibly.

``violations`` lists every control function that is not in ``RENDERER_SEQUENCES``: the ones the
renderer itself emits, written out here by hand from its documented operations (DESIGN, "The
tick"; backend: cursor moves, erase to end of line/screen, scroll region, SGR, cursor visibility,
synchronized output, CAN).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RENDERER_SEQUENCES", "Token", "scan", "violations"]

ESC = 0x1B
_STRING_INTRODUCERS = {ord("]"): "OSC", ord("P"): "DCS", ord("X"): "SOS", ord("^"): "PM", ord("_"): "APC"}
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


@dataclass(frozen=True)
class Token:
    """One control function (``kind`` CSI, OSC..., ESC, C0, C1, BIDI, BAD) with its raw bytes or text."""

    kind: str
    raw: str


def _csi_end(data: bytes, start: int) -> int:
    """Index after the CSI sequence whose parameter bytes start at ``start`` (len(data) if unterminated)."""
    index = start
    while index < len(data) and 0x30 <= data[index] <= 0x3F:
        index += 1
    while index < len(data) and 0x20 <= data[index] <= 0x2F:
        index += 1
    return index + 1 if index < len(data) and 0x40 <= data[index] <= 0x7E else len(data)


def _string_end(data: bytes, start: int) -> int:
    """Index after the control string starting at ``start``: up to ST (ESC \\) or BEL."""
    index = start
    while index < len(data):
        if data[index] == 0x07:
            return index + 1
        if data[index] == ESC and index + 1 < len(data) and data[index + 1] == ord("\\"):
            return index + 2
        index += 1
    return len(data)


def _text_tokens(data: bytes) -> list[Token]:
    """Controls hidden in the text between escape sequences: C1, bidi, invalid UTF-8 (surrogates included)."""
    tokens = []
    # surrogateescape: every byte that is not valid UTF-8 becomes U+DC80-U+DCFF, so the rest is still scanned.
    for char in data.decode("utf-8", "surrogateescape"):
        code = ord(char)
        if 0x80 <= code <= 0x9F:
            tokens.append(Token("C1", char))
        elif code in _BIDI:
            tokens.append(Token("BIDI", char))
        elif 0xD800 <= code <= 0xDFFF:
            tokens.append(Token("BAD", f"invalid UTF-8 byte {code - 0xDC00:#04x}"))
    return tokens


def scan(data: bytes) -> list[Token]:
    """Every control function in ``data``, in order."""
    tokens: list[Token] = []
    index = text_start = 0
    while index < len(data):
        byte = data[index]
        if byte >= 0x20 and byte != 0x7F:
            index += 1
            continue
        tokens += _text_tokens(data[text_start:index])
        if byte != ESC:
            tokens.append(Token("C0", chr(byte)))
            index += 1
        elif index + 1 >= len(data):
            tokens.append(Token("ESC", "\x1b"))
            index += 1
        else:
            after = data[index + 1]
            if after == ord("["):
                end = _csi_end(data, index + 2)
                kind = "CSI"
            elif after in _STRING_INTRODUCERS:
                end = _string_end(data, index + 2)
                kind = _STRING_INTRODUCERS[after]
            else:
                end = index + 1
                while end < len(data) and 0x20 <= data[end] <= 0x2F:
                    end += 1
                end = min(end + 1, len(data))
                kind = "ESC"
            tokens.append(Token(kind, data[index:end].decode("latin-1")))
            index = end
        text_start = index
    tokens += _text_tokens(data[text_start:])
    return tokens


_NUMBER = r"\d{1,5}"
# Every control function the renderer emits (ops.py / backend.py documentation), as exact patterns.
RENDERER_SEQUENCES = {
    "C0": re.compile("[\r\n\x18]"),  # carriage return, line feed, CAN (abandons a write cut mid-sequence)
    "CSI": re.compile(
        "|".join(
            [
                rf"\x1b\[(?:{_NUMBER})?A",  # CUU: the cursor up (every move is relative; down is line feeds)
                rf"\x1b\[{_NUMBER}G",  # CHA: the cursor to a column of its row
                r"\x1b\[K",  # EL 0: erase to the end of the line
                r"\x1b\[J",  # ED 0: erase to the end of the screen (never 2J or 3J)
                rf"\x1b\[(?:{_NUMBER}(?:;{_NUMBER})*)?m",  # SGR
                # DECAWM (a row's last character with zero-width code points after it; a line as one text on GNU
                # screen), DECTCEM cursor visibility, synchronized output.
                r"\x1b\[\?(?:7|25|2026)[hl]",
            ]
        )
    ),
}


def violations(data: bytes, allowed: dict[str, re.Pattern[str]] | None = None) -> list[Token]:
    """The control functions in ``data`` that are not among ``allowed`` (default: the renderer's own)."""
    allowed = RENDERER_SEQUENCES if allowed is None else allowed
    bad = []
    for token in scan(data):
        pattern = allowed.get(token.kind)
        if pattern is None or pattern.fullmatch(token.raw) is None:
            bad.append(token)
    return bad
