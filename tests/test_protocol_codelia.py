"""Seed 004 in the session: error codes, context, quiet event types, history replay and the slash commands."""

from __future__ import annotations

from typing import Any

import pytest
from protocol_support import connected, event, feed, note, req, result, run_start, running, status

from inline_render.inputs import (
    EditorSet,
    LogAppend,
    LogDelta,
    LogFinish,
    PermissionReady,
    PickOption,
    PickRequest,
    Working,
)
from inline_render.outputs import ConfirmAnswer, PickAnswer, Submit
from inline_render.protocol.codelia.catalog import UiContext
from inline_render.protocol.codelia.session import Session
from inline_render.protocol.messages import Notification, Request, Response


def error(rid: str, code: int, message: str = "x") -> dict[str, Any]:
    """An error response object."""
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


def lines(inputs: tuple[object, ...], kind: str = "status") -> list[str]:
    return [i.text for i in inputs if isinstance(i, LogAppend) and i.kind == kind]


# --- error codes --------------------------------------------------------------------------------


def test_busy_keeps_the_prompt_in_the_composer() -> None:
    """-32001 on run.start: a status line says so and the prompt goes back into the composer."""
    session = connected()
    session.handle_output(Submit("Fix the greeting"))
    step = feed(session, error("2", -32001, "runtime busy"))
    assert lines(step.inputs) == ["The runtime is busy with another run; your prompt is back in the composer."]
    assert EditorSet("Fix the greeting") in step.inputs and Working("") in step.inputs
    assert not session.busy and not lines(step.inputs, "error")


def test_run_not_found_on_cancel_ends_the_run() -> None:
    """-32002 on run.cancel: the run is over; no lasting 'Cancelling', not busy, its later events ignored."""
    session = running()
    assert Working("Cancelling") in session.cancel_run().inputs
    step = feed(session, error("3", -32002, "run not found"))
    assert Working("") in step.inputs and session.run_status("r1") == "cancelled" and not session.busy
    assert not lines(step.inputs, "error")
    assert feed(session, event("r1", 0, type="text", content="late")).inputs == ()


def test_cancel_answered_not_ok_for_a_finished_run_ends_it() -> None:
    """run.cancel -> {ok: false, status: completed}: the run is over (seed 004's answer for a finished run)."""
    session = running()
    session.cancel_run()
    step = feed(session, result("3", {"ok": False, "status": "completed"}))
    assert session.run_status("r1") == "completed" and Working("") in step.inputs


def test_user_cancelled_is_a_quiet_line() -> None:
    """-32003 on run.start is a status line, not an error."""
    session = connected()
    session.start_run("hi")
    step = feed(session, error("2", -32003, "user cancelled"))
    assert lines(step.inputs) == ["Run cancelled."] and not lines(step.inputs, "error")


# --- context --------------------------------------------------------------------------------------


def test_context_goes_out_after_initialize_and_into_run_start() -> None:
    """ui.context.update is a notification sent once initialize is answered, and only when it changed."""
    session = Session()
    session.initialize()
    context = UiContext(cwd="/w/src", workspace_root="/w")
    assert session.set_context(context).send == ()  # not before initialize is answered
    step = feed(session, result("1", {"protocol_version": "0"}))
    assert step.send == (Notification("ui.context.update", {"cwd": "/w/src", "workspace_root": "/w"}),)
    assert session.set_context(context).send == ()
    assert session.start_run("go").send == (run_start("2", "go", ui_context={"cwd": "/w/src", "workspace_root": "/w"}),)


# --- event types ----------------------------------------------------------------------------------


def test_steps_change_the_spinner_only() -> None:
    """step_start shows its title in the spinner, step_complete goes back to 'Working'; nothing is logged."""
    step = feed(
        running(),
        event("r1", 0, type="step_start", step_id="c", title="edit", step_number=1),
        event("r1", 1, type="step_complete", step_id="c", status="completed", duration_ms=3),
    )
    assert step.inputs == (Working("edit"), Working("Working"))


def test_retries_and_compaction_leave_at_most_one_dim_line_each() -> None:
    """Two llm.retry: one status line; compaction: the spinner, then one line if anything was compacted."""
    step = feed(
        running(),
        event("r1", 0, type="llm.retry", attempt=1, max_attempts=3, reason="429"),
        event("r1", 1, type="llm.retry", attempt=2, max_attempts=3, reason="429"),
        event("r1", 2, type="compaction_start", timestamp=1),
        event("r1", 3, type="compaction_complete", timestamp=2, compacted=True),
        event("r1", 4, type="compaction_start", timestamp=3),
        event("r1", 5, type="compaction_complete", timestamp=4, compacted=False),
    )
    assert lines(step.inputs) == [
        "The model call failed and is being retried: 429.",
        "The conversation was compacted to free context.",
    ]
    assert Working("Retrying the model call (attempt 2)") in step.inputs
    assert Working("Compacting the conversation") in step.inputs


