"""The small things an app developer expects: Ctrl-C window, piped input, host signals, CLI exits, strict inputs."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from inline_render import InvalidInput, Key, LogAppend, Notify, PromptRequest, Renderer, Status
from inline_render.outputs import Interrupt
from inline_render.shell import AppOptions, InlineApp, OutputMode
from inline_render.shell.runner import CTRL_C_HINT

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _python(code: str, *args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args] if not code else [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


async def _until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "condition never became true"
        await asyncio.sleep(0.005)


def _plain_app(**options: object) -> InlineApp:
    opts = AppOptions(mode=OutputMode.PLAIN, line_input=False, **options)  # type: ignore[arg-type]
    return InlineApp(opts, stdout=io.StringIO(), stdin=io.StringIO(""))


def test_second_ctrl_c_exits_only_within_the_window() -> None:
    """A Ctrl-C long after the first one is a first one again (hint shown); two close together exit 0."""
    now = [100.0]
    app = InlineApp(AppOptions(mode=OutputMode.PLAIN, line_input=False), stdout=io.StringIO(), clock=lambda: now[0])
    seen: list[object] = []

    async def main(app: InlineApp) -> int:
        app.press("c-c")
        seen.append(await app.next_output())
        await _until(lambda: app.state is not None and app.state.status == CTRL_C_HINT)
        now[0] += 60.0  # minutes later: the window has passed
        app.press("c-c")
        seen.append(await app.next_output())
        assert app.exit_code is None
        now[0] += 0.5
        app.press("c-c")
        await asyncio.sleep(10)
        return 5

    assert asyncio.run(app.run(main)) == 0
    assert seen == [Interrupt("c-c"), Interrupt("c-c")]


def test_ctrl_c_hint_gives_the_status_back_after_the_window() -> None:
    """The exit hint replaces the status line for the window only; then the app's own status returns."""
    app = _plain_app(ctrl_c_window=0.05)

    async def main(app: InlineApp) -> str:
        app.send(Status("ready"))
        await _until(lambda: app.state is not None and app.state.status == "ready")
        app.press("c-c")
        await _until(lambda: app.state is not None and app.state.status == CTRL_C_HINT)
        await _until(lambda: app.state is not None and app.state.status == "ready")
        return 0

    assert asyncio.run(app.run(main)) == 0


def test_readme_inline_app_example_with_piped_input() -> None:
    """The README's InlineApp example, exactly as printed, answers piped lines and exits 0 at end of input."""
    example = next(b for b in _python_blocks() if "app.send(LogAppend(" in b and "InlineApp" in b)
    done = _python(example, stdin="hello there\nsecond line\n", timeout=30)
    assert done.returncode == 0, done.stderr
    assert "You said: hello there" in done.stdout
    assert done.stdout.index("You said: hello there") < done.stdout.index("You said: second line")


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README, flags=re.S | re.M)


def test_readme_20_line_app_with_piped_input() -> None:
    """The README's 20-line app, exactly as printed: a piped question streams, a piped 'y' confirms /delete."""
    example = next(b for b in _python_blocks() if "SlashCommands" in b)
    assert len(example.strip().splitlines()) <= 26  # "a whole app in 20 lines" (plus imports and blank lines)
    done = _python(example, stdin="hi there\n/delete\ny\n", timeout=30)
    assert done.returncode == 0, done.stderr
    assert "You said: hi there" in done.stdout and "deleted (not really)" in done.stdout


def test_readme_pilot_example_runs() -> None:
    """The README's pilot example, exactly as printed, runs its test and passes."""
    example = next(b for b in _python_blocks() if "run_app" in b)
    done = _python(example, timeout=60)
    assert done.returncode == 0, done.stderr


def test_readme_api_reference_command_builds(tmp_path: Path) -> None:
    """The README's pdoc command builds the API reference (to a temp dir here)."""
    pytest.importorskip("pdoc")
    command = next(b for b in re.findall(r"^```sh\n(.*?)^```", README, flags=re.S | re.M) if "pdoc" in b)
    pdoc = command.split("&&")[1].strip().replace("-o apidocs", f"-o {tmp_path}")
    done = subprocess.run(pdoc, shell=True, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "inline_render" / "shell.html").exists()


