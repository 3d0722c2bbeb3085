"""The JSON-RPC envelope and the typed params/results/events of every method."""

from __future__ import annotations

from typing import Any

import pytest

from inline_render.errors import InvalidInput
from inline_render.inputs import PickOption
from inline_render.protocol import events as ev
from inline_render.protocol.codelia import catalog as c
from inline_render.protocol.codelia import methods as m
from inline_render.protocol.messages import (
    INVALID_REQUEST,
    ErrorInfo,
    ErrorResponse,
    Malformed,
    Notification,
    Request,
    Response,
    excerpt,
    message_from_json,
    message_to_json,
)


def test_request_round_trip_keeps_unknown_members() -> None:
    """A request parses with its id, method, params, and unknown top-level members in ``extra``."""
    obj = {"jsonrpc": "2.0", "id": 7, "method": "run.start", "params": {"prompt": "hi"}, "trace": "t1"}
    message = message_from_json(obj)
    assert message == Request(7, "run.start", {"prompt": "hi"}, {"trace": "t1"})
    assert isinstance(message, Request)
    assert message_to_json(message) == obj


def test_notification_has_no_id() -> None:
    """A message without ``id`` is a notification, and serializes without one."""
    message = message_from_json({"jsonrpc": "2.0", "method": "ui.working", "params": {"message": "x"}})
    assert message == Notification("ui.working", {"message": "x"})
    assert isinstance(message, Notification)
    assert "id" not in message_to_json(message)


def test_response_and_error_response_round_trip() -> None:
    """Responses and error responses parse to their types and serialize back identically."""
    ok = {"jsonrpc": "2.0", "id": "ui-1", "result": {"ok": True}}
    err = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error", "data": [1]}}
    assert message_from_json(ok) == Response("ui-1", {"ok": True})
    assert message_from_json(err) == ErrorResponse(None, ErrorInfo(-32700, "Parse error", [1]))
    for obj in (ok, err):
        parsed = message_from_json(obj)
        assert isinstance(parsed, (Response, ErrorResponse))
        assert message_to_json(parsed) == obj


@pytest.mark.parametrize(
    ("obj", "owed"),
    [
        ([1, 2], True),
        ("text", True),
        ({"id": 1, "method": "x"}, True),
        ({"jsonrpc": "1.0", "id": 1, "method": "x"}, True),
        ({"jsonrpc": "2.0", "id": 1, "method": 5}, True),
        ({"jsonrpc": "2.0", "id": 1, "method": "x", "params": 3}, True),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "x"}, True),
        ({"jsonrpc": "2.0", "id": True, "method": "x"}, True),
        ({"jsonrpc": "2.0", "id": 1, "result": 1, "error": {"code": 1, "message": "m"}}, False),
        ({"jsonrpc": "2.0", "id": 1, "error": "boom"}, False),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}}, False),
        ({"jsonrpc": "2.0", "result": 1}, False),
        ({"jsonrpc": "2.0", "id": None, "result": 1}, False),
    ],
)
def test_invalid_messages_are_malformed_and_say_whether_an_answer_is_owed(obj: Any, owed: bool) -> None:
    """Invalid envelopes give -32600; broken *responses* are never answered (JSON-RPC section 5)."""
    parsed = message_from_json(obj)
    assert isinstance(parsed, Malformed)
    assert parsed.code == INVALID_REQUEST
    assert parsed.reply is owed
    assert (parsed.error_response() is not None) is owed


def test_malformed_request_keeps_its_readable_id() -> None:
    """An invalid request whose id is readable is answered with that id, so the runtime can match it."""
    parsed = message_from_json({"jsonrpc": "2.0", "id": "q", "method": 3})
    assert isinstance(parsed, Malformed)
    response = parsed.error_response()
    assert response is not None and response.id == "q"


def test_excerpt_is_short_and_printable() -> None:
    """Status-line excerpts of untrusted input contain no control characters and are bounded."""
    text = excerpt("\x1b[31mred\x07" + "x" * 200, limit=40)
    assert len(text) == 40
    assert text.isprintable()
    assert "\x1b" not in text


