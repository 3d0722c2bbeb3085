"""An editable text field (the composer, and a prompt dialog's input): pure editing and wrapping."""

from __future__ import annotations

from dataclasses import dataclass, field

import wcwidth

from ..text.cells import WidthPolicy, clip_to_width, sanitize, text_width, wrap_line

__all__ = ["KEY_ALIASES", "MENU_ROWS", "Composer", "TextField", "is_text_key", "normalize_key", "render_field"]

MENU_ROWS = 5  # completion menu rows shown under the composer's text (a window around the selection)

# prompt_toolkit names several keys by their control code; we accept both spellings.
KEY_ALIASES = {
    "c-m": "enter",
    "c-h": "backspace",
    "c-i": "tab",
    "space": " ",
    "c-@": "c-space",
    "escape enter": "m-enter",
    "escape b": "m-b",
    "escape f": "m-f",
}


def normalize_key(key: str) -> str:
    """The canonical name of a prompt_toolkit key name or alias."""
    return KEY_ALIASES.get(key, key)


def is_text_key(key: str) -> bool:
    """A key that types text: one grapheme cluster that is not a control."""
    if len(key) == 1:
        return key.isprintable() or key == " "
    return len(key) > 1 and not key.isascii() and sanitize(key) == key and len(list(wcwidth.iter_graphemes(key))) == 1


def _prev_boundary(text: str, position: int) -> int:
    return wcwidth.grapheme_boundary_before(text, position) if position > 0 else 0


def _next_boundary(text: str, position: int) -> int:
    if position >= len(text):
        return len(text)
    for cluster in wcwidth.iter_graphemes(text, position):
        return position + len(cluster)
    return len(text)


def _word_left(text: str, position: int) -> int:
    while position > 0 and text[position - 1].isspace():
        position -= 1
    while position > 0 and not text[position - 1].isspace():
        position -= 1
    return position


def _word_right(text: str, position: int) -> int:
    size = len(text)
    while position < size and text[position].isspace():
        position += 1
    while position < size and not text[position].isspace():
        position += 1
    return position


@dataclass(frozen=True, slots=True)
class TextField:
    """Text and a cursor offset (always at a grapheme boundary)."""

    text: str = ""
    cursor: int = 0

    def insert(self, text: str) -> TextField:
        """Insert sanitized text at the cursor (tabs become four spaces)."""
        clean = sanitize(text).replace("\t", "    ")
        if not clean:
            return self
        return TextField(self.text[: self.cursor] + clean + self.text[self.cursor :], self.cursor + len(clean))

    def set(self, text: str) -> TextField:
        """Replace the whole text; the cursor goes to the end."""
        clean = sanitize(text).replace("\t", "    ")
        return TextField(clean, len(clean))

    def edit(self, key: str) -> TextField | None:
        """Apply an editing key; ``None`` when the key is not an editing key."""
        text, cursor = self.text, self.cursor
        line_start = text.rfind("\n", 0, cursor) + 1
        line_end = text.find("\n", cursor)
        line_end = len(text) if line_end < 0 else line_end
        if is_text_key(key):
            return self.insert(key)
        moves = {
            "left": lambda: _prev_boundary(text, cursor),
            "c-b": lambda: _prev_boundary(text, cursor),
            "right": lambda: _next_boundary(text, cursor),
            "c-f": lambda: _next_boundary(text, cursor),
            "home": lambda: line_start,
            "c-a": lambda: line_start,
            "end": lambda: line_end,
            "c-e": lambda: line_end,
            "c-left": lambda: _word_left(text, cursor),
            "m-b": lambda: _word_left(text, cursor),
            "c-right": lambda: _word_right(text, cursor),
            "m-f": lambda: _word_right(text, cursor),
            "up": lambda: self._vertical(-1),
            "down": lambda: self._vertical(1),
        }
        if key in moves:
            return TextField(text, moves[key]())
        deletions = {
            "backspace": lambda: (_prev_boundary(text, cursor), cursor),
            "delete": lambda: (cursor, _next_boundary(text, cursor)),
            "c-d": lambda: (cursor, _next_boundary(text, cursor)),
            "c-w": lambda: (_word_left(text, cursor), cursor),
            "c-u": lambda: (line_start, cursor),
            "c-k": lambda: (cursor, line_end if line_end > cursor else min(len(text), cursor + 1)),
        }
        if key in deletions:
            start, end = deletions[key]()
            return TextField(text[:start] + text[end:], start)
        if key in ("c-j", "m-enter"):
            return self.insert("\n")
        return None

    def _vertical(self, step: int) -> int:
        """Same column on the previous/next logical line (by display width)."""
        text, cursor = self.text, self.cursor
        line_start = text.rfind("\n", 0, cursor) + 1
        column = text_width(text[line_start:cursor])
        if step < 0:
            if line_start == 0:
                return 0
            target_start = text.rfind("\n", 0, line_start - 1) + 1
            target_end = line_start - 1
        else:
            newline = text.find("\n", cursor)
            if newline < 0:
                return len(text)
            target_start = newline + 1
            following = text.find("\n", target_start)
            target_end = len(text) if following < 0 else following
        position = target_start
        while position < target_end:
            following_boundary = _next_boundary(text, position)
            if text_width(text[target_start:following_boundary]) > column:
                break
            position = following_boundary
        return position


