"""``app.approve(..., preview=...)``: what is approved is drawn above the dialog as a permission preview."""

from __future__ import annotations

import asyncio

from inline_render import Input, PermissionPreview
from inline_render.shell import InlineApp, Main
from inline_render.shell.api import diff_preview
from inline_render.testing.pilot import run_app

BEFORE = 'def greet(name):\n    print("hi " + name)\n'
AFTER = 'def greet(name):\n    print(f"Hello, {name}!")\n'


def _previews(app: InlineApp) -> list[PermissionPreview]:
    """Every permission preview the app sends from now on (the core draws them: tests/test_protocol_*)."""
    sent: list[PermissionPreview] = []
    send = app.send

    def spy(*inputs: Input) -> None:
        sent.extend(item for item in inputs if isinstance(item, PermissionPreview))
        send(*inputs)

    app.send = spy  # type: ignore[method-assign]
    return sent


def _approving(preview: PermissionPreview | str, answers: list[str]) -> Main:
    async def main(app: InlineApp) -> None:
        answers.append(await app.approve("write_file hello.py", risk="medium", preview=preview))

    return main


def _run(preview: PermissionPreview | str, key: str) -> tuple[str, list[PermissionPreview], list[str]]:
    """Approve with ``preview``, answer with ``key``: the screen while the dialog was open, previews, answers."""
    answers: list[str] = []
    sent: list[list[PermissionPreview]] = []

    async def scenario() -> str:
        setup = lambda app: sent.append(_previews(app))  # noqa: E731
        async with run_app(_approving(preview, answers), columns=70, rows=20, setup=setup) as pilot:
            await pilot.wait_for("Approval Required")
            screen = "\n".join(pilot.screen())
            await pilot.press(key)
            await pilot.wait_for(lambda p: bool(answers))
            return screen

    return asyncio.run(scenario()), sent[0], answers


def test_a_diff_preview_is_drawn_above_the_dialog_and_highlighted_by_its_file() -> None:
    """A file write's diff shows under the preview header, above the dialog, naming its file for the lexer."""
    screen, sent, answers = _run(diff_preview("hello.py", BEFORE, AFTER), "n")
    removed, added = screen.index('-    print("hi " + name)'), screen.index('+    print(f"Hello, {name}!")')
    assert screen.index("Planned write diff preview") < removed < added < screen.index("Approval Required")
    assert [(p.diff and p.diff.splitlines()[:3], p.file_path) for p in sent] == [
        (["--- hello.py", "+++ hello.py", "@@ -1,2 +1,2 @@"], "hello.py")
    ]
    assert answers == ["no"]


def test_a_string_preview_is_a_summary_line_or_a_diff() -> None:
    """A string without a hunk is the preview's summary line; one with an @@ hunk is its diff."""
    screen, sent, answers = _run("3 files, 12 lines", "y")
    assert sent == [PermissionPreview("write_file", summary="3 files, 12 lines")]
    assert screen.index("Planned write_file diff preview") < screen.index("3 files, 12 lines")
    assert answers == ["yes"]
    screen, sent, _ = _run("@@ -1 +1 @@\n-old\n+new", "y")
    assert sent == [PermissionPreview("write_file", diff="@@ -1 +1 @@\n-old\n+new")]
    assert screen.index("Planned write_file diff preview") < screen.index("-old") < screen.index("+new")


def test_diff_preview_of_an_unchanged_file_says_so() -> None:
    """Writing the same text again is a summary ('no change'), not an empty diff."""
    preview = diff_preview("notes.txt", "a\n", "a\n")
    assert preview.diff is None and preview.summary == "notes.txt: no change"
