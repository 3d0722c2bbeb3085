"""``python -m inline_render demo``: the scripted runtime, through the real stdio client, in your terminal.

By default it starts ``python -m inline_render.demo.fake_runtime`` and types the
first prompt for you: a streamed answer with a code block, tool calls and
results, a permission preview diff and a confirm (answer ``y`` or ``n``).  Then
it is your turn in the composer: ``now pick a file`` (a pick dialog), ``ask me
for a commit message`` (a prompt dialog), ``long`` (something to cancel with
Esc), ``retry`` (retries and compaction, quietly), or the commands ``/help``,
``/clear``, ``/cancel``, ``/exit`` and those that ask the runtime: ``/resume``,
``/model``, ``/skills``, ``/mcp``.

``--protocol lemon`` speaks Lemon's JSON lines (seed 001) instead, by default to
``python -m inline_render.demo.fake_lemon``; ``auto`` (the default) recognises a
Lemon runtime by its first line.

``--script`` (automatic when stdin is not a terminal, and in plain or JSON
Lines output, which read no keys) plays the whole session unattended (each
``--prompt`` in turn, slash commands included), answering prompts and picks
with their defaults, and exits 0 once the last run has ended and the runtime
has been shut down; 1 if a run did not start or did not complete.  Approvals
(confirm dialogs) are never answered silently: ``--approve-all`` approves and
``--strict`` denies every one; without either, an unattended run that needs an
approval is cancelled with an error and the demo exits 1.

``--pydantic-ai`` runs a coding agent on pydantic-ai instead (``demo/pydantic_agent.py``: a scripted
offline model, a read and a write tool, the write asked first with its diff), in a scratch directory.

``--headless`` and ``--json`` are llm-do's non-interactive modes (seed 000):
its events on stderr (strict ASCII text at verbosity ``-v``/``-vv``, or JSON
Lines), the final answer on stdout (as text, or as a JSON object).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import shlex
import sys
import tempfile
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from ..cli import PROG, help_text
from ..core.state import Config
from ..inputs import ConfirmRequest, EditorSet, Input, LogAppend, LogClear, PickRequest, PromptRequest, Status
from ..outputs import Interrupt, Quit, Submit
from ..protocol.client import PROTOCOLS, ClientConfig, Protocol, RuntimeClient
from ..protocol.llmdo.events import ErrorEvent
from ..protocol.llmdo.output import ApprovalPolicy, EventFormat, LlmDoWriter
from ..shell.runner import AppOptions, InlineApp
from ..shell.schedule import DEFAULT_MAX_RATE
from ..shell.terminal_io import OutputMode, resolve_mode, stream_is_tty

__all__ = ["DEMO_PROMPTS", "LEMON_PROMPTS", "Demo", "build_parser", "main"]

DEMO_PROMPTS = ("Fix the greeting in hello.py", "Now pick a file to review", "ask me for a commit message")
LEMON_PROMPTS = ("Check the greeting", "pick a file", "confirm the cleanup", "ask me for a commit message", "signals")
HELP = (
    "Commands: /help this text, /clear forget the log above the composer, /cancel stop the run, /exit quit.",
    "Runtime commands: /resume a saved session, /model choose the model, /skills list skills, /mcp MCP servers.",
    "Keys: Enter sends, Ctrl-J new line, Esc cancels a run, Ctrl-C twice or Ctrl-D on an empty composer exits.",
    "Try: 'now pick a file', 'ask me for a commit message', 'long' (then Esc), 'retry', 'suggest something'.",
)
LEMON_HELP = (  # what differs with a Lemon runtime (seed 001): its commands, the fake's prompts
    HELP[0],
    "Runtime commands: /abort the run, /reset, /save, /stats, /ping, /quit (the runtime, then the demo).",
    HELP[2],
    "Try: 'pick a file', 'confirm the cleanup', 'ask me', 'edit the plan', 'signals', 'long' (then Esc).",
)
_TYPING_DELAY = 0.02  # seconds per character when the demo types a prompt itself
_ANSWER_DELAY = 0.6  # seconds an unattended dialog stays on screen before it is answered


class Demo:
    """The demo's main coroutine: a runtime client wired to an ``InlineApp``."""

    def __init__(
        self,
        command: Sequence[str],
        prompts: Sequence[str],
        *,
        unattended: bool,
        first_auto: bool,
        policy: ApprovalPolicy = ApprovalPolicy.ASK,
        events: LlmDoWriter | None = None,
        protocol: Protocol = "auto",
    ) -> None:
        self.command = list(command)
        self.protocol: Protocol = protocol
        self.prompts = list(prompts)
        self.unattended = unattended
        self.first_auto = first_auto
        self.policy = policy
        self.events = events  # llm-do modes: the seed 000 event writer
        self.approval_failed = False  # an approval was needed and nobody could give it
        self.app: InlineApp | None = None
        self.client: RuntimeClient | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    async def main(self, app: InlineApp) -> int:
        """Start the runtime, play or serve the prompts, shut the runtime down; the exit code."""
        self.app = app
        on_events = self.events.facts if self.events is not None else None
        config = ClientConfig(protocol=self.protocol)
        client = RuntimeClient(
            self.command,
            on_inputs=self._on_inputs,
            config=config,
            on_events=on_events,
            on_title=app.set_title,
            backlog=app.behind,
        )
        self.client = client
        app.send(Status("demo \u00b7 /help for commands"))
        consumer = asyncio.ensure_future(self._consume())
        initialized = None
        failed = False
        try:
            initialized = await client.start()  # None: it could not start or never answered initialize
            if self.unattended:
                for prompt in self.prompts:
                    if client.session.exited or initialized is None or self.approval_failed:
                        break
                    before = client.session.last_run
                    await self._type(prompt)
                    if prompt.startswith("/"):
                        await self._wait_command()
                        continue
                    await self._wait_run_started(before)
                    await client.wait_idle()
                    run = client.session.last_run
                    failed |= run == before or client.session.run_status(run or "") != "completed"
            else:
                if self.first_auto and self.prompts:
                    before = client.session.last_run
                    await self._type(self.prompts[0])
                    await self._wait_run_started(before)
                    await client.wait_idle()
                    app.send(*(LogAppend("status", line) for line in self._help()[-1:]))
                await consumer
        finally:
            consumer.cancel()
            crashed = client.session.exited  # it exited (or never started) before we asked it to
            code = await client.close()  # None: it could not be started at all
            if initialized is None and self.events is not None:
                error = "The runtime could not be started or did not answer initialize."
                self.events.write([ErrorEvent(self.events.translator.worker, error, "runtime_error")])
        broken = client.failure is not None  # a reader of the runtime failed: its run ended with an error
        return 1 if (crashed and code != 0) or initialized is None or failed or self.approval_failed or broken else 0

    # --- runtime -> app -----------------------------------------------------------------------

    def _on_inputs(self, inputs: list[Input]) -> None:
        assert self.app is not None
        self.app.send(*inputs)
        for item in inputs:
            if isinstance(item, ConfirmRequest):
                self._approval(item)
            elif self.unattended and isinstance(item, (PromptRequest, PickRequest)):
                self._later(self._answer(item, ("enter",)))  # the default value / the first option

    def _later(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)  # keep a reference until it is done
        task.add_done_callback(self._tasks.discard)

    def _approval(self, request: ConfirmRequest) -> None:
        """A confirm is an approval: answered by the policy's flag, by the user, or it fails the run."""
        policy = self.policy
        if policy is ApprovalPolicy.ASK and not self.unattended:
            return  # the user answers
        if self.events is not None:
            self.events.write([self.events.translator.approval(request, policy.outcome)])
        if policy is ApprovalPolicy.APPROVE_ALL:
            self._later(self._answer(request, ("y",)))
        elif policy is ApprovalPolicy.STRICT:
            # A dialog that asks why the user denies gets no reason (Enter sends the empty one).
            self._later(self._answer(request, ("n", "enter") if request.allow_reason else ("n",)))
        else:
            self.approval_failed = True
            message = (
                f"Approval needed ({request.title}) but nobody can answer in a non-interactive run: "
                "pass --approve-all or --strict. The run is cancelled."
            )
            assert self.app is not None and self.client is not None
            self.app.send(LogAppend("error", message))
            if self.events is not None:
                self.events.write([ErrorEvent(self.events.translator.worker, message, "approval_required")])
            asyncio.get_running_loop().call_soon(self.client.cancel)  # after this batch of inputs is handled

    async def _answer(self, request: ConfirmRequest | PromptRequest | PickRequest, keys: tuple[str, ...]) -> None:
        """Answer a dialog the way a person would: with its keys, once it has been on screen a moment."""
        app = self.app
        assert app is not None
        dialogs = (ConfirmRequest, PromptRequest, PickRequest)
        for _ in range(1000):
            await asyncio.sleep(_ANSWER_DELAY if app.mode is OutputMode.INLINE else 0.01)
            state = app.state
            if state is None:
                return
            queued = [*app.scheduler.pending, *state.queued]
            if any(isinstance(item, dialogs) and item.id == request.id for item in queued):
                continue  # not on screen yet
            if state.dialog is None or state.dialog.id != request.id:
                return  # closed without us (run cancelled)
            if app.scheduler.pending:
                continue  # something is about to change the screen; look again
            app.press(*keys)
            return

    # --- app -> runtime -----------------------------------------------------------------------

    async def _consume(self) -> None:
        app, client = self.app, self.client
        assert app is not None and client is not None
        async for output in app.outputs():
            if isinstance(output, Submit) and output.text.strip().startswith("/"):
                if not client.run_command(output.text.strip()):  # /resume, /model...: the runtime's
                    self._command(output.text.strip())
                elif output.text.strip().lower() == "/quit":  # Lemon's /quit: the runtime was told; we go too
                    self._command("/quit")
            elif isinstance(output, Interrupt) and output.key == "c-c" and not client.session.busy:
                continue  # nothing runs; the status line already says how to exit (the runner's Ctrl-C hint)
            elif isinstance(output, Quit):
                return
            else:
                client.handle_output(output)

    def _command(self, text: str) -> None:
        app, client = self.app, self.client
        assert app is not None and client is not None
        name = text.split()[0].lower()
        if name == "/help":
            app.send(*(LogAppend("status", line) for line in self._help()))
        elif name == "/clear":
            app.send(LogClear())
        elif name == "/cancel":
            if client.session.busy:
                client.cancel()
            else:
                app.send(LogAppend("status", "No run to cancel."))
        elif name in ("/exit", "/quit"):
            app.exit(0)
        else:
            app.send(LogAppend("error", f"Unknown command {name}; /help lists them."))

    def _help(self) -> tuple[str, ...]:
        return LEMON_HELP if self.client is not None and self.client.protocol == "lemon" else HELP

    async def _type(self, prompt: str) -> None:
        """Type ``prompt`` into the composer and press Enter (Submit goes to the runtime as usual)."""
        app = self.app
        assert app is not None
        await self._wait_quiet()
        delay = _TYPING_DELAY if app.mode is OutputMode.INLINE else 0.0
        app.press(EditorSet(""))  # a runtime may have put text there (Lemon's ui_set_editor_text): type afresh
        for char in prompt:
            app.press(char)
            if delay:
                await asyncio.sleep(delay)
        app.press("enter")

    async def _wait_quiet(self) -> None:
        """Until no dialog is open and every queued input has been drawn."""
        app = self.app
        assert app is not None
        while True:
            state = app.state
            if state is not None and state.dialog is None and not app.scheduler.pending:
                return
            await asyncio.sleep(0.02)

    async def _wait_command(self, timeout: float = 10.0) -> None:
        """Until a runtime command is done: no request pending, no dialog open, twice in a row."""
        app, client = self.app, self.client
        assert app is not None and client is not None
        loop = asyncio.get_running_loop()
        deadline, calm = loop.time() + timeout, 0
        while calm < 2 and loop.time() < deadline and not client.session.exited:  # (Lemon's /quit ends it)
            await asyncio.sleep(0.05)
            state = app.state
            quiet = state is not None and state.dialog is None and not state.queued and not app.scheduler.pending
            calm = calm + 1 if quiet and not client.session.pending_requests() else 0

    async def _wait_run_started(self, before: str | None = None, timeout: float = 10.0) -> None:
        """Until the typed prompt reached the runtime as a run (or the runtime is gone).

        ``before``: the last run before the prompt; a run newer than it counts even if it is over already (a
        fast runtime, such as Lemon's answers in one burst, or a run cancelled because it needed an approval).
        """
        client = self.client
        assert client is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        session = client.session
        while not session.busy and session.last_run == before and not session.exited and loop.time() < deadline:
            await asyncio.sleep(0.01)


