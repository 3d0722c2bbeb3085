"""JSON Lines mode's text contract: records safe to print anywhere, carrying the runtime's exact text.

What the mode promises (README, "Bad input"):

* **Safe bytes.** ``encode_record`` is the one encoder of every record: JSON with every
  non-ASCII character, every C0 control, DEL, C1 control, bidi override and lone
  surrogate written as a ``\\uXXXX`` escape.  A record is printable ASCII plus its
  ``\\n`` terminator, so printing it on any terminal (one that reads 8-bit C1
  controls included) changes nothing on the screen.
* **Exact text.** ``json.loads`` gives a program the text the runtime sent, in every
  field: lone surrogates come back as the same lone surrogates (``\\ud800``), escape
  sequences as the same characters.

The core neutralizes controls where text enters the log and the status line (inline and
plain modes draw that text), so JSON Lines mode runs the same core on *carried* text:
every character the core would rewrite travels as a stand-in from Unicode plane 16
(Supplementary Private Use Area-B), which the core leaves alone, and ``encode_record``
maps the stand-ins back.  A real plane-16 character is escaped with a marker, so the
carrying is reversible for every string.  The only exception is the core's own rule for
line ends: a finished entry's one trailing newline ends its last line and is not part
of the record's text (as in every mode).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from typing import Any, TypeVar

from ..inputs import Input, Key, Status
from ..outputs import Output

__all__ = ["ascii_json", "carry", "carry_input", "encode_record", "finite_json", "uncarry", "uncarry_output"]

_PLANE = 0x100000  # stand-in for BMP character c: chr(_PLANE + ord(c))
_MARK = "\U0010fffd"  # before a real plane-16 character (U+FFFD is never carried, so this is no stand-in)
# What the core rewrites (text.sanitize, tab expansion), plus plane 16 itself (escaped with the marker).
_CARRIED = "\x00-\x08\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\U00100000-\U0010ffff"
_CARRY = re.compile(f"[{_CARRIED}]")
_CARRY_LINES = re.compile(f"[{_CARRIED}\n]")  # the status line also flattens newlines
_UNCARRY = re.compile("\U0010fffd([\U00100000-\U0010ffff])|([\U00100000-\U0010ffff])")

T = TypeVar("T")


def _stand_in(match: re.Match[str]) -> str:
    char = match.group(0)
    code = ord(char)
    return _MARK + char if code >= _PLANE else chr(_PLANE + code)


def _back(match: re.Match[str]) -> str:
    literal, stand_in = match.group(1), match.group(2)
    return literal if literal is not None else chr(ord(stand_in) - _PLANE)


def carry(text: str, lines: bool = False) -> str:
    """``text`` with every character the core would rewrite replaced by its stand-in (``uncarry`` inverts)."""
    pattern = _CARRY_LINES if lines else _CARRY
    return text if pattern.search(text) is None else pattern.sub(_stand_in, text)


def uncarry(text: str) -> str:
    """The original text of a carried one (identity on text without plane-16 characters)."""
    return text if _UNCARRY.search(text) is None else _UNCARRY.sub(_back, text)


def _map_strings(value: T, convert: Any) -> T:
    """``value`` (a dataclass, tuple, list, dict or str) with every string converted."""
    if isinstance(value, str):
        result: Any = convert(value)
    elif isinstance(value, (tuple, list)):
        result = type(value)(_map_strings(item, convert) for item in value)
    elif isinstance(value, dict):
        result = {_map_strings(k, convert): _map_strings(v, convert) for k, v in value.items()}
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _map_strings(getattr(value, f.name), convert) for f in dataclasses.fields(value)}
        result = dataclasses.replace(value, **changes)
    else:
        result = value
    return result  # type: ignore[no-any-return]


def carry_input(item: Input) -> Input:
    """An input whose texts are carried (a key name is not text: it stays as it is)."""
    if isinstance(item, Key):
        return item
    if isinstance(item, Status):
        return Status(carry(item.text, lines=True))
    carried: Input = _map_strings(item, carry)
    return carried


def uncarry_output(output: Output) -> Output:
    """An output of the core with its texts (ids, answers) back to the runtime's own."""
    result: Output = _map_strings(output, uncarry)
    return result


def encode_record(data: dict[str, Any]) -> str:
    """One JSON Lines record (no newline): carried text restored, then printable ASCII only."""
    return ascii_json(_map_strings(data, uncarry))


def finite_json(value: Any) -> Any:
    """``value`` with every non-finite float as the string JSON has no number for (``"Infinity"``,
    ``"-Infinity"``, ``"NaN"``): a runtime's ``1e999`` decodes to ``inf``, which RFC 8259 cannot write."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_json(item) for item in value]
    return value


def ascii_json(data: Any) -> str:
    """``data`` as one line of strict JSON (RFC 8259) in printable ASCII (text that was never carried: written as it
    is; a non-finite number as a string, see ``finite_json``)."""
    try:
        text = json.dumps(data, ensure_ascii=True, allow_nan=False)
    except ValueError:  # only non-finite floats make allow_nan=False fail: the walk is paid for them alone
        text = json.dumps(finite_json(data), ensure_ascii=True, allow_nan=False)
    # ensure_ascii escapes everything outside ASCII, and C0; DEL is the one control it leaves raw.
    return text.replace("\x7f", "\\u007f")
