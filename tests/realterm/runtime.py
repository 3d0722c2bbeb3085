"""The storm's runtime: the Markdown chat's answers sent over a real dialect to ``python -m inline_render demo``.

``python -m realterm.runtime --dialect lemon|codelia --seed S --lines N --duration D --ready FILE`` answers the first
prompt with every assistant answer of ``markdown_session(S, N)``, paced over ``D`` seconds, as the dialect's runtime
would: Lemon (seed 001) sends the whole partial message in every ``message_update`` (one snapshot per 2-7 character
delta, the same cuts as the app API's storm), each answer a message; codelia (seed 004) sends one run's answer, a
``text`` event per body part (a block: its parts are paragraphs, not tokens), then the ``final`` with all of it.
The scripted runtimes of the demo (``inline_render.demo.fake_lemon``, ``fake_runtime``) do the protocol; only the
turn is the storm's.  ``--ready`` is created when the answer starts streaming (the rig starts resizing then).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from inline_render.demo import fake_lemon, fake_runtime

from .app import chunks
from .lines import answers, codelia_answer

__all__ = ["StormCodelia", "StormLemon", "main"]


class _Pace:
    """Deadlines spread evenly over ``duration`` seconds for ``total`` sends (a slow send does not stretch it)."""

    def __init__(self, duration: float, total: int) -> None:
        self.start, self.interval, self.sent = time.monotonic(), duration / max(1, total), 0

    def delay(self) -> float:
        self.sent += 1
        return max(0.0, self.start + self.sent * self.interval - time.monotonic())


class StormLemon(fake_lemon.FakeLemon):
    """Lemon: every answer a message of its own, streamed as snapshots, in one turn."""

    def __init__(self, texts: tuple[str, ...], seed: int, duration: float, ready: Path) -> None:
        super().__init__(0.0, None)
        self.texts, self.seed, self.duration, self.ready = texts, seed, duration, ready

    def run(self, prompt: str) -> None:
        user = fake_lemon.struct("Ai.Types.UserMessage", role="user", content=prompt, timestamp=fake_lemon.T0)
        self.event("agent_start")
        self.event("turn_start")
        self.event("message_start", user)
        self.event("message_end", user)
        plan = [chunks(self.seed + index, text) for index, text in enumerate(self.texts)]
        pace = _Pace(self.duration, sum(len(parts) for parts in plan))
        self.ready.write_text("streaming\n", encoding="utf-8")
        messages: list[dict[str, object]] = [user]
        for parts in plan:
            self.event("message_start", fake_lemon.assistant([]))
            so_far = ""
            for part in parts:
                so_far += part
                delta = {"type": "text_delta", "delta": part}
                self.event("message_update", fake_lemon.assistant([fake_lemon.text(so_far)]), delta)
                time.sleep(pace.delay())
            final = fake_lemon.assistant([fake_lemon.text(so_far)])
            self.event("message_end", final)
            messages.append(final)
        self.event("turn_end", messages[-1], [])
        self.event("agent_end", messages)


class StormCodelia(fake_runtime.FakeRuntime):
    """codelia: each answer's blocks as ``text`` parts, then its ``final``; the run completes."""

    def __init__(self, options: argparse.Namespace, texts: tuple[str, ...], duration: float, ready: Path) -> None:
        super().__init__(options)
        self.texts, self.duration, self.ready = texts, duration, ready

    async def run(self, prompt: str) -> None:
        try:
            self.status("running")
            parts = [[block + "\n\n" for block in text.rstrip("\n").split("\n\n")] for text in self.texts]
            pace = _Pace(self.duration, sum(len(blocks) for blocks in parts))
            self.ready.write_text("streaming\n", encoding="utf-8")
            # One run is one answer to the UI: every answer's blocks as its parts, then the final with all of it.
            for blocks in parts:
                for block in blocks:
                    await self.event({"type": "text", "content": block})
                    await asyncio.sleep(pace.delay())
            await self.event({"type": "final", "content": codelia_answer(self.texts)})
            self.status("completed")
        except (asyncio.CancelledError, fake_runtime.Cancelled):
            self.status("cancelled")
        finally:
            self.task, self.run_id, self.cancel_requested = None, None, False


async def _serve_codelia(runtime: StormCodelia) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=16 * 1024 * 1024)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if line.strip():
            runtime.handle(json.loads(line))
    if runtime.task is not None:
        runtime.task.cancel()


def main(argv: list[str] | None = None) -> int:
    """Parse the options and serve the storm's turn in the chosen dialect until stdin closes."""
    parser = argparse.ArgumentParser(prog="realterm.runtime", description=__doc__.splitlines()[0])
    parser.add_argument("--dialect", choices=("lemon", "codelia"), required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--lines", type=int, default=80)
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--ready", required=True)
    args = parser.parse_args(argv)
    texts, ready = answers(args.seed, args.lines), Path(args.ready)
    if args.dialect == "lemon":
        return StormLemon(texts, args.seed, args.duration, ready).main()
    options = argparse.Namespace(
        legacy=False, speed=0.0, delay=0.0, crash_after=None, ignore=[], no_mcp=False, no_skills=False,
        onboarding=False, flood_bytes=0, log=None,
    )  # fmt: skip
    asyncio.run(_serve_codelia(StormCodelia(options, texts, args.duration, ready)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
