"""The composer on prompt_toolkit's editing model: history, search, undo, kill ring, pastes, completion, bindings."""

from __future__ import annotations

import asyncio
from pathlib import Path

from prompt_toolkit.key_binding.key_processor import KeyPress
from prompt_toolkit.keys import Keys

from inline_render import Completions, Config, HistorySet, Key, Paste, Renderer, Submit
from inline_render.outputs import CompleteRequest
from inline_render.shell import AppOptions, InlineApp
from inline_render.shell.keys import map_key_presses
from inline_render.testing.pilot import run_app
from inline_render.widgets.completion import PathCompleter, SlashCommand, SlashCommands
from inline_render.widgets.editor import composer_key, with_history


def _renderer(history: tuple[str, ...] = ()) -> Renderer:
    renderer = Renderer.in_memory(60, 12)
    renderer.feed([HistorySet(history)])
    return renderer


def _keys(renderer: Renderer, *keys: str) -> list[object]:
    outputs: list[object] = []
    for key in keys:
        outputs += renderer.feed([Key(key)])
    return outputs


def test_history_up_down_keeps_the_draft() -> None:
    """Up on the first line walks back through submitted lines; Down past the newest gives the draft back."""
    renderer = _renderer(("first", "second"))
    _keys(renderer, *"dra", "up")
    assert renderer.state.composer.text == "second"
    _keys(renderer, "up", "up")
    assert renderer.state.composer.text == "first"
    _keys(renderer, "down", "down")
    assert renderer.state.composer.text == "dra"
    assert _keys(renderer, "up", "enter") == [Submit("second")]
    _keys(renderer, "up")
    assert renderer.state.composer.text == "second"


def test_ctrl_r_searches_backwards_and_escape_restores() -> None:
    """Ctrl-R + query shows the newest matching line, Ctrl-R again an older one; Esc restores the draft."""
    renderer = _renderer(("git status", "ls", "git push"))
    _keys(renderer, *"x", "c-r", *"git")
    assert renderer.state.composer.text == "git push"
    assert any("search: git" in row for row in renderer.terminal.screen_lines())
    _keys(renderer, "c-r")
    assert renderer.state.composer.text == "git status"
    _keys(renderer, "escape")
    assert renderer.state.composer.text == "x" and renderer.state.composer.search is None
    _keys(renderer, "c-r", *"ls", "enter")
    assert renderer.state.composer.text == "ls" and renderer.state.composer.search is None


def test_undo_redo_and_the_kill_ring() -> None:
    """A run of typing is one undo step; Alt-Z redoes; Alt-Backspace kills a word that Ctrl-Y yanks back."""
    renderer = _renderer()
    _keys(renderer, *"hello world")
    _keys(renderer, "m-backspace")
    assert renderer.state.composer.text == "hello "
    _keys(renderer, "c-a", "c-y")
    assert renderer.state.composer.text == "worldhello "
    _keys(renderer, "c-z")
    assert renderer.state.composer.text == "hello "
    _keys(renderer, "c-z", "c-z")
    assert renderer.state.composer.text == ""
    _keys(renderer, "m-z")
    assert renderer.state.composer.text == "hello world"


def test_alt_backspace_is_parsed_from_esc_backspace() -> None:
    """ESC followed by Backspace (what terminals send for Alt-Backspace) is the m-backspace key."""
    presses = [KeyPress(Keys.Escape, "\x1b"), KeyPress(Keys.ControlH, "\x7f")]
    assert map_key_presses(presses) == [Key("m-backspace")]


def test_large_paste_is_collapsed_and_submitted_whole() -> None:
    """A 50-line paste shows as one placeholder line; Enter submits and logs all 50 lines."""
    renderer = _renderer()
    text = "\n".join(f"line {n}" for n in range(50))
    renderer.feed([Paste(text)])
    assert renderer.state.composer.text == f"[Pasted text #1: 50 lines, {len(text)} chars]"
    assert _keys(renderer, "enter") == [Submit(text)]
    shown = [line.strip() for line in renderer.terminal.all_lines()]
    assert shown.count("line 49") == 1 and any(line.endswith("line 0") for line in shown)
    assert not any("Pasted text" in line for line in shown)


def test_tab_asks_for_completions_and_a_menu_is_drawn() -> None:
    """Tab is a CompleteRequest; several completions open a menu under the text; Down+Enter accepts one."""
    renderer = _renderer()
    assert _keys(renderer, "/", "c", "tab") == [CompleteRequest("/c", 2)]
    renderer.feed([Completions("/c", 2, ("/clear", "/cancel"), ("forget the log", "stop the run"), 2)])
    screen = renderer.terminal.screen_lines()
    assert any("\u25b8 /clear  forget the log" in row for row in screen)
    assert any("/cancel  stop the run" in row for row in screen)
    _keys(renderer, "down", "enter")
    assert renderer.state.composer.text == "/cancel" and not renderer.state.composer.menu
    assert not any("/clear" in row for row in renderer.terminal.screen_lines())


