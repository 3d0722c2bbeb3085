"""The rows-only path of a tick (``plan.RowsPlan``, ``Vt100Backend.write_rows``, ``settle.settle_rows``)
gives what the general path (``Plan``, ``Vt100Backend.write``, ``settle``) gives for the same frame."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prompt_toolkit.output.color_depth import ColorDepth

from inline_render.bench import cli as bench_cli
from inline_render.bench import measure
from inline_render.core import effects
from inline_render.core import plan as planning
from inline_render.core.app import AppState, FrameRecord, Screen, initial_state
from inline_render.core.backend import Vt100Backend
from inline_render.core.effects import Projection, RowsPlan
from inline_render.core.layout import Frame, Layout
from inline_render.core.ops import MoveBy, Plan, Text, as_ops
from inline_render.core.reduce import reduce_inputs
from inline_render.core.state import Config
from inline_render.core.tick import InMemoryRenderer, Renderer
from inline_render.inputs import Fault, Input, Key, LogAppend, LogDelta, Status
from inline_render.text.cells import flatten
from inline_render.text.style import Segment, Style

tick_module = importlib.import_module("inline_render.core.tick")  # the module (the package exports the function)


def _plain(screen: Screen) -> Screen:
    """``screen`` with each frame record's operations as ``Text`` operations (a rows-only frame keeps its
    texts as segments; the general planner makes ``Text`` objects): equal frames compare equal."""
    frames = tuple(record._replace(planned=record.ops) for record in screen.recent_frames)
    return replace(screen, recent_frames=frames)


def _twin_backend(live: Vt100Backend, out: bytearray) -> Vt100Backend:
    """A backend that writes into ``out`` and starts in ``live``'s state (the style it believes current)."""
    twin = Vt100Backend(out.extend, live.color_depth)
    twin._style, twin._current = live._style, live._current
    twin._seen, twin._known_styles, twin._codes = dict(live._seen), dict(live._known_styles), dict(live._codes)
    return twin


