"""``CommandHost``: what a slash command's handler (and the registry running it) uses of the app.

``InlineApp`` satisfies it structurally; the commands never import the shell, which sits above them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from ..inputs import FormField, Input
from ..outputs import FormValue
from ..text.spans import StyledText

__all__ = ["CommandHost"]


class CommandHost(Protocol):
    """The app a command runs in: its log and status line, its dialogs, exit, and the running-command count."""

    @property
    def status_fields(self) -> dict[str, str]:
        """The named status fields, as text."""
        ...

    def send(self, *inputs: Input) -> None:
        """Queue inputs for the next tick."""
        ...

    def log(self, kind: str, text: StyledText) -> None:
        """Append one finished log entry."""
        ...

    def status(self, text: StyledText | None = None, **fields: StyledText | None) -> None:
        """Set the status line (``text``) or named fields of it."""
        ...

    def exit(self, code: int = 0) -> None:
        """Ask the app to stop."""
        ...

    async def confirm(self, title: str, message: str = "", **options: Any) -> bool:
        """Ask a yes/no question."""
        ...

    async def prompt(
        self,
        title: str,
        message: str = "",
        *,
        default: str = "",
        placeholder: str = "",
        secret: bool = False,
        multiline: bool = False,
    ) -> str | None:
        """Ask for a line of text (None: dismissed)."""
        ...

    async def form(self, title: str, fields: Iterable[FormField], message: str = "") -> dict[str, FormValue] | None:
        """A form dialog: the values by name (None: dismissed)."""
        ...

    async def approve(
        self, description: str, *, risk: str = "", worker_path: Sequence[str] = (), allow_remember: bool = True
    ) -> str:
        """Seed 003's approval: "yes", "no", "always" or "session"."""
        ...

    def command_started(self) -> None:
        """A command began running (line input waits for it, or for a dialog it opens)."""
        ...

    def command_finished(self) -> None:
        """A command that began has ended (finished, failed or cancelled)."""
        ...
