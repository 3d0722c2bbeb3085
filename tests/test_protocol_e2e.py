"""End to end: the scripted runtime as a real child process, through the client, into the core renderer."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import json
import sys
import textwrap
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from protocol_support import FAKE_RUNTIME

from inline_render import Renderer, protocol
from inline_render.inputs import ConfirmRequest, Input, Key, LogAppend, PickRequest, PromptRequest
from inline_render.outputs import Output
from inline_render.protocol.client import ClientConfig, RuntimeClient

DIALOGS = (ConfirmRequest, PromptRequest, PickRequest)


class UI:
    """A renderer fed by the client, and a scripted user who answers each dialog with keys."""

    def __init__(
        self,
        *flags: str,
        answers: list[list[str]] | None = None,
        timeout: float = 5.0,
        on_dialog: Callable[[UI], None] | None = None,
        command: list[str] | None = None,
    ) -> None:
        self.renderer = Renderer.in_memory(80, 40)
        self.answers = list(answers or [])
        self.on_dialog = on_dialog
        self.inputs: list[Input] = []
        self.client = RuntimeClient(
            command or [*FAKE_RUNTIME, *flags], self.sink, ClientConfig(request_timeout=timeout, shutdown_timeout=1.0)
        )

    def sink(self, inputs: list[Input]) -> list[Output]:
        self.inputs += inputs
        outputs = self.renderer.feed(inputs)
        if any(isinstance(item, DIALOGS) for item in inputs):
            # The dialog is on screen after this tick; the user answers on a later one.
            asyncio.get_running_loop().call_soon(self.dialog_opened)
        return outputs

    def dialog_opened(self) -> None:
        if self.on_dialog is not None:
            self.on_dialog(self)
        elif self.answers:
            self.press(*self.answers.pop(0))

    def press(self, *keys: str) -> None:
        for key in keys:
            for output in self.renderer.feed([Key(key)]):
                self.client.handle_output(output)

    def type(self, text: str) -> None:
        self.press(*text, "enter")

    @property
    def lines(self) -> list[str]:
        return self.renderer.terminal.all_lines()

    def once(self, *texts: str) -> None:
        """Each text occurs in exactly one rendered line, in this order."""
        lines = self.lines
        where = []
        for text in texts:
            hits = [n for n, line in enumerate(lines) if text in line]
            assert len(hits) == 1, f"{text!r} in {len(hits)} lines:\n" + "\n".join(lines)
            where.append(hits[0])
        assert where == sorted(where), "\n".join(lines)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 20))


async def session(ui: UI, prompt: str) -> int | None:
    """Start, type ``prompt``, wait for the run to end, shut down; the runtime's exit status."""
    assert await ui.client.start() is not None
    ui.type(prompt)
    assert await ui.client.wait_idle(10)
    return await ui.client.close()


EDIT_STORY = (
    "Fix the greeting",
    "The greeting lives in hello.py: edit it.",
    "I'll update the greeting in hello.py. Let me look at the file first.",
    "read file_path=hello.py",
    "read: def greet(name):",
    "It currently reads:",  # Markdown: the fenced code is shown without its fence
    "I will change the greeting to use an f-string.",
    "edit file_path=hello.py",
    "Planned edit diff preview",
    "--- hello.py",
    '-    print("hi " + name)',
    '+    print(f"Hello, {name}!")',
    "Permission preflight ready (edit)",
)


def test_confirm_answered_yes_applies_the_edit() -> None:
    """Runtime -> client -> renderer: the whole story renders once, in order; 'y' applies the edit."""
    ui = UI(answers=[["y"]])

    async def test() -> None:
        assert await session(ui, "Fix the greeting") == 0

    run(test)
    ui.once(*EDIT_STORY, "edit: Replaced 1 occurrence(s) in hello.py", "Done: hello.py now says Hello.")
    assert not any("denied" in line or "Ignored" in line for line in ui.lines)
    assert ui.lines[-2:] == ["done \u00b7 87% context left", "\u203a"]  # status line, then the empty composer


def test_confirm_answered_no_with_a_reason_skips_the_edit() -> None:
    """'n' then a typed reason: the runtime gets ok=false with the reason and leaves the file alone."""
    ui = UI(answers=[["n", *"not now", "enter"]])

    async def test() -> None:
        assert await session(ui, "Fix the greeting") == 0

    run(test)
    ui.once(*EDIT_STORY, "edit failed: Permission denied: not now", "Okay, I left hello.py unchanged.")
    assert not any("Replaced" in line for line in ui.lines)


