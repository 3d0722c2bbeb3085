"""Permission preflight: legacy text lines and structured events give the same inputs and rendering."""

from __future__ import annotations

import json
from typing import Any

import pytest
from protocol_support import event, feed, req, running, status

from inline_render import Renderer
from inline_render.inputs import Input, LogAppend, PermissionPreview, PermissionReady
from inline_render.protocol.codec import Decoder
from inline_render.protocol.codelia.session import Session
from inline_render.protocol.legacy import LegacyPreflight, legacy_block, normalize_diff

DIFF = "--- a/hello.py\n+++ b/hello.py\n@@ -1,2 +1,2 @@\n def greet(name):\n-    print('hi')\n+    print('hello')"


def recognize(*lines: str) -> list[Input]:
    recognizer = LegacyPreflight()
    out = [item for line in lines for item in recognizer.feed(line)]
    return out + recognizer.flush()


def test_header_collects_the_diff_until_a_non_diff_line() -> None:
    """'Planned <tool> diff preview' + diff lines -> one PermissionPreview, emitted when the diff ends."""
    recognizer = LegacyPreflight()
    assert recognizer.feed("Planned edit diff preview:") == []
    assert [recognizer.feed(line) for line in DIFF.split("\n")] == [[]] * 6
    assert recognizer.pending
    assert recognizer.feed("Permission preflight ready (edit)") == [
        PermissionPreview("edit", DIFF),
        PermissionReady("edit"),
    ]
    assert not recognizer.pending


@pytest.mark.parametrize(
    "line",
    [
        "Permission preflight ready (edit)",
        "Permission preflight ready for edit.",
        "  Permission preflight ready (edit)  ",
    ],
)
def test_ready_line_forms(line: str) -> None:
    """Both wordings of the ready line are recognized."""
    assert recognize(line) == [PermissionReady("edit")]


def test_header_without_colon_and_multiword_tool() -> None:
    """The header's colon is optional and the tool name may contain spaces."""
    assert recognize("Planned apply patch diff preview", "+x") == [PermissionPreview("apply patch", "+x")]


def test_header_without_diff_has_no_diff() -> None:
    """A header followed by a non-diff line gives a preview without a diff, then the line as status."""
    assert recognize("Planned write diff preview:", "Writing a new file") == [
        PermissionPreview("write", None),
        LogAppend("status", "Writing a new file"),
    ]


def test_other_lines_are_status_lines_and_blank_lines_vanish() -> None:
    """Any other non-blank text line is one status line; blank lines outside a diff are dropped."""
    assert recognize("Indexing 3 files", "", "   ") == [LogAppend("status", "Indexing 3 files")]


def test_blank_lines_inside_a_diff_are_kept_but_not_at_its_end() -> None:
    """A blank line between diff lines is part of the diff; trailing blank lines are not."""
    assert recognize("Planned edit diff preview", "-a", "", "+b", "", "") == [PermissionPreview("edit", "-a\n\n+b")]


def test_normalize_diff() -> None:
    """Diffs are compared in one form: LF endings, no trailing newline, empty means None."""
    assert normalize_diff("-a\r\n+b\n\n") == "-a\n+b"
    assert normalize_diff("\n") is None
    assert normalize_diff(None) is None


def test_legacy_block_in_one_text_event() -> None:
    """A whole legacy block sent as one text content is recognized; ordinary text is not."""
    assert legacy_block(f"Planned edit diff preview:\n{DIFF}\n") == [PermissionPreview("edit", DIFF)]
    assert legacy_block("Permission preflight ready (edit)") == [PermissionReady("edit")]
    assert legacy_block("The plan: Planned edit diff preview") is None


# --- both paths through the session -------------------------------------------------------------


