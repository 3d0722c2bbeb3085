"""Slash commands (seed 003's CLI command syntax): parsing, the registry, precedence, completion, dispatch."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inline_render.commands.builtins import help_lines, tools_lines
from inline_render.commands.registry import (
    CommandContext,
    CommandRegistry,
    ManualTool,
    parse_arguments,
    split_command,
    usage,
)
from inline_render.errors import InvalidInput
from inline_render.inputs import FormField
from inline_render.outputs import CompleteRequest, Submit
from inline_render.shell import InlineApp
from inline_render.testing.pilot import Pilot, run_app
from inline_render.widgets.completion import complete

DEPLOY = (
    FormField("env", "select", "where to deploy", True, None, ("staging", "prod")),
    FormField("replicas", "number", "how many", default=1.0),
    FormField("note", "text", "a message"),
    FormField("dry-run", "boolean", "only print the plan"),
)
PUSH = (
    FormField("remote", "select", "", False, "origin", ("origin", "upstream")),
    FormField("branch", "text", "Target branch", required=True),
    FormField("force", "boolean", "Force push", default=False),
)


# --- parsing --------------------------------------------------------------------------------------


def test_options_quoted_values_flags_and_bare_words() -> None:
    """--name value, --name=value, a quoted value, a bare --flag and a bare word in order all land in their fields."""
    _, words = split_command('/deploy prod --replicas=3 --note "two words" --dry-run')
    assert parse_arguments(DEPLOY, words, "deploy") == {
        "env": "prod",
        "replicas": 3,
        "note": "two words",
        "dry-run": True,
    }
    assert split_command("/Deploy\t--env prod") == ("deploy", ["--env", "prod"])  # any case, any blank
    _, words = split_command("/deploy --env staging --no-dry-run --dry-run false")
    assert parse_arguments(DEPLOY, words, "deploy")["dry-run"] is False


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/deploy --env prod --color red", "unknown option --color (options: --env, --replicas, --note, --dry-run)"),
        ("/deploy --env", "--env needs a value (staging/prod)"),
        ("/deploy --env prod --replicas many", "replicas must be a number, got 'many'"),
        ("/deploy --env moon", "env must be one of staging, prod, got 'moon'"),
        ("/deploy prod 2 hello extra", "unexpected argument 'extra'"),
        ("/deploy --replicas 2", "env is required (--env)"),
    ],
)
def test_bad_arguments_say_what_is_wrong(line: str, message: str) -> None:
    """Each mistake is an InvalidInput that names the option and what it takes."""
    name, words = split_command(line)
    with pytest.raises(InvalidInput) as caught:
        parse_arguments(DEPLOY, words, name)
    assert str(caught.value) == f"/deploy: {message}"


def test_an_unclosed_quote_is_a_clear_error() -> None:
    """shlex's error becomes a message naming the command and the text."""
    with pytest.raises(InvalidInput, match=r"/deploy: no closing quotation in '--note \"oops'"):
        split_command('/deploy --note "oops')


def test_usage_lists_required_options_bare_and_the_rest_bracketed() -> None:
    """The usage line is generated from the fields."""
    assert usage("deploy", DEPLOY) == "/deploy --env <staging|prod> [--replicas <number>] [--note <text>] [--dry-run]"


# --- the registry ---------------------------------------------------------------------------------


def _noop(context: CommandContext) -> None:
    """A handler that does nothing."""


def test_built_ins_are_protected_unless_replaced_and_help_is_generated() -> None:
    """An app command may not take a built-in's name by accident; /help lists app commands added later."""
    registry = CommandRegistry()
    with pytest.raises(InvalidInput, match="/help is a built-in command"):
        registry.add("help", _noop)
    with pytest.raises(InvalidInput, match="/quit is a built-in command"):
        registry.add("quit", _noop)  # an alias of /exit
    registry.add("deploy", _noop, "Deploy the service", *DEPLOY)
    lines = help_lines(registry)
    assert [line.split()[0] for line in lines[1:]] == [
        "/clear",
        "/config",
        "/exit",
        "/help",
        "/model",
        "/status",
        "/tool",
        "/tools",
        "/deploy",
    ]
    assert "  /deploy  Deploy the service" in lines
    assert help_lines(registry, "deploy")[:3] == [
        "/deploy - Deploy the service",
        "  usage: /deploy --env <staging|prod> [--replicas <number>] [--note <text>] [--dry-run]",
        "  --env  where to deploy (staging/prod) (required)",
    ]
    registry.add("help", _noop, "my help", replace=True)
    assert registry.find("help") is not None and not registry.find("help").builtin  # type: ignore[union-attr]


def test_tools_are_listed_by_category() -> None:
    """/tools groups tools by category as seed 003's displayManualTools, then says how to run one."""
    registry = CommandRegistry()
    registry.add_tool(
        ManualTool("git_push", _noop, "Push commits to remote repository", PUSH, category="Git Operations")
    )
    registry.add_tool(ManualTool("git_tag", _noop, "Create and push a tag", category="Git Operations"))
    registry.add_tool(ManualTool("deploy_service", _noop, "Deploy to production"))
    assert tools_lines(registry) == [
        "Available manual tools:",
        "  General:",
        "    deploy_service - Deploy to production",
        "  Git Operations:",
        "    git_push - Push commits to remote repository",
        "    git_tag - Create and push a tag",
        "Run: /tool <name> [--arg value ...]  (-i: fill a form)",
    ]


