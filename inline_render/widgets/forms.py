"""Forms (seed 003's manual tools): a dialog of typed fields, and the value rules shared with slash commands.

A ``FormRequest`` lists ``FormField``s (``text``, ``number``, ``select``,
``boolean``; ``required``, ``default``, ``description``, a select's
``options``).  ``FormDialog`` is the modal dialog that fills them: Tab / Down
and Shift-Tab / Up move between fields, typing edits a text or number field,
Left / Right / Space (or an option's first letter; y/n for a boolean) change a
select or a boolean, Enter moves on and, on the last field, submits; Esc
dismisses (the answer's values are ``None``).  A
submit that does not validate (a number field holding ``abc``, a required
field left empty) keeps the form open, moves to the field and shows the message
under it.

``convert_value`` is the one rule for turning typed text into a field's value:
the form uses it, and so do slash commands for ``--arg value``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..errors import InvalidInput
from ..inputs import FormField, FormRequest
from ..outputs import FormAnswer, FormValue
from ..text.cells import WidthPolicy, clip_to_width, flatten
from ..text.roles import DANGER, DIM, HINT, SELECTED, TITLE
from ..text.style import DEFAULT, Row, Segment, styled
from .composer import TextField, render_field
from .view import DialogView, wrapped_message

__all__ = ["FormDialog", "convert_value", "field_hint", "field_summary", "finish_values", "open_form"]

_TRUE = frozenset({"true", "yes", "y", "1", "on"})
_FALSE = frozenset({"false", "no", "n", "0", "off"})


def field_hint(field: FormField) -> str:
    """What a field takes, as seed 003's CLI shows it: ``(origin/upstream)``, ``(true/false)``, ``(number)``."""
    if field.kind == "select":
        return f"({'/'.join(field.options)})"
    if field.kind == "boolean":
        return "(true/false)"
    return "(number)" if field.kind == "number" else ""


def field_summary(field: FormField) -> str:
    """One line per field for a transcript, as seed 003's ``-i`` prompt: ``remote (origin/upstream) [origin]``."""
    name = f"{field.name}*" if field.required else field.name
    default = f"[{_plain(field.default)}]" if field.default is not None else ""
    head = " ".join(part for part in (name, field_hint(field), default) if part)
    return f"{head} - {field.description}" if field.description else head


def convert_value(field: FormField, raw: str) -> FormValue:
    """The value of ``raw`` typed into ``field``; ``InvalidInput`` says what is wrong in the user's words.

    Empty text is the field's default (``None`` without one); a required field must end up with a value.
    """
    text = raw.strip()
    if not text:
        if field.default is None and field.required:
            raise InvalidInput(f"{field.name} is required")
        return field.default
    if field.kind == "number":
        try:
            number = float(text)
        except ValueError:
            raise InvalidInput(f"{field.name} must be a number, got {text!r}") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise InvalidInput(f"{field.name} must be a finite number, got {text!r}")
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if field.kind == "boolean":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise InvalidInput(f"{field.name} must be true or false, got {text!r}")
    if field.kind == "select" and text not in field.options:
        raise InvalidInput(f"{field.name} must be one of {', '.join(field.options)}, got {text!r}")
    return text


def finish_values(fields: tuple[FormField, ...], given: dict[str, FormValue]) -> dict[str, FormValue]:
    """Every field's value in order: what was ``given``, else its default; a missing required one raises."""
    out: dict[str, FormValue] = {}
    for field in fields:
        value = given.get(field.name, field.default)
        if value is None and field.kind == "boolean":
            value = False  # an unset flag is off, as an untouched checkbox in the form
        if value is None and field.required:
            raise InvalidInput(f"{field.name} is required")
        out[field.name] = value
    return out


def _initial_choice(field: FormField) -> int:
    if field.kind == "boolean":
        return 1 if field.default is True else 0
    if field.kind == "select" and field.options:
        return field.options.index(field.default) if field.default in field.options else 0
    return 0


def _next_starting(options: tuple[str, ...], current: int, letter: str) -> int:
    """The next option after ``current`` whose name starts with ``letter`` (case-insensitive); else ``current``.

    Typed lines (piped input types each line into the focused field) choose an option by its name's
    first letter, so ``upstream`` + Enter picks "upstream" as seed 003's ``-i`` prompt takes it.
    """
    count = len(options)
    for step in range(1, count + 1):
        candidate = (current + step) % count
        if options[candidate][:1].lower() == letter.lower():
            return candidate
    return current


def open_form(request: FormRequest) -> FormDialog:
    """The initial form: text fields hold their default, selects and booleans start at theirs."""
    texts = tuple(
        TextField().set("" if f.default is None or f.kind in ("select", "boolean") else _plain(f.default))
        for f in request.fields
    )
    return FormDialog(request, texts, tuple(_initial_choice(f) for f in request.fields))


