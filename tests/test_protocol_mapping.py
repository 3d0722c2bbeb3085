"""The sans-I/O session: every runtime message and core output, mapped to inputs and replies."""

from __future__ import annotations

import dataclasses
import json

import pytest
from protocol_support import connected, event, feed, note, req, result, run_start, running, status, wire

from inline_render.inputs import (
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    LogAppend,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    PermissionPreview,
    PermissionReady,
    PickOption,
    PickRequest,
    PromptRequest,
    Status,
    Working,
)
from inline_render.outputs import ConfirmAnswer, Interrupt, PickAnswer, PromptAnswer, Quit, Submit
from inline_render.protocol.codec import decode_line
from inline_render.protocol.codelia.session import Session, SessionConfig
from inline_render.protocol.messages import ErrorResponse, Request, Response
from inline_render.protocol.transcript import Limits


def status_lines(inputs: tuple[object, ...]) -> list[str]:
    return [i.text for i in inputs if isinstance(i, LogAppend) and i.kind == "status"]


# --- initialize and negotiation -----------------------------------------------------------------


def test_initialize_announces_version_and_ui_capabilities() -> None:
    """``initialize`` is request "1" with protocol_version "0" (seed 004), the client and every UI capability."""
    step = Session().initialize()
    assert step.inputs == ()
    (request,) = step.send
    assert isinstance(request, Request) and request.id == "1" and request.method == "initialize"
    assert request.params["protocol_version"] == "0"
    assert request.params["client"]["name"] == "inline_render"
    assert request.params["ui_capabilities"] == {
        "supports_permission_preflight_events": True,
        "supports_confirm": True,
        "supports_prompt": True,
        "supports_pick": True,
        "supports_markdown": True,
    }  # assistant text renders Markdown; supports_images: false (missing)
    plain = Session(SessionConfig(supports_markdown=False)).initialize().send[0]
    assert isinstance(plain, Request) and "supports_markdown" not in plain.params["ui_capabilities"]


def test_structured_preflight_needs_both_sides() -> None:
    """Structured preflight is used only when the UI and the runtime both announce it."""
    assert connected(structured=True).structured_preflight
    assert not connected(structured=False).structured_preflight
    assert not connected(structured=True, supports_permission_preflight_events=False).structured_preflight
    assert not Session().structured_preflight  # before the runtime answered


def test_protocol_version_mismatch_is_tolerated_quietly(caplog: pytest.LogCaptureFixture) -> None:
    """Another protocol_version (even a number) leaves no line in the log, only a debug record; the session works."""
    session = Session()
    session.initialize()
    with caplog.at_level("DEBUG", logger="inline_render.protocol.codelia.session"):
        step = feed(session, result(1, {"protocol_version": 2}))  # a lenient runtime: numeric id and version
    assert step.inputs == ()
    assert session.server is not None and "protocol version 2" in caplog.text
    assert session.start_run("go").send == (run_start("2", "go"),)


def test_invalid_initialize_answer_means_no_capabilities() -> None:
    """An initialize answer with bad fields is reported; the runtime is assumed to support nothing."""
    session = Session()
    session.initialize()
    step = feed(session, result(1, {"server_capabilities": 3}))
    assert len(status_lines(step.inputs)) == 1
    assert session.server is not None and not session.structured_preflight


# --- starting runs ------------------------------------------------------------------------------


def test_start_run_logs_the_prompt_and_sends_run_start() -> None:
    """``start_run`` logs the prompt as 'user', starts the spinner and sends ``run.start``."""
    session = connected()
    step = session.start_run("Fix it")
    assert step.inputs == (LogAppend("user", "Fix it"), Working("Working"))
    assert step.send == (run_start("2", "Fix it"),)
    assert session.busy


def test_submit_from_the_core_is_not_logged_twice() -> None:
    """A core ``Submit`` starts a run without a 'user' entry: the core logged the composer text."""
    step = connected().handle_output(Submit("Fix it"))
    assert not any(isinstance(i, LogAppend) for i in step.inputs)
    assert step.send == (run_start("2", "Fix it"),)


def test_blank_submit_and_quit_do_nothing() -> None:
    """A blank Submit and Quit send nothing."""
    session = connected()
    assert session.handle_output(Submit("  ")).send == ()
    assert session.handle_output(Quit()).send == ()