def _items(registry: CommandRegistry, text: str) -> tuple[str, ...]:
    return complete(registry.completer(), CompleteRequest(text, len(text))).items


def test_completion_of_commands_options_values_and_tools() -> None:
    """Tab: /commands, then --options not given yet, a select's values, tool names, a tool's options and -i."""
    registry = CommandRegistry(models=("small", "large"))
    registry.add("deploy", _noop, "Deploy", *DEPLOY)
    registry.add_tool(ManualTool("git_push", _noop, "Push", PUSH))
    registry.add_tool(ManualTool("status", _noop, "a tool shadowed by the built-in /status"))
    assert _items(registry, "/de") == ("/deploy",)
    assert _items(registry, "/git") == ("/git_push",)  # a tool is callable by its own name
    assert _items(registry, "/deploy --env prod --") == ("--replicas", "--note", "--dry-run")
    assert _items(registry, "/deploy --env ") == ("staging", "prod")
    assert _items(registry, "/tool ") == ("git_push", "status")
    assert _items(registry, "/tool git_push --b") == ("--branch",)
    assert _items(registry, "/tool git_push -") == ("--remote", "--branch", "--force", "-i")
    assert _items(registry, "/model ") == ("small", "large", "list")
    assert _items(registry, "/stat") == ("/status",)  # once: the built-in, not the tool


# --- running through the app -----------------------------------------------------------------------


async def _echo(app: InlineApp) -> None:
    async for output in app.outputs():
        if isinstance(output, Submit):
            app.log("assistant", f"echo {output.text}")


def _registry(log: list[object]) -> CommandRegistry:
    registry = CommandRegistry(
        models=("small", "large"), settings=(FormField("temperature", "number", "sampling", default=0.5),)
    )

    @registry.command("deploy", "Deploy the service", *DEPLOY)
    async def deploy(context: CommandContext) -> None:
        log.append(context.args)
        context.app.log("success", f"deployed to {context.args['env']}")

    @registry.command("slow", "Takes a while")
    async def slow(context: CommandContext) -> None:
        await asyncio.sleep(30)
        log.append("slow finished")

    async def push(context: CommandContext) -> str:
        log.append(context.args)
        return f"pushed {context.args['remote']}/{context.args['branch']}"

    registry.add_tool(ManualTool("git_push", push, "Push commits", PUSH, "Push to Remote", needs_approval=True))
    registry.add_tool(ManualTool("clear", lambda c: log.append("clear tool"), "a tool named like a built-in"))
    return registry


async def _submit(pilot: Pilot, line: str, then: str) -> None:
    await pilot.type(line)
    await pilot.press("enter")
    await pilot.wait_for(then)


def test_commands_run_in_the_app_and_bad_arguments_are_one_error_line() -> None:
    """A registered command runs (not echoed by the app); a bad one is one error line with the usage."""
    log: list[object] = []

    async def scenario() -> str:
        async with run_app(_echo, columns=80, rows=20, setup=_registry(log).install) as pilot:
            await _submit(pilot, "/deploy --env prod --replicas 2", "deployed to prod")
            await _submit(pilot, "/deploy --env prod --replicas two", "must be a number")
            await _submit(pilot, "/nope", "unknown command /nope")
            await _submit(pilot, "hello", "echo hello")
            await _submit(pilot, "/model large", "model: large")
            await _submit(pilot, "/config temperature 0.9", "temperature = 0.9")
            await _submit(pilot, "/status", "manual tools: 2")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert log == [{"env": "prod", "replicas": 2, "note": None, "dry-run": False}]
    assert "echo /" not in text  # slash lines never reach the app's outputs
    flat = " ".join(text.split())  # error lines wrap at 80 columns
    assert (
        "\u2717 /deploy: replicas must be a number, got 'two'; usage: /deploy --env <staging|prod> [--replicas" in flat
    )
    assert text.count("\u2717") == 2
    assert "\u2713 model: large" in text and text.splitlines()[-2] == "large"  # the status line shows the model


def test_built_ins_win_over_tools_and_tools_run_directly_or_by_tool() -> None:
    """/clear is the built-in even with a tool named clear; /tool clear runs the tool; /git_push asks approval."""
    log: list[object] = []

    async def scenario() -> str:
        async with run_app(_echo, columns=80, rows=20, setup=_registry(log).install) as pilot:
            await _submit(pilot, "hello", "echo hello")
            await pilot.type("/clear")
            await pilot.press("enter")
            # The built-in cleared the log (the tool did not run) and kept what was shown: in scrollback, once.
            await pilot.wait_for(lambda p: not p.state.log.entries and not p.state.log.again)
            assert log == [] and pilot.snapshot().count("echo hello") == 1
            await pilot.type("/tool clear")
            await pilot.press("enter")
            await pilot.wait_for(lambda p: log == ["clear tool"])
            await _submit(pilot, "/git_push --branch main", "Approval Required")
            await pilot.press("y")
            await pilot.wait_for("pushed origin/main")
            await _submit(pilot, "/t git_push --branch dev", "Approval Required")
            await pilot.press("n")
            await pilot.wait_for("git_push: not approved")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert log == ["clear tool", {"remote": "origin", "branch": "main", "force": False}]
    assert "pushed origin/dev" not in text


