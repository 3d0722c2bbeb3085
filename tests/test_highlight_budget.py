"""Highlighting never hangs or stalls a tick (issue 33, cases 0, 9 and 10): lexers run under a budget, long lines are
plain, a streamed code block is lexed line by line."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from pygments.lexers import get_all_lexers, get_lexer_by_name
from pygments.token import _TokenType

from inline_render import Config, LogAppend, LogDelta, PermissionPreview, Renderer
from inline_render.text import highlight
from inline_render.text.highlight import highlight_code, lexer_for
from inline_render.text.lexing import Budget, lex_fold, start
from inline_render.text.style import Segment, Style
from inline_render.text.themes import DEFAULT_THEME

ROOT = Path(__file__).resolve().parent.parent
BASE = Style(fg="ansiwhite")


def _child(code: str, timeout: float = 60) -> str:
    """Run ``code`` in a child Python (a hang fails the test by its timeout instead of hanging the suite)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    return done.stdout


def _fresh() -> None:
    highlight._highlight.cache_clear()
    highlight._RECENT.clear()


@pytest.mark.parametrize("fence", ["```tnt\n(\n```\n", "```mcschema\n<!--\n```\n"])
def test_a_fence_naming_a_looping_lexer_renders_in_a_child_within_its_timeout(fence: str) -> None:
    """Case 0: TNT's lexer loops forever on "(" and mcschema's yields empty tokens forever: the answer renders."""
    out = _child(
        f"""
        from inline_render import Config, LogAppend, Renderer
        from inline_render.text.style import row_text
        renderer = Renderer.in_memory(80, 24, config=Config(markdown=True))
        rows = renderer.step([LogAppend("assistant", {fence!r})]).frame.rows
        print("|".join(row_text(row).strip() for row in rows if row_text(row).strip()))
        """,
        timeout=30,
    )
    assert fence.split("\n")[1] in out


def test_a_preview_of_a_tnt_file_renders_plain_in_a_child_within_its_timeout() -> None:
    """Case 0 through a permission preview whose file_path is proof.tnt: the lexer is never run."""
    out = _child(
        """
        from inline_render import Config, PermissionPreview, Renderer
        from inline_render.text.style import row_text
        renderer = Renderer.in_memory(80, 24, config=Config(viewport_height=10))
        rows = renderer.step([PermissionPreview("edit", "@@ -1 +1 @@\\n-a\\n+(", file_path="proof.tnt")]).frame.rows
        print("|".join(row_text(row).strip() for row in rows if row_text(row).strip()))
        """,
        timeout=30,
    )
    assert "+(" in out


def test_a_lexer_no_budget_can_stop_is_not_reachable_from_a_name() -> None:
    """TNT's lexer computes all its tokens before yielding one: no name or file name reaches it."""
    assert lexer_for("tnt") is None
    assert lexer_for("proof.tnt") is None
    assert lexer_for("python") is not None and lexer_for("Makefile") is not None


_ADVERSARIAL = ["(", "(\n", "<!--", '"', "/*", "{", "[", "`", "#", "<<EOF\n", "\\", "a", "%{", "<?", "((((((((", ";"]


def test_every_lexer_pygments_ships_finishes_short_adversarial_inputs_within_the_budget() -> None:
    """Issue 33's "done when": every lexer Pygments ships, fed short hostile code, returns its lines in bounded time."""
    slow: list[tuple[str, str, float]] = []
    for _, aliases, _, _ in get_all_lexers(plugins=False):
        if not aliases:
            continue
        # A lexer's regexes (and those of the lexers it delegates to) compile once, on first use: not timed.
        highlight_code("x\ny", aliases[0], DEFAULT_THEME, BASE)
        for text in _ADVERSARIAL:
            _fresh()
            began = time.perf_counter()
            lines = highlight_code(text, aliases[0], DEFAULT_THEME, BASE)
            spent = time.perf_counter() - began
            assert ["".join(s.text for s in line) for line in lines] == text.split("\n")
            if spent > 0.5:  # the budget is 0.05 s: 10x for a loaded machine
                slow.append((aliases[0], text, round(spent, 3)))
    assert slow == []


def test_a_fence_of_a_looping_lexer_keeps_every_character_and_ends() -> None:
    """mcschema on "<!--" floods empty tokens: the token budget stops it and the line is shown, plain."""
    _fresh()
    assert highlight_code("<!--", "mcschema", DEFAULT_THEME, BASE) == [(Segment("<!--", BASE),)]


def test_a_lexer_over_its_budget_shows_the_rest_plain() -> None:
    """A budget of no time: nothing is lexed, every line is plain, and no character is lost."""
    lexer = get_lexer_by_name("python", stripnl=False, ensurenl=False)
    folded, lines = lex_fold(lexer, "x = 1\ny = 2\nz", start(lexer), lambda line: line, Budget(seconds=-1))
    assert folded.plain
    assert ["".join(value for _, value in line) for line in lines] == ["x = 1", "y = 2", "z"]
    assert all(len(line) == 1 for line in lines)


