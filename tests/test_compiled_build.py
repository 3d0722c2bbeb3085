"""The opt-in mypyc build (README, "A compiled build"): off by default, and ``inline_render.compiled`` tells the truth.

CI installs the compiled build into a venv of its own and runs a core subset of the tests with
``INLINE_RENDER_EXPECT_COMPILED=1``, so that a build which silently fell back to pure Python fails there.
"""

from __future__ import annotations

import importlib
import os
import tomllib
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import inline_render

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
WHEEL = PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]
HOOK = WHEEL["hooks"]["custom"]
MODULES: list[str] = HOOK["mypyc-modules"]


def _is_extension(path: str | None) -> bool:
    return path is not None and path.endswith(tuple(EXTENSION_SUFFIXES))


def test_compiled_flag_matches_where_each_module_was_loaded_from() -> None:
    """Every module listed for mypyc is an extension exactly when ``compiled_modules`` names it."""
    assert inline_render.compiled == bool(inline_render.compiled_modules)
    for name in MODULES:
        module = importlib.import_module(f"inline_render.{name}")
        assert _is_extension(module.__file__) == (module.__name__ in inline_render.compiled_modules), name
    assert set(inline_render.compiled_modules) <= {f"inline_render.{name}" for name in MODULES}


@pytest.mark.skipif(
    os.environ.get("INLINE_RENDER_EXPECT_COMPILED") != "1", reason="only CI's compiled-build step expects it"
)
def test_the_compiled_build_compiled_every_listed_module() -> None:
    """Where CI installed the compiled build, all of ``mypyc-modules`` run compiled (no silent pure fallback)."""
    assert inline_render.compiled
    assert set(inline_render.compiled_modules) == {f"inline_render.{name}" for name in MODULES}


def test_the_build_hook_is_configured_and_needs_no_compiler_by_default() -> None:
    """The hook is wired in pyproject, left out of the wheel, its modules exist, and the build needs only hatchling."""
    assert HOOK["path"] == "inline_render/_build_mypyc.py"
    assert HOOK["path"] in WHEEL["exclude"]
    assert all((ROOT / "inline_render" / f"{name.replace('.', '/')}.py").is_file() for name in MODULES)
    assert PYPROJECT["build-system"]["requires"] == ["hatchling>=1.26"]  # no mypy, no setuptools, no compiler


def test_only_the_environment_variable_asks_for_the_compiled_build() -> None:
    """``INLINE_RENDER_MYPYC`` set to 1/true/yes asks for mypyc; unset, empty or 0 leaves the build pure."""
    hook = pytest.importorskip("inline_render._build_mypyc", reason="the build hook imports hatchling")
    assert not hook.wanted({})
    assert not hook.wanted({hook.ENV: ""}) and not hook.wanted({hook.ENV: "0"})
    assert hook.wanted({hook.ENV: "1"}) and hook.wanted({hook.ENV: "yes"})


def test_the_default_wheel_is_pure_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the variable hatchling builds a py3-none-any wheel: no extension, and no build hook inside."""
    wheel_builder = pytest.importorskip("hatchling.builders.wheel", reason="needs hatchling")
    monkeypatch.delenv("INLINE_RENDER_MYPYC", raising=False)
    built = list(wheel_builder.WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"]))
    assert len(built) == 1 and built[0].endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(built[0]).namelist()
    assert "inline_render/core/reduce.py" in names
    assert not [name for name in names if _is_extension(name)]
    assert "inline_render/_build_mypyc.py" not in names


def test_the_bench_reports_which_build_it_measured() -> None:
    """``bench`` names the build in its output and JSON: pure Python, or compiled with the count of modules."""
    from inline_render.bench import cli as bench_cli

    count = len(inline_render.compiled_modules)
    expected = f"compiled (mypyc: {count} modules)" if inline_render.compiled else "pure Python"
    assert bench_cli.build() == expected
    assert bench_cli.machine()["build"] == expected
