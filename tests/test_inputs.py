"""Typed inputs: JSON round trips and InvalidInput errors that name the field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inline_render import InvalidInput, input_from_json, input_to_json
from inline_render.inputs import INPUT_TYPES

EXAMPLES: list[dict[str, Any]] = [
    {"type": "resize", "columns": 80, "rows": 24},
    {"type": "resize", "columns": 80, "rows": 24, "cursor_row": 3},
    {"type": "resize", "columns": 80, "rows": 24, "cursor_row": 3, "frames_in_flight": True, "in_flight_frames": 2},
    {
        "type": "resize",
        "columns": 80,
        "rows": 8,
        "frames_in_flight": True,
        "in_flight_columns": 60,
        "in_flight_rows": 9,
    },
    {"type": "key", "key": "c-c"},
    {"type": "paste", "text": "a\nb"},
    {"type": "log.append", "kind": "assistant", "text": "", "id": "a", "final": False},
    {"type": "log.delta", "id": "a", "text": "x"},
    {"type": "log.replace", "id": "a", "text": "y"},
    {"type": "log.finish", "id": "a"},
    {"type": "log.clear"},
    {"type": "status", "text": "ready"},
    {"type": "confirm.request", "id": "c", "title": "t", "danger_level": "high", "allow_remember": True},
    {"type": "confirm.cancel", "id": "c"},
    {"type": "prompt.request", "id": "p", "title": "t", "default": "d", "secret": True, "multiline": True},
    {"type": "pick.request", "id": "k", "title": "t", "options": [{"id": "a", "label": "A"}], "multi": True},
    {
        "type": "form.request",
        "id": "f",
        "title": "git_push",
        "fields": [
            {"name": "remote", "type": "select", "default": "origin", "options": ["origin", "upstream"]},
            {"name": "branch", "description": "Target branch", "required": True},
            {"name": "force", "type": "boolean", "default": False},
            {"name": "retries", "type": "number", "default": 3.5},
        ],
        "message": "Push commits",
    },
    {"type": "permission.preview", "tool": "edit", "diff": "+x", "truncated": True, "tool_call_id": "t1"},
    {"type": "permission.ready", "tool": "edit"},
    {"type": "legacy.text", "text": "Planned edit diff preview"},
    {"type": "notify", "message": "m", "notify_type": "warn"},
    {"type": "working", "message": "w"},
    {"type": "editor.set", "text": "e"},
    {"type": "widget", "key": "todo", "text": "- a\n- b", "below": True},
    {"type": "history.set", "lines": ["git status", "ls"]},
    {"type": "completions", "text": "/he", "cursor": 3, "items": ["/help"], "meta": ["commands"], "replace": 3},
    {"type": "clock", "now": 1.5},
    {"type": "fault", "after_bytes": 10},
]


def test_every_input_type_has_an_example() -> None:
    """The examples below cover the whole vocabulary."""
    assert {e["type"] for e in EXAMPLES} == set(INPUT_TYPES)


@pytest.mark.parametrize("obj", EXAMPLES, ids=lambda o: o["type"])
def test_json_round_trip_is_exact(obj: dict[str, Any]) -> None:
    """from_json then to_json gives back the same object; the value is frozen."""
    value = input_from_json(obj)
    assert input_to_json(value) == obj
    assert input_from_json(input_to_json(value)) == value
    assert value.__dataclass_params__.frozen  # type: ignore[union-attr]
    for field in dataclasses.fields(value):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field.name, None)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "must be a JSON object"),
        ({"type": 3}, "field 'type' must be a string"),
        ({"type": "nope"}, "unknown input type 'nope'"),
        ({"type": "key"}, "missing field 'key'"),
        ({"type": "key", "key": "a", "extra": 1}, "unknown field 'extra'"),
        ({"type": "log.append", "kind": "user", "text": 5}, "field 'text' must be str, got int"),
        ({"type": "log.append", "kind": "alien", "text": ""}, "field 'kind' must be one of"),
        ({"type": "log.append", "kind": "user", "text": "", "final": False}, "needs field 'id'"),
        ({"type": "resize", "columns": 0, "rows": 5}, "field 'columns' must be between 1 and 10000"),
        ({"type": "resize", "columns": 10**9, "rows": 5}, "field 'columns' must be between"),
        ({"type": "resize", "columns": True, "rows": 5}, "field 'columns' must be int, got bool"),
        ({"type": "resize", "columns": 9, "rows": 5, "in_flight_frames": -1}, "'in_flight_frames' must be between 0"),
        ({"type": "resize", "columns": 9, "rows": 5, "in_flight_rows": 0}, "'in_flight_rows' must be between 1"),
        ({"type": "clock", "now": float("nan")}, "field 'now' must be a finite number"),
        ({"type": "pick.request", "id": "k", "title": "t", "options": [3]}, "must be a string or an object"),
        (
            {"type": "form.request", "id": "f", "title": "t", "fields": [{"name": "n", "type": "date"}]},
            "'type' must be one of",
        ),
        ({"type": "form.request", "id": "f", "title": "t", "fields": [{"type": "text"}]}, "'name' must be a non-empty"),
        ({"type": "form.request", "id": "f", "title": "t", "fields": [{"name": "n", "default": 10**400}]}, "'default'"),
        ({"type": "form.request", "id": "f", "title": "t", "fields": [{"name": "n", "x": 1}]}, "unknown field 'x'"),
    ],
)
def test_bad_input_names_the_field(obj: Any, message: str) -> None:
    """Malformed objects raise InvalidInput with a message that says what and where."""
    with pytest.raises(InvalidInput) as caught:
        input_from_json(obj, where="scenario.jsonl:3")
    assert message in str(caught.value)
    if isinstance(obj, dict) and isinstance(obj.get("type"), str) and obj["type"] in INPUT_TYPES:
        assert str(caught.value).startswith(f"scenario.jsonl:3 ({obj['type']})")


@given(
    st.dictionaries(
        st.sampled_from(["type", "id", "text", "kind", "key", "columns"]), st.none() | st.integers() | st.text()
    )
)
def test_arbitrary_objects_give_a_value_or_invalid_input(obj: dict[str, Any]) -> None:
    """No JSON object makes input_from_json raise anything but InvalidInput."""
    try:
        value = input_from_json(obj)
    except InvalidInput:
        return
    assert input_from_json(input_to_json(value)) == value
