"""Hypothesis strategies for renderer inputs (needs ``hypothesis``: ``pip install inline_render[test]``).

Text strategies mix plain words with the content that breaks terminal UIs:
wide (CJK) characters, combining marks, emoji sequences (ZWJ, VS16, flags,
skin tones, keycaps), and hostile controls (OSC 52, CSI 2J, DCS, C1, bare ESC,
``\\r``, tabs).  Tick strategies return lists of ticks (each a list of inputs)
for whole flows: streaming sessions, confirm flows, resize storms.
"""

from __future__ import annotations

from hypothesis import strategies as st

from ..core.state import Config
from ..inputs import (
    Clock,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Fault,
    FormField,
    FormRequest,
    Input,
    Key,
    LegacyText,
    LogAppend,
    LogClear,
    LogDelta,
    LogFinish,
    LogReplace,
    Notify,
    Paste,
    PermissionPreview,
    PermissionReady,
    PickOption,
    PickRequest,
    PromptRequest,
    Resize,
    Status,
    Widget,
    Working,
)

__all__ = [
    "COMBINING",
    "EMOJI",
    "HOSTILE",
    "KEYS",
    "LOG_KINDS",
    "WIDE",
    "confirm_flows",
    "configs",
    "dialog_requests",
    "form_fields",
    "hostile_texts",
    "inflight_resizes",
    "inputs",
    "keys",
    "log_appends",
    "markdown_texts",
    "resize_storms",
    "resizes",
    "sizes",
    "streaming_sessions",
    "texts",
    "tick_lists",
    "tiny_sizes",
    "unicode_texts",
]

Ticks = list[list[Input]]

WIDE = ("中", "文字", "漢字テスト", "한글", "ｱｲｳ", "全角", "　")
COMBINING = ("e\u0301", "a\u0308\u0323", "n\u0303", "\u0301", "o\u0302\u0300", "Z\u0351\u0352\u0353")
EMOJI = (
    "👍",
    "👍🏽",  # skin tone
    "🧑🏿\u200d🚀",
    "👨\u200d👩\u200d👧\u200d👦",  # ZWJ family
    "🏳\ufe0f\u200d🌈",
    "❤\ufe0f",  # VS16
    "☺\ufe0f",
    "1\ufe0f\u20e3",  # keycap
    "🇫🇷",
    "🇯🇵🇺🇸",
    "🇺",  # a lone regional indicator
    "✈",
    "\u200d",  # a stray ZWJ
)
HOSTILE = (
    "\x1b]52;c;aGVsbG8gY2xpcGJvYXJk\x07",  # OSC 52: write the clipboard
    "\x1b]52;c;?\x1b\\",
    "\x1b]8;;https://example.invalid\x1b\\link\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x1b]0;title\x07",
    "\x1b[2J",
    "\x1b[3J",
    "\x1b[H\x1b[2J",
    "\x1bPq#0;2;0;0;0#0!10~\x1b\\",  # DCS (sixel)
    "\x1b_apc\x1b\\",
    "\x9b2J",  # C1 CSI
    "\x9d52;c;eA==\x9c",  # C1 OSC ... ST
    "\x85",  # NEL
    "\x90q\x9c",  # C1 DCS
    "\x1b",  # bare ESC
    "\x1b[",
    "\x1bc",  # RIS
    "\x1b[31mred\x1b[0m",
    "\x1b[1;1r",
    "\x1b[?1049h",
    "\x1b[6n",
    "\r",
    "\r\n",
    "\t",
    "\x07",
    "\x00",
    "\x08",
    "\x7f",
    "\u202e",  # right-to-left override
    "\ufeff",
    "\u200b",
)
KEYS = (
    "a",
    "b",
    "y",
    "n",
    " ",
    "enter",
    "escape",
    "backspace",
    "delete",
    "left",
    "right",
    "up",
    "down",
    "home",
    "end",
    "tab",
    "s-tab",
    "c-a",
    "c-e",
    "c-k",
    "c-u",
    "c-w",
    "c-j",
    "c-d",
    "pageup",
    "pagedown",
    "中",
    "é",
    "f12",
)
LOG_KINDS = (
    "text", "user", "assistant", "status", "tool", "error", "diff", "reasoning", "info", "warn", "success", "ansi",
)  # fmt: skip

_WORDS = st.sampled_from(("the", "quick", "brown", "fox", "lorem", "ipsum", "x", "supercalifragilistic", "a-b_c"))


def unicode_texts(max_parts: int = 12) -> st.SearchStrategy[str]:
    """Words, spaces and newlines mixed with wide characters, combining marks and emoji sequences."""
    part = st.one_of(
        _WORDS,
        st.sampled_from((" ", " ", "  ", "\n")),
        st.sampled_from(WIDE),
        st.sampled_from(COMBINING),
        st.sampled_from(EMOJI),
        st.text(max_size=4),
    )
    return st.lists(part, max_size=max_parts).map("".join)


