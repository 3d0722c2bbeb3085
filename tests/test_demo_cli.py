"""``python -m inline_render demo``: bad options are usage errors and a runtime that cannot start fails the run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from inline_render.demo import scripted as demo


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-rate", "0"], "--max-rate"),
        (["--max-rate", "-1"], "--max-rate"),
        (["--max-rate", "nan"], "--max-rate"),
        (["--max-rate", "inf"], "--max-rate"),
        (["--runtime", "'unclosed"], "--runtime"),
        (["--runtime", "   "], "--runtime"),
        (["--runtime", ""], "--runtime"),
    ],
)
def test_bad_options_exit_2_with_a_usage_error(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An invalid --max-rate or --runtime stops before anything starts: exit 2 and the option named on stderr."""
    with pytest.raises(SystemExit) as stop:
        demo.main(args)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_a_runtime_that_cannot_start_fails_the_unattended_demo() -> None:
    """--runtime naming no program: the error is shown and the unattended demo exits 1, not 0."""
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "demo", "--runtime", "/nonexistent/runtime", "--mode", "plain"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Could not start the runtime" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_runtime_that_exits_before_initialize_fails_the_unattended_demo() -> None:
    """A runtime that prints garbage and exits 0 without answering initialize: exit 1, its output shown."""
    done = subprocess.run(
        [sys.executable, "-m", "inline_render", "demo", "--runtime", 'sh -c "echo garbage"', "--mode", "plain"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "garbage" in done.stdout
    assert "Traceback" not in done.stderr