def _rate(text: str) -> float:
    """``--max-rate``: a positive, finite number of ticks per second."""
    try:
        rate = float(text)
    except ValueError:
        rate = math.nan
    if not (math.isfinite(rate) and rate > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of ticks per second, got {text!r}")
    return rate


def build_parser() -> argparse.ArgumentParser:
    """The ``demo`` command's arguments."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} demo",
        description=help_text(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--script", action="store_true", help="play unattended (default when stdin is not a TTY)")
    parser.add_argument("--pydantic-ai", action="store_true", help="a coding agent on pydantic-ai (scripted, offline)")
    parser.add_argument("--runtime", metavar="CMD", help="runtime command line (default: the scripted fake runtime)")
    parser.add_argument("--protocol", choices=PROTOCOLS, default="auto", help="wire dialect (auto: recognise Lemon)")
    parser.add_argument("--prompt", action="append", default=[], metavar="TEXT", help="a prompt to run (repeatable)")
    parser.add_argument("--record", metavar="FILE", help="record the session as a replayable scenario (inline mode)")
    parser.add_argument("--mode", choices=[m.value for m in OutputMode], default="auto", help="output mode")
    parser.add_argument("--ascii", action="store_true", help="plain mode: strict ASCII")
    parser.add_argument("--result-stdout", action="store_true", help="final answer to stdout, the UI to stderr")
    parser.add_argument("--max-rate", type=_rate, default=DEFAULT_MAX_RATE, help="most ticks per second")
    # llm-do's non-interactive contract (seed 000): events to stderr, the result to stdout.
    llmdo = parser.add_mutually_exclusive_group()
    llmdo.add_argument("--headless", action="store_true", help="llm-do events as ASCII text on stderr")
    llmdo.add_argument("--json", action="store_true", help="llm-do events as JSON Lines on stderr, result as JSON")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="--headless: -v progress, -vv deltas")
    approvals = parser.add_mutually_exclusive_group()
    approvals.add_argument("--approve-all", action="store_true", help="approve every approval request")
    approvals.add_argument("--strict", action="store_true", help="deny every approval request")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m inline_render demo``."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.pydantic_ai:
        return _pydantic_ai(args)
    events = None
    if args.headless or args.json:
        fmt = EventFormat.JSON if args.json else EventFormat.TEXT
        events = LlmDoWriter(fmt, sys.stderr, sys.stdout, verbosity=min(args.verbose, 2))
        args.mode, args.result_stdout = OutputMode.PLAIN.value, False  # the core runs; the writer speaks
    policy = (
        ApprovalPolicy.APPROVE_ALL if args.approve_all else ApprovalPolicy.STRICT if args.strict else ApprovalPolicy.ASK
    )
    ui = sys.stderr if args.result_stdout else sys.stdout
    inline = resolve_mode(OutputMode(args.mode), ui, os.environ) is OutputMode.INLINE
    # Plain and JSON Lines output read no keys: nobody could answer a dialog or type the next prompt.
    unattended = args.script or not stream_is_tty(sys.stdin) or not inline
    if args.runtime is not None:
        try:
            command = shlex.split(args.runtime)
        except ValueError as error:  # an unclosed quote
            parser.error(f"argument --runtime: {error}")
        if not command:
            parser.error("argument --runtime: needs a command")
        prompts = args.prompt or (["hello"] if unattended else [])
    elif args.protocol == "lemon":
        command = [sys.executable, "-m", "inline_render.demo.fake_lemon"]
        prompts = args.prompt or list(LEMON_PROMPTS)
    else:
        command = [sys.executable, "-m", "inline_render.demo.fake_runtime"]
        prompts = args.prompt or list(DEMO_PROMPTS)
    options = AppOptions(
        mode=OutputMode(args.mode),
        config=Config(placeholder="Type a message \u00b7 /help"),
        max_rate=args.max_rate,
        ascii=args.ascii,
        result_stdout=args.result_stdout,
        record=args.record,
        line_input=False,  # the demo types its own prompts when unattended; stdin is not a script
        transcript=events is None,
    )
    demo = Demo(
        command,
        prompts,
        unattended=unattended,
        first_auto=bool(prompts),
        policy=policy,
        events=events,
        protocol=args.protocol,
    )
    app = InlineApp(options)
    code = asyncio.run(app.run(demo.main))
    if events is not None:
        events.finish()
    return code


def _pydantic_ai(args: argparse.Namespace) -> int:
    """``--pydantic-ai``: the coding agent of ``pydantic_agent`` in a scratch directory holding a hello.py."""
    try:
        from .pydantic_agent import CodingAgent
    except ImportError as error:
        print(f"{PROG} demo --pydantic-ai: needs pip install 'inline_render[pydantic-ai]' ({error})", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="inline-render-agent-") as root:
        Path(root, "hello.py").write_text('def greet(name):\n    print("hi " + name)\n', encoding="utf-8")
        agent = CodingAgent(Path(root))
        config = Config(placeholder="Ask the agent \u00b7 /help")
        options = AppOptions(mode=OutputMode(args.mode), config=config, max_rate=args.max_rate, record=args.record)
        app = InlineApp(options)
        agent.install(app)
        return asyncio.run(app.run(agent.main))
