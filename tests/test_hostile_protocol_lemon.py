"""Issue 33, case 8: Lemon's ``ui_status`` / ``ui_widget`` with ever new keys stay bounded.

Every key was kept and every update rebuilt the status line from all of them: 20,000 distinct keys took
29 s through the demo (17.7 s in the session alone here), 40,000 took 180 s.  Now at most ``MAX_FIELDS``
keys of each are kept, the oldest dropped.
"""

from __future__ import annotations

import json
import time

from inline_render.core.tick import Renderer
from inline_render.inputs import Status
from inline_render.protocol.lemon import codec as w
from inline_render.protocol.lemon.session import MAX_FIELDS, LemonSession


def _signal(kind: str, **params: str) -> w.LemonDecoded:
    return w.decode_lemon_line(json.dumps({"type": kind, "params": params}).encode())


def _ready() -> LemonSession:
    session = LemonSession()
    session.receive(w.decode_lemon_line(json.dumps({"type": "ready", "cwd": "/w", "model": "m1"}).encode()))
    return session


def test_distinct_status_keys_keep_the_newest_fields_and_the_model() -> None:
    """1,000 keys: the status line shows the model and the newest MAX_FIELDS fields, the oldest are gone."""
    session = _ready()
    shown = ""
    for n in range(1000):
        for item in session.receive(_signal("ui_status", key=f"k{n}", text=f"v{n}")).inputs:
            if isinstance(item, Status):
                shown = item.text
    fields = shown.split(" \u00b7 ")
    assert fields[0] == "m1" and len(fields) == 1 + MAX_FIELDS, fields
    assert fields[1:] == [f"v{n}" for n in range(1000 - MAX_FIELDS, 1000)]


def test_distinct_widget_keys_leave_at_most_the_newest_widgets_on_screen() -> None:
    """1,000 widgets by distinct keys through the core: MAX_FIELDS stay, the newest, in order."""
    session = _ready()
    renderer = Renderer.in_memory(80, 24)
    for n in range(1000):
        renderer.feed(list(session.receive(_signal("ui_widget", key=f"w{n}", content=f"widget {n}")).inputs))
    keys = [key for key, _, _ in renderer.state.widgets]
    assert keys == [f"w{n}" for n in range(1000 - MAX_FIELDS, 1000)], keys[:5]


def test_twenty_thousand_distinct_status_keys_take_seconds_not_minutes() -> None:
    """A bounded-time guard: 20,000 distinct keys in the session well within 5 s (17.7 s before the cap)."""
    session = _ready()
    lines = [_signal("ui_status", key=f"k{n}", text=f"value {n}") for n in range(20_000)]
    started = time.perf_counter()
    for item in lines:
        session.receive(item)
    assert time.perf_counter() - started < 5.0
