"""What happened in a session, for observers: the normalized agent events plus the run's start and end.

The session turns runtime messages into core inputs (what the log shows); a
program that wants the *events themselves* (the llm-do output modes of
``inline_render.protocol.llmdo.output`` write them as seed 000's event stream) reads
``Step.events`` instead.  They are the one normalized model: whatever the wire
dialect, a run is a ``RunStarted``, the agent events it accepted (after the
session dropped duplicates, events of unknown or ended runs and history
replays), and one ``RunEnded``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .events import AgentEvent

__all__ = ["RunEnded", "RunStarted", "SessionEvent"]


@dataclass(frozen=True, slots=True)
class RunStarted:
    """A run was asked for with ``prompt`` (the run's id is not known yet)."""

    prompt: str


@dataclass(frozen=True, slots=True)
class RunEnded:
    """Run ``run_id`` is over: ``status`` is ``completed``, ``error`` or ``cancelled``; ``message`` says why."""

    run_id: str
    status: str
    message: str = ""


SessionEvent = Union[AgentEvent, RunStarted, RunEnded]