def test_second_run_is_refused_while_one_is_in_progress() -> None:
    """While a run is in progress, a new prompt gets a status line and no ``run.start``."""
    session = running()
    step = session.start_run("again")
    assert step.send == ()
    assert status_lines(step.inputs) == ["A run is in progress; press Esc to cancel it first."]


def test_run_start_error_is_shown_and_frees_the_session() -> None:
    """An error answer to ``run.start`` is an error line; the spinner stops; not busy any more."""
    session = connected()
    session.start_run("hi")
    step = feed(session, {"jsonrpc": "2.0", "id": 2, "error": {"code": -32000, "message": "no model"}})
    assert step.inputs == (Working(""), LogAppend("error", "Could not start the run: no model"))
    assert not session.busy


def test_run_start_answer_without_run_id_is_an_error_line() -> None:
    """A ``run.start`` result without ``run_id`` ends the start with an error line naming the field."""
    session = connected()
    session.start_run("hi")
    step = feed(session, result(2, {}))
    errors = [i.text for i in step.inputs if isinstance(i, LogAppend) and i.kind == "error"]
    assert len(errors) == 1 and "run_id" in errors[0]
    assert not session.busy


# --- streaming text and final -------------------------------------------------------------------


def test_text_parts_are_paragraphs_of_one_entry_and_final_finishes_it() -> None:
    """text parts -> one entry, each part a paragraph (not glued); a final with the same text only finishes it."""
    session = running()
    step = feed(
        session,
        event("r1", 0, type="text", content="First paragraph."),
        event("r1", 1, type="text", content="Second paragraph."),
        event("r1", 2, type="final", content="First paragraph.\n\nSecond paragraph."),
    )
    assert step.inputs == (
        LogAppend("assistant", "First paragraph.", "r1#1", final=False),
        LogDelta("r1#1", "\n\nSecond paragraph."),
        LogFinish("r1#1"),
    )


def test_a_ui_line_during_streaming_leaves_the_answer_open_so_final_is_not_repeated() -> None:
    """A refused prompt's status line mid-stream does not split the answer; the final adds no duplicate entry."""
    session = running()
    step = feed(session, event("r1", 1, type="text", content="Done:"))
    refused = session.start_run("another prompt")
    rest = feed(
        session, event("r1", 2, type="text", content="ok."), event("r1", 3, type="final", content="Done:\n\nok.")
    )
    assert step.inputs == (LogAppend("assistant", "Done:", "r1#1", final=False),)
    assert refused.inputs == (LogAppend("status", "A run is in progress; press Esc to cancel it first."),)
    assert rest.inputs == (LogDelta("r1#1", "\n\nok."), LogFinish("r1#1"))


def test_final_without_text_is_the_entry() -> None:
    """If no text streamed, the final's content becomes a finished assistant entry."""
    step = feed(running(), event("r1", 1, type="final", content="All done."))
    assert step.inputs == (LogAppend("assistant", "All done.", "r1#1"),)


def test_final_that_differs_replaces_then_finishes() -> None:
    """A final that differs from what streamed gives LogReplace, then LogFinish."""
    step = feed(running(), event("r1", 1, type="text", content="Helo"), event("r1", 2, type="final", content="Hello"))
    assert step.inputs[1:] == (LogReplace("r1#1", "Hello"), LogFinish("r1#1"))


def test_empty_final_just_finishes() -> None:
    """A final without content finishes the streamed entry unchanged."""
    step = feed(running(), event("r1", 1, type="text", content="x"), event("r1", 2, type="final"))
    assert step.inputs[1:] == (LogFinish("r1#1"),)


def test_other_entries_finish_the_stream_and_text_after_them_starts_a_new_one() -> None:
    """A tool call finishes the streaming entry; later text is a new entry below it."""
    step = feed(
        running(),
        event("r1", 1, type="text", content="Let me look."),
        event("r1", 2, type="tool_call", tool="read", args={"path": "a.py"}),
        event("r1", 3, type="text", content="Found it."),
    )
    assert step.inputs == (
        LogAppend("assistant", "Let me look.", "r1#1", final=False),
        LogFinish("r1#1"),
        LogAppend("tool", "read path=a.py"),
        LogAppend("assistant", "Found it.", "r1#2", final=False),
    )


def test_final_repeating_an_already_finished_entry_adds_nothing() -> None:
    """A final equal to the text a tool call already finished does not duplicate it."""
    step = feed(
        running(),
        event("r1", 1, type="text", content="Answer"),
        event("r1", 2, type="error", message="oops"),
        event("r1", 3, type="final", content="Answer"),
    )
    assert step.inputs[-1] == LogAppend("error", "oops")


