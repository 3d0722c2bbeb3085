"""Lexing untrusted code under a budget, line by line, so that no lexer can hang or stall a tick (issue 33).

A runtime or a model names the lexer (a fence's info string, a preview's file name), and a few of
Pygments' lexers misbehave on short input: TNT's loops forever on ``(`` without yielding a token,
mcschema's yields empty tokens forever on ``<!--``, others are quadratic or worse on a long line
(make, fan, lilypond, devicetree).  So:

* **Reachable lexers** (``reachable``): a lexer whose tokens Pygments' own regex loop produces (the
  lexer does not replace ``get_tokens_unprocessed``), or one of the ``_VETTED`` classes that do and
  were checked to yield their tokens as they go (each passed the adversarial survey of
  tests/test_highlight_budget.py); a delegating lexer (``html+php``) when both its parts are.  A lexer
  that computes its tokens without yielding (TNT) cannot be stopped once called: it is never called.
* **A budget** (``Budget``): tokens are pulled one at a time; more than two tokens per character
  (plus a small allowance) or more wall time than the budget, and the code from there on is plain.
* **Long lines** (``MAX_LINE``): a longer line is plain and the lexer restarts after it (a regex that
  backtracks over a line costs its length squared: lines are bounded, not lexers).
* **Incremental**: the result is a fold over the code's lines (``Lexed``): each complete line is lexed
  once from a checkpoint, Pygments' state stack at a line start (our loop is Pygments' regex loop with
  the stack kept), one line of lookahead; a lexer whose stack we cannot keep is lexed in chunks of
  ``CHUNK`` lines, each from its start.  Resuming a fold from an earlier call's ``Lexed`` gives what
  the fold from scratch would: a streamed code block costs per line, not per block.  A fold can drop its
  final lines (``rebase``): what is left folds a later part of the code on as the whole's fold would, so a
  caller that keeps the final lines' results itself need not hand the code before them in again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pygments.lexer import DelegatingLexer, ExtendedRegexLexer, Lexer, RegexLexer
from pygments.token import Error, Text, Whitespace, _TokenType

__all__ = [
    "CHUNK",
    "MAX_LINE",
    "Budget",
    "Lexed",
    "Line",
    "Token",
    "lex_fold",
    "reachable",
    "rebase",
    "restart",
    "start",
]

MAX_LINE = 1000  # characters: a longer line is plain (lexers are quadratic or worse on one line)
CHUNK = 64  # lines: a lexer without a state stack we can keep is lexed in chunks this long
_WINDOW = 32  # lines: a token spanning more (an unclosed comment) no longer holds the checkpoint back

Token = tuple[_TokenType, str]
Line = tuple[Token, ...]
R = TypeVar("R")

# Pygments 2.20's lexers that replace get_tokens_unprocessed, each run through an adversarial survey (short
# hostile inputs, 2,000-character lines): they yield their tokens as they go (most filter Pygments' regex
# loop) or, the console lexers, after one linear pass over the chunk.  Not here: TNTLexer (builds its
# whole token list before returning, and loops forever on "("), LilyPondLexer (one token can take 0.2 s on
# a 900-character line), RawTokenLexer.  A lexer a later Pygments adds with a loop of its own is unreachable
# until it is vetted here.
_VETTED = frozenset(
    """
    ArduinoLexer AspectJLexer AsymptoteLexer BashSessionLexer CLexer CharmciLexer CommonLispLexer CppLexer
    CryptolLexer CudaLexer DelphiLexer DylanConsoleLexer DylanLexer ECLexer ElixirConsoleLexer ElixirLexer
    EmacsLispLexer ErbLexer ErlangShellLexer FreeFemLexer GAPConsoleLexer GosuTemplateLexer HttpLexer
    Inform6Lexer Inform6TemplateLexer JsonLdLexer JsonLexer JuliaConsoleLexer LassoLexer
    LiterateAgdaLexer LiterateCryptolLexer LiterateHaskellLexer LiterateIdrisLexer LogosLexer LuaLexer LuauLexer
    MSDOSSessionLexer MakefileLexer MatlabSessionLexer Modula2Lexer MoonScriptLexer MqlLexer NesCLexer
    NodeConsoleLexer NumPyLexer ObjectiveCLexer ObjectiveCppLexer OmgIdlLexer OutputLexer PhpLexer PikeLexer
    PlPgsqlLexer PortugolLexer PostgresConsoleLexer PostgresLexer PowerShellSessionLexer PromelaLexer
    PsyshConsoleLexer RConsoleLexer RobotFrameworkLexer RubyConsoleLexer SchemeLexer ShenLexer SlurmBashLexer
    SnowballLexer SourcePawnLexer SqliteConsoleLexer SwiftLexer SwigLexer Tads3Lexer TcshSessionLexer TextLexer
    TypstLexer VimLexer XsltLexer YamlLexer
    """.split()  # noqa: SIM905 - a list of names, read as one
)


def reachable(lexer: Lexer) -> bool:
    """Whether untrusted text may run ``lexer``: the budget can stop it between any two tokens."""
    if isinstance(lexer, DelegatingLexer):
        return reachable(lexer.root_lexer) and reachable(lexer.language_lexer)
    own = type(lexer).get_tokens_unprocessed
    if own in (RegexLexer.get_tokens_unprocessed, ExtendedRegexLexer.get_tokens_unprocessed):
        return True
    return type(lexer).__name__ in _VETTED and type(lexer).__module__.startswith("pygments.lexers")


@dataclass(frozen=True, slots=True)
class Budget:
    """What one call may spend lexing: wall time (a guard, not a figure any normal code reaches)."""

    seconds: float = 0.05


class _Exceeded(Exception):
    """The budget ran out: the rest is plain."""


def _pulled(tokens: Iterator[tuple[int, _TokenType, str]], size: int, deadline: float) -> Iterator[Token]:
    # Two tokens a character are more than any lexer needs (a non-empty token takes one at least); a lexer
    # yielding empty tokens at one place (mcschema on "<!--") stops here instead of filling memory.
    allowed = 2 * size + 64
    for count, (_, ttype, value) in enumerate(tokens):
        if count > allowed or time.perf_counter() > deadline:
            raise _Exceeded
        yield ttype, value


def _regex_tokens(
    lexer: RegexLexer, text: str, pos: int, stack: list[str], starts: dict[int, tuple[str, ...]]
) -> Iterator[tuple[int, _TokenType, str]]:
    """Pygments' ``RegexLexer`` loop (2.20) from ``pos`` with ``stack``, noting the stack at each line start."""
    tokendefs: dict[str, list[Any]] = getattr(lexer, "_tokens")  # noqa: B009 - compiled per class by Pygments
    statetokens = tokendefs[stack[-1]]
    end = len(text)
    while True:
        if pos == 0 or text[pos - 1] == "\n":
            starts[pos] = tuple(stack)
        for rexmatch, action, new_state in statetokens:
            m = rexmatch(text, pos)
            if not m:
                continue
            if action is not None:
                if type(action) is _TokenType:
                    yield pos, action, m.group()
                else:
                    yield from action(lexer, m)
            pos = m.end()
            if new_state is not None:
                _transition(stack, new_state)
                statetokens = tokendefs[stack[-1]]
            break
        else:
            if pos >= end:
                return
            if text[pos] == "\n":  # at a line end Pygments resets the state to "root"
                stack[:] = ["root"]
                statetokens = tokendefs["root"]
                yield pos, Whitespace, "\n"
            else:
                yield pos, Error, text[pos]
            pos += 1


