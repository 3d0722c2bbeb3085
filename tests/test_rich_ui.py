"""Rich text beyond the log: preview languages, styled status/notify/dialog text, themed kinds and colour depth."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

from prompt_toolkit.output.color_depth import ColorDepth

from inline_render import Config, ConfirmRequest, Input, LogAppend, Notify, PermissionPreview, Renderer, Status
from inline_render.core.backend import Vt100Backend
from inline_render.core.ops import Plan, Text
from inline_render.inputs import input_from_json, input_to_json
from inline_render.protocol.events import PermissionPreviewEvent, parse_event
from inline_render.protocol.transcript import Transcript
from inline_render.shell import AppOptions, InlineApp, OutputMode
from inline_render.shell.probe import TerminalInfo
from inline_render.shell.runner import config_for
from inline_render.shell.terminal_io import color_depth_for
from inline_render.testing import CheckedRenderer
from inline_render.text.spans import ansi_text
from inline_render.text.style import Segment, Style, row_text
from inline_render.text.themes import DEFAULT_THEME, Theme

PY_DIFF = "@@ -1 +1 @@\n-x = 1\n+x = 2"  # no +++/--- headers: only the preview's fields name the language
RECORDED = Path(__file__).parent / "protocol_recordings" / "codelia-observed.ndjson"


def diff_rows(preview: PermissionPreview, width: int = 40) -> list[tuple[Segment, ...]]:
    """The frame rows a preview draws (log tail), without blank rows."""
    renderer = Renderer.in_memory(width, 12, config=Config(viewport_height=10))
    rows = renderer.step([preview]).frame.rows
    return [row for row in rows if row_text(row).strip()]


def test_preview_language_highlights_a_diff_without_headers() -> None:
    """permission.preview's `language` picks the lexer: the number in `+x = 2` gets the python number colour."""
    plain = diff_rows(PermissionPreview("edit", PY_DIFF))
    python = diff_rows(PermissionPreview("edit", PY_DIFF, language="python"))
    plus_plain = next(row for row in plain if row_text(row).strip().startswith("+x"))
    plus_python = next(row for row in python if row_text(row).strip().startswith("+x"))
    assert row_text(plus_plain) == row_text(plus_python)
    assert not any(s.style.fg == "ansicyan" for s in plus_plain)  # unknown language: the side's colour only
    assert any(s.text == "2" and s.style.fg == "ansicyan" for s in plus_python)
    assert plus_python[1] == Segment("+", Style(fg="ansigreen", bold=True))  # the gutter stays


def test_preview_file_path_is_used_when_the_language_names_no_lexer() -> None:
    """codelia sends language "txt" beside file_path: an unknown language falls back to the file's name."""
    by_path = diff_rows(PermissionPreview("edit", PY_DIFF, file_path="src/app.py", language="no-such-lang"))
    plus = next(row for row in by_path if row_text(row).strip().startswith("+x"))
    assert any(s.text == "2" and s.style.fg == "ansicyan" for s in plus)


def test_preview_language_and_file_path_round_trip_as_json() -> None:
    """The scenario/JSON form carries both fields; a wrong type is an InvalidInput naming the field."""
    item = PermissionPreview("edit", PY_DIFF, file_path="a.py", language="python")
    assert input_from_json(input_to_json(item)) == item
    assert input_to_json(item)["language"] == "python"


def test_codelia_preview_event_keeps_file_path_and_language() -> None:
    """The recorded codelia preview (file_path notes.txt, language txt) reaches the PermissionPreview input."""
    events = [json.loads(line)["msg"].get("params", {}).get("event", {}) for line in RECORDED.read_text().splitlines()]
    raw = next(event for event in events if event.get("type") == "permission.preview")
    event = parse_event(raw)
    assert isinstance(event, PermissionPreviewEvent)
    inputs = Transcript().event("r1", event, legacy=False)
    preview = next(item for item in inputs if isinstance(item, PermissionPreview))
    assert (preview.file_path, preview.language) == ("notes.txt", "txt")


def test_the_runner_honours_force_color_and_asks_prompt_toolkit_about_term() -> None:
    """FORCE_COLOR sets the runner's depth (1: 16, 3: truecolor); NO_COLOR beats it; TERM=linux is 16 colours."""
    assert color_depth_for({"TERM": "xterm-256color", "FORCE_COLOR": "3"}) is ColorDepth.DEPTH_24_BIT
    assert color_depth_for({"TERM": "xterm-256color", "FORCE_COLOR": "1"}) is ColorDepth.DEPTH_4_BIT
    assert color_depth_for({"TERM": "dumb", "FORCE_COLOR": "2"}) is ColorDepth.DEPTH_8_BIT
    assert color_depth_for({"TERM": "xterm", "FORCE_COLOR": "3", "NO_COLOR": "1"}) is ColorDepth.DEPTH_1_BIT
    assert color_depth_for({"TERM": "linux"}) is ColorDepth.DEPTH_4_BIT
    assert color_depth_for({"TERM": "dumb", "COLORTERM": "truecolor"}) is ColorDepth.DEPTH_1_BIT
    assert color_depth_for({"TERM": "xterm", "COLORTERM": "truecolor"}) is ColorDepth.DEPTH_24_BIT


