"""Lemon's overlays (seed 001, 2.2 and 4.4): ``ui_request`` -> a core dialog; its answer -> ``result``.

``select`` is a pick list answered with the chosen option's ``value`` (null if
cancelled); ``confirm`` a Yes/No pick list (4.4: a SelectList), answered
true/false, or null when cancelled (Esc, as 4.4 asks of every overlay); ``input`` a
single-line and ``editor`` a multi-line text dialog (``prefill`` as its text),
answered with the string or null.  Params are read leniently: seed 001 does not
fix them beyond ``title``, so an option may be a plain string or an object with
``value`` (``label`` and ``description`` optional), and unknown members are
ignored.  ``FALLBACK`` is 2.1's answer when nobody answers in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...inputs import Input, PickOption, PickRequest, PromptRequest
from ...outputs import PickAnswer, PromptAnswer
from ..display import compact_json
from .codec import LemonUiRequest

__all__ = ["FALLBACK", "METHODS", "Dialog", "answer_result", "dialog_input"]

METHODS = ("select", "confirm", "input", "editor")
FALLBACK: dict[str, Any] = {"select": None, "confirm": False, "input": None, "editor": None}


@dataclass(frozen=True, slots=True)
class Dialog:
    """An open overlay: the runtime's id (echoed as it came), its method, title, and a select's values."""

    wire_id: str | int
    method: str
    title: str = ""
    values: tuple[Any, ...] = ()


def _text(params: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = params.get(key)
        if isinstance(value, str):
            return value
    return ""


def _option(index: int, raw: Any) -> tuple[PickOption, Any]:
    """A pick option (its id is its index: values need not be strings or unique) and its value."""
    if isinstance(raw, str):
        return PickOption(str(index), raw), raw
    if isinstance(raw, dict) and ("value" in raw or "label" in raw):
        value = raw.get("value", raw.get("label"))
        label = raw.get("label")
        shown = label if isinstance(label, str) else value if isinstance(value, str) else compact_json(value)
        description = raw.get("description")
        return PickOption(str(index), shown, description if isinstance(description, str) else ""), value
    raise ValueError(f"option {index} must be a string or an object with 'value'")


def dialog_input(dialog_id: str, request: LemonUiRequest) -> tuple[Dialog, Input]:
    """The open overlay and the core dialog for ``request``; ``ValueError`` says why it cannot be shown."""
    method, params = request.method, request.params
    title = _text(params, "title")
    message = _text(params, "message", "description")
    if method == "select":
        options = params.get("options")
        if not isinstance(options, list) or not options:
            raise ValueError("'options' must be a non-empty array")
        pairs = [_option(index, raw) for index, raw in enumerate(options)]
        item: Input = PickRequest(dialog_id, title or "Choose", tuple(p for p, _ in pairs), message)
        return Dialog(request.id, method, title, tuple(v for _, v in pairs)), item
    if method == "confirm":
        yes_no = (PickOption("0", "Yes"), PickOption("1", "No"))
        item = PickRequest(dialog_id, title or "Confirm", yes_no, message)
        return Dialog(request.id, method, title, (True, False)), item
    if method in ("input", "editor"):
        default = _text(params, "prefill", "default", "text", "value")
        placeholder = _text(params, "placeholder")
        item = PromptRequest(dialog_id, title or "Input", message, default, placeholder, multiline=method == "editor")
    else:
        raise ValueError(f"this UI does not support the method {method!r}")
    return Dialog(request.id, method, title), item


def answer_result(dialog: Dialog, answer: PromptAnswer | PickAnswer) -> Any:
    """The ``ui_response`` ``result`` of 2.2 for the core's answer."""
    if isinstance(answer, PromptAnswer):
        return answer.value
    if not answer.ids:
        return None
    index = int(answer.ids[0])
    return dialog.values[index] if 0 <= index < len(dialog.values) else None
