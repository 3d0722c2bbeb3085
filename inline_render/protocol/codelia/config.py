"""What a codelia session announces in ``initialize`` and how much it shows: ``SessionConfig`` and its defaults."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...cli import version
from ..transcript import Limits
from . import methods as m

__all__ = ["DEFAULT_CLIENT", "MARKDOWN_RENDERS", "WORKING", "SessionConfig"]

# Announced as ``supports_markdown``: assistant and reasoning entries render Markdown (inline_render.markdown.blocks).
MARKDOWN_RENDERS = True
WORKING = "Working"  # the spinner message while a run is going and the runtime said nothing better
DEFAULT_CLIENT = m.PeerInfo(name="inline_render", version=version())  # what --version prints, also from a bare checkout


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """What this UI announces in ``initialize``, and how much of tool calls/results the log shows."""

    client: m.PeerInfo = DEFAULT_CLIENT
    supports_permission_preflight_events: bool = True
    supports_confirm: bool = True
    supports_prompt: bool = True
    supports_pick: bool = True
    supports_markdown: bool = MARKDOWN_RENDERS
    limits: Limits = field(default_factory=Limits)
    show_diagnostics: bool = False  # show codelia's ``run.diagnostics`` (one status line each) instead of ignoring
    cancel_reason: str = "cancelled by the user"  # ``run.cancel``'s reason

    def capabilities(self) -> m.Capabilities:
        """The ``ui_capabilities`` of ``initialize``."""
        return m.Capabilities(
            supports_permission_preflight_events=self.supports_permission_preflight_events,
            supports_confirm=self.supports_confirm,
            supports_prompt=self.supports_prompt,
            supports_pick=self.supports_pick,
            supports_markdown=self.supports_markdown,
        )
