"""The application's side of ``InlineApp``, written the way an app reads: await a dialog, stream a reply.

Without it an app keeps an id -> Future table over the one ``outputs()``
stream and tracks whether its streaming entry is still open.  Here:

* ``await app.confirm(title, message)`` is True/False (``confirm_answer`` gives
  remember/reason too), ``await app.prompt(...)`` the text or None,
  ``await app.pick(title, options)`` an option id or None (``pick_many``: ids).
  A cancelled await closes its dialog.  Answers to these dialogs are not put on
  ``outputs()``.
* ``async with app.stream("assistant") as s: s.write(token)`` opens a streaming
  entry and finishes it on exit, on an exception and on cancellation; after a
  ``log.clear`` the next write opens a fresh entry.  Never an error line.
* ``app.status(model="m1", context="87% left")`` keeps named fields of the
  status line (None removes one); ``app.working("thinking")`` starts the
  spinner, ``app.working("")`` (or leaving ``with app.working(...)``) stops it.
* ``app.on_submit = fn``: ``fn(text)`` returns the line to log and submit
  (rewritten or not), or None to refuse it (the text goes back into the
  composer).  It runs before anything is logged.

Every method only queues inputs: they go through the tick like everything else.
"""

from __future__ import annotations

import asyncio
import difflib
import itertools
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ..inputs import (
    ConfirmCancel,
    ConfirmRequest,
    EditorSet,
    FormField,
    FormRequest,
    Input,
    LogAppend,
    LogClear,
    LogDelta,
    LogFinish,
    LogReplace,
    PermissionPreview,
    PickOption,
    PickRequest,
    PromptRequest,
    Status,
    Working,
)
from ..outputs import ConfirmAnswer, FormAnswer, FormValue, Interrupt, Output, PickAnswer, PromptAnswer, Submit
from ..text.spans import StyledText, trusted
from ..text.style import Segment, Style

if TYPE_CHECKING:
    from ..commands.registry import CommandRegistry

__all__ = ["AppApi", "OptionSpec", "Stream", "SubmitHook", "WorkingScope", "diff_preview"]

SubmitHook = Callable[[str], "str | None"]
OptionSpec = str | PickOption | tuple[str, str]
Answer = ConfirmAnswer | PromptAnswer | PickAnswer | FormAnswer


class Stream:
    """A streaming log entry opened by ``InlineApp.stream``; ``write`` appends, ``replace`` rewrites the open part."""

    def __init__(self, app: AppApi, kind: str, entry_id: str) -> None:
        self.app = app
        self.kind = kind
        self.id = entry_id
        self._parts: list[str] = []  # joined when ``text`` is read: a write costs its own length
        self.closed = False
        self._open = False

    @property
    def text(self) -> str:
        """Everything written (or the last ``replace``)."""
        if len(self._parts) > 1:
            self._parts[:] = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    def _ensure_open(self) -> None:
        if not self._open:
            self._open = True
            self.app._streams[self.id] = self
            self.app._send_inputs([LogAppend(self.kind, "", self.id, final=False)])

    def write(self, text: str) -> None:
        """Append streamed text (a token, a line...)."""
        if self.closed or not text:
            return
        self._ensure_open()
        self._parts.append(text)
        self.app._send_inputs([LogDelta(self.id, text)])

    def replace(self, text: str) -> None:
        """The entry's full new text (text already in scrollback is never rewritten)."""
        if self.closed:
            return
        self._ensure_open()
        self._parts[:] = [text]
        self.app._send_inputs([LogReplace(self.id, text)])

    def close(self) -> None:
        """Finish the entry (idempotent): all of its text becomes final."""
        if self.closed:
            return
        self.closed = True
        if self._open:
            self._open = False
            self.app._streams.pop(self.id, None)
            self.app._send_inputs([LogFinish(self.id)])

    def _forget(self) -> None:
        """The log was cleared under the stream: its entry is gone; a later write opens a new one."""
        self._open = False

    async def __aenter__(self) -> Stream:
        self._ensure_open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def __enter__(self) -> Stream:
        self._ensure_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class WorkingScope:
    """``app.working(message)``: the spinner runs now; as a context manager, it stops on exit."""

    def __init__(self, app: AppApi) -> None:
        self.app = app

    def __enter__(self) -> WorkingScope:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.app._send_inputs([Working("")])

    async def __aenter__(self) -> WorkingScope:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        self.app._send_inputs([Working("")])