def hostile_texts(max_parts: int = 8) -> st.SearchStrategy[str]:
    """Text made mostly of control characters and escape sequences a tool might print."""
    part = st.one_of(st.sampled_from(HOSTILE), _WORDS, st.sampled_from((" ", "\n")))
    return st.lists(part, min_size=1, max_size=max_parts).map("".join)


def texts(max_parts: int = 12) -> st.SearchStrategy[str]:
    """Any log text: plain, unicode-heavy or hostile."""
    return st.one_of(unicode_texts(max_parts), hostile_texts(max_parts), st.text(max_size=40))


# Markdown fragments that stress the block structure: deep nesting, fences left open, tables far
# wider than any terminal, markers split across deltas, links with hostile URLs.
_MD_PIECES = (
    "# heading\n", "## h2 *em*\n", "para with **strong** and `code` and ~~gone~~\n", "\n", "\n\n",
    "- item\n", "  - nested\n", "    - deeper\n", "1. one\n", "10) ten\n", "> quote\n", "> > > deep\n",
    "> - quoted item\n", "```python\n", "```\n", "~~~\n", "    indented code\n", "\tx = 1\n",
    "| a | b | c |\n", "|---|:-:|--:|\n", "| 1 | 2 | 3 |\n", "| " + " | ".join("wide" * 5 for _ in range(12)) + " |\n",
    "---\n", "***\n", "Title\n===\n", "[link](https://example.org/a?b=c)", "[bad](javascript:alert(1))",
    "<https://example.org>", "[esc](https://x.org/\x1b]8;;evil\x1b\\)", "<b>html</b>\n", "*", "**", "`", "[", "](",
    "\\*", "&#13;&#x1b;[2J&#x202e;&#x85;&#9;&amp;\n",
    "- - - - - - - -\n", "1. - > ```\n", "中文 **粗体** 文字\n", "emoji 👍🏽 text\n",
)  # fmt: skip


def markdown_texts(max_parts: int = 12) -> st.SearchStrategy[str]:
    """Markdown: valid constructs, pathological nesting, unclosed fences, huge tables, hostile text."""
    piece = st.one_of(st.sampled_from(_MD_PIECES), unicode_texts(2), hostile_texts(1))
    nested = st.integers(1, 40).map(lambda depth: "> " * depth + "- " * depth + "x\n")
    return st.lists(st.one_of(piece, nested), max_size=max_parts).map("".join)


def sizes(
    min_columns: int = 1, max_columns: int = 120, min_rows: int = 1, max_rows: int = 40
) -> st.SearchStrategy[tuple[int, int]]:
    """(columns, rows)."""
    return st.tuples(st.integers(min_columns, max_columns), st.integers(min_rows, max_rows))


def tiny_sizes() -> st.SearchStrategy[tuple[int, int]]:
    """Terminals of 1-10 columns and 1-6 rows."""
    return sizes(1, 10, 1, 6)


def resizes() -> st.SearchStrategy[Resize]:
    """One resize: a tiny terminal a third of the time."""
    size = st.one_of(tiny_sizes(), sizes(4, 120, 2, 40), sizes(8, 100, 6, 30))
    return size.map(lambda s: Resize(s[0], s[1]))


def inflight_resizes() -> st.SearchStrategy[tuple[float, tuple[int, int], bool]]:
    """(fraction, (columns, rows), report): the terminal is resized after reading ``fraction`` of the bytes
    in flight (0: before any, 1: after all, else mid-frame, maybe mid-sequence); ``report``: the renderer
    then gets the cursor row a report would give."""
    fraction = st.one_of(st.sampled_from((0.0, 0.5, 1.0)), st.floats(0, 1))
    return st.tuples(fraction, sizes(8, 60, 3, 24), st.booleans())


def resize_storms(max_ticks: int = 8) -> st.SearchStrategy[Ticks]:
    """Ticks of one or more resizes each (several resizes may land in one tick)."""
    return st.lists(st.lists(resizes(), min_size=1, max_size=3), min_size=1, max_size=max_ticks)


def configs() -> st.SearchStrategy[Config]:
    """Renderer configurations (invariant checks always on)."""
    return st.builds(
        lambda height, min_log, composer, sync: Config(
            viewport_height=height,
            min_log_rows=min(min_log, height),
            max_composer_rows=composer,
            synchronized_output=sync,
        ),
        st.integers(1, 16),
        st.integers(0, 3),
        st.integers(1, 6),
        st.booleans(),
    )


def keys() -> st.SearchStrategy[Key]:
    """Key presses (editing, navigation, answers, interrupts excluded)."""
    return st.sampled_from(KEYS).map(Key)


def log_appends(final: bool = True) -> st.SearchStrategy[LogAppend]:
    """A finished log entry of any kind."""
    return st.builds(LogAppend, st.sampled_from(LOG_KINDS), texts(), st.none(), st.just(final))


