"""Tool forms (seed 003's manual tools): a dialog built from a field list that returns checked values."""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from inline_render import Key, Paste, Renderer, Resize
from inline_render.errors import InvalidInput
from inline_render.inputs import FormField, FormRequest
from inline_render.outputs import FormAnswer, Submit
from inline_render.shell import InlineApp
from inline_render.shell.plain import PlainWriter
from inline_render.testing import CheckedRenderer
from inline_render.testing.pilot import run_app
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import row_text
from inline_render.widgets.forms import FormDialog, convert_value, finish_values, open_form

FIELDS = (
    FormField("remote", "select", "Remote to push to", False, "origin", ("origin", "upstream")),
    FormField("branch", "text", "Target branch", required=True),
    FormField("force", "boolean", "Force push", default=False),
    FormField("retries", "number", "How often to retry", default=3.0),
)
REQUEST = FormRequest("f1", "[git_push] Push to Remote", FIELDS, "Push commits to remote repository")


def _press(dialog: FormDialog, *keys: str) -> tuple[FormDialog | None, FormAnswer | None]:
    answer = None
    current: FormDialog | None = dialog
    for key in keys:
        assert current is not None, f"the form closed before {key!r}"
        current, answer = current.handle_key(key)
    return current, answer


def _rows(dialog: FormDialog, width: int = 60) -> list[str]:
    return [row_text(row).rstrip(" ") for row in dialog.render(width, WidthPolicy.CODEPOINT).rows]


def test_form_shows_every_field_with_defaults_and_the_focused_description() -> None:
    """Title, message, one row per field (select and boolean show their value), the description of the focus."""
    assert _rows(open_form(REQUEST)) == [
        "? [git_push] Push to Remote",
        "  Push commits to remote repository",
        "\u203a remote: < origin >  (origin/upstream)",
        "    Remote to push to",
        "  branch*:",
        "  force: [ ] false",
        "  retries: 3",
        "  tab: next, enter: next/submit, esc: cancel",
    ]


def test_filling_every_kind_returns_typed_values() -> None:
    """Right changes the select, typing fills text, space toggles the boolean, a number is a number."""
    _, answer = _press(open_form(REQUEST), "right", "tab", *"main", "tab", " ", "tab", "backspace", "5", "enter")
    assert answer == FormAnswer("f1", (("remote", "upstream"), ("branch", "main"), ("force", True), ("retries", 5)))


def test_a_number_field_refuses_text_with_a_message_in_the_form() -> None:
    """'3x' in a number field: the form stays open on that field and says why; fixing it submits."""
    dialog, answer = _press(open_form(REQUEST), "tab", *"main", "tab", "tab", "x", "enter")
    assert answer is None and dialog is not None
    assert dialog.focus == 3 and dialog.error == "retries must be a number, got '3x'"
    assert "    \u2717 retries must be a number, got '3x'" in _rows(dialog)
    dialog, answer = _press(dialog, "backspace")
    assert dialog is not None and dialog.error == ""  # editing the field clears the message
    _, answer = _press(dialog, "enter")
    assert answer is not None
    assert answer.as_dict() == {"remote": "origin", "branch": "main", "force": False, "retries": 3}


def test_a_required_field_left_empty_keeps_the_form_open() -> None:
    """Enter on the last field with an empty required text field moves there with 'branch is required'."""
    dialog, answer = _press(open_form(REQUEST), "up", "enter")
    assert answer is None and dialog is not None
    assert (dialog.focus, dialog.error) == (1, "branch is required")


def test_escape_dismisses_and_paste_fills_one_line() -> None:
    """Esc answers None; a pasted multi-line text becomes one line in a text field, nothing in a select."""
    dialog = open_form(REQUEST)
    assert dialog.paste("x") == dialog  # the select has the focus: a paste is not a value
    moved, _ = _press(dialog, "tab")
    assert moved is not None
    assert moved.paste("feature\nbranch").texts[1].text == "feature branch"
    assert _press(moved, "escape") == (None, FormAnswer("f1", None))


@pytest.mark.parametrize(
    ("field", "raw", "value"),
    [
        (FormField("n", "number"), "42", 42),
        (FormField("n", "number"), "2.5", 2.5),
        (FormField("n", "number", default=7.0), "  ", 7.0),
        (FormField("b", "boolean"), "yes", True),
        (FormField("b", "boolean"), "false", False),
        (FormField("s", "select", options=("a", "b")), "b", "b"),
        (FormField("t"), "", None),
    ],
)
def test_convert_value_accepts(field: FormField, raw: str, value: object) -> None:
    """Typed text becomes the field's value; empty text is the default."""
    assert convert_value(field, raw) == value


@pytest.mark.parametrize(
    ("field", "raw", "message"),
    [
        (FormField("n", "number"), "abc", "n must be a number, got 'abc'"),
        (FormField("n", "number"), "inf", "n must be a finite number"),
        (FormField("b", "boolean"), "maybe", "b must be true or false, got 'maybe'"),
        (FormField("s", "select", options=("a", "b")), "c", "s must be one of a, b, got 'c'"),
        (FormField("t", required=True), " ", "t is required"),
    ],
)
def test_convert_value_refuses_with_a_message(field: FormField, raw: str, message: str) -> None:
    """Bad text raises InvalidInput in the user's words."""
    with pytest.raises(InvalidInput, match=message):
        convert_value(field, raw)


