"""The composer's editing (pure): keys in, a new ``Composer`` and at most one output out.

Part of stage 1 (``reduce_inputs`` calls ``composer_key``): no I/O, no clock.
Word motions come from prompt_toolkit's ``Document`` (the same rules as its
emacs bindings); grapheme-aware left/right and vertical moves by display width
from ``TextField``.  Keys (emacs flavour, as readline and prompt_toolkit):

* history: Up on the first line / Down on the last line browse the submitted
  lines (the line being written is kept as a draft); Ctrl-R searches backwards
  (type to refine, Ctrl-R again for older, Enter keeps the match, Esc/Ctrl-G
  restores the draft).  The shell loads and saves it (``AppOptions.history_file``).
* undo Ctrl-Z / Ctrl-_ (a run of typing is one step), redo Alt-Z.
* kill ring: Ctrl-K, Ctrl-U, Ctrl-W, Alt-Backspace, Alt-D kill; Ctrl-Y yanks.
* completion: Tab asks the shell (``CompleteRequest`` output; the answer is a
  ``Completions`` input); several matches open a menu under the text (Tab/Down,
  Shift-Tab/Up move, Enter or Tab... accept, Esc closes); a single match is applied.
* vi mode (``Config.vi_mode``, ``AppOptions.vi_mode``): Esc enters normal mode (h l 0 $ w b e
  j k x D C u Ctrl-R, i a A I back to insert; Esc again interrupts).
* a paste longer than ``PASTE_COLLAPSE_LINES`` lines or ``PASTE_COLLAPSE_CHARS``
  characters shows as one placeholder; Enter submits the full text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from prompt_toolkit.document import Document

from ..inputs import Completions
from ..outputs import CompleteRequest, Interrupt, Output, Quit, Submit
from ..text.cells import flatten, sanitize
from .composer import Composer, TextField, is_text_key, normalize_key

__all__ = [
    "PASTE_COLLAPSE_CHARS",
    "PASTE_COLLAPSE_LINES",
    "apply_completions",
    "composer_key",
    "composer_paste",
    "composer_set",
    "expand_pastes",
    "with_history",
]

PASTE_COLLAPSE_LINES = 10
PASTE_COLLAPSE_CHARS = 1000
_UNDO_DEPTH = 100
_KILL_DEPTH = 20
_HISTORY_DEPTH = 1000


# Every slot of Composer (its own and TextField's), for ``_copy``.
_SLOTS = tuple(name for cls in reversed(Composer.__mro__) for name in cls.__dict__.get("__slots__", ()))


_COPIERS: dict[tuple[str, ...], Callable[..., Composer]] = {}


def _copier(changed: tuple[str, ...]) -> Callable[..., Composer]:
    """Straight-line code copying a Composer with the ``changed`` slots given, made once per call site's
    names (as ``inline_render.core.evolve`` does for the state): a keystroke's copy at a fraction of ``replace``."""
    body = [f"    _set(new, {n!r}, {n if n in changed else 'composer.' + n})" for n in _SLOTS]
    source = f"def _copy(composer, {', '.join(changed)}):\n    new = _new(_cls)\n" + "\n".join(body)
    namespace: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "_cls": Composer}
    exec(source + "\n    return new\n", namespace)  # built from the class's own slot names only
    copy: Callable[..., Composer] = namespace["_copy"]
    return copy


def _copy(composer: Composer, **changes: Any) -> Composer:
    """``dataclasses.replace`` for Composer (every slot, TextField's too)."""
    names = tuple(changes)
    copy = _COPIERS.get(names)
    if copy is None:
        if not set(names) <= set(_SLOTS):
            raise TypeError(f"Composer has no field {sorted(set(names) - set(_SLOTS))[0]!r}")
        copy = _COPIERS[names] = _copier(names)
    return copy(composer, **changes)


def _field(composer: Composer, text: str, cursor: int, *, merge: bool = False, **changes: object) -> Composer:
    """A new composer with ``text``/``cursor``: an edit closes the menu and pushes one undo step
    (``merge``: typing, where a run of keys is one step)."""
    if text == composer.text:
        return _copy(composer, cursor=cursor, menu=(), menu_meta=(), typing=False, **changes)
    undo = composer.undo
    if not (merge and composer.typing):
        undo = (*undo[-_UNDO_DEPTH + 1 :], (composer.text, composer.cursor))
    return _copy(composer, text=text, cursor=cursor, menu=(), menu_meta=(), undo=undo, redo=(), typing=merge, **changes)


def composer_set(composer: Composer, text: str) -> Composer:
    """Replace the whole text (``editor.set``), cursor at the end; undoable."""
    clean = TextField().set(text)
    return _field(composer, clean.text, clean.cursor, history_pos=-1, search=None)


