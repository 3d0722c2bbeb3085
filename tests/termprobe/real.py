"""Drive real terminals with scripted bytes and resizes, read back history, screen and cursor.

Not a test module: ``tests/test_terminal_models.py`` and ``python -m tests.termprobe`` use it.
A *script* is a start size and a list of steps: ``Feed(bytes)`` (as a program writes them; LF is
turned into CR LF here, as a pty with onlcr does, because VTE and xterm.js are fed without a pty),
``Resize(columns, rows)`` and ``Snap()`` (record a ``Snapshot``).  Every terminal runs the whole
script in one go and returns one snapshot per ``Snap``:

* ``xtermjs``: ``@xterm/headless`` 6 in node (``xtermjs_probe.js``; ``npm install`` in ``node/``);
* ``vte``: a never-shown ``Vte.Terminal`` 0.70 in the system python (``vte_probe.py``), under X;
* ``tmux``: a private tmux 3.3a server whose pane runs ``agent.py``;
* ``xterm``: xterm 379 under Xvfb running ``agent.py``; text by its ``print-everything()`` action
  (bound to F12, ``printerCommand`` writes a file), resize by ``xdotool windowsize --usehints``;
* ``screen``: GNU screen 4.09 in a private tmux pane (resizing the tmux window resizes screen's), text by
  ``hardcopy -h`` (the history rows screen shows, then the window).

``available(name)`` says why a terminal cannot run here (``None`` when it can).
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "TERMINALS",
    "Feed",
    "Resize",
    "Script",
    "Snap",
    "Snapshot",
    "Step",
    "available",
    "run_script",
    "run_scripts",
]

HERE = Path(__file__).resolve().parent
SYSTEM_PYTHON = "/usr/bin/python3"


@dataclass(frozen=True, slots=True)
class Feed:
    """Bytes a program writes."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Resize:
    """The window changes size."""

    columns: int
    rows: int


@dataclass(frozen=True, slots=True)
class Snap:
    """Record history, screen and cursor now."""


