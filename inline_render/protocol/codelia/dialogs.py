"""Runtime -> UI dialogs: ``ui.confirm/prompt/pick.request`` shown as the core's dialogs, answered or dismissed.

A dialog's id on screen is its request id as a string.  A dialog of a run that
is over is answered at once as dismissed; a run that ends (or is cancelled)
dismisses its open dialogs, so the runtime is never left waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import InvalidInput
from ...inputs import ConfirmCancel, ConfirmRequest, Input, PickRequest, PromptRequest
from ...widgets.approval import worker_names
from ..jsonobj import JsonObject
from ..messages import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    ErrorInfo,
    ErrorResponse,
    Request,
    RequestId,
    Response,
)
from . import methods as m
from .config import SessionConfig
from .step import Out

__all__ = ["DIALOG_METHODS", "DISMISSED", "Dialog", "Dialogs", "dialog_input"]

DIALOG_METHODS = (m.UI_CONFIRM, m.UI_PROMPT, m.UI_PICK)
DISMISSED: dict[str, JsonObject] = {  # the answer of a dialog closed without the user answering
    m.UI_CONFIRM: m.ConfirmResult(ok=False, remember=False, reason=None),
    m.UI_PROMPT: m.PromptResult(value=None),
    m.UI_PICK: m.PickResult(ids=()),
}


@dataclass(frozen=True, slots=True)
class Dialog:
    """An open dialog of the runtime's: the request to answer, and the run it belongs to."""

    rpc_id: RequestId
    method: str
    run_id: str | None


class Dialogs:
    """The runtime's open dialogs of one session, by dialog id."""

    __slots__ = ("_config", "_open")

    def __init__(self, config: SessionConfig) -> None:
        self._config = config
        self._open: dict[str, Dialog] = {}

    def open(self, request: Request, out: Out, current: str | None, ended: Callable[[str], bool]) -> None:
        """Show ``request``'s dialog (of its run, else the ``current`` one), or answer it at once.

        ``ended(run_id)``: that run is known and over, so the dialog is answered as dismissed.
        """
        method, rid, dialog_id = request.method, request.id, str(request.id)
        try:
            params = m.PARAMS_BY_METHOD[method].from_json(
                {} if request.params is None else request.params, f"{method} params"
            )
        except InvalidInput as exc:
            out.send.append(ErrorResponse(rid, ErrorInfo(INVALID_PARAMS, f"Invalid params: {exc}")))
            return
        supported = {
            m.UI_CONFIRM: self._config.supports_confirm,
            m.UI_PROMPT: self._config.supports_prompt,
            m.UI_PICK: self._config.supports_pick,
        }[method]
        if not supported:
            out.send.append(ErrorResponse(rid, ErrorInfo(METHOD_NOT_FOUND, f"This UI does not support {method}")))
            return
        if dialog_id in self._open:
            out.send.append(ErrorResponse(rid, ErrorInfo(INVALID_REQUEST, "Request id already used by an open dialog")))
            return
        run_id = params.run_id or current
        if run_id is not None and ended(run_id):
            out.send.append(Response(rid, DISMISSED[method].to_json()))  # too late: the run is over
            return
        self._open[dialog_id] = Dialog(rid, method, run_id)
        out.inputs.append(dialog_input(dialog_id, params))

    def answer(self, dialog_id: str, result: JsonObject) -> Response | None:
        """The response that answers dialog ``dialog_id`` with ``result`` (None: it was closed meanwhile)."""
        dialog = self._open.pop(dialog_id, None)
        return None if dialog is None else Response(dialog.rpc_id, result.to_json())

    def dismiss(self, run_id: str, out: Out, *, answer: bool) -> None:
        """Close the dialogs of run ``run_id``; ``answer`` them as dismissed (not when the runtime is gone)."""
        for dialog_id, dialog in list(self._open.items()):
            if dialog.run_id == run_id:
                del self._open[dialog_id]
                out.inputs.append(ConfirmCancel(dialog_id))
                if answer:  # answer it, so the runtime is not left waiting
                    out.send.append(Response(dialog.rpc_id, DISMISSED[dialog.method].to_json()))

    def close_all(self) -> list[str]:
        """Forget every open dialog (the runtime is gone); their ids, to close them on screen."""
        ids = list(self._open)
        self._open.clear()
        return ids


def dialog_input(dialog_id: str, params: Any) -> Input:
    """The core dialog that shows a confirm, prompt or pick request's params."""
    if isinstance(params, m.ConfirmParams):
        return ConfirmRequest(
            dialog_id,
            params.title,
            params.message,
            params.confirm_label,
            params.cancel_label,
            params.danger_level,
            params.allow_remember,
            params.allow_reason,
            risk=params.risk if isinstance(params.risk, str) else "",
            worker_path=worker_names(params.worker_path),
        )
    if isinstance(params, m.PromptParams):
        return PromptRequest(
            dialog_id,
            params.title,
            params.message,
            params.default_value,
            params.placeholder,
            params.secret,
            params.multiline,
        )
    assert isinstance(params, m.PickParams)
    options = tuple(item.option() for item in params.items)
    return PickRequest(dialog_id, params.title, options, params.message, params.multi)
