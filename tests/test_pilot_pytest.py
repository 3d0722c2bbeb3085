"""Async pilot tests as the README shows them (issue 32, item 6): run under plain pytest by the package's plugin;
``wait_for`` checks drawn screens only, ``wait_idle`` waits for a finished turn, ``run_app(family=...)``."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from inline_render import Submit
from inline_render.shell import AppOptions, InlineApp
from inline_render.terminals.resize import TerminalFamily
from inline_render.testing.pilot import run_app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _pytest(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Plain ``python -m pytest`` on ``directory`` (its own rootdir: none of this repository's settings), with
    this tree's package first on the path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args, str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=directory,
        env=env,
    )


def test_readme_pilot_example_passes_under_plain_pytest(tmp_path: Path) -> None:
    """The README's ``async def test_echo`` passes under ``python -m pytest`` with no async plugin named
    (before: "async def functions are not natively supported")."""
    example = next(
        block for block in re.findall(r"^```python\n(.*?)^```", README, flags=re.S | re.M) if "test_echo" in block
    )
    (tmp_path / "test_readme_echo.py").write_text(example, encoding="utf-8")
    done = _pytest(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout


def test_plugin_reports_failures_fixtures_and_leaves_other_plugins_tests(tmp_path: Path) -> None:
    """A failing async test fails with its assertion, a fixture reaches one, a test marked for another async
    plugin is not run here; ``inline_render_async = false`` turns the plugin off."""
    (tmp_path / "test_async.py").write_text(
        "import asyncio\n"
        "import pytest\n"
        "async def test_fixture(tmp_path):\n"
        "    await asyncio.sleep(0)\n"
        "    assert tmp_path.exists()\n"
        "async def test_fails():\n"
        "    await asyncio.sleep(0)\n"
        "    assert 'left' == 'right'\n"
        "@pytest.mark.trio\n"
        "async def test_for_trio():\n"
        "    pass\n",
        encoding="utf-8",
    )
    done = _pytest(tmp_path, "-W", "ignore::pytest.PytestUnknownMarkWarning")
    assert "1 passed" in done.stdout and "2 failed" in done.stdout, done.stdout
    assert "AssertionError" in done.stdout and "test_fails" in done.stdout
    assert "FAILED test_async.py::test_for_trio - Failed: async def functions are not nat" in done.stdout
    (tmp_path / "pytest.ini").write_text("[pytest]\ninline_render_async = false\n", encoding="utf-8")
    done = _pytest(tmp_path, "-W", "ignore::pytest.PytestUnknownMarkWarning")
    assert "3 failed" in done.stdout, done.stdout


async def _counter(app: InlineApp) -> None:
    """Each submitted line sets a status field a moment later (after the pilot's press settled), well before the
    next tick may draw it (max_rate 2)."""
    async for output in app.outputs():
        if isinstance(output, Submit):
            await asyncio.sleep(0.05)
            app.status(tokens=f"tokens {len(output.text)}")


async def test_wait_for_a_predicate_sees_the_screen_drawn() -> None:
    """A predicate on the app's own state holds before its redraw: ``wait_for`` returns once the redraw is on the
    screen (before, the screen still showed the old status: ticks are 0.5 s apart here)."""
    async with run_app(_counter, columns=50, rows=10, options=AppOptions(max_rate=2)) as pilot:
        await pilot.type("hello")
        await pilot.press("enter")
        await pilot.wait_for(lambda p: p.app.status_fields.get("tokens") == "tokens 5")
        assert any("tokens 5" in row for row in pilot.screen()), pilot.screen()


async def _slow_answer(app: InlineApp) -> None:
    """Answers in a task of its own, word by word, as chat apps do (the outputs loop is free meanwhile)."""
    turns: set[asyncio.Task[None]] = set()

    async def answer(text: str) -> None:
        with app.working("thinking"):
            async with app.stream() as reply:
                for word in f"You said: {text} and that is all".split():
                    reply.write(word + " ")
                    await asyncio.sleep(0.02)

    async for output in app.outputs():
        if isinstance(output, Submit):
            task = asyncio.ensure_future(answer(output.text))
            turns.add(task)
            task.add_done_callback(turns.discard)


async def test_wait_idle_waits_for_the_turn_to_finish() -> None:
    """``wait_idle`` returns once the streamed answer is whole and drawn, its stream closed and the spinner off."""
    async with run_app(_slow_answer, columns=60, rows=12) as pilot:
        await pilot.type("hi")
        await pilot.press("enter")
        await pilot.wait_idle()
        assert "You said: hi and that is all" in pilot.snapshot()
        assert pilot.idle() and not pilot.state.working


async def test_run_app_targets_a_terminal_family() -> None:
    """``family=XTERM``: the in-memory terminal cuts on resize as xterm does, and the app gets xterm's config
    (no re-wrap model); the default is the simple terminal with the app's own config."""
    async with run_app(_counter, columns=40, rows=10, family=TerminalFamily.XTERM) as pilot:
        assert pilot.checked.family is TerminalFamily.XTERM
        assert pilot.state.config.resize_reflow is False
        await pilot.type("abc")
        await pilot.press("enter")
        await pilot.resize(30, 8)
        await pilot.wait_for(lambda p: any("tokens 3" in row for row in p.screen()))
    async with run_app(_counter, columns=40, rows=10, family=TerminalFamily.VTE) as pilot:
        assert pilot.state.config.resize_reflow is True
    async with run_app(_counter, columns=40, rows=10) as pilot:
        assert pilot.checked.family is TerminalFamily.SIMPLE