def _transition(stack: list[str], new_state: object) -> None:
    if isinstance(new_state, tuple):
        for state in new_state:
            if state == "#pop":
                if len(stack) > 1:
                    stack.pop()
            elif state == "#push":
                stack.append(stack[-1])
            else:
                stack.append(state)
    elif isinstance(new_state, int):
        if abs(new_state) >= len(stack):
            del stack[1:]
        else:
            del stack[new_state:]
    elif new_state == "#push":
        stack.append(stack[-1])


class _Lost(Exception):
    """A lexer dropped or added a character: its lines are shown plain."""


def _split(tokens: Iterator[Token], count: int) -> list[Line]:
    """A token stream as ``count`` lines of tokens (newlines dropped)."""
    out: list[list[Token]] = [[]]
    for ttype, value in tokens:
        if "\n" not in value:
            if value:
                out[-1].append((ttype, value))
            continue
        for index, part in enumerate(value.split("\n")):
            if index:
                out.append([])
            if part:
                out[-1].append((ttype, part))
    if len(out) != count:
        raise _Lost
    return [tuple(line) for line in out]


def _plain(line: str) -> Line:
    return ((Text, line),) if line else ()


def _stacked(lexer: Lexer) -> bool:
    """Whether our copy of Pygments' loop runs ``lexer`` (its state stack can be kept at a line start)."""
    return isinstance(lexer, RegexLexer) and type(lexer).get_tokens_unprocessed is RegexLexer.get_tokens_unprocessed