# --- typed params / results ---------------------------------------------------------------------

EXAMPLES: list[tuple[type[Any], dict[str, Any]]] = [
    (
        m.InitializeParams,
        {
            "protocol_version": 1,
            "client": {"name": "ui", "version": "1"},
            "ui_capabilities": {"supports_confirm": True, "supports_x": 1},
        },
    ),
    (
        m.InitializeResult,
        {
            "protocol_version": 1,
            "server": {"name": "rt"},
            "server_capabilities": {"supports_run_cancel": True, "supports_permission_preflight_events": True},
        },
    ),
    (m.RunStartParams, {"input": {"type": "text", "text": "List TypeScript files"}}),
    (
        m.RunStartParams,
        {"input": {"type": "text", "text": "hi"}, "session_id": "s", "ui_context": {"cwd": "/w"}, "meta": {"k": 1}},
    ),
    (m.RunStartResult, {"run_id": "r1", "session_log_path": "~/.codelia/sessions/r1.jsonl"}),
    (m.RunStartResult, {"run_id": "r1"}),
    (m.RunCancelParams, {"run_id": "r1", "reason": "user"}),
    (m.RunStatusParams, {"run_id": "r1", "status": "cancelled", "message": "bye"}),
    (m.RunContextParams, {"run_id": "r1", "context_left_percent": 42.5}),
    (
        m.AgentEventParams,
        {"run_id": "r1", "seq": 3, "event": {"type": "text", "content": "x", "timestamp": 1}, "meta": {"k": 1}},
    ),
    (
        m.ConfirmParams,
        {
            "title": "Allow?",
            "message": "m",
            "confirm_label": "Allow",
            "cancel_label": "Deny",
            "danger_level": "danger",
            "allow_remember": True,
            "allow_reason": True,
            "run_id": "r1",
        },
    ),
    (m.ConfirmResult, {"ok": False, "remember": True, "reason": "no"}),
    (m.PromptParams, {"title": "Name", "default_value": "x", "placeholder": "p", "secret": True, "multiline": True}),
    (m.PromptResult, {"value": None}),
    (
        m.PickParams,
        {
            "title": "Pick",
            "items": [{"id": "a", "label": "A", "detail": "d"}, {"id": "b", "label": "B"}],
            "multi": True,
        },
    ),
    (m.PickResult, {"ids": ["a", "b"]}),
    (m.NotifyParams, {"message": "hi", "notify_type": "warn"}),
    (m.WorkingParams, {"message": "Reading"}),
    (m.SetEditorTextParams, {"text": "draft"}),
    (c.UiContext, {"cwd": "/w/src", "workspace_root": "/w", "active_file": {"path": "a.ts"}}),
    (c.SessionListParams, {"limit": 50}),
    (
        c.SessionListResult,
        {"sessions": [{"session_id": "s1", "updated_at": "2026-01-01", "message_count": 3, "last_user_message": "hi"}]},
    ),
    (c.SessionHistoryParams, {"session_id": "s1", "max_runs": 20, "max_events": 1500}),
    (c.SessionHistoryResult, {"runs": 2, "events_sent": 9, "truncated": True}),
    (c.ModelListParams, {"provider": "openai", "include_details": True}),
    (c.ModelListResult, {"provider": "openai", "models": ["a", "b"], "current": "a", "details": {"a": {}}}),
    (c.ModelSetParams, {"name": "b", "provider": "openai"}),
    (c.ModelSetResult, {"provider": "openai", "name": "b"}),
    (c.McpListParams, {"scope": "loaded"}),
    (
        c.McpListResult,
        {"servers": [{"id": "gh", "transport": "http", "enabled": False, "state": "error", "last_error": "401"}]},
    ),
    (c.SkillsListParams, {"cwd": "/w", "force_reload": True}),
    (
        c.SkillsListResult,
        {
            "skills": [{"id": "s", "name": "s", "description": "d", "path": "p", "dir": "d", "scope": "repo"}],
            "errors": [{"path": "x", "message": "bad"}],
            "truncated": True,
        },
    ),
]


