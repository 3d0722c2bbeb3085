"""A codelia session call's outcome (``Step``), the ``Out`` that collects it, and our requests awaiting answers.

Both the session and its slash commands (``commands``) write into an ``Out``;
this module is below both, so neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...inputs import Input
from ..facts import SessionEvent
from ..messages import Message

__all__ = ["Out", "Pending", "Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of one session call: ``inputs`` for the core, ``send`` for the runtime.

    ``events``: what happened, as normalized events (``facts``), for observers such as the llm-do modes.
    """

    inputs: tuple[Input, ...] = ()
    send: tuple[Message, ...] = ()
    events: tuple[SessionEvent, ...] = ()


@dataclass(slots=True)
class Out:
    """What one session call has produced so far; ``step()`` freezes it."""

    inputs: list[Input] = field(default_factory=list)
    send: list[Message] = field(default_factory=list)
    events: list[SessionEvent] = field(default_factory=list)

    def step(self) -> Step:
        return Step(tuple(self.inputs), tuple(self.send), tuple(self.events))


@dataclass(frozen=True, slots=True)
class Pending:
    """A request of ours awaiting its answer; ``on_result`` handles a success (commands' requests)."""

    method: str
    run_id: str | None = None
    text: str | None = None  # run.start: the prompt, given back to the composer if the runtime is busy
    on_result: Callable[[Any, Out], None] | None = None
