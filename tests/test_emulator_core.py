"""Emulator-proven behaviour of the core: every tick's bytes go through TestTerminal and pyte (CheckedRenderer)."""

from __future__ import annotations

import pytest

from inline_render import (
    Config,
    ConfirmCancel,
    ConfirmRequest,
    Fault,
    Key,
    LegacyText,
    LogAppend,
    LogClear,
    LogDelta,
    LogFinish,
    LogReplace,
    Paste,
    PermissionPreview,
    PermissionReady,
    PickAnswer,
    PickOption,
    PickRequest,
    PromptAnswer,
    PromptRequest,
    Resize,
    Status,
    SyncPhase,
    WidthPolicy,
)
from inline_render.testing import CheckedRenderer


def lines(n: int, prefix: str = "line") -> str:
    return "\n".join(f"{prefix} {i}" for i in range(n))


def assert_once_in_order(app: CheckedRenderer, wanted: list[str]) -> None:
    """Each wanted row appears exactly once on the terminal (scrollback + screen), in this order."""
    seen = app.terminal.all_lines()
    positions = []
    for text in wanted:
        assert seen.count(text) == 1, (text, app.terminal.dump())
        positions.append(seen.index(text))
    assert positions == sorted(positions)


def test_burst_larger_than_the_viewport_inserts_every_row_once() -> None:
    """A 100-row append into a 6-row log area lands in scrollback once, in order, in batches."""
    app = CheckedRenderer(40, 12, config=Config(viewport_height=8))
    app.feed([LogAppend("text", lines(100))])
    assert app.history == [f"line {i}" for i in range(94)]
    assert app.terminal.all_lines()[: len(app.history)] == app.history


def test_streaming_commits_complete_lines_only() -> None:
    """A streamed line enters scrollback only once its newline arrived."""
    app = CheckedRenderer(40, 10, config=Config(viewport_height=4))  # 2 log rows
    app.feed([LogAppend("text", "", id="s", final=False)])
    for delta in ["one\ntwo\nthr", "ee\nfo", "ur"]:
        app.feed([LogDelta("s", delta)])
    assert app.history == ["one", "two"]
    app.feed([LogFinish("s")])
    assert app.history == ["one", "two"]
    app.feed([LogAppend("text", "five")])
    assert app.history == ["one", "two", "three"]


def test_uncommitted_long_line_is_never_inserted_early() -> None:
    """A long streaming paragraph taller than the log area waits; the tail stays visible."""
    app = CheckedRenderer(20, 10, config=Config(viewport_height=4))  # 2 log rows
    app.feed([LogAppend("text", "", id="s", final=False)])
    for _ in range(30):
        app.feed([LogDelta("s", "word ")])
    assert app.history == []
    assert app.terminal.screen_lines()[:2] == ["word word word word", "word word"]  # the newest rows
    app.feed([LogDelta("s", "end\n")])
    assert len(app.history) == 7 and app.history[-1].startswith("word")


def test_replace_after_commit_keeps_committed_text() -> None:
    """log.replace changes only the unfinished part; committed rows are never rewritten or duplicated."""
    app = CheckedRenderer(40, 10, config=Config(viewport_height=3))  # 1 log row
    app.feed([LogAppend("text", "", id="s", final=False)])
    app.feed([LogDelta("s", "first\nsecond\npartial")])
    app.feed([LogReplace("s", "FIRST\nSECOND\ncomplete")])
    app.feed([LogFinish("s"), LogAppend("text", "next")])
    assert app.history == ["first", "second", "complete"]


def test_updates_to_unknown_entries_show_one_error_line() -> None:
    """A delta for an unknown entry is dropped with a visible error, never an exception."""
    app = CheckedRenderer(60, 10)
    app.feed([LogDelta("nope", "x")])
    assert any("no unfinished entry 'nope'" in line for line in app.terminal.screen_lines())


