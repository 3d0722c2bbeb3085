"""Permission preflight lines: the one definition of the legacy text forms and of how both paths read.

Legacy runtimes print the preflight as text (``Planned <tool> diff preview``,
the diff, ``Permission preflight ready (<tool>)``); structured runtimes send
``permission.preview`` / ``permission.ready``.  Both render through the lines
defined here, so they look the same.
"""

from __future__ import annotations

import re

__all__ = ["is_diff_line", "match_preview_header", "match_ready", "preview_header", "ready_line"]

# "Planned edit diff preview" / "Planned edit diff preview:"
_HEADER = re.compile(r"Planned (?P<tool>\S(?:.*\S)?) diff preview:?")
# "Permission preflight ready (edit)" / older "Permission preflight ready for edit."
_READY = re.compile(r"Permission preflight ready (?:\((?P<paren>[^)]+)\)|for (?P<for>.+?))\.?")
# Lines that can belong to a unified diff (git's extended headers included); an empty line is context.
_DIFF_PREFIXES = (
    " ", "+", "-", "@@", "\\", "diff ", "index ", "new file mode", "deleted file mode",
    "old mode", "new mode", "similarity index", "rename from", "rename to", "Binary files",
)  # fmt: skip


def preview_header(tool: str, summary: str | None = None) -> str:
    """The one status line that heads a permission preview."""
    return f"Planned {tool} diff preview" + (f" ({summary})" if summary else "")


def ready_line(tool: str) -> str:
    """The one status line of a ready preflight (no indented detail)."""
    return f"Permission preflight ready ({tool})"


def match_preview_header(line: str) -> str | None:
    """The tool named by a legacy preview header line, else None."""
    found = _HEADER.fullmatch(line.strip())
    return found["tool"] if found else None


def match_ready(line: str) -> str | None:
    """The tool named by a legacy ready line, else None."""
    found = _READY.fullmatch(line.strip())
    return (found["paren"] or found["for"]).strip() if found else None


def is_diff_line(line: str) -> bool:
    """Whether a line following a preview header still belongs to its diff."""
    return line == "" or line.startswith(_DIFF_PREFIXES)