def composer_paste(composer: Composer, text: str) -> Composer:
    """Insert a paste as one edit; a large one as a placeholder that ``expand_pastes`` turns back into it."""
    clean = sanitize(text.replace("\r\n", "\n")).replace("\t", "    ")
    if clean.count("\n") + 1 > PASTE_COLLAPSE_LINES or len(clean) > PASTE_COLLAPSE_CHARS:
        label = f"[Pasted text #{len(composer.pastes) + 1}: {clean.count(chr(10)) + 1} lines, {len(clean)} chars]"
        field = TextField(composer.text, composer.cursor).insert(label)
        return _field(composer, field.text, field.cursor, pastes=(*composer.pastes, (label, clean)))
    field = TextField(composer.text, composer.cursor).insert(clean)
    return _field(composer, field.text, field.cursor)


def expand_pastes(composer: Composer, text: str) -> str:
    """``text`` with every collapsed-paste placeholder still in it replaced by the pasted text."""
    for label, pasted in composer.pastes:
        text = text.replace(label, pasted)
    return text


def with_history(composer: Composer, lines: tuple[str, ...]) -> Composer:
    """The composer with ``lines`` (oldest first) as its history (a ``history.set`` input)."""
    # A history file is untrusted text like any other: controls become visible before they can be drawn.
    clean = tuple(TextField().set(line).text for line in lines[-_HISTORY_DEPTH:])
    return replace(composer, history=clean, history_pos=-1)


def apply_completions(composer: Composer, item: Completions) -> Composer:
    """Offer completions computed for this text and cursor (stale ones are dropped)."""
    if item.text != composer.text or item.cursor != composer.cursor or not item.items:
        return composer
    # Completions come from app code reading the disk: one inert row each, before they are drawn or inserted.
    items = tuple(flatten(text) for text in item.items)
    meta = tuple(flatten(text) for text in item.meta)
    if len(items) == 1:
        return _accept(replace(composer, menu=items, replace=item.replace, selected=0))
    return replace(composer, menu=items, menu_meta=meta, replace=item.replace, selected=0)


def _accept(composer: Composer) -> Composer:
    start = max(0, composer.cursor - composer.replace)
    chosen = composer.menu[composer.selected]
    text = composer.text[:start] + chosen + composer.text[composer.cursor :]
    return _field(composer, text, start + len(chosen))


def _kill(composer: Composer, start: int, end: int) -> Composer:
    if start == end:
        return composer
    killed = composer.text[start:end]
    ring = (*composer.kill_ring[-_KILL_DEPTH + 1 :], killed)
    return _field(composer, composer.text[:start] + composer.text[end:], start, kill_ring=ring)


def _browse(composer: Composer, step: int) -> Composer:
    """Up/Down through the history; past the newest line comes the draft back."""
    history = composer.history
    pos = composer.history_pos
    if pos < 0:
        if step > 0 or not history:
            return composer
        target, draft = len(history) - 1, composer.text
    else:
        target, draft = pos + step, composer.draft
    if target < 0:
        return composer
    text = draft if target >= len(history) else history[target]
    return replace(
        composer,
        text=text,
        cursor=len(text),
        history_pos=-1 if target >= len(history) else target,
        draft=draft,
        menu=(),
        typing=False,
    )


def _search(composer: Composer, query: str, before: int) -> Composer:
    """The newest history line older than index ``before`` containing ``query`` (the text stays if none)."""
    for index in range(min(before, len(composer.history)) - 1, -1, -1):
        if query in composer.history[index]:
            line = composer.history[index]
            return replace(composer, search=query, text=line, cursor=line.find(query), history_pos=index)
    return replace(composer, search=query, text="" if query else composer.text, cursor=0, history_pos=-1)


def _search_key(composer: Composer, key: str) -> Composer:
    query = composer.search or ""
    if key == "c-r":
        return _search(composer, query, composer.history_pos if composer.history_pos >= 0 else len(composer.history))
    if key in ("escape", "c-g", "c-c"):
        return replace(composer, search=None, text=composer.draft, cursor=len(composer.draft), history_pos=-1)
    if key == "backspace":
        return _search(composer, query[:-1], len(composer.history))
    if is_text_key(key):
        return _search(composer, query + key, len(composer.history))
    # Any other key keeps the match and leaves the search (Enter just keeps it, to be edited or sent).
    return replace(composer, search=None, history_pos=-1, draft="")


def _menu_key(composer: Composer, key: str) -> Composer | None:
    count = len(composer.menu)
    if key in ("tab", "down", "c-n"):
        return replace(composer, selected=(composer.selected + 1) % count)
    if key in ("s-tab", "up", "c-p"):
        return replace(composer, selected=(composer.selected - 1) % count)
    if key == "enter":
        return _accept(composer)
    if key in ("escape", "c-g"):
        return replace(composer, menu=(), menu_meta=())
    return None  # any other key closes the menu and does what it does


def _word_left(composer: Composer) -> int:
    offset = Document(composer.text, composer.cursor).find_previous_word_beginning()
    return composer.cursor + (offset or -composer.cursor)


def _word_right(composer: Composer) -> int:
    offset = Document(composer.text, composer.cursor).find_next_word_ending()
    return composer.cursor + (offset or len(composer.text) - composer.cursor)