def test_no_color_keeps_attributes_and_drops_colours_on_the_wire() -> None:
    """At the depth NO_COLOR gives, a bold red run is written bold with no colour code."""
    backend = Vt100Backend(lambda data: len(data), color_depth_for({"TERM": "xterm", "NO_COLOR": "1"}))
    data, _ = backend.encode(Plan((Text("x", Style(fg="ansired", bold=True)),)))
    assert data.endswith(b"\x1b[0;1mx")  # reset + bold, no colour parameter


GREEN = Style(fg="ansigreen", bold=True)
OK = ansi_text([Segment("PASS", GREEN), " 12 tests \x1b[2J"])  # the app's own text stays untrusted


def frame_rows(*inputs: Input, width: int = 40) -> list[tuple[Segment, ...]]:
    """The viewport rows after one tick of ``inputs``."""
    renderer = Renderer.in_memory(width, 12, config=Config(viewport_height=10))
    return list(renderer.step(list(inputs)).frame.rows)


def test_a_styled_status_keeps_its_segments_and_neutralizes_the_rest() -> None:
    """Status(styled=True): the status row carries the app's styles; an unstyled status shows SGR as a picture."""
    rows = frame_rows(Status(OK, styled=True))
    status = rows[-2]
    assert status[0] == Segment("PASS", GREEN)
    assert row_text(status) == "PASS 12 tests \u241b[2J"
    plain = frame_rows(Status(OK))[-2]
    assert row_text(plain).startswith("\u241b[0;1;32mPASS")
    assert all(segment.style.fg is None for segment in plain)


def test_styled_notifications_and_log_entries_keep_their_kind_prefix() -> None:
    """Notify/LogAppend(styled=True): the kind's prefix first, then the styled segments (SGR only)."""
    rows = frame_rows(Notify(OK, "success", styled=True), LogAppend("tool", OK, styled=True))
    success = next(row for row in rows if "PASS" in row_text(row))
    assert row_text(success) == "\u2713 PASS 12 tests \u241b[2J"
    assert Segment("PASS", GREEN) in success
    tool = [row for row in rows if "PASS" in row_text(row)][1]
    assert row_text(tool).startswith("\u2699 PASS") and Segment("PASS", GREEN) in tool


def test_a_styled_dialog_message_wraps_with_its_styles() -> None:
    """ConfirmRequest(styled=True): the message wraps at the width and every piece keeps its segment's style."""
    red = Style(fg="ansired")
    message = ansi_text([Segment("delete ", red), Segment("everything under /srv/data now", GREEN)])
    rows = frame_rows(ConfirmRequest("c1", "Sure?", message, styled=True), width=20)
    body = [row for row in rows if row_text(row).startswith("  ") and row_text(row).strip()]
    assert [row_text(row) for row in body[:3]] == ["  delete everything", "  under /srv/data", "  now"]
    assert body[0][1:] == (Segment("delete ", red), Segment("everything", GREEN))
    assert body[1][1:] == (Segment("under /srv/data", GREEN),)
    unstyled = frame_rows(ConfirmRequest("c1", "Sure?", message), width=60)
    assert any("\u241b[" in row_text(row) for row in unstyled)


def test_styled_flags_round_trip_as_json() -> None:
    """The styled flag is part of each input's JSON form (scenarios record it)."""
    for item in (
        Status(OK, styled=True),
        Notify(OK, "warn", styled=True),
        LogAppend("tool", OK, styled=True),
        ConfirmRequest("c", "t", OK, styled=True),
    ):
        assert input_to_json(item)["styled"] is True
        assert input_from_json(input_to_json(item)) == item


def test_the_app_api_takes_styled_segments_for_status_fields_and_log_entries() -> None:
    """app.status(field=[Segment...]) keeps the styles on the status row; app.log(kind, [Segment...]) logs
    the segments' text under the kind's prefix with their own escapes inert."""
    out = io.StringIO()
    app = InlineApp(AppOptions(mode=OutputMode.PLAIN, line_input=False), stdout=out)
    seen: list[object] = []

    async def main(app: InlineApp) -> None:
        app.status(model="m1", tests=[Segment("PASS", GREEN), " 12"])
        app.log("tool", [Segment("built", GREEN), " \x1b[2J"])
        for _ in range(400):
            if app.state is not None and app.state.status_row and "built" in out.getvalue():
                break
            await asyncio.sleep(0.005)
        seen.append(app.state.status_row if app.state is not None else None)

    asyncio.run(asyncio.wait_for(app.run(main), 10))
    assert seen[0] == (Segment("m1 \u00b7 "), Segment("PASS", GREEN), Segment(" 12"))
    assert "\u2699 built \u241b[2J\n" in out.getvalue()


