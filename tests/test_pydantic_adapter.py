"""The pydantic-ai adapter (inline_render.integrations.pydantic_ai) on offline models: FunctionModel, TestModel."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, ApprovalRequired, ModelRetry, RunContext, Tool
from pydantic_ai.messages import ModelMessage, ModelRequest, RetryPromptPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from pydantic_ai.models.test import TestModel

from inline_render.integrations.pydantic_ai import AgentSession, file_write_preview
from inline_render.testing.pilot import Pilot, run_app

ROOT = Path(__file__).resolve().parent.parent


def _calling(*calls: tuple[str, dict[str, object]]) -> FunctionModel:
    """A model that makes ``calls`` (one per response) and then answers with what the last tool returned."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | dict[int, DeltaToolCall]]:
        # A call is answered by a return, or by a retry prompt (pydantic-ai 2.0's failed call; later ones return).
        answered = (ToolReturnPart, RetryPromptPart)
        made = sum(1 for m in messages if isinstance(m, ModelRequest) and any(isinstance(p, answered) for p in m.parts))
        if made < len(calls):
            name, args = calls[made]
            yield {0: DeltaToolCall(name, json.dumps(args), tool_call_id=f"c{made}")}
            return
        last = [p for p in messages[-1].parts if isinstance(p, answered)]
        yield f"finished: {last[0].content if last else 'nothing'}"

    return FunctionModel(stream_function=stream)


async def _ask(pilot: Pilot, session: AgentSession, line: str) -> None:
    await pilot.type(line)
    await pilot.press("enter")
    await session.turns.wait_idle()
    await pilot.settle()


async def test_test_model_calls_every_tool_and_shows_each_call_and_result() -> None:
    """TestModel calls each tool once: a tool entry for the call and one for its result, then the answer."""

    def lookup(word: str) -> str:
        """Look a word up."""
        return f"meaning of {word}"

    session = AgentSession(Agent(TestModel(), tools=[lookup]))
    async with run_app(session.main, columns=80, rows=20, setup=session.install) as pilot:
        await _ask(pilot, session, "go")
        snapshot = pilot.snapshot()
        call, result = snapshot.index("\u2699 lookup word="), snapshot.index("\u2699 lookup: meaning of ")
        assert call < result < snapshot.index('{"lookup":')  # TestModel's answer names the tool's results
        assert snapshot.count("\u2699 lookup word=") == 1


async def test_a_failing_tool_is_an_error_entry() -> None:
    """A tool that raises ModelRetry shows as '<tool> failed: ...' (an error entry); the run goes on."""

    def flaky(path: str) -> str:
        """Fails."""
        raise ModelRetry("no such file")

    session = AgentSession(Agent(_calling(("flaky", {"path": "x"})), tools=[flaky], retries=2))
    async with run_app(session.main, columns=80, rows=20, setup=session.install) as pilot:
        await _ask(pilot, session, "go")
        snapshot = pilot.snapshot()
        assert "flaky failed: no such file" in snapshot and "finished:" in snapshot


async def test_always_approves_the_tool_for_the_rest_of_the_session(tmp_path: Path) -> None:
    """'a' in the dialog: this call runs, and the next call of the same tool is not asked again."""
    written: list[str] = []

    def write_file(path: str, content: str) -> str:
        """Write."""
        written.append(path)
        return "ok"

    model = _calling(
        ("write_file", {"path": "a.txt", "content": "1"}), ("write_file", {"path": "b.txt", "content": "2"})
    )
    session = AgentSession(Agent(model, tools=[Tool(write_file, requires_approval=True)]), root=tmp_path)
    async with run_app(session.main, columns=80, rows=24, setup=session.install) as pilot:
        await pilot.type("go")
        await pilot.press("enter")
        await pilot.wait_for("Approval Required")
        await pilot.press("a")
        await session.turns.wait_idle()
        await pilot.settle()
        assert written == ["a.txt", "b.txt"] and session.allowed == {"write_file"}
        assert pilot.snapshot().count("Planned write_file diff preview") == 1  # b.txt was not asked about


async def test_approval_required_raised_by_a_tool_asks_the_user_too() -> None:
    """A tool raising ApprovalRequired (pydantic-ai's conditional approval) goes through the same dialog."""
    ran: list[bool] = []

    def deploy(ctx: RunContext[None], env: str) -> str:
        """Deploy."""
        if env == "prod" and not ctx.tool_call_approved:
            raise ApprovalRequired()
        ran.append(True)
        return f"deployed to {env}"

    session = AgentSession(Agent(_calling(("deploy", {"env": "prod"})), tools=[deploy]))
    async with run_app(session.main, columns=80, rows=24, setup=session.install) as pilot:
        await pilot.type("go")
        await pilot.press("enter")
        await pilot.wait_for("deploy env=prod")
        await pilot.wait_for("Approval Required")
        await pilot.press("y")
        await session.turns.wait_idle()
        await pilot.wait_for("finished: deployed to prod")
        assert ran == [True]


def test_file_write_preview_diffs_against_the_file_on_disk(tmp_path: Path) -> None:
    """A call with a path and content is previewed as the diff against the file; other calls get none."""
    from pydantic_ai.messages import ToolCallPart

    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    preview = file_write_preview(ToolCallPart("save", {"path": "a.py", "content": "x = 2\n"}), tmp_path)
    assert preview is not None and preview.file_path == "a.py" and preview.tool == "save"
    assert preview.diff is not None and "-x = 1\n+x = 2" in preview.diff
    new = file_write_preview(ToolCallPart("save", {"file_path": "b.py", "text": "y\n"}), tmp_path)
    assert new is not None and new.diff is not None and "+y" in new.diff
    assert file_write_preview(ToolCallPart("search", {"query": "x"}), tmp_path) is None


def test_the_library_runs_without_pydantic_ai() -> None:
    """With pydantic_ai unimportable the library and the chat app import; the demo flag says what to install."""
    blocker = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'pydantic_ai': raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
    )
    script = blocker + (
        "import inline_render, inline_render.shell, inline_render.testing, inline_render.demo.chat\n"
        "from inline_render.demo.scripted import main\n"
        "raise SystemExit(main(['--pydantic-ai']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert "pip install 'inline_render[pydantic-ai]'" in done.stderr
