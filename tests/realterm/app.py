"""The storm app: streams numbered lines through ``InlineApp`` (default options), then exits.

Run inside the terminal under test as ``python -m realterm.app --seed S --lines N ...`` with the
library checkout and the tests directory on PYTHONPATH.  It prints the preamble lines (plain
output, before the inline viewport exists), then streams the lines in entries of 1-12 lines as
deltas of 2-7 characters, spread evenly over ``--duration`` seconds (far more deltas than the
60 ticks/s the runner draws, so every tick carries new text: full speed), finishes the entries
and returns 0: everything shown stays in scrollback.  ``--plain`` is the reference: the same
deltas at the same pace written straight to the terminal (what a ``printf`` loop loses to the
terminal's own resize handling is not the library's doing).  ``--ready`` is created when streaming
starts (the rig starts resizing then); ``--result`` receives, at exit, the JSON of the exit code,
the lines it committed and which library ran.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import inline_render
from inline_render import LogAppend, LogDelta, LogFinish
from inline_render.core.tick import Renderer
from inline_render.shell import AppOptions, InlineApp

from .checker import ID
from .lines import answers, codelia_answer, markdown_session, preamble_lines, storm_lines
from .sessions import expected_rows, preview_of, random_session

__all__ = ["chunks", "entries", "main", "rendered_lines"]

Session = tuple[tuple[str, str], ...]
DIALECTS = ("lemon", "codelia")
CONTENTS = ("lines", "markdown", *DIALECTS, "session")
PROMPT = "P999 answer with the storm"  # the demo logs it as the user's: found by its id after the preamble


def entries(seed: int, texts: tuple[str, ...]) -> list[str]:
    """The lines grouped into entries of 1-12 lines (each entry's text joined by newlines)."""
    rng = random.Random(f"entries-{seed}")
    groups: list[str] = []
    start = 0
    while start < len(texts):
        size = rng.randint(1, 12)
        groups.append("\n".join(texts[start : start + size]))
        start += size
    return groups


def chunks(seed: int, text: str) -> list[str]:
    """``text`` cut into deltas of 2-7 characters."""
    rng = random.Random(f"chunks-{seed}-{len(text)}")
    out: list[str] = []
    start = 0
    while start < len(text):
        size = rng.randint(2, 7)
        out.append(text[start : start + size])
        start += size
    return out


async def _plain(seed: int, groups: list[str], duration: float, ready: str | None) -> int:
    """The reference: the same deltas at the same pace written straight to the terminal (no library)."""
    plan = [chunks(seed + index, text + "\n") for index, text in enumerate(groups)]
    total = sum(len(parts) for parts in plan)
    interval = duration / max(1, total)
    if ready:
        Path(ready).write_text("streaming\n", encoding="utf-8")
    start = time.monotonic()
    sent = 0
    for parts in plan:
        for part in parts:
            sys.stdout.write(part)
            sys.stdout.flush()
            sent += 1
            await asyncio.sleep(max(0.0, start + sent * interval - time.monotonic()))
    return 0


async def _stream(app: InlineApp, seed: int, groups: list[str], duration: float, ready: str | None) -> int:
    plan = [(f"e{index}", chunks(seed + index, text)) for index, text in enumerate(groups)]
    total = sum(len(parts) for _, parts in plan)
    interval = duration / max(1, total)
    if ready:
        Path(ready).write_text("streaming\n", encoding="utf-8")
    start = time.monotonic()
    sent = 0
    for entry, parts in plan:
        app.send(LogAppend("text", "", id=entry, final=False))
        for part in parts:
            app.send(LogDelta(entry, part))
            sent += 1
            # Paced by a deadline, not by sleep lengths: the stream lasts ``duration`` even when a tick is slow.
            delay = start + sent * interval - time.monotonic()
            await asyncio.sleep(max(0.0, delay))
        app.send(LogFinish(entry))
    await asyncio.sleep(0.3)  # the last ticks are drawn before the exit flush
    return 0


def rendered_lines(session: Session) -> tuple[str, ...]:
    """The session's content lines as the library renders them finished, one row each (a width none wraps at).

    Each is the text the checker looks for, whatever the width: a row's whitespace is not compared, so the
    rows a narrower terminal wraps a paragraph or a list item into join to the same text."""
    renderer = Renderer.in_memory(2000, 20, cursor_row=0)
    for kind, text in session:
        renderer.feed([LogAppend("tool" if kind == "dialog" else kind, text)])
    rows = [*renderer.terminal.scrollback, *renderer.terminal.screen_lines()]
    return tuple(row.rstrip() for row in rows if ID.match(row))


def _dialog_shown(app: InlineApp) -> bool:
    state = app.state
    return state is not None and state.dialog is not None


def _dialog_drawn(app: InlineApp) -> bool:
    """The dialog is on the screen: what a user answers (keys typed before it is drawn are dropped)."""
    state = app.state
    return state is not None and state.dialog is not None and state.screen.dialog_drawn


@dataclass(slots=True)
class _Pace:
    """Spreads a session's deltas evenly from ``start``, one every ``interval`` seconds; ``sent`` counts them."""

    interval: float
    start: float
    sent: int = 0

    async def stream(self, app: InlineApp, kind: str, parts: list[str], at_delta: Callable[[int], None]) -> None:
        """Stream ``parts`` as one entry of ``kind``: each delta written, the status line changed to the count so
        far, ``at_delta`` called with the delta's index, then a wait until the next delta is due."""
        async with app.stream(kind) as answer:
            for number, part in enumerate(parts):
                answer.write(part)
                self.sent += 1
                app.status(tokens=f"{self.sent} tokens")
                at_delta(number)
                await asyncio.sleep(max(0.0, self.start + self.sent * self.interval - time.monotonic()))


def _paced(
    seed: int, session: Session, streamed: tuple[str, ...], duration: float, ready: str | None
) -> tuple[list[tuple[str, list[str]]], _Pace]:
    """The session's steps with the ``streamed`` kinds cut into deltas, and the pace that spreads those deltas over
    ``duration`` from now (``ready`` is created then: the rig starts resizing)."""
    plan = [
        (kind, chunks(seed + index, text) if kind in streamed else [text]) for index, (kind, text) in enumerate(session)
    ]
    total = sum(len(parts) for kind, parts in plan if kind in streamed)
    if ready:
        Path(ready).write_text("streaming\n", encoding="utf-8")
    return plan, _Pace(duration / max(1, total), time.monotonic())


async def _markdown(app: InlineApp, seed: int, session: Session, duration: float, ready: str | None) -> int:
    """The Markdown storm: questions logged, answers streamed with ``app.stream`` as 2-7 character deltas, the
    status line changed on every delta, a confirm opened and answered in the middle of the second answer."""
    plan, pace = _paced(seed, session, ("assistant",), duration, ready)
    asked: asyncio.Task[bool] | None = None
    pressed = False
    for index, (kind, parts) in enumerate(plan):
        if kind == "user":
            app.log("user", parts[0])
            continue
        if kind == "dialog":
            while asked is not None and not pressed:  # a short answer ended before the dialog was drawn
                await asyncio.sleep(0.02)
                if _dialog_shown(app):
                    app.press("y")
                    pressed = True
            approved = await asyncio.wait_for(asyncio.shield(asked), 10) if asked is not None else False
            app.log("tool", parts[0] if approved else "the confirm was not answered yes")
            continue
        dialog_next = index + 1 < len(plan) and plan[index + 1][0] == "dialog"

        def at_delta(number: int, count: int = len(parts), dialog_next: bool = dialog_next) -> None:
            nonlocal asked, pressed
            if dialog_next and number == count // 3:
                asked = asyncio.create_task(app.confirm("Write the file?", "The answer asks to write a file."))
            if dialog_next and number >= 2 * count // 3 and _dialog_shown(app) and not pressed:
                app.press("y")  # as the user would: once the dialog is on the screen
                pressed = True

        await pace.stream(app, "assistant", parts, at_delta)
    app.status(tokens=None)
    await asyncio.sleep(0.3)  # the last ticks are drawn before the exit flush
    return 0


async def _answer_when_shown(app: InlineApp, key: str, asked: asyncio.Task[object]) -> object:
    """Press ``key`` once the dialog is drawn (as the user would), then the dialog's answer."""
    while not _dialog_drawn(app) and not asked.done():
        await asyncio.sleep(0.02)
    if not asked.done():
        app.press(key)
    return await asyncio.wait_for(asyncio.shield(asked), 10)


async def _session(app: InlineApp, seed: int, session: Session, duration: float, ready: str | None) -> int:
    """A random session (``sessions``): questions and tool lines logged, answers and plain text streamed as 2-7
    character deltas with the status changing on every delta, confirms opened mid-answer and approvals answered."""
    plan, pace = _paced(seed, session, ("assistant", "text"), duration, ready)
    asked: asyncio.Task[object] | None = None
    for index, (kind, parts) in enumerate(plan):
        if kind in ("user", "tool"):
            app.log(kind, parts[0])
        elif kind == "dialog":
            approved = await _answer_when_shown(app, "y", asked) if asked is not None else False
            app.log("tool", parts[0] if approved else "the confirm was not answered yes")
            asked = None
        elif kind == "approval":
            approval = asyncio.create_task(app.approve("write the file", preview=preview_of(parts[0])))
            await _answer_when_shown(app, "y", approval)
        else:
            dialog_next = index + 1 < len(plan) and plan[index + 1][0] == "dialog"

            def at_delta(number: int, count: int = len(parts), dialog_next: bool = dialog_next) -> None:
                nonlocal asked
                if dialog_next and number == count // 2:
                    asked = asyncio.create_task(app.confirm("Write the file?", "The answer asks to write."))

            await pace.stream(app, kind, parts, at_delta)
    app.status(tokens=None)
    await asyncio.sleep(0.3)  # the last ticks are drawn before the exit flush
    return 0


def _demo(dialect: str, args: argparse.Namespace) -> int:
    """The demo (``python -m inline_render demo``, default options) against the storm's runtime in ``dialect``."""
    from inline_render.__main__ import main as inline_render_main

    runtime = [sys.executable, "-P", "-m", "realterm.runtime", f"--dialect={dialect}", f"--seed={args.seed}"]
    runtime += [f"--lines={args.lines}", f"--duration={args.duration}", f"--ready={args.ready}"]
    demo = ["demo", "--runtime", shlex.join(runtime), "--protocol", dialect, "--prompt", PROMPT, "--script"]
    return inline_render_main(demo)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, print the preamble, run the stream; write ``--result``."""
    parser = argparse.ArgumentParser(prog="realterm.app", description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--lines", type=int, default=80)
    parser.add_argument("--width", type=int, required=True, help="the starting width the line shapes are made for")
    parser.add_argument("--preamble", type=int, default=0)
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--ready", help="file created when streaming starts")
    parser.add_argument("--result", help="file that receives the JSON result at exit")
    parser.add_argument("--ascii-lines", action="store_true", help="no CJK or emoji lines")
    parser.add_argument("--plain", action="store_true", help="the reference: write the lines without the library")
    parser.add_argument("--record", help="record every tick to this scenario file (AppOptions.record)")
    parser.add_argument("--content", choices=CONTENTS, default="lines", help="what the app streams")
    args = parser.parse_args(argv)
    before = preamble_lines(args.preamble)
    session: Session = ()
    if args.content in DIALECTS:
        for line in before:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()
        replies = answers(args.seed, args.lines)
        said = (codelia_answer(replies),) if args.content == "codelia" else replies
        texts = rendered_lines((("user", PROMPT), *(("assistant", text) for text in said)))
        exit_code = _demo(args.content, args)
        if args.result:
            result = {"exit": exit_code, "lines": [*before, *texts], "library": os.path.dirname(inline_render.__file__)}
            Path(args.result).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
        return exit_code
    others: tuple[str, ...] = ()
    if args.content == "markdown":
        session = markdown_session(args.seed, args.lines)
        texts = rendered_lines(session)
        groups = entries(args.seed, texts)  # the reference writes the rendered lines as they are
    elif args.content == "session":
        session = random_session(args.seed, args.lines)
        texts, others = expected_rows(session)
        groups = entries(args.seed, texts)
    else:
        texts = storm_lines(args.seed, args.lines, args.width, ascii_only=args.ascii_lines)
        groups = entries(args.seed, texts)
    for line in before:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()
    code: int
    if args.plain:
        code = asyncio.run(_plain(args.seed, groups, args.duration, args.ready))
    elif session:
        app = InlineApp(AppOptions(record=args.record))
        play = _session if args.content == "session" else _markdown
        code = asyncio.run(app.run(lambda app: play(app, args.seed, session, args.duration, args.ready)))
    else:
        app = InlineApp(AppOptions(record=args.record))
        code = asyncio.run(app.run(lambda app: _stream(app, args.seed, groups, args.duration, args.ready)))
    if args.result:
        result = {"exit": code, "lines": [*before, *texts], "library": os.path.dirname(inline_render.__file__)}
        result["others"] = list(others)
        Path(args.result).write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    return code


if __name__ == "__main__":
    raise SystemExit(main())
