"""Streaming Markdown: the commit rule, every construct streamed in small deltas, checked on emulators."""

from __future__ import annotations

import random

import pytest

from inline_render import Config, LogAppend, LogDelta, LogFinish, LogReplace, Resize
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.rows import draw_log_rows
from inline_render.markdown.blocks import Options
from inline_render.markdown.stream import view_extend, view_new, view_replace, view_trim
from inline_render.testing import CheckedRenderer
from inline_render.text.cells import WidthPolicy
from inline_render.text.style import row_text
from inline_render.text.themes import DEFAULT_THEME

LONG = """# Streaming answer

Here is **strong**, *emphasis*, ~~struck~~, `inline code` and a [link](https://example.org/docs).
A second line of the same paragraph that is long enough to wrap at forty columns for sure.

## Lists

- first item with enough words to wrap around at forty columns
- second item
  - nested bullet one
  - nested bullet two
- third item

3. three as written
4. four
10. ten

> A quoted paragraph that should wrap with its bar on every row, at forty columns.
>
> - a list inside the quote

```python
def greet(name):
\tif name:
        return f"Hello, {name}! This line is long enough to be wrapped at the hard limit."
    return None
```

    indented code block
      keeps its indentation

| name | kind | note |
|------|:----:|-----:|
| alpha | a | first row note that is rather long |
| beta | b | 2 |

---

<div>html is shown as text</div>

Done: see <https://example.org> and 中文字符的段落，用来测试宽字符的换行是否正确处理。
"""

MARKERS = ("```", "**", "~~", "](", "|---", "# ", "<https")


def rendered(text: str, width: int) -> list[str]:
    """The rows of ``text`` as one final assistant entry at ``width`` (what a stream must end as)."""
    log = LogState(options=RenderOptions()).append("assistant", text)
    rows, _ = log_rows(log, width, WidthPolicy.CODEPOINT)
    return [row_text(row).rstrip(" ") for row in draw_log_rows(rows, width, WidthPolicy.CODEPOINT)]


def deltas(text: str, seed: int) -> list[str]:
    """``text`` cut into pieces of 1 to 9 characters."""
    rng = random.Random(seed)
    out, index = [], 0
    while index < len(text):
        size = rng.randint(1, 9)
        out.append(text[index : index + size])
        index += size
    return out


def stream(app: CheckedRenderer, text: str, seed: int) -> None:
    """Stream ``text`` as entry ``a`` and check after every tick that committed text never changes."""
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    before = ""
    for piece in deltas(text, seed):
        app.feed([LogDelta("a", piece)])
        entries = [entry for entry in app.state.log.entries if entry.id == "a"]
        if entries:
            entry = entries[0]
            committed = entry.text[: entry.committed]
            assert committed.startswith(before) or not before, "committed display text changed"
            before = committed
    app.feed([LogFinish("a")])


@pytest.mark.parametrize("width", [40, 100])
def test_long_answer_streamed_in_small_deltas_lands_once_and_rendered(width: int) -> None:
    """Every construct, streamed in 1-9 character deltas: scrollback ends as the one-shot rendering, once, in order."""
    app = CheckedRenderer(width, 16, config=Config(viewport_height=8))
    stream(app, LONG, seed=width)
    app.feed([LogAppend("text", "\n".join(f"filler {i}" for i in range(10)))])  # push the answer into scrollback
    want = rendered(LONG, width)
    assert app.history[: len(want)] == want
    joined = "\n".join(want)
    for marker in MARKERS:
        assert marker not in joined, marker
    assert "        return f" in joined  # code indentation kept (a tab expanded to 8)
    assert "\u21aa" in joined or width == 100  # a long code line continues with a visible mark at 40


def test_hanging_indent_for_latin_and_cjk_list_items() -> None:
    """`- abcdefghij` at 8 columns of room is `- abcdef` / `  ghij`, and the same with wide characters."""
    for source, want in (("- abcdefghij", ["- abcdef", "  ghij"]), ("- 一二三四五", ["- 一二三", "  四五"])):
        log = LogState(options=RenderOptions()).append("assistant", source)
        rows, _ = log_rows(log, 10, WidthPolicy.CODEPOINT)  # 10 columns = 2 for the kind prefix + 8
        got = [row_text(row)[2:] for row in draw_log_rows(rows, 10, WidthPolicy.CODEPOINT)]
        assert got == want


