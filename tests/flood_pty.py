"""Drive the demo on a pty while the fake runtime floods it: key latency, throughput, peak RSS.

``python tests/flood_pty.py [BYTES]`` prints the figures (README, Performance); the test in
``test_stream_flood.py`` runs a shortened flood and asserts them with margins.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass, field

__all__ = ["FloodRun", "run_flood"]

KEY = "Ж"  # typed into the composer: never in the flood's text, so its first echo is the key's
DONE = b"flood done"


@dataclass
class FloodRun:
    """What a flood through the demo measured."""

    size: int
    seconds: float = 0.0  # from the first flood text on the terminal to ``flood done``
    latencies: list[float] = field(default_factory=list)  # seconds from typing a key to its echo
    peak_rss_mb: float = 0.0  # the UI process (VmHWM), the runtime not included
    output_bytes: int = 0
    finished: bool = False

    @property
    def mb_per_s(self) -> float:
        return self.size / 1e6 / self.seconds if self.seconds else 0.0


def _peak_rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_flood(size: int, keys: int = 20, timeout: float = 120.0) -> FloodRun:
    """Run the demo on an 80x24 pty with ``flood`` as its prompt; type ``keys`` keys spread over the flood."""
    runtime = f"{sys.executable} -m inline_render.demo.fake_runtime --delay 0 --speed 0 --flood-bytes {size}"
    profile = ["-m", "cProfile", "-o", os.environ["FLOOD_PROFILE"]] if os.environ.get("FLOOD_PROFILE") else []
    command = [sys.executable, *profile, "-m", "inline_render", "demo", "--runtime", runtime, "--prompt", "flood"]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    proc = subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
    os.close(slave)
    run = FloodRun(size)
    started = time.monotonic()
    first_text: float | None = None
    typed_at: float | None = None
    key_bytes = KEY.encode()
    tail = b""
    interval = 0.0
    try:
        while time.monotonic() - started < timeout:
            ready, _, _ = select.select([master], [], [], 0.005)
            now = time.monotonic()
            if ready:
                try:
                    data = os.read(master, 1 << 16)
                except OSError:
                    break
                if not data:
                    break
                run.output_bytes += len(data)
                window = tail + data
                if b"\x1b[6n" in window:  # answer cursor reports as a terminal would (row 1, column 1)
                    os.write(master, b"\x1b[1;1R")
                if first_text is None and b"flood " in window:
                    first_text = now
                    interval = max(0.05, size / 10e6 / max(1, keys))  # spread the keys over a 10 MB/s flood
                if typed_at is not None and key_bytes in window:
                    run.latencies.append(now - typed_at)
                    typed_at = None
                    os.write(master, b"\x7f")  # backspace: the composer stays short
                if DONE in window:
                    run.seconds = now - (first_text or now)
                    run.finished = True
                    run.peak_rss_mb = _peak_rss_mb(proc.pid)
                    break
                tail = window[-16:]
            due = first_text is not None and now - first_text >= interval * (len(run.latencies) + 1)
            if due and typed_at is None and len(run.latencies) < keys:
                typed_at = time.monotonic()
                os.write(master, key_bytes)
        if not run.finished:
            run.peak_rss_mb = _peak_rss_mb(proc.pid)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        os.close(master)
    return run


if __name__ == "__main__":
    result = run_flood(int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000)
    lat = sorted(result.latencies)
    print(
        f"finished={result.finished} {result.size / 1e6:g} MB in {result.seconds:.2f} s = {result.mb_per_s:.2f} MB/s;"
        f" keys {len(lat)}, latency max {max(lat, default=0) * 1000:.1f} ms,"
        f" median {lat[len(lat) // 2] * 1000 if lat else 0:.1f} ms; peak RSS {result.peak_rss_mb:.1f} MB;"
        f" {result.output_bytes / 1e6:.1f} MB written to the terminal"
    )
