"""``python -m inline_render chat``: a small chat app written only on the public API.

History (Up/Down, Ctrl-R; ``--history FILE`` keeps it), slash commands from a
``CommandRegistry`` (``/help`` lists them; Tab completes commands, ``--options``
and models), a confirm before ``/run``, a manual tool with a form (``/tools``,
``/tool note -i``), streamed answers (Esc or Ctrl-C cancels one), status fields
and a spinner.  Piped input works too:
``printf 'hi\\n/run ls\\ny\\n' | python -m inline_render chat``.
"""

from __future__ import annotations

import argparse
import asyncio

from ..cli import PROG, help_text
from ..commands.registry import CommandContext, CommandRegistry, ManualTool
from ..core.state import Config
from ..inputs import FormField
from ..outputs import FormValue
from ..shell import AppOptions, InlineApp, OutputMode, TurnRunner

__all__ = ["Chat", "main"]

MODELS = ("echo-1", "echo-2-large")
NOTE_FIELDS = (
    FormField("text", "text", "what to note", required=True),
    FormField("level", "select", "how it shows", default="info", options=("info", "warn", "success")),
)


class Chat:
    """One conversation: each line is a turn of the ``TurnRunner`` (one at a time; Esc/Ctrl-C cancels it)."""

    def __init__(self, delay: float = 0.03) -> None:
        self.delay = delay
        self.turns = TurnRunner(self.answer)

    def install(self, app: InlineApp) -> None:
        """The commands and the turn runner on ``app`` (before it runs)."""
        self.commands().install(app)
        self.turns.install(app)

    async def main(self, app: InlineApp) -> int:
        app.status(model=MODELS[0], hint="/help \u00b7 Tab completes")
        await self.turns.run()
        return 0

    def commands(self) -> CommandRegistry:
        """The built-ins, ``/run`` and the ``note`` tool; ``/config delay 0.1`` changes the streaming speed."""
        registry = CommandRegistry(
            models=MODELS, settings=(FormField("delay", "number", "seconds per word", default=self.delay),)
        )
        registry.add("run", self.run, "run a command (asks first): /run ls -l", free=True)
        registry.add_tool(ManualTool("note", self.note, "Write a note to the log", NOTE_FIELDS, "Note", "Notes"))
        registry.on_config = self.configure
        return registry

    def configure(self, key: str, value: FormValue) -> None:
        if key == "delay" and isinstance(value, (int, float)):
            self.delay = max(0.0, float(value))

    async def run(self, context: CommandContext) -> None:
        command = " ".join(context.words) or "nothing"
        if await context.app.confirm(f"Run {command}?", "It would run in your shell.", risk="high"):
            context.app.log("tool", f"$ {command}\n(this demo does not really run it)")
        else:
            context.app.log("status", "not run")

    def note(self, context: CommandContext) -> None:
        context.app.log(str(context.args["level"]), str(context.args["text"]))

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
    chat = Chat(args.delay)
    chat.install(app)
    return asyncio.run(app.run(chat.main))