def test_clear_resets_the_boundary_without_touching_scrollback() -> None:
    """log.clear resets inserted_until and counts from 0 again, from the rows it sends into scrollback (what the
    viewport showed); rows already in scrollback stay there exactly once, the shown ones follow them."""
    app = CheckedRenderer(30, 8, config=Config(viewport_height=4))
    app.feed([LogAppend("text", lines(6))])
    before = list(app.terminal.scrollback)
    shown = app.renderer.render_state.wrapped_total - app.renderer.render_state.inserted_until
    assert shown > 0
    app.feed([LogClear()])
    assert app.renderer.render_state.inserted_until == shown
    app.feed([LogAppend("text", lines(3, "new"))])
    assert app.terminal.scrollback[: len(before)] == before
    every = [line for line in app.terminal.scrollback + app.terminal.screen_lines() if line.strip(" ›")]
    assert every == lines(6).split("\n") + lines(3, "new").split("\n")


@pytest.mark.parametrize("rows", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("columns", [1, 2, 3, 10])
def test_tiny_terminals_never_lose_or_duplicate_rows(columns: int, rows: int) -> None:
    """On 1-6 rows and 1-10 columns every committed row still reaches scrollback once, in order."""
    app = CheckedRenderer(columns, rows)
    for i in range(8):
        app.feed([LogAppend("text", f"r{i}")])
    app.feed([ConfirmRequest("c", "ok?")])
    app.feed([])
    app.feed([Key("n")])
    app.feed([LogAppend("user", "中文 wide")])
    joined = "".join(line.strip() for line in app.terminal.all_lines())
    assert joined.count("r0r1r2r3r4r5r6r7") == 1


def test_viewport_starts_at_the_cursor_row_and_moves_down() -> None:
    """Started mid-screen, the viewport sits at the cursor row and descends as history grows."""
    app = CheckedRenderer(30, 20, config=Config(viewport_height=5), cursor_row=6)
    app.feed([])
    assert app.renderer.state.screen.top == 6
    app.feed([LogAppend("text", lines(10))])
    assert app.renderer.state.screen.top == 13


@pytest.mark.parametrize(("compact", "top"), [(False, 15), (True, 18)])
def test_unknown_cursor_row_starts_at_the_bottom(compact: bool, top: int) -> None:
    """Without a cursor report the viewport is placed at the bottom, pushing the screen up: its 5 rows, or, compact,
    the status line and the composer."""
    app = CheckedRenderer(30, 20, config=Config(viewport_height=5, compact=compact), cursor_row=None)
    app.feed([])
    assert app.renderer.state.screen.top == top


@pytest.mark.parametrize("after", [0, 1, 5, 12, 40, 80, 200])
def test_write_failure_recovers_without_loss_or_duplication(after: int) -> None:
    """A terminal write failing after N bytes: later ticks resume, every row is inserted exactly once."""
    app = CheckedRenderer(30, 10, config=Config(viewport_height=4))
    app.feed([LogAppend("text", lines(5))])
    result = app.step([Fault(after), LogAppend("text", lines(6, "more"))])
    assert not result.effect.complete or result.effect.bytes_written <= after or after >= 200
    app.feed([])
    app.feed([LogAppend("text", "tail")])
    app.feed([])
    assert_once_in_order(app, [f"line {i}" for i in range(5)] + [f"more {i}" for i in range(6)] + ["tail"])


def test_resizes_mid_stream_rewrap_only_uninserted_text() -> None:
    """Narrow/widen/narrow while streaming: nothing inserted twice, the rest re-wrapped to the new width."""
    app = CheckedRenderer(40, 12, config=Config(viewport_height=5))
    app.feed([LogAppend("assistant", "", id="a", final=False)])
    for step, size in enumerate([(20, 12), (60, 10), (15, 8), (40, 12)]):
        app.feed([LogDelta("a", f"sentence number {step} is long enough to wrap around.\n")])
        app.feed([Resize(*size)])
    app.feed([LogFinish("a"), LogAppend("text", lines(6))])
    joined = " ".join(row.strip() for row in app.history)
    for step in range(4):
        assert joined.count(f"number {step} ") == 1


def test_dialog_open_close_repeatedly_never_duplicates_rows() -> None:
    """Opening and closing confirms while the log overflows keeps every row exactly once."""
    app = CheckedRenderer(40, 14, config=Config(viewport_height=8))
    for round_ in range(6):
        app.feed([LogAppend("text", lines(3, f"round{round_}"))])
        app.feed([ConfirmRequest(f"c{round_}", "Proceed?", "message line\n" * round_)])
        app.feed([])
        app.feed([Key("y" if round_ % 2 else "escape")])
    assert_once_in_order(app, [f"round{r} {i}" for r in range(6) for i in range(3)])


def test_pending_dialog_blocks_keys_then_answers() -> None:
    """Keys in the tick that opens a dialog are consumed; after the next tick they answer it."""
    app = CheckedRenderer(40, 12)
    outputs = app.step([ConfirmRequest("c", "Sure?"), Key("y"), Paste("pasted")]).outputs
    assert outputs == () and app.renderer.state.composer.text == ""
    assert app.feed([Key("n")])[0].ok is False  # type: ignore[union-attr]


def test_prompt_dialog_secret_input_and_answer() -> None:
    """A secret prompt masks input, keeps the cursor in its field, and answers with the text."""
    app = CheckedRenderer(40, 12)
    app.feed([PromptRequest("p", "Token?", secret=True)])
    app.feed([])
    app.feed([Key(c) for c in "s3cr"])
    assert any("> ****" in line for line in app.terminal.screen_lines())
    assert not any("s3cr" in line for line in app.terminal.all_lines())
    assert app.feed([Key("enter")]) == [PromptAnswer("p", "s3cr")]


def test_pick_dialog_filters_and_multi_selects() -> None:
    """A pick dialog filters by typing, toggles with space in multi mode, answers ids in option order."""
    options = tuple(PickOption(f"id{i}", f"option {i}") for i in range(30))
    app = CheckedRenderer(40, 12, config=Config(viewport_height=8))
    app.feed([PickRequest("k", "Choose", options, multi=True)])
    app.feed([])
    app.feed([Key("2")])  # filter: option 2, 12, 20..29
    app.feed([Key("down"), Key(" "), Key("up"), Key(" ")])
    assert app.feed([Key("enter")]) == [PickAnswer("k", ("id2", "id12"))]


def test_tall_dialog_scrolls_inside_the_viewport() -> None:
    """A dialog taller than the viewport keeps its focus row visible and the composer in place."""
    options = tuple(PickOption(f"o{i}", f"choice {i}") for i in range(50))
    app = CheckedRenderer(30, 10, config=Config(viewport_height=6))
    app.feed([PickRequest("k", "Pick one", options)])
    app.feed([])
    for _ in range(20):
        app.feed([Key("down")])
    assert any("\u203a choice 20" in line for line in app.terminal.screen_lines())
    assert app.feed([Key("enter")]) == [PickAnswer("k", ("o20",))]


def test_cancel_closes_the_dialog_and_opens_the_next_queued_one() -> None:
    """confirm.cancel closes the open dialog without an answer; a queued request opens next, pending."""
    app = CheckedRenderer(40, 12)
    app.feed([ConfirmRequest("a", "First?"), ConfirmRequest("b", "Second?")])
    app.feed([])
    app.feed([ConfirmCancel("a")])
    assert app.renderer.state.dialog.id == "b"  # type: ignore[union-attr]
    assert app.renderer.render_state.confirm_phase.value == "pending"


def test_follow_up_redraw_happens_exactly_once() -> None:
    """Renderer.feed runs one follow-up tick after an insert and ends idle with the cursor shown."""
    app = CheckedRenderer(30, 8, config=Config(viewport_height=3))
    before = app.renderer.ticks
    app.feed([LogAppend("text", lines(5))])
    assert app.renderer.ticks - before == 2
    assert app.renderer.render_state.sync_phase is SyncPhase.IDLE


def test_grapheme_width_policy_renders_emoji_as_two_cells() -> None:
    """With the grapheme policy, emoji sequences are 2 cells wide and rows still fit and insert once."""
    config = Config(viewport_height=4, width_policy=WidthPolicy.GRAPHEME)
    app = CheckedRenderer(10, 8, config=config, use_pyte=False)  # pyte measures code points only
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    app.feed([LogAppend("text", f"ab{family}{family}{family}\n\U0001f1fa\U0001f1f8x\n\u2764\ufe0f" * 3)])
    assert app.history[0] == f"ab{family}{family}{family}"
    assert app.history[1] == "\U0001f1fa\U0001f1f8x"


def test_hostile_text_never_reaches_the_wire_as_control_bytes() -> None:
    """OSC 52, CSI 2J, DCS, C1, bare ESC and \\r in log text: the bytes on the wire hold only our sequences."""
    hostile = "a\x1b]52;c;ZXZpbA==\x07b\x1b[2Jc\x1bP1$r\x1b\\d\x9b31me\x1bf\r\x07\x00"
    app = CheckedRenderer(60, 10, config=Config(viewport_height=4))
    app.feed([LogAppend("assistant", hostile), Status(hostile), LogAppend("text", "x\n" * 5)])
    app.feed([ConfirmRequest("c", hostile, hostile)])
    data = bytes(app.bytes)
    for needle in (b"\x1b]", b"\x1b[2J", b"\x1bP", b"\xc2\x9b", b"\x07", b"\x00", b"\r\x07"):
        assert needle not in data
    assert "\u241b]52;c;ZXZpbA==\u2407b\u241b[2Jc" in "\n".join(app.terminal.all_lines())


def test_legacy_preflight_text_renders_like_structured_events() -> None:
    """legacy.text lines (header, diff, ready) give the same terminal as permission.preview/ready."""
    diff = "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-old\n+new"
    structured = CheckedRenderer(50, 12, config=Config(viewport_height=5))
    structured.feed([PermissionPreview("edit", diff=diff)])
    structured.feed([PermissionReady("edit"), LogAppend("text", "after")])
    legacy = CheckedRenderer(50, 12, config=Config(viewport_height=5))
    legacy.feed([LegacyText("Planned edit diff preview")])
    legacy.feed([LegacyText(line) for line in diff.split("\n")])
    legacy.feed([LegacyText("Permission preflight ready (edit)"), LogAppend("text", "after")])
    assert legacy.terminal.all_lines() == structured.terminal.all_lines()
    assert "  Permission preflight ready (edit)" in structured.terminal.all_lines()


def test_a_dialog_too_tall_keeps_its_title_above_the_focus_row() -> None:
    """In a small viewport a long confirm shows its title and its buttons, and up scrolls the message."""
    app = CheckedRenderer(40, 10, config=Config(viewport_height=5))
    message = "\n".join(f"message line {i}" for i in range(10))
    app.feed([ConfirmRequest("c", "Delete everything?", message, danger_level="high")])
    app.feed([])
    screen = app.terminal.screen_lines()
    assert "! Delete everything?" in screen
    assert any("[y] Yes" in line and "[n] No" in line for line in screen)
    app.feed([Key("up")])
    assert "  message line 9" in app.terminal.screen_lines()
    assert app.feed([Key("enter")])[0].ok is False  # type: ignore[union-attr]  # danger: default is cancel


def test_rows_a_narrowing_shrink_pushes_are_cut_alike_in_both_emulators() -> None:
    """A status of wide characters pushed into history by a shrink that also narrows is cut to the new width
    in pyte as in TestTerminal (the state machine found pyte keeping ' 漢字テスト́' whole: 11 cells in 10,
    its cut missed the wide ``ト`` because a zero-width mark came last in the cluster)."""
    app = CheckedRenderer(30, 10)
    app.feed([])
    app.feed([Status(" 漢字テスト\u0301")])
    app.feed([Resize(10, 2), Resize(1, 1)])  # checked: the history pyte shows must be the one inserted
    assert app.pyte is not None
    assert app.pyte.scrollback == app.terminal.scrollback
    assert app.terminal.scrollback[-1] == " 漢字テス"