@pytest.mark.parametrize(("cls", "obj"), EXAMPLES, ids=[cls.__name__ for cls, _ in EXAMPLES])
def test_every_params_and_result_type_round_trips(cls: type[Any], obj: dict[str, Any]) -> None:
    """Each typed params/result parses its JSON and writes the very same JSON back."""
    parsed = cls.from_json(obj)
    assert isinstance(parsed, cls)
    assert parsed.to_json() == obj


def test_unknown_members_are_kept_in_extra() -> None:
    """Members this UI does not know survive in ``extra`` (also in nested objects)."""
    params = m.InitializeParams.from_json(
        {
            "protocol_version": "0",
            "client": {"name": "ui", "pid": 9},
            "ui_capabilities": {"supports_images": True, "supports_theme_set": True},
            "locale": "fr",
        }
    )
    assert params.extra == {"locale": "fr"}
    assert params.client.extra == {"pid": 9}
    assert params.ui_capabilities.supports_images
    assert params.ui_capabilities.extra == {"supports_theme_set": True}


def test_defaults_are_omitted_and_required_members_kept() -> None:
    """Defaults are left out of the JSON, required members (even null/false/empty) are written."""
    # A confirm answer always carries remember and reason, as codelia's own UI sends it.
    assert m.ConfirmResult(False, False, None).to_json() == {"ok": False, "remember": False, "reason": None}
    assert m.ConfirmParams(title="t").to_json() == {"title": "t"}  # labels default to OK / Cancel
    assert m.PromptResult(value=None).to_json() == {"value": None}
    assert m.PickResult(ids=()).to_json() == {"ids": []}


def test_null_means_absent_for_members_with_defaults() -> None:
    """``null`` for an optional member (a JavaScript habit) gives its default instead of an error."""
    params = m.ConfirmParams.from_json({"title": "t", "message": None, "allow_remember": None})
    assert params.message == ""
    assert params.allow_remember is False


@pytest.mark.parametrize(
    ("cls", "obj", "field"),
    [
        (m.ConfirmParams, {}, "title"),
        (m.ConfirmParams, {"title": 3}, "title"),
        (m.ConfirmParams, {"title": "t", "allow_reason": "yes"}, "allow_reason"),
        (m.AgentEventParams, {"run_id": "r", "seq": "1", "event": {"type": "text", "content": ""}}, "seq"),
        (m.AgentEventParams, {"run_id": "r", "seq": True, "event": {"type": "text", "content": ""}}, "seq"),
        (m.AgentEventParams, {"run_id": "r", "seq": 1, "event": {"type": "text"}}, "content"),
        (m.AgentEventParams, {"run_id": "r", "seq": 1, "event": []}, "event"),
        (m.RunContextParams, {"run_id": "r", "context_left_percent": "half"}, "context_left_percent"),
        (m.PickParams, {"title": "t", "items": [3]}, "items"),
        (m.PickParams, {"title": "t", "items": [{"id": "a"}]}, "label"),
        (m.PickParams, {"title": "t", "options": ["a"]}, "items"),
        (m.RunStartParams, {"prompt": "hi"}, "input"),
        (m.RunStartParams, {"input": {"type": "text"}}, "text"),
        (m.PickResult, {"ids": ["a", 1]}, "ids"),
        (m.InitializeParams, {"protocol_version": 1, "client": "ui"}, "client"),
        (m.RunStatusParams, {"run_id": None, "status": "running"}, "run_id"),
    ],
)
def test_invalid_params_name_the_field(cls: type[Any], obj: Any, field: str) -> None:
    """A bad member raises ``InvalidInput`` whose message names the offending field."""
    with pytest.raises(InvalidInput, match=field):
        cls.from_json(obj)


def test_non_object_params_are_invalid() -> None:
    """Params must be an object (by-name); an array is refused."""
    with pytest.raises(InvalidInput, match="must be an object"):
        m.RunStartParams.from_json(["hi"])