def test_finish_values_fills_defaults_and_names_a_missing_required_field() -> None:
    """Values given by name, the rest from defaults, in field order; a required one missing raises."""
    assert finish_values(FIELDS, {"branch": "main"}) == {
        "remote": "origin",
        "branch": "main",
        "force": False,
        "retries": 3.0,
    }
    with pytest.raises(InvalidInput, match="branch is required"):
        finish_values(FIELDS, {})


def test_form_through_the_checked_renderer_with_cursor_resize_and_hostile_text() -> None:
    """Both emulators agree each tick; the cursor sits in the focused text field; a resize keeps it usable."""
    hostile = FormRequest("f2", "t\x1b[2J", (FormField("na\x07me", description="d\x1b]52;c;x\x07"),))
    renderer = CheckedRenderer(30, 10)
    renderer.feed([hostile])
    renderer.feed([])
    screen = renderer.terminal.screen_lines()
    assert not any("\x1b" in line or "\x07" in line for line in screen)
    renderer.feed([Paste("hello")])
    row = next(i for i, line in enumerate(renderer.terminal.screen_lines()) if "hello" in line)
    assert renderer.terminal.cursor.y == row and renderer.terminal.cursor.visible
    renderer.feed([Resize(16, 10)])
    assert renderer.feed([Key("enter")]) == [FormAnswer("f2", (("na\x07me", "hello"),))]


def test_app_form_returns_values_through_the_pilot() -> None:
    """``await app.form(...)`` opens the form; the typed values come back as a dict, Esc gives None."""
    seen: list[object] = []

    async def main(app: InlineApp) -> None:
        async for output in app.outputs():
            if isinstance(output, Submit):
                seen.append(await app.form("[git_push] Push to Remote", FIELDS))
                app.log("status", f"answer {len(seen)}")

    async def scenario() -> None:
        async with run_app(main, columns=60, rows=16) as pilot:
            await pilot.type("go")
            await pilot.press("enter")
            await pilot.wait_for("remote: < origin >")
            await pilot.press("tab", *"dev", "enter", "enter", "enter")
            await pilot.wait_for("answer 1")
            await pilot.type("again")
            await pilot.press("enter")
            await pilot.wait_for("remote: < origin >")
            await pilot.press("escape")
            await pilot.wait_for("answer 2")
            assert "remote:" not in pilot.snapshot()  # the form leaves nothing behind

    asyncio.run(scenario())
    assert seen == [{"remote": "origin", "branch": "dev", "force": False, "retries": 3}, None]


def test_select_options_with_controls_are_neutralized_in_the_hint() -> None:
    """Regression (found by RenderMachine): a select's options, C1 controls included, never reach a row raw."""
    request = FormRequest("f3", "t", (FormField("pick", "select", options=("ok", "\x85", "\x9ad\x1b]52;c;x\x07")),))
    for row in _rows(open_form(request)):
        assert not any(0x80 <= ord(ch) <= 0x9F or ord(ch) < 0x20 for ch in row), repr(row)


def test_piped_lines_fill_the_form_in_plain_output() -> None:
    """Plain output (a pipe): each typed line fills the focused field, a select by its option's name."""
    stream = io.StringIO()
    writer = PlainWriter(stream)
    writer.feed([REQUEST])
    outputs = []
    for line in ("upstream", "main", "yes", "7"):  # the number field starts with its default, 3: "37"
        outputs += writer.feed([*(Key(char) for char in line), Key("enter")])
    assert outputs == [FormAnswer("f1", (("remote", "upstream"), ("branch", "main"), ("force", True), ("retries", 37)))]
    assert stream.getvalue().splitlines() == [
        "? [git_push] Push to Remote",
        "  Push commits to remote repository",
        "  remote (origin/upstream) [origin] - Remote to push to",
        "  branch* - Target branch",
        "  force (true/false) [false] - Force push",
        "  retries (number) [3] - How often to retry",
        "  -> remote=upstream, branch=main, force=True, retries=37",
    ]


def test_jsonl_form_record_and_answer() -> None:
    """JSON Lines: a dialog record naming the fields, then the answer with the values by name."""
    stream = io.StringIO()
    writer = PlainWriter(stream, jsonl=True)
    writer.feed([FormRequest("f4", "t", (FormField("n", "number"), FormField("ok", "boolean")))])
    writer.feed([Key("4"), Key("enter"), Key("y"), Key("enter")])
    dialog, answer = (json.loads(line) for line in stream.getvalue().splitlines())
    assert dialog == {"type": "dialog", "dialog": "form", "id": "f4", "title": "t", "fields": ["n", "ok"]}
    assert answer == {"type": "form.answer", "id": "f4", "values": {"n": 4, "ok": True}}


def test_a_tab_in_a_forms_message_never_reaches_the_terminal() -> None:
    """A form's message is wrapped as every dialog's: a tab is expanded, not written raw (the machine found it)."""
    renderer = Renderer.in_memory(40, 12)
    renderer.feed([FormRequest(id="f", title="t", fields=(FormField(name="n"),), message="a\tb")])
    assert b"\t" not in bytes(renderer.backend.sink.data)  # type: ignore[union-attr]
    assert "  a    b" in renderer.terminal.screen_lines()
