"""pytest plugin (entry point ``pytest11: inline_render``): ``async def`` tests run, and scenario files are test items.

An ``async def`` test (a pilot test: ``async with run_app(main) as pilot``) runs in an event loop
of its own (``asyncio.run``), as the README shows, with no other plugin: a test marked for another
async plugin (``asyncio``, ``anyio``, ``trio``) is left to it, and so is every test under
pytest-asyncio's ``asyncio_mode = auto``.  Its fixtures must be plain (not ``async def``) ones.
Opt out with ``inline_render_async = false`` in the ini file.

Every ``*.jsonl`` file under a directory named ``scenarios`` (ini option
``inline_render_scenario_dirs``) whose first line is a scenario header becomes
one item that replays it with every expectation, the invariants and the
emulator properties checked.  A failure names ``file:line`` of the tick and
shows expected against actual.  ``--update-scenarios`` rewrites the ``expect``
fields from the actual run instead (review the git diff).

Opt out with ``inline_render_scenarios = false`` in the ini file, or
``-p no:inline_render`` on the command line.
"""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import pytest

__all__ = ["ScenarioFailed", "ScenarioFile", "ScenarioItem"]

_SNIFF = b"inline-render-scenario"
_OTHER_ASYNC_MARKERS = ("asyncio", "anyio", "trio")  # tests another async plugin runs


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("inline_render", "inline_render scenario files")
    group.addoption(
        "--update-scenarios",
        action="store_true",
        default=False,
        help="rewrite the expect fields of the collected scenario files from the actual run",
    )
    parser.addini("inline_render_scenarios", "collect scenario files (*.jsonl) as tests", type="bool", default=True)
    parser.addini(
        "inline_render_async", "run async def tests (pilot tests) in an event loop", type="bool", default=True
    )
    parser.addini(
        "inline_render_scenario_dirs",
        "names of directories whose *.jsonl files are scenarios",
        type="args",
        default=["scenarios"],
    )


def _runs_async(item: pytest.Function) -> bool:
    """Whether this plugin runs ``item``: a coroutine test no other async plugin claims."""
    if not inspect.iscoroutinefunction(item.obj) or not item.config.getini("inline_render_async"):
        return False
    if any(item.get_closest_marker(name) is not None for name in _OTHER_ASYNC_MARKERS):
        return False
    try:
        auto = str(item.config.getini("asyncio_mode")) == "auto"
    except ValueError:  # pytest-asyncio is not installed: the option is unknown
        auto = False
    return not auto


def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run an ``async def`` test in a fresh event loop (pytest itself fails them: "not natively supported")."""
    if not _runs_async(pyfuncitem):
        return None
    names = pyfuncitem._fixtureinfo.argnames  # what pytest itself passes a test (its own pytest_pyfunc_call)
    arguments = {name: pyfuncitem.funcargs[name] for name in names}
    asyncio.run(pyfuncitem.obj(**arguments))
    return True


def _is_scenario(file_path: Path, config: pytest.Config) -> bool:
    if file_path.suffix != ".jsonl" or not config.getini("inline_render_scenarios"):
        return False
    names = set(config.getini("inline_render_scenario_dirs"))
    if not names.intersection(file_path.parent.parts):
        return False
    try:
        with file_path.open("rb") as stream:
            first = stream.readline(65536)
    except OSError:
        return False
    return _SNIFF in first  # other JSON Lines files in a scenarios/ directory are not ours


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ScenarioFile | None:
    if _is_scenario(file_path, parent.config):
        file: ScenarioFile = ScenarioFile.from_parent(parent, path=file_path)
        return file
    return None


class ScenarioFailed(Exception):
    """A scenario did not replay as expected; ``text`` is the report."""

    def __init__(self, text: str) -> None:
        from .scenario.format import inert

        text = inert(text)  # it quotes the file: no control from it reaches the terminal of who runs pytest
        super().__init__(text)
        self.text = text


class ScenarioFile(pytest.File):
    """A scenario file: one item replaying all of its ticks."""

    def collect(self) -> Any:
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    """Replays one scenario file (CheckedRenderer: TestTerminal and pyte) and checks every expectation."""

    def _where(self) -> str:
        try:
            return str(self.path.relative_to(self.config.invocation_params.dir))
        except ValueError:
            return str(self.path)

    def runtest(self) -> None:
        from .errors import ScenarioError
        from .scenario import load_scenario, replay, write_scenario

        where = self._where()
        try:
            scenario = load_scenario(self.path)
        except ScenarioError as error:
            raise ScenarioFailed(f"invalid scenario file: {error}") from None
        update = bool(self.config.getoption("update_scenarios"))
        result = replay(scenario, update=update)
        if update and result.updated is not None:
            write_scenario(result.updated)
            return
        if result.passed:
            return
        count = len({f.tick for f in result.failures})
        head = f"scenario {scenario.name!r}: {len(result.failures)} failed check(s) in {count} tick(s)"
        parts = [head, result.report(limit=3, path=where)]
        if count > 3:
            parts.append(f"(all failures: python -m inline_render replay {where})")
        raise ScenarioFailed("\n".join(parts))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return excinfo.value.text
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"scenario {self.path.name}"
