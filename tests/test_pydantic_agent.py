"""The pydantic-ai coding agent (inline_render/demo/pydantic_agent.py) on the pilot, as an app's own tests read.

``async def`` tests, run by the package's pytest plugin under plain ``python -m pytest`` (README, "Testing an app").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pydantic_ai")

from inline_render.demo.pydantic_agent import CodingAgent
from inline_render.testing.pilot import Pilot, run_app

ROOT = Path(__file__).resolve().parent.parent
HELLO = 'def greet(name):\n    print("hi " + name)\n'


def _agent(tmp_path: Path, delay: float = 0.001) -> CodingAgent:
    (tmp_path / "hello.py").write_text(HELLO, encoding="utf-8")
    return CodingAgent(tmp_path, delay=delay)


async def _ask(pilot: Pilot, agent: CodingAgent, line: str) -> None:
    await pilot.type(line)
    await pilot.press("enter")
    await agent.session.turns.wait_idle()
    await pilot.settle()


async def test_an_answer_streams_once_with_its_thinking_and_the_tokens_in_the_status_line(tmp_path: Path) -> None:
    """A question: the thinking (dim), then the Markdown answer, each once; the status line counts tokens."""
    agent = _agent(tmp_path)
    async with run_app(agent.main, columns=70, rows=20, setup=agent.install) as pilot:
        await _ask(pilot, agent, "what is inline mode")
        snapshot = pilot.snapshot()
        assert snapshot.count("\u22ee The user wants: what is inline mode") == 1
        assert snapshot.count("Inline rendering") == 1 and "## Inline" not in snapshot  # rendered, not source
        assert snapshot.index("The user wants") < snapshot.index("Inline rendering")
        assert "tokens (" in pilot.state.status and not pilot.state.status.startswith("0 tokens")
        assert len(agent.session.messages) == 2  # the request and the answer: the conversation goes on


async def test_a_denied_write_is_not_written(tmp_path: Path) -> None:
    """write_file asks first, showing the diff; 'n' denies it: the file is unchanged and the agent says so."""
    agent = _agent(tmp_path)
    async with run_app(agent.main, columns=70, rows=24, setup=agent.install) as pilot:
        await pilot.type("write hello.py print('bye')")
        await pilot.press("enter")
        await pilot.wait_for("Approval Required")
        screen = "\n".join(pilot.screen())
        assert screen.index("--- hello.py") < screen.index("+print('bye')") < screen.index("Approval Required")
        await pilot.press("n")
        await agent.session.turns.wait_idle()
        await pilot.wait_for("Done: The user denied this call.")
        assert (tmp_path / "hello.py").read_text(encoding="utf-8") == HELLO
        assert "write_file: denied" in pilot.snapshot()


async def test_an_approved_write_is_written_and_read_back(tmp_path: Path) -> None:
    """'y' lets the write run; reading the file then shows the new text."""
    agent = _agent(tmp_path)
    async with run_app(agent.main, columns=70, rows=24, setup=agent.install) as pilot:
        await pilot.type("write hello.py print('bye')")
        await pilot.press("enter")
        await pilot.wait_for("Approval Required")
        await pilot.press("y")
        await agent.session.turns.wait_idle()
        assert (tmp_path / "hello.py").read_text(encoding="utf-8") == "print('bye')\n"
        await _ask(pilot, agent, "read hello.py")
        assert "read_file: print('bye')" in pilot.snapshot()


async def test_escape_cancels_the_run(tmp_path: Path) -> None:
    """Esc while the answer streams: the run stops, 'cancelled' shows, the conversation keeps only whole turns."""
    agent = _agent(tmp_path, delay=0.02)
    async with run_app(agent.main, columns=70, rows=20, setup=agent.install) as pilot:
        await pilot.type("long")
        await pilot.press("enter")
        await pilot.wait_for("word3")
        await pilot.press("escape")
        await pilot.wait_for("cancelled")
        await agent.session.turns.wait_idle()
        await pilot.settle()
        assert "word399" not in pilot.snapshot() and agent.session.messages == []
        assert all(entry.final for entry in pilot.state.log.entries)
        await _ask(pilot, agent, "hello")
        assert "Inline rendering" in pilot.snapshot()


async def test_clear_forgets_the_log_and_the_conversation_and_help_lists_only_help_and_clear(tmp_path: Path) -> None:
    """/clear empties the log and the agent's history; /help lists the two commands this app installs."""
    agent = _agent(tmp_path)
    async with run_app(agent.main, columns=70, rows=20, setup=agent.install) as pilot:
        await _ask(pilot, agent, "hello")
        assert agent.session.messages
        await _ask(pilot, agent, "/clear")
        await pilot.wait_for(lambda p: "Inline rendering" not in "\n".join(p.screen()))
        assert agent.session.messages == []
        await _ask(pilot, agent, "/help")
        await pilot.wait_for("/clear")
        screen = "\n".join(pilot.screen())
        assert "/help" in screen and "/model" not in screen and "/tools" not in screen


def test_the_demo_flag_runs_the_agent_with_piped_input() -> None:
    """``demo --pydantic-ai``: piped lines are asked in turn, a 'y' line approves the write, EOF exits 0."""
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "demo", "--pydantic-ai"],
        input="read hello.py\nwrite hello.py print('new')\ny\nread hello.py\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.index("› read hello.py") < out.index("read_file: def greet(name):") < out.index("+print('new')")
    assert out.index("-> yes") < out.index("write_file: wrote 13 characters") < out.index("read_file: print('new')")


def test_the_app_is_under_100_lines() -> None:
    """The issue's yardstick: the whole agent app (model, tools, commands) fits in under 100 lines."""
    lines = (ROOT / "inline_render" / "demo" / "pydantic_agent.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 100, len(lines)
