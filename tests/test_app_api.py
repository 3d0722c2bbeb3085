"""The async application API: awaited dialogs, streams that always close, status fields, the submit hook."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from inline_render import ConfirmAnswer, LogClear, Submit
from inline_render.shell import AppOptions, InlineApp, OutputMode
from inline_render.widgets.dialogs import ConfirmDialog, PickDialog, PromptDialog


def _app() -> tuple[InlineApp, io.StringIO]:
    out = io.StringIO()
    return InlineApp(AppOptions(mode=OutputMode.PLAIN, line_input=False), stdout=out), out


def _run(app: InlineApp, main: Callable[[InlineApp], Awaitable[Any]]) -> Any:
    return asyncio.run(asyncio.wait_for(app.run(main), 10))


async def _until(check: Callable[[], bool]) -> None:
    for _ in range(2000):
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("condition never became true")


async def _dialog_shown(app: InlineApp, kind: type) -> None:
    await _until(lambda: app.state is not None and isinstance(app.state.dialog, kind) and not app.scheduler.pending)


def test_confirm_prompt_and_pick_are_awaited_answers() -> None:
    """``await app.confirm/prompt/pick`` return the user's answers; none of them shows up on outputs()."""
    app, _ = _app()
    answers: list[object] = []

    async def main(app: InlineApp) -> None:
        ask = asyncio.ensure_future(app.confirm("Deploy?", "to prod"))
        await _dialog_shown(app, ConfirmDialog)
        app.press("y")
        answers.append(await ask)
        ask = asyncio.ensure_future(app.prompt("Name?", default="x"))
        await _dialog_shown(app, PromptDialog)
        app.press("backspace", "b", "o", "b", "enter")
        answers.append(await ask)
        ask = asyncio.ensure_future(app.pick("File?", ["a.py", ("b", "b.py")]))
        await _dialog_shown(app, PickDialog)
        app.press("down", "enter")
        answers.append(await ask)
        answers.append(app._outputs.qsize())

    _run(app, main)
    assert answers == [True, "bob", "b", 0]


def test_confirm_answer_carries_remember_and_a_cancelled_await_closes_the_dialog() -> None:
    """``confirm_answer`` gives the whole answer; cancelling an await withdraws its dialog from the screen."""
    app, _ = _app()
    seen: list[object] = []

    async def main(app: InlineApp) -> None:
        ask = asyncio.ensure_future(app.confirm_answer("Run?", allow_remember=True))
        await _dialog_shown(app, ConfirmDialog)
        app.press("a")
        seen.append(await ask)
        ask = asyncio.ensure_future(app.confirm("Again?"))
        await _dialog_shown(app, ConfirmDialog)
        ask.cancel()
        await _until(lambda: app.state is not None and app.state.dialog is None)
        seen.append("closed")

    _run(app, main)
    # [a]lways: remembered, and the answer says for how long (seed 003).
    assert seen[0] == ConfirmAnswer(seen[0].id, True, remember=True, scope="always")  # type: ignore[attr-defined]
    assert seen[1] == "closed"


def test_stream_finishes_on_cancellation_without_an_error_line() -> None:
    """A turn cancelled mid-stream finishes its entry: the text is kept once and no error line appears."""
    app, out = _app()

    async def turn(app: InlineApp) -> None:
        async with app.stream("assistant") as s:
            s.write("partial ")
            s.write("answer")
            await asyncio.sleep(10)

    async def main(app: InlineApp) -> None:
        task = asyncio.ensure_future(turn(app))
        await _until(lambda: app.state is not None and "answer" in "".join(e.text for e in app.state.log.entries))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        app.log("status", "cancelled")
        await _until(lambda: "cancelled" in out.getvalue())

    _run(app, main)
    text = out.getvalue()
    assert text.count("partial answer") == 1
    assert "ignored" not in text and "\u2717" not in text


def test_stream_survives_a_log_clear() -> None:
    """After ``log.clear`` under an open stream, later writes open a fresh entry; closing never logs an error."""
    app, out = _app()

    async def main(app: InlineApp) -> None:
        async with app.stream() as s:
            s.write("before\n")
            app.send(LogClear())
            s.write("after")
        await _until(lambda: "after" in out.getvalue())

    _run(app, main)
    assert "after" in out.getvalue() and "ignored" not in out.getvalue()


def test_status_fields_and_working_scope() -> None:
    """Named status fields are joined in order and removed with None; ``with app.working()`` stops the spinner."""
    app, _ = _app()
    seen: list[str] = []

    async def main(app: InlineApp) -> None:
        app.status(model="m1")
        app.status(context="87% left")
        await _until(lambda: app.state is not None and app.state.status == "m1 \u00b7 87% left")
        app.status(model=None)
        await _until(lambda: app.state is not None and app.state.status == "87% left")
        with app.working("thinking"):
            await _until(lambda: app.state is not None and app.state.working == "thinking")
            seen.append("spinning")
        await _until(lambda: app.state is not None and app.state.working == "")
        seen.append("stopped")

    _run(app, main)
    assert seen == ["spinning", "stopped"]


def test_on_submit_refuses_or_rewrites_before_logging() -> None:
    """A refused line goes back to the composer unlogged; a rewritten one is logged and submitted rewritten."""
    app, out = _app()
    app.on_submit = lambda text: None if text.startswith("rm") else text.upper()
    seen: list[object] = []

    async def main(app: InlineApp) -> None:
        app.press(*"rm -rf", "enter")
        await _until(lambda: app.state is not None and app.state.composer.text == "rm -rf")
        app.press(*[("backspace")] * 6, *"hi", "enter")
        seen.append(await app.next_output())

    _run(app, main)
    assert seen == [Submit("HI")]
    assert "rm -rf" not in out.getvalue() and "HI" in out.getvalue() and "hi" not in out.getvalue()


def test_stream_rejects_an_unknown_kind_at_the_call() -> None:
    """``app.stream("assistent")`` fails at once, like ``LogAppend``."""
    from inline_render import InvalidInput

    app, _ = _app()
    with pytest.raises(InvalidInput):
        app.stream("assistent")