def test_hidden_user_messages_and_diagnostics_are_not_shown() -> None:
    """hidden_user_message during a run and run.diagnostics leave nothing in the log."""
    step = feed(
        running(),
        event("r1", 0, type="hidden_user_message", content="<system-reminder>"),
        note("run.diagnostics", run_id="r1", kind="llm_request"),
    )
    assert step.inputs == () and step.send == ()


def test_permission_ready_once_per_tool_call_and_json_results_by_summary() -> None:
    """A repeated permission.ready of one call shows once; a JSON string result reads as its summary."""
    step = feed(
        running(),
        event("r1", 0, type="permission.ready", tool="edit", tool_call_id="c1"),
        event("r1", 1, type="permission.ready", tool="edit", tool_call_id="c1"),
        event("r1", 2, type="tool_result", tool="edit", tool_call_id="c1", result='{"summary":"Replaced 1","n":1}'),
        event("r1", 3, type="tool_result", tool="read", tool_call_id="c2", result='{"not":"a summary"}'),
    )
    assert [i for i in step.inputs if isinstance(i, PermissionReady)] == [PermissionReady("edit", "c1")]
    assert lines(step.inputs, "tool") == ["edit: Replaced 1", 'read: {"not":"a summary"}']


# --- /resume and the history replay ---------------------------------------------------------------

SESSIONS = {
    "sessions": [{"session_id": "s1", "updated_at": "2026-11-20", "message_count": 4, "last_user_message": "hi"}]
}


def resumed() -> tuple[Session, Any]:
    """/resume -> session.list -> pick s1 -> session.history with its replayed events -> answered."""
    session = connected()
    step = session.command("/resume")
    assert step is not None and step.send == (Request("2", "session.list", {"limit": 50}),)
    picked = feed(session, result("2", SESSIONS))
    (pick,) = picked.inputs
    assert isinstance(pick, PickRequest) and pick.options == (
        PickOption("s1", "hi", "2026-11-20 \u00b7 4 messages \u00b7 s1"),
    )
    history = session.handle_output(PickAnswer(pick.id, ("s1",)))
    assert history.send == (Request("3", "session.history", {"session_id": "s1"}),)
    replay = feed(
        session,
        event("old", -1, type="hidden_user_message", content="What does it do?"),
        event("old", 0, type="text", content="Let me look."),
        event("old", 1, type="tool_call", tool="read", tool_call_id="c"),
        event("old", 2, type="final", content="It greets."),
        result("3", {"runs": 1, "events_sent": 4}),
    )
    return session, replay


def test_resume_replays_the_history_once_and_later_runs_continue_the_session() -> None:
    """The replayed events render as a past run (its prompt as the user's line); run.start carries session_id."""
    session, replay = resumed()
    assert [i for i in replay.inputs if isinstance(i, LogAppend)] == [
        LogAppend("user", "What does it do?"),
        LogAppend("assistant", "Let me look.", "old#1", final=False),
        LogAppend("tool", "read"),
        LogAppend("assistant", "It greets.", "old#2"),
        LogAppend("status", "Resumed session s1: 1 run."),
    ]
    assert LogFinish("old#1") in replay.inputs
    assert session.session_id == "s1" and not session.busy
    assert session.start_run("more").send == (run_start("4", "more", session_id="s1"),)
    feed(session, result("4", {"run_id": "new"}), status("new", "completed"))
    session.command("/resume")
    again = feed(session, result("5", SESSIONS))
    (pick,) = again.inputs
    assert isinstance(pick, PickRequest)
    session.handle_output(PickAnswer(pick.id, ("s1",)))
    twice = feed(session, event("old", 0, type="text", content="Let me look."), result("6", {"runs": 1}))
    assert lines(twice.inputs, "assistant") == []  # already in the scrollback: not shown twice


def test_dismissed_pick_does_nothing_and_busy_refuses() -> None:
    """Esc on the sessions pick sends nothing; /resume during a run says it waits for the run."""
    session = connected()
    session.command("/resume")
    (pick,) = feed(session, result("2", SESSIONS)).inputs
    assert isinstance(pick, PickRequest)
    assert session.handle_output(PickAnswer(pick.id, ())).send == ()
    busy = running()
    step = busy.command("/resume")
    assert step is not None and step.send == ()
    assert lines(step.inputs) == ["/resume waits for the run in progress: finish or cancel it first."]


# --- /model, /skills, /mcp ------------------------------------------------------------------------


def test_model_list_pick_and_set() -> None:
    """/model: model.list (with details) -> a pick marking the current one -> model.set -> a status line."""
    session = connected()
    step = session.command("/model")
    assert step is not None and step.send == (Request("2", "model.list", {"include_details": True}),)
    answer = {"provider": "openai", "models": ["a", "b"], "current": "a", "details": {"b": {"context_window": 1000}}}
    (pick,) = feed(session, result("2", answer)).inputs
    assert isinstance(pick, PickRequest)
    assert pick.options == (PickOption("a", "a (current)"), PickOption("b", "b", "1,000 tokens of context"))
    chosen = session.handle_output(PickAnswer(pick.id, ("b",)))
    assert chosen.send == (Request("3", "model.set", {"name": "b", "provider": "openai"}),)
    done = feed(session, result("3", {"provider": "openai", "name": "b"}))
    assert lines(done.inputs) == ["Model set to openai/b."]
    direct = session.command("/model o4-mini")
    assert direct is not None and direct.send == (Request("4", "model.set", {"name": "o4-mini"}),)


