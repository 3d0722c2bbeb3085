"""The README's promises: its example runs, and CI runs exactly its test command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.S | re.M)


def test_readme_test_command_is_what_ci_runs() -> None:
    """The test command shown in the README appears verbatim as a line of .ci/run."""
    command = next(block.strip() for block in _blocks("sh") if "pytest" in block)
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci_lines


def test_readme_python_example_runs_and_renders() -> None:
    """The first Python example of the README runs and shows the streamed answer in the terminal."""
    example = next(block for block in _blocks("python") if "Renderer.in_memory(60, 12" in block)
    done = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "Inline mode keeps your scrollback." in done.stdout
