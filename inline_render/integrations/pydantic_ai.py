"""A pydantic-ai ``Agent`` rendered in an ``InlineApp``: ``pip install 'inline_render[pydantic-ai]'``.

``AgentSession`` runs each submitted line as one agent run (a turn of a ``TurnRunner``)::

    agent = Agent(model, tools=[read_file, Tool(write_file, requires_approval=True)])
    session = AgentSession(agent)
    app = InlineApp()
    session.install(app)                  # before run (after CommandRegistry.install)
    raise SystemExit(asyncio.run(app.run(session.main)))

What the run's events become (``agent.run(..., event_stream_handler=...)``):

* text parts stream as Markdown ``assistant`` entries, thinking parts as dimmed ``reasoning`` ones;
* each tool call is a ``tool`` entry (``read_file path=notes.md``) and its result another
  (``read_file: …``, truncated; a failure an ``error`` entry);
* a deferred call that needs approval (``requires_approval=True`` or ``ApprovalRequired``) ends the run
  with ``DeferredToolRequests``; each call is asked in the approval dialog, with a diff preview when it
  writes a file (``file_write_preview``), and the run resumes with the answers (``DeferredToolResults``:
  ``ToolApproved`` or ``ToolDenied``).  "always" and "session" approve the tool for the rest of the session;
* the tokens used so far go into the status line (``tokens`` field);
* Esc / Ctrl-C cancel the run (the ``TurnRunner``); the conversation (``messages``) keeps only finished
  turns, and ``clear()`` forgets it (hook it to ``/clear``: ``registry.on_clear = session.clear``).

Tested against pydantic-ai-slim's offline models (``FunctionModel``, ``TestModel``); only public API of
pydantic-ai 1.x/2.x is used (``DeferredToolRequests`` in the run's output types, per run).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, RunContext, ToolApproved, ToolDenied
from pydantic_ai.messages import (
    AgentStreamEvent,
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    ModelMessage,
    PartDeltaEvent,
    PartStartEvent,
    RetryPromptPart,
    TextPart,
    TextPartDelta,
    ThinkingPart,
    ThinkingPartDelta,
    ToolCallPart,
)

from ..inputs import PermissionPreview
from ..protocol.display import format_tool_call, format_tool_result
from ..shell.api import Stream, diff_preview
from ..shell.turns import TurnRunner, WhileBusy

if TYPE_CHECKING:
    from ..shell.runner import InlineApp

__all__ = ["AgentSession", "PreviewFor", "Tokens", "file_write_preview"]

PreviewFor = Callable[[ToolCallPart], "PermissionPreview | str | None"]
log = logging.getLogger(__name__)
_PATH_KEYS = ("path", "file_path", "filename", "file")
_CONTENT_KEYS = ("content", "text", "new_content", "contents")


@dataclass(frozen=True, slots=True)
class Tokens:
    """Tokens used by the session's runs so far (the model's own counts, or pydantic-ai's estimate)."""

    input: int = 0
    output: int = 0

    def __add__(self, other: Tokens) -> Tokens:
        return Tokens(self.input + other.input, self.output + other.output)

    def text(self) -> str:
        """As the status line shows it."""
        return f"{self.input + self.output:,} tokens ({self.input:,} in, {self.output:,} out)"


def file_write_preview(call: ToolCallPart, root: Path | None = None) -> PermissionPreview | None:
    """The diff of a call that writes a file: its ``path`` (or ``file_path``...) and ``content`` (or ``text``...)
    arguments against the file as it is now (relative to ``root``, the working directory); else None."""
    try:
        args = call.args_as_dict()
    except ValueError:  # arguments the model sent as broken JSON: nothing to preview
        return None
    path = next((args[key] for key in _PATH_KEYS if isinstance(args.get(key), str)), None)
    after = next((args[key] for key in _CONTENT_KEYS if isinstance(args.get(key), str)), None)
    if path is None or after is None:
        return None
    target = (root or Path.cwd()) / path
    try:
        before = target.read_text(encoding="utf-8") if target.is_file() else ""
    except (OSError, UnicodeDecodeError):
        before = ""
    return diff_preview(path, before, after, tool=call.tool_name)