def streaming_sessions(entry_id: str = "s1", max_deltas: int = 8) -> st.SearchStrategy[Ticks]:
    """Ticks of one streamed entry: start, deltas (with the odd replace), finish."""
    step: st.SearchStrategy[Input] = st.one_of(
        texts(6).map(lambda t: LogDelta(entry_id, t)),
        texts(6).map(lambda t: LogDelta(entry_id, t + "\n")),
        texts(10).map(lambda t: LogReplace(entry_id, t)),
    )
    body = st.lists(st.lists(step, min_size=1, max_size=3), max_size=max_deltas)
    kinds = st.sampled_from(("assistant", "text", "reasoning"))

    def session(parts: tuple[str, str, Ticks]) -> Ticks:
        kind, text, middle = parts
        return [[LogAppend(kind, text, entry_id, final=False)], *middle, [LogFinish(entry_id)]]

    return st.tuples(kinds, texts(4), body).map(session)


def form_fields() -> st.SearchStrategy[FormField]:
    """A form field of any kind, its name, description and options hostile or unicode text."""
    return st.builds(
        FormField,
        texts(2).filter(bool),
        st.sampled_from(("text", "number", "select", "boolean")),
        texts(3),
        st.booleans(),
        st.one_of(st.none(), texts(2), st.floats(-1e6, 1e6), st.booleans()),
        st.lists(texts(2), max_size=3).map(tuple),
    )


def dialog_requests(
    dialog_id: str = "d1",
) -> st.SearchStrategy[ConfirmRequest | PromptRequest | PickRequest | FormRequest]:
    """A confirm, prompt, pick or form request with hostile or unicode text."""
    options = st.lists(
        st.sampled_from(("alpha", "beta", "gamma", "中文", "e\u0301")), min_size=1, max_size=5, unique=True
    )
    return st.one_of(
        st.builds(
            ConfirmRequest,
            st.just(dialog_id),
            texts(4),
            texts(8),
            danger_level=st.sampled_from(("normal", "high")),
            allow_remember=st.booleans(),
            allow_reason=st.booleans(),
            risk=st.sampled_from(("", "low", "medium", "high")),  # seed 003 approvals
            worker_path=st.lists(texts(2), max_size=3).map(tuple),
        ),
        st.builds(PromptRequest, st.just(dialog_id), texts(4), texts(6), default=texts(3), secret=st.booleans()),
        st.builds(
            PickRequest,
            st.just(dialog_id),
            texts(4),
            options.map(lambda labels: tuple(PickOption(f"o{i}", label) for i, label in enumerate(labels))),
            multi=st.booleans(),
        ),
        st.builds(FormRequest, st.just(dialog_id), texts(4), st.lists(form_fields(), max_size=4).map(tuple), texts(4)),
    )


def confirm_flows(dialog_id: str = "d1") -> st.SearchStrategy[Ticks]:
    """Ticks of a dialog: the request (with keys typed too early), a redraw, then keys or a cancel."""
    early = st.lists(keys(), max_size=2)
    ending = st.one_of(
        st.lists(keys(), min_size=1, max_size=6).map(lambda ks: [[k] for k in ks]),
        st.just([[ConfirmCancel(dialog_id)]]),
    )
    return st.tuples(dialog_requests(dialog_id), early, ending).map(
        lambda parts: [[parts[0], *parts[1]], [], *parts[2]]
    )


def inputs(ids: tuple[str, ...] = ("s1", "s2", "d1")) -> st.SearchStrategy[Input]:
    """Any single input; streaming and dialog inputs use ``ids`` (unknown ids are valid inputs too)."""
    entry_id = st.sampled_from(ids)
    return st.one_of(
        log_appends(),
        st.builds(LogAppend, st.sampled_from(LOG_KINDS), texts(), entry_id, st.just(False)),
        st.builds(LogDelta, entry_id, texts(6)),
        st.builds(LogReplace, entry_id, texts(8)),
        st.builds(LogFinish, entry_id),
        st.just(LogClear()),
        resizes(),
        keys(),
        st.builds(Paste, texts(6)),
        st.builds(Status, texts(4)),
        st.builds(Working, texts(3)),
        st.builds(Notify, texts(4), st.sampled_from(("info", "warn", "error", "success"))),
        st.builds(LegacyText, st.one_of(texts(6), st.just("Planned edit diff preview\n+a\n-b"))),
        st.builds(PermissionPreview, texts(2), st.one_of(st.none(), texts(8)), st.none(), st.booleans()),
        st.builds(PermissionReady, texts(2)),
        st.builds(EditorSet, texts(4)),
        st.builds(Widget, st.sampled_from(("a", "b")), texts(4), st.booleans()),
        st.floats(0, 1e6, allow_nan=False).map(Clock),
        dialog_requests(ids[-1]),
        st.builds(ConfirmCancel, entry_id),
        st.integers(0, 200).map(Fault),
    )


def tick_lists(max_ticks: int = 12, max_inputs: int = 4) -> st.SearchStrategy[Ticks]:
    """Sequences of ticks of arbitrary inputs."""
    return st.lists(st.lists(inputs(), max_size=max_inputs), max_size=max_ticks)