MINE = Theme(
    "mine",
    "ansi",
    {
        "prefix.user": Style(fg="ansiyellow"),
        "kind.tool": Style(fg="ansiblue", italic=True),
        "kind.reasoning": Style(fg="ansibrightblack"),
        "dialog_title": Style(fg="ansiblue", underline=True),
        "dialog_selected": Style(fg="ansiblack", bg="ansiyellow"),
    },
)


def test_a_theme_restyles_kind_prefixes_kind_text_and_dialogs() -> None:
    """prefix.<kind>, kind.<kind> and dialog_* of a custom theme reach the frame; kinds it omits keep theme.py's."""
    renderer = Renderer.in_memory(40, 14, config=Config(viewport_height=12, theme=MINE))
    inputs: list[Input] = [LogAppend("user", "hi"), LogAppend("tool", "ls"), LogAppend("error", "bad")]
    inputs += [LogAppend("reasoning", "hmm"), ConfirmRequest("c1", "Run it?")]
    rows = list(renderer.step(inputs).frame.rows)
    by_text = {row_text(row): row for row in rows}
    assert by_text["\u203a hi"][0] == Segment("\u203a ", Style(fg="ansiyellow"))
    assert by_text["\u2699 ls"][1] == Segment("ls", Style(fg="ansiblue", italic=True))
    assert by_text["\u2717 bad"][1] == Segment("bad", Style(fg="ansired"))  # not in the theme: built-in
    assert by_text["\u22ee hmm"][1] == Segment("hmm", Style(fg="ansibrightblack"))
    assert by_text["? Run it?"] == (Segment("? Run it?", Style(fg="ansiblue", underline=True)),)
    choices = next(row for row in rows if "[y]" in row_text(row))
    assert Segment("[y] Yes", Style(fg="ansiblack", bg="ansiyellow")) in choices


def test_themed_rows_enter_scrollback_once() -> None:
    """With a theme restyling plain kinds, rows inserted into scrollback match the drawn ones: none twice."""
    app = CheckedRenderer(30, 8, config=Config(viewport_height=4, theme=MINE), use_pyte=True)
    for index in range(12):
        app.feed([LogAppend("tool" if index % 2 else "user", f"line {index}")])
    app.feed([LogAppend("text", "\n".join("end" for _ in range(6)))])
    shown = [line for line in app.history if line.strip().startswith(("\u203a", "\u2699"))]
    assert shown == [("\u2699 " if index % 2 else "\u203a ") + f"line {index}" for index in range(12)]


def test_the_runner_turns_links_on_only_where_the_terminal_is_known_to_show_them() -> None:
    """AppOptions.hyperlinks None: OSC 8 on for WezTerm/VTE, off for plain xterm and inside tmux; False wins."""
    info = TerminalInfo()
    assert config_for(AppOptions(), info, {"TERM_PROGRAM": "WezTerm"}).hyperlinks is True
    assert config_for(AppOptions(), info, {"VTE_VERSION": "7600", "TERM": "xterm-256color"}).hyperlinks is True
    assert config_for(AppOptions(), info, {"TERM": "xterm-256color"}).hyperlinks is False
    assert config_for(AppOptions(), info, {"TERM_PROGRAM": "WezTerm", "TMUX": "/tmp/t"}).hyperlinks is False
    assert config_for(AppOptions(hyperlinks=False), info, {"TERM_PROGRAM": "WezTerm"}).hyperlinks is False
    forced = AppOptions(config=Config(hyperlinks=True))
    assert config_for(forced, info, {"TERM": "xterm-256color"}).hyperlinks is True


def test_a_derived_theme_keeps_what_it_does_not_replace() -> None:
    """DEFAULT_THEME.derive(...) replaces the named elements only; a bare theme's status line stays dim."""
    mine = DEFAULT_THEME.derive("mine", {"strong": Style(fg="ansired")}, code_style="monokai")
    assert mine.style("strong") == Style(fg="ansired") and mine.style("heading1") == DEFAULT_THEME.style("heading1")
    assert (mine.name, mine.code_style, DEFAULT_THEME.style("strong")) == ("mine", "monokai", Style(bold=True))
    bare = Theme("bare", "ansi", {})
    renderer = Renderer.in_memory(40, 6, config=Config(viewport_height=4, theme=bare))
    rows = renderer.step([Status("busy")]).frame.rows
    assert rows[-2] == (Segment("busy", Style(dim=True)),)