class AgentSession:
    """One conversation with ``agent`` in an ``InlineApp``: each submitted line is a run (see the module)."""

    def __init__(
        self,
        agent: Agent[Any, Any],
        *,
        deps: Any = None,
        root: Path | None = None,
        preview: PreviewFor | None = None,
        risk: str = "medium",
        while_busy: WhileBusy = "queue",
        status_field: str = "tokens",
    ) -> None:
        self.agent = agent
        self.deps = deps
        self.root = root
        """The directory a written file's path is relative to, for its diff preview (the working directory)."""
        self.preview = preview
        """The approval's preview of a call (None: ``file_write_preview`` of a call with a path and content)."""
        self.risk = risk
        self.status_field = status_field
        self.messages: list[ModelMessage] = []
        """The conversation so far (finished turns only), passed to each run as its message history."""
        self.tokens = Tokens()
        self.allowed: set[str] = set()
        """Tools approved for the rest of the session ("always" / "session" in the dialog)."""
        self.turns = TurnRunner(self.turn, while_busy=while_busy)
        self._streams: dict[int, Stream] = {}
        self._shown_calls: set[str] = set()  # a resumed run reports its deferred calls again: shown once

    def install(self, app: InlineApp) -> None:
        """Run the submitted lines of ``app`` as agent runs (before ``app.run``)."""
        self.turns.install(app)

    async def main(self, app: InlineApp) -> int:
        """An app's whole ``main``: ``app.run(session.main)``."""
        app.status(**{self.status_field: self.tokens.text()})
        await self.turns.run()
        return 0

    def clear(self) -> None:
        """Forget the conversation (the next run starts afresh); the token count stays."""
        self.messages = []

    async def turn(self, app: InlineApp, prompt: str) -> None:
        """One user line: runs until the agent's final answer, asking for each deferred call on the way."""
        history: Sequence[ModelMessage] = self.messages
        results: DeferredToolResults | None = None
        output_type = _with_deferred(self.agent.output_type)
        self._shown_calls.clear()
        with app.working("thinking"):
            try:
                while True:
                    result = await self.agent.run(
                        prompt if results is None else None,
                        output_type=output_type,
                        message_history=history,
                        deferred_tool_results=results,
                        deps=self.deps,
                        event_stream_handler=lambda ctx, events: self._render(app, ctx, events),
                    )
                    self._count(app, _usage(result))
                    history = result.all_messages()
                    if not isinstance(result.output, DeferredToolRequests):
                        break
                    results = await self._answer(app, result.output)
                    if results is None:
                        return  # a call nobody here can answer: the turn ends, not written to the history
            finally:
                self._close_streams()
        if isinstance(result.output, str) and result.output.strip() and not _shown_text(result.new_messages()):
            app.log("assistant", result.output)  # a model that did not stream its answer
        elif not isinstance(result.output, str):
            app.log("assistant", repr(result.output))  # a structured output: shown as its value
        self.messages = list(history)

    # --- events ---------------------------------------------------------------------------------

    async def _render(self, app: InlineApp, ctx: RunContext[Any], events: AsyncIterable[AgentStreamEvent]) -> None:
        async for event in events:
            if isinstance(event, PartStartEvent):
                self._start_part(app, event.index, event.part)
            elif isinstance(event, PartDeltaEvent):
                delta = event.delta
                stream = self._streams.get(event.index)
                if stream is not None and isinstance(delta, (TextPartDelta, ThinkingPartDelta)):
                    stream.write(delta.content_delta or "")
            elif isinstance(event, FunctionToolCallEvent) and event.part.tool_call_id not in self._shown_calls:
                self._shown_calls.add(event.part.tool_call_id)
                self._close_streams()
                self._count(app, Tokens(ctx.usage.input_tokens, ctx.usage.output_tokens), live=True)
                app.log("tool", format_tool_call(event.part.tool_name, _args(event.part)))
            elif isinstance(event, FunctionToolResultEvent):
                self._result(app, event)

    def _start_part(self, app: InlineApp, index: int, part: object) -> None:
        """A new part of the model's response: the open text streams end; text or thinking opens one."""
        self._close_streams()
        if isinstance(part, (TextPart, ThinkingPart)):
            stream = app.stream("assistant" if isinstance(part, TextPart) else "reasoning")
            self._streams[index] = stream
            stream.write(part.content)

    def _result(self, app: InlineApp, event: FunctionToolResultEvent) -> None:
        part = getattr(event, "part", None) or getattr(event, "result", None)  # 2.x ``part``, 1.x ``result``
        if part is None:
            return
        failed = isinstance(part, RetryPromptPart) or getattr(part, "outcome", "success") in ("failed", "retried")
        content = part.model_response() if isinstance(part, RetryPromptPart) else getattr(part, "content", None)
        if getattr(part, "outcome", "success") == "denied":
            app.log("status", f"{part.tool_name}: denied")
            return
        text = format_tool_result(part.tool_name or "tool", content, failed)
        app.log("error" if failed else "tool", text)

    def _close_streams(self) -> None:
        for stream in self._streams.values():
            stream.close()
        self._streams.clear()

    def _count(self, app: InlineApp, used: Tokens, *, live: bool = False) -> None:
        """Tokens into the status line: ``live`` counts of the running run, else a finished run's (kept)."""
        if not live:
            self.tokens = self.tokens + used
        app.status(**{self.status_field: (self.tokens + used if live else self.tokens).text()})

    # --- approvals ------------------------------------------------------------------------------

    async def _answer(self, app: InlineApp, requests: DeferredToolRequests) -> DeferredToolResults | None:
        """Ask for each call that needs approval (in order); None when there are calls to run elsewhere."""
        if requests.calls:
            names = ", ".join(call.tool_name for call in requests.calls)
            app.log("error", f"{names}: deferred calls to run outside the agent are not supported here")
            return None
        approvals: dict[str, bool | ToolApproved | ToolDenied] = {}
        app.working("")  # the agent waits for the user, not the other way round
        for call in requests.approvals:
            if call.tool_name in self.allowed:
                approvals[call.tool_call_id] = ToolApproved()
                continue
            preview = self.preview(call) if self.preview is not None else file_write_preview(call, self.root)
            description = format_tool_call(call.tool_name, _args(call))
            answer = await app.approve(description, risk=self.risk, preview=preview)
            if answer in ("always", "session"):
                self.allowed.add(call.tool_name)
            denied = ToolDenied("The user denied this call.")
            approvals[call.tool_call_id] = denied if answer == "no" else ToolApproved()
        app.working("thinking")
        return DeferredToolResults(approvals=approvals)


def _with_deferred(output_type: Any) -> Any:
    """The agent's output types with ``DeferredToolRequests`` (so a run can stop for approvals)."""
    types = list(output_type) if isinstance(output_type, (list, tuple)) else [output_type]
    return types if DeferredToolRequests in types else [*types, DeferredToolRequests]


def _usage(result: Any) -> Tokens:
    """A finished run's tokens (``usage`` is a method in pydantic-ai 1.x, a property in 2.x)."""
    usage = result.usage
    if callable(usage) and not hasattr(usage, "input_tokens"):
        usage = usage()
    return Tokens(usage.input_tokens or 0, usage.output_tokens or 0)


def _args(call: ToolCallPart) -> Any:
    try:
        return call.args_as_dict()
    except ValueError:
        return call.args


def _shown_text(messages: Sequence[ModelMessage]) -> bool:
    """Whether the run's responses had a text part (streamed, so already on screen)."""
    return any(isinstance(part, TextPart) and part.content for message in messages for part in message.parts)
