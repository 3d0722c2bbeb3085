"""What every ``python -m inline_render`` command shares: its name, its help texts, its exit on output errors."""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Callable

__all__ = ["EXIT_PIPE", "PROG", "help_text", "run_guarded", "version"]

PROG = "python -m inline_render"
EXIT_PIPE = 141  # what a shell reports for a process killed by SIGPIPE (128 + 13), as `yes | head -1` gives
_FULL = frozenset({errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG, errno.EIO})


def help_text(doc: str | None) -> str:
    """A docstring as shown by ``--help``: no raw backticks; a literal phrase (something to type) gets quotes."""

    def plain(match: re.Match[str]) -> str:
        text = match.group(1)
        return f"'{text}'" if " " in text and not text.startswith(("python ", "-")) else text

    return re.sub(r"`{1,2}([^`]+)`{1,2}", plain, doc or "")


def version() -> str:
    """The installed distribution's version (one source: the package metadata)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("inline_render")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so that the interpreter's last flush of stdout cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def run_guarded(command: Callable[[], int]) -> int:
    """Run a command; a closed pipe (``| head -1``) ends it quietly with 141, a full disk with 1 and one line.

    Never a traceback for either: the reader went away or the disk is full, the program is not broken.
    """
    try:
        code = command()
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE
    except OSError as error:
        if error.errno not in _FULL:
            raise
        _silence_stdout()
        print(f"{PROG}: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return 1