def test_piped_lines_answer_a_confirm_dialog_in_order() -> None:
    """With line input, a line typed while a confirm is open is its key; end of input ends outputs()."""
    from inline_render import ConfirmAnswer, ConfirmRequest, Submit

    app = InlineApp(AppOptions(mode=OutputMode.PLAIN), stdin=io.StringIO("deploy\ny\nbye\n"), stdout=io.StringIO())
    seen: list[object] = []

    async def main(app: InlineApp) -> None:
        async for output in app.outputs():
            seen.append(output)
            if output == Submit("deploy"):
                app.send(ConfirmRequest("c1", "Deploy?"))

    assert asyncio.run(asyncio.wait_for(app.run(main), 10)) == 0
    assert [type(o).__name__ for o in seen] == ["Submit", "ConfirmAnswer", "Submit", "Quit"]
    assert seen[1] == ConfirmAnswer("c1", True) and seen[2] == Submit("bye")


def test_jsonl_line_input_takes_input_objects() -> None:
    """In JSON Lines mode a stdin line that is a JSON object is one input; a bad one is one error entry."""
    from inline_render import ConfirmAnswer, ConfirmRequest, Submit

    stdin = io.StringIO('ship it\n{"type": "key", "key": "n"}\n{"type": "nope"}\n')
    out = io.StringIO()
    app = InlineApp(AppOptions(mode=OutputMode.JSONL), stdin=stdin, stdout=out)
    seen: list[object] = []

    async def main(app: InlineApp) -> None:
        async for output in app.outputs():
            seen.append(output)
            if output == Submit("ship it"):
                app.send(ConfirmRequest("c1", "Ship?"))

    assert asyncio.run(asyncio.wait_for(app.run(main), 10)) == 0
    assert seen[:2] == [Submit("ship it"), ConfirmAnswer("c1", False)]
    assert '"kind": "error"' in out.getvalue() and "unknown input type 'nope'" in out.getvalue()


def test_host_signal_handlers_are_restored_after_run() -> None:
    """The host loop's own SIGTERM handler and a process-level SIGHUP handler work again after the app ran."""
    code = textwrap.dedent(
        """
        import asyncio, io, os, signal
        from inline_render.shell import AppOptions, InlineApp, OutputMode

        hits = []
        signal.signal(signal.SIGHUP, lambda *_: hits.append("process"))

        async def host():
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGTERM, hits.append, "loop")
            app = InlineApp(AppOptions(mode=OutputMode.PLAIN, line_input=False), stdout=io.StringIO())
            await app.run(lambda app: asyncio.sleep(0.01))
            os.kill(os.getpid(), signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGHUP)
            await asyncio.sleep(0.1)

        asyncio.run(host())
        print(sorted(hits))
        """
    )
    done = _python(code)
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout.strip() == "['loop', 'process']"


