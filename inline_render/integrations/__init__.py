"""Adapters from agent frameworks to ``InlineApp``; each is an optional extra, imported only when used.

* ``inline_render.integrations.pydantic_ai`` (``pip install 'inline_render[pydantic-ai]'``): a pydantic-ai
  ``Agent``'s runs rendered in the app (``AgentSession``).

Nothing here is imported by the rest of the library, so it works without any framework installed.
"""

from __future__ import annotations

__all__: list[str] = []
