"""Markdown construct workloads of ``python -m inline_render bench`` (issue 33): the cost of a delta to one long open
construct after N characters of it, which must not depend on N (compare ``:1000`` and ``:100000``, within 1.2x).

* ``md_table:N``: one assistant answer that is a table (three columns, a long link in every tenth row), streamed a
  row per untimed delta up to N characters, then timed deltas of one row each (one update each); before issue 33 a
  delta parsed and laid out the whole open table again (600 rows took 5 minutes through the demo);
* ``md_open:N``: one open paragraph whose every line holds an unmatched ``*`` (``#NNNN a * b and some words here``):
  such a line kept the paragraph open until a blank line, parsed again per delta;
* ``md_nested:N``: an open paragraph of lines nesting strong emphasis 300 levels deep (``'*' * 600 + 'a' + ...``),
  which raised ``RecursionError`` out of the tick before: the cost of the bounded nesting per delta.

Every delta is a complete line, as a runtime's snapshot per line would send, at 80x24 with ``markdown=True``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..inputs import LogAppend, LogDelta
from .measure import Event
from .workloads import STREAM_ID

__all__ = ["CONSTRUCT_WORKLOADS", "construct_events", "nested_line", "open_line", "table_row"]

_HEAD = "| name | value | note |\n|:-----|------:|:------|\n"


def table_row(index: int) -> str:
    """Row ``index`` of the ``md_table`` answer: short cells, a long link in every tenth row."""
    note = f"[see](https://example.com/{'path/' * 40}{index})" if index % 10 == 0 else f"note {index * 7 % 1000}"
    return f"| row {index:06d} | {index * 37 % 100_000} | {note} |\n"


def open_line(index: int) -> str:
    """Line ``index`` of the ``md_open`` paragraph (an unmatched ``*`` in each)."""
    return f"#{index:06d} a * b and some words here\n"


def nested_line(index: int) -> str:
    """Line ``index`` of the ``md_nested`` paragraph: strong emphasis 300 levels deep around its number."""
    return "*" * 600 + f"{index}" + "*" * 600 + "\n"


def construct_events(head: str, line: Callable[[int], str], size: int, deltas: int) -> Iterator[Event]:
    """``head``, then lines ``line(0)``, ``line(1)``, ... one per delta: untimed up to ``size`` characters, then
    ``deltas`` timed ones."""
    yield "warmup", [LogAppend("assistant", "", STREAM_ID, final=False)]
    if head:
        yield "warmup", [LogDelta(STREAM_ID, head)]
    index = sent = 0
    while sent < size:
        piece = line(index)
        yield "warmup", [LogDelta(STREAM_ID, piece)]
        sent, index = sent + len(piece), index + 1
    for number in range(index, index + deltas):
        yield "measure", [LogDelta(STREAM_ID, line(number))]


CONSTRUCT_WORKLOADS: dict[str, Callable[[int, bool], Iterator[Event]]] = {
    "md_table": lambda size, quick: construct_events(_HEAD, table_row, size, 100 if quick else 1000),
    "md_open": lambda size, quick: construct_events("", open_line, size, 100 if quick else 1000),
    "md_nested": lambda size, quick: construct_events("", nested_line, size, 20 if quick else 200),
}