class AppApi:
    """The awaitable dialogs, streams, status fields and submit hook of ``InlineApp`` (a mixin)."""

    # Created by ``InlineApp.__init__`` (declared here for the methods below).
    on_submit: SubmitHook | None
    """Called with each submitted line before it is logged: the line to log and submit, or None to refuse it.
    Set it before ``run`` (the core is told then that Enter no longer logs the line itself)."""
    _submit_hooked: bool
    commands: CommandRegistry | None
    """A ``CommandRegistry`` runs the submitted ``/`` lines (``registry.install(app)`` sets it and the completer)."""
    _commands_busy: int  # commands running: line input waits for them (or for a dialog one opens)
    _waiting: int
    _ids: itertools.count[int]
    _answers: dict[str, asyncio.Future[Answer]]
    _streams: dict[str, Stream]
    _status_fields: dict[str, StyledText]

    @property
    def status_fields(self) -> dict[str, str]:
        """The named status fields set with ``status(name=value)`` (a plain ``status(text)`` is under ""), as text."""
        return {name: _plain(value) for name, value in self._status_fields.items()}

    def command_started(self) -> None:
        """A slash command or a turn (``TurnRunner``) began: line input waits for it, or for a dialog it opens."""
        self._commands_busy += 1

    def command_finished(self) -> None:
        """A slash command that began has ended (finished, failed or cancelled)."""
        self._commands_busy -= 1

    def send(self, *inputs: Input) -> None:  # pragma: no cover - InlineApp's
        raise NotImplementedError

    def _send_inputs(self, inputs: Sequence[Input]) -> None:
        self.send(*inputs)

    def _new_id(self, prefix: str) -> str:
        return f"app-{prefix}-{next(self._ids)}"

    # --- dialogs --------------------------------------------------------------------------------

    async def _ask(self, request: ConfirmRequest | PromptRequest | PickRequest | FormRequest) -> Answer:
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._answers[request.id] = future
        self.send(request)
        self._waiting += 1  # line input may answer it
        try:
            return await future
        except asyncio.CancelledError:
            self.send(ConfirmCancel(request.id))  # the question is withdrawn: the dialog closes
            raise
        finally:
            self._waiting -= 1
            self._answers.pop(request.id, None)

    async def confirm_answer(
        self,
        title: str,
        message: str = "",
        *,
        confirm_label: str = "Yes",
        cancel_label: str = "No",
        danger_level: str = "normal",
        allow_remember: bool = False,
        allow_reason: bool = False,
        risk: str = "",
        worker_path: Sequence[str] = (),
    ) -> ConfirmAnswer:
        """Ask a yes/no question; the whole answer (``ok``, ``remember`` with its ``scope``, ``reason``).

        ``risk`` ("low"/"medium"/"high") and ``worker_path`` make it a seed 003 approval (shown under
        the message); ``allow_remember`` adds ``[a]lways`` and ``[s]ession``.
        """
        request = ConfirmRequest(
            self._new_id("confirm"),
            title,
            message,
            confirm_label,
            cancel_label,
            danger_level,
            allow_remember,
            allow_reason,
            risk=risk,
            worker_path=tuple(worker_path),
        )
        answer = await self._ask(request)
        assert isinstance(answer, ConfirmAnswer)
        return answer

    async def approve(
        self,
        description: str,
        *,
        risk: str = "",
        worker_path: Sequence[str] = (),
        allow_remember: bool = True,
        preview: PermissionPreview | str | None = None,
    ) -> str:
        """Seed 003's approval: ``[y]es / [n]o / [a]lways / [s]ession``; "yes", "no", "always" or "session".

        ``preview`` shows what is approved above the dialog, drawn as a runtime's permission preview: a
        ``PermissionPreview`` (``diff_preview(path, before, after)`` makes one for a file write), or a string
        (a unified diff when it has a ``@@`` hunk line, else a one-line summary).
        """
        if preview is not None:
            self.send(_preview_input(preview, description))
        answer = await self.confirm_answer(
            "Approval Required",
            description,
            risk=risk,
            worker_path=worker_path,
            allow_remember=allow_remember,
            allow_reason=False,
        )
        if not answer.ok:
            return "no"
        return answer.scope if answer.remember and answer.scope else "yes"

    async def confirm(self, title: str, message: str = "", **options: Any) -> bool:
        """Ask a yes/no question: True when the user confirmed (options as ``confirm_answer``)."""
        return (await self.confirm_answer(title, message, **options)).ok

    async def prompt(
        self,
        title: str,
        message: str = "",
        *,
        default: str = "",
        placeholder: str = "",
        secret: bool = False,
        multiline: bool = False,
    ) -> str | None:
        """Ask for a line of text: the text, or None when the user dismissed the dialog (Esc)."""
        request = PromptRequest(self._new_id("prompt"), title, message, default, placeholder, secret, multiline)
        answer = await self._ask(request)
        assert isinstance(answer, PromptAnswer)
        return answer.value

    async def form(self, title: str, fields: Iterable[FormField], message: str = "") -> dict[str, FormValue] | None:
        """A form dialog of ``fields`` (text, number, select, boolean): the checked values by name, or None (Esc)."""
        answer = await self._ask(FormRequest(self._new_id("form"), title, tuple(fields), message))
        assert isinstance(answer, FormAnswer)
        return answer.as_dict()

    async def pick_many(self, title: str, options: Iterable[OptionSpec], message: str = "") -> list[str]:
        """Let the user choose any number of options: the chosen ids (empty when dismissed)."""
        return list(await self._pick(title, options, message, multi=True))

    async def pick(self, title: str, options: Iterable[OptionSpec], message: str = "") -> str | None:
        """Let the user choose one option (a string, ``(id, label)`` or ``PickOption``): its id, or None."""
        ids = await self._pick(title, options, message, multi=False)
        return ids[0] if ids else None

    async def _pick(self, title: str, options: Iterable[OptionSpec], message: str, *, multi: bool) -> tuple[str, ...]:
        choices = tuple(_option(option) for option in options)
        answer = await self._ask(PickRequest(self._new_id("pick"), title, choices, message, multi))
        assert isinstance(answer, PickAnswer)
        return answer.ids

    # --- log, status, spinner -------------------------------------------------------------------

    def stream(self, kind: str = "assistant") -> Stream:
        """A streaming entry of ``kind``: ``async with app.stream() as s: s.write(token)`` (or ``with``)."""
        LogAppend(kind, "", "probe", final=False)  # an unknown kind fails here, at the call
        return Stream(self, kind, self._new_id("stream"))

    def log(self, kind: str, text: StyledText) -> None:
        """Append one finished log entry (a string, or styled ``Segment``s: see ``spans.trusted``)."""
        body, styled = trusted(text)
        self.send(LogAppend(kind, body, styled=styled))

    def status(self, text: StyledText | None = None, **fields: StyledText | None) -> None:
        """Set the status line: ``text`` replaces it all; named ``fields`` are kept and joined (None removes one).

        A value may be styled segments (``[Segment("ok", Style(fg="ansigreen")), " 3 files"]``).
        """
        if text is not None:
            self._status_fields = {"": text} if text else {}
        for name, value in fields.items():
            if value:
                self._status_fields[name] = value
            else:
                self._status_fields.pop(name, None)
        values = list(self._status_fields.values())
        plain = [value for value in values if isinstance(value, str)]
        if len(plain) == len(values):
            self.send(Status(" \u00b7 ".join(plain)))
            return
        joined: list[Segment | tuple[str, Style] | str] = []
        for index, value in enumerate(values):
            joined += ([" \u00b7 "] if index else []) + ([value] if isinstance(value, str) else list(value))
        self.send(Status(*trusted(joined)))

    def working(self, message: str = "working") -> WorkingScope:
        """Start the spinner with ``message`` (an empty message stops it); a context manager stops it on exit."""
        self.send(Working(message))
        return WorkingScope(self)

    # --- hooks for the runner ------------------------------------------------------------------

    def _api_inputs(self, inputs: Sequence[Input]) -> None:
        """Every input the app sends: a ``log.clear`` closes the entries of open streams."""
        if self._streams and any(isinstance(item, LogClear) for item in inputs):
            for stream in list(self._streams.values()):
                stream._forget()
            self._streams.clear()

    def _api_output(self, output: Output) -> tuple[Output | None, list[Input]]:
        """What becomes of an output: the one to put on ``outputs()`` (None: taken here) and inputs to queue.

        An awaited dialog's answer resolves its await; with ``on_submit`` a submitted line is logged as the
        hook rewrote it and submitted so, or refused (its text goes back into the composer).
        """
        if isinstance(output, (ConfirmAnswer, PromptAnswer, PickAnswer, FormAnswer)):
            future = self._answers.get(output.id)
            if future is None:
                return output, []
            if not future.done():
                future.set_result(output)
            return None, []
        inputs: list[Input] = []
        if isinstance(output, Submit) and self.on_submit is not None and self._submit_hooked:
            accepted = self.on_submit(output.text)
            if accepted is None:
                return None, [EditorSet(output.text)]
            if not accepted.strip():
                return None, []
            output, inputs = Submit(accepted), [LogAppend("user", accepted)]
        if isinstance(output, Submit) and self.commands is not None and self.commands.handles(output.text):
            self.commands.start(self, output.text)  # type: ignore[arg-type]  # self is the InlineApp
            return None, inputs
        if isinstance(output, Interrupt) and self.commands is not None:
            self.commands.interrupt()  # Esc / Ctrl-C: a running command stops, control returns to the prompt
        return output, inputs


