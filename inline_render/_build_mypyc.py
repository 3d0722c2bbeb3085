"""The opt-in compiled build: a hatchling build hook that compiles the hot modules with mypyc.

``pip install '.[test]'`` builds the pure-Python package, exactly as without this hook (it does
nothing unless asked).  ``INLINE_RENDER_MYPYC=1 pip install '.[test]'`` asks pip for mypy and
setuptools in the build environment, compiles the modules listed in ``pyproject.toml``
(``[tool.hatch.build.targets.wheel.hooks.custom] mypyc-modules``) into C extensions next to their
``.py`` files (an extension module is imported in place of its source), and tags the wheel for
this interpreter and platform.  Where that compile fails (no C compiler, no ``Python.h``, a module
mypyc rejects) the hook says so on stderr and the wheel stays pure Python: the package behaves the
same either way, and ``inline_render.compiled`` tells which one runs.

An editable install runs the source files, so it cannot carry the compiled modules: asking for
both is refused with that reason.  This file is the build's, not the package's: the wheel leaves it out.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from importlib import import_module
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

__all__ = ["ENV", "MypycBuildHook", "wanted"]

ENV = "INLINE_RENDER_MYPYC"
# The versions the compiled build was made and tested with (README, "A compiled build").
BUILD_REQUIRES = ["mypy>=2.4", "setuptools>=65.5", "types-Pygments>=2.15"]
GROUP = "inline_render._native"  # the shared library of the compiled modules lives inside the package


def wanted(environ: dict[str, str] | None = None) -> bool:
    """Whether this build was asked to compile (``INLINE_RENDER_MYPYC`` set to 1, true or yes)."""
    value = (os.environ if environ is None else environ).get(ENV, "")
    return value.strip().lower() in {"1", "true", "yes"}


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compile ``mypyc-modules`` into the wheel when ``INLINE_RENDER_MYPYC=1``; otherwise do nothing."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """The build environment needs mypy (mypyc), setuptools (the C build) and what the package imports.

        mypyc type-checks the modules and everything they reach (the whole package, ``testing`` and the
        bench's peers included) as ``mypy --strict`` does, so it needs the dependencies and the test and
        bench extras: a library missing there is an error, and the build would fall back to pure Python.
        """
        if not wanted() or self.target_name != "wheel":
            return []
        extras = self.metadata.core.optional_dependencies
        return [*BUILD_REQUIRES, *self.metadata.core.dependencies, *extras["test"], *extras["bench"]]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile, then add the extension modules to the wheel (or say why not and stay pure)."""
        if not wanted() or self.target_name != "wheel":
            return
        if version == "editable":
            raise RuntimeError(
                f"{ENV}=1 compiles a regular install: pip install '.[test]' (an editable install runs the .py files)"
            )
        modules: list[str] = self.config.get("mypyc-modules", [])
        work = Path(tempfile.mkdtemp(prefix="inline_render_mypyc_"))
        try:
            built = _compile(Path(self.root), modules, work)
        except (Exception, SystemExit) as error:  # setuptools reports a failed compiler run as SystemExit
            reason = f"mypyc failed ({error!r}, see above)"
            print(f"inline_render: {ENV}=1 but {reason}; building pure Python", file=sys.stderr)
            shutil.rmtree(work, ignore_errors=True)
            return
        self._work = work
        for path, relative in built:
            build_data["force_include"][str(path)] = relative
        build_data["pure_python"] = False
        build_data["infer_tag"] = True  # cp311-cp311-<platform>: the extensions are for this interpreter only
        print(f"inline_render: compiled {len(modules)} modules with mypyc", file=sys.stderr)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the compile's temporary directory once the wheel holds its files."""
        work: Path | None = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)


def _compile(root: Path, modules: list[str], work: Path) -> list[tuple[Path, str]]:
    """Run mypyc and the C compiler on ``inline_render/<module>.py``; the built files and their wheel paths."""
    from mypyc.build import mypycify

    setuptools: Any = import_module("setuptools")  # imported here: only the opt-in build environment has it
    if not modules:
        raise ValueError("no mypyc-modules in pyproject.toml")
    lib, temp = work / "lib", work / "temp"
    cwd = os.getcwd()
    os.chdir(root)  # mypy reads its [tool.mypy] options and resolves inline_render/ from the project root
    try:
        extensions = mypycify(
            [f"inline_render/{name.replace('.', '/')}.py" for name in modules],
            opt_level="3",
            group_name=GROUP,
            target_dir=str(work / "c"),
        )
        # A bare Distribution: setup() would also read pyproject.toml, whose metadata is hatchling's.
        dist = setuptools.Distribution({"name": "inline_render", "ext_modules": extensions})
        dist.script_name = "inline_render_mypyc"
        dist.script_args = ["build_ext", "--build-lib", str(lib), "--build-temp", str(temp)]
        dist.parse_command_line()
        dist.run_commands()
    finally:
        os.chdir(cwd)
    built = [(path, path.relative_to(lib).as_posix()) for path in sorted(lib.rglob("*")) if path.is_file()]
    missing = [
        name
        for name in modules
        if not any(rel.startswith(f"inline_render/{name.replace('.', '/')}.") for _, rel in built)
    ]
    if missing:
        raise RuntimeError(f"no extension built for {', '.join(missing)}")
    return built