def _plain(value: FormValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"  # as typed (and as seed 003's prompt shows it)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True, slots=True)
class FormDialog:
    """A form being filled: the text of each text/number field, the choice of each select/boolean, the focus."""

    request: FormRequest
    texts: tuple[TextField, ...]
    choices: tuple[int, ...]
    focus: int = 0
    error: str = ""

    @property
    def id(self) -> str:
        return self.request.id

    def _field(self) -> FormField | None:
        fields = self.request.fields
        return fields[self.focus] if 0 <= self.focus < len(fields) else None

    def _move(self, step: int) -> FormDialog:
        count = max(1, len(self.request.fields))
        return replace(self, focus=(self.focus + step) % count)

    def submit(self) -> tuple[FormDialog | None, FormAnswer | None]:
        """Validate every field: the answer, or the form again showing the first problem at its field."""
        values: list[tuple[str, FormValue]] = []
        for index, field in enumerate(self.request.fields):
            try:
                if field.kind == "boolean":
                    value: FormValue = self.choices[index] == 1
                elif field.kind == "select":
                    value = field.options[self.choices[index]] if field.options else None
                    if value is None and field.required:
                        raise InvalidInput(f"{field.name} has no option to choose")
                else:
                    value = convert_value(field, self.texts[index].text)
            except InvalidInput as error:
                return replace(self, focus=index, error=str(error)), None
            values.append((field.name, value))
        return None, FormAnswer(self.id, tuple(values))

    def handle_key(self, key: str) -> tuple[FormDialog | None, FormAnswer | None]:
        if key == "escape":
            return None, FormAnswer(self.id, None)
        field = self._field()
        if key == "enter":
            if field is None or self.focus == len(self.request.fields) - 1:
                return self.submit()
            return self._move(1), None
        if key in ("tab", "down", "c-n"):
            return self._move(1), None
        if key in ("s-tab", "up", "c-p"):
            return self._move(-1), None
        if field is None:
            return self, None
        index = self.focus
        if field.kind in ("select", "boolean"):
            count = len(field.options) if field.kind == "select" else 2
            step = {"left": -1, "right": 1, " ": 1}.get(key)
            if field.kind == "boolean" and key.lower() in ("y", "t", "n", "f"):
                choice = 1 if key.lower() in ("y", "t") else 0
            elif field.kind == "select" and step is None and len(key) == 1 and key.isprintable():
                choice = _next_starting(field.options, self.choices[index], key)  # typing picks, as in a list box
            elif step is None or count == 0:
                return self, None
            else:
                choice = (self.choices[index] + step) % count
            choices = (*self.choices[:index], choice, *self.choices[index + 1 :])
            return replace(self, choices=choices, error=""), None
        if key == "c-j":
            return self, None  # one-line fields
        edited = self.texts[index].edit(key)
        if edited is None:
            return self, None
        return replace(self, texts=(*self.texts[:index], edited, *self.texts[index + 1 :]), error=""), None

    def paste(self, text: str) -> FormDialog:
        field = self._field()
        if field is None or field.kind in ("select", "boolean"):
            return self
        line = text.replace("\r\n", " ").replace("\n", " ")
        edited = self.texts[self.focus].insert(line)
        return replace(self, texts=(*self.texts[: self.focus], edited, *self.texts[self.focus + 1 :]), error="")

    def render(self, width: int, policy: WidthPolicy) -> DialogView:
        """Title, message, one row per field (the focused one with its description and error), the hint."""
        rows: list[Row] = [styled(clip_to_width("? " + flatten(self.request.title), width, policy)[0], TITLE)]
        if self.request.message:  # wrapped as every dialog's message (tabs expanded: a tab never reaches the wire)
            rows.extend(wrapped_message(self.request.message, width, policy))
        focus_row, cursor = len(rows), None
        for index, field in enumerate(self.request.fields):
            focused = index == self.focus
            label = f"{flatten(field.name)}{'*' if field.required else ''}: "
            head = ("\u203a " if focused else "  ") + label
            head, used = clip_to_width(head, width, policy)
            if focused:
                focus_row = len(rows)
            if field.kind in ("select", "boolean"):
                value = self._choice_text(index, field)
                piece, _ = clip_to_width(value, max(0, width - used), policy)
                value_style = SELECTED if focused else DEFAULT
                rows.append((Segment(head, TITLE if focused else DEFAULT), Segment(piece, value_style)))
            else:
                room = max(1, width - used)
                texts, crow, ccol = render_field(self.texts[index], room, policy)
                for n, text in enumerate(texts):
                    lead = head if n == 0 else " " * used
                    piece, _ = clip_to_width(text, room, policy)
                    rows.append((Segment(lead, TITLE if focused and n == 0 else DEFAULT), Segment(piece)))
                if focused and used < width:
                    cursor = (focus_row + crow, min(width - 1, used + ccol))
            if focused and field.description:
                rows.append(styled(clip_to_width("    " + flatten(field.description), width, policy)[0], DIM))
            if focused and self.error:
                rows.append(styled(clip_to_width("    \u2717 " + flatten(self.error), width, policy)[0], DANGER))
        hint = "tab: next, enter: next/submit, esc: cancel"
        rows.append(styled(clip_to_width("  " + hint, width, policy)[0], HINT))
        return DialogView(tuple(rows), focus_row, cursor)

    def _choice_text(self, index: int, field: FormField) -> str:
        if field.kind == "boolean":
            return "[x] true" if self.choices[index] == 1 else "[ ] false"
        if not field.options:
            return "(no options)"
        return f"< {flatten(field.options[self.choices[index]])} >  {flatten(field_hint(field))}"
