"""Modal dialogs (confirm, prompt, pick): pure key handling and rendering.

Each dialog is a frozen value; ``handle_key`` returns the next dialog (or
``None`` once answered) and the answer to send.  ``render`` returns all rows,
the index of the row that must stay visible (``focus``) and the text cursor,
so the layout can scroll a dialog taller than the space it gets.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Union

from ..inputs import ConfirmRequest, FormRequest, PickRequest, PromptRequest
from ..outputs import ConfirmAnswer, Output, PickAnswer, PromptAnswer
from ..text.cells import WidthPolicy, clip_to_width, flatten
from ..text.roles import DANGER, DIM, HINT, SELECTED, TITLE
from ..text.spans import wrap_ansi
from ..text.style import DEFAULT, Row, Segment, styled
from .approval import REMEMBER_SCOPES, approval_rows, is_dangerous
from .composer import TextField, render_field
from .forms import FormDialog, open_form
from .view import DialogView, wrapped_message

# ``DialogView`` and ``wrapped_message`` live in ``view`` (forms needs them, and dialogs needs forms): still named here.
__all__ = [
    "ConfirmDialog",
    "Dialog",
    "DialogView",
    "FormDialog",
    "PickDialog",
    "PromptDialog",
    "open_dialog",
    "wrapped_message",
]


# The word a whole-line answer may spell each confirm action with (the others are their own word).
_ACTION_WORDS = {"ok": "yes", "deny": "no"}

# A styled message (trusted ANSI) is wrapped once per (text, width), as a plain one is.
_wrapped_styled = functools.lru_cache(maxsize=16)(wrap_ansi)


def _message(request: ConfirmRequest | PromptRequest | PickRequest, width: int, policy: WidthPolicy) -> tuple[Row, ...]:
    """The request's message under a two-space indent: plain text sanitized, or styled (SGR only)."""
    if request.styled:
        return _wrapped_styled(request.message, width, policy)
    return wrapped_message(request.message, width, policy)


def _title(text: str, width: int, policy: WidthPolicy, danger: bool) -> Row:
    marker = "! " if danger else "? "
    piece, _ = clip_to_width(marker + flatten(text), width, policy)
    return styled(piece, DANGER if danger else TITLE)


def _field_rows(
    field: TextField, width: int, policy: WidthPolicy, mask: bool, top: int
) -> tuple[list[Row], tuple[int, int]]:
    room = max(1, width - 2)
    texts, row, col = render_field(field, room, policy, mask=mask)
    rows: list[Row] = [
        ((Segment("> " if i == 0 else "  "), Segment(t)) if t else (Segment("> " if i == 0 else "  "),))
        for i, t in enumerate(texts)
    ]
    return rows, (top + row, min(width - 1, 2 + col))