def _lex(
    lexer: Lexer, lines: list[str], stack: tuple[str, ...] | None, deadline: float, newline: bool
) -> tuple[list[Line], dict[int, tuple[str, ...]]]:
    """``lines`` lexed as one text (``newline``: ending in one); the stacks at line starts a token began at."""
    text = "\n".join(lines) + ("\n" if newline else "")
    offsets: dict[int, tuple[str, ...]] = {}
    if stack is not None and _stacked(lexer):
        assert isinstance(lexer, RegexLexer)
        raw = _regex_tokens(lexer, text, 0, list(stack), offsets)
    else:
        raw = _noted(iter(lexer.get_tokens_unprocessed(text)), text, offsets)
    try:
        found = _split(_pulled(raw, len(text), deadline), len(lines) + (1 if newline else 0))
        # A lexer's characters must be the text's: the lines' texts must join back to it.
        if any("".join(value for _, value in line) != source for line, source in zip(found, lines, strict=False)):
            raise _Lost
    except _Lost:
        found = [_plain(line) for line in lines]
    starts: dict[int, tuple[str, ...]] = {}
    offset = 0
    for index, line in enumerate(lines):
        if offset in offsets:
            starts[index] = offsets[offset]
        offset += len(line) + 1
    return found[: len(lines)], starts


@dataclass(frozen=True, slots=True)
class Lexed(Generic[R]):
    """A fold over a code text's complete lines: the final lines (painted) and where lexing resumes.

    ``final`` is shared with the fold that continues this one (append-only; ``count`` is this fold's
    length, a continuation from an older fold copies it first), so continuing costs the new lines only.
    """

    text: str  # the lines folded so far, each with its newline
    final: list[R]
    count: int
    pending: tuple[str, ...]  # the lines after the final ones: lexed again with the next line
    stack: tuple[str, ...] | None  # Pygments' state stack where ``pending`` starts (None: a chunk lexer's)
    plain: bool  # the budget ran out: every line from ``count`` on is plain


def start(lexer: Lexer) -> Lexed[Any]:
    """The fold of no text."""
    return Lexed("", [], 0, (), ("root",) if _stacked(lexer) else None, False)


def rebase(fold: Lexed[R], lines: int) -> Lexed[R]:
    """``fold`` without its first ``lines`` final lines (``lines <= fold.count``): the fold of the text after them.

    Lexing resumes from the pending lines and the stack, never from the final lines, so folding on from the result
    gives the lines after them exactly as folding on from ``fold`` does: a streamed block's final lines are the
    caller's, and what it hands in is the code from line ``lines`` on (issue 33, case 10).  Costs the lines kept.
    """
    assert 0 <= lines <= fold.count
    text, cut = fold.text, len(fold.text)
    for _ in range(fold.count - lines + len(fold.pending)):  # the kept lines are the text's last ones
        cut = text.rfind("\n", 0, cut - 1) + 1
    return Lexed(text[cut:], fold.final[lines : fold.count], fold.count - lines, fold.pending, fold.stack, fold.plain)


def restart(fold: Lexed[R]) -> Lexed[R]:
    """A fold of no text to lex on from, for a code that starts where ``fold``'s text does but no longer extends it
    (a replaced answer dropped a line ``fold`` had folded).  When ``fold`` holds no final lines its text is its
    pending lines, lexed again from their stack: the tokens from a line start a token began at come out as from
    scratch, though a line may settle at another line than it did; otherwise (final lines kept, a long line's)
    lexing restarts from the root state, as it does after a long line."""
    if fold.count:
        return Lexed("", [], 0, (), ("root",) if fold.stack is not None else None, fold.plain)
    return Lexed("", [], 0, (), fold.stack, fold.plain)


