"""``python -m inline_render bench``: fixed, seeded workloads through the real four stages (``workloads``),
the streaming ones (``stream``), and the same rows through other renderers (``peers``, ``--peers``)."""

from __future__ import annotations

from .._compat import moved_names

# ``inline_render.bench`` was the workloads module before it became this package.
__getattr__ = moved_names(
    __name__,
    "inline_render.bench",
    {
        "CountingSink": "inline_render.bench.measure",
        "Event": "inline_render.bench.measure",
        "Measured": "inline_render.bench.measure",
        "Series": "inline_render.bench.measure",
        "WORKLOADS": "inline_render.bench.cli",
        "assistant_deltas": "inline_render.bench.workloads",
        "idle_events": "inline_render.bench.workloads",
        "keystrokes": "inline_render.bench.workloads",
        "log_lines": "inline_render.bench.workloads",
        "main": "inline_render.bench.cli",
        "make_renderer": "inline_render.bench.measure",
        "markdown_text": "inline_render.bench.workloads",
        "prefill_batches": "inline_render.bench.workloads",
        "row_line": "inline_render.bench.measure",
        "run_events": "inline_render.bench.measure",
        "run_workload": "inline_render.bench.cli",
        "status_events": "inline_render.bench.workloads",
        "status_text": "inline_render.bench.workloads",
        "w1_events": "inline_render.bench.workloads",
        "w1s_events": "inline_render.bench.workloads",
        "w2_events": "inline_render.bench.workloads",
        "w3_events": "inline_render.bench.workloads",
        "w4_events": "inline_render.bench.workloads",
        "w5_events": "inline_render.bench.workloads",
        "workload_names": "inline_render.bench.cli",
    },
)
