"""The runtime protocol: drive an inline UI from an agent runtime speaking codelia's UI protocol (seed 004).

The agent runtime is a child process.  The UI writes JSON-RPC 2.0 messages to
its **stdin** and reads them from its **stdout**, one JSON object per line
(NDJSON, UTF-8, ``\\n`` or ``\\r\\n``).  The runtime's stdout carries the
protocol only; whatever it writes to **stderr** is shown as status lines.
The wire shapes are seed 004's, verbatim; what this UI adds is marked
*addition* and is optional on the wire.

Pointing the library at a runtime
---------------------------------

``RuntimeClient`` spawns the command, performs ``initialize``, and hands every
batch of core inputs to a callback; what the callback returns (the core's
outputs: dialog answers, a submitted prompt, Esc) goes back to the runtime::

    import asyncio
    from inline_render import Key, Renderer
    from inline_render.protocol import RuntimeClient

    async def main() -> None:
        renderer = Renderer.in_memory(80, 24)      # or a Renderer on the real terminal
        client = RuntimeClient(["python", "-m", "inline_render.demo.fake_runtime"], on_inputs=renderer.feed)
        await client.start()                       # spawn + initialize (None if that failed)

        def press(*keys: str) -> None:             # in an app: every key the terminal reports
            for key in keys:
                for output in renderer.feed([Key(key)]):
                    client.handle_output(output)   # Submit: run.start; answers; Esc: run.cancel

        press(*"Fix the greeting", "enter")
        while not any("Run tool?" in row for row in renderer.terminal.screen_lines()):
            await asyncio.sleep(0.05)              # it answers, then asks to confirm the edit
        press("y")
        await client.wait_idle()
        await client.close()                       # EOF on stdin, then SIGTERM, then SIGKILL
        print("\\n".join(renderer.terminal.all_lines()))

    asyncio.run(main())

``client.submit(prompt)`` starts a run with text that did not come from the
composer, ``client.cancel()`` cancels the run in progress,
``client.run_command(text)`` runs ``/resume``, ``/model``, ``/skills`` or
``/mcp`` (False for any other text), ``client.set_cwd(path)`` reports a new
working directory (debounced).  ``ClientConfig`` sets ``request_timeout``,
``shutdown_timeout``, ``max_line_bytes`` (default 8 MiB) and the ``Session``
settings (announced capabilities, ``run.cancel``'s reason, how much of tool
calls/results is shown, ``show_diagnostics``).  Other transports use the
sans-I/O core directly: ``Decoder().feed(bytes)`` gives messages,
``Session.receive(item)`` gives a ``Step`` (``inputs`` for the renderer,
``send`` for the runtime, each written with ``encode``).

Methods (seed 004)
------------------

Request ids are strings both ways (``"1"``, ``"2"``... from the UI; codelia
sends ``"ui_1"``...); numbers from a lenient runtime are accepted and echoed.

=======================  ==============  ============  ===================================================
method                   direction       kind          params -> result
=======================  ==============  ============  ===================================================
``initialize``           UI -> runtime   request       ``protocol_version`` "0", ``client`` {name, version},
                                                       ``ui_capabilities`` -> ``protocol_version``,
                                                       ``server`` {name, version}, ``server_capabilities``
``run.start``            UI -> runtime   request       ``input`` {type: "text", text}, ``session_id``?,
                                                       ``ui_context``?, ``meta``? -> ``run_id``
``run.cancel``           UI -> runtime   request       ``run_id``, ``reason``? -> ``{ok, status?}``
``run.status``           runtime -> UI   notification  ``run_id``, ``status``, ``message``?
``run.context``          runtime -> UI   notification  ``run_id``, ``context_left_percent``
``agent.event``          runtime -> UI   notification  ``run_id``, ``seq``, ``event``, ``meta``?
``session.list``         UI -> runtime   request       ``limit``? -> ``sessions`` [{session_id, updated_at,
                                                       run_id?, message_count?, last_user_message?}]
``session.history``      UI -> runtime   request       ``session_id``, ``max_runs``?, ``max_events``? ->
                                                       (the events replayed first) ``runs``,
                                                       ``events_sent``, ``truncated``?
``model.list``           UI -> runtime   request       ``provider``?, ``include_details``? ->
                                                       ``provider``, ``models``, ``current``?, ``details``?
``model.set``            UI -> runtime   request       ``name``, ``provider``? -> ``provider``, ``name``
``mcp.list``             UI -> runtime   request       ``scope``? -> ``servers`` [{id, transport, source?,
                                                       enabled, state, tools?, last_error?, ...}]
``skills.list``          UI -> runtime   request       ``cwd``?, ``force_reload``? -> ``skills``,
                                                       ``errors``, ``truncated``
``ui.context.update``    UI -> runtime   notification  ``cwd``?, ``workspace_root``?, ``active_file``?, ...
``ui.confirm.request``   runtime -> UI   request       ``title``, ``message``, ``confirm_label`` (OK),
                                                       ``cancel_label`` (Cancel), ``danger_level``,
                                                       ``allow_remember``, ``allow_reason``, ``run_id``?
                                                       -> ``{ok, remember, reason}``
``ui.prompt.request``    runtime -> UI   request       ``title``, ``message``, ``default_value``?,
                                                       ``multiline``?, ``secret``?, ``run_id``?
                                                       -> ``{value: str | null}``
``ui.pick.request``      runtime -> UI   request       ``title``, ``items`` [{id, label, detail?}],
                                                       ``multi``?, ``run_id``? -> ``{ids: [...]}``
``run.diagnostics``      runtime -> UI   notification  codelia's, when diagnostics are on: ignored
``ui.notify``            runtime -> UI   notification  *addition*: ``message``, ``notify_type``
``ui.working``           runtime -> UI   notification  *addition*: ``message`` (spinner; empty stops it)
``ui.set_editor_text``   runtime -> UI   notification  *addition*: ``text`` (replaces the composer's)
=======================  ==============  ============  ===================================================

Error codes (seed 004): ``-32001`` runtime busy (a refused ``run.start``
puts the prompt back in the composer), ``-32002`` run not found (a
``run.cancel`` of a run that is over ends it: no lasting "Cancelling"),
``-32003`` user cancelled (a quiet status line).

Capabilities are booleans, missing means false.  The UI announces
``supports_confirm``, ``supports_prompt``, ``supports_pick``,
``supports_permission_preflight_events`` (seed 002), ``supports_markdown``
(true: assistant text renders Markdown; ``mapping.MARKDOWN_RENDERS`` is the one
flag) and ``supports_images`` (false).  From the runtime it uses
``supports_run_cancel`` (else Esc says the run cannot be cancelled),
``supports_mcp_list`` / ``supports_skills_list`` (else ``/mcp`` says "MCP status
unavailable", ``/skills`` "Skills list unavailable") and
``supports_permission_preflight_events``; ``supports_ui_requests`` and every
other flag are kept (``extra``).  Another ``protocol_version`` is accepted
quietly (a debug record).  Unknown members anywhere are kept, never an error.

* **Runs.**  ``run.status`` is ``running``, ``awaiting_ui``, then one terminal
  ``completed``, ``error`` or ``cancelled``.  A terminal status stops the
  spinner, finishes the streaming entry, closes the run's open dialogs (they
  are answered as dismissed: ``{ok: false, remember: false, reason: null}`` /
  ``{value: null}`` / ``{ids: []}``) and every later event of that run is
  ignored; a ``final`` is not waited for.  One run at a time.  Esc during a
  run sends ``run.cancel`` once (with ``reason``) and dismisses the run's open
  dialog: codelia ends a run only once its pending confirm is answered.
* **Events** (``seq`` from 0 in every run; a repeat is dropped, a gap is
  reported once).  ``text`` is a whole part of the answer: consecutive parts
  are paragraphs of one assistant entry; ``final`` completes it (its
  ``content`` is the entry when no text came; never printed twice);
  ``reasoning`` is a dim entry, ``tool_call`` the tool and compact args,
  ``tool_result`` the result truncated (a JSON string result shows its
  ``summary``); ``error`` an error entry; ``permission.preview`` a header, the
  diff or the ``summary``; ``permission.ready`` one line per ``tool_call_id``.
  ``step_start`` / ``step_complete`` change the spinner only; ``llm.retry``
  and ``compaction_*`` the spinner and at most one dim line;
  ``hidden_user_message`` is never shown (in a ``session.history`` replay it is
  the run's prompt, shown as the user's line).  Unknown types are quiet (a
  ``logging`` debug record).
* **Slash commands** (``Session.command``): ``/resume`` (``session.list`` -> a
  pick -> ``session.history``; the replayed runs render once, later runs carry
  ``session_id``), ``/model`` (``model.list`` -> pick -> ``model.set``;
  ``/model NAME`` directly), ``/skills`` (``skills.list`` -> a searchable pick,
  the choice goes into the composer as ``$name``), ``/mcp`` (``mcp.list`` ->
  a table of servers and states).  ``ui.context.update`` (cwd, workspace root)
  goes out after ``initialize`` and when the working directory changes;
  ``run.start`` carries it as ``ui_context``.
* **Permission preflight** (seed 002).  When both sides announce
  ``supports_permission_preflight_events`` the runtime sends the structured
  events.  Otherwise it prints legacy text lines on stdout::

      Planned edit diff preview:
      --- a/hello.py
      ...unified diff lines...
      Permission preflight ready (edit)

  which are recognized and turned into exactly the same inputs (any other
  plain text line on stdout becomes a status line).
* **Bad input** never stops the UI: invalid JSON gets ``-32700``, a
  non-object or broken envelope ``-32600``, an unknown request method
  ``-32601``, invalid params of a request ``-32602``; anything no answer is
  owed for (a broken notification, a response to an unknown id, an event of
  an unknown run) is one status line.  A line over ``max_line_bytes`` is
  discarded as it streams by and reported once.
* **End.**  Closing the runtime's stdin asks it to exit.  If it exits or
  crashes during a run, the run ends with an error line naming the exit code.

Sample exchange
---------------

The real codelia runtime as recorded (``>`` UI, ``<`` runtime; shortened, with this
UI's ``ui.context.update`` and ``ui_context``, which the recorded UI did not send)::

    > {"jsonrpc":"2.0","id":"1","method":"initialize","params":{"protocol_version":"0",
       "client":{"name":"inline_render","version":"0.1.0"},"ui_capabilities":{"supports_confirm":true,
       "supports_prompt":true,"supports_pick":true,"supports_permission_preflight_events":true}}}
    < {"jsonrpc":"2.0","id":"1","result":{"protocol_version":"0","server":{"name":"codelia-runtime",
       "version":"0.1.0"},"server_capabilities":{"supports_run_cancel":true,"supports_ui_requests":true,
       "supports_mcp_list":true,"supports_skills_list":true,"supports_permission_preflight_events":true}}}
    > {"jsonrpc":"2.0","method":"ui.context.update","params":{"cwd":"/w","workspace_root":"/w"}}
    > {"jsonrpc":"2.0","id":"2","method":"run.start","params":{"input":{"type":"text",
       "text":"Mark notes.txt as reviewed."},"ui_context":{"cwd":"/w","workspace_root":"/w"}}}
    < {"jsonrpc":"2.0","id":"2","result":{"run_id":"8c37c477","session_log_path":"~/.codelia/..."}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"8c37c477","status":"running"}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":0,
       "event":{"type":"reasoning","content":"Edit notes.txt (needs permission).","timestamp":1795406013313}}}
    < {"jsonrpc":"2.0","method":"run.context","params":{"run_id":"8c37c477","context_left_percent":100}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":1,
       "event":{"type":"text","content":"Now I will change notes.txt.","timestamp":1795406013314}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":2,
       "event":{"type":"step_start","step_id":"call_1","title":"edit","step_number":1}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":3,"event":{"type":"tool_call",
       "tool":"edit","args":{"file_path":"notes.txt","old_string":"draft","new_string":"reviewed"},"tool_call_id":"call_1"}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":4,"event":{
       "type":"permission.preview","tool":"edit","tool_call_id":"call_1","file_path":"notes.txt",
       "language":"txt","diff":"--- notes.txt\\n+++ notes.txt\\n@@ -1 +1 @@\\n-status: draft\\n+status: reviewed"}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":5,
       "event":{"type":"permission.ready","tool":"edit","tool_call_id":"call_1"}}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"8c37c477","status":"awaiting_ui",
       "message":"waiting for confirmation"}}
    < {"jsonrpc":"2.0","id":"ui_1","method":"ui.confirm.request","params":{"run_id":"8c37c477",
       "title":"Run tool?","message":"edit notes.txt (match=auto)","confirm_label":"Allow",
       "cancel_label":"Deny","allow_remember":true,"allow_reason":true}}
    > {"jsonrpc":"2.0","id":"ui_1","result":{"ok":true,"remember":false,"reason":null}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"8c37c477","status":"running"}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":6,"event":{
       "type":"tool_result","tool":"edit","tool_call_id":"call_1",
       "result":"{\\"summary\\":\\"Replaced 1 occurrence(s) in notes.txt\\",...}"}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":7,
       "event":{"type":"step_complete","step_id":"call_1","status":"completed","duration_ms":16}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"8c37c477","seq":8,
       "event":{"type":"final","content":"Done: notes.txt now says `status: reviewed`."}}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"8c37c477","status":"completed"}}

``python -m inline_render.demo.fake_runtime`` (``--help`` for its options) is a
strict seed-004 runtime with codelia's event order, written with nothing but
the standard library: a reference for runtime authors.

Lemon's JSON lines (seed 001) are a second dialect: ``ClientConfig(protocol="lemon")``,
or ``"auto"`` (the default), which switches when the runtime's first line is Lemon's
``{"type": "ready", ...}``.  ``lemon`` decodes its lines, ``LemonSession`` (same calls as
``Session``) renders its events through the same normalized events and ``Transcript``;
``python -m inline_render.demo.fake_lemon`` speaks seed 001 verbatim.  The README's Lemon
section lists what each message shows and what the UI answers.
"""

