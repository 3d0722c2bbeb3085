"""Legacy permission preflight: plain text lines recognized as the structured events.

Runtimes that predate ``supports_permission_preflight_events`` print the
preflight as text lines::

    Planned edit diff preview:
    --- a/hello.py
    +++ b/hello.py
    @@ -1 +1 @@
    -print("hi")
    +print("hello")
    Permission preflight ready (edit)

``LegacyPreflight`` turns them into exactly the core inputs the structured
events give (``PermissionPreview(tool, diff)``, ``PermissionReady(tool)``), so
both paths render the same.  The diff body is every following line that looks
like a unified-diff line; the preview is emitted when the first other line (or
any protocol message) arrives.  Every other non-blank line is a status line.
"""

from __future__ import annotations

from ..core.preflight import is_diff_line, match_preview_header, match_ready
from ..inputs import Input, LogAppend, PermissionPreview, PermissionReady

__all__ = ["LegacyPreflight", "legacy_block", "normalize_diff"]


def normalize_diff(diff: str | None) -> str | None:
    """One diff form for both paths: ``\\n`` line ends, no trailing newline, ``None`` when empty."""
    if diff is None:
        return None
    text = diff.replace("\r\n", "\n").rstrip("\n")
    return text or None


class LegacyPreflight:
    """A line-by-line recognizer; it holds a preview's diff until the diff ends."""

    __slots__ = ("_diff", "_tool")

    def __init__(self) -> None:
        self._tool: str | None = None
        self._diff: list[str] = []

    @property
    def pending(self) -> bool:
        """A preview header was seen and its diff is still being collected."""
        return self._tool is not None

    def feed(self, line: str) -> list[Input]:
        """The inputs that one text line completes (often none, while a diff is collected)."""
        if self._tool is not None:
            if is_diff_line(line):
                self._diff.append(line)
                return []
            out = self.flush()
        else:
            out = []
        text = line.strip()
        if (tool := match_preview_header(text)) is not None:
            self._tool = tool
        elif (ready := match_ready(text)) is not None:
            out.append(PermissionReady(tool=ready))
        elif text:
            out.append(LogAppend(kind="status", text=text))
        return out

    def flush(self) -> list[Input]:
        """End of the text: emit a preview still collecting its diff."""
        if self._tool is None:
            return []
        preview = PermissionPreview(tool=self._tool, diff=normalize_diff("\n".join(self._diff)))
        self._tool, self._diff = None, []
        return [preview]


def legacy_block(text: str) -> list[Input] | None:
    """The inputs of a whole legacy block sent as one text event, or None if it is not one.

    Some legacy runtimes sent the preflight as an ``agent.event`` of type
    ``text`` (header and diff in one ``content``) instead of separate lines.
    """
    first = text.lstrip("\n").split("\n", 1)[0]
    if match_preview_header(first) is None and match_ready(first) is None:
        return None
    recognizer = LegacyPreflight()
    out: list[Input] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        out += recognizer.feed(line)
    return out + recognizer.flush()
