"""``bench --peers``: the rows of our W1 (or W1S) run through Rich Live, prompt_toolkit's renderer, pi-tui and Ink.

Our run is captured update by update (``peers_capture``: the rows each update inserts into scrollback and the
viewport's rows after it); then each peer replays exactly those rows into a byte-counting sink, each update timed
by CPU time (after a warm-up on the first updates), and its bytes are replayed through pyte to show it drew them.
The peers get their input for free: the rows are wrapped, sanitized and converted to the peer's own styled types
before timing starts, so only the peer's rendering and terminal output are measured.  Rich and prompt_toolkit run
in this process (``process_time_ns``); pi-tui and Ink in node (``peers_node``, ``process.cpuUsage()``), each
given the whole history too, since both keep the transcript (pi-tui renders all of it every time; Ink's
``<Static>`` writes each item once).  What each Python peer does per update:

* Rich: ``Live(auto_refresh=False)`` on a ``Console(force_terminal=True,
  width=80, height=24, color_system="standard")``; per update
  ``live.update(group, refresh=True)`` (the live region is re-rendered and
  rewritten whole); when rows leave the viewport, first ``console.print(rows)``,
  which Live turns into: erase the live region, print the rows above it,
  re-render the (old) live region; then ``live.update(group, refresh=True)``
  (Rich has no public call to swap the region's content without a refresh).
* prompt_toolkit: an ``Application`` (not run; no event loop) whose layout is
  one 10-row ``Window`` of a ``FormattedTextControl`` with the viewport's
  fragments and the composer cursor; per update ``app.renderer.render(app,
  app.layout)`` (its screen diff); when rows leave the viewport, what
  ``run_in_terminal`` does: ``renderer.erase()``, ``print_formatted_text``
  of the rows, ``renderer.reset()``, then ``render``.

The Node peers: ``node/peers.mjs``.
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, cast

from ..text.style import Row, Style
from . import measure
from . import workloads as bench
from .peers_capture import ByteCounter, Capture, Run, capture_events, drew, expected_lines
from .peers_node import run_node_peers

__all__ = [
    "PEER_LINES",
    "PEER_NAMES",
    "PEER_WORKLOADS",
    "capture_w1",
    "main_peers",
    "measure_peers",
    "peer_runs",
    "run_peers",
]

PEER_LINES = (100, 10_000)  # the log lengths of the runs the peers replay (only pi-tui's cost depends on it)
WARM = 200  # updates replayed untimed before a peer's measured ones (--quick: 50)
PEER_NAMES = {
    "rich": "Rich",
    "prompt_toolkit": "prompt_toolkit",
    "pi-tui": "pi-tui",
    "ink": "Ink",
    "ink-incremental": "Ink incremental",
    "ours": "inline_render",
}


def capture_w1(lines: int, deltas: int, warm: int) -> Run:
    """Run our W1 (timed as the bench does) and capture every row it showed."""
    return capture_events(bench.w1_events(lines, deltas, warm))


# ----------------------------------------------------------------------------- peers


def _color(name: str | None) -> str | None:
    if name is None:
        return None
    return name[4:] if name.startswith("ansi") else name


class _RichPeer:
    def __init__(self, first: Capture) -> None:
        from rich.console import Console, Group
        from rich.live import Live
        from rich.style import Style as RichStyle
        from rich.text import Text

        self._group, self._text, self._rich_style = Group, Text, RichStyle
        self._styles: dict[Style, Any] = {}
        self.out = ByteCounter()
        self.console = Console(
            file=cast(IO[str], self.out),
            force_terminal=True,
            width=80,
            height=24,
            color_system="standard",
            legacy_windows=False,
            _environ={},
        )
        self.live = Live(
            self.viewport(first),
            console=self.console,
            auto_refresh=False,
            transient=False,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self.live.start(refresh=True)

    def _style(self, style: Style) -> Any:
        converted = self._styles.get(style)
        if converted is None:
            converted = self._rich_style(
                color=_color(style.fg),
                bgcolor=_color(style.bg),
                bold=style.bold,
                dim=style.dim,
                italic=style.italic,
                underline=style.underline,
                reverse=style.reverse,
            )
            self._styles[style] = converted
        return converted

    def _row(self, row: Row) -> Any:
        text = self._text(no_wrap=True, overflow="crop")
        for segment in row:
            text.append(segment.text, self._style(segment.style))
        return text

    def viewport(self, capture: Capture) -> Any:
        return self._group(*(self._row(row) for row in capture.viewport))

    def prepare(self, capture: Capture) -> Callable[[], None]:
        """The timed part of one update, with its renderables built beforehand."""
        group = self.viewport(capture)
        if not capture.inserted:
            return lambda: self.live.update(group, refresh=True)
        above = self._group(*(self._row(row) for row in capture.inserted))

        def update() -> None:
            self.console.print(above)  # Live erases its region, prints above, re-renders the old region
            self.live.update(group, refresh=True)

        return update


class _PromptToolkitPeer:
    def __init__(self, first: Capture) -> None:
        from prompt_toolkit.application import Application
        from prompt_toolkit.application.current import set_app
        from prompt_toolkit.data_structures import Point, Size
        from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples
        from prompt_toolkit.input import DummyInput
        from prompt_toolkit.layout import Layout, Window
        from prompt_toolkit.layout.controls import FormattedTextControl
        from prompt_toolkit.output.color_depth import ColorDepth
        from prompt_toolkit.output.vt100 import Vt100_Output
        from prompt_toolkit.shortcuts import print_formatted_text

        self._point, self._formatted, self._print = Point, FormattedText, print_formatted_text
        self._styles: dict[Style, str] = {}
        self.out = ByteCounter()
        self.output = Vt100_Output(
            self.out,  # type: ignore[arg-type]
            lambda: Size(rows=24, columns=80),
            term="xterm",
            default_color_depth=ColorDepth.DEPTH_4_BIT,
            enable_cpr=False,
        )
        self.fragments: list[tuple[str, str]] = []
        self.cursor = Point(0, 0)
        control = FormattedTextControl(
            lambda: cast("StyleAndTextTuples", self.fragments), get_cursor_position=lambda: self.cursor
        )
        self.app: Any = Application(
            layout=Layout(Window(control, height=10)),
            output=self.output,
            input=DummyInput(),
            full_screen=False,
            color_depth=ColorDepth.DEPTH_4_BIT,
        )
        self._current = set_app(self.app)  # FormattedTextControl caches per get_app().render_counter
        self._current.__enter__()
        self.fragments, self.cursor = self.viewport(first)
        self._redraw()

    def _redraw(self) -> None:
        """What ``Application._redraw`` does for a running app (minus invalidate-event bookkeeping)."""
        app = self.app
        app.render_counter += 1
        app.before_render.fire()
        app.renderer.render(app, app.layout)
        app.layout.update_parents_relations()
        app.after_render.fire()

    def _style(self, style: Style) -> str:
        converted = self._styles.get(style)
        if converted is None:
            parts = [f"fg:{style.fg}" if style.fg else "", f"bg:{style.bg}" if style.bg else ""]
            parts += [name for name in ("bold", "dim", "italic", "underline", "reverse") if getattr(style, name)]
            converted = " ".join(part for part in parts if part)
            self._styles[style] = converted
        return converted

    def _fragments(self, rows: Sequence[Row]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for index, row in enumerate(rows):
            if index:
                out.append(("", "\n"))
            out.extend((self._style(segment.style), segment.text) for segment in row)
        return out

    def viewport(self, capture: Capture) -> tuple[list[tuple[str, str]], Any]:
        return self._fragments(capture.viewport), self._point(x=capture.cursor[1], y=capture.cursor[0])

    def prepare(self, capture: Capture) -> Callable[[], None]:
        """The timed part of one update, with its fragments built beforehand."""
        fragments, cursor = self.viewport(capture)
        renderer = self.app.renderer

        def update() -> None:
            self.fragments, self.cursor = fragments, cursor
            self._redraw()

        if not capture.inserted:
            return update
        above = self._formatted(self._fragments(capture.inserted))

        def update_above() -> None:
            self.fragments, self.cursor = fragments, cursor
            renderer.erase()  # what run_in_terminal does around a print
            self._print(above, output=self.output)
            renderer.reset()
            self._redraw()

        return update_above


def _replay(peer: Any, captures: list[Capture], warm: int) -> dict[str, object]:
    clock = time.process_time_ns
    out: ByteCounter = peer.out
    for capture in captures[:warm]:
        peer.prepare(capture)()
    measured = measure.Measured()
    gc.collect()
    for capture in captures:
        update = peer.prepare(capture)
        before = out.total
        start = clock()
        update()
        ns = clock() - start
        nbytes = out.total - before
        measured.updates.add(ns, nbytes)
        (measured.inserting if capture.inserted else measured.plain).add(ns, nbytes)
        measured.rows_inserted += len(capture.inserted)
    figures = measured.figures()
    figures["output"] = out.data()
    return figures


PEER_WORKLOADS: dict[str, Callable[[int, int, int], Iterable[measure.Event]]] = {
    "w1": bench.w1_events,
    "w1s": bench.w1s_events,  # issue 14: the status line's token counter changes with every delta
}


def _python_peers(run: Run, warm: int) -> dict[str, dict[str, object]]:
    results: dict[str, dict[str, object]] = {}
    for name, factory in (("rich", _RichPeer), ("prompt_toolkit", _PromptToolkitPeer)):
        try:
            peer = factory(run.updates[0])
        except ImportError as error:
            results[name] = {"skipped": f"not installed: {error}"}
            continue
        results[name] = _replay(peer, run.updates, warm)
    return results


def _checked(figures: dict[str, object], expected: Sequence[str]) -> dict[str, object]:
    """A peer's figures with ``drew`` (its bytes replayed through pyte end with our last rows) instead of its bytes."""
    output = figures.pop("output", None)
    if isinstance(output, bytes):
        figures["drew"], detail = drew(output, expected)
        if detail:
            figures["drew_detail"] = detail
    return figures