@dataclass(frozen=True, slots=True)
class ConfirmDialog:
    """A yes/no question; ``reason`` is the deny-reason field once the user chose to deny."""

    request: ConfirmRequest
    choice: int = 0
    reason: TextField | None = None
    scroll: int = 0

    @property
    def id(self) -> str:
        return self.request.id

    def choices(self) -> list[tuple[str, str, str]]:
        """(key, label, action) in display order: seed 003's ``[y]es / [n]o / [a]lways / [s]ession``."""
        out = [("y", self.request.confirm_label, "ok"), ("n", self.request.cancel_label, "deny")]
        if self.request.allow_remember:  # remembering is offered only when the request allows it
            out += [("a", "Always", "always"), ("s", "Session", "session")]
        return out

    def answer_words(self) -> list[str]:
        """How each choice is answered with a typed line: ``y/yes``, ``n/no``, ``a/always``, ``s/session``."""
        return [f"{letter}/{_ACTION_WORDS.get(action, action)}" for letter, _, action in self.choices()]

    def line_key(self, line: str) -> str | None:
        """The key a whole typed line answers with (line input), or None when the line is no answer.

        The line must be one of the choices as a whole (its letter, ``yes``/``no``/``always``/``session``
        or its label, any case); an empty line is Enter (the default choice).  Nothing is read letter by
        letter: "okay" is no answer, although it holds a ``y`` and an ``a``.
        """
        word = line.strip().lower()
        if not word:
            return "enter"
        for letter, label, action in self.choices():
            if word in (letter, _ACTION_WORDS.get(action, action), flatten(label).strip().lower()):
                return letter
        return None

    def _act(self, action: str) -> tuple[Dialog | None, Output | None]:
        if action == "ok":
            return None, ConfirmAnswer(self.id, True)
        if action in REMEMBER_SCOPES:
            return None, ConfirmAnswer(self.id, True, remember=True, scope=action)
        if self.request.allow_reason and self.reason is None:
            return replace(self, reason=TextField()), None
        return None, ConfirmAnswer(self.id, False)

    def handle_key(self, key: str) -> tuple[Dialog | None, Output | None]:
        if self.reason is not None:
            if key == "enter":
                return None, ConfirmAnswer(self.id, False, reason=self.reason.text or None)
            if key == "escape":
                return None, ConfirmAnswer(self.id, False)
            edited = self.reason.edit(key)
            return (replace(self, reason=edited) if edited is not None else self), None
        choices = self.choices()
        for letter, _, action in choices:
            if key == letter:
                return self._act(action)
        if key == "escape":
            return None, ConfirmAnswer(self.id, False)
        if key == "enter":
            return self._act(choices[self.choice][2])
        if key in ("left", "s-tab", "right", "tab"):
            step = -1 if key in ("left", "s-tab") else 1
            return replace(self, choice=(self.choice + step) % len(choices)), None
        if key in ("up", "pageup"):
            return replace(self, scroll=self.scroll + (1 if key == "up" else 5)), None
        if key in ("down", "pagedown"):
            return replace(self, scroll=max(0, self.scroll - (1 if key == "down" else 5))), None
        return self, None

    def render(self, width: int, policy: WidthPolicy) -> DialogView:
        rows: list[Row] = [_title(self.request.title, width, policy, is_dangerous(self.request))]
        if self.request.message:
            rows.extend(_message(self.request, width, policy))
        rows.extend(approval_rows(self.request, width, policy))
        if self.reason is not None:
            rows.append(styled("  Reason (enter to send, esc to skip):", HINT))
            field, cursor = _field_rows(self.reason, width, policy, False, len(rows))
            rows.extend(field)
            return DialogView(tuple(rows), cursor[0], cursor)
        segments: list[Segment] = [Segment("  ")]
        used = 2
        for index, (letter, label, _) in enumerate(self.choices()):
            text = f"[{letter}] {flatten(label)}"
            piece, cells = clip_to_width(text, max(0, width - used), policy)
            if not piece:
                break
            segments.append(Segment(piece, SELECTED if index == self.choice else DEFAULT))
            used += cells
            if used + 2 < width:
                segments.append(Segment("  "))
                used += 2
        rows.append(tuple(segments))
        return DialogView(tuple(rows), max(0, len(rows) - 1 - self.scroll))


@dataclass(frozen=True, slots=True)
class PromptDialog:
    """A text question; escape answers ``None``."""

    request: PromptRequest
    field: TextField

    @property
    def id(self) -> str:
        return self.request.id

    def handle_key(self, key: str) -> tuple[Dialog | None, Output | None]:
        if key == "enter":
            return None, PromptAnswer(self.id, self.field.text)
        if key == "escape":
            return None, PromptAnswer(self.id, None)
        if key == "c-j" and not self.request.multiline:
            return self, None
        edited = self.field.edit(key)
        return (replace(self, field=edited) if edited is not None else self), None

    def paste(self, text: str) -> PromptDialog:
        if not self.request.multiline:
            text = text.replace("\r\n", " ").replace("\n", " ")
        return replace(self, field=self.field.insert(text))

    def render(self, width: int, policy: WidthPolicy) -> DialogView:
        rows: list[Row] = [_title(self.request.title, width, policy, False)]
        if self.request.message:
            rows.extend(_message(self.request, width, policy))
        field, cursor = _field_rows(self.field, width, policy, self.request.secret, len(rows))
        if not self.field.text and self.request.placeholder:
            piece, _ = clip_to_width(flatten(self.request.placeholder), max(0, width - 2), policy)
            field[0] = (Segment("> "), Segment(piece, DIM))
        rows.extend(field)
        hint = "enter: send, ctrl-j: new line, esc: cancel" if self.request.multiline else "enter: send, esc: cancel"
        rows.append(styled(clip_to_width("  " + hint, width, policy)[0], HINT))
        return DialogView(tuple(rows), cursor[0], cursor)