# --- other events -------------------------------------------------------------------------------


def test_reasoning_error_and_blank_reasoning() -> None:
    """reasoning -> a 'reasoning' entry (blank ones skipped); error -> an 'error' entry."""
    step = feed(
        running(),
        event("r1", 1, type="reasoning", content="Think."),
        event("r1", 2, type="reasoning", content="  "),
        event("r1", 3, type="error", message="Bad"),
    )
    assert step.inputs == (LogAppend("reasoning", "Think."), LogAppend("error", "Bad"))


def test_tool_call_shows_compact_args_clipped() -> None:
    """tool_call -> 'tool' entry: name plus compact args, multi-line values escaped, clipped to the limit."""
    session = running(limits=Limits(max_args_chars=30))
    step = feed(
        session,
        event("r1", 1, type="tool_call", tool="bash", args={"cmd": "ls\n-la", "n": 2}),
        event("r1", 2, type="tool_call", tool="write", args={"text": "x" * 100}),
        event("r1", 3, type="tool_call", tool="noargs"),
    )
    texts = [i.text for i in step.inputs if isinstance(i, LogAppend)]
    assert texts[0] == 'bash cmd="ls\\n-la", n=2'
    assert len(texts[1]) == 30 and texts[1].endswith("\u2026")
    assert texts[2] == "noargs"


def test_tool_result_is_truncated_by_lines_and_characters() -> None:
    """tool_result keeps at most max_result_lines lines and max_result_chars characters, marked."""
    session = running(limits=Limits(max_result_lines=3, max_result_chars=50))
    lines = "\n".join(f"line {n}" for n in range(10))
    step = feed(
        session,
        event("r1", 1, type="tool_result", tool="read", result=lines),
        event("r1", 2, type="tool_result", tool="read", result="y" * 80),
    )
    first, second = (i.text for i in step.inputs if isinstance(i, LogAppend))
    assert first == "read: line 0\nline 1\nline 2\n\u2026 7 more lines"
    assert second == "read: " + "y" * 50 + "\u2026"


def test_tool_result_error_and_json_results() -> None:
    """An is_error result is an 'error' entry; non-string results show as compact JSON; none as (no output)."""
    step = feed(
        running(),
        event("r1", 1, type="tool_result", tool="edit", result="denied", is_error=True),
        event("r1", 2, type="tool_result", tool="ls", result={"files": ["a"]}),
        event("r1", 3, type="tool_result", tool="touch"),
    )
    assert step.inputs == (
        LogAppend("error", "edit failed: denied"),
        LogAppend("tool", 'ls: {"files":["a"]}'),
        LogAppend("tool", "touch: (no output)"),
    )


def test_permission_events_map_to_preflight_inputs() -> None:
    """permission.preview/ready -> PermissionPreview (diff normalized) / PermissionReady."""
    step = feed(
        running(),
        event(
            "r1",
            1,
            type="permission.preview",
            tool="edit",
            diff="-a\r\n+b\n",
            summary="1 file",
            truncated=True,
            tool_call_id="c1",
        ),
        event("r1", 2, type="permission.ready", tool="edit", tool_call_id="c1"),
    )
    assert step.inputs == (PermissionPreview("edit", "-a\n+b", "1 file", True, "c1"), PermissionReady("edit", "c1"))


def test_unknown_event_type_is_quiet(caplog: pytest.LogCaptureFixture) -> None:
    """Events of an unknown (future) type leave nothing in the log: a debug record each, and later events show."""
    with caplog.at_level("DEBUG", logger="inline_render.protocol.codelia.session"):
        step = feed(
            running(),
            event("r1", 0, type="shiny.new", data=[1]),
            event("r1", 1, type="shiny.new"),
            event("r1", 2, type="error", message="x"),
        )
    assert step.inputs == (LogAppend("error", "x"),)
    assert caplog.text.count("'shiny.new'") == 2


# --- seq ordering and unknown runs --------------------------------------------------------------


def test_duplicate_seq_is_ignored() -> None:
    """An event whose seq was already seen (or is older) is dropped silently."""
    session = running()
    feed(session, event("r1", 1, type="text", content="a"), event("r1", 2, type="text", content="b"))
    again = feed(session, event("r1", 2, type="text", content="b"), event("r1", 1, type="text", content="a"))
    assert again.inputs == ()