def diff_preview(
    file_path: str, before: str, after: str, *, tool: str = "write", language: str | None = None
) -> PermissionPreview:
    """The preview of writing ``after`` over ``before`` into ``file_path``: a unified diff, highlighted by the
    file's language (``language`` names it when the path does not)."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), file_path, file_path, lineterm=""
    )
    # Lines of the old or new text that lack a newline (the last one) would run into the next: one per row.
    diff = "\n".join(line.rstrip("\n") for line in lines)
    summary = None if diff else f"{file_path}: no change"
    return PermissionPreview(tool, diff or None, summary, file_path=file_path, language=language)


def _preview_input(preview: PermissionPreview | str, description: str) -> PermissionPreview:
    """An approval's preview as the core's input; a string is a diff when it has a hunk, else a summary."""
    if isinstance(preview, PermissionPreview):
        return preview
    tool = description.split()[0] if description.split() else "tool"
    if any(line.startswith("@@") for line in preview.splitlines()):
        return PermissionPreview(tool, diff=preview)
    return PermissionPreview(tool, summary=preview)


def _option(option: OptionSpec) -> PickOption:
    if isinstance(option, PickOption):
        return option
    if isinstance(option, tuple):
        return PickOption(option[0], option[1])
    return PickOption(option, option)


def _plain(value: StyledText) -> str:
    """A status field's text without its styles."""
    if isinstance(value, str):
        return value
    return "".join(
        item.text if isinstance(item, Segment) else item if isinstance(item, str) else item[0] for item in value
    )