def test_confirm_denied_without_a_reason_stops_the_turn() -> None:
    """'n' then Enter (no reason): the runtime gets ok=false, reason null, and stops the turn as codelia does."""
    ui = UI(answers=[["n", "enter"]])

    async def test() -> None:
        assert await session(ui, "Fix the greeting") == 0

    run(test)
    ui.once(*EDIT_STORY, "edit failed: Permission denied", "Permission request was denied. Turn stopped.")


def test_both_preflight_paths_render_the_same_through_a_real_runtime() -> None:
    """The runtime in --legacy mode (text lines) renders exactly like the structured mode."""
    screens = []
    for flags in ((), ("--legacy",)):
        ui = UI(*flags, answers=[["y"]])

        async def test(ui: UI = ui) -> None:
            assert await session(ui, "Fix the greeting") == 0

        run(test)
        screens.append(ui.lines)
    assert screens[0] == screens[1]
    assert sum("Planned edit diff preview" in line for line in screens[0]) == 1


def test_cancel_while_the_confirm_is_open_closes_it() -> None:
    """run.cancel during a pending confirm: the run ends cancelled and the dialog is closed, unanswered."""
    ui = UI(on_dialog=lambda ui: ui.client.cancel())

    async def test() -> None:
        assert await session(ui, "Fix the greeting") == 0

    run(test)
    ui.once("Permission preflight ready (edit)", "Run cancelled.")
    assert ui.client.session.run_status("run-1") == "cancelled"
    assert not any("Run tool?" in line or "Cancelling" in line for line in ui.renderer.terminal.screen_lines())
    assert not any("Replaced" in line or "denied" in line for line in ui.lines)


def test_escape_during_streaming_cancels_the_run() -> None:
    """Esc while text streams sends run.cancel; the stream stops short and the run ends cancelled."""
    ui = UI("--speed", "2000")

    async def test() -> None:
        assert await ui.client.start() is not None
        ui.type("a long answer please")
        for _ in range(200):
            if any(isinstance(i, LogAppend) and i.kind == "assistant" for i in ui.inputs):
                break
            await asyncio.sleep(0.01)
        ui.press("escape")
        ui.press("escape")  # idempotent: still one run.cancel
        assert await ui.client.wait_idle(10)
        assert await ui.client.close() == 0

    run(test)
    ui.once("Run cancelled.")
    assert not any("Line 200 of a long answer." in line for line in ui.lines)
    assert ui.client.session.run_status("run-1") == "cancelled"


def test_runtime_crash_mid_run_ends_the_run_with_an_error_line() -> None:
    """A runtime dying mid-run: its stderr line and a clear error line show; the UI keeps working."""
    ui = UI("--crash-after", "5")

    async def test() -> None:
        assert await session(ui, "Fix the greeting") == 3
        ui.client.submit("again")

    run(test)
    ui.once(
        "fake_runtime: crashing on purpose after 5 events",
        "The runtime exited (exit code 3) during run run-1.",
        "The runtime is not running.",
    )
    cursor = ui.renderer.terminal.cursor
    assert cursor.visible and ui.renderer.terminal.screen_lines()[cursor.y].startswith("\u203a")


def test_unanswered_request_times_out_with_a_visible_message() -> None:
    """A runtime that never answers run.start: after the timeout an error line shows and the UI is idle."""
    ui = UI("--ignore", "run.start")

    async def test() -> None:
        assert await ui.client.start() is not None  # the interpreter may start slowly: a short timeout
        ui.client.config = dataclasses.replace(ui.client.config, request_timeout=0.3)  # only from here on
        ui.type("Fix the greeting")
        assert await ui.client.wait_idle(5)
        assert await ui.client.close() == 0

    run(test)
    ui.once("The runtime did not answer run.start within 0.3 s.")
    assert not ui.client.session.busy


def test_pick_and_prompt_dialogs_are_answered() -> None:
    """ui.pick.request and ui.prompt.request open dialogs whose answers reach the runtime."""
    ui = UI(answers=[["enter"], ["enter"]])

    async def test() -> None:
        assert await ui.client.start() is not None
        ui.type("pick a file")
        assert await ui.client.wait_idle(10)
        ui.type("ask me and suggest")
        assert await ui.client.wait_idle(10)
        assert await ui.client.close() == 0

    run(test)
    ui.once("You picked: hello.py.", "Commit message: Update greeting")  # Enter takes the default_value
    assert "Now add a test for greet()" in ui.lines[-1]  # ui.set_editor_text filled the composer


