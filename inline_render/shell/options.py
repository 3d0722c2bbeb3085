"""``AppOptions``, how an ``InlineApp`` runs, and ``config_for``: the renderer's config for the terminal it found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..core.state import Config
from ..terminals.behaviour import TerminalBehaviour
from ..text.themes import hyperlinks_supported
from .probe import TerminalInfo
from .schedule import DEFAULT_MAX_RATE
from .terminal_io import OutputMode

__all__ = ["AppOptions", "config_for"]


@dataclass(frozen=True, slots=True)
class AppOptions:
    """How an ``InlineApp`` runs; every field has a sensible default."""

    mode: OutputMode = OutputMode.AUTO
    config: Config = field(default_factory=Config)
    max_rate: float = DEFAULT_MAX_RATE
    """Most ticks per second for streamed inputs (keys are never delayed)."""
    ascii: bool = False
    """Plain mode: strict ASCII (``[OK]``, ``[WARN]``, ``[ERROR]`` tokens)."""
    result_stdout: bool = False
    """The final assistant answer goes to stdout; the UI (progress) to stderr."""
    cpr_timeout: float = 0.5
    """Seconds to wait for a cursor-position report before falling back."""
    escape_timeout: float = 0.05
    """Seconds after which a lone ``ESC`` byte is the Esc key (not the start of a sequence)."""
    spinner_rate: float = 10.0
    """Status spinner frames per second while the app is working."""
    exit_grace: float = 3.0
    """Seconds the main coroutine gets to clean up (shut its runtime down) once exit is requested."""
    record: str | None = None
    """Inline mode: record every tick to this scenario file."""
    capture_output: bool = True
    """Inline mode: what is written to ``sys.stdout`` / ``sys.stderr`` while the app runs (``print``, logging, a
    library's banner, warnings) becomes log lines above the viewport (``shell.capture``); False: it is written to
    the terminal as it comes, through the viewport."""
    reflow: bool | None = None
    """Whether the terminal re-wraps rows on a width change; None (the default): asked of the terminal at
    startup (``TerminalBehaviour.from_answers``).  Unknown terminals are taken for re-wrapping ones: that model
    loses and repeats no line on either kind (measured on kitty and xterm)."""
    ctrl_c_window: float = 2.0
    """Seconds after a Ctrl-C in which a second Ctrl-C exits (the status line says so meanwhile)."""
    history_file: str | None = None
    """The composer's history (Up/Down, Ctrl-R) is loaded from and saved to this file (prompt_toolkit's
    FileHistory format)."""
    vi_mode: bool = False
    """The composer edits with vi keys (Esc: normal mode) instead of emacs keys."""
    hyperlinks: bool | None = None
    """OSC 8 links for Markdown links; None (the default): where the environment names a terminal known to
    show them (``themes.hyperlinks_supported``) or ``Config(hyperlinks=True)`` asks; elsewhere ``text (url)``."""
    line_input: bool | None = None
    """Read input as lines from stdin (submitted in turn; end of input quits). None: when there is no
    terminal to read keys from (stdin not a TTY in plain/JSON Lines mode, TERM=dumb, or no /dev/tty)."""
    transcript: bool = True
    """Plain/JSON Lines mode: write the transcript.  False: the core still runs (dialogs are answered with
    keys as usual) but writes nothing; the application writes its own event stream (the llm-do modes)."""


def config_for(options: AppOptions, info: TerminalInfo, env: Mapping[str, str] | None = None) -> Config:
    """The renderer's config for this terminal: resize model, synchronized output, grapheme widths, links."""
    config = options.config
    links = options.hyperlinks
    if links is None:
        links = config.hyperlinks or hyperlinks_supported({} if env is None else env)
    config = replace(config, hyperlinks=links)
    terminal = TerminalBehaviour.from_answers(info.family, info.synchronized_output, reflow=options.reflow)
    return replace(
        config,
        resize_reflow=terminal.reflows,
        synchronized_output=config.synchronized_output and terminal.synchronized_output,
        soft_wrap_lines=config.soft_wrap_lines or terminal.soft_wrapped_text,
    )
