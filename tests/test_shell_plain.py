"""Non-TTY modes: the plain transcript and JSON Lines, from the writer and from the demo through a pipe."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from inline_render import ConfirmRequest, Key, LogAppend, LogDelta, LogFinish, LogReplace, Notify, Status
from inline_render.outputs import ConfirmAnswer
from inline_render.shell.plain import AnswerTracker, PlainWriter

FAST_RUNTIME = f"{sys.executable} -m inline_render.demo.fake_runtime --speed 0 --delay 0"


def _demo(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    environment = {**os.environ, "TERM": "xterm-256color", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "inline_render", "demo", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
        env=environment,
        check=False,
    )


def test_streamed_text_is_written_once_per_committed_line() -> None:
    """A streaming entry is written line by line as lines complete, the rest when it is finished."""
    stream = io.StringIO()
    writer = PlainWriter(stream)
    writer.feed([LogAppend("assistant", "Hello wor", id="a", final=False)])
    assert stream.getvalue() == ""
    writer.feed([LogDelta("a", "ld\nsecond")])
    assert stream.getvalue() == "\u25b8 Hello world\n"
    writer.feed([LogReplace("a", "Hello world\nsecond line"), LogFinish("a")])
    assert stream.getvalue() == "\u25b8 Hello world\n  second line\n"


def test_ascii_mode_uses_tokens_and_no_other_bytes() -> None:
    """--ascii: [OK]/[WARN]/[ERROR] tokens, every byte ASCII, controls from the text neutralized."""
    stream = io.StringIO()
    writer = PlainWriter(stream, ascii=True)
    writer.feed([Notify("saved \u2713", "success"), Notify("careful", "warn"), LogAppend("error", "bad \x1b[31mred")])
    writer.close()
    text = stream.getvalue()
    assert text.isascii() and "\x1b" not in text
    assert text.splitlines() == ["[OK] saved ?", "[WARN] careful", "[ERROR] bad ?[31mred"]


def test_dialogs_are_printed_and_answered_with_keys() -> None:
    """A confirm prints its question; the key answers it like in the inline viewport, and the answer is shown."""
    stream = io.StringIO()
    writer = PlainWriter(stream)
    writer.feed([ConfirmRequest("c1", "Allow edit?", "Apply the change")])
    outputs = writer.feed([Key("y")])
    assert outputs == [ConfirmAnswer("c1", True)]
    assert stream.getvalue().splitlines() == ["? Allow edit?", "  Apply the change", "  -> yes"]


def test_jsonl_writes_one_object_per_entry_and_event() -> None:
    """JSON Lines: a log object per finished entry, plus status, dialog and answer objects."""
    stream = io.StringIO()
    writer = PlainWriter(stream, jsonl=True)
    writer.feed([Status("running"), LogAppend("assistant", "one\n", id="a", final=False), LogDelta("a", "two")])
    writer.feed([LogFinish("a"), ConfirmRequest("c", "Go?")])
    writer.feed([Key("n")])
    objects = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert objects == [
        {"type": "status", "text": "running"},
        {"type": "log", "kind": "assistant", "text": "one\ntwo"},
        {"type": "dialog", "dialog": "confirm", "id": "c", "title": "Go?"},
        {"type": "confirm.answer", "id": "c", "ok": False},
    ]


def test_answer_tracker_keeps_the_last_finished_assistant_text() -> None:
    """The final answer is the text of the last assistant entry finished, replace rules included."""
    tracker = AnswerTracker()
    tracker.feed([LogAppend("assistant", "draft\npart", id="r", final=False), LogReplace("r", "draft\nfinal")])
    assert tracker.answer is None
    tracker.feed([LogFinish("r"), LogAppend("user", "next")])
    assert tracker.answer == "draft\nfinal"


def test_demo_through_a_pipe_is_a_plain_transcript() -> None:
    """stdout not a TTY: the whole demo unattended, no escape byte, every step of the script, exit 0."""
    result = _demo("--approve-all")
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode()
    assert "\x1b" not in text
    order = ["\u203a Fix the greeting", "\u2699 read file_path=hello.py", "```python", "Planned edit diff preview",
             "+    print(f\"Hello, {name}!\")", "? Run tool?", "-> yes", "Replaced 1 occurrence(s)", "now says Hello",
             "\u203a Now pick a file", "You picked: hello.py", "\u203a ask me for a commit message",
             "Commit message: Update greeting"]  # fmt: skip
    positions = [text.find(marker) for marker in order]
    assert all(position >= 0 for position in positions), (order, text)
    assert positions == sorted(positions)
    assert text.count("Planned edit diff preview") == 1


def test_demo_jsonl_and_result_stdout() -> None:
    """--mode jsonl writes JSON objects; --result-stdout puts only the final answer on stdout."""
    result = _demo("--mode", "jsonl", "--runtime", FAST_RUNTIME, "--prompt", "ask me")
    assert result.returncode == 0, result.stderr.decode()
    objects = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert {"type": "log", "kind": "assistant", "text": "Commit message: Update greeting"} in objects
    result = _demo("--result-stdout", "--ascii", "--runtime", FAST_RUNTIME, "--prompt", "pick one")
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode() == "You picked: hello.py.\n"
    progress = result.stderr.decode()
    assert "> pick one" in progress and progress.isascii() and "\x1b" not in progress


def test_demo_with_an_external_runtime_and_no_prompt_runs_hello() -> None:
    """Unattended with --runtime and no --prompt: one run with the prompt 'hello', then exit 0."""
    result = _demo("--approve-all", "--runtime", FAST_RUNTIME, env={"NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr.decode()
    text = result.stdout.decode()
    assert "\u203a hello" in text and "now says Hello" in text
