"""Styled spans for apps: trusted ANSI text (SGR only) and a typed way to build it.

An app that wants colour in the log builds ``Segment``s (text + ``Style``) and turns them into
text for the ``ansi`` log kind with ``ansi_text``, or passes output it trusts (``git diff
--color``, a formatter's colours) as that kind directly.  ``parse_ansi`` keeps *only* SGR
(``ESC[...m``: bold, dim, italic, underline, strike, reverse, 16/256/true colours, foreground
and background) and neutralizes everything else exactly as untrusted text is (``sanitize``:
cursor moves, OSC 8/52, DCS, C1 controls are shown as pictures, never obeyed).  Every other
kind stays untrusted: an SGR in it is shown as ``␛[1m``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Union

from .cells import WidthPolicy, clip_to_width, expand_tabs, sanitize, text_width, wrap_line
from .style import DEFAULT, Row, Segment, Style

__all__ = ["StyledText", "ansi_row", "ansi_text", "parse_ansi", "sgr", "trusted", "wrap_ansi"]

StyledText = Union[str, Sequence[Union[Segment, tuple[str, Style], str]]]
"""What an app may pass where text is shown: a plain (untrusted) string, or styled segments."""

_SGR = re.compile(r"\x1b\[([0-9;:]{0,64})m")
# prompt_toolkit's names of the 16 ANSI colours, by SGR foreground code.
_NAMES: dict[int, str] = dict(
    zip(
        (*range(30, 38), *range(90, 98)),
        [
            "ansiblack",
            "ansired",
            "ansigreen",
            "ansiyellow",
            "ansiblue",
            "ansimagenta",
            "ansicyan",
            "ansigray",
            "ansibrightblack",
            "ansibrightred",
            "ansibrightgreen",
            "ansibrightyellow",
            "ansibrightblue",
            "ansibrightmagenta",
            "ansibrightcyan",
            "ansiwhite",
        ],
        strict=True,
    )
)
_FLAGS = {1: ("bold", True), 2: ("dim", True), 3: ("italic", True), 4: ("underline", True), 7: ("reverse", True)}
_FLAGS.update({9: ("strike", True), 22: ("bold", False), 23: ("italic", False), 24: ("underline", False)})
_FLAGS.update({27: ("reverse", False), 29: ("strike", False)})


def _xterm(index: int) -> str:
    """An xterm 256-colour index as ``#rrggbb`` (the 16 first as ANSI names)."""
    if index < 16:
        return _NAMES[30 + index] if index < 8 else _NAMES[90 + index - 8]
    if index < 232:
        index -= 16
        levels = (0, 95, 135, 175, 215, 255)
        r, g, b = levels[index // 36], levels[(index // 6) % 6], levels[index % 6]
        return f"#{r:02x}{g:02x}{b:02x}"
    grey = 8 + (index - 232) * 10
    return f"#{grey:02x}{grey:02x}{grey:02x}"


def _colour(params: list[int], at: int) -> tuple[str | None, int]:
    """The extended colour starting at ``params[at]`` (5;n or 2;r;g;b) and how many parameters it used."""
    if at < len(params) and params[at] == 5 and at + 1 < len(params):
        return _xterm(min(255, params[at + 1])), 2
    if at < len(params) and params[at] == 2 and at + 3 < len(params):
        r, g, b = (min(255, value) for value in params[at + 1 : at + 4])
        return f"#{r:02x}{g:02x}{b:02x}", 4
    return None, len(params) - at


def _apply(style: Style, body: str) -> Style:
    params = [int(part) if part.isdigit() else 0 for part in re.split("[;:]", body)] if body else [0]
    values = {field: getattr(style, field) for field in ("fg", "bg", "bold", "dim", "italic", "underline", "reverse")}
    values["strike"] = style.strike
    index = 0
    while index < len(params):
        code = params[index]
        index += 1
        if code == 0:
            values = {field: (None if field in ("fg", "bg") else False) for field in values}
        elif code in _FLAGS:
            name, on = _FLAGS[code]
            values[name] = on
            if code == 22:
                values["dim"] = False
        elif code in _NAMES:
            values["fg"] = _NAMES[code]
        elif 40 <= code <= 47 or 100 <= code <= 107:
            values["bg"] = _NAMES[code - 10]
        elif code in (38, 48):
            colour, used = _colour(params, index)
            index += used
            values["fg" if code == 38 else "bg"] = colour
        elif code == 39:
            values["fg"] = None
        elif code == 49:
            values["bg"] = None
    return Style(**values)


def parse_ansi(text: str, base: Style = DEFAULT) -> list[tuple[Segment, ...]]:
    """Trusted ANSI text as styled lines: SGR kept, every other control neutralized, tabs expanded."""
    lines: list[list[Segment]] = [[]]
    style = base
    position = 0
    for found in [*_SGR.finditer(text), None]:
        end = found.start() if found is not None else len(text)
        piece = sanitize(text[position:end])
        for index, part in enumerate(piece.split("\n")):
            if index:
                lines.append([])
            if part:
                lines[-1].append(Segment(part, style))
        if found is not None:
            style = _apply(style, found.group(1))
            position = found.end()
    out = []
    for line in lines:
        column, segments = 0, []
        for segment in line:
            expanded = expand_tabs(segment.text, column)
            column += text_width(expanded)
            segments.append(Segment(expanded, segment.style))
        out.append(tuple(segments))
    return out


def sgr(style: Style) -> str:
    """The SGR sequence that sets ``style`` from the default (no hyperlink: those come from Markdown only)."""
    codes = ["0"]
    for flag, code in (("bold", 1), ("dim", 2), ("italic", 3), ("underline", 4), ("reverse", 7), ("strike", 9)):
        if getattr(style, flag):
            codes.append(str(code))
    for colour, base in ((style.fg, 38), (style.bg, 48)):
        if colour is None:
            continue
        if colour.startswith("#") and len(colour) == 7:
            codes.append(f"{base};2;{int(colour[1:3], 16)};{int(colour[3:5], 16)};{int(colour[5:7], 16)}")
        else:
            number = next((n for n, name in _NAMES.items() if name == colour), None)
            if number is not None:
                codes.append(str(number + (10 if base == 48 else 0)))
    return f"\x1b[{';'.join(codes)}m"


def ansi_text(segments: Iterable[Segment | tuple[str, Style] | str]) -> str:
    """Text for the ``ansi`` log kind from styled segments (plain strings take the default style).

    The segments' own text is sanitized first, so only the SGR written here is trusted.
    """
    parts: list[str] = []
    for item in segments:
        text, style = (item, DEFAULT) if isinstance(item, str) else (item[0], item[1])
        parts.append(sgr(style) + sanitize(text))
    parts.append("\x1b[0m")
    return "".join(parts)


def ansi_row(text: str, base: Style = DEFAULT) -> Row:
    """Trusted ANSI text as one row (a status line): its lines joined by a space, SGR kept."""
    out: list[Segment] = []
    for index, line in enumerate(parse_ansi(text, base)):
        if index:
            out.append(Segment(" ", base))
        out.extend(line)
    return tuple(_merge(out))


def _merge(segments: Iterable[Segment]) -> list[Segment]:
    """Adjacent segments of one style as one (fewer, longer runs to draw)."""
    out: list[Segment] = []
    for segment in segments:
        if not segment.text:
            continue
        if out and out[-1].style == segment.style:
            out[-1] = Segment(out[-1].text + segment.text, segment.style)
        else:
            out.append(segment)
    return out


def _slice(line: tuple[Segment, ...], start: int, end: int) -> list[Segment]:
    """The segments covering characters ``[start, end)`` of ``line``'s text."""
    out, offset = [], 0
    for segment in line:
        low, high = max(start, offset), min(end, offset + len(segment.text))
        if low < high:
            out.append(Segment(segment.text[low - offset : high - offset], segment.style))
        offset += len(segment.text)
    return out


def wrap_ansi(
    text: str, width: int, policy: WidthPolicy = WidthPolicy.CODEPOINT, indent: str = "  "
) -> tuple[Row, ...]:
    """Trusted ANSI text word-wrapped under ``indent`` (a dialog's message), styles kept per character."""
    rows: list[Row] = []
    room = max(1, width - len(indent))
    for line in parse_ansi(text):
        plain = "".join(segment.text for segment in line)
        start = 0
        for end in wrap_line(plain, room, policy):
            piece = plain[start:end].rstrip(" ")
            clipped, _ = clip_to_width(piece, room, policy)
            if clipped == piece:
                segments = _slice(line, start, start + len(piece))
            else:  # a cluster that cannot fit as is (clip_to_width shows a stand-in): the first run's style
                segments = [Segment(clipped, line[0].style if line else DEFAULT)] if clipped else []
            rows.append((Segment(indent), *_merge(segments)) if segments else ())
            start = end
    return tuple(rows)


def trusted(value: StyledText) -> tuple[str, bool]:
    """``(text, styled)`` for an input's text field: a string as is (untrusted, shown neutralized), a
    sequence of segments as trusted ANSI (``ansi_text``) with ``styled=True``."""
    if isinstance(value, str):
        return value, False
    return ansi_text(value), True
