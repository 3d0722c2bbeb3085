"""``bench --peers``: W1 through Rich Live and prompt_toolkit's renderer, showing the same rows, in one process.

Our W1 run is captured update by update (the rows each update inserts into
scrollback and the viewport's rows after it); then each peer replays exactly
those rows into a byte-counting sink, timed the same way (``process_time_ns``
per update, after the same warm-up).  The peers get their input for free:
the rows are wrapped, sanitized and converted to the peer's own styled types
before timing starts, so only the peer's rendering and terminal output are
measured.  What each peer does per update:

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
"""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import IO, Any, cast

from ..core.rows import draw_log_row
from ..core.state import Config
from ..text.style import Row, Style
from . import measure
from . import workloads as bench

__all__ = [
    "PEER_LINES",
    "PEER_WORKLOADS",
    "Capture",
    "capture_events",
    "capture_w1",
    "format_peers",
    "main_peers",
    "run_peers",
]

PEER_LINES = 10_000  # the log length of the W1 run the peers replay (they keep no log, so it does not matter to them)
WARM = 200  # updates replayed untimed before a peer's measured ones


@dataclass(frozen=True, slots=True)
class Capture:
    """What one measured W1 update showed: rows it inserted above the viewport, the viewport after it, the cursor."""

    inserted: tuple[Row, ...]
    viewport: tuple[Row, ...]
    cursor: tuple[int, int]


class ByteCounter:
    """A text stream that counts the UTF-8 bytes written to it (what a terminal would receive)."""

    encoding = "utf-8"

    def __init__(self) -> None:
        self.total = 0

    def write(self, text: str) -> int:
        self.total += len(text.encode("utf-8"))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def capture_w1(lines: int, deltas: int, warm: int) -> tuple[dict[str, object], list[Capture]]:
    """Run our W1 (timed as the bench does) and capture every measured update's rows."""
    return capture_events(bench.w1_events(lines, deltas, warm))


def capture_events(events: Iterable[measure.Event]) -> tuple[dict[str, object], list[Capture]]:
    """Run a workload's events (timed as the bench does) and capture every measured update's rows.

    ``Config(markdown=False)``, as the bench runs W1: the peers get the very rows of the bench's W1.
    """
    config = Config(viewport_height=10, markdown=False)
    renderer = measure.make_renderer(80, 24, config)
    sink = renderer.backend.sink
    assert isinstance(sink, measure.CountingSink)
    measured = measure.Measured()
    captures: list[Capture] = []
    for phase, batch in events:
        if phase != "measure":
            renderer.feed(batch)
            continue
        if not measured.updates.ns:
            gc.collect()
        first = measure.timed_update(renderer, sink, batch, measured)
        width = first.layout.columns
        inserted = tuple(
            draw_log_row(row, width, config.width_policy)
            for row in first.layout.to_insert[: first.effect.rows_inserted]
        )
        last = renderer.last
        assert last is not None
        captures.append(Capture(inserted, last.frame.rows, last.frame.cursor))
    return measured.figures(), captures


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


def _replay(peer: Any, captures: list[Capture]) -> dict[str, object]:
    clock = time.process_time_ns
    out: ByteCounter = peer.out
    for capture in captures[:WARM]:
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
    return measured.figures()


PEER_WORKLOADS: dict[str, Callable[[int, int, int], Iterable[measure.Event]]] = {
    "w1": bench.w1_events,
    "w1s": bench.w1s_events,  # issue 14: the status line's token counter changes with every delta
}


def measure_peers(lines: int, deltas: int, warm: int, workload: str = "w1") -> dict[str, object]:
    """Ours, Rich Live and prompt_toolkit on the same rows (W1, or W1S), in this process; with ratios to ours."""
    ours, captures = capture_events(PEER_WORKLOADS[workload](lines, deltas, warm))
    results: dict[str, object] = {"workload": f"{workload}:{lines}", "ours": ours}
    for name, factory in (("rich", _RichPeer), ("prompt_toolkit", _PromptToolkitPeer)):
        try:
            peer = factory(captures[0])
        except ImportError as error:
            results[name] = {"error": f"not installed: {error}"}
            continue
        results[name] = _replay(peer, captures)
    results["ratios"] = _ratios(results)
    results["targets"] = _targets(results, workload)
    results["versions"] = _versions()
    return results