@dataclass(frozen=True, slots=True)
class Composer(TextField):
    """The composer: a text field with history, undo, a kill ring, reverse search and a completion menu.

    Only the fields that change what is drawn take part in equality (and so in the layout's row cache):
    the text, the cursor, the menu and the search.  History, undo/redo, the kill ring and collapsed
    pastes are carried along (compare=False).  Editing is in ``inline_render.widgets.editor``.
    """

    menu: tuple[str, ...] = ()
    """Completions on offer (each the text that replaces the ``replace`` characters before the cursor)."""
    menu_meta: tuple[str, ...] = ()
    selected: int = 0
    replace: int = 0
    search: str | None = None
    """The Ctrl-R query while searching the history (the text is the match)."""
    history: tuple[str, ...] = field(default=(), compare=False, repr=False)
    history_pos: int = field(default=-1, compare=False)
    draft: str = field(default="", compare=False, repr=False)
    undo: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)
    redo: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)
    kill_ring: tuple[str, ...] = field(default=(), compare=False, repr=False)
    pastes: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)
    typing: bool = field(default=False, compare=False)
    vi_normal: bool = field(default=False, compare=False)
    """In vi mode (``Config.vi_mode``): normal mode (Esc entered it; ``i``/``a``/``A``/``I`` leave it)."""


def _menu_rows(field: Composer, width: int, policy: WidthPolicy) -> list[str]:
    """The menu (a window of ``MENU_ROWS`` around the selection) or the search line, clipped to ``width``."""
    if field.search is not None:
        found = "" if field.text or not field.search else " (no match)"
        return [clip_to_width(f"search: {field.search}{found}", width, policy)[0]]
    start = max(0, min(field.selected - MENU_ROWS // 2, len(field.menu) - MENU_ROWS))
    rows = []
    for index in range(start, min(len(field.menu), start + MENU_ROWS)):
        mark = "\u25b8 " if index == field.selected else "  "
        meta = field.menu_meta[index] if index < len(field.menu_meta) else ""
        rows.append(clip_to_width(f"{mark}{field.menu[index]}{'  ' + meta if meta else ''}", width, policy)[0])
    return rows


def render_field(
    field: TextField, width: int, policy: WidthPolicy, *, mask: bool = False
) -> tuple[list[str], int, int]:
    """Wrap a field for ``width`` cells: its row texts and the cursor's (row, column).

    With ``mask`` every cluster shows as ``*`` (secret input).
    """
    text = field.text
    cursor = field.cursor
    if mask:
        clusters = list(wcwidth.iter_graphemes(text))
        before = len(list(wcwidth.iter_graphemes(text[:cursor])))
        text = "".join("\n" if c == "\n" else "*" for c in clusters)
        cursor = before
    rows: list[str] = []
    cursor_row = cursor_col = 0
    line_start = 0
    for line in text.split("\n"):
        line_end = line_start + len(line)
        base = line_start
        start = 0
        for end in wrap_line(line, width, policy):
            if base + start <= cursor <= base + end:
                cursor_row = len(rows)
                cursor_col = text_width(line[start : cursor - base], policy)
            rows.append(line[start:end])
            start = end
        line_start = line_end + 1
    if cursor_col >= width:
        # The cursor sits after a full row (or hanging spaces): it starts a new row.
        if cursor_row + 1 == len(rows):
            rows.append("")
        cursor_row += 1
        cursor_col = 0
    if isinstance(field, Composer) and (field.menu or field.search is not None):
        rows += _menu_rows(field, width, policy)  # the menu is part of the composer's layout, under its text
    return rows, cursor_row, cursor_col