def test_stale_completions_are_ignored() -> None:
    """Completions computed for other text than the composer holds now change nothing."""
    renderer = _renderer()
    _keys(renderer, "a", "b")
    renderer.feed([Completions("a", 1, ("abc", "abd"), (), 1)])
    assert renderer.state.composer.menu == ()


def test_word_motions_follow_prompt_toolkit_document() -> None:
    """Alt-B / Alt-F move by words as prompt_toolkit's Document defines them."""
    composer = with_history(_renderer().state.composer, ())
    for key in "one two":
        composer = composer_key(composer, key)[0]
    composer = composer_key(composer, "m-b")[0]
    assert composer.cursor == 4
    composer = composer_key(composer, "m-b")[0]
    assert composer.cursor == 0
    composer = composer_key(composer, "m-f")[0]
    assert composer.cursor == 3


async def _quiet(app: InlineApp) -> None:
    async for _ in app.outputs():
        pass


def test_app_completer_history_file_and_bindings(tmp_path: Path) -> None:
    """In a running app: slash commands complete (one match applied), the history file is read and
    written, and a bound key runs the app's handler instead of reaching the composer."""
    history = tmp_path / "history"
    history.write_text("\n# 2026-01-01\n+old line\n", encoding="utf-8")
    pressed: list[str] = []

    def setup(app: InlineApp) -> None:
        app.completer = SlashCommands({"help": "show help", "model": SlashCommand("pick a model", ["fast", "slow"])})
        app.bind("c-o", lambda app: pressed.append("c-o"))

    async def scenario() -> None:
        async with run_app(
            _quiet, columns=60, rows=12, options=AppOptions(history_file=str(history)), setup=setup
        ) as pilot:
            await pilot.type("/he")
            await pilot.press("tab")
            await pilot.wait_for(lambda p: p.state.composer.text == "/help")
            await pilot.press("c-u")
            await pilot.type("/model f")
            await pilot.press("tab")
            await pilot.wait_for(lambda p: p.state.composer.text == "/model fast")
            await pilot.press("c-o", "enter")
            await pilot.press("up")
            assert pilot.state.composer.text == "/model fast"
            await pilot.press("up")
            assert pilot.state.composer.text == "old line"

    asyncio.run(scenario())
    assert pressed == ["c-o"]
    assert "+/model fast" in history.read_text(encoding="utf-8")


def test_path_completer_is_offered() -> None:
    """Paths complete through prompt_toolkit's PathCompleter as a slash command's argument completer."""
    from inline_render.widgets.completion import complete

    completer = SlashCommands({"open": SlashCommand("open a file", PathCompleter())})
    answer = complete(completer, CompleteRequest("/open pyproject.to", 18))
    assert answer.items == ("ml",) and answer.replace == 0


def test_vi_mode_normal_and_insert() -> None:
    """Vi mode: Esc enters normal mode (keys move, x deletes, A appends), a second Esc interrupts."""
    from inline_render.outputs import Interrupt

    renderer = Renderer.in_memory(60, 12, config=Config(vi_mode=True))
    renderer.feed([])
    assert _keys(renderer, *"hello world", "escape") == []
    assert renderer.state.composer.vi_normal and renderer.state.composer.cursor == 10
    _keys(renderer, "0", "x", "w")
    assert renderer.state.composer.text == "ello world" and renderer.state.composer.cursor == 5
    _keys(renderer, "b", "A", *"!")
    assert renderer.state.composer.text == "ello world!" and not renderer.state.composer.vi_normal
    _keys(renderer, "escape", "u")
    assert renderer.state.composer.text == "ello world"
    assert _keys(renderer, "escape") == [Interrupt("escape")]
    assert _keys(renderer, "enter") == [Submit("ello world")]
    assert not renderer.state.composer.vi_normal


def test_a_recorded_session_with_history_replays(tmp_path: Path) -> None:
    """The history is an input (history.set), so a recording that browses it replays to the same answers."""
    from inline_render.scenario import load_scenario, replay

    path = tmp_path / "history.jsonl"
    renderer = Renderer.in_memory(40, 10)
    with renderer.record_to(path):
        renderer.feed([HistorySet(("deploy prod",))])
        outputs = _keys(renderer, "up", "enter")
    assert outputs == [Submit("deploy prod")]
    assert '"history.set"' in path.read_text(encoding="utf-8")
    assert replay(load_scenario(path)).passed


def test_history_and_completions_are_neutralized() -> None:
    """Escape sequences in a history file or a completer's items never reach the terminal raw."""
    renderer = _renderer(("evil \x1b[2J line",))
    _keys(renderer, "up")
    assert "\x1b" not in renderer.state.composer.text
    _keys(renderer, "c-u", "x")
    renderer.feed([Completions("x", 1, ("x\x1b]52;c;AAAA\x07", "xy"), ("\x1b[31mred",), 1)])
    assert all("\x1b" not in item for item in (*renderer.state.composer.menu, *renderer.state.composer.menu_meta))
    screen = "\n".join(renderer.terminal.screen_lines())
    assert "\x1b" not in screen and "\u241b" in screen  # shown as a visible ESC picture