def test_import_and_run_without_sighup_or_sigwinch() -> None:
    """Where signal.SIGHUP and SIGWINCH do not exist (Windows), the package, its plugin and an app still work."""
    code = textwrap.dedent(
        """
        import signal
        del signal.SIGHUP, signal.SIGWINCH
        import asyncio, io
        import inline_render, inline_render.pytest_plugin
        from inline_render.shell import AppOptions, InlineApp, OutputMode
        app = InlineApp(AppOptions(mode=OutputMode.PLAIN, line_input=False), stdout=io.StringIO())
        print(asyncio.run(app.run(lambda app: asyncio.sleep(0, 7))))
        """
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "7"


def test_pytest_plugin_import_is_lazy() -> None:
    """Loading the pytest plugin (every pytest run) imports neither prompt_toolkit nor the renderer (only the
    standard-library finder of the old module paths, ``_compat``, comes with the package)."""
    code = (
        "import sys, inline_render.pytest_plugin\n"
        "print(sorted(m for m in sys.modules if m.startswith(('prompt_toolkit', 'inline_render.'))))"
    )
    done = _python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['inline_render._compat', 'inline_render.pytest_plugin']"


def test_diagnostics_go_to_the_library_logger(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A recording that cannot be opened is logged on an ``inline_render.*`` logger, and the library adds no handler."""
    assert logging.getLogger("inline_render").handlers == []
    app = InlineApp(
        AppOptions(mode=OutputMode.PLAIN, line_input=False, record=str(tmp_path / "missing" / "x.jsonl")),
        stdout=io.StringIO(),
    )
    with caplog.at_level(logging.WARNING, logger="inline_render"):
        app.renderer = Renderer.in_memory(40, 10)
        app._start_recording(str(tmp_path / "missing" / "x.jsonl"))
    assert [r.name for r in caplog.records] == ["inline_render.shell.runner"]
    assert "cannot record" in caplog.records[0].getMessage()


def test_version_flag_prints_the_installed_version() -> None:
    """``--version`` prints the package metadata's version, which is also ``inline_render.__version__``."""
    import inline_render

    done = _python("", "-m", "inline_render", "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"inline_render {inline_render.__version__}"
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", inline_render.__version__)


@pytest.mark.parametrize("command", [["demo", "--script", "--approve-all"], ["example"], ["replay", "scenarios"]])
def test_closed_pipe_exits_quietly(command: list[str]) -> None:
    """``... | head -1``: exit 141 as ``yes | head`` would (0 if all fit in the pipe first), never a traceback."""
    shell = f"{sys.executable} -m inline_render {' '.join(command)} | head -1; echo rc=${{PIPESTATUS[0]}}"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.stdout.strip().splitlines()[-1] in ("rc=141", "rc=0"), done.stdout
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_full_disk_exits_1_with_one_line() -> None:
    """``> /dev/full``: exit 1 with one line saying the output could not be written; no traceback."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "inline_render", "example"], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT
        )
    assert done.returncode == 1
    message = "python -m inline_render: cannot write the output: No space left on device"
    assert done.stderr.strip().splitlines() == [message]


def test_example_help_does_not_run_the_example() -> None:
    """``example --help`` prints usage (under the one program name) instead of rendering the example."""
    done = _python("", "-m", "inline_render", "example", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m inline_render example")
    assert "scrollback" not in done.stdout.split("\n\n", 1)[0]


@pytest.mark.parametrize("command", ["demo", "replay", "bench", "example"])
def test_help_texts_have_no_backticks_and_one_program_name(command: str) -> None:
    """Every subcommand's --help names the program ``python -m inline_render`` and shows no raw backticks."""
    done = _python("", "-m", "inline_render", command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python -m inline_render {command}")
    assert "`" not in done.stdout


def test_fake_runtime_help_has_no_backticks() -> None:
    """The reference runtime's --help (a program of its own) shows no raw backticks either."""
    done = _python("", "-m", "inline_render.demo.fake_runtime", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: python -m inline_render.demo.fake_runtime")
    assert "`" not in done.stdout


def test_unknown_command_uses_the_program_name() -> None:
    """An unknown command is reported under the same program name as the subcommands."""
    done = _python("", "-m", "inline_render", "nope")
    assert done.returncode == 2
    assert done.stderr.startswith("python -m inline_render: unknown command 'nope'")


@pytest.mark.parametrize(
    "build",
    [
        lambda: LogAppend("assistent", "hi"),
        lambda: LogAppend("assistant", "", final=False),
        lambda: Notify("hi", "fatal"),
    ],
    ids=["unknown kind", "stream without id", "unknown notify type"],
)
def test_python_api_inputs_are_validated_at_the_call(build: Callable[[], object]) -> None:
    """The Python API rejects what the JSON path rejects, when the input is built (not later, silently)."""
    with pytest.raises(InvalidInput):
        build()


def test_recordings_redact_secret_prompt_answers(tmp_path: Path) -> None:
    """Keys typed into a secret prompt and its answer are stored as stars; the recording still replays."""
    from inline_render.scenario import load_scenario, replay

    path = tmp_path / "secret.jsonl"
    renderer = Renderer.in_memory(40, 10)
    with renderer.record_to(path):
        renderer.feed([PromptRequest("p1", "Token?", secret=True)])
        renderer.feed([])
        outputs = []
        for key in "hunter2":
            outputs += renderer.feed([Key(key)])
        outputs += renderer.feed([Key("enter")])
        outputs += renderer.feed([Key("h")])  # the composer again: kept as typed
    text = path.read_text(encoding="utf-8")
    assert [o.value for o in outputs if hasattr(o, "value")] == ["hunter2"]  # the app got the real answer
    assert "hunter" not in text and '"value": "*******"' in text
    assert '{"type": "key", "key": "h"}' in text
    assert replay(load_scenario(path)).passed
