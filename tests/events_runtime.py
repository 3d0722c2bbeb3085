"""A codelia runtime that answers each ``run.start`` with the agent events of a file, raw, then completes the run.

``python tests/events_runtime.py EVENTS`` reads EVENTS: one agent event per line, as JSON *text* (written
into the ``agent.event`` line verbatim, so a test can send what ``json.dumps`` would never write: ``1e999``,
nesting a thousand deep).  ``initialize`` is answered, every run gets the same events and then
``run.status completed``; the runtime exits when its stdin closes.  Not a test module.
"""

from __future__ import annotations

import json
import sys


def _send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(path: str) -> int:
    with open(path, encoding="utf-8") as events:
        lines = [line.rstrip("\n") for line in events if line.strip()]
    runs = 0
    for raw in sys.stdin:
        message = json.loads(raw)
        method, rid = message.get("method"), message.get("id")
        if method == "initialize":
            result = {"protocol_version": "0", "server": {"name": "events", "version": "1"}}
            _send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}))
        elif method == "run.start":
            runs += 1
            run_id = f"run-{runs}"
            _send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"run_id": run_id}}))
            _send(
                json.dumps(
                    {"jsonrpc": "2.0", "method": "run.status", "params": {"run_id": run_id, "status": "running"}}
                )
            )
            for seq, event in enumerate(lines):
                head = json.dumps({"jsonrpc": "2.0", "method": "agent.event"})[:-1]
                _send(f'{head}, "params": {{"run_id": "{run_id}", "seq": {seq}, "event": {event}}}}}')
            done = {"run_id": run_id, "status": "completed"}
            _send(json.dumps({"jsonrpc": "2.0", "method": "run.status", "params": done}))
        elif rid is not None:
            _send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {}}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