def committed_lines(source: str, width: int = 40) -> list[str]:
    """The committed rows of a streaming assistant entry holding ``source``."""
    log = LogState(options=RenderOptions()).append("assistant", source, "a", final=False)
    rows, committed = log_rows(log, width, WidthPolicy.CODEPOINT)
    return [row_text(row).rstrip(" ") for row in draw_log_rows(rows[:committed], width, WidthPolicy.CODEPOINT)]


def test_paragraph_lines_commit_with_one_line_of_lookahead() -> None:
    """Paragraph lines (line breaks) commit once the next line is complete; all of it at its blank line."""
    assert committed_lines("one\ntwo") == []
    assert committed_lines("one\ntwo\n") == ["\u25b8 one"]  # "two" may still become a table header
    assert committed_lines("one\ntwo\n\n") == ["\u25b8 one", "  two"]


def test_an_unmatched_inline_opener_holds_the_paragraph_back() -> None:
    """A literal `*` (or backtick, bracket) may pair with a later closer: its line and those after wait."""
    assert committed_lines("a *b\nc\nd\n") == []
    assert committed_lines("a\n*b\nc\nd\n") == ["\u25b8 a"]
    assert committed_lines("a *b\nc* d\ne\n") == ["\u25b8 a b", "  c d"]  # the pair closed: it can no longer change
    assert committed_lines("a *b\nc* d\ne\n\n") == ["\u25b8 a b", "  c d", "  e"]


def test_list_item_commits_when_the_next_starts() -> None:
    """The last list item can still grow; the ones before it are final."""
    assert committed_lines("- a\n") == []
    assert committed_lines("- a\n- b") == ["\u25b8 - a"]


def test_code_block_commits_line_by_line() -> None:
    """An open fence commits its complete lines but the last (one line of lexer lookahead)."""
    assert committed_lines("```py\nx = 1\n") == []
    assert committed_lines("```py\nx = 1\ny = 2\nz") == ["\u25b8 x = 1"]
    assert committed_lines("```py\nx = 1\ny = 2\n```\n") == ["\u25b8 x = 1", "  y = 2"]


def test_table_commits_when_it_ends() -> None:
    """Column widths depend on every row: nothing of a table commits before it ends."""
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n"
    assert committed_lines(table) == []
    assert committed_lines(table + "\nafter") == [
        "\u25b8 a \u254e b",
        "  \u254c\u254c\u254c\u254c\u254c",
        "  1 \u254e 2",
    ]


def test_replace_keeps_the_committed_source() -> None:
    """log.replace re-renders the open part only; committed rows stay as they were."""
    app = CheckedRenderer(40, 10, config=Config(viewport_height=4))
    app.feed([LogAppend("assistant", "- one\n- two\n- thr", id="a", final=False)])
    app.feed([LogReplace("a", "- ONE\n- two\n- three\n\nend")])
    app.feed([LogFinish("a")])
    entry = app.state.log.entries[-1] if app.state.log.entries else None
    shown = app.terminal.all_lines()
    assert any("- one" in line for line in shown) and not any("ONE" in line for line in shown)
    assert entry is None or "ONE" not in entry.text


def test_a_respaced_replace_continues_after_an_open_fence_whose_kept_tail_is_blank_lines() -> None:
    """A replace that respaces the text before an open fence ending in blank lines gives the same trimmed or not."""
    code = "".join(f"value_{i} = {i}\n" for i in range(40))
    view = view_new(Options(DEFAULT_THEME))
    for line in ("Intro.\n\n\n\n\n```python\n" + code + "\n\n\n").splitlines(keepends=True):
        view = view_extend(view, line)
    assert view.fence is not None and not view.tail_lines[0].text  # the fence's tail: its last, blank, lines
    new = "Intro.\n\n```python\n" + code + "\n\n\nmore"  # the runtime's whole answer, one blank line before the fence
    whole = view_replace(view, new)
    trimmed = view_replace(view_trim(view, view.stable_starts[-1]), new)  # the log drops inserted stable lines
    assert whole.source.endswith("value_39 = 39\n\n\nmore")
    assert whole.text.endswith(trimmed.text) and whole.source.endswith(trimmed.source)


