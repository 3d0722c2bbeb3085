"""How agent events read in the log: compact tool calls and truncated tool results.

Pure text functions.  The core decorates entries by kind and neutralizes any
control characters, so these only decide *what* is shown and how much of it.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["clip", "compact_json", "format_tool_call", "format_tool_result"]

ELLIPSIS = "\u2026"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with an ellipsis."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + ELLIPSIS


def compact_json(value: Any) -> str:
    """One-line JSON of a decoded JSON value (never raises)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (ValueError, RecursionError):  # absurdly deep values: show that there was something
        return ELLIPSIS


def _arg(value: Any) -> str:
    # A one-line string reads best bare (path=src/app.py); anything else as compact JSON,
    # which also escapes newlines so an argument never spans rows.
    if isinstance(value, str) and value.isprintable():
        return value
    return compact_json(value)


def format_tool_call(tool: str, args: Any, max_chars: int = 160) -> str:
    """``tool`` and its arguments on one line: ``edit path=hello.py, line=3``."""
    if args is None or args == {} or args == []:
        return clip(tool, max_chars)
    text = ", ".join(f"{k}={_arg(v)}" for k, v in args.items()) if isinstance(args, dict) else _arg(args)
    return clip(f"{tool} {text}", max_chars)


def format_tool_result(
    tool: str, result: Any, is_error: bool = False, *, max_lines: int = 12, max_chars: int = 2000
) -> str:
    """``tool: first line`` plus at most ``max_lines`` lines / ``max_chars`` characters."""
    head = f"{tool} failed" if is_error else tool
    if result is None or result == "":
        return f"{head}: (no output)"
    body = result if isinstance(result, str) else compact_json(result)
    lines = body.replace("\r\n", "\n").rstrip("\n").split("\n")
    text = "\n".join(lines[:max_lines])
    clipped = len(text) > max_chars
    if clipped:
        text = text[:max_chars] + ELLIPSIS
    hidden = len(lines) - (text.count("\n") + 1)
    if hidden > 0:
        text += f"\n{ELLIPSIS} {hidden} more line{'' if hidden == 1 else 's'}"
    return f"{head}: {text}"
