"""Messages the app sends out (a submitted prompt, a dialog's answer, an interrupt)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Union

__all__ = [
    "CompleteRequest",
    "ConfirmAnswer",
    "FormAnswer",
    "FormValue",
    "Interrupt",
    "Output",
    "PickAnswer",
    "PromptAnswer",
    "Quit",
    "Submit",
    "output_to_json",
]


@dataclass(frozen=True, slots=True)
class Submit:
    """The user pressed enter in the composer with ``text``."""

    TYPE: ClassVar[str] = "submit"
    text: str


@dataclass(frozen=True, slots=True)
class ConfirmAnswer:
    """The answer to confirm dialog ``id``."""

    TYPE: ClassVar[str] = "confirm.answer"
    id: str
    ok: bool
    remember: bool = False
    reason: str | None = None
    scope: str | None = None  # with ``remember``: "always" or "session" (seed 003's [a]lways / [s]ession)


@dataclass(frozen=True, slots=True)
class PromptAnswer:
    """The answer to prompt dialog ``id``: the text, or None when dismissed."""

    TYPE: ClassVar[str] = "prompt.answer"
    id: str
    value: str | None


FormValue = str | float | bool | None


@dataclass(frozen=True, slots=True)
class FormAnswer:
    """The answer to form ``id``: (name, value) per field in order, or None when dismissed (Esc)."""

    TYPE: ClassVar[str] = "form.answer"
    id: str
    values: tuple[tuple[str, FormValue], ...] | None

    def as_dict(self) -> dict[str, FormValue] | None:
        """The values by field name (None when dismissed)."""
        return None if self.values is None else dict(self.values)


@dataclass(frozen=True, slots=True)
class PickAnswer:
    """The answer to pick dialog ``id``: the chosen option ids (empty when dismissed)."""

    TYPE: ClassVar[str] = "pick.answer"
    id: str
    ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Interrupt:
    """Escape or Ctrl-C with no dialog open: cancel the running turn."""

    TYPE: ClassVar[str] = "interrupt"
    key: str


@dataclass(frozen=True, slots=True)
class CompleteRequest:
    """Tab in the composer: the shell asks the app's completer and answers with a ``completions`` input."""

    TYPE: ClassVar[str] = "complete.request"
    text: str
    cursor: int


@dataclass(frozen=True, slots=True)
class Quit:
    """Ctrl-D on an empty composer: the user asks to exit."""

    TYPE: ClassVar[str] = "quit"


Output = Union[Submit, ConfirmAnswer, PromptAnswer, PickAnswer, FormAnswer, Interrupt, Quit, CompleteRequest]


def output_to_json(output: Output) -> dict[str, Any]:
    """The JSON object form used in scenario ``outputs`` expectations."""
    data: dict[str, Any] = {"type": output.TYPE}
    if isinstance(output, Submit):
        data["text"] = output.text
    elif isinstance(output, ConfirmAnswer):
        data.update(id=output.id, ok=output.ok)
        if output.remember:
            data["remember"] = True
        if output.scope is not None:
            data["scope"] = output.scope
        if output.reason is not None:
            data["reason"] = output.reason
    elif isinstance(output, PromptAnswer):
        data.update(id=output.id, value=output.value)
    elif isinstance(output, PickAnswer):
        data.update(id=output.id, ids=list(output.ids))
    elif isinstance(output, FormAnswer):
        data.update(id=output.id, values=output.as_dict())
    elif isinstance(output, Interrupt):
        data["key"] = output.key
    elif isinstance(output, CompleteRequest):
        data.update(text=output.text, cursor=output.cursor)
    return data
