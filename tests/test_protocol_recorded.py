"""The real codelia runtime's recorded exchanges, replayed against the session and rendered.

Each file in ``protocol_recordings/`` (copied from ``shared/protocol``) is one
session with the real runtime (v0.1.80 driven by a scripted model): one JSON
object per line, ``dir`` "ui->rt" or "rt->ui", ``msg`` the message.  The
runtime's messages are fed in order; where the recorded UI acted, the user
acts here (types the prompt, presses keys in the dialog, cancels), and every
message the UI sends must equal the recorded one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from protocol_support import wire

from inline_render import Renderer
from inline_render.inputs import ConfirmRequest, Input, Key
from inline_render.protocol.codelia.session import Session, SessionConfig, Step
from inline_render.protocol.messages import message_to_json

RECORDINGS = Path(__file__).parent / "protocol_recordings"
CANCEL_REASON = "drive.py --cancel-on-confirm"  # what the recording's UI sent as run.cancel's reason
PROMPT = "Show me numbered lines and a code block, then mark notes.txt as reviewed."


class Replay:
    """A session and an in-memory renderer, driven by one recording."""

    def __init__(self, name: str, answer: Callable[[Replay], None]) -> None:
        self.records = [json.loads(line) for line in (RECORDINGS / name).read_text().splitlines()]
        self.session = Session(SessionConfig(cancel_reason=CANCEL_REASON))
        self.renderer = Renderer.in_memory(100, 60)
        self.sent: list[dict[str, Any]] = []
        self.inputs: list[Input] = []
        self.answer = answer

    def apply(self, step: Step) -> None:
        self.sent += [message_to_json(message) for message in step.send]
        self.inputs += step.inputs
        for output in self.renderer.feed(step.inputs):
            self.apply(self.session.handle_output(output))

    def press(self, *keys: str) -> None:
        for key in keys:
            for output in self.renderer.feed([Key(key)]):
                self.apply(self.session.handle_output(output))

    def play(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Feed the runtime's messages, act where the UI did; (recorded, sent) for every UI message."""
        pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for record in self.records:
            message = record["msg"]
            if record["dir"] == "rt->ui":
                before = len(self.inputs)
                self.apply(self.session.receive(wire(message)))
                if any(isinstance(item, ConfirmRequest) for item in self.inputs[before:]):
                    self.answer(self)
                continue
            if len(pairs) == len(self.sent):  # the UI has not sent it yet: the user acts
                if message.get("method") == "initialize":
                    self.apply(self.session.initialize())
                elif message.get("method") == "run.start":
                    self.apply(self.session.start_run(message["params"]["input"]["text"]))
            assert len(self.sent) > len(pairs), f"the UI did not send {message}"
            pairs.append((message, self.sent[len(pairs)]))
        assert len(pairs) == len(self.sent), f"the UI sent more: {self.sent[len(pairs) :]}"
        return pairs

    @property
    def lines(self) -> list[str]:
        return self.renderer.terminal.all_lines()

    def once(self, *texts: str) -> None:
        """Each text is in exactly one rendered line, in this order."""
        where = []
        for text in texts:
            hits = [n for n, line in enumerate(self.lines) if text in line]
            assert len(hits) == 1, f"{text!r} in {len(hits)} lines:\n" + "\n".join(self.lines)
            where.append(hits[0])
        assert where == sorted(where), "\n".join(self.lines)


ACTIONS: dict[str, Callable[[Replay], None]] = {  # what the recorded user did when the confirm opened
    "codelia-observed.ndjson": lambda r: r.press("y"),
    "codelia-observed-deny-with-reason.ndjson": lambda r: r.press("n", *"not now", "enter"),
    "codelia-observed-cancel-during-confirm.ndjson": lambda r: r.apply(r.session.cancel_run()),
}


