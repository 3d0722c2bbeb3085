"""``python -m inline_render chat``: a small chat app written only on the public API.

History (Up/Down, Ctrl-R; ``--history FILE`` keeps it), Tab completion of
slash commands and their arguments (``/model <Tab>``, ``/run <Tab>`` completes
paths), a confirm before ``/run``, streamed answers (Esc or Ctrl-C cancels
one), status fields and a spinner.  Piped input works too:
``printf 'hi\\n/run ls\\ny\\n' | python -m inline_render chat``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from .cli import PROG, help_text
from .completion import PathCompleter, SlashCommand, SlashCommands
from .inputs import LogClear
from .outputs import Interrupt, Quit, Submit
from .shell import AppOptions, InlineApp, OutputMode
from .state import Config

__all__ = ["Chat", "main"]

MODELS = ("echo-1", "echo-2-large")
COMMANDS = {
    "help": SlashCommand("list the commands"),
    "model": SlashCommand("switch the model", MODELS),
    "run": SlashCommand("run a command (asks first)", PathCompleter()),
    "clear": SlashCommand("forget the log above the composer"),
    "exit": SlashCommand("quit"),
}


class Chat:
    """One conversation: each turn runs as a task, so Esc/Ctrl-C can cancel it."""

    def __init__(self, delay: float = 0.03) -> None:
        self.delay = delay
        self.turn: asyncio.Task[None] | None = None

    async def main(self, app: InlineApp) -> int:
        app.status(model=MODELS[0], hint="/help \u00b7 Tab completes")
        async for output in app.outputs():
            if isinstance(output, Interrupt) and self.turn is not None:
                self.turn.cancel()
            elif isinstance(output, Submit):
                if self.turn is not None and not self.turn.done():
                    await self.turn  # one turn at a time (piped lines wait their turn too)
                self.turn = asyncio.ensure_future(self._guard(app, self.handle(app, output.text.strip())))
            elif isinstance(output, Quit):
                break
        if self.turn is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.turn
        return 0

    async def _guard(self, app: InlineApp, turn: Coroutine[Any, Any, None]) -> None:
        try:
            await turn
        except asyncio.CancelledError:
            app.log("status", "cancelled")

    async def handle(self, app: InlineApp, text: str) -> None:
        """A slash command, or a question answered by streaming."""
        name, _, argument = text.partition(" ")
        if name == "/help":
            for command, spec in COMMANDS.items():
                app.log("status", f"/{command:<6} {spec.description}")
        elif name == "/model":
            if argument in MODELS:
                app.status(model=argument)
            else:
                app.log("error", f"unknown model {argument!r}; try: {', '.join(MODELS)}")
        elif name == "/run":
            if await app.confirm(f"Run {argument or 'nothing'}?", "It would run in your shell.", danger_level="high"):
                app.log("tool", f"$ {argument}\n(this demo does not really run it)")
            else:
                app.log("status", "not run")
        elif name == "/clear":
            app.send(LogClear())
        elif name == "/exit":
            app.exit(0)
        elif name.startswith("/"):
            app.log("error", f"unknown command {name}; /help lists them")
        else:
            await self.answer(app, text)

    async def answer(self, app: InlineApp, question: str) -> None:
        with app.working("thinking"):
            await asyncio.sleep(self.delay * 5)
            async with app.stream("assistant") as reply:
                for word in f"You asked: {question}. This demo echoes; a real app calls a model here.".split():
                    reply.write(word + " ")
                    await asyncio.sleep(self.delay)


def main(argv: list[str]) -> int:
    """Entry point of ``python -m inline_render chat``."""
    parser = argparse.ArgumentParser(prog=f"{PROG} chat", description=help_text(__doc__))
    parser.add_argument("--history", metavar="FILE", help="keep the composer's history in FILE")
    parser.add_argument("--mode", choices=[m.value for m in OutputMode], default="auto", help="output mode")
    parser.add_argument("--delay", type=float, default=0.03, help="seconds between streamed words")
    args = parser.parse_args(argv)
    options = AppOptions(
        mode=OutputMode(args.mode), config=Config(placeholder="Ask something \u00b7 /help"), history_file=args.history
    )
    app = InlineApp(options)
    app.completer = SlashCommands(COMMANDS)
    return asyncio.run(app.run(Chat(args.delay).main))