@pytest.mark.parametrize("workload", ["status", "w1s:100", "w4", "w3:100", "w5:100"])
def test_each_rows_only_tick_plans_writes_and_settles_as_the_general_path(
    workload: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On every tick of a quick bench workload that takes the rows-only path: the plan is the general
    planner's (``_plan``), ``write_rows`` writes the bytes ``write`` writes for that plan from the same
    backend state, and ``settle_rows`` gives the state ``settle`` gives."""
    planned_rows = planning._plan_rows
    settled_rows = effects.settle_rows
    write_rows = Vt100Backend.write_rows
    checked = []

    def plan_rows(state: AppState, layout: Layout, frame: Frame) -> RowsPlan:
        rows = planned_rows(state, layout, frame)
        plan, projection = planning._plan(state, layout, frame)
        assert rows.plan() == plan
        assert _plain(rows.screen) == _plain(projection.screen)
        return rows

    def checked_write(backend: Vt100Backend, items: tuple[object, ...], fail_after: int | None = None) -> object:
        general, fast = bytearray(), bytearray()
        _twin_backend(backend, general).write(Plan(as_ops(items), fail_after))  # type: ignore[arg-type]
        twin = _twin_backend(backend, fast)
        write_rows(twin, items, fail_after)  # type: ignore[arg-type]
        assert bytes(fast) == bytes(general)
        result = write_rows(backend, items, fail_after)  # type: ignore[arg-type]
        assert (backend._style, backend._current) == (twin._style, twin._current)
        checked.append(bool(items))
        return result

    def settle_rows(state: AppState, layout: Layout, screen: Screen) -> AppState:
        fast = settled_rows(state, layout, screen)
        plan = RowsPlan(state.screen.recent_frames[-1].planned, screen, None).plan()  # any complete plan
        result = effects.EffectResult(1, len(plan.ops), 0, True)
        general = effects.settle(state, layout, plan, Projection(screen, 0), result)
        assert replace(fast, screen=_plain(fast.screen)) == replace(general, screen=_plain(general.screen))
        return fast

    monkeypatch.setattr(planning, "_plan_rows", plan_rows)
    monkeypatch.setattr(Vt100Backend, "write_rows", checked_write)
    monkeypatch.setattr(effects, "settle_rows", settle_rows)  # stage 4 (apply_terminal_effects) calls it
    kind, _, lines = workload.partition(":")
    config = Config(viewport_height=10, markdown=kind == "w5")
    renderer = measure.make_renderer(80, 24, config)
    for _phase, batch in bench_cli.WORKLOADS[kind](int(lines or 0), True):
        renderer.feed(batch)
    assert sum(checked) >= 10  # it ran, and wrote something, on many ticks


def _general_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tick takes the general path (``plan_terminal_effects``, ``write``, ``settle``)."""
    monkeypatch.setattr(effects, "plan_frame", effects.plan_terminal_effects)


def _session(seed: int) -> Iterator[list[Input]]:
    """Streaming, a token counter, styled and linked text, keys, and writes that fail part-way."""
    rng = random.Random(seed)
    yield [LogAppend("text", "\n".join(f"line {n} of the log" for n in range(12)))]
    yield [Status("\x1b[1;32mworking\x1b[0m: 0", styled=True)]
    yield [LogAppend("assistant", "", id="a", final=False)]
    for step in range(160):
        batch: list[Input] = [LogDelta("a", rng.choice(["word ", "漢字 ", "x" * rng.randint(1, 30), "\n", "😀 "]))]
        if step % 3 == 0:
            batch.append(Status(f"assistant: {step * 7:,} tokens"))
        if step % 17 == 5:
            batch.append(Status(f"\x1b[{rng.choice([1, 31, 35])}mstep\x1b[0m {step}", styled=True))
        if step % 11 == 3:
            batch.append(Key(rng.choice(["a", "é", "c-u", "backspace", " "])))
        if step % 23 == 7:
            batch.append(Fault(rng.randint(0, 40)))  # the next write stops after a few bytes
        yield batch
        if step % 29 == 9:
            yield []  # an idle tick: it retries what a failure left


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_session_writes_the_same_bytes_and_states_with_and_without_the_rows_path(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session with streaming, status counters, styled status rows, keys and failed writes gives the same
    bytes, tick by tick, the same screen and the same states whether rows-only frames take their own path
    or the general one (a divergence in plan, encoding, failure handling or settling shows here)."""

    def run() -> tuple[list[bytes], list[AppState], list[str]]:
        renderer = Renderer.in_memory(60, 16, config=Config(viewport_height=8, markdown=False))
        written: list[bytes] = []
        states: list[AppState] = []
        for batch in _session(seed):
            before = len(renderer.sink.data)
            renderer.feed(batch)
            written.append(bytes(renderer.sink.data[before:]))
            states.append(replace(renderer.state, screen=_plain(renderer.state.screen)))
        return written, states, renderer.terminal.screen_lines()

    fast = run()
    with monkeypatch.context() as patch:
        _general_only(patch)
        general = run()
    assert fast[0] == general[0]
    assert fast[1] == general[1]
    assert fast[2] == general[2]
    assert any(b"\x1b[?2026h" in data for data in fast[0])


def test_a_frame_record_gives_its_texts_as_text_operations() -> None:
    """A frame record that keeps a text as its segment reads back as the ``Text`` operation it stands for
    (what the replay of frames in flight encodes), the other operations as they are."""
    style = Style(bold=True)
    move = MoveBy(-1, 3)
    record = FrameRecord(0, (), 10, 5, (4, 0), (move, Segment("hi", style)), ())
    assert record.ops == (move, Text("hi", style))
    assert FrameRecord(0, (), 10, 5, (4, 0), (move, Text("hi", style)), ()).ops == record.ops


def test_the_rows_path_runs_for_a_status_change() -> None:
    """A status-only change is planned as a ``RowsPlan`` and writes only the counter's changed cells."""
    renderer = InMemoryRenderer(40, 10, config=Config(viewport_height=4, markdown=False))
    renderer.feed([Status("assistant: 100 tokens")])
    reduced = replace(renderer.state, status="assistant: 114 tokens")
    layout = tick_module.compute_layout(reduced)
    planned = effects.plan_frame(reduced, layout, tick_module.draw_frame(reduced, layout))
    assert isinstance(planned, RowsPlan)
    assert [item[0] for item in planned.items if type(item) is Segment] == ["14"]  # type: ignore[index]
    out = bytearray()
    Vt100Backend(out.extend, ColorDepth.DEPTH_4_BIT).write_rows(planned.items)
    assert b"14" in out and b"tokens" not in out


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from([*"ab 7,:", "\t", "\n", "\r", "\x1b", "\x7f", "\x9b", "é", "\u202e", "\ud800"])))
def test_a_status_text_is_flattened_as_flatten_does(text: str) -> None:
    """The status a ``Status`` input sets is ``flatten`` of its text, whether or not it takes the shortcut for
    printable ASCII (a token counter)."""
    state = initial_state(Config(markdown=False), 40, 10)
    reduced, _ = reduce_inputs(state, [Status(text)])
    assert reduced.status == flatten(text)


def test_a_maker_builds_what_the_class_builds() -> None:
    """``evolve.maker`` builds an object equal to the class's own, of the class, frozen, with every field set;
    a class with ``__post_init__`` is refused."""
    from dataclasses import FrozenInstanceError, dataclass, fields

    from inline_render.core.evolve import maker
    from inline_render.core.tick import TickResult

    values = (3, ((),) * 4, 80, 2, (5, 2), True, True, None, False, False, (4, 1), (), True, (1, 2, 3, 4), None, None)
    values += (((),),)  # split_rows
    made = maker(Screen)(*values)
    assert type(made) is Screen and made == Screen(*values)
    assert [getattr(made, field.name) for field in fields(Screen)] == list(values)
    with pytest.raises(FrozenInstanceError):
        made.top = 4  # type: ignore[misc]
    result = maker(TickResult)(*values[:5])
    assert type(result) is TickResult and result == TickResult(*values[:5])  # type: ignore[arg-type]

    @dataclass(frozen=True, slots=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError):
        maker(Checked)