@pytest.mark.parametrize("language", ["make", "desktop", "systemd", "Makefile"])
def test_a_long_line_is_plain_and_costs_no_quadratic_lexing(language: str) -> None:
    """Case 9: one 20,000-character line took 15-18 s in make's lexer; it is plain, the short line after it is not."""
    _fresh()
    long = "a=" + "b" * 20_000
    began = time.perf_counter()
    lines = highlight_code(f"{long}\n# comment", language, DEFAULT_THEME, BASE)
    assert time.perf_counter() - began < 5  # 15-18 s before
    assert lines[0] == (Segment(long, BASE),)
    if language in ("make", "Makefile"):
        assert any(segment.style.italic for segment in lines[1])  # the comment after it is highlighted


def test_a_preview_of_a_makefile_with_a_long_line_renders_quickly() -> None:
    """Case 9 through a permission preview whose file_path is Makefile."""
    _fresh()
    renderer = Renderer.in_memory(80, 24, config=Config(viewport_height=10))
    began = time.perf_counter()
    renderer.step([PermissionPreview("edit", "@@ -1 +1 @@\n-a\n+x=" + "y" * 20_000, file_path="Makefile")])
    assert time.perf_counter() - began < 5


def _python(size: int) -> str:
    sample = (ROOT / "inline_render" / "core" / "reduce.py").read_text()
    return (sample * (size // len(sample) + 1))[:size]


def test_a_streamed_code_block_is_lexed_line_by_line() -> None:
    """Case 10: 64 KB of Python streamed line by line took 377 s (re-lexed from its first line per line)."""
    _fresh()
    lines = _python(64_000).split("\n")
    began = time.perf_counter()
    for count in range(1, len(lines) + 1):
        highlight_code("\n".join(lines[:count]), "python", DEFAULT_THEME, BASE)
    assert time.perf_counter() - began < 60


@pytest.mark.parametrize("language", ["python", "c", "yaml", "json"])
def test_streamed_cold_and_whole_lexing_agree(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fold continued line by line gives what the fold from scratch does, and what Pygments gives whole."""
    monkeypatch.setattr(highlight, "_BUDGET", Budget(seconds=60))  # the results, not the time, are compared
    code = {
        "python": _python(8_000),
        "c": "/* a\n * long\n * comment\n */\nint main() {\n  return 0; // x\n}\n" * 40,
        "yaml": "a: 1\nb:\n  - 'x'\n  - |\n    text\n    more\nc: \"q\"\n" * 40,
        "json": '{"a": [1, 2,\n  {"b": "c"}],\n "d": null}\n' * 40,
    }[language].rstrip("\n")
    _fresh()
    cold = highlight_code(code, language, DEFAULT_THEME, BASE)
    _fresh()
    rows = code.split("\n")
    for count in range(1, len(rows) + 1):
        streamed = highlight_code("\n".join(rows[:count]), language, DEFAULT_THEME, BASE)
    assert streamed == cold
    painted = [
        [(t, highlight._token_style("ansi", BASE, tt)) for tt, t in line] for line in _pygments_lines(code, language)
    ]
    assert [[(s.text, s.style) for s in line] for line in cold] == [_joined(line) for line in painted]


def _pygments_lines(code: str, language: str) -> list[list[tuple[_TokenType, str]]]:
    lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    lines: list[list[tuple[_TokenType, str]]] = [[]]
    for _, ttype, value in lexer.get_tokens_unprocessed(code):
        for index, part in enumerate(value.split("\n")):
            if index:
                lines.append([])
            if part:
                lines[-1].append((ttype, part))
    return lines


def _joined(line: list[tuple[str, Style]]) -> list[tuple[str, Style]]:
    out: list[tuple[str, Style]] = []
    for text, style in line:
        if out and out[-1][1] == style:
            out[-1] = (out[-1][0] + text, style)
        else:
            out.append((text, style))
    return out


def test_a_markdown_fence_with_a_long_line_streams_quickly() -> None:
    """Case 9 through the app: a ```make fence whose first line is 20,000 characters, then short lines."""
    renderer = Renderer.in_memory(80, 24, config=Config(markdown=True))
    began = time.perf_counter()
    renderer.step([LogAppend("assistant", "```make\n" + "a=" + "b" * 20_000 + "\n", "a", final=False)])
    for index in range(20):
        renderer.step([LogDelta("a", f"x{index}: y # c\n")])
    assert time.perf_counter() - began < 10  # 15-18 s a line before, and every delta lexed it again