@dataclass(slots=True)
class _Step(Generic[R]):
    """A fold being continued by one call (mutable, local to ``lex_fold``)."""

    lexer: Lexer
    paint: Callable[[Line], R]
    final: list[R]
    work: list[str]  # the pending lines, then the new complete ones
    first: int  # work[first] is the first line not final
    stack: tuple[str, ...] | None
    plain: bool
    deadline: float

    def settle(self, upto: int, lines: list[Line]) -> None:
        self.final.extend(self.paint(line) for line in lines[: upto - self.first])
        self.first = upto

    def line(self, index: int) -> None:
        """Fold complete line ``work[index]``: the lines no later text can change become final."""
        if self.plain or len(self.work[index]) > MAX_LINE:
            if self.first < index and not self.plain:  # the lines before a long one end there
                self.settle(index, _lex(self.lexer, self.work[self.first : index], self.stack, self.deadline, True)[0])
            self.final.extend(self.paint(_plain(line)) for line in self.work[self.first : index + 1])
            self.first, self.stack = index + 1, ("root",) if self.stack is not None else None
            return
        if self.stack is None:  # a chunk lexer: a chunk is lexed once whole, from its first line
            if index + 1 - self.first >= CHUNK:
                lines, starts = _lex(self.lexer, self.work[self.first : index + 1], None, self.deadline, True)
                # It ends before the last line a token begins at (a comment is not cut), or at ``2 * CHUNK`` lines.
                at = max(offset for offset in starts if offset <= index - self.first)
                self.settle(self.first + (at if at and index + 1 - self.first < 2 * CHUNK else len(lines)), lines)
            return
        lines, starts = _lex(self.lexer, self.work[self.first : index + 1], self.stack, self.deadline, True)
        # The last line start a token began at, up to this line's: the token ending this line may go on.
        at = max(offset for offset in starts if offset <= index - self.first)
        stack = starts[at]
        if index - self.first - at >= _WINDOW:
            at, stack = index - self.first, ("root",)  # a token this long (an unclosed comment) ends here
        self.settle(self.first + at, lines)
        self.stack = stack


def lex_fold(
    lexer: Lexer, code: str, prior: Lexed[R], paint: Callable[[Line], R], budget: Budget
) -> tuple[Lexed[R], list[R]]:
    """``code``'s lines painted, lexed on from ``prior`` (the fold of a prefix), and the fold of its complete lines."""
    assert code.startswith(prior.text)
    head = code.rfind("\n") + 1
    final = prior.final if prior.count == len(prior.final) else prior.final[: prior.count]
    new = code[len(prior.text) : head].split("\n")[:-1] if head > len(prior.text) else []
    step = _Step(lexer, paint, final, [*prior.pending, *new], 0, prior.stack, prior.plain, 0.0)
    step.deadline = time.perf_counter() + budget.seconds
    try:
        for index in range(len(prior.pending), len(step.work)):
            step.line(index)
        folded = Lexed(code[:head], step.final, len(step.final), tuple(step.work[step.first :]), step.stack, step.plain)
        shown = [*step.work[step.first :], code[head:]]
        tail = [] if step.plain else _shown(lexer, shown, step.stack, step.deadline)
    except _Exceeded:
        step.final.extend(paint(_plain(line)) for line in step.work[step.first :])
        folded = Lexed(code[:head], step.final, len(step.final), (), step.stack, True)
        shown, tail = [code[head:]], []
    painted = [paint(line) for line in tail] + [paint(_plain(line)) for line in shown[len(tail) :]]
    return folded, [*folded.final[: folded.count], *painted]


def _shown(lexer: Lexer, lines: list[str], stack: tuple[str, ...] | None, deadline: float) -> list[Line]:
    """The lines not final yet, the partial last one included (plain when long: the others end before it)."""
    if len(lines[-1]) <= MAX_LINE:
        return _lex(lexer, lines, stack, deadline, False)[0]
    return _lex(lexer, lines[:-1], stack, deadline, True)[0] if len(lines) > 1 else []


def _noted(
    tokens: Iterator[tuple[int, _TokenType, str]], text: str, offsets: dict[int, tuple[str, ...]]
) -> Iterator[tuple[int, _TokenType, str]]:
    """``tokens``, noting the line starts a token begins at (with no stack: the lexer's own loop keeps it)."""
    for token in tokens:
        if token[0] == 0 or text[token[0] - 1] == "\n":
            offsets[token[0]] = ()
        yield token
