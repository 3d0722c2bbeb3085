"""``evolve``: ``dataclasses.replace`` for the frozen, slotted state dataclasses, at a fraction of the cost.

``dataclasses.replace`` looks up the fields and calls the keyword ``__init__``
on every call; the state is copied a few times per tick, and on a streaming
token that was a tenth of the tick.  ``evolve`` copies slot by slot instead,
with straight-line code made once per class and set of changed fields (what
``dataclasses`` itself does for ``__init__``), into a twin of the class that
then becomes the class (``_twin``).  It is only for frozen, slotted
dataclasses without ``__post_init__`` or ``init=False`` fields (``AppState``,
``LogState``), where both give equal results.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["copier", "evolve", "fast_init", "maker"]

T = TypeVar("T")

_Copier = Callable[[Any, dict[str, Any]], Any]

# One copier per class and tuple of changed names (a call site always passes the same names in the
# same order): a pure-function cache, bounded by the call sites.
_COPIERS: dict[tuple[type, tuple[str, ...]], _Copier] = {}


def _copier(cls: type, changed: tuple[str, ...]) -> _Copier:
    # A class compiled by mypyc (the optional compiled build, README "Performance") has no ``__slots__``
    # (so no twin) but a setter descriptor per field all the same, and its own ``__new__``.
    slots: tuple[str, ...] = tuple(cls.__dict__.get("__slots__") or [f.name for f in dataclasses.fields(cls)])
    unknown = sorted(set(changed) - set(slots))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    values = {name: f"changes[{name!r}]" for name in changed}
    scope: dict[str, Any] = {"cls": cls, "twin": _twin(cls)}
    if scope["twin"] is not None:
        lines = ["def copy(obj, changes):", *_twin_copy(slots, values, scope)]
    else:
        scope["_new"] = cls.__new__
        lines = ["def copy(obj, changes):", "    new = _new(cls)"]
        for index, name in enumerate(slots):
            lines.append(f"    _set{index}(new, {values.get(name, f'obj.{name}')})")
            # The slot's own descriptor: what object.__setattr__ ends up calling, without the name lookup.
            scope[f"_set{index}"] = cls.__dict__[name].__set__
        lines.append("    return new")
    exec("\n".join(lines), scope)  # the source is made of the class's own slot names
    copier: _Copier = scope["copy"]
    _COPIERS[cls, changed] = copier
    return copier


def _twin_copy(slots: tuple[str, ...], values: dict[str, str], scope: dict[str, Any]) -> list[str]:
    """The body of a copy filled as a ``twin`` with plain stores, then made a ``cls`` (see ``_twin``): each slot
    from ``values`` (source text by name), else from ``obj``."""
    scope["_new"] = object.__new__
    lines = ["    new = _new(twin)", *(f"    new.{name} = {values.get(name, f'obj.{name}')}" for name in slots)]
    return [*lines, "    new.__class__ = cls", "    return new"]


_TWINS: dict[type, type | None] = {}


def _twin(cls: type) -> type | None:
    """A plain class with exactly ``cls``'s slots (None when ``cls`` is not a slotted class right on ``object``).

    A frozen dataclass refuses attribute stores, so a copy used to set each slot through a call to its
    descriptor (about 1,000 instructions a field; ``AppState`` has 21, copied twice in a status tick).
    An instance of the twin takes ordinary stores (specialized by the interpreter: a few dozen
    instructions each), and CPython allows assigning ``__class__`` between two classes whose instances
    have the same layout (the same slots on the same base), so the filled twin then *is* a ``cls``: the
    same object a ``cls`` constructor builds, frozen from then on.
    """
    if cls not in _TWINS:
        slots = cls.__dict__.get("__slots__")
        plain = cls.__bases__ == (object,) and isinstance(slots, tuple) and "__dict__" not in slots
        twin = type(f"_{cls.__name__}Twin", (), {"__slots__": slots}) if plain else None
        if twin is not None:
            probe: Any = object.__new__(twin)
            try:  # an interpreter or a compiled class that refuses the assignment keeps the descriptor calls
                probe.__class__ = cls
            except TypeError:
                twin = None
        _TWINS[cls] = twin
    return _TWINS[cls]


def copier(cls: type[T], *names: str) -> Callable[..., T]:
    """``evolve`` for one class and set of changed fields, made once: ``copy(obj, *values)`` (values in the
    order of ``names``), for a call site on every tick (no keyword dictionary and no lookup per call)."""
    changes = ", ".join(f"_v{index}" for index in range(len(names)))
    inner = _COPIERS.get((cls, names)) or _copier(cls, names)
    pairs = ", ".join(f"{name!r}: _v{index}" for index, name in enumerate(names))
    scope: dict[str, Any] = {"cls": cls, "twin": _twin(cls), "_inner": inner}
    if scope["twin"] is None:  # the dictionary the general copier reads
        exec(f"def copy(obj, {changes}):\n    return _inner(obj, {{{pairs}}})", scope)
    else:
        values = {name: f"_v{index}" for index, name in enumerate(names)}
        exec("\n".join([f"def copy(obj, {changes}):", *_twin_copy(cls.__dict__["__slots__"], values, scope)]), scope)
    result: Callable[..., T] = scope["copy"]
    return result


def maker(cls: type[T]) -> Callable[..., T]:
    """A function that builds a ``cls`` from all its fields, positionally, as ``cls(...)`` does (for a call site
    on every tick that passes every field).

    Calling the class runs ``type.__call__``, ``__new__`` and ``__init__`` (about 1,400 instructions for a
    ``Screen`` before its fields are set, more than setting them); this fills a twin (see ``_twin``) and
    makes it a ``cls``, as ``copier`` does.  A class without a twin (compiled by mypyc) gives ``cls`` itself.
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or any(not field.init for field in fields):
        raise TypeError(f"maker: {cls.__name__} has __post_init__ or init=False fields")
    twin = _twin(cls)
    if twin is None:
        return cls
    names = [field.name for field in fields]
    scope: dict[str, Any] = {"_new": object.__new__, "twin": twin, "cls": cls}
    body = ["    new = _new(twin)", *(f"    new.{name} = {name}" for name in names), "    new.__class__ = cls"]
    exec(
        f"def make({', '.join(names)}):\n" + "\n".join([*body, "    return new"]), scope
    )  # the class's own field names
    make: Callable[..., T] = scope["make"]
    make.__qualname__ = f"maker({cls.__qualname__})"
    return make


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with the fields in ``changes`` replaced (unknown names raise ``TypeError``)."""
    cls = type(obj)
    key = (cls, tuple(changes))
    copier = _COPIERS.get(key) or _copier(cls, key[1])
    result: T = copier(obj, changes)
    return result


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an equal ``__init__`` that sets its slots without ``object.__setattr__``.

    The generated ``__init__`` of a frozen dataclass calls ``object.__setattr__`` by name for every
    field; the per-tick objects (``Layout``, ``Frame``, ``Screen`` ...) are built every tick, where
    that was a tenth of a tick.  Each slot is set through its descriptor, or, from five fields on, by
    plain stores while the instance is its twin (see ``_twin``).  Same parameters and defaults; no
    ``__post_init__``, default factories or ``init=False`` fields (refused).
    """
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {}
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"fast_init: {cls.__name__} has __post_init__")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    # With a few fields or more, the instance becomes a twin for the stores and a ``cls`` again after them
    # (see _twin): two class changes cost about as much as three descriptor calls.
    twin = _twin(cls) if len(fields) >= 5 else None
    slow: list[str] = []  # the descriptor calls, for an instance of a subclass (its own layout)
    if twin is not None:
        # vars(object), not object.__dict__: mypyc 2.4 crashes on an attribute of object.__dict__ (the compiled build)
        scope.update(_set_class=vars(object)["__class__"].__set__, _twin_cls=twin, _cls=cls)
        body.append("    if type(self) is not _cls:")
        body.append("        return _slow(self, " + ", ".join(field.name for field in fields) + ")")
        body.append("    _set_class(self, _twin_cls)")
    for index, field in enumerate(fields):
        if not field.init or field.default_factory is not dataclasses.MISSING or field.kw_only:
            raise TypeError(f"fast_init: field {field.name!r} of {cls.__name__} is not a plain field")
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            params.append(f"{field.name}=_default{index}")
            scope[f"_default{index}"] = field.default
        scope[f"_set{index}"] = cls.__dict__[field.name].__set__
        slow.append(f"    _set{index}(self, {field.name})")
        if twin is not None:
            body.append(f"    self.{field.name} = {field.name}")
    if twin is not None:
        body.append("    self.__class__ = _cls")
        names = ", ".join(field.name for field in fields)
        exec(f"def _slow(self, {names}) -> None:\n" + "\n".join(slow), scope)
    else:
        body = slow
    exec(f"def __init__(self, {', '.join(params)}) -> None:\n" + "\n".join(body or ["    pass"]), scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    type.__setattr__(cls, "__init__", init)
    return cls