def test_seq_gap_is_reported_once_and_events_still_shown() -> None:
    """A gap in seq gives one status line for the run; the events after it are still processed."""
    step = feed(
        running(),
        event("r1", 1, type="error", message="a"),
        event("r1", 4, type="error", message="b"),
        event("r1", 9, type="error", message="c"),
    )
    assert step.inputs == (
        LogAppend("error", "a"),
        LogAppend("status", "Some events of run r1 were lost (seq 2-3)."),
        LogAppend("error", "b"),
        LogAppend("error", "c"),
    )


def test_events_of_an_unknown_run_are_reported_once() -> None:
    """Events of a run that was never started or announced give one status line and are dropped."""
    step = feed(running(), event("zz", 1, type="error", message="x"), event("zz", 2, type="error", message="y"))
    assert step.inputs == (LogAppend("status", "Ignored events of unknown run zz."),)


# --- run.status and run.context -----------------------------------------------------------------


def test_running_and_awaiting_ui_statuses() -> None:
    """running shows in the status line with the spinner; awaiting_ui stops the spinner."""
    session = running()
    assert feed(session, status("r1", "running", "Thinking")).inputs == (Status("running"), Working("Thinking"))
    assert feed(session, status("r1", "awaiting_ui")).inputs == (Status("waiting for you"), Working(""))


def test_completed_run_finishes_its_stream_and_stops_the_spinner() -> None:
    """completed finishes a streaming entry, stops the spinner, says 'done'; the session is idle."""
    session = running()
    step = feed(session, event("r1", 1, type="text", content="x"), status("r1", "completed"))
    assert step.inputs[1:] == (LogFinish("r1#1"), Working(""), Status("done"))
    assert not session.busy and session.run_status("r1") == "completed"


def test_error_status_is_an_error_line() -> None:
    """An 'error' status ends the run with an error line carrying the message."""
    step = feed(running(), status("r1", "error", "model unavailable"))
    assert LogAppend("error", "Run failed: model unavailable") in step.inputs


def test_cancelled_is_terminal_closes_dialogs_and_ignores_later_events() -> None:
    """cancelled: spinner stops, the run's open dialog closes (and is answered), later events are ignored."""
    session = running()
    opened = feed(session, req("c1", "ui.confirm.request", title="Allow?", run_id="r1"))
    assert isinstance(opened.inputs[0], ConfirmRequest)
    step = feed(session, status("r1", "cancelled"))
    assert step.inputs == (ConfirmCancel("c1"), Working(""), LogAppend("status", "Run cancelled."), Status("cancelled"))
    assert step.send == (Response("c1", {"ok": False, "remember": False, "reason": None}),)
    later = feed(session, event("r1", 5, type="text", content="late"), status("r1", "running"))
    assert later.inputs == () and later.send == ()
    assert session.run_status("r1") == "cancelled"
    assert session.handle_output(ConfirmAnswer("c1", ok=True)).send == ()


def test_dialog_of_a_cancelled_run_is_answered_without_opening() -> None:
    """A dialog request tagged with an already cancelled run is answered as dismissed at once."""
    session = running()
    feed(session, status("r1", "cancelled"))
    step = feed(session, req(7, "ui.pick.request", title="t", items=[{"id": "a", "label": "a"}], run_id="r1"))
    assert step.inputs == ()
    assert step.send == (Response(7, {"ids": []}),)


def test_run_status_announces_a_run_the_runtime_started() -> None:
    """run.status for an unknown run registers it (its events are then shown); terminal ones are ignored."""
    session = connected()
    assert feed(session, status("bg", "completed")).inputs == ()
    feed(session, status("bg", "running"))
    assert session.current_run == "bg"
    assert feed(session, event("bg", 1, type="error", message="x")).inputs == (LogAppend("error", "x"),)


def test_run_context_joins_the_status_line() -> None:
    """run.context adds '<n>% context left' to the status line next to the run's state."""
    session = running()
    feed(session, status("r1", "running"))
    step = feed(session, note("run.context", run_id="r1", context_left_percent=72.6))
    assert step.inputs == (Status("running \u00b7 73% context left"),)


# --- dialogs and answers ------------------------------------------------------------------------