Step = Feed | Resize | Snap
Script = tuple[int, int, list[Step]]  # start columns, start rows, steps


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a terminal shows: history lines, screen rows (right-trimmed), cursor (x, y), size."""

    history: tuple[str, ...]
    screen: tuple[str, ...]
    cursor: tuple[int, int]
    size: tuple[int, int]


def _wire(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def _snapshot(raw: dict[str, object]) -> Snapshot:
    history, screen, cursor, size = (raw[k] for k in ("history", "screen", "cursor", "size"))
    assert isinstance(history, list) and isinstance(screen, list)
    assert isinstance(cursor, list) and isinstance(size, list)
    columns = int(size[0])
    # A cursor in the pending-wrap state is reported at column == columns by some terminals.
    return Snapshot(
        tuple(str(line).rstrip(" ") for line in history),
        tuple(str(line).rstrip(" ") for line in screen),
        (min(int(cursor[0]), columns - 1), int(cursor[1])),
        (columns, int(size[1])),
    )


def _json_probe(command: list[str], scripts: Sequence[Script], env: dict[str, str]) -> list[list[Snapshot]]:
    """Run every script in one process of a probe that speaks JSON (``xtermjs_probe.js``, ``vte_probe.py``)."""
    specs = []
    for columns, rows, steps in scripts:
        wire: list[list[object]] = []
        for step in steps:
            if isinstance(step, Feed):
                wire.append(["feed", base64.b64encode(_wire(step.data)).decode()])
            elif isinstance(step, Resize):
                wire.append(["resize", step.columns, step.rows])
            else:
                wire.append(["snap"])
        specs.append({"columns": columns, "rows": rows, "steps": wire})
    spec = json.dumps({"scripts": specs}).encode()
    run = subprocess.run(command, input=spec, capture_output=True, timeout=300, env={**os.environ, **env}, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"{command[0]} probe failed: {run.stderr.decode(errors='replace')[-2000:]}")
    return [[_snapshot(raw) for raw in snaps] for snaps in json.loads(run.stdout)["results"]]


# ------------------------------------------------------------------------- X display
_DISPLAY: str | None = None


def _display() -> str:
    """An X display: ``$DISPLAY`` if set, else a private Xvfb started once for this process."""
    global _DISPLAY
    if _DISPLAY is None:
        if os.environ.get("DISPLAY"):
            _DISPLAY = os.environ["DISPLAY"]
        else:
            number = 80 + os.getpid() % 400
            proc = subprocess.Popen(
                ["Xvfb", f":{number}", "-screen", "0", "2000x1500x24", "-nolisten", "tcp"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            import atexit

            atexit.register(proc.terminate)
            deadline = time.monotonic() + 10
            while not Path(f"/tmp/.X11-unix/X{number}").exists():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("Xvfb did not start")
                time.sleep(0.05)
            _DISPLAY = f":{number}"
    return _DISPLAY


# ------------------------------------------------------------------------- pane agents
class _Agent:
    """Talks to ``agent.py`` running in a terminal, through two fifos."""

    def __init__(self, workdir: Path) -> None:
        self.commands_path, self.answers_path = workdir / "in", workdir / "out"
        os.mkfifo(self.commands_path)
        os.mkfifo(self.answers_path)
        self.commands: object = None
        self.answers: object = None

    def command_line(self) -> str:
        return f"python3 {HERE / 'agent.py'} {self.commands_path} {self.answers_path}"

    def open(self) -> None:
        self.commands = open(self.commands_path, "w", encoding="ascii")  # noqa: SIM115 - closed in close()
        self.answers = open(self.answers_path, encoding="ascii")  # noqa: SIM115

    def ask(self, line: str) -> str:
        self.commands.write(line + "\n")  # type: ignore[attr-defined]
        self.commands.flush()  # type: ignore[attr-defined]
        return str(self.answers.readline()).strip()  # type: ignore[attr-defined]

    def write(self, data: bytes) -> None:
        for start in range(0, len(data), 2048):
            self.ask("w " + data[start : start + 2048].hex())
        self.ask("c")  # answered after the terminal processed every byte before it

    def cursor(self) -> tuple[int, int]:
        x, y = self.ask("c").split()
        return int(x), int(y)

    def wait_size(self, columns: int, rows: int) -> None:
        deadline = time.monotonic() + 10
        while self.ask("s") != f"{columns} {rows}":
            if time.monotonic() > deadline:
                raise RuntimeError(f"the terminal never became {columns}x{rows}")
            time.sleep(0.01)
        self.ask("c")

    def close(self) -> None:
        for stream in (self.commands, self.answers):
            if stream is not None:
                stream.close()  # type: ignore[attr-defined]


def _run_tmux(scripts: Sequence[Script]) -> list[list[Snapshot]]:
    """One private tmux server; each script in a new window running the agent."""
    socket = f"termprobe-{os.getpid()}-{uuid.uuid4().hex[:8]}"

    def tmux(*args: str) -> str:
        command = ["tmux", "-L", socket, "-f", "/dev/null", *args]
        run = subprocess.run(command, capture_output=True, text=True, timeout=10, check=False)
        if run.returncode != 0:
            raise RuntimeError(f"tmux {args}: {run.stderr}")
        return run.stdout

    options = ["set", "-g", "history-limit", "100000", ";", "set", "-g", "status", "off"]
    tmux("new-session", "-d", "-s", "probe", "-e", "LANG=C.UTF-8", "sleep 1000", ";", *options)
    out: list[list[Snapshot]] = []
    try:
        for index, (columns, rows, steps) in enumerate(scripts):
            with tempfile.TemporaryDirectory(prefix="termprobe-") as tmp:
                agent = _Agent(Path(tmp))
                target = f"probe:{index + 1}"
                tmux("new-window", "-d", "-t", target, "-e", "LANG=C.UTF-8", agent.command_line())
                try:
                    tmux("resize-window", "-t", target, "-x", str(columns), "-y", str(rows))
                    agent.open()
                    agent.wait_size(columns, rows)
                    out.append(_tmux_steps(tmux, target, agent, steps))
                finally:
                    agent.close()  # the agent exits, and its window with it
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, check=False)
    return out


def _tmux_steps(tmux: Callable[..., str], target: str, agent: _Agent, steps: Sequence[Step]) -> list[Snapshot]:
    snaps: list[Snapshot] = []
    for step in steps:
        if isinstance(step, Feed):
            agent.write(_wire(step.data))
        elif isinstance(step, Resize):
            tmux("resize-window", "-t", target, "-x", str(step.columns), "-y", str(step.rows))
            agent.wait_size(step.columns, step.rows)
        else:
            x, y = agent.cursor()
            size = [
                int(v)
                for v in tmux("display", "-p", "-t", target, "#{pane_width} #{pane_height} #{history_size}").split()
            ]
            text = tmux("capture-pane", "-p", "-t", target, "-S", "-", "-E", "-").split("\n")[:-1]
            history, screen = text[: size[2]], text[size[2] :]
            snaps.append(_snapshot({"history": history, "screen": screen, "cursor": [x, y], "size": size[:2]}))
    return snaps


SCREENRC = "defutf8 on\ndefencoding utf8\ndefscrollback 100000\nstartup_message off\nvbell off\n"


def _run_screen(scripts: Sequence[Script]) -> list[list[Snapshot]]:
    """Each script in a new GNU screen session (private ``SCREENDIR``, screenrc) that a private tmux pane shows:
    resizing the tmux window resizes screen's display, and screen its window.  The text is ``hardcopy -h``:
    the history screen shows (copy mode reaches the same lines), then the window."""
    out: list[list[Snapshot]] = []
    for columns, rows, steps in scripts:
        with tempfile.TemporaryDirectory(prefix="termprobe-screen-") as tmp:
            os.chmod(tmp, 0o700)  # screen refuses a socket directory others can read
            (Path(tmp) / "screenrc").write_text(SCREENRC, encoding="utf-8")
            agent = _Agent(Path(tmp))
            name = f"termprobe-{uuid.uuid4().hex[:8]}"
            env = {**os.environ, "SCREENDIR": tmp}
            command = f"screen -U -c {tmp}/screenrc -S {name} {agent.command_line()}"
            tmux = ["tmux", "-L", name, "-f", "/dev/null"]
            start = [*tmux, "new-session", "-d", "-x", str(columns), "-y", str(rows), "-e", f"SCREENDIR={tmp}"]
            subprocess.run([*start, "-e", "LANG=C.UTF-8", command], check=True, timeout=10)
            try:
                agent.open()
                agent.wait_size(columns, rows)
                out.append(_screen_steps(tmux, name, env, agent, Path(tmp) / "hardcopy", (columns, rows), steps))
            finally:
                agent.close()
                subprocess.run(["screen", "-S", name, "-X", "quit"], env=env, capture_output=True, check=False)
                subprocess.run([*tmux, "kill-server"], capture_output=True, check=False)
    return out


def _screen_steps(
    tmux: list[str],
    name: str,
    env: dict[str, str],
    agent: _Agent,
    dump: Path,
    size: tuple[int, int],
    steps: Sequence[Step],
) -> list[Snapshot]:
    snaps: list[Snapshot] = []
    for step in steps:
        if isinstance(step, Feed):
            agent.write(_wire(step.data))
        elif isinstance(step, Resize):
            subprocess.run([*tmux, "resize-window", "-x", str(step.columns), "-y", str(step.rows)], check=True)
            agent.wait_size(step.columns, step.rows)
            size = (step.columns, step.rows)
        else:
            x, y = agent.cursor()
            dump.unlink(missing_ok=True)
            subprocess.run(["screen", "-S", name, "-X", "hardcopy", "-h", str(dump)], env=env, check=True)
            deadline = time.monotonic() + 10
            while not dump.exists() or not dump.read_bytes().endswith(b"\n"):
                if time.monotonic() > deadline:
                    raise RuntimeError("screen wrote no hardcopy")
                time.sleep(0.01)
            lines = dump.read_text(encoding="utf-8", errors="replace").split("\n")[:-1]
            history, screen = lines[: len(lines) - size[1]], lines[len(lines) - size[1] :]
            snaps.append(_snapshot({"history": history, "screen": screen, "cursor": [x, y], "size": list(size)}))
    return snaps


def _run_xterm(scripts: Sequence[Script]) -> list[list[Snapshot]]:
    """One xterm for all scripts: each starts with a resize, RIS and ``ESC[3J`` (saved lines erased)."""
    display = _display()
    env = {**os.environ, "DISPLAY": display, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    with tempfile.TemporaryDirectory(prefix="termprobe-") as tmp:
        agent = _Agent(Path(tmp))
        printed = Path(tmp) / "printed"
        title = f"termprobe-{uuid.uuid4().hex[:8]}"
        resources = [
            "XTerm*printerCommand: " + f"cat > {printed}.part && mv {printed}.part {printed}",
            "XTerm*printAttributes: 0",
            "XTerm*printerAutoClose: true",
            "XTerm*printerNewLine: true",
            "XTerm*allowSendEvents: true",
            "XTerm*saveLines: 100000",
            "XTerm*translations: #override <Key>F12: print-everything()",
        ]
        args = ["xterm", "-u8", "-title", title, "-geometry", "80x24+0+0"]
        for resource in resources:
            args += ["-xrm", resource]
        command = [*args, "-e", *agent.command_line().split()]
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            agent.open()
            agent.wait_size(80, 24)
            search = ["xdotool", "search", "--name", title]
            wid = subprocess.run(search, env=env, capture_output=True, text=True, check=True).stdout.split()[0]
            out = []
            for columns, rows, steps in scripts:
                _xterm_resize(env, wid, agent, columns, rows)
                agent.write(b"\x1bc\x1b[3J")
                out.append(_xterm_steps(env, wid, agent, printed, (columns, rows), steps))
            return out
        finally:
            agent.close()
            proc.terminate()
            proc.wait(10)


def _xterm_resize(env: dict[str, str], wid: str, agent: _Agent, columns: int, rows: int) -> None:
    subprocess.run(["xdotool", "windowsize", "--usehints", wid, str(columns), str(rows)], env=env, check=True)
    agent.wait_size(columns, rows)


def _xterm_steps(
    env: dict[str, str], wid: str, agent: _Agent, printed: Path, size: tuple[int, int], steps: Sequence[Step]
) -> list[Snapshot]:
    snaps: list[Snapshot] = []
    for step in steps:
        if isinstance(step, Feed):
            agent.write(_wire(step.data))
        elif isinstance(step, Resize):
            _xterm_resize(env, wid, agent, step.columns, step.rows)
            size = (step.columns, step.rows)
        else:
            x, y = agent.cursor()
            printed.unlink(missing_ok=True)
            key = ["xdotool", "key", "--window", wid, "F12"]
            subprocess.run(key, env=env, check=True, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while not printed.exists():
                if time.monotonic() > deadline:
                    raise RuntimeError("xterm printed nothing")
                time.sleep(0.01)
            # xterm prints U+FFFF for the right half of a wide character.
            text = printed.read_text(encoding="utf-8", errors="replace").replace("\uffff", "")
            lines = text.split("\n")[:-1]
            history, screen = lines[: len(lines) - size[1]], lines[len(lines) - size[1] :]
            snaps.append(_snapshot({"history": history, "screen": screen, "cursor": [x, y], "size": list(size)}))
    return snaps


def _run_xtermjs(scripts: Sequence[Script]) -> list[list[Snapshot]]:
    return _json_probe(["node", str(HERE / "xtermjs_probe.js")], scripts, {})


def _run_vte(scripts: Sequence[Script]) -> list[list[Snapshot]]:
    return _json_probe([SYSTEM_PYTHON, str(HERE / "vte_probe.py")], scripts, {"DISPLAY": _display()})


def _why_not_xtermjs() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not (HERE / "node" / "node_modules" / "@xterm" / "headless").is_dir():
        return f"@xterm/headless is not installed (cd {HERE / 'node'} && npm install)"
    return None


def _why_not_vte() -> str | None:
    check = "import gi; gi.require_version('Vte', '2.91'); from gi.repository import Vte"
    if not Path(SYSTEM_PYTHON).exists():
        return f"{SYSTEM_PYTHON} is missing"
    if subprocess.run([SYSTEM_PYTHON, "-c", check], capture_output=True, check=False).returncode != 0:
        return "python3-gi and gir1.2-vte-2.91 are not installed for the system python"
    return _why_not_x()


def _why_not_x() -> str | None:
    if not os.environ.get("DISPLAY") and shutil.which("Xvfb") is None:
        return "no X display and no Xvfb (apt-get install xvfb)"
    return None


def _why_not_binaries(*tools: str) -> str | None:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    return f"{', '.join(missing)} not installed (apt-get install {' '.join(missing)})" if missing else None


def _why_not_xterm() -> str | None:
    for tool in ("xterm", "xdotool"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install {tool})"
    return _why_not_x()


TERMINALS: dict[str, tuple[Callable[[Sequence[Script]], list[list[Snapshot]]], Callable[[], str | None]]] = {
    "xterm": (_run_xterm, _why_not_xterm),
    "vte": (_run_vte, _why_not_vte),
    "xtermjs": (_run_xtermjs, _why_not_xtermjs),
    "tmux": (_run_tmux, lambda: None if shutil.which("tmux") else "tmux is not installed"),
    "screen": (_run_screen, lambda: _why_not_binaries("screen", "tmux")),
}


def available(name: str) -> str | None:
    """Why terminal ``name`` cannot run here, or ``None``."""
    return TERMINALS[name][1]()


def run_scripts(name: str, scripts: Sequence[Script]) -> list[list[Snapshot]]:
    """Run each script on a fresh terminal ``name``; per script, one snapshot per ``Snap`` step."""
    return TERMINALS[name][0](scripts)


def run_script(name: str, columns: int, rows: int, steps: Sequence[Step]) -> list[Snapshot]:
    """Run one script on terminal ``name``; one snapshot per ``Snap`` step."""
    return run_scripts(name, [(columns, rows, list(steps))])[0]
