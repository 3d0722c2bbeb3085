"""``evolve``: ``dataclasses.replace`` for the frozen, slotted state dataclasses, at a fraction of the cost.

``dataclasses.replace`` looks up the fields and calls the keyword ``__init__``
on every call; the state is copied a few times per tick, and on a streaming
token that was a tenth of the tick.  ``evolve`` copies slot by slot instead,
with straight-line code made once per class and set of changed fields (what
``dataclasses`` itself does for ``__init__``).  It is only for frozen, slotted
dataclasses without ``__post_init__`` or ``init=False`` fields (``AppState``,
``LogState``), where both give equal results.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["evolve", "fast_init"]

T = TypeVar("T")

_Copier = Callable[[Any, dict[str, Any]], Any]

# One copier per class and tuple of changed names (a call site always passes the same names in the
# same order): a pure-function cache, bounded by the call sites.
_COPIERS: dict[tuple[type, tuple[str, ...]], _Copier] = {}


def _copier(cls: type, changed: tuple[str, ...]) -> _Copier:
    # A class compiled by mypyc (the optional compiled build, README "Performance") has no ``__slots__``
    # but a setter descriptor per field all the same, and its own ``__new__``.
    slots: tuple[str, ...] = tuple(cls.__dict__.get("__slots__") or [f.name for f in dataclasses.fields(cls)])
    unknown = sorted(set(changed) - set(slots))
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {', '.join(unknown)}")
    lines = ["def copy(obj, changes):", "    new = _new(cls)"]
    scope: dict[str, Any] = {"_new": cls.__new__, "cls": cls}
    for index, name in enumerate(slots):
        value = f"changes[{name!r}]" if name in changed else f"obj.{name}"
        lines.append(f"    _set{index}(new, {value})")
        # The slot's own descriptor: what object.__setattr__ ends up calling, without the name lookup.
        scope[f"_set{index}"] = cls.__dict__[name].__set__
    lines.append("    return new")
    exec("\n".join(lines), scope)  # the source is made of the class's own slot names
    copier: _Copier = scope["copy"]
    _COPIERS[cls, changed] = copier
    return copier


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with the fields in ``changes`` replaced (unknown names raise ``TypeError``)."""
    cls = type(obj)
    key = (cls, tuple(changes))
    copier = _COPIERS.get(key) or _copier(cls, key[1])
    result: T = copier(obj, changes)
    return result


def fast_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an equal ``__init__`` that sets each slot through its descriptor.

    The generated ``__init__`` of a frozen dataclass calls ``object.__setattr__`` by name for every
    field; the per-tick objects (``Layout``, ``Frame``, ``Screen`` ...) are built every tick, where
    that was a tenth of a tick.  Same parameters and defaults; no ``__post_init__``, default
    factories or ``init=False`` fields (refused).
    """
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {}
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"fast_init: {cls.__name__} has __post_init__")
    for index, field in enumerate(dataclasses.fields(cls)):  # type: ignore[arg-type]
        if not field.init or field.default_factory is not dataclasses.MISSING or field.kw_only:
            raise TypeError(f"fast_init: field {field.name!r} of {cls.__name__} is not a plain field")
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            params.append(f"{field.name}=_default{index}")
            scope[f"_default{index}"] = field.default
        scope[f"_set{index}"] = cls.__dict__[field.name].__set__
        body.append(f"    _set{index}(self, {field.name})")
    exec(f"def __init__(self, {', '.join(params)}) -> None:\n" + "\n".join(body or ["    pass"]), scope)
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    type.__setattr__(cls, "__init__", init)
    return cls