def test_confirm_request_and_answer_with_remember_and_reason() -> None:
    """ui.confirm.request -> ConfirmRequest (all options); answers become the JSON-RPC result."""
    session = running()
    step = feed(
        session,
        req(
            "c1",
            "ui.confirm.request",
            title="Allow edit?",
            message="m",
            confirm_label="Allow",
            cancel_label="Deny",
            danger_level="danger",
            allow_remember=True,
            allow_reason=True,
        ),
    )
    assert step.inputs == (ConfirmRequest("c1", "Allow edit?", "m", "Allow", "Deny", "danger", True, True),)
    assert session.handle_output(ConfirmAnswer("c1", True, remember=True)).send == (
        Response("c1", {"ok": True, "remember": True, "reason": None}),
    )
    defaults = feed(session, req("c2", "ui.confirm.request", title="Again?", message="m"))
    assert defaults.inputs == (ConfirmRequest("c2", "Again?", "m", "OK", "Cancel"),)  # seed 004's default labels
    assert session.handle_output(ConfirmAnswer("c2", False, reason="too risky")).send == (
        Response("c2", {"ok": False, "remember": False, "reason": "too risky"}),
    )


def test_prompt_request_and_answers() -> None:
    """ui.prompt.request (default_value, secret, multiline) -> PromptRequest; the answer is {"value": text|null}."""
    session = running()
    step = feed(session, req("ui_5", "ui.prompt.request", title="Name", message="m", default_value="x", secret=True))
    assert step.inputs == (PromptRequest("ui_5", "Name", "m", "x", "", True, False),)
    assert session.handle_output(PromptAnswer("ui_5", None)).send == (Response("ui_5", {"value": None}),)
    multi = feed(session, req("ui_6", "ui.prompt.request", title="Body", message="", multiline=True))
    assert multi.inputs == (PromptRequest("ui_6", "Body", "", "", "", False, True),)
    assert session.handle_output(PromptAnswer("ui_6", "a\nb")).send == (Response("ui_6", {"value": "a\nb"}),)


def test_pick_request_items_with_detail_and_the_answer_keep_the_id() -> None:
    """ui.pick.request's items {id, label, detail?} -> PickRequest options; the answer goes back under the same id."""
    session = running()
    items = [{"id": "openai", "label": "openai", "detail": "OAuth or API key"}, {"id": "b", "label": "B"}]
    step = feed(session, req("ui_1", "ui.pick.request", title="Provider", items=items, multi=False))
    assert step.inputs == (
        PickRequest("ui_1", "Provider", (PickOption("openai", "openai", "OAuth or API key"), PickOption("b", "B"))),
    )
    assert session.handle_output(PickAnswer("ui_1", ("openai",))).send == (Response("ui_1", {"ids": ["openai"]}),)
    lenient = feed(session, req(9, "ui.pick.request", title="File", items=[{"id": "a", "label": "A"}], multi=True))
    assert lenient.inputs == (PickRequest("9", "File", (PickOption("a", "A"),), "", True),)
    assert session.handle_output(PickAnswer("9", ())).send == (Response(9, {"ids": []}),)  # a numeric id is kept


def test_dialog_errors_are_json_rpc_errors() -> None:
    """Invalid params -> -32602; an unsupported dialog -> -32601; an id already open -> -32600."""
    session = running(supports_pick=False)
    bad = feed(session, req(1, "ui.confirm.request", message="no title"))
    unsupported = feed(session, req(2, "ui.pick.request", title="t", items=[]))
    feed(session, req(3, "ui.prompt.request", title="t"))
    duplicate = feed(session, req(3, "ui.prompt.request", title="t"))
    codes = [
        step.send[0].error.code for step in (bad, unsupported, duplicate) if isinstance(step.send[0], ErrorResponse)
    ]
    assert codes == [-32602, -32601, -32600]
    assert "title" in bad.send[0].error.message  # type: ignore[union-attr]
    assert bad.inputs == unsupported.inputs == duplicate.inputs == ()


def test_dialog_request_without_id_cannot_be_answered() -> None:
    """A dialog sent as a notification is reported (it cannot be answered) and not opened."""
    step = feed(running(), note("ui.confirm.request", title="t"))
    assert step.send == ()
    assert status_lines(step.inputs) == ["Ignored ui.confirm.request without an id: it cannot be answered."]


def test_answer_for_a_closed_dialog_sends_nothing() -> None:
    """An answer whose dialog is unknown (closed meanwhile) is dropped."""
    assert running().handle_output(ConfirmAnswer("nope", True)).send == ()


