"""Seed 003 approvals: [y]es / [n]o / [a]lways / [s]ession, risk and worker path, on screen and on the wire."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from protocol_support import feed, req, running

from inline_render import ConfirmRequest, Key, LogAppend, Resize
from inline_render.outputs import ConfirmAnswer, Submit
from inline_render.protocol.codelia import methods as m
from inline_render.protocol.messages import Response
from inline_render.shell import InlineApp
from inline_render.shell.plain import PlainWriter
from inline_render.testing import CheckedRenderer
from inline_render.testing.pilot import run_app
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import row_text
from inline_render.text.themes import DEFAULT_THEME
from inline_render.widgets.approval import approval_result, approval_rows, worker_names
from inline_render.widgets.dialogs import ConfirmDialog, open_dialog

PATH = ("refactor-db", "update-schema", "migrate-prod")
APPROVAL = ConfirmRequest("c1", "Approval Required", "bash(psql)", risk="high", worker_path=PATH, allow_remember=True)


def _texts(request: ConfirmRequest, width: int = 60) -> list[str]:
    # The choices row ends in the separator spaces: the screen shows the same either way.
    return [row_text(row).rstrip(" ") for row in open_dialog(request).render(width, WidthPolicy.CODEPOINT).rows]


def test_dialog_shows_risk_path_and_the_four_choices() -> None:
    """Risk and path sit under the message; the choices read [y]es / [n]o / [a]lways / [s]ession."""
    assert _texts(APPROVAL) == [
        "! Approval Required",
        "  bash(psql)",
        "  Risk: high",
        "  Path: refactor-db -> update-schema -> migrate-prod",
        "  [y] Yes  [n] No  [a] Always  [s] Session",
    ]


def test_a_plain_confirm_has_no_approval_rows_and_no_remember_choices() -> None:
    """Without risk, path or allow_remember the dialog is the old yes/no, and a/s do nothing."""
    request = ConfirmRequest("c2", "Run?", "ls")
    assert _texts(request) == ["? Run?", "  ls", "  [y] Yes  [n] No"]
    dialog = open_dialog(request)
    assert dialog.handle_key("a") == (dialog, None)
    assert dialog.handle_key("s") == (dialog, None)


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("y", ConfirmAnswer("c1", True)),
        ("n", ConfirmAnswer("c1", False)),
        ("a", ConfirmAnswer("c1", True, remember=True, scope="always")),
        ("s", ConfirmAnswer("c1", True, remember=True, scope="session")),
        ("escape", ConfirmAnswer("c1", False)),
        ("enter", ConfirmAnswer("c1", False)),  # high risk: Enter takes the cancel choice
    ],
)
def test_each_key_answers_with_its_scope(key: str, answer: ConfirmAnswer) -> None:
    """Every choice's key gives its answer; the remembering ones say which scope."""
    assert open_dialog(APPROVAL).handle_key(key) == (None, answer)


def test_arrows_reach_always_and_session_and_enter_takes_them() -> None:
    """Tab/right walk y, n, a, s; Enter answers the highlighted one."""
    dialog = open_dialog(ConfirmRequest("c3", "t", allow_remember=True))
    assert isinstance(dialog, ConfirmDialog) and dialog.choice == 0  # not dangerous: Yes first
    for _ in range(3):
        moved, _ = dialog.handle_key("right")
        assert isinstance(moved, ConfirmDialog)
        dialog = moved
    assert dialog.handle_key("enter") == (None, ConfirmAnswer("c3", True, remember=True, scope="session"))


@pytest.mark.parametrize(("risk", "element"), [("low", "risk_low"), ("Medium", "risk_medium"), ("high", "risk_high")])
def test_risk_is_styled_by_the_theme(risk: str, element: str) -> None:
    """The risk word carries the theme's style for its level (case-insensitive)."""
    (row,) = approval_rows(ConfirmRequest("c", "t", risk=risk), 40, WidthPolicy.CODEPOINT)
    assert row_text(row) == f"  Risk: {risk}"
    assert row[-1].style == DEFAULT_THEME.style(element) != DEFAULT_THEME.style("nothing")


def test_unknown_risk_is_shown_unstyled_and_hostile_path_is_neutralized() -> None:
    """A runtime's own risk word is shown as sent; escape sequences in path names never reach the screen raw."""
    request = ConfirmRequest("c", "t", risk="extreme", worker_path=("a\x1b[2Jb", "", "c\x07"))
    rows = [row_text(row) for row in approval_rows(request, 40, WidthPolicy.CODEPOINT)]
    assert rows[0] == "  Risk: extreme"
    assert "\x1b" not in rows[1] and "\x07" not in rows[1]
    assert rows[1].startswith("  Path: a\u241b[2Jb -> c")


def test_a_deep_path_wraps_under_its_label_in_a_narrow_terminal() -> None:
    """No worker name is cut off: the path wraps with a hanging indent, every row within the width."""
    rows = [row_text(row) for row in approval_rows(APPROVAL, 24, WidthPolicy.CODEPOINT)]
    assert rows[1:] == ["  Path: refactor-db ->", "        update-schema ->", "        migrate-prod"]
    assert all(len(row) <= 24 for row in rows)


