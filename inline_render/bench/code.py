"""Code-block workloads of ``python -m inline_render bench`` (issue 33, cases 9 and 10): cost per delta after N.

* ``c1:N``: a Markdown answer that is one open ```` ```python ```` fence, streamed up to N characters of code
  (untimed, 2 KB deltas), then timed deltas of one code line each: a delta must cost the same after 1 KB as
  after 100 KB (before the fold of ``text.lexing`` every line re-lexed the block from its first line);
* ``c2:N``: a ```` ```make ```` fence whose first line is N characters long (complete), then timed deltas of
  one short line each: the long line is plain and lexed never (it was lexed again per delta, quadratically).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from ..inputs import LogAppend, LogDelta
from .measure import Event
from .workloads import SEED, STREAM_ID, _words_to

__all__ = ["CODE_WORKLOADS", "code_events", "long_line_events", "python_code"]

_WARM = 2048  # characters a warm-up delta: a few dozen lines, as a fast runtime sends them


def python_code(rng: random.Random, size: int) -> str:
    """About ``size`` characters of seeded Python: functions, strings, comments, a docstring now and then."""
    parts: list[str] = []
    total = 0
    index = 0
    while total < size:
        index += 1
        name = _words_to(rng, 12).replace(" ", "_")
        body = [f"def {name}_{index}(value: int, text: str = {_words_to(rng, 20)!r}) -> int:"]
        if rng.random() < 0.3:
            body.append(f'    """{_words_to(rng, 50)}."""')
        for _ in range(rng.randint(2, 8)):
            body.append(f"    value += {rng.randint(0, 999)} * len(text)  # {_words_to(rng, 30)}")
        body.append("    return value\n")
        block = "\n".join(body) + "\n"
        parts.append(block)
        total += len(block)
    return "".join(parts)[:size]


def code_events(size: int, deltas: int = 200) -> Iterator[Event]:
    """``c1``: an open fence streamed to ``size`` characters, then ``deltas`` timed one-line deltas."""
    rng = random.Random(SEED + 33)
    code = python_code(rng, size)
    code = code[: code.rfind("\n") + 1]
    more = python_code(rng, deltas * 120).split("\n")
    yield "warmup", [LogAppend("assistant", "Here it is:\n\n```python\n", STREAM_ID, final=False)]
    for position in range(0, len(code), _WARM):
        yield "warmup", [LogDelta(STREAM_ID, code[position : position + _WARM])]
    for index in range(deltas):
        yield "measure", [LogDelta(STREAM_ID, more[index % len(more)] + "\n")]


def long_line_events(size: int, deltas: int = 200) -> Iterator[Event]:
    """``c2``: a make fence whose first line has ``size`` characters, then ``deltas`` timed short lines."""
    line = "VALUES = " + " ".join(f"$(x{index})" for index in range(size // 6 + 1))
    line = line[:size]
    yield "warmup", [LogAppend("assistant", "```make\n", STREAM_ID, final=False)]
    for position in range(0, len(line), 65536):
        yield "warmup", [LogDelta(STREAM_ID, line[position : position + 65536])]
    yield "warmup", [LogDelta(STREAM_ID, "\n")]
    for index in range(deltas):
        yield "measure", [LogDelta(STREAM_ID, f"target{index}: dep{index}  # step {index}\n")]


CODE_WORKLOADS = {
    "c1": lambda size, quick: code_events(size, 50 if quick else 200),
    "c2": lambda size, quick: long_line_events(size, 50 if quick else 200),
}
