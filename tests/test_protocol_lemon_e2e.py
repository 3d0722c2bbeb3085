"""Lemon end to end: the scripted seed-001 runtime as a child process, through the client and the demo."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from inline_render.inputs import ConfirmRequest, Input, Key, PickRequest, PromptRequest
from inline_render.outputs import Output
from inline_render.protocol.client import ClientConfig, Protocol, RuntimeClient
from inline_render.protocol.lemon.codec import LemonReady
from inline_render.testing.checks import CheckedRenderer

FAKE_LEMON = [sys.executable, "-m", "inline_render.demo.fake_lemon", "--delay", "0"]
DIALOGS = (ConfirmRequest, PromptRequest, PickRequest)


class UI:
    """A checked renderer (emulators compared every tick) fed by the client; a user answering by keys."""

    def __init__(
        self, log: Path, answers: list[list[str]], protocol: Protocol, timeout: float | None = 25.0, delay: float = 0
    ) -> None:
        self.renderer = CheckedRenderer(80, 30)
        self.answers = answers
        self.titles: list[str] = []
        config = ClientConfig(protocol=protocol, shutdown_timeout=1.0, ui_request_timeout=timeout)
        command = [*FAKE_LEMON[:-1], str(delay), "--log", str(log)]
        self.client = RuntimeClient(command, self.sink, config, on_title=self.titles.append)

    def sink(self, inputs: list[Input]) -> list[Output]:
        outputs = self.renderer.feed(inputs)
        if any(isinstance(item, DIALOGS) for item in inputs) and self.answers:
            asyncio.get_running_loop().call_soon(self.press, *self.answers.pop(0))
        return outputs

    def press(self, *keys: str) -> None:
        for key in keys:
            for output in self.renderer.feed([Key(key)]):
                self.client.handle_output(output)

    async def prompt(self, text: str) -> None:
        self.press(*text, "enter")
        assert self.client.session.busy
        assert await self.client.wait_idle(10)
        self.renderer.feed([])  # the follow-up redraw

    @property
    def lines(self) -> list[str]:
        return self.renderer.renderer.terminal.all_lines()


def received(log: Path) -> list[dict[str, Any]]:
    return [json.loads(text) for text in log.read_text().splitlines()]


def test_a_lemon_session_streams_once_answers_overlays_and_sends_commands(tmp_path: Path) -> None:
    """--protocol lemon: streamed text shown once, select/confirm/input/editor answered in 2.2's shapes."""
    log = tmp_path / "rx.jsonl"
    answers = [["down", "enter"], ["enter"], [*"fix it", "enter"], ["c-j", *"3. ship", "enter"]]

    async def main() -> tuple[list[str], list[str]]:
        ui = UI(log, answers, "lemon")
        ready = await ui.client.start()
        assert isinstance(ready, LemonReady) and ready.model == "anthropic/claude-3-5"
        for prompt in ("hello", "pick a file", "confirm it", "ask me", "edit the plan", "signals"):
            await ui.prompt(prompt)
        assert ui.client.run_command("/ping") and ui.client.run_command("/stats")
        await asyncio.sleep(0.3)
        ui.renderer.feed([])
        assert ui.renderer.state.composer.text == "edit this text"  # ui_set_editor_text
        viewport = [row.rstrip() for row in ui.renderer.renderer.terminal.screen_lines()]
        assert viewport.count("- read") == 1 and viewport.count("- fix") == 1  # ui_widget, above the status
        await ui.client.close()
        return ui.lines, ui.titles

    lines, titles = asyncio.run(asyncio.wait_for(main(), 30))
    assert titles == ["Lemon \x1b]52;c;evil\x07 demo"]  # as sent: the shell sanitizes it (test_lemon_title)
    screen = "\n".join(lines)
    for shown in (
        "Lemon runtime ready in",
        "I'll read the file first.",
        "read path=hello.py",
        "already uses an f-string",
        "You picked: README.md.",
        "Confirmed: true.",
        "Commit message: fix it.",
        "The plan has 3 lines.",
        "A warn notice.",
        "Signals sent.",
        "pong",
        '"turns":1',
    ):
        assert sum(shown in row for row in lines) == 1, f"{shown!r}:\n{screen}"
    assert "Ignored" not in screen and "-32600" not in screen
    rx = received(log)
    assert next(m for m in rx if m["type"] == "prompt") == {"type": "prompt", "text": "hello"}
    assert [(m["id"], m["result"], m["error"]) for m in rx if m["type"] == "ui_response"] == [
        ("req-1", "README.md", None),
        ("req-2", True, None),
        ("req-3", "fix it", None),
        ("req-4", "1. read\n2. fix\n3. ship", None),
    ]
    assert [m["type"] for m in rx if m["type"] not in ("prompt", "ui_response")] == ["ping", "stats"]