# --- cancelling ---------------------------------------------------------------------------------


def test_interrupt_sends_run_cancel_once() -> None:
    """Esc during a run sends run.cancel; pressing it again sends nothing more."""
    session = running()
    first = session.handle_output(Interrupt("escape"))
    assert first.send == (Request("3", "run.cancel", {"run_id": "r1", "reason": "cancelled by the user"}),)
    assert first.inputs == (Working("Cancelling"),)
    assert session.handle_output(Interrupt("escape")) == session.cancel_run()
    assert session.cancel_run().send == ()


def test_interrupt_without_a_run_does_nothing() -> None:
    """Esc with no run in progress sends nothing."""
    assert connected().handle_output(Interrupt("escape")).send == ()


def test_interrupt_before_the_run_is_named_cancels_when_it_is() -> None:
    """Esc before run.start is answered: run.cancel goes out as soon as the run id arrives."""
    session = connected()
    session.start_run("hi")
    assert session.cancel_run().send == ()
    assert session.cancel_run().inputs == ()
    step = feed(session, result("2", {"run_id": "r9"}))
    assert step.send == (Request("3", "run.cancel", {"run_id": "r9", "reason": "cancelled by the user"}),)


def test_runtime_without_cancel_support_gets_no_run_cancel() -> None:
    """A runtime that did not announce supports_run_cancel gets a status line instead of run.cancel."""
    session = connected(cancel=False)
    session.start_run("hi")
    feed(session, result(2, {"run_id": "r1"}))
    step = session.cancel_run()
    assert step.send == ()
    assert status_lines(step.inputs) == ["This runtime cannot cancel runs."]


def test_failed_run_cancel_can_be_retried() -> None:
    """An error answer to run.cancel is shown, and the next Esc sends run.cancel again."""
    session = running()
    session.cancel_run()
    step = feed(session, {"jsonrpc": "2.0", "id": 3, "error": {"code": 1, "message": "busy"}})
    assert LogAppend("error", "Could not cancel the run: busy") in step.inputs
    assert session.cancel_run().send == (
        Request("4", "run.cancel", {"run_id": "r1", "reason": "cancelled by the user"}),
    )


# --- UI signals ---------------------------------------------------------------------------------


def test_ui_signals_map_to_their_inputs() -> None:
    """ui.notify -> Notify (unknown types as info), ui.working -> Working, ui.set_editor_text -> EditorSet."""
    step = feed(
        running(),
        note("ui.notify", message="saved", notify_type="success"),
        note("ui.notify", message="hm", notify_type="shout"),
        note("ui.working", message="Reading"),
        note("ui.working"),
        note("ui.set_editor_text", text="draft"),
    )
    assert step.inputs == (
        Notify("saved", "success"),
        Notify("hm", "info"),
        Working("Reading"),
        Working(""),
        EditorSet("draft"),
    )


def test_notify_finishes_a_streaming_entry() -> None:
    """A notification line below a streaming entry first finishes that entry."""
    step = feed(running(), event("r1", 1, type="text", content="x"), note("ui.notify", message="n"))
    assert step.inputs[1:] == (LogFinish("r1#1"), Notify("n", "info"))


def test_signal_sent_as_a_request_is_answered() -> None:
    """A notification method sent with an id is handled and answered with an empty result."""
    step = feed(running(), req(4, "ui.working", message="x"))
    assert step.inputs == (Working("x"),)
    assert step.send == (Response(4, {}),)


def test_invalid_notification_params_give_one_status_line_then_go_on() -> None:
    """Bad params of a notification: one status line, no reply; the next message is processed."""
    step = feed(running(), note("ui.working", message=3), note("ui.working", message="ok"))
    assert step.send == ()
    assert len(status_lines(step.inputs)) == 1 and "message" in status_lines(step.inputs)[0]
    assert step.inputs[-1] == Working("ok")


def test_invalid_request_params_get_32602() -> None:
    """Bad params of a request are answered with -32602 and shown nowhere else."""
    step = feed(running(), req(4, "ui.set_editor_text", text=None))
    assert isinstance(step.send[0], ErrorResponse) and step.send[0].error.code == -32602
    assert step.inputs == ()


