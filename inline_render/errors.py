"""The exception hierarchy: every error the library raises on purpose."""

from __future__ import annotations

__all__ = [
    "BackendError",
    "InlineRenderError",
    "InvalidInput",
    "InvariantViolation",
    "ProtocolError",
    "ScenarioError",
]


class InlineRenderError(Exception):
    """Base class of every error raised on purpose by inline_render."""


class InvalidInput(InlineRenderError, ValueError):
    """An input value (JSON object, key name, size, text) is malformed.

    The message names the offending field, e.g. ``log.append: field 'text' must
    be a string, got int``.
    """


class InvariantViolation(InlineRenderError, AssertionError):
    """A RenderState invariant of DESIGN.md does not hold at the end of a tick."""


class BackendError(InlineRenderError, OSError):
    """A terminal write failed; ``written`` bytes of the tick reached the terminal."""

    def __init__(self, message: str, written: int = 0) -> None:
        super().__init__(message)
        self.written = written


class ProtocolError(InlineRenderError):
    """A runtime protocol message is malformed (JSON-RPC level)."""


class ScenarioError(InlineRenderError):
    """A scenario file is malformed; the message names the file, line and field."""
