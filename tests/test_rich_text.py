"""Links, styled spans, trusted ANSI, themes, highlighting and the permission preview's rendering."""

from __future__ import annotations

from prompt_toolkit.output.color_depth import ColorDepth

from inline_render import Config, LogAppend, PermissionReady, Renderer
from inline_render.core.backend import Vt100Backend
from inline_render.core.log import LogState, RenderOptions, log_rows
from inline_render.core.ops import Plan, Text
from inline_render.core.rows import draw_log_rows
from inline_render.markdown.blocks import safe_url
from inline_render.text.cells import WidthPolicy
from inline_render.text.highlight import diff_language, highlight_code, lexer_for
from inline_render.text.spans import ansi_text, parse_ansi
from inline_render.text.style import Segment, Style, row_text
from inline_render.text.themes import DEFAULT_THEME, color_depth_from_env, hyperlinks_supported


def rows_of(kind: str, text: str, width: int = 60, **options: object) -> list[tuple[Segment, ...]]:
    """The drawn rows of one final entry."""
    log = LogState(options=RenderOptions(**options)).append(kind, text)  # type: ignore[arg-type]
    rows, _ = log_rows(log, width, WidthPolicy.CODEPOINT)
    return draw_log_rows(rows, width, WidthPolicy.CODEPOINT)


def test_safe_url_accepts_web_mail_and_file_links_only() -> None:
    """OSC 8 targets: http, https, mailto, file; no other scheme, no control, space, ESC or ST in the URL."""
    assert safe_url("https://example.org/a?b=c") == "https://example.org/a?b=c"
    assert safe_url("mailto:me@example.org") and safe_url("file:///tmp/x") and safe_url("http://x")
    for bad in ("javascript:alert(1)", "ftp://x", "https://x\x1b]8;;evil", "https://x\x1b\\", "https://a b", ""):
        assert safe_url(bad) is None, bad
    assert safe_url("https://x/" + "a" * 3000) is None


def test_links_are_text_plus_url_unless_hyperlinks_are_on() -> None:
    """Without OSC 8 the URL follows the text; with it, the text carries the link and the URL is not shown."""
    plain = rows_of("assistant", "see [docs](https://example.org/d) now")
    assert row_text(plain[0]) == "\u25b8 see docs (https://example.org/d) now"
    assert all(segment.style.link is None for segment in plain[0])
    linked = rows_of("assistant", "see [docs](https://example.org/d) now", hyperlinks=True)
    assert row_text(linked[0]) == "\u25b8 see docs now"
    assert [segment.style.link for segment in linked[0] if segment.text == "docs"] == ["https://example.org/d"]
    unsafe = rows_of("assistant", "[x](javascript:alert(1))", hyperlinks=True)
    assert all(segment.style.link is None for segment in unsafe[0])


def test_backend_wraps_a_linked_run_in_its_own_osc8_pair() -> None:
    """A linked Text op is written as OSC 8 open, text, OSC 8 close; a URL with ESC is never sent."""
    backend = Vt100Backend(lambda data: len(data), ColorDepth.DEPTH_4_BIT)
    data, _ = backend.encode(Plan((Text("docs", Style(link="https://example.org")), Text(" after", Style()))))
    assert b"\x1b]8;;https://example.org\x1b\\docs\x1b]8;;\x1b\\" in data
    assert data.endswith(b" after")
    evil, _ = backend.encode(Plan((Text("x", Style(link="https://x\x1b]52;c;eA==")),)))
    assert b"\x1b]" not in evil


def test_raw_osc8_in_untrusted_text_never_becomes_a_link() -> None:
    """Escape sequences in untrusted text stay visible pictures, even in Markdown with hyperlinks on."""
    rows = rows_of("assistant", "\x1b]8;;https://evil\x1b\\click\x1b]8;;\x1b\\", hyperlinks=True)
    assert "\u241b]8;;https://evil" in row_text(rows[0])
    assert all(segment.style.link is None for row in rows for segment in row)


def test_trusted_ansi_keeps_colours_and_neutralizes_the_rest() -> None:
    """SGR (16, 256 and true colours, attributes) becomes style; cursor moves and OSC stay visible."""
    lines = parse_ansi("\x1b[1;31mA\x1b[38;5;208mB\x1b[48;2;1;2;3;9mC\x1b[0mD\x1b[2J\x1b]52;c;eA==\x07")
    segments = lines[0]
    assert [s.text for s in segments][:4] == ["A", "B", "C", "D\u241b[2J\u241b]52;c;eA==\u2407"]
    assert segments[0].style == Style(fg="ansired", bold=True)
    assert segments[1].style.fg == "#ff8700" and segments[1].style.bold
    assert segments[2].style.bg == "#010203" and segments[2].style.strike
    assert segments[3].style == Style()


def test_ansi_text_round_trips_styled_segments() -> None:
    """An app's styled segments survive ansi_text -> the ansi kind; their own escapes stay inert."""
    wanted = (Segment("ok", Style(fg="ansigreen", bold=True)), Segment(" \x1b[2J", Style(italic=True, bg="#102030")))
    lines = parse_ansi(ansi_text(wanted))
    assert lines == [(Segment("ok", Style(fg="ansigreen", bold=True)), Segment(" \u241b[2J", wanted[1].style))]
    drawn = rows_of("ansi", ansi_text(wanted))
    assert row_text(drawn[0]) == "ok \u241b[2J"  # no kind prefix: the ansi kind is verbatim like text


