"""The runtime protocol: drive an inline UI from any agent runtime that speaks it.

The agent runtime is a child process.  The UI writes JSON-RPC 2.0 messages to
its **stdin** and reads them from its **stdout**, one JSON object per line
(NDJSON, UTF-8, ``\\n`` or ``\\r\\n``).  The runtime's stdout carries the
protocol only; whatever it writes to **stderr** is shown as status lines.

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
        client = RuntimeClient(["python", "-m", "inline_render.fake_runtime"], on_inputs=renderer.feed)
        await client.start()                       # spawn + initialize (None if that failed)

        def press(*keys: str) -> None:             # in an app: every key the terminal reports
            for key in keys:
                for output in renderer.feed([Key(key)]):
                    client.handle_output(output)   # Submit: run.start; answers; Esc: run.cancel

        press(*"Fix the greeting", "enter")
        while not any("Allow edit?" in row for row in renderer.terminal.screen_lines()):
            await asyncio.sleep(0.05)              # it streams, then asks to confirm the edit
        press("y")
        await client.wait_idle()
        await client.close()                       # EOF on stdin, then SIGTERM, then SIGKILL
        print("\\n".join(renderer.terminal.all_lines()))

    asyncio.run(main())

``client.submit(prompt)`` starts a run with text that did not come from the
composer, ``client.cancel()`` cancels the run in progress.  ``ClientConfig``
sets ``request_timeout`` (an unanswered request shows an error line),
``shutdown_timeout``, ``max_line_bytes`` (default 8 MiB) and the ``Session``
settings (announced capabilities, how much of tool calls/results is shown).
Other transports use the sans-I/O core directly: ``Decoder().feed(bytes)``
gives messages, ``Session.receive(item)`` gives a ``Step`` (``inputs`` for the
renderer, ``send`` for the runtime, each written with ``encode``).

Methods
-------

=======================  ==============  ============  ===================================================
method                   direction       kind          params -> result
=======================  ==============  ============  ===================================================
``initialize``           UI -> runtime   request       ``protocol_version`` (1), ``client`` {name, version},
                                                       ``ui_capabilities`` -> ``protocol_version``,
                                                       ``server`` {name, version}, ``server_capabilities``
``run.start``            UI -> runtime   request       ``prompt`` -> ``run_id`` (answered before any event)
``run.cancel``           UI -> runtime   request       ``run_id``, ``reason``? -> ``{}``
``run.status``           runtime -> UI   notification  ``run_id``, ``status``, ``message``?
``run.context``          runtime -> UI   notification  ``run_id``, ``context_left_percent``
``agent.event``          runtime -> UI   notification  ``run_id``, ``seq``, ``event``, ``meta``?
``ui.confirm.request``   runtime -> UI   request       ``title``, ``message``, ``confirm_label``,
                                                       ``cancel_label``, ``danger_level`` (normal/danger),
                                                       ``allow_remember``, ``allow_reason``, ``run_id``?
                                                       -> ``{"ok": bool, "remember"?: true, "reason"?: str}``
``ui.prompt.request``    runtime -> UI   request       ``title``, ``message``, ``default``, ``placeholder``,
                                                       ``secret``, ``multiline``, ``run_id``?
                                                       -> ``{"value": str | null}``
``ui.pick.request``      runtime -> UI   request       ``title``, ``options`` (strings or {id, label,
                                                       description?}), ``message``, ``multi``, ``run_id``?
                                                       -> ``{"ids": [...]}``
``ui.notify``            runtime -> UI   notification  ``message``, ``notify_type`` (info/warn/error/success)
``ui.working``           runtime -> UI   notification  ``message`` (spinner text; empty stops it)
``ui.set_editor_text``   runtime -> UI   notification  ``text`` (replaces the composer's text)
=======================  ==============  ============  ===================================================

Capabilities are booleans, missing means false: ``supports_permission_preflight_events``,
``supports_confirm``, ``supports_prompt``, ``supports_pick``, ``supports_run_cancel``.
Unknown members anywhere are kept (``extra``), never an error.

* **Runs.**  ``run.status`` is ``running``, ``awaiting_ui``, then one terminal
  ``completed``, ``error`` or ``cancelled``.  A terminal status stops the
  spinner, finishes the streaming entry, closes the run's open dialogs (they
  are answered as dismissed: ``ok: false`` / ``value: null`` / ``ids: []``) and
  every later event of that run is ignored.  One run at a time: a prompt
  submitted during a run is refused with a status line.  Esc during a run
  sends ``run.cancel`` once; the runtime confirms with ``run.status cancelled``.
* **Events.**  ``seq`` numbers a run's events 1, 2, 3...: a repeated or older
  ``seq`` is dropped, a gap is reported once per run.  ``text`` streams into
  the run's assistant entry; ``final`` finishes it (its ``content`` is the
  entry if no text came, and replaces the unfinished part if it differs);
  ``reasoning``, ``tool_call`` (name and compact args), ``tool_result``
  (truncated by lines and characters), ``error``, ``permission.preview``
  (``tool``, ``diff``?, ``summary``?, ``truncated``?) and ``permission.ready``
  (``tool``) each add their own entry.  Any entry other than streamed text
  finishes the streaming one, so text after a tool call starts a new entry.
* **Permission preflight.**  When both sides announce
  ``supports_permission_preflight_events`` the runtime sends the structured
  events above.  Otherwise it prints legacy text lines on stdout::

      Planned edit diff preview:
      --- a/hello.py
      ...unified diff lines...
      Permission preflight ready (edit)

  which are recognized and turned into exactly the same inputs (any other
  plain text line on stdout becomes a status line).
* **Bad input** never stops the UI: invalid JSON gets ``-32700``, a
  non-object or broken envelope ``-32600``, an unknown request method
  ``-32601``, invalid params of a request ``-32602`` (with the request's id
  when readable, else ``null``); anything no answer is owed for (a broken
  notification, a response to an unknown id, an event of an unknown run) is
  one status line.  A line over ``max_line_bytes`` is discarded as it streams
  by and reported once.  Later messages are processed as usual.
* **End.**  Closing the runtime's stdin asks it to exit.  If it exits or
  crashes during a run, the run ends with an error line naming the exit code.

Sample exchange
---------------

``>`` is written by the UI, ``<`` by the runtime (text events shortened)::

    > {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol_version":1,
       "client":{"name":"inline_render","version":"0.1.0"},"ui_capabilities":{
       "supports_permission_preflight_events":true,"supports_confirm":true,"supports_run_cancel":true}}}
    < {"jsonrpc":"2.0","id":1,"result":{"protocol_version":1,"server":{"name":"fake_runtime","version":"1"},
       "server_capabilities":{"supports_run_cancel":true,"supports_permission_preflight_events":true}}}
    > {"jsonrpc":"2.0","id":2,"method":"run.start","params":{"prompt":"Fix the greeting"}}
    < {"jsonrpc":"2.0","id":2,"result":{"run_id":"run-1"}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"run-1","status":"running"}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"run-1","seq":1,
       "event":{"type":"text","content":"I'll update the greeting"}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"run-1","seq":2,
       "event":{"type":"tool_call","tool":"edit","tool_call_id":"call-2","args":{"path":"hello.py"}}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"run-1","seq":3,
       "event":{"type":"permission.preview","tool":"edit","tool_call_id":"call-2",
       "diff":"--- a/hello.py\\n+++ b/hello.py\\n@@ -1,2 +1,2 @@\\n def greet(name):\\n-    ...\\n+    ..."}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"run-1","seq":4,
       "event":{"type":"permission.ready","tool":"edit","tool_call_id":"call-2"}}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"run-1","status":"awaiting_ui"}}
    < {"jsonrpc":"2.0","id":"ui-1","method":"ui.confirm.request","params":{"title":"Allow edit?",
       "message":"Apply the change to hello.py","confirm_label":"Allow","cancel_label":"Deny",
       "allow_remember":true,"allow_reason":true,"run_id":"run-1"}}
    > {"jsonrpc":"2.0","id":"ui-1","result":{"ok":true}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"run-1","status":"running"}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"run-1","seq":5,
       "event":{"type":"tool_result","tool":"edit","tool_call_id":"call-2","result":"Applied 1 hunk to hello.py"}}}
    < {"jsonrpc":"2.0","method":"agent.event","params":{"run_id":"run-1","seq":6,
       "event":{"type":"final","content":"Done: `hello.py` now says Hello."}}}
    < {"jsonrpc":"2.0","method":"run.status","params":{"run_id":"run-1","status":"completed"}}

``python -m inline_render.fake_runtime`` (``--help`` for its options) is a
complete, small runtime written against this protocol with nothing but the
standard library: a reference for runtime authors.
"""

from __future__ import annotations

from .client import ClientConfig, InputSink, RuntimeClient
from .codec import DEFAULT_MAX_LINE_BYTES, Decoder, LineSplitter, decode_line, encode
from .mapping import Session, SessionConfig, Step
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
from .methods import PROTOCOL_VERSION, Capabilities, InitializeResult, PeerInfo
from .transcript import Limits

__all__ = [
    "DEFAULT_MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "Capabilities",
    "ClientConfig",
    "Decoded",
    "Decoder",
    "ErrorInfo",
    "ErrorResponse",
    "InitializeResult",
    "InputSink",
    "Limits",
    "LineSplitter",
    "Malformed",
    "Message",
    "Notification",
    "PeerInfo",
    "Request",
    "RequestId",
    "Response",
    "RuntimeClient",
    "Session",
    "SessionConfig",
    "Step",
    "TextLine",
    "decode_line",
    "encode",
    "message_from_json",
    "message_to_json",
]
