"""``RenderMachine``: a hypothesis state machine driving a ``CheckedRenderer`` (needs ``hypothesis``).

Every rule runs one or more ticks through ``CheckedRenderer`` (so every
emulator property is asserted after each tick: history exactly once and in
order, viewport equals frame, cursor only at the composer, no forbidden
sequence), and the ``@invariant`` methods check the RenderState contract
between rules.

Subclass it to test an application built on the library: override
``make_renderer`` (size, config), add ``@rule`` methods that feed your
inputs through ``self.feed``, add ``@invariant`` methods of your own, and
react to outputs in ``on_outputs``::

    from hypothesis import settings
    from hypothesis.stateful import rule
    from inline_render.testing import RenderMachine
    from inline_render import LogAppend

    class ChatMachine(RenderMachine):
        columns, rows = 60, 20

        @rule()
        def tool_burst(self) -> None:
            self.feed([LogAppend("tool", "ran ls\\nfile_a\\nfile_b")])

    TestChat = ChatMachine.TestCase
    TestChat.settings = settings(max_examples=50, stateful_step_count=30)

An app that opens dialogs of its own (say a confirm for every submitted line) does so
from ``on_outputs`` through ``self.feed``: ``self.dialogs`` (the ids requested and not
yet answered or cancelled, kept by ``feed`` from the inputs) and the answer-order
check then include them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from ..core.state import Config, ConfirmPhase, CursorPhase, SyncPhase
from ..errors import InvariantViolation
from ..inputs import (
    Clock,
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    Fault,
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
    PickRequest,
    PromptRequest,
    Resize,
    Status,
    Working,
)
from ..outputs import ConfirmAnswer, FormAnswer, Output, PickAnswer, PromptAnswer
from ..terminals.memory import TerminalFamily
from . import strategies as ist
from .checks import CheckedRenderer, dialog_has_the_keys, stream_end

__all__ = ["RenderMachine"]

ANSWERS = (ConfirmAnswer, PromptAnswer, PickAnswer, FormAnswer)
_NUMBERED = re.compile(r"line \d+\.\d+")  # the rows ``append_many_lines`` logs, whole
DIALOG_REQUESTS = (ConfirmRequest, PromptRequest, PickRequest, FormRequest)


class RenderMachine(RuleBasedStateMachine):
    """Random sessions of appends, streams, clears, resizes, dialogs, keys, pastes and write faults.

    Class attributes a subclass may change: ``columns``, ``rows``, ``config``,
    ``use_pyte`` (the second emulator; slower), ``family`` (which real terminal's resize the
    ``TestTerminal`` models) and ``inflight`` (adds ``inflight_resize``: the terminal is resized
    while a tick's bytes are still unread; off by default).
    """

    columns: int = 40
    rows: int = 12
    config: Config = Config(viewport_height=8)
    use_pyte: bool = True
    family: TerminalFamily = TerminalFamily.SIMPLE
    inflight: bool = False

    def __init__(self) -> None:
        super().__init__()
        self.app = self.make_renderer()
        self.streams: list[str] = []  # ids of unfinished streaming entries
        self.dialogs: list[str] = []  # ids of requested dialogs (open or queued), oldest first: see feed
        self.answered: list[str] = []  # ids answered by an output
        self.outputs: list[Output] = []
        self.counter = 0
        self.now = 0.0
        self.history_at_clear = 0
        self.reinserted_at_clear = 0
        self.feed([])  # the startup frame

    # ------------------------------------------------------------ hooks
    def make_renderer(self) -> CheckedRenderer:
        """The renderer under test (override for another size, config, or a wrapped app)."""
        return CheckedRenderer(self.columns, self.rows, config=self.config, use_pyte=self.use_pyte, family=self.family)

    def on_outputs(self, outputs: Sequence[Output]) -> None:
        """Called with the outputs of every ``feed`` (override to drive your app's reactions)."""

    def feed(self, inputs: Iterable[Input]) -> list[Output]:
        """One tick and its follow-up redraw, all checked; answers must come once each, in dialog order.

        ``self.dialogs`` (ids of the dialogs requested and neither answered nor cancelled, oldest first) is
        kept here from the inputs themselves, so a dialog the app under test opens in ``on_outputs`` (through
        ``self.feed``) counts like one a rule opened, and ``dialog_phase`` compares it with the core's state.
        """
        items = list(inputs)
        self.dialogs += [item.id for item in items if isinstance(item, DIALOG_REQUESTS)]
        cancelled = {item.id for item in items if isinstance(item, ConfirmCancel)}
        self.dialogs = [dialog_id for dialog_id in self.dialogs if dialog_id not in cancelled]
        outputs = self.app.feed(items)
        for output in outputs:
            if isinstance(output, ANSWERS):
                if output.id in self.answered:
                    raise AssertionError(f"dialog {output.id!r} answered twice")
                if not self.dialogs or self.dialogs[0] != output.id:
                    raise AssertionError(f"answer for {output.id!r} but the open dialog is {self.dialogs[:1]}")
                self.answered.append(output.id)
                self.dialogs.pop(0)
        self.outputs.extend(outputs)
        self.on_outputs(outputs)
        return outputs

    def _new_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    # ------------------------------------------------------------ log rules
    @rule(kind=st.sampled_from(ist.LOG_KINDS), text=ist.texts())
    def append(self, kind: str, text: str) -> None:
        self.feed([LogAppend(kind, text)])

    @rule(lines=st.integers(1, 30))
    def append_many_lines(self, lines: int) -> None:
        """A burst that overflows the viewport (forces scrollback insertion)."""
        self.feed([LogAppend("text", "\n".join(f"line {self.counter}.{i}" for i in range(lines)))])
        self.counter += 1

    @rule(kind=st.sampled_from(("assistant", "text", "reasoning")), text=ist.texts(4))
    def start_stream(self, kind: str, text: str) -> None:
        entry_id = self._new_id("s")
        self.streams.append(entry_id)
        self.feed([LogAppend(kind, text, entry_id, final=False)])

    @precondition(lambda self: self.streams)
    @rule(data=st.data(), text=ist.texts(6), newline=st.booleans())
    def stream_delta(self, data: st.DataObject, text: str, newline: bool) -> None:
        entry_id = data.draw(st.sampled_from(self.streams))
        self.feed([LogDelta(entry_id, text + ("\n" if newline else ""))])

    @rule(text=ist.markdown_texts(5), sizes=st.lists(st.integers(1, 9), min_size=1, max_size=8))
    def stream_markdown(self, text: str, sizes: list[int]) -> None:
        """A Markdown answer streamed in deltas of 1-9 characters (sizes repeat), then finished."""
        entry_id = self._new_id("m")
        self.feed([LogAppend("assistant", "", entry_id, final=False)])
        position = index = 0
        while position < len(text):
            size = sizes[index % len(sizes)]
            self.feed([LogDelta(entry_id, text[position : position + size])])
            position, index = position + size, index + 1
        self.feed([LogFinish(entry_id)])

    @precondition(lambda self: self.streams)
    @rule(data=st.data(), text=ist.texts(10))
    def stream_replace(self, data: st.DataObject, text: str) -> None:
        entry_id = data.draw(st.sampled_from(self.streams))
        self.feed([LogReplace(entry_id, text)])

    @precondition(lambda self: self.streams)
    @rule(data=st.data())
    def stream_finish(self, data: st.DataObject) -> None:
        entry_id = data.draw(st.sampled_from(self.streams))
        self.streams.remove(entry_id)
        self.feed([LogFinish(entry_id)])

    @rule(text=ist.texts(3))
    def update_unknown_entry(self, text: str) -> None:
        """Updates to an unknown entry become one error line, never an exception."""
        self.feed([LogDelta("no-such-entry", text)])

    @rule()
    def clear(self) -> None:
        self.streams.clear()
        # Counted before the clear: the rows it sends into scrollback (what was shown) count after the reset.
        self.history_at_clear = len(self.app.history)
        self.reinserted_at_clear = self.app.reinserted
        self.feed([LogClear()])

    @rule(
        tool=st.sampled_from(("edit", "bash", "write_file")),
        diff=ist.texts(8),
        truncated=st.booleans(),
        language=st.sampled_from((None, "python", "txt", "a.js", "\x1b]8;;x")),
    )
    def permission_preview(self, tool: str, diff: str, truncated: bool, language: str | None) -> None:
        preview = PermissionPreview(tool, diff=diff, truncated=truncated, language=language)
        self.feed([preview, PermissionReady(tool)])

    @rule(text=st.one_of(ist.texts(6), st.just("Planned edit diff preview\n@@ -1 +1 @@\n-a\n+b")))
    def legacy_text(self, text: str) -> None:
        self.feed([LegacyText(text)])

    @rule(text=ist.texts(4), kind=st.sampled_from(("info", "warn", "error", "success")), styled=st.booleans())
    def notify(self, text: str, kind: str, styled: bool) -> None:
        """A notification; ``styled``: the (hostile) text is parsed as trusted ANSI, SGR only."""
        self.feed([Notify(text, kind, styled)])

    # ------------------------------------------------------------ chrome rules
    @rule(text=ist.texts(3), working=st.booleans(), advance=st.floats(0, 5), styled=st.booleans())
    def status_and_clock(self, text: str, working: bool, advance: float, styled: bool = False) -> None:
        self.now += advance
        self.feed([Clock(self.now), Working(text) if working else Status(text, styled)])

    @rule(text=ist.texts(5))
    def editor_set(self, text: str) -> None:
        self.feed([EditorSet(text)])

    @rule(size=st.one_of(ist.tiny_sizes(), ist.sizes(4, 100, 2, 30)))
    def resize(self, size: tuple[int, int]) -> None:
        self.feed([Resize(*size)])

    @rule(storm=ist.resize_storms(4))
    def resize_storm(self, storm: list[list[Input]]) -> None:
        for tick in storm:
            self.feed(tick)

    @precondition(lambda self: self.inflight)
    @rule(lines=st.integers(0, 6), second=st.booleans(), resize=ist.inflight_resizes())
    def inflight_resize(self, lines: int, resize: tuple[float, tuple[int, int], bool], second: bool = False) -> None:
        """The terminal is resized while a tick's bytes (its follow-up's, and a second tick's) are unread."""
        fraction, size, report = resize
        ticks: list[list[Input]] = [[]]
        if lines:
            ticks[0].append(LogAppend("text", "\n".join(f"line {self.counter}.{i}" for i in range(lines))))
            self.counter += 1
        if second:
            ticks.append([Status(f"frame {self.counter}")])  # a second frame in flight: one that inserts nothing
        outputs = self.app.inflight(ticks, fraction, size, report)
        self.outputs.extend(outputs)
        self.on_outputs(outputs)

    # ------------------------------------------------------------ dialogs, keys
    @rule(data=st.data(), early=st.lists(ist.keys(), max_size=2))
    def open_dialog(self, data: st.DataObject, early: list[Key]) -> None:
        """A confirm/prompt/pick request, with keys typed in the same tick (blocked while pending)."""
        dialog_id = self._new_id("d")
        request = data.draw(ist.dialog_requests(dialog_id))
        was_open = self.app.state.dialog is not None
        outputs = self.feed([request, *early])
        if not was_open and any(isinstance(o, ANSWERS) and o.id == dialog_id for o in outputs):
            raise AssertionError("a key typed before the dialog was drawn answered it")

    @precondition(lambda self: self.dialogs)
    @rule(data=st.data())
    def cancel_dialog(self, data: st.DataObject) -> None:
        dialog_id = data.draw(st.sampled_from(self.dialogs))
        self.feed([ConfirmCancel(dialog_id)])
        assert dialog_id not in self.dialogs

    @rule(key=ist.keys())
    def key(self, key: Key) -> None:
        self.feed([key])

    @precondition(lambda self: self.app.state.dialog is not None)
    @rule(key=st.sampled_from(("y", "n", "enter", "escape")))
    def answer_dialog(self, key: str) -> None:
        self.feed([Key(key)])

    @rule(text=ist.texts(6))
    def paste(self, text: str) -> None:
        self.feed([Paste(text)])

    # ------------------------------------------------------------ faults
    @rule(after=st.integers(0, 400), lines=st.integers(0, 12))
    def write_fault(self, after: int, lines: int) -> None:
        """A write that fails after ``after`` bytes; the next tick must recover without loss or duplication."""
        inputs: list[Input] = [Fault(after)]
        if lines:
            inputs.append(LogAppend("text", "\n".join(f"fault {self.counter}.{i}" for i in range(lines))))
            self.counter += 1
        self.app.step(inputs)
        self.feed([])
        render = self.app.state.render
        if render.sync_phase is not SyncPhase.IDLE:
            raise AssertionError(f"not recovered one tick after a failed write: sync_phase {render.sync_phase.value}")

    # ------------------------------------------------------------ invariants
    @invariant()
    def render_state_order(self) -> None:
        r = self.app.state.render
        if not 0 <= r.inserted_until <= r.visible_start <= r.visible_end <= r.wrapped_total:
            raise InvariantViolation(f"row order broken: {r}")

    @invariant()
    def settled(self) -> None:
        """Between rules the renderer is idle with the cursor shown at the composer, or hidden: at the open text's
        end (GNU screen), or while a dialog without a text field has the keys."""
        r = self.app.state.render
        streaming = self.app.state.screen.stream is not None  # GNU screen: the cursor rests at the open text's end
        dialog = dialog_has_the_keys(self.app.state)
        phase = CursorPhase.VISIBLE_AT_COMPOSER
        if streaming or dialog:
            phase = CursorPhase.HIDDEN_AT_TEXT_END if streaming else CursorPhase.HIDDEN_AT_DIALOG
        if r.sync_phase is not SyncPhase.IDLE or r.cursor_phase is not phase:
            raise AssertionError(f"not settled after feed: {r.sync_phase.value}, {r.cursor_phase.value}")
        cursor = self.app.terminal.cursor
        if cursor.visible == (streaming or dialog):
            raise AssertionError(f"cursor visible in {phase.value}" if cursor.visible else "cursor hidden while idle")

    @invariant()
    def cursor_at_composer(self) -> None:
        """Between rules the terminal's cursor is exactly where the frame puts it (the focused field), visible unless
        it is hidden (at the open text's end on GNU screen, or while a dialog without a text field has the keys)."""
        last = self.app.renderer.last
        assert last is not None
        row, col = last.frame.cursor
        cursor = self.app.terminal.cursor
        wanted = stream_end(self.app.state) or (col, self.app.state.screen.top + row)
        shown = self.app.state.screen.stream is None and not dialog_has_the_keys(self.app.state)
        if cursor.visible != shown or (cursor.x, cursor.y) != wanted:
            raise AssertionError(f"cursor at {(cursor.x, cursor.y)} visible={cursor.visible}, expected {wanted}")

    @invariant()
    def emulators_agree(self) -> None:
        """pyte, when used, shows the same screen, scrollback and cursor as the in-memory terminal."""
        pyte = self.app.pyte
        if pyte is None:
            return
        terminal = self.app.terminal
        if pyte.screen_lines() != terminal.screen_lines() or pyte.scrollback != terminal.scrollback:
            raise AssertionError("pyte and TestTerminal differ\n" + terminal.dump() + "\n" + pyte.dump())
        if pyte.cursor_position != (terminal.cursor.x, terminal.cursor.y, terminal.cursor.visible):
            raise AssertionError(f"cursor: pyte {pyte.cursor_position}, TestTerminal {terminal.cursor}")

    @invariant()
    def dialog_phase(self) -> None:
        """A dialog is open exactly when confirm_phase is not none; after a drawn tick it is active."""
        state = self.app.state
        phase = state.render.confirm_phase
        if (state.dialog is None) != (phase is ConfirmPhase.NONE):
            raise AssertionError(f"dialog {state.dialog!r} with confirm_phase {phase.value}")
        open_ids = [state.dialog.id] if state.dialog is not None else []
        queued = open_ids + [r.id for r in state.queued]
        if queued != self.dialogs:
            raise AssertionError(f"open and queued dialogs {queued} != requested {self.dialogs}")

    @invariant()
    def numbered_lines_once(self) -> None:
        """With a real terminal's model: every ``line N.i`` row inserted is on the terminal exactly once."""
        if self.family is TerminalFamily.SIMPLE:
            return
        lines = self.app.logical_lines()
        seen: dict[str, int] = {}
        for line in lines:
            seen[line] = seen.get(line, 0) + 1
        cuts = self.family in (TerminalFamily.XTERM, TerminalFamily.XTERMJS)  # narrowing cuts rows there
        narrowest = min(self.app.widths | {self.columns})
        history, columns = self.app.history, self.app.history_columns
        for index in range(self.history_at_clear, len(history)):
            row = history[index]
            if not row.startswith("line "):
                continue
            if self.app.state.config.soft_wrap_lines:
                # Text wrapped by cells (GNU screen): a line cut short at a full row goes on in the next rows; the
                # line is what must be on the terminal once.
                end = index
                while (
                    _NUMBERED.fullmatch(row) is None
                    and end + 1 < len(history)
                    and len(history[end]) == columns[end]
                    and not history[end + 1].startswith("line ")
                ):
                    end += 1
                    row += history[end]
            count = seen.get(row, 0)
            if cuts and len(row) >= narrowest:
                # A longer row cut at the narrowest width may equal this one: only a loss can be told.
                count = 1 if any(line and row.startswith(line) for line in lines) else 0
            if count != 1:
                raise AssertionError(f"{row!r} is on the terminal {count} times\n{self.app.terminal.dump()}")

    @invariant()
    def inserted_rows_counted(self) -> None:
        """``inserted_until`` equals the rows the emulators saw inserted since the last ``log.clear``."""
        # ``inserted_until`` counts every row the core inserted, the garbled copies of rows inserted again too.
        inserted = len(self.app.history) - self.history_at_clear + self.app.reinserted - self.reinserted_at_clear
        if self.app.state.render.inserted_until != inserted:
            raise AssertionError(f"inserted_until {self.app.state.render.inserted_until} but {inserted} rows inserted")