@pytest.mark.parametrize("seed", range(3))
def test_resize_mid_stream_re_renders_the_open_part(seed: int) -> None:
    """Width changes while a Markdown answer streams: no row twice, none lost, emulators agree every tick."""
    rng = random.Random(seed)
    app = CheckedRenderer(60, 14, config=Config(viewport_height=7))
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    for index, piece in enumerate(deltas(LONG, seed)):
        app.feed([LogDelta("a", piece)])
        if index % 40 == 39:
            app.feed([Resize(rng.choice([30, 45, 60, 80]), 14)])
    app.feed([LogFinish("a")])
    assert app.ghosts == []


def test_a_lone_marker_on_the_partial_line_closes_nothing() -> None:
    """Found by the property test: "- item" then "*" (a new list?) then "**" (no: a lazy continuation). The "*"
    alone closed the list and committed a separator row that the final rendering does not have."""
    app = CheckedRenderer(6, 10, config=Config(viewport_height=5), use_pyte=False)
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    for char in "- item\n**":
        app.feed([LogDelta("a", char)])
    app.feed([LogFinish("a")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    assert app.history[:3] == ["\u25b8 - it", "    em", "    **"]


@pytest.mark.parametrize("text", ["1. ```\n   x\n   ```\n2. b\n", "1. [a]: https://x.org\n1. c\n"])
def test_digits_alone_on_the_partial_line_close_nothing(text: str) -> None:
    """Found by the list property test: after an item that takes no lazy line, "2" closed the list (a paragraph)
    and "2." then started a second list: the next item was lost from scrollback."""
    app = CheckedRenderer(20, 10, config=Config(viewport_height=5), use_pyte=False)
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    for char in text:
        app.feed([LogDelta("a", char)])
    app.feed([LogFinish("a")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    want = rendered(text, 20)
    assert app.history[: len(want)] == want


@pytest.mark.parametrize(
    "text",
    [
        "[a]: https://x.org/p\n\npara\n\nsee [a]\n",
        "[a]: https://x.org/l\n\n- see [a]\n- and [a]\n",
        "> [a]: https://x.org/q\n\n```\ncode\n```\n\nsee [a]\n",
        "[a]: https://x.org/1\n\n# head\n\n[a]: https://x.org/2\n\nsee [a]\n",
    ],
)
def test_a_definition_in_stable_source_applies_after_it(text: str) -> None:
    """A link reference definition before the open block applies to it, as in the whole text (the tail was
    parsed without the stable source, so the link showed as ``[a]``); the first definition of a label wins."""
    for size in (1, 4):
        app = CheckedRenderer(40, 10, config=Config(viewport_height=5), use_pyte=False)
        app.feed([LogAppend("assistant", "", id="a", final=False)])
        for start in range(0, len(text), size):
            app.feed([LogDelta("a", text[start : start + size])])
        app.feed([LogFinish("a")])
        app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
        want = rendered(text, 40)
        assert any("a (https://x.org/" in row for row in want)
        assert app.history[: len(want)] == want


def test_an_answer_ending_in_an_empty_line_keeps_it_when_the_rows_before_it_are_inserted_first() -> None:
    """A heading then an empty code block ends with an empty row (the separator) at the end of the display text:
    inserting the heading's rows first, then that row, draws it once and then drops the entry."""
    log = LogState(options=RenderOptions()).append("assistant", "# heading\n```python\n")
    rows, _ = log_rows(log, 6, WidthPolicy.CODEPOINT)
    assert [row_text(row).rstrip() for row in draw_log_rows(rows, 6, WidthPolicy.CODEPOINT)] == ["▸ head", "  ing", ""]
    log = log.advance(tuple(rows[:2]))
    rest, _ = log_rows(log, 6, WidthPolicy.CODEPOINT)
    assert [(row.start, row.end) for row in rest] == [(rows[2].start, rows[2].end)]
    assert log.advance(tuple(rest)).entries == ()