from __future__ import annotations

from .client import PROTOCOLS, ClientConfig, InputSink, Protocol, RuntimeClient
from .codec import DEFAULT_MAX_LINE_BYTES, Decoder, LineSplitter, decode_line, encode
from .codelia.methods import PROTOCOL_VERSION, Capabilities, InitializeResult, PeerInfo
from .codelia.session import Session, SessionConfig, Step
from .lemon.codec import LemonDecoded, LemonReady, decode_lemon_line, is_lemon_ready
from .lemon.session import LemonConfig, LemonSession, LemonStep
from .messages import (
    Decoded,
    ErrorInfo,
    ErrorResponse,
    Malformed,
    Message,
    Notification,
    Request,
    RequestId,
    Response,
    TextLine,
    message_from_json,
    message_to_json,
)
from .transcript import Limits

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "PROTOCOLS",
    "PROTOCOL_VERSION",
    "Capabilities",
    "ClientConfig",
    "Decoded",
    "Decoder",
    "ErrorInfo",
    "ErrorResponse",
    "InitializeResult",
    "InputSink",
    "LemonConfig",
    "LemonDecoded",
    "LemonReady",
    "LemonSession",
    "LemonStep",
    "Limits",
    "LineSplitter",
    "Malformed",
    "Message",
    "Notification",
    "PeerInfo",
    "Protocol",
    "Request",
    "RequestId",
    "Response",
    "RuntimeClient",
    "Session",
    "SessionConfig",
    "Step",
    "TextLine",
    "decode_lemon_line",
    "decode_line",
    "encode",
    "is_lemon_ready",
    "message_from_json",
    "message_to_json",
]
