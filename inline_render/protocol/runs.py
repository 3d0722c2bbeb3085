"""The run queries every dialect's session answers the same way (the client and the demo ask them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

__all__ = ["RunQueries"]


class _Run(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def ended(self) -> bool: ...


class RunQueries:
    """``current_run``, ``last_run`` and ``run_status`` over a session's runs (a mixin)."""

    _runs: Mapping[str, _Run]
    _current: str | None  # the latest run's id

    @property
    def current_run(self) -> str | None:
        """The id of the run in progress, if any."""
        run = self._runs.get(self._current) if self._current is not None else None
        return run.id if run is not None and not run.ended else None

    @property
    def last_run(self) -> str | None:
        """The id of the latest run (in progress or over)."""
        return self._current

    def run_status(self, run_id: str) -> str | None:
        """The run's last status (``running``, ``completed``, ``error``, ``cancelled``; None if unknown)."""
        run = self._runs.get(run_id)
        return run.status if run is not None else None
