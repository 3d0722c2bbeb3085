"""Which build runs: pure Python, or the opt-in mypyc build (README, "A compiled build").

``INLINE_RENDER_MYPYC=1 pip install .`` compiles the hot modules into C extensions that sit next
to their ``.py`` files; the import system takes an extension module before a source file, so a
module is compiled exactly when its extension is in the package directory.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__all__ = ["compiled", "compiled_modules"]


def _compiled_modules() -> tuple[str, ...]:
    here = Path(__file__).resolve().parent
    names: set[str] = set()
    for path in here.rglob("*"):
        # Longest suffix first: ".cpython-311-x86_64-linux-gnu.so" before ".so".
        suffix = next((s for s in sorted(EXTENSION_SUFFIXES, key=len, reverse=True) if path.name.endswith(s)), None)
        if suffix is None:
            continue
        stem = path.name[: -len(suffix)]
        if (path.parent / f"{stem}.py").exists():  # a module's extension, not the shared library of them all
            names.add(".".join([__package__, *path.parent.relative_to(here).parts, stem]))
    return tuple(sorted(names))


compiled_modules: tuple[str, ...] = _compiled_modules()
"""The package's modules that run as compiled extensions (empty for the pure-Python build)."""

compiled: bool = bool(compiled_modules)
"""True when this install runs the mypyc-compiled build."""