def _vi_normal(composer: Composer, key: str) -> tuple[Composer, str | None]:
    """A key in vi normal mode: the new composer, or the emacs-style key it stands for (None: consumed)."""
    text, cursor = composer.text, composer.cursor
    document = Document(text, cursor)
    line_start = cursor + document.get_start_of_line_position()
    line_end = cursor + document.get_end_of_line_position()
    inserting = {
        "i": cursor,
        "a": min(line_end, cursor + 1),
        "A": line_end,
        "I": line_start,
    }
    if key in inserting:
        return _copy(composer, cursor=inserting[key], vi_normal=False, typing=False), None
    aliases = {"h": "left", "l": "right", "0": "home", "$": "end", "b": "m-b", "k": "up", "j": "down", "u": "c-z"}
    aliases |= {"x": "delete", "D": "c-k", "c-r": "m-z", "e": "m-f"}
    if key == "w":
        offset = document.find_next_word_beginning() or (len(text) - cursor)
        return _copy(composer, cursor=cursor + offset, typing=False), None
    if key == "C":
        return _copy(_kill(composer, cursor, line_end), vi_normal=False), None
    if key in aliases:
        return composer, aliases[key]
    if key in ("enter", "escape", "c-d", "tab", "up", "down", "left", "right", "home", "end", "backspace"):
        return composer, key
    return composer, None  # other keys type nothing in normal mode


def composer_key(composer: Composer, key: str, *, vi: bool = False) -> tuple[Composer, Output | None, str | None]:
    """Apply one key (``vi``: vi editing): the new composer, an output (Submit, Interrupt, Quit,
    CompleteRequest) and the text to log as the user's line (on submit: collapsed pastes expanded)."""
    key = normalize_key(key)
    if vi and not composer.search and not composer.menu:
        if not composer.vi_normal and key == "escape":
            # Esc leaves insert mode (the cursor steps back onto the last character typed, as in vi).
            start = composer.text.rfind("\n", 0, composer.cursor) + 1
            return _copy(composer, vi_normal=True, cursor=max(start, composer.cursor - 1), typing=False), None, None
        if composer.vi_normal:
            composer, mapped = _vi_normal(composer, key)
            if mapped is None:
                return composer, None, None
            key = mapped
    if composer.search is not None:
        return _search_key(composer, key), None, None  # Enter ends the search, keeping the match to edit
    if composer.menu:
        handled = _menu_key(composer, key)
        if handled is not None:
            return handled, None, None
        composer = replace(composer, menu=(), menu_meta=())
    text, cursor = composer.text, composer.cursor
    if key == "enter":
        if not text.strip():
            return composer, None, None
        full = expand_pastes(composer, text)
        history = composer.history if composer.history[-1:] == (full,) else (*composer.history, full)
        done = Composer(history=history[-_HISTORY_DEPTH:], kill_ring=composer.kill_ring)
        return done, Submit(full), full
    if key == "escape":
        return composer, Interrupt("escape"), None
    if key == "c-d" and not text:
        return composer, Quit(), None
    if is_text_key(key):
        field = TextField(text, cursor).insert(key)
        return _field(composer, field.text, field.cursor, merge=True), None, None
    if key == "tab":
        return composer, CompleteRequest(text, cursor), None
    if key == "c-r":
        return _search(replace(composer, draft=text), "", len(composer.history)), None, None
    if key in ("up", "down"):
        document = Document(text, cursor)
        step = -1 if key == "up" else 1
        if (step < 0 and document.on_first_line) or (step > 0 and document.on_last_line):
            return _browse(composer, step), None, None
    if key in ("c-z", "c-_") and composer.undo:
        previous = composer.undo[-1]
        redo = (*composer.redo, (text, cursor))
        return replace(composer, text=previous[0], cursor=previous[1], undo=composer.undo[:-1], redo=redo), None, None
    if key == "m-z" and composer.redo:
        following = composer.redo[-1]
        undo = (*composer.undo, (text, cursor))
        return replace(composer, text=following[0], cursor=following[1], redo=composer.redo[:-1], undo=undo), None, None
    line_start = text.rfind("\n", 0, cursor) + 1
    line_end = text.find("\n", cursor)
    line_end = len(text) if line_end < 0 else line_end
    kills = {
        "c-k": lambda: (cursor, line_end if line_end > cursor else min(len(text), cursor + 1)),
        "c-u": lambda: (line_start, cursor),
        "c-w": lambda: (_word_left(composer), cursor),
        "m-backspace": lambda: (_word_left(composer), cursor),
        "m-d": lambda: (cursor, _word_right(composer)),
    }
    if key in kills:
        return _kill(composer, *kills[key]()), None, None
    if key == "c-y" and composer.kill_ring:
        field = TextField(text, cursor).insert(composer.kill_ring[-1])
        return _field(composer, field.text, field.cursor), None, None
    if key in ("m-b", "c-left"):
        return replace(composer, cursor=_word_left(composer), typing=False), None, None
    if key in ("m-f", "c-right"):
        return replace(composer, cursor=_word_right(composer), typing=False), None, None
    edited = TextField(text, cursor).edit(key)
    if edited is None:
        return composer, None, None
    return _field(composer, edited.text, edited.cursor), None, None