def test_unknown_methods() -> None:
    """Unknown request -> -32601 with its id; an unknown (future) notification is quiet: no log line."""
    step = feed(running(), req(4, "fs.read"), note("telemetry", x=1), note("telemetry", x=2))
    assert isinstance(step.send[0], ErrorResponse)
    assert (step.send[0].id, step.send[0].error.code) == (4, -32601)
    assert step.inputs == ()


# --- responses, malformed input, timeouts, exit -------------------------------------------------


def test_response_for_unknown_id_is_reported() -> None:
    """A response to a request never sent is one status line; an id-less error is shown too."""
    step = feed(
        running(), result(77, {}), {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "bad line"}}
    )
    assert status_lines(step.inputs) == [
        "Ignored a response for unknown request id 77.",
        "The runtime reported an error: bad line",
    ]


def test_malformed_input_is_answered_shown_and_does_not_stop_later_messages() -> None:
    """Garbage JSON gets -32700 (id null) and one status line; the next valid message still works."""
    session = running()
    step = session.receive(wire({"jsonrpc": "2.0", "method": "ui.working", "params": {"message": "x"}}))
    bad = session.receive(wire("not an object"))
    assert isinstance(bad.send[0], ErrorResponse) and bad.send[0].error.code == -32600
    assert len(status_lines(bad.inputs)) == 1
    parse = session.receive(decode_line(b'{"jsonrpc": '))
    assert isinstance(parse.send[0], ErrorResponse) and parse.send[0].id is None
    assert parse.send[0].error.code == -32700
    assert step.inputs == (Working("x"),)
    assert feed(session, note("ui.working", message="y")).inputs == (Working("y"),)


def test_request_timeout_is_shown_and_a_late_answer_dropped() -> None:
    """An unanswered run.start times out with an error line; its late answer is dropped quietly."""
    session = connected()
    session.start_run("hi")
    assert session.pending_requests() == {"2": "run.start"}
    step = session.request_timed_out("2", 1.5)
    assert step.inputs == (Working(""), LogAppend("error", "The runtime did not answer run.start within 1.5 s."))
    assert not session.busy
    late = feed(session, result(2, {"run_id": "r1"}))  # even echoed as a number
    assert late.inputs == () and session.current_run is None
    assert session.request_timed_out("2", 1.5).inputs == ()


def test_runtime_exit_mid_run_ends_it_with_an_error_line() -> None:
    """The runtime dying mid-run: error line with the exit code, spinner off, open dialog closed, no sends."""
    session = running()
    feed(session, event("r1", 1, type="text", content="partial"), req("c1", "ui.confirm.request", title="t"))
    step = session.runtime_exited(3)
    assert step.send == ()
    assert step.inputs == (
        LogFinish("r1#1"),
        ConfirmCancel("c1"),
        Working(""),
        LogAppend("error", "The runtime exited (exit code 3) during run r1."),
        Status("failed"),
    )
    assert session.exited and not session.busy
    assert session.start_run("more").inputs == (LogAppend("error", "The runtime is not running."),)
    assert session.runtime_exited(3).inputs == ()


def test_runtime_exit_without_a_run() -> None:
    """An expected exit with no run is silent; an unexpected one is one line."""
    assert connected().runtime_exited(0, expected=True).inputs == ()
    assert connected().runtime_exited(1).inputs == (LogAppend("error", "The runtime exited (exit code 1)."),)


def test_stderr_lines_are_status_lines() -> None:
    """A stderr line becomes one status line (trailing whitespace dropped); blank lines are skipped."""
    session = connected()
    assert session.stderr_line("warning: slow  ").inputs == (LogAppend("status", "warning: slow"),)
    assert session.stderr_line("   ").inputs == ()


def test_same_calls_give_the_same_steps() -> None:
    """The session is deterministic: replaying the same calls gives identical steps."""

    def script() -> list[object]:
        session = running()
        steps: list[object] = []
        for obj in (
            event("r1", 1, type="text", content="a"),
            req("c", "ui.confirm.request", title="t"),
            status("r1", "cancelled"),
        ):
            steps.append(session.receive(wire(obj)))
        steps.append(session.handle_output(Interrupt("escape")))
        return steps

    assert script() == script()
    assert json.dumps(repr(script())) == json.dumps(repr(script()))


def test_config_is_frozen_and_pasteable() -> None:
    """SessionConfig is a frozen dataclass whose repr names its fields."""
    config = SessionConfig(supports_pick=False)
    assert "supports_pick=False" in repr(config)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.supports_pick = True  # type: ignore[misc]
