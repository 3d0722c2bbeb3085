"""Facts about the process's terminal, read from the environment and the streams (no state).

Which output mode ``auto`` means, which colour depth to encode styles with,
and the size of the terminal.  Everything takes its inputs as arguments
(environment mapping, streams) so it is testable without a terminal.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Mapping
from typing import IO, Any

from prompt_toolkit.output.color_depth import ColorDepth

__all__ = ["OutputMode", "color_depth_for", "resolve_mode", "stream_is_tty", "terminal_size"]


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
    """NO_COLOR and PROMPT_TOOLKIT_COLOR_DEPTH first, then what TERM/COLORTERM say."""
    if env.get("NO_COLOR"):
        return ColorDepth.DEPTH_1_BIT
    forced = env.get("PROMPT_TOOLKIT_COLOR_DEPTH")
    if forced in {depth.value for depth in ColorDepth}:
        return ColorDepth(forced)
    term = env.get("TERM", "")
    if term in ("dumb", "") or term.startswith("vt"):
        return ColorDepth.DEPTH_1_BIT
    if term in ("linux", "eterm-color"):
        return ColorDepth.DEPTH_4_BIT
    if env.get("COLORTERM", "") in ("truecolor", "24bit"):
        return ColorDepth.DEPTH_24_BIT
    return ColorDepth.DEPTH_8_BIT


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
