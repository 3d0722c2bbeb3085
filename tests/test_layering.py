"""The package's structure: no import circle, a shallow stack of subpackages, each stage in the module named after it.

The layering itself (which subpackage may import which) is import-linter's contracts in pyproject.toml, run by
.ci/run (``lint-imports``); these tests check what the contracts cannot say.  The import graph is grimp's, the
library import-linter reads it with: every import counts, those under ``if TYPE_CHECKING:`` and inside functions
too, since a circle there is still two modules that need each other.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import sys
import warnings
from pathlib import Path

import grimp
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "inline_render"


@functools.cache
def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("inline_render")


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _module_edges() -> dict[str, set[str]]:
    graph = _graph()
    return {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}


def _room(module: str) -> str:
    """A module's room in the package's plan: its subpackage, or itself at the top level."""
    return ".".join(module.split(".")[:2])


def test_the_circle_finder_finds_a_circle() -> None:
    """The finder reports a loop of three modules and a self-contained pair, and nothing on a chain."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()}
    assert sorted(_circles(edges)) == [["a", "b", "c"], ["d", "e"]]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_module_imports_another_back() -> None:
    """No import circle between modules, counting TYPE_CHECKING and function-level imports."""
    assert _circles(_module_edges()) == []


def test_subpackages_stack_at_most_ten_deep() -> None:
    """Seen as rooms (a subpackage is one), no room imports another back and the longest chain is at most ten."""
    rooms: dict[str, set[str]] = {}
    for module, imported in _module_edges().items():
        here = _room(module)
        rooms.setdefault(here, set()).update(_room(m) for m in imported if _room(m) not in (here, "inline_render"))
    assert _circles(rooms) == []

    @functools.cache
    def depth(room: str) -> int:
        return 1 + max((depth(below) for below in rooms.get(room, ())), default=0)

    deepest = max(rooms, key=depth)
    assert depth(deepest) <= 10, deepest


def test_each_stage_is_in_the_module_named_after_it() -> None:
    """reduce_inputs, compute_layout, draw_frame and apply_terminal_effects are defined in core/<stage>.py."""
    stages = {
        "reduce_inputs": "reduce",
        "compute_layout": "layout",
        "draw_frame": "frame",
        "apply_terminal_effects": "effects",
    }
    for function, module in stages.items():
        tree = ast.parse((PACKAGE / "core" / f"{module}.py").read_text(encoding="utf-8"))
        defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert function in defined, f"{function} is not defined in core/{module}.py"


def test_every_module_says_what_it_exports() -> None:
    """Every module of the package but the package faces without names of their own has an explicit ``__all__``."""
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {
            target.id
            for node in tree.body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)
        }
        defines = any(isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) for node in tree.body)
        if defines and "__all__" not in names and path.name != "_build_mypyc.py":
            missing.append(str(path.relative_to(PACKAGE)))
    assert missing == []


@pytest.mark.parametrize(("old", "new"), [("effects", "core.effects"), ("slash", "commands.registry")])
def test_an_old_module_path_warns_and_is_the_same_module(old: str, new: str) -> None:
    """``import inline_render.<old>`` (before the subpackages) warns and binds the module at its new path."""
    from inline_render import _compat

    assert _compat.MOVED[old] == new
    moved = importlib.import_module(f"inline_render.{new}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sys.modules.pop(f"inline_render.{old}", None)
        module = importlib.import_module(f"inline_render.{old}")
    assert module is moved
    assert any(issubclass(w.category, DeprecationWarning) and f"inline_render.{new}" in str(w.message) for w in caught)


def test_every_old_module_path_still_imports() -> None:
    """Each old path in ``_compat.MOVED`` names a module that exists at its new path."""
    from inline_render import _compat

    for new in _compat.MOVED.values():
        assert importlib.util.find_spec(f"inline_render.{new}") is not None, new


@pytest.mark.parametrize(
    ("package", "name", "new"),
    [
        ("inline_render.bench", "main", "inline_render.bench.cli"),
        ("inline_render.protocol.lemon", "decode_lemon_line", "inline_render.protocol.lemon.codec"),
        ("inline_render.demo", "Demo", "inline_render.demo.scripted"),
    ],
)
def test_an_old_module_that_became_a_package_hands_on_its_names(package: str, name: str, new: str) -> None:
    """``inline_render.bench.main`` (a module's name before it became a package) warns and is the moved object;
    a name the old module never had is an AttributeError, and introspection loads nothing."""
    face = importlib.import_module(package)
    with pytest.warns(DeprecationWarning, match=new):
        found = getattr(face, name)
    assert found is getattr(importlib.import_module(new), name)
    with pytest.raises(AttributeError):
        face.no_such_name  # noqa: B018
    assert not hasattr(face, "__wrapped__")