def test_approval_in_a_checked_renderer_answers_once_and_leaves_no_trace() -> None:
    """Through the whole tick (both emulators checked): open, resize narrow, answer [s]; nothing duplicated."""
    renderer = CheckedRenderer(40, 10)
    renderer.feed([LogAppend("assistant", "working on it")])
    renderer.feed([APPROVAL])
    renderer.feed([])
    renderer.feed([Resize(26, 10)])
    assert any("Path: refactor-db" in line for line in renderer.terminal.screen_lines())
    outputs = renderer.feed([Key("s")])
    assert outputs == [ConfirmAnswer("c1", True, remember=True, scope="session")]
    assert not any("Approval" in line for line in renderer.terminal.all_lines())
    assert renderer.terminal.all_lines().count("\u25b8 working on it") == 1


def test_wire_carries_risk_path_and_the_remember_scope() -> None:
    """ui.confirm.request's risk/worker_path (names or WorkerInfo objects) reach the dialog; the result has scope."""
    session = running()
    step = feed(
        session,
        req(
            "ui_1",
            "ui.confirm.request",
            title="Approval Required",
            message="bash(psql)",
            allow_remember=True,
            risk="high",
            worker_path=[{"id": "refactor-db", "depth": 0, "task": "t"}, "update-schema", {"task": "migrate-prod"}],
        ),
    )
    (request,) = step.inputs
    assert isinstance(request, ConfirmRequest)
    assert (request.risk, request.worker_path, request.allow_remember) == ("high", PATH, True)
    sent = session.handle_output(ConfirmAnswer("ui_1", True, remember=True, scope="always")).send
    assert sent == (Response("ui_1", {"ok": True, "remember": True, "reason": None, "scope": "always"}),)


def test_wire_without_remember_has_no_scope_and_a_bad_path_costs_nothing() -> None:
    """A plain yes keeps codelia's exact three members; a malformed worker_path or risk is dropped, not an error."""
    session = running()
    step = feed(session, req("ui_2", "ui.confirm.request", title="t", message="m", worker_path="x", risk=3))
    (request,) = step.inputs
    assert isinstance(request, ConfirmRequest) and (request.worker_path, request.risk) == ((), "")
    sent = session.handle_output(ConfirmAnswer("ui_2", True)).send
    assert sent == (Response("ui_2", {"ok": True, "remember": False, "reason": None}),)
    assert m.ConfirmResult.from_json({"ok": True, "remember": True, "reason": None, "scope": "session"}).scope == (
        "session"
    )
    assert worker_names([1, None, {"id": 3}, "x"]) == ("x",)


def test_approval_result_is_seed_003s_shape() -> None:
    """ApprovalResult: approved true / false (with reason) / "always" / "session"."""
    assert approval_result(ConfirmAnswer("c", True)) == {"approved": True}
    assert approval_result(ConfirmAnswer("c", False, reason="no")) == {"approved": False, "reason": "no"}
    assert approval_result(ConfirmAnswer("c", True, True, None, "always")) == {"approved": "always"}
    assert approval_result(ConfirmAnswer("c", True, True, None, "session")) == {"approved": "session"}


def test_app_approve_returns_which_answer_through_the_pilot() -> None:
    """``await app.approve(...)`` shows risk and path and returns "session" / "always" / "no" / "yes"."""

    async def main(app: InlineApp) -> None:
        async for output in app.outputs():
            if isinstance(output, Submit):
                answer = await app.approve(f"bash({output.text})", risk="medium", worker_path=PATH[:2])
                app.log("status", f"answer={answer}")

    async def scenario() -> list[str]:
        async with run_app(main, columns=60, rows=14) as pilot:
            seen = []
            for key in ("s", "a", "n", "y"):
                await pilot.type("ls")
                await pilot.press("enter")
                await pilot.wait_for("Path: refactor-db -> update-schema")
                assert any(line == "  Risk: medium" for line in pilot.screen())
                await pilot.press(key)
                seen.append(key)
            await pilot.wait_for("answer=yes")
            return pilot.snapshot().splitlines()

    lines = asyncio.run(scenario())
    assert [line.strip() for line in lines if "answer=" in line] == [
        "answer=session",
        "answer=always",
        "answer=no",
        "answer=yes",
    ]


def test_plain_transcript_prints_risk_path_choices_and_the_scope() -> None:
    """Not a TTY: the approval reads as seed 003's CLI (Risk, Path, the four choices); the answer names its scope."""
    stream = io.StringIO()
    writer = PlainWriter(stream)
    writer.feed([APPROVAL])
    assert writer.feed([Key("s")]) == [ConfirmAnswer("c1", True, remember=True, scope="session")]
    assert stream.getvalue().splitlines() == [
        "? Approval Required",
        "  bash(psql)",
        "  Risk: high",
        "  Path: refactor-db -> update-schema -> migrate-prod",
        "  [y]es / [n]o / [a]lways / [s]ession",
        "  -> session",
    ]


def test_jsonl_dialog_record_carries_risk_path_and_choices() -> None:
    """JSON Lines: the dialog record has risk, worker_path and the choices; the answer has scope."""
    stream = io.StringIO()
    writer = PlainWriter(stream, jsonl=True)
    writer.feed([APPROVAL])
    writer.feed([Key("a")])
    dialog, answer = (json.loads(line) for line in stream.getvalue().splitlines())
    assert dialog["risk"] == "high" and dialog["worker_path"] == list(PATH)
    assert dialog["choices"] == ["yes", "no", "always", "session"]
    assert answer == {"type": "confirm.answer", "id": "c1", "ok": True, "remember": True, "scope": "always"}