def test_runtime_that_cannot_start_is_reported() -> None:
    """A command that does not exist: start() returns None and an error line says why."""
    ui = UI(command=["/nonexistent/runtime-binary"])

    async def test() -> None:
        assert await ui.client.start() is None
        ui.client.submit("hi")
        assert await ui.client.close() is None

    run(test)
    ui.once("Could not start the runtime", "The runtime is not running.")


def test_runtime_that_ignores_stdin_eof_is_terminated() -> None:
    """A silent runtime: initialize times out visibly, and close() terminates the process."""
    ui = UI(command=[sys.executable, "-c", "import time; time.sleep(30)"], timeout=0.3)

    async def test() -> None:
        assert await ui.client.start() is None
        returncode = await ui.client.close()
        assert returncode is not None and returncode < 0  # ended by a signal

    run(test)
    ui.once("The runtime did not answer initialize within 0.3 s.")


def test_the_documented_example_runs() -> None:
    """The usage example of the protocol docs (pasted into the README) runs and renders the edit."""
    doc = protocol.__doc__ or ""
    start, end = doc.index("    import asyncio"), doc.index("    asyncio.run(main())") + len("    asyncio.run(main())")
    code = textwrap.dedent(doc[start:end]).replace('["python",', "[sys.executable,")
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "protocol docs", "exec"), {"sys": sys})
    assert "edit: Replaced 1 occurrence(s) in hello.py" in output.getvalue()
    assert output.getvalue().count("Planned edit diff preview") == 1


def test_the_readme_protocol_example_is_the_documented_one() -> None:
    """The README's runtime example is the protocol docstring's (which the test above runs), line for line."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Runtime protocol") :]
    example = section[
        section.index("```python\n") + len("```python\n") : section.index("\n```", section.index("```python"))
    ]
    doc = protocol.__doc__ or ""
    start, end = doc.index("    import asyncio"), doc.index("    asyncio.run(main())") + len("    asyncio.run(main())")
    assert example == textwrap.dedent(doc[start:end]).replace("\\\\n", "\\n")


def test_working_directory_changes_are_debounced_into_one_context_update(tmp_path: Path) -> None:
    """ui.context.update goes out after initialize, then once for a burst of cwd changes (the last one wins)."""
    log = tmp_path / "received.ndjson"
    ui = UI("--log", str(log))
    ui.client.config = dataclasses.replace(ui.client.config, context_debounce=0.05)
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "src").mkdir()

    async def test() -> None:
        assert await ui.client.start() is not None
        ui.client.set_cwd(str(tmp_path))
        ui.client.set_cwd(str(tmp_path / "repo" / "src"))
        await asyncio.sleep(0.5)
        assert await ui.client.close() == 0

    run(test)
    received = [json.loads(line) for line in log.read_text().splitlines()]
    updates = [m["params"] for m in received if m.get("method") == "ui.context.update"]
    assert len(updates) == 2 and "id" not in received[1]
    assert updates[1] == {"cwd": str(tmp_path / "repo" / "src"), "workspace_root": str(tmp_path / "repo")}


def test_a_close_cancelled_half_way_still_stops_and_reaps_the_runtime() -> None:
    """close() cancelled while it waits for the runtime to exit: the runtime is still reaped, then it is cancelled."""
    # The runtime takes 0.5 s to exit after stdin's EOF, so the cancel lands while close() waits for it.
    slow = "import sys, time; sys.stdin.read(); time.sleep(0.5)"
    ui = UI(command=[sys.executable, "-c", slow], timeout=0.3)

    async def test() -> None:
        await ui.client.start()
        closing = asyncio.ensure_future(ui.client.close())
        await asyncio.sleep(0.1)
        closing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await closing
        assert closing.cancelled()
        assert ui.client.returncode == 0  # waited for: it exited on its own after the EOF

    run(test)


def test_a_close_does_not_wait_for_a_process_the_runtime_left_holding_its_pipes() -> None:
    """A runtime that exits but leaves a child holding its stdout: close() returns within its timeouts."""
    child = "[sys.executable, '-c', 'import time; time.sleep(8)']"
    script = f"import subprocess, sys; subprocess.Popen({child}); sys.stdin.read()"
    ui = UI(command=[sys.executable, "-c", script], timeout=0.3)

    async def test() -> None:
        ui.client.config = dataclasses.replace(ui.client.config, shutdown_timeout=0.5)
        await ui.client.start()
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await ui.client.close() == 0
        assert loop.time() - started < 3  # the child sleeps 8 s: its pipes are let go, not waited for
        assert ui.client.session.exited

    run(test)