def test_skills_pick_puts_a_mention_in_the_composer() -> None:
    """/skills: skills.list (with the cwd) -> a pick with descriptions -> '$name ' in the composer."""
    session = connected(caps={"supports_skills_list": True})
    session.set_context(UiContext(cwd="/w"))
    step = session.command("/skills")
    assert step is not None and step.send == (Request("2", "skills.list", {"cwd": "/w"}),)
    skills = {"skills": [{"id": "r:notes", "name": "notes", "description": "Write notes", "scope": "repo"}]}
    (pick,) = feed(session, result("2", {**skills, "errors": [], "truncated": False})).inputs
    assert isinstance(pick, PickRequest) and pick.options == (
        PickOption("r:notes", "notes", "Write notes \u00b7 repo"),
    )
    assert session.handle_output(PickAnswer(pick.id, ("r:notes",))).inputs == (EditorSet("$notes "),)


def test_mcp_list_is_a_table() -> None:
    """/mcp: mcp.list (scope loaded) -> one aligned table entry, the last error under its server."""
    session = connected(caps={"supports_mcp_list": True})
    step = session.command("/mcp")
    assert step is not None and step.send == (Request("2", "mcp.list", {"scope": "loaded"}),)
    servers = [
        {"id": "gh", "transport": "http", "enabled": True, "state": "ready", "tools": 3},
        {"id": "jira\x1b[2J", "transport": "stdio", "enabled": True, "state": "error", "last_error": "401\nbad"},
    ]
    (table,) = feed(session, result("2", {"servers": servers})).inputs
    assert table == LogAppend(
        "text",
        "MCP servers\n"
        "server    transport  state  tools  source\n"
        "gh        http       ready  3      -\n"
        "jira [2J  stdio      error  -      -\n"
        "  last error: 401 bad",
    )


@pytest.mark.parametrize(
    ("command", "text"), [("/mcp", "MCP status unavailable"), ("/skills", "Skills list unavailable")]
)
def test_lists_the_runtime_cannot_give_are_unavailable(command: str, text: str) -> None:
    """Without supports_mcp_list / supports_skills_list the command says so and sends nothing."""
    step = connected().command(command)
    assert step is not None and step.send == () and lines(step.inputs) == [text]


def test_other_text_is_not_a_runtime_command() -> None:
    """/help and plain text are left to the application (None)."""
    assert connected().command("/help") is None and connected().command("hello") is None


def test_numeric_ids_from_a_lenient_runtime() -> None:
    """A runtime answering with numbers and asking with numeric ids still works; the id is echoed as it came."""
    session = connected()
    session.start_run("go")
    feed(session, result(2, {"run_id": "r"}), status("r", "running"))
    assert session.current_run == "r"
    step = feed(session, req(7, "ui.confirm.request", title="t", message="m"))
    assert len(step.inputs) == 1
    answer = session.handle_output(ConfirmAnswer("7", True))
    assert answer.send == (Response(7, {"ok": True, "remember": False, "reason": None}),)


def test_final_repeating_the_last_part_or_extending_the_answer_is_not_printed_twice() -> None:
    """final = the last text part: just finishes; final = the parts plus more: only the rest is added."""
    last = feed(running(), event("r1", 0, type="text", content="A."), event("r1", 1, type="text", content="B."))
    repeat = feed(running(), event("r1", 0, type="text", content="A."), event("r1", 1, type="final", content="A."))
    assert repeat.inputs[1:] == (LogFinish("r1#1"),)
    session = running()
    feed(session, event("r1", 0, type="text", content="A."), event("r1", 1, type="text", content="B."))
    tail = feed(session, event("r1", 2, type="final", content="B."))
    assert tail.inputs == (LogFinish("r1#1"),)
    more = running()
    feed(more, event("r1", 0, type="text", content="A."))
    rest = feed(more, event("r1", 1, type="final", content="A. And more."))
    assert rest.inputs == (LogDelta("r1#1", " And more."), LogFinish("r1#1"))
    assert last.inputs[-1] == LogDelta("r1#1", "\n\nB.")


def test_a_pick_item_s_detail_is_shown_under_its_label() -> None:
    """ui.pick.request's detail renders on its own row right under the item's label (codelia's onboarding pick)."""
    from inline_render import Renderer

    session = running()
    items = [
        {"id": "openai", "label": "openai", "detail": "OAuth (ChatGPT Plus/Pro) or API key"},
        {"id": "x", "label": "x"},
    ]
    step = feed(session, req("ui_1", "ui.pick.request", title="Provider?", items=items))
    renderer = Renderer.in_memory(60, 12)
    renderer.feed(step.inputs)
    renderer.feed([])
    screen = renderer.terminal.screen_lines()
    row = next(n for n, line in enumerate(screen) if line.endswith("openai"))
    assert screen[row + 1] == "    OAuth (ChatGPT Plus/Pro) or API key" and screen[row + 2].endswith(" x")