def check_pairs(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """Every UI message as recorded: initialize by id, method and version; everything else exactly."""
    for recorded, sent in pairs:
        if recorded.get("method") == "initialize":
            assert (sent["id"], sent["method"], sent["params"]["protocol_version"]) == ("1", "initialize", "0")
            assert sent["params"]["ui_capabilities"]["supports_permission_preflight_events"] is True
        else:
            assert sent == recorded


STORY = (
    PROMPT,
    "Run 1: print numbered lines and a code block",
    "#0001 Plan for run 1",
    "def status(path: str) -> str:",  # the fenced code, rendered as Markdown (no fence)
    "#0008 Step 6: check item 6 of the plan.",
    "Now I will change notes.txt",
    "edit file_path=notes.txt",
    "Planned edit diff preview",
    "@@ -1,4 +1,4 @@",
    "title: demo notes",
    "Permission preflight ready (edit)",
)


def test_approved_edit_replays_and_renders_once() -> None:
    """codelia-observed: 'y' answers {ok: true, remember: false, reason: null}; the story renders once, in order."""
    replay = Replay("codelia-observed.ndjson", ACTIONS["codelia-observed.ndjson"])
    check_pairs(replay.play())
    replay.once(
        *STORY,
        "edit: Replaced 1 occurrence(s) in notes.txt",  # the tool's JSON string result, read by its summary
        "#0101 Done: notes.txt now says status: reviewed.",  # inline code: styled, no backticks
        "#0103 End of the scripted answer.",
    )
    assert not any("Ignored" in line or "Internal error" in line for line in replay.lines)
    assert replay.lines[-2:] == ["done \u00b7 100% context left", "\u203a"]
    assert replay.session.run_status("8c37c477-4e2d-49f2-963b-d38c6e9cb488") == "completed"


def test_denial_with_a_reason_replays_and_renders_once() -> None:
    """codelia-observed-deny-with-reason: 'n', a typed reason, Enter -> {ok: false, remember: false, reason}."""
    name = "codelia-observed-deny-with-reason.ndjson"
    replay = Replay(name, ACTIONS[name])
    check_pairs(replay.play())
    replay.once(
        *STORY,
        "edit failed: Permission denied: not now",
        "#0101 The edit was NOT applied",
        "#0103 End of the scripted answer.",
    )
    assert not any("Ignored" in line or "Replaced" in line for line in replay.lines)
    assert replay.lines[-2] == "done \u00b7 100% context left"


def test_cancel_while_the_confirm_is_pending_replays() -> None:
    """codelia-observed-cancel-during-confirm: run.cancel with its reason, then the confirm dismissed as recorded."""
    name = "codelia-observed-cancel-during-confirm.ndjson"
    replay = Replay(name, ACTIONS[name])
    pairs = replay.play()
    check_pairs(pairs)
    assert [sent.get("method") or sent["result"] for _, sent in pairs][-2:] == [
        "run.cancel",
        {"ok": False, "remember": False, "reason": None},
    ]
    replay.once(*STORY, "Run cancelled.")
    screen = replay.renderer.terminal.screen_lines()
    assert not any("Run tool?" in line for line in screen)  # the dialog closed with the cancel
    assert not any("Cancelling" in line for line in screen)
    assert replay.session.run_status("08920de2-165d-4ddc-aa96-aad2c7c8e7a0") == "cancelled"
    assert not replay.session.busy


@pytest.mark.parametrize("name", sorted(path.name for path in RECORDINGS.glob("*.ndjson")))
def test_every_runtime_message_is_accepted(name: str) -> None:
    """Nothing the real runtime sent is answered with an error or reported as bad, unknown or ignored."""
    replay = Replay(name, ACTIONS[name])
    replay.play()
    assert not any("error" in sent for sent in replay.sent)
    noted = [i for i in replay.inputs if getattr(i, "kind", "") == "status"]
    assert all("Ignored" not in i.text and "bad message" not in i.text for i in noted)  # type: ignore[attr-defined]
