"""Seed 000's event shapes ("Event Type Hierarchy", each ``render_json``), written out from the seed as data.

``check_record`` validates one decoded ``--json`` record against them: exactly the seed's members (no
more, no fewer), each of the seed's type.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SEED_SHAPES", "check_record"]

_STR = (str,)
_OPT_FLOAT = (int, float, type(None))
_BOOL = (bool,)
SEED_SHAPES: dict[str, dict[str, tuple[type, ...]]] = {
    "initial_request": {"worker": _STR, "instructions": _STR, "user_input": _STR, "attachments": (list,)},
    "status": {"worker": _STR, "phase": _STR, "state": _STR, "model": _STR, "duration_sec": _OPT_FLOAT},
    "text_response": {"worker": _STR, "content": _STR, "is_complete": _BOOL, "is_delta": _BOOL},
    "tool_call": {"worker": _STR, "tool_name": _STR, "tool_call_id": _STR, "args": (dict,)},
    "tool_result": {"worker": _STR, "tool_name": _STR, "tool_call_id": _STR, "content": _STR, "is_error": _BOOL},
    "deferred_tool": {"worker": _STR, "tool_name": _STR, "status": _STR},
    "completion": {"worker": _STR},
    "error": {"worker": _STR, "error_type": _STR, "message": _STR, "traceback": (str, type(None))},
    "approval_request": {"worker": _STR, "tool_name": _STR, "reason": _STR, "args": (dict,)},
}


def check_record(record: Any) -> str:
    """Raise ``AssertionError`` unless ``record`` has one of the seed's shapes exactly; its type."""
    assert isinstance(record, dict), record
    kind = record.get("type")
    assert kind in SEED_SHAPES, f"not a seed 000 event type: {kind!r}"
    shape = SEED_SHAPES[kind]
    assert set(record) == {"type", *shape}, f"{kind}: members {sorted(record)} != {sorted(['type', *shape])}"
    for name, types in shape.items():
        value = record[name]
        # bool is an int in Python: a number member must not be a bool.
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        assert ok, f"{kind}.{name} = {value!r} is not {types}"
    if kind == "initial_request":
        assert all(isinstance(item, str) for item in record["attachments"]), record
    return str(kind)
