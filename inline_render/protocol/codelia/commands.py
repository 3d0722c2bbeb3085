"""The slash commands that talk to the runtime: ``/resume``, ``/model``, ``/skills``, ``/mcp``.

Typed in the composer, each sends seed 004's request, shows the answer as a
pick dialog of the UI's own (its id starts with ``COMMAND_DIALOG``, so the
answer comes back here, not to the runtime) and acts on the choice:

* ``/resume``: ``session.list`` -> pick -> ``session.history`` (the runtime
  replays the session's events, rendered once) -> later runs carry that
  ``session_id``;
* ``/model``: ``model.list`` -> pick -> ``model.set`` (``/model NAME`` sets it directly);
* ``/skills``: ``skills.list`` -> a searchable pick; the choice is put in the
  composer as a ``$skill`` mention;
* ``/mcp``: ``mcp.list`` (scope ``loaded``) -> a compact table of servers and states.

A runtime without ``supports_mcp_list`` / ``supports_skills_list`` gets
"MCP status unavailable" / "Skills list unavailable", as seed 004 says.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from wcwidth import wcswidth

from ...errors import InvalidInput
from ...inputs import EditorSet, LogAppend, PickOption, PickRequest
from ..context import UiContext
from ..jsonobj import JsonObject
from ..messages import RequestId, excerpt
from . import catalog as c
from . import methods as m
from .step import Out

__all__ = ["COMMANDS", "COMMAND_DIALOG", "DESCRIPTIONS", "CommandHost", "Commands", "mcp_table"]

COMMAND_DIALOG = "ui-command-"  # ids of the UI's own pick dialogs (runtime ids are "ui_1"... or numbers)
COMMANDS = ("/resume", "/model", "/skills", "/mcp")
DESCRIPTIONS = {  # for /help and completion (inline_render.protocol.codelia.slash registers them on a CommandRegistry)
    "/resume": "Resume a saved session",
    "/model": "Switch the runtime's model (/model NAME)",
    "/skills": "Pick a skill to mention",
    "/mcp": "MCP servers and their state",
}
_MAX_CELL = 40  # characters of one table cell
_T = TypeVar("_T", bound=JsonObject)


class CommandHost(Protocol):
    """What the commands need of their session (``Session`` is one): its state, log lines and requests."""

    exited: bool
    server: m.InitializeResult | None
    session_id: str | None  # set by /resume: later runs continue it
    replaying: RequestId | None  # session.history sent, its replayed events arriving

    @property
    def server_capabilities(self) -> m.Capabilities: ...

    @property
    def context(self) -> UiContext | None: ...

    @property
    def busy(self) -> bool: ...

    def line(self, out: Out, kind: str, text: str) -> None: ...

    def request(
        self,
        method: str,
        params: JsonObject,
        out: Out,
        run_id: str | None = None,
        *,
        text: str | None = None,
        on_result: Callable[[Any, Out], None] | None = None,
    ) -> RequestId: ...


@dataclass(frozen=True, slots=True)
class _Choice:
    """An open pick dialog of a command: what to do with the chosen ids."""

    then: Callable[[tuple[str, ...], Out], None]


class Commands:
    """The runtime-facing slash commands of one session."""

    __slots__ = ("_dialogs", "_next", "_session")

    def __init__(self, session: CommandHost) -> None:
        self._session = session
        self._dialogs: dict[str, _Choice] = {}
        self._next = 0

    def owns(self, dialog_id: str) -> bool:
        """The dialog is one of ours (its answer is not for the runtime)."""
        return dialog_id in self._dialogs

    def close_all(self) -> list[str]:
        """Forget every open dialog (the runtime is gone); their ids, to close them on screen."""
        ids = list(self._dialogs)
        self._dialogs.clear()
        return ids

    def run(self, text: str, out: Out) -> bool:
        """Run ``text`` if it is one of ``COMMANDS``; False (nothing done) otherwise."""
        name, _, arg = text.strip().partition(" ")
        name, arg = name.lower(), arg.strip()
        if name not in COMMANDS:
            return False
        session = self._session
        caps = session.server_capabilities
        if session.exited or session.server is None:
            session.line(out, "error", "The runtime is not running.")
        elif name == "/mcp" and not caps.supports_mcp_list:
            session.line(out, "status", "MCP status unavailable")
        elif name == "/skills" and not caps.supports_skills_list:
            session.line(out, "status", "Skills list unavailable")
        elif name == "/mcp":
            session.request(c.MCP_LIST, c.McpListParams(scope="loaded"), out, on_result=self._mcp_listed)
        elif name == "/skills":
            cwd = session.context.cwd if session.context is not None else None
            session.request(c.SKILLS_LIST, c.SkillsListParams(cwd=cwd), out, on_result=self._skills_listed)
        elif session.busy or session.replaying is not None:
            session.line(out, "status", f"{name} waits for the run in progress: finish or cancel it first.")
        elif name == "/resume":
            session.request(c.SESSION_LIST, c.SessionListParams(limit=50), out, on_result=self._sessions_listed)
        elif arg:
            self._set_model(arg, None, out)
        else:
            params = c.ModelListParams(include_details=True)
            session.request(c.MODEL_LIST, params, out, on_result=self._models_listed)
        return True

    def picked(self, dialog_id: str, ids: tuple[str, ...], out: Out) -> None:
        """The answer of one of our dialogs (empty ``ids``: dismissed, nothing happens)."""
        choice = self._dialogs.pop(dialog_id, None)
        if choice is not None and ids:
            choice.then(ids, out)

    # --- answers ---------------------------------------------------------------------------------

    def _sessions_listed(self, result: Any, out: Out) -> None:
        listed = self._parse(c.SessionListResult, result, c.SESSION_LIST, out)
        if listed is None:
            return
        if not listed.sessions:
            self._session.line(out, "status", "No saved sessions to resume.")
            return
        options = tuple(
            PickOption(s.session_id, _one_line(s.last_user_message or s.session_id), _session_detail(s))
            for s in listed.sessions
        )
        self._pick("Resume a session", options, self._resume, out)

    def _resume(self, ids: tuple[str, ...], out: Out) -> None:
        session_id = ids[0]
        session = self._session
        if session.busy or session.replaying is not None:
            session.line(out, "status", "/resume waits for the run in progress: finish or cancel it first.")
            return

        def replayed(result: Any, out: Out) -> None:
            history = self._parse(c.SessionHistoryResult, result, c.SESSION_HISTORY, out)
            session.session_id = session_id  # later runs continue it
            runs = history.runs if history is not None else 0
            more = " (older events were left out)" if history is not None and history.truncated else ""
            session.line(out, "status", f"Resumed session {session_id}: {runs} run{'' if runs == 1 else 's'}{more}.")

        session.replaying = session.request(
            c.SESSION_HISTORY, c.SessionHistoryParams(session_id=session_id), out, on_result=replayed
        )

    def _models_listed(self, result: Any, out: Out) -> None:
        listed = self._parse(c.ModelListResult, result, c.MODEL_LIST, out)
        if listed is None:
            return
        if not listed.models:
            self._session.line(out, "status", "The runtime lists no models.")
            return
        details = listed.details or {}
        options = tuple(
            PickOption(name, name + (" (current)" if name == listed.current else ""), _model_detail(details.get(name)))
            for name in listed.models
        )
        provider = listed.provider or None
        title = f"Model ({provider})" if provider else "Model"
        self._pick(title, options, lambda ids, out: self._set_model(ids[0], provider, out), out)

    def _set_model(self, name: str, provider: str | None, out: Out) -> None:
        def done(result: Any, out: Out) -> None:
            answer = self._parse(c.ModelSetResult, result, c.MODEL_SET, out)
            if answer is not None:
                shown = "/".join(part for part in (answer.provider, answer.name or name) if part)
                self._session.line(out, "status", f"Model set to {shown}.")

        self._session.request(c.MODEL_SET, c.ModelSetParams(name=name, provider=provider), out, on_result=done)

    def _skills_listed(self, result: Any, out: Out) -> None:
        listed = self._parse(c.SkillsListResult, result, c.SKILLS_LIST, out)
        if listed is None:
            return
        if listed.errors:
            n = len(listed.errors)
            self._session.line(out, "status", f"{n} skill file{'' if n == 1 else 's'} could not be read.")
        if not listed.skills:
            self._session.line(out, "status", "No skills found.")
            return
        names = {skill.id: skill.name or skill.id for skill in listed.skills}
        options = tuple(
            PickOption(skill.id, _one_line(names[skill.id]), _one_line(_skill_detail(skill))) for skill in listed.skills
        )

        def mention(ids: tuple[str, ...], out: Out) -> None:
            out.inputs.append(EditorSet(f"${names.get(ids[0], ids[0])} "))

        self._pick("Skills (type to search)", options, mention, out)

    def _mcp_listed(self, result: Any, out: Out) -> None:
        listed = self._parse(c.McpListResult, result, c.MCP_LIST, out)
        if listed is None:
            return
        if not listed.servers:
            self._session.line(out, "status", "No MCP servers are loaded.")
            return
        out.inputs.append(LogAppend("text", mcp_table(listed.servers)))

    # --- helpers ---------------------------------------------------------------------------------

    def _pick(
        self,
        title: str,
        options: tuple[PickOption, ...],
        then: Callable[[tuple[str, ...], Out], None],
        out: Out,
    ) -> None:
        self._next += 1
        dialog_id = f"{COMMAND_DIALOG}{self._next}"
        self._dialogs[dialog_id] = _Choice(then)
        out.inputs.append(PickRequest(dialog_id, title, options))

    def _parse(self, cls: type[_T], result: Any, method: str, out: Out) -> _T | None:
        try:
            return cls.from_json(result, f"{method} result")
        except InvalidInput as exc:
            self._session.line(out, "error", f"Unexpected answer to {method}: {excerpt(str(exc), 200)}")
            return None


def _one_line(text: str) -> str:
    """Untrusted text as one printable line (controls and line breaks become spaces)."""
    flat = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    return " ".join(flat.split())


def _session_detail(info: c.SessionInfo) -> str:
    parts = [info.updated_at]
    if info.message_count is not None:
        parts.append(f"{info.message_count} messages")
    parts.append(info.session_id)
    return _one_line(" \u00b7 ".join(part for part in parts if part))


def _model_detail(details: Any) -> str:
    if not isinstance(details, dict):
        return ""
    window = details.get("context_window") or details.get("max_input_tokens")
    parts = [f"{window:,} tokens of context"] if isinstance(window, int) and not isinstance(window, bool) else []
    if isinstance(details.get("release_date"), str):
        parts.append(f"released {details['release_date']}")
    return _one_line(" \u00b7 ".join(parts))


def _skill_detail(skill: c.Skill) -> str:
    return " \u00b7 ".join(part for part in (skill.description, skill.scope) if part)


def _cell(text: str) -> str:
    flat = _one_line(text)
    return flat if len(flat) <= _MAX_CELL else flat[: _MAX_CELL - 1] + "\u2026"


def _width(text: str) -> int:
    width = wcswidth(text)
    return width if width >= 0 else len(text)


def mcp_table(servers: tuple[c.McpServer, ...]) -> str:
    """``mcp.list``'s servers as a compact, aligned table (one row per server, its last error below)."""
    header = ("server", "transport", "state", "tools", "source")
    rows = [
        (
            _cell(s.id),
            _cell(s.transport),
            _cell(s.state if s.enabled else "disabled"),
            "-" if s.tools is None else str(s.tools),
            _cell(s.source or "-"),
        )
        for s in servers
    ]
    widths = [max(_width(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(row: tuple[str, ...]) -> str:
        return "  ".join(cell + " " * (widths[i] - _width(cell)) for i, cell in enumerate(row)).rstrip()

    lines = ["MCP servers", line(header)]
    for server, row in zip(servers, rows, strict=True):
        lines.append(line(row))
        if server.last_error:
            lines.append(f"  last error: {_cell(server.last_error)}")
    return "\n".join(lines)