@dataclass(frozen=True, slots=True)
class PickDialog:
    """A list to choose from: arrows move, typing filters, space toggles (multi), enter answers."""

    request: PickRequest
    filter: str = ""
    highlight: int = 0
    chosen: frozenset[str] = frozenset()

    @property
    def id(self) -> str:
        return self.request.id

    def visible(self) -> list[int]:
        """Indices of the options matching the filter (case-insensitive substring)."""
        needle = self.filter.casefold()
        return [i for i, o in enumerate(self.request.options) if needle in o.label.casefold()]

    def handle_key(self, key: str) -> tuple[Dialog | None, Output | None]:
        shown = self.visible()
        if key == "escape":
            return None, PickAnswer(self.id, ())
        if key == "enter":
            if self.request.multi and self.chosen:
                ids = tuple(o.id for o in self.request.options if o.id in self.chosen)
                return None, PickAnswer(self.id, ids)
            if not shown:
                return self, None
            return None, PickAnswer(self.id, (self.request.options[shown[self.highlight]].id,))
        if key in ("up", "c-p", "down", "c-n", "pageup", "pagedown"):
            step = {"up": -1, "c-p": -1, "down": 1, "c-n": 1, "pageup": -5, "pagedown": 5}[key]
            return replace(self, highlight=max(0, min(len(shown) - 1, self.highlight + step))), None
        if key == " " and self.request.multi:
            if not shown:
                return self, None
            option = self.request.options[shown[self.highlight]].id
            return replace(self, chosen=self.chosen ^ {option}), None
        if key == "backspace":
            return replace(self, filter=self.filter[:-1], highlight=0), None
        if len(key) == 1 and key.isprintable():
            return replace(self, filter=self.filter + key, highlight=0), None
        return self, None

    def paste(self, text: str) -> PickDialog:
        return replace(self, filter=self.filter + flatten(text), highlight=0)

    def render(self, width: int, policy: WidthPolicy) -> DialogView:
        rows: list[Row] = [_title(self.request.title, width, policy, False)]
        if self.request.message:
            rows.extend(_message(self.request, width, policy))
        if self.filter:
            rows.append(styled(clip_to_width(f"  filter: {flatten(self.filter)}", width, policy)[0], DIM))
        shown = self.visible()
        focus = len(rows)
        if not shown:
            rows.append(styled(clip_to_width("  (no match)", width, policy)[0], DIM))
        for position, index in enumerate(shown):
            option = self.request.options[index]
            mark = "\u203a " if position == self.highlight else "  "
            box = ("[x] " if option.id in self.chosen else "[ ] ") if self.request.multi else ""
            piece, _ = clip_to_width(mark + box + flatten(option.label), width, policy)
            if position == self.highlight:
                focus = len(rows)
            rows.append(styled(piece, SELECTED if position == self.highlight else DEFAULT))
            if option.description:  # the detail on its own dim row, under the label (seed 004's pick items)
                indent = " " * (len(mark) + len(box) + 2)
                rows.append(styled(clip_to_width(indent + flatten(option.description), width, policy)[0], DIM))
        hint = "space: toggle, enter: done, esc: cancel" if self.request.multi else "enter: choose, esc: cancel"
        rows.append(styled(clip_to_width("  " + hint, width, policy)[0], HINT))
        return DialogView(tuple(rows), focus)


Dialog = Union[ConfirmDialog, PromptDialog, PickDialog, FormDialog]


def open_dialog(request: ConfirmRequest | PromptRequest | PickRequest | FormRequest) -> Dialog:
    """The initial dialog for a request (a prompt starts with its default text, a form with its defaults)."""
    if isinstance(request, FormRequest):
        return open_form(request)
    if isinstance(request, ConfirmRequest):
        dialog = ConfirmDialog(request)
        # A dangerous question defaults to the cancel choice.
        deny = [action for _, _, action in dialog.choices()].index("deny")
        return replace(dialog, choice=deny) if is_dangerous(request) else dialog
    if isinstance(request, PromptRequest):
        return PromptDialog(request, TextField().set(request.default))
    return PickDialog(request)