def measure_peers(lines: int, deltas: int, warm: int, workload: str = "w1", peer_warm: int = WARM) -> dict[str, object]:
    """Ours and every peer on the same rows (W1, or W1S, after a log of ``lines`` lines): figures, ``drew``."""
    run = capture_events(PEER_WORKLOADS[workload](lines, deltas, warm))
    expected = expected_lines(run.updates)
    ours = dict(run.ours)
    ours["output"] = run.output
    results: dict[str, object] = {"workload": f"{workload}:{lines}", "ours": _checked(ours, expected)}
    peers = {**_python_peers(run, peer_warm), **run_node_peers(run, peer_warm)}
    versions = _versions()
    for name, figures in peers.items():
        found = figures.pop("versions", None)
        if isinstance(found, dict):
            versions.update(found)
        results[name] = _checked(figures, expected)
    results["versions"] = versions
    return results


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str] = {}
    for package in ("rich", "prompt_toolkit"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            out[package] = "not installed"
    return out


def peer_runs() -> list[tuple[str, int]]:
    """The runs of ``bench --peers``: W1 and W1S, each after a log of 100 and of 10,000 lines."""
    return [(workload, lines) for workload in PEER_WORKLOADS for lines in PEER_LINES]


def run_peers(quick: bool, workload: str = "w1", lines: int = PEER_LINES[-1]) -> dict[str, object]:
    """Run the peer comparison in a child process of its own (like every bench workload)."""
    command = [sys.executable, "-m", "inline_render", "bench", "--one", f"peers:{workload}:{lines}"]
    if quick:
        command.append("--quick")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench peers failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main_peers(quick: bool, workload: str = "w1", lines: int = PEER_LINES[-1]) -> dict[str, object]:
    """The child process's work: ``measure_peers`` at the bench's sizes (``--quick``: 200 updates, not 2,000)."""
    if quick:
        return measure_peers(lines, 200, 30, workload, peer_warm=50)
    return measure_peers(lines, 2000, 300, workload)
