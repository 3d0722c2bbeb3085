"""``python -m inline_render example``: the README's example, rendered into the in-memory terminal."""

from __future__ import annotations

import argparse

from ..cli import PROG, help_text
from ..core.state import Config
from ..core.tick import Renderer
from ..inputs import ConfirmRequest, Key, LogAppend, LogDelta, LogFinish, PermissionPreview, Status

__all__ = ["main"]


def main(argv: list[str]) -> int:
    """Stream a short session and print the terminal (scrollback, screen, cursor) it produced."""
    argparse.ArgumentParser(prog=f"{PROG} example", description=help_text(__doc__)).parse_args(argv)
    renderer = Renderer.in_memory(60, 12, config=Config(viewport_height=6))
    renderer.feed([Status("thinking")])
    renderer.feed([LogAppend("user", "Explain inline rendering")])
    renderer.feed([LogAppend("assistant", "", id="a1", final=False)])
    for token in ["Inline mode ", "keeps your ", "scrollback.\n", "Rows enter it ", "once."]:
        renderer.feed([LogDelta("a1", token)])
    renderer.feed([LogFinish("a1")])
    renderer.feed([PermissionPreview("edit_file", diff="@@ -1 +1 @@\n-old\n+new"), ConfirmRequest("c1", "Apply?")])
    renderer.feed([])
    answers = renderer.feed([Key("y")])
    print(renderer.terminal.dump())
    print(f"answers: {answers}")
    return 0