def test_code_blocks_are_highlighted_by_their_info_string() -> None:
    """A fenced python block gets token colours from the theme; an unknown language stays plain code."""
    lines = highlight_code('def f():\n    return "s"', "python", DEFAULT_THEME, Style())
    assert [s.text for s in lines[0]][:1] == ["def"] and lines[0][0].style.fg == "ansimagenta"
    assert lexer_for("no-such-language") is None
    assert highlight_code("x", "no-such-language", DEFAULT_THEME, Style(fg="ansicyan")) == [
        (Segment("x", Style(fg="ansicyan")),)
    ]


def test_diff_language_comes_from_the_file_headers() -> None:
    """A diff's lexer is chosen from its +++/--- path; its lines keep +/- gutters in the diff colours."""
    diff = "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = 2"
    assert diff_language(diff) == "app.py"
    rows = rows_of("diff", diff)
    minus, plus = rows[3], rows[4]
    assert row_text(minus) == "  -x = 1" and row_text(plus) == "  +x = 2"
    assert minus[1] == Segment("-", Style(fg="ansired", bold=True))
    assert plus[1] == Segment("+", Style(fg="ansigreen", bold=True))
    assert any(s.style.fg == "ansicyan" for s in plus[2:])  # the number is highlighted as python
    tabbed = rows_of("diff", "+\tx\n\t")
    assert [row_text(row) for row in tabbed] == ["  +        x", ""]  # tabs expanded after the gutter; never sent


def test_a_repeated_ready_for_one_tool_call_is_shown_once() -> None:
    """permission.ready twice with one tool_call_id: one status line; another id gets its own."""
    renderer = Renderer.in_memory(50, 10, config=Config(viewport_height=8))
    renderer.feed([PermissionReady("edit", "t1")])
    renderer.feed([PermissionReady("edit", "t1")])
    renderer.feed([PermissionReady("edit", "t2"), PermissionReady("edit")])
    shown = [line for line in renderer.terminal.all_lines() if "preflight ready" in line]
    assert len(shown) == 3


def test_environment_decides_colour_depth_and_hyperlinks() -> None:
    """NO_COLOR wins, FORCE_COLOR forces a depth; OSC 8 only for terminals known to support it."""
    assert color_depth_from_env({"NO_COLOR": "1", "FORCE_COLOR": "3"}) is ColorDepth.DEPTH_1_BIT
    assert color_depth_from_env({"FORCE_COLOR": "3"}) is ColorDepth.DEPTH_24_BIT
    assert color_depth_from_env({"FORCE_COLOR": "0"}) is None and color_depth_from_env({}) is None
    assert hyperlinks_supported({"TERM_PROGRAM": "iTerm.app"}) and hyperlinks_supported({"VTE_VERSION": "7000"})
    assert not hyperlinks_supported({"TERM": "xterm-256color"})
    assert not hyperlinks_supported({"TERM_PROGRAM": "WezTerm", "TMUX": "/tmp/x"})
    assert hyperlinks_supported({"FORCE_HYPERLINK": "1", "TMUX": "/tmp/x"})


def test_markdown_can_be_turned_off_and_plain_kinds_stay_verbatim() -> None:
    """Config(markdown=False) shows assistant text as written; the text kind is never Markdown."""
    source = "**bold** `code`"
    assert row_text(rows_of("assistant", source)[0]) == "\u25b8 bold code"
    assert row_text(rows_of("assistant", source, markdown=False)[0]) == "\u25b8 **bold** `code`"
    assert row_text(rows_of("text", source)[0]) == "**bold** `code`"
    renderer = Renderer.in_memory(40, 6, config=Config(markdown=False, viewport_height=4))
    renderer.feed([LogAppend("assistant", source)])
    assert "\u25b8 **bold** `code`" in renderer.terminal.screen_lines()


def test_entities_cannot_smuggle_controls_into_the_terminal() -> None:
    """markdown-it decodes `&#13;`, `&#x202e;`, `&#x85;`: the renderer sanitizes what it decoded."""
    renderer = Renderer.in_memory(60, 8, config=Config(viewport_height=6))
    renderer.feed([LogAppend("assistant", "a&#13;b &#x202e;c &#x85;d\n\n| h |\n|-|\n| &#13;&#x9b;2J |")])
    shown = "\n".join(renderer.terminal.screen_lines())
    assert "a" in shown and "<U+202E>c" in shown
    assert renderer.terminal.violations == []


def test_a_custom_theme_styles_markdown_status_and_composer() -> None:
    """Config(theme=Theme(...)): its styles reach Markdown elements, the status line and the composer prompt."""
    from inline_render import Status
    from inline_render.text.themes import Theme

    red = Style(fg="ansired")
    theme = Theme("mine", "ansi", {"strong": Style(bold=True, underline=True), "status": red, "composer_prompt": red})
    renderer = Renderer.in_memory(40, 6, config=Config(viewport_height=4, theme=theme))
    result = renderer.step([LogAppend("assistant", "a **b**"), Status("busy")])
    rows = result.frame.rows
    assert Segment("b", Style(bold=True, underline=True)) in rows[0]
    assert rows[-2] == (Segment("busy", red),)
    assert rows[-1][0] == Segment("\u203a ", red)
    assert Config(theme=theme).to_json()["theme"] == "mine"