def script(structured: bool) -> list[bytes]:
    """One run with a preflight, as a structured or a legacy runtime writes it to stdout."""

    def line(obj: dict[str, Any]) -> bytes:
        return json.dumps(obj).encode() + b"\n"

    out = [
        line(event("r1", 1, type="text", content="I will edit hello.py.")),
        line(event("r1", 2, type="tool_call", tool="edit", tool_call_id="c1", args={"path": "hello.py"})),
    ]
    if structured:
        out += [
            line(event("r1", 3, type="permission.preview", tool="edit", diff=DIFF + "\n", tool_call_id="c1")),
            line(event("r1", 4, type="permission.ready", tool="edit", tool_call_id="c1")),
        ]
    else:
        out += [
            b"Planned edit diff preview:\n",
            *(f"{d}\r\n".encode() for d in DIFF.split("\n")),
            b"Permission preflight ready (edit)\n",
        ]
    seq = 5 if structured else 3
    out += [
        line(req("ui-1", "ui.confirm.request", title="Allow edit?", run_id="r1")),
        line(event("r1", seq, type="tool_result", tool="edit", tool_call_id="c1", result="Applied")),
        line(event("r1", seq + 1, type="final", content="Done.")),
        line(status("r1", "completed")),
    ]
    return out


def run_script(structured: bool, chunk: int = 7) -> list[Input]:
    """Feed the script's bytes in small chunks through decoder and session; all inputs."""
    session = running(structured=structured)
    decoder = Decoder()
    data = b"".join(script(structured))
    inputs: list[Input] = []
    for start in range(0, len(data), chunk):
        for item in decoder.feed(data[start : start + chunk]):
            inputs += session.receive(item).inputs
    return inputs


def test_both_paths_give_identical_input_sequences() -> None:
    """The structured events and the legacy text lines produce exactly the same core inputs."""
    structured, legacy = run_script(True), run_script(False)
    assert structured == legacy
    assert PermissionPreview("edit", DIFF, tool_call_id="c1") in structured
    assert PermissionReady("edit", "c1") in structured
    assert structured.index(PermissionReady("edit", "c1")) < next(
        i for i, item in enumerate(structured) if type(item).__name__ == "ConfirmRequest"
    )


def test_negotiated_structured_path_does_not_parse_text_lines() -> None:
    """With structured preflight negotiated, legacy-looking text lines are just status lines."""
    session = running(structured=True)
    inputs = [
        i
        for raw in (b"Planned edit diff preview:", b"+x")
        for i in session.receive(Decoder().feed(raw + b"\n")[0]).inputs
    ]
    assert inputs == [LogAppend("status", "Planned edit diff preview:"), LogAppend("status", "+x")]


def test_legacy_text_event_block_matches_the_structured_events() -> None:
    """A legacy runtime sending the block as a text event gives the structured inputs too."""
    legacy = feed(
        running(structured=False),
        event("r1", 1, type="tool_call", tool="edit", tool_call_id="c1"),
        event("r1", 2, type="text", content=f"Planned edit diff preview:\n{DIFF}"),
        event("r1", 3, type="text", content="Permission preflight ready (edit)"),
    )
    structured = feed(
        running(structured=True),
        event("r1", 1, type="tool_call", tool="edit", tool_call_id="c1"),
        event("r1", 2, type="permission.preview", tool="edit", diff=DIFF, tool_call_id="c1"),
        event("r1", 3, type="permission.ready", tool="edit", tool_call_id="c1"),
    )
    assert legacy.inputs == structured.inputs


def test_a_message_ends_a_pending_legacy_diff() -> None:
    """A protocol message after a legacy diff flushes the preview first, so it precedes the dialog."""
    session: Session = running(structured=False)
    decoder = Decoder()
    inputs: list[Input] = []
    for item in decoder.feed(
        b"Planned edit diff preview\n+x\n" + json.dumps(req(1, "ui.confirm.request", title="t")).encode() + b"\n"
    ):
        inputs += session.receive(item).inputs
    assert [type(i).__name__ for i in inputs] == ["PermissionPreview", "ConfirmRequest"]


def rendered(inputs: list[Input]) -> list[str]:
    renderer = Renderer.in_memory(60, 12)
    for item in inputs:
        renderer.feed([item])
    return renderer.terminal.all_lines()


def test_both_paths_render_identically() -> None:
    """Through the core renderer both paths give the same scrollback and screen, each line once."""
    structured, legacy = rendered(run_script(True)), rendered(run_script(False))
    assert structured == legacy
    for expected in ("Planned edit diff preview", "+    print('hello')", "Permission preflight ready (edit)"):
        assert sum(expected in line for line in structured) == 1, "\n".join(structured)