def test_pick_items_become_core_options_with_the_detail() -> None:
    """Seed 004's pick items {id, label, detail?} become the core's options, the detail as the description."""
    params = m.PickParams.from_json(
        {"title": "t", "items": [{"id": "a", "label": "A", "detail": "d"}, {"id": "b", "label": "B"}]}
    )
    assert tuple(item.option() for item in params.items) == (PickOption("a", "A", "d"), PickOption("b", "B"))


@pytest.mark.parametrize(
    ("obj", "cls"),
    [
        ({"type": "text", "content": "x"}, ev.TextEvent),
        ({"type": "final", "content": "x"}, ev.FinalEvent),
        ({"type": "final"}, ev.FinalEvent),
        ({"type": "reasoning", "content": "x"}, ev.ReasoningEvent),
        ({"type": "tool_call", "tool": "read", "tool_call_id": "c", "args": {"path": "p"}}, ev.ToolCallEvent),
        (
            {"type": "tool_result", "tool": "read", "tool_call_id": "c", "result": [1], "is_error": True},
            ev.ToolResultEvent,
        ),
        ({"type": "error", "message": "x"}, ev.ErrorEvent),
        (
            {
                "type": "permission.preview",
                "tool": "edit",
                "diff": "d",
                "summary": "s",
                "truncated": True,
                "tool_call_id": "c",
            },
            ev.PermissionPreviewEvent,
        ),
        ({"type": "permission.ready", "tool": "edit"}, ev.PermissionReadyEvent),
        (
            {"type": "permission.preview", "tool": "edit", "file_path": "a.txt", "language": "txt"},
            ev.PermissionPreviewEvent,
        ),
        ({"type": "step_start", "step_id": "c1", "title": "edit", "step_number": 1}, ev.StepStartEvent),
        ({"type": "step_complete", "step_id": "c1", "status": "error", "duration_ms": 43}, ev.StepCompleteEvent),
        ({"type": "llm.retry", "attempt": 2, "max_attempts": 3, "reason": "429"}, ev.LlmRetryEvent),
        ({"type": "compaction_start", "timestamp": 1}, ev.CompactionStartEvent),
        ({"type": "compaction_complete", "timestamp": 1, "compacted": False}, ev.CompactionCompleteEvent),
        ({"type": "hidden_user_message", "content": "hi"}, ev.HiddenUserMessageEvent),
        ({"type": "future.kind", "n": 1}, ev.UnknownEvent),
    ],
)
def test_every_event_type_round_trips(obj: dict[str, Any], cls: type[Any]) -> None:
    """Each agent event type parses to its class (unknown types kept whole) and serializes back."""
    event = ev.parse_event(obj)
    assert isinstance(event, cls)
    assert event.to_json() == obj


def test_event_timestamp_is_kept() -> None:
    """An event's ``timestamp`` (and other extra members) is preserved in ``extra``."""
    event = ev.parse_event({"type": "error", "message": "x", "timestamp": "2024-01-01T00:00:00Z"})
    assert event.extra == {"timestamp": "2024-01-01T00:00:00Z"}


def test_params_by_method_covers_every_method() -> None:
    """Every method name of the protocol has a params type."""
    names = {
        m.INITIALIZE,
        m.RUN_START,
        m.RUN_CANCEL,
        m.RUN_STATUS,
        m.RUN_CONTEXT,
        m.RUN_DIAGNOSTICS,
        m.AGENT_EVENT,
        m.UI_CONFIRM,
        m.UI_PROMPT,
        m.UI_PICK,
        m.UI_NOTIFY,
        m.UI_WORKING,
        m.UI_SET_EDITOR_TEXT,
    }
    assert set(m.PARAMS_BY_METHOD) == names


def test_reprs_are_pasteable() -> None:
    """A typed value's repr evaluates back to an equal value."""
    value = m.ConfirmParams(title="t", allow_remember=True, extra={"k": [1]})
    namespace = {"ConfirmParams": m.ConfirmParams}
    assert eval(repr(value), namespace) == value
