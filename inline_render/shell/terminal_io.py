"""Facts about the process's terminal, read from the environment and the streams (no state).

Which output mode ``auto`` means, which colour depth to encode styles with,
and the size of the terminal.  Everything takes its inputs as arguments
(environment mapping, streams) so it is testable without a terminal.
"""

from __future__ import annotations

import contextlib
import enum
import io
import os
from collections.abc import Mapping
from typing import IO, Any

from prompt_toolkit.data_structures import Size
from prompt_toolkit.output.color_depth import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.utils import is_dumb_terminal

from ..text.themes import color_depth_from_env

__all__ = ["OutputMode", "binary_stream", "color_depth_for", "resolve_mode", "stream_is_tty", "terminal_size"]


class OutputMode(enum.Enum):
    """How the app writes: live inline viewport, plain transcript, or JSON Lines."""

    AUTO = "auto"
    INLINE = "inline"
    PLAIN = "plain"
    JSONL = "jsonl"


def stream_is_tty(stream: IO[Any] | None) -> bool:
    """True when ``stream`` is a terminal (False for pipes, files, closed or fileno-less streams)."""
    if stream is None:
        return False
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


def resolve_mode(mode: OutputMode, ui_stream: IO[Any] | None, env: Mapping[str, str]) -> OutputMode:
    """``auto``: inline on a capable terminal; plain when the UI stream is not one or TERM=dumb."""
    if mode is not OutputMode.AUTO:
        return mode
    if not stream_is_tty(ui_stream) or env.get("TERM", "") == "dumb":
        return OutputMode.PLAIN
    return OutputMode.INLINE


def color_depth_for(env: Mapping[str, str]) -> ColorDepth:
    """The depth styles are encoded with: what the environment asks, else what the terminal is.

    ``NO_COLOR``, ``PROMPT_TOOLKIT_COLOR_DEPTH`` and ``FORCE_COLOR`` first (``themes.color_depth_from_env``);
    then no colour for an unset TERM or a VT100-family one, 24-bit for ``COLORTERM=truecolor``
    (prompt_toolkit does not read it), otherwise prompt_toolkit's detection from TERM (dumb: none,
    ``linux``/``eterm-color``: 16 colours, the rest 256).
    """
    asked = color_depth_from_env(env)
    if asked is not None:
        return asked
    term = env.get("TERM", "")
    if term == "" or term.startswith("vt"):
        return ColorDepth.DEPTH_1_BIT
    if env.get("COLORTERM", "") in ("truecolor", "24bit") and not is_dumb_terminal(term):
        return ColorDepth.DEPTH_24_BIT
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term=term)
    return output.get_default_color_depth()


def terminal_size(fd: int, fallback: tuple[int, int] = (80, 24)) -> tuple[int, int]:
    """(columns, rows) of the terminal on ``fd``; ``fallback`` when it has none or reports zeros."""
    try:
        size = os.get_terminal_size(fd)
    except OSError:
        return fallback
    columns, rows = size.columns, size.lines
    if columns <= 0 or rows <= 0:
        return fallback
    return min(columns, 10_000), min(rows, 10_000)


def binary_stream(stream: IO[str]) -> Any:
    """The byte stream under a text stream (flushing pending text first)."""
    with contextlib.suppress(Exception):
        stream.flush()
    return getattr(stream, "buffer", stream)
