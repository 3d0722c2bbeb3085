"""Packaging: true lower bounds tested by CI, linters out of the test extra, a license, an sdist that tests itself."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

import inline_render

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def _names(requirements: list[str]) -> set[str]:
    return {req.split(">")[0].split("=")[0].split("[")[0].strip().lower() for req in requirements}


def test_prompt_toolkit_lower_bound_has_the_dim_attribute() -> None:
    """prompt_toolkit 3.0.43-3.0.51 lack ``Attrs(dim=...)``: the stated minimum is at least 3.0.52."""
    bound = next(d for d in PROJECT["dependencies"] if d.startswith("prompt_toolkit"))
    minimum = tuple(int(part) for part in bound.split(">=")[1].split("."))
    assert minimum >= (3, 0, 52)


def test_ci_installs_the_stated_minimums_in_their_own_venv() -> None:
    """.ci/run turns every ``>=`` bound of pyproject into ``==`` and runs tests in a separate venv with them."""
    assert 're.sub(">=", "==", d)' in CI and '["project"]["dependencies"]' in CI
    assert '"$work/venv/bin/pip" install -q $minimums' in CI
    assert all(">=" in dependency for dependency in PROJECT["dependencies"])  # a bound CI can pin


def test_test_extra_holds_only_test_needs_and_dev_holds_the_tools() -> None:
    """The ``test`` extra has no linters; ``dev`` has mypy, ruff, pdoc and import-linter, and CI installs both."""
    extras = PROJECT["optional-dependencies"]
    assert _names(extras["test"]) == {"pytest", "pytest-xdist", "hypothesis", "pyte", "grimp"}
    assert {"mypy", "ruff", "pdoc", "import-linter"} <= _names(extras["dev"])
    assert "pip install -q -e '.[test,dev]'" in CI


def test_license_classifiers_and_changelog_ship_in_the_package() -> None:
    """The license file lives in the package (the top level is fixed), classifiers are set, a changelog exists."""
    assert PROJECT["license-files"] == ["inline_render/LICENSE"]
    assert (ROOT / "inline_render" / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "Typing :: Typed" in PROJECT["classifiers"]
    assert (ROOT / "inline_render" / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog")


def test_sdist_carries_the_tests_and_scenarios() -> None:
    """The sdist includes tests/ and scenarios/ (CI unpacks it and runs tests from it)."""
    include = PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert {"inline_render", "tests", "scenarios", "pyproject.toml", "README.md"} <= set(include)
    assert 'tar -xzf "$work"/inline_render-*.tar.gz' in CI


def test_version_comes_from_the_package_metadata() -> None:
    """``inline_render.__version__`` is the installed metadata's version, not a second copy of it."""
    assert inline_render.__version__ == version("inline_render")
    assert "__version__ = " not in (ROOT / "inline_render" / "__init__.py").read_text(encoding="utf-8")


def test_the_wheel_carries_the_bench_node_harness_and_no_node_modules() -> None:
    """``bench --peers`` needs its Node harness and pinned lock in an installed wheel; npm's files stay out."""
    wheel = pytest.importorskip("hatchling.builders.wheel")  # the build backend (dev extra)
    files = {item.distribution_path for item in wheel.WheelBuilder(str(ROOT)).recurse_included_files()}
    harness = {f"inline_render/bench/node/{name}" for name in ("package.json", "package-lock.json", "peers.mjs")}
    assert harness <= files
    assert not [name for name in files if "node_modules" in name]
    assert "**/node_modules" in PYPROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["exclude"]