def test_tool_dash_i_opens_a_form_that_refuses_a_bad_number() -> None:
    """/tool NAME -i: a form from the tool's fields, prefilled from typed args; its values run the tool."""
    seen: list[object] = []
    registry = CommandRegistry()
    fields = (*PUSH, FormField("depth", "number", "history depth"))
    registry.add_tool(ManualTool("git_push", lambda c: seen.append(c.args) or "ok", "Push", fields, "Push to Remote"))

    async def scenario() -> str:
        async with run_app(_echo, columns=70, rows=20, setup=registry.install) as pilot:
            await _submit(pilot, "/tool git_push -i --branch dev", "[git_push] Push to Remote")
            assert "  branch*: dev" in pilot.screen()
            await pilot.press("right", "tab", "tab", "tab", *"ten", "enter")
            await pilot.wait_for("depth must be a number, got 'ten'")
            assert seen == []  # the form stays open
            await pilot.press(*["backspace"] * 3, *"10", "enter")
            await pilot.wait_for("git_push: ok")
            await _submit(pilot, "/tool git_push -i", "[git_push] Push to Remote")
            await pilot.press("escape")
            await pilot.wait_for("git_push: cancelled")
            return pilot.snapshot()

    text = asyncio.run(scenario())
    assert seen == [{"remote": "upstream", "branch": "dev", "force": False, "depth": 10}]
    assert "Push to Remote" not in text  # the forms left nothing in the transcript


def test_escape_interrupts_a_running_command_and_returns_to_the_prompt() -> None:
    """Esc during a long command cancels it ('/slow interrupted'); the composer takes the next line at once."""
    log: list[object] = []

    async def scenario() -> None:
        async with run_app(_echo, columns=70, rows=16, setup=_registry(log).install) as pilot:
            await pilot.type("/slow")
            await pilot.press("enter")
            await pilot.settle()
            await pilot.press("escape")
            await pilot.wait_for("/slow interrupted")
            await _submit(pilot, "next", "echo next")

    asyncio.run(scenario())
    assert "slow finished" not in log


def test_unknown_lines_can_pass_to_the_app_and_exit_ends_the_run() -> None:
    """unknown_is_error=False: an unknown /line reaches outputs() (a runtime's own command); /exit exits 0."""
    registry = CommandRegistry(unknown_is_error=False)

    async def scenario() -> int | None:
        async with run_app(_echo, columns=70, rows=16, setup=registry.install) as pilot:
            await _submit(pilot, "/resume", "echo /resume")
            await pilot.type("/exit")
            await pilot.press("enter")
        return pilot.exit_code

    assert asyncio.run(scenario()) == 0


def test_readme_commands_sample_runs_with_piped_lines() -> None:
    """The README's commands sample: a command, a bad argument, /tools, and a tool that asks approval first."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    sample = next(b for b in re.findall(r"^```python\n(.*?)^```", readme, flags=re.S | re.M) if "CommandRegistry(" in b)
    done = subprocess.run(
        [sys.executable, "-c", sample],
        input="/deploy --env prod\n/deploy --env moon\n/tools\nhi\n/git_push --branch main\ny\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "\u2713 deployed to prod" in lines
    assert any(line.startswith("\u2717 /deploy: env must be one of staging, prod, got 'moon'") for line in lines)
    assert "    Git Operations:" in lines and "\u25b8 You said: hi" in lines
    assert lines[-3:] == ["  Risk: high", "  -> yes", "\u2713 git_push: pushed origin/main"]


def test_a_tool_is_found_whatever_the_case_typed() -> None:
    """Command names are case-insensitive, and so is a tool's name typed directly or after /tool."""
    registry = CommandRegistry()
    tool = registry.add_tool(ManualTool("GitPush", _noop, "Push"))
    assert registry.tool_named("gitpush") is tool and registry.tool_named("GITPUSH") is tool
    assert registry.tool_named("git") is None


@settings(max_examples=300, deadline=None)
@given(
    line=st.text(max_size=60),
    words=st.lists(
        st.sampled_from(["--env", "--dry-run", "prod", "--no-dry-run", "-i", "--replicas", "3", "x", "--note=", '"']),
        max_size=8,
    ),
)
def test_any_line_parses_or_raises_invalid_input(line: str, words: list[str]) -> None:
    """Whatever is typed, parsing gives field values or an InvalidInput: never another exception."""
    for text in (f"/deploy {line}", "/deploy " + " ".join(words)):
        try:
            name, split = split_command(text)
            values = parse_arguments(DEPLOY, split, name)
        except InvalidInput as error:
            assert str(error).startswith("/deploy")
        else:
            assert set(values) == {"env", "replicas", "note", "dry-run"} and values["env"] in ("staging", "prod")