def _targets(results: dict[str, object], workload: str) -> list[str]:
    """Issue 14's targets against this run: CPU per update at most 1/10 of Rich's with the status change (1/15
    without), bytes per update at most prompt_toolkit's with it."""
    ours, rich, toolkit = results["ours"], results.get("rich"), results.get("prompt_toolkit")
    assert isinstance(ours, dict)
    mine = ours["per_update"]
    lines: list[str] = []
    share = 10 if workload == "w1s" else 15
    if isinstance(rich, dict) and "error" not in rich:
        limit = rich["per_update"]["us_median"] / share
        verdict = "met" if mine["us_median"] <= limit else f"not met ({mine['us_median'] / limit:.2f}x the limit)"
        lines.append(f"CPU/update {mine['us_median']} us <= 1/{share} of Rich's ({limit:.1f} us): {verdict}")
    if workload == "w1s" and isinstance(toolkit, dict) and "error" not in toolkit:
        limit = toolkit["per_update"]["bytes_median"]
        verdict = "met" if mine["bytes_median"] <= limit else f"not met ({mine['bytes_median'] / limit:.2f}x)"
        lines.append(f"bytes/update {mine['bytes_median']} <= prompt_toolkit's ({limit}): {verdict}")
    return lines


def _ratios(results: dict[str, object]) -> dict[str, dict[str, float]]:
    ours = results["ours"]
    assert isinstance(ours, dict)
    ratios: dict[str, dict[str, float]] = {}
    for name in ("rich", "prompt_toolkit"):
        peer = results.get(name)
        if not isinstance(peer, dict) or "error" in peer:
            continue
        ratio: dict[str, float] = {}
        for split in ("per_update", "non_inserting", "inserting"):
            mine, theirs = ours[split], peer[split]
            if mine.get("count") and theirs.get("count"):
                ratio[f"{split}_us_median"] = round(theirs["us_median"] / mine["us_median"], 1)
                if mine["bytes_median"]:
                    ratio[f"{split}_bytes_median"] = round(theirs["bytes_median"] / mine["bytes_median"], 1)
        ratios[name] = ratio
    return ratios


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str] = {}
    for package in ("rich", "prompt_toolkit"):
        try:
            out[package] = version(package)
        except PackageNotFoundError:
            out[package] = "not installed"
    return out


def run_peers(quick: bool, workload: str = "w1") -> dict[str, object]:
    """Run the peer comparison in a child process of its own (like every bench workload)."""
    one = "peers" if workload == "w1" else f"peers:{workload}"
    command = [sys.executable, "-m", "inline_render", "bench", "--one", one]
    if quick:
        command.append("--quick")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench peers failed:\n{done.stderr}")
    import json

    result: dict[str, object] = json.loads(done.stdout)
    return result


def main_peers(quick: bool, workload: str = "w1") -> dict[str, object]:
    """The child process's work: ``measure_peers`` at the bench's sizes."""
    return measure_peers(1_000 if quick else PEER_LINES, 200 if quick else 2000, 30 if quick else 300, workload)


def format_peers(results: dict[str, object]) -> str:
    """The comparison as text: each renderer's figures, then the ratios (peer / ours)."""
    lines = [f"peers on {results['workload']} (same process, same rows; versions {results['versions']})"]
    for name in ("ours", "rich", "prompt_toolkit"):
        figures = results.get(name)
        if not isinstance(figures, dict):
            continue
        if "error" in figures:
            lines.append(f"  {name}: {figures['error']}")
            continue
        lines.append(f"  {name}")
        lines.append(measure.row_line("per delta", figures["per_update"], "upd"))
        lines.append(measure.row_line("  not inserting", figures["non_inserting"], "upd"))
        lines.append(measure.row_line("  inserting", figures["inserting"], "upd"))
    ratios = results.get("ratios")
    if isinstance(ratios, dict):
        for name, ratio in ratios.items():
            text = ", ".join(f"{key} {value}x" for key, value in ratio.items())
            lines.append(f"  {name} / ours: {text}")
    targets = results.get("targets")
    if isinstance(targets, list):
        lines.extend(f"  target: {line}" for line in targets)
    return "\n".join(lines)
