"""A runtime that never reads its stdin: the UI's buffer to it stays bounded, the runtime is reported once."""

from __future__ import annotations

import asyncio
import sys

from inline_render.inputs import Input, LogAppend
from inline_render.protocol.client import ClientConfig, RuntimeClient
from inline_render.protocol.stdin_writer import HARD_LIMIT, HIGH_WATER

# Answers initialize (so the session is up), then sends requests the UI must answer with an error,
# 100,000 of them (about 10 MB of answers), and never reads another byte of its stdin.
DEAF_RUNTIME = r"""
import json, sys, time
request = json.loads(sys.stdin.readline())
out = sys.stdout
hello = {"protocol_version": "0", "server": {"name": "deaf"}}
out.write(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": hello}) + "\n")
for i in range(100000):
    out.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": "no.such.method", "params": {"pad": "x" * 20}}) + "\n")
out.flush()
time.sleep(60)
"""


def buffered(client: RuntimeClient) -> int:
    """Bytes waiting in the client's buffer for the runtime's stdin (the pipe's own 64 KiB not counted)."""
    proc = client._proc
    assert proc is not None and proc.stdin is not None
    return proc.stdin.transport.get_write_buffer_size()


def test_a_runtime_that_never_reads_keeps_the_buffer_bounded_and_is_reported_once() -> None:
    """100,000 requests to answer, none read: the buffer stays under the limit, one status line says so."""
    lines: list[str] = []

    def sink(inputs: list[Input]) -> None:
        lines.extend(i.text for i in inputs if isinstance(i, LogAppend))

    async def scenario() -> int:
        config = ClientConfig(shutdown_timeout=0.5, request_timeout=30)
        client = RuntimeClient([sys.executable, "-c", DEAF_RUNTIME], on_inputs=sink, config=config)
        await client.start()
        peak = 0
        for _ in range(30):  # 3 s: long enough to answer all 100,000 requests if nothing held it back
            await asyncio.sleep(0.1)
            peak = max(peak, buffered(client))
        for _ in range(200):
            client.submit("more")  # a user's actions still write: dropped at the hard limit, never buffered
        peak = max(peak, buffered(client))
        await client.close()
        return peak

    peak = asyncio.run(scenario())
    assert peak <= HARD_LIMIT, peak
    assert peak >= HIGH_WATER // 2  # it really did fill up: the bound is what held it
    stuck = [line for line in lines if "not reading its input" in line]
    assert len(stuck) == 1, lines[-5:]
