"""Random sessions (issue 31, case 5): what a coding agent's user sees, drawn from one seed, on tiny terminals too.

A session is a chat of steps: questions logged, Markdown answers and plain text streamed as 2-7 character deltas
(hostile text among them: escape sequences, C0 controls, a carriage return, which the library neutralizes),
confirms opened and answered while an answer streams, and approvals whose diff preview is committed above the
dialog.  Every content row carries an id, as in the storms.  Its storm (``session_storm``) resizes the terminal
8 times; half the seeds are *tiny* sessions whose resizes go down to 1 x 1 between ordinary sizes.

At a few columns the library wraps a line into rows of a cell or two, drops a list's marker and a quote's bar,
and lays a table out as a list: what such a session streams is what keeps its text there (no tables; ASCII
only, so no character is wider than the terminal).  The checker judges it by its text, not by its rows
(``checker.check_stream``).
"""

from __future__ import annotations

import random
from dataclasses import replace

from inline_render import LogAppend, PermissionPreview
from inline_render.core.tick import Renderer

from .checker import ID
from .lines import _WORDS, BlockSizes, line_id, markdown_block
from .storm import MAX_COLUMNS, MAX_ROWS, MIN_COLUMNS, MIN_ROWS, Resize, Storm, make_storm

__all__ = ["Step", "expected_rows", "is_tiny", "preview_of", "random_session", "session_storm"]

Step = tuple[str, str]
"""(kind, text): ``user``, ``assistant`` (Markdown, streamed), ``text`` (plain, streamed), ``tool`` (logged),
``dialog`` (a confirm opened while the answer before it streams; ``text`` is logged as ``tool`` once answered)
and ``approval`` (``text`` is the diff shown as the approval's preview; a ``tool`` step follows)."""

# What hostile text a runtime may send: each is neutralized (drawn as visible symbols or dropped), never obeyed.
_HOSTILE = ("\x1b[2J", "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "\x1b]52;c;aGk=\x07", "\x1b[5A", "\r", "\x07", "\x08")
_TINY_BLOCKS = ("heading", "paragraph", "paragraph", "bullets", "numbered", "code", "quote")
_BLOCKS = (*_TINY_BLOCKS, "table")
TINY_COLUMNS, TINY_ROWS = 20, 8


def is_tiny(seed: int) -> bool:
    """Whether the session of ``seed`` goes down to a few cells (every other seed)."""
    return seed % 2 == 0


def _words(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))


# Shorter than the storm chat's blocks, words without inline marks: sessions are many and tiny ones wrap per cell.
_SIZES = BlockSizes(
    _words, paragraph=(4, 30), items=(2, 4), item_words=(1, 16), nested_words=(1, 8), code_lines=(1, 4),
    table_rows=(1, 3), quote_words=(1, 6),
)  # fmt: skip


class _Ids:
    def __init__(self) -> None:
        self.count = 0

    def next(self) -> str:
        self.count += 1
        return line_id(self.count)


def _plain(rng: random.Random, ids: _Ids) -> str:
    lines = []
    for _ in range(rng.randint(1, 4)):
        words = _words(rng, 1, 12).split()
        if rng.random() < 0.5:
            words.insert(rng.randint(1, len(words)), rng.choice(_HOSTILE))
        lines.append(f"{ids.next()} {' '.join(words)}")
    return "\n".join(lines)


def _diff(rng: random.Random, ids: _Ids) -> str:
    name = f"src/{rng.choice(_WORDS)}_{ids.count}.py"
    body = [f"-{ids.next()} = {rng.choice(_WORDS)}", f"+{ids.next()} = {rng.choice(_WORDS)}", f" {ids.next()} same"]
    return "\n".join([f"--- a/{name}", f"+++ b/{name}", "@@ -1,2 +1,2 @@", *body]) + "\n"


def random_session(seed: int, lines: int = 60) -> tuple[Step, ...]:
    """A session of at least ``lines`` ids: each turn a question, then an answer, plain text, a confirm or an
    approval; the same steps for the same seed."""
    rng = random.Random(f"session-{seed}")
    blocks = _TINY_BLOCKS if is_tiny(seed) else _BLOCKS
    ids = _Ids()
    steps: list[Step] = []
    while ids.count < lines:
        steps.append(("user", f"{ids.next()} {_words(rng, 2, 8)}"))
        choice = rng.random()
        if choice < 0.2:
            steps.append(("approval", _diff(rng, ids)))
            steps.append(("tool", f"{ids.next()} the edit was approved"))
            continue
        if choice < 0.4:
            steps.append(("text", _plain(rng, ids)))
            continue
        answer = [markdown_block(rng, rng.choice(blocks), ids.next, _SIZES) for _ in range(rng.randint(1, 3))]
        steps.append(("assistant", "\n\n".join("\n".join(block) for block in answer) + "\n"))
        if choice < 0.55:
            steps.append(("dialog", f"{ids.next()} the write was approved"))
    return tuple(steps)


def preview_of(diff: str) -> PermissionPreview:
    """The approval's preview, as the app's ``approve(preview=diff)`` sends it."""
    return PermissionPreview("write", diff=diff)


def expected_rows(session: tuple[Step, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the committed lines with an id, the other rows the library commits), each as rendered finished at a width
    nothing wraps at: the id lines are counted, the others (a preview's header) only keep their rows from ghosts."""
    renderer = Renderer.in_memory(2000, 20, cursor_row=0)
    for kind, text in session:
        if kind == "approval":
            renderer.feed([preview_of(text)])
        elif kind in ("user", "assistant", "text", "tool", "dialog"):
            renderer.feed([LogAppend("tool" if kind == "dialog" else kind, text)])
    rows = [row.rstrip() for row in (*renderer.terminal.scrollback, *renderer.terminal.screen_lines())]
    with_id = tuple(row for row in rows if ID.match(row))
    others = tuple(row for row in rows if row.strip() and not ID.match(row) and row.strip() != "\u203a")
    return with_id, others


def session_storm(seed: int, lines: int = 60, count: int = 8) -> Storm:
    """The storm of a session: a storm's start and times; a tiny session's resizes alternate tiny and ordinary."""
    storm = make_storm(seed, count=count, lines=lines)
    if not is_tiny(seed):
        return storm
    rng = random.Random(f"tiny-{seed}")
    resizes: list[Resize] = []
    for index, step in enumerate(storm.resizes):
        if index % 2 == 0 or rng.random() < 0.3:
            resizes.append(replace(step, columns=rng.randint(1, TINY_COLUMNS), rows=rng.randint(1, TINY_ROWS)))
        else:
            columns = rng.randint(MIN_COLUMNS, MAX_COLUMNS)
            resizes.append(replace(step, columns=columns, rows=rng.randint(MIN_ROWS, MAX_ROWS)))
    # The user ends at a size they can read: a dialog drawn nowhere until then is answered there.
    resizes[-1] = replace(
        resizes[-1], columns=max(resizes[-1].columns, MIN_COLUMNS), rows=max(resizes[-1].rows, MIN_ROWS)
    )
    return replace(storm, resizes=tuple(resizes))
