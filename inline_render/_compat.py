"""Old module paths (before 0.2's subpackages) keep importing, with a ``DeprecationWarning``, for one minor release.

``import inline_render.effects`` binds the very module ``inline_render.core.effects`` (the same object, so a
monkeypatch through either name patches both); ``python -m inline_render.fake_runtime`` still runs.  An old
module whose name is now a package (``inline_render.bench``, ``inline_render.demo``, ``inline_render.protocol.lemon``)
hands on the old module's names through the package's ``__getattr__`` (``moved_names``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from collections.abc import Callable, Sequence
from types import CodeType, ModuleType
from typing import Any

__all__ = ["MOVED", "install", "moved_names"]

REMOVED_IN = "0.3"

# old path -> new path, both under ``inline_render.``
MOVED: dict[str, str] = {
    "app": "core.app",
    "approval": "widgets.approval",
    "backend": "core.backend",
    "bench_peers": "bench.peers",
    "bench_stream": "bench.stream",
    "bulk": "core.bulk",
    "chat": "demo.chat",
    "chunks": "core.chunks",
    "cli_replay": "scenario.cli",
    "completion": "widgets.completion",
    "composer": "widgets.composer",
    "dialogs": "widgets.dialogs",
    "editor": "widgets.editor",
    "effects": "core.effects",
    "effects_stream": "core.plan_stream",
    "evolve": "core.evolve",
    "example": "demo.example",
    "fake_catalog": "demo.fake_catalog",
    "fake_lemon": "demo.fake_lemon",
    "fake_runtime": "demo.fake_runtime",
    "forms": "widgets.forms",
    "highlight": "text.highlight",
    "layout": "core.layout",
    "log": "core.log",
    "mdtable": "markdown.table",
    "mdview": "markdown.stream",
    "ops": "core.ops",
    "preflight": "core.preflight",
    "recorder": "core.record",
    "reduce": "core.reduce",
    "reduce_resize": "core.reduce_resize",
    "replay": "core.inflight",
    "rowseq": "core.rowseq",
    "slash": "commands.registry",
    "slash_builtins": "commands.builtins",
    "slash_complete": "commands.complete",
    "slash_runtime": "protocol.codelia.slash",
    "spans": "text.spans",
    "state": "core.state",
    "style": "text.style",
    "terminal": "terminals.memory",
    "terminal_resize": "terminals.resize",
    "theme": "core.rows",
    "themes": "text.themes",
    "tick": "core.tick",
    "protocol.catalog": "protocol.codelia.catalog",
    "protocol.commands": "protocol.codelia.commands",
    "protocol.lemon_dialogs": "protocol.lemon.dialogs",
    "protocol.lemon_session": "protocol.lemon.session",
    "protocol.lemon_stream": "protocol.lemon.stream",
    "protocol.mapping": "protocol.codelia.session",
    "protocol.methods": "protocol.codelia.methods",
    "shell.jsonl": "protocol.jsonl",
    "shell.llmdo": "protocol.llmdo.output",
    "shell.llmdo_events": "protocol.llmdo.events",
}
_PREFIX = "inline_render."


def _warn(old: str, new: str, stacklevel: int) -> None:
    warnings.warn(
        f"{old} moved to {new}; the old path goes in inline_render {REMOVED_IN}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


class _AliasLoader(importlib.abc.Loader):
    """Loads an old path as the module at its new path (imported first), so both names bind one object."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        _warn(spec.name, self.new, stacklevel=8)
        return importlib.import_module(self.new)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module at the new path has run already."""

    def get_code(self, fullname: str) -> CodeType | None:
        """For ``python -m OLD``: runpy runs the new module's code as ``__main__``."""
        spec = importlib.util.find_spec(self.new)
        loader = spec.loader if spec is not None else None
        get_code: Callable[[str], CodeType | None] | None = getattr(loader, "get_code", None)
        return get_code(self.new) if get_code is not None else None


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(_PREFIX):
            return None
        new = MOVED.get(fullname[len(_PREFIX) :])
        if new is None or new == fullname[len(_PREFIX) :]:
            return None
        spec = importlib.util.find_spec(_PREFIX + new)
        origin = spec.origin if spec is not None else None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(_PREFIX + new), origin=origin)


def install() -> None:
    """Put the finder of old paths on ``sys.meta_path`` (once; after the normal finders, so it sees only misses)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())


def moved_names(package: str, old_module: str, names: dict[str, str] | str) -> Callable[[str], Any]:
    """A package's ``__getattr__`` handing on the names of the old module it replaces: ``{name: new module}``, or
    the one new module whose ``__all__`` lists them all (read when a name is first missed)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # introspection (``__wrapped__``, ``__test__``, ...) never loads the old names
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        if isinstance(names, str):
            new: str | None = names if name in getattr(importlib.import_module(names), "__all__", ()) else None
        else:
            new = names.get(name)
        if new is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        _warn(f"{old_module}.{name}", f"{new}.{name}", stacklevel=3)
        return getattr(importlib.import_module(new), name)

    return __getattr__
