"""A runtime that plays back a recorded codelia exchange: the real runtime's bytes, in its order.

``python tests/replay_runtime.py RECORDING`` writes the recording's runtime
messages and, where the recorded UI spoke, reads the UI's next message and
checks it against the recorded one (``initialize`` by method and version,
everything else exactly); a mismatch is reported on stderr (the UI shows it)
and the exit status is 1.  The UI's ``ui.context.update`` notifications and
``run.start``'s ``ui_context``, which the recorded UI did not send, are left out.
"""

from __future__ import annotations

import json
import sys


def main(path: str) -> int:
    with open(path, encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    failures = 0
    for record in records:
        message = record["msg"]
        if record["dir"] == "rt->ui":
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()
            continue
        while True:
            line = sys.stdin.readline()
            if not line:
                print(f"replay_runtime: the UI closed before sending {message}", file=sys.stderr, flush=True)
                return 1
            got = json.loads(line)
            if got.get("method") != "ui.context.update":
                break
        if got.get("method") == "run.start" and isinstance(got.get("params"), dict):
            got["params"].pop("ui_context", None)
        if message.get("method") == "initialize":
            same = (got.get("method"), got["params"].get("protocol_version")) == ("initialize", "0")
        else:
            same = got == message
        if not same:
            failures += 1
            print(f"replay_runtime: expected {json.dumps(message)}, got {json.dumps(got)}", file=sys.stderr, flush=True)
    sys.stdin.read()  # until the UI closes our stdin
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