def test_a_lemon_runtime_is_recognised_by_its_first_line(tmp_path: Path) -> None:
    """protocol auto: the ready line switches to Lemon; no JSON-RPC error ever reaches the runtime."""
    log = tmp_path / "rx.jsonl"

    async def main() -> tuple[str, list[str]]:
        ui = UI(log, [], "auto")
        assert isinstance(await ui.client.start(), LemonReady)
        await ui.prompt("bad lines please")
        await ui.client.close()
        return ui.client.protocol, ui.lines

    protocol, lines = asyncio.run(asyncio.wait_for(main(), 30))
    assert protocol == "lemon"
    rx = received(log)
    assert [m.get("method") or m["type"] for m in rx] == ["initialize", "prompt"]  # the probe, then Lemon only
    ignored = [row for row in lines if "Ignored a malformed" in row]
    assert len(ignored) == 7, "\n".join(lines)  # one quiet line per bad line of the fake's 'bad' turn
    assert sum("Still here after the bad lines." in row for row in lines) == 1


def test_an_unanswered_overlay_gets_the_fallback_after_the_timeout(tmp_path: Path) -> None:
    """Nobody presses a key: after ui_request_timeout the confirm is answered false and closed."""
    log = tmp_path / "rx.jsonl"

    async def main() -> list[str]:
        ui = UI(log, [], "lemon", timeout=0.3)
        await ui.client.start()
        await ui.prompt("confirm it")
        assert ui.renderer.state.dialog is None and not ui.renderer.state.queued  # closed, not left on screen
        await ui.client.close()
        return ui.lines

    lines = asyncio.run(asyncio.wait_for(main(), 30))
    responses = [m for m in received(log) if m["type"] == "ui_response"]
    assert responses == [{"type": "ui_response", "id": "req-1", "result": False, "error": None}]
    assert any("No answer to Delete build/? within 0.3 s" in row for row in lines)
    assert sum("Confirmed: false." in row for row in lines) == 1


def test_escape_while_streaming_aborts_the_run_once(tmp_path: Path) -> None:
    """Esc during a streamed answer sends abort once; the run ends aborted, the streamed lines shown once."""
    log = tmp_path / "rx.jsonl"

    async def main() -> tuple[str | None, list[str]]:
        ui = UI(log, [], "lemon", delay=0.01)
        await ui.client.start()
        ui.press(*"long", "enter")
        while not any("line 5" in row for row in ui.lines):
            await asyncio.sleep(0.02)
            ui.renderer.feed([])
        ui.press("escape")
        ui.press("escape")
        assert await ui.client.wait_idle(10)
        ui.renderer.feed([])
        await ui.client.close()
        return ui.client.session.run_status("lemon-1"), ui.lines

    status, lines = asyncio.run(asyncio.wait_for(main(), 30))
    assert status == "cancelled"
    assert [m["type"] for m in received(log)] == ["prompt", "abort"]
    assert sum("Run aborted." in row for row in lines) == 1
    assert sum(row.strip().endswith("line 1") for row in lines) == 1 and not any("line 399" in r for r in lines)


def test_the_demo_runs_a_lemon_runtime_end_to_end(tmp_path: Path) -> None:
    """demo --protocol lemon --runtime CMD --prompt ...: streamed once, every overlay answered, signals, bad lines."""
    log = tmp_path / "rx.jsonl"
    runtime = " ".join([*FAKE_LEMON, "--log", str(log)])
    command = [sys.executable, "-m", "inline_render", "demo", "--script", "--mode", "plain", "--protocol", "lemon"]
    command += ["--runtime", runtime]
    prompts = ("hello", "pick a file", "confirm it", "ask me", "edit the plan", "bad", "signals", "/ping", "/quit")
    for prompt in prompts:
        command += ["--prompt", prompt]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for shown in (
        "already uses an f-string",
        "You picked: hello.py.",
        "Confirmed: true.",
        "Commit message: .",
        "The plan has 2 lines.",
        "Still here after the bad lines.",
        "A warn notice.",
        "Signals sent.",
        "pong",
    ):
        assert out.count(shown) == 1, f"{shown!r}:\n{out}"
    assert out.count("Ignored a malformed") == 7 and "Ignored a bad" not in out  # one quiet line per bad line
    assert "\x1b]52" not in out
    rx = received(log)
    overlays = ["prompt", "ui_response"] * 4  # pick, confirm, ask, edit: one answer each
    assert [m["type"] for m in rx] == ["prompt", *overlays, "prompt", "prompt", "ping", "quit"]
    assert [m["result"] for m in rx if m["type"] == "ui_response"] == ["hello.py", True, "", "1. read\n2. fix"]
    assert all(m["error"] is None for m in rx if m["type"] == "ui_response")
