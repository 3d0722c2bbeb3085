"""JSON conversion of the protocol dataclasses, driven by their field annotations.

``from_json`` validates an object, names the offending field in an
``InvalidInput``, and keeps unknown members in ``extra``; ``to_json`` omits
members at their default and writes ``extra`` back.  A ``null`` for a member
that has a default means "absent": JavaScript runtimes often send ``null``
where they mean ``undefined``.  Annotations are read as written (strings), so
every annotation used by a protocol dataclass has a converter in
``CONVERTERS`` or names another ``JsonObject`` class.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Callable
from typing import Any, Self

from ..errors import InvalidInput

__all__ = ["CONVERTERS", "JsonObject"]

_CLASSES: dict[str, type[Any]] = {}  # every JsonObject class by name, for nested fields


class JsonObject:
    """Mixin of the protocol dataclasses: JSON conversion driven by the field annotations."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _CLASSES[cls.__name__] = cls  # the slotted class made by @dataclass replaces the first one

    @classmethod
    def from_json(cls, obj: Any, where: str | None = None) -> Self:
        """Validate a JSON object; unknown members go to ``extra``; raise ``InvalidInput``."""
        result: Self = _from_json(cls, obj, where or cls.__name__)
        return result

    def to_json(self) -> dict[str, Any]:
        """The JSON object (members at their default are omitted, ``extra`` is kept)."""
        return _to_json(self)


def _scalar(what: str, accepts: Callable[[Any], bool], cast: Callable[[Any], Any] = lambda v: v) -> Any:
    def convert(where: str, value: Any) -> Any:
        if not accepts(value):
            raise InvalidInput(f"{where} must be {what}, got {type(value).__name__}")
        return cast(value)

    return convert


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


CONVERTERS: dict[str, Callable[[str, Any], Any]] = {
    "str": _scalar("a string", lambda v: isinstance(v, str)),
    "bool": _scalar("a boolean", lambda v: isinstance(v, bool)),
    "int": _scalar("an integer", _is_int),
    # abs(v) <= float max, not math.isfinite: an integer no float holds (JSON allows 10**400) overflows isfinite.
    "float": _scalar(
        "a finite number",
        lambda v: (isinstance(v, float) and math.isfinite(v)) or (_is_int(v) and abs(v) <= sys.float_info.max),
        float,
    ),
    "int | str": _scalar("an integer or a string", lambda v: _is_int(v) or isinstance(v, str)),
    "dict[str, Any]": _scalar("an object", lambda v: isinstance(v, dict)),
    "tuple[str, ...]": _scalar(
        "an array of strings", lambda v: isinstance(v, list) and all(isinstance(i, str) for i in v), tuple
    ),
}


def _converter(name: str) -> Callable[[str, Any], Any]:
    converter = CONVERTERS.get(name)
    if converter is not None:
        return converter
    if name.startswith("tuple[") and name.endswith(", ...]"):  # an array of protocol objects
        item = _converter(name[len("tuple[") : -len(", ...]")])

        def array(where: str, value: Any) -> tuple[Any, ...]:
            if not isinstance(value, list):
                raise InvalidInput(f"{where} must be an array, got {type(value).__name__}")
            return tuple(item(f"{where}[{n}]", v) for n, v in enumerate(value))

        return array
    nested = _CLASSES[name]  # a field typed with another protocol dataclass
    return lambda where, value: nested.from_json(value, where)


def _from_json(cls: type[Any], obj: Any, where: str) -> Any:
    if not isinstance(obj, dict):
        raise InvalidInput(f"{where}: must be an object, got {type(obj).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls) if f.name != "extra"}
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in obj.items():
        spec = fields.get(key)
        if spec is None:
            extra[key] = value
            continue
        annotation = str(spec.type)
        if value is None:
            if annotation.endswith(" | None"):
                values[key] = None
            elif spec.default is dataclasses.MISSING and annotation != "Any":
                raise InvalidInput(f"{where}: field '{key}' must not be null")
            continue  # otherwise null means absent: the default
        base = annotation.removesuffix(" | None")
        values[key] = value if base == "Any" else _converter(base)(f"{where}: field '{key}'", value)
    for name, spec in fields.items():
        if name not in values and spec.default is dataclasses.MISSING and str(spec.type) != "Any":
            raise InvalidInput(f"{where}: missing field '{name}'")
    return cls(**values, extra=extra)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "to_json"):  # protocol dataclasses, unknown events
        return value.to_json()
    if isinstance(value, tuple):
        return [_jsonable(item) for item in value]
    return value


def _to_json(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kind = getattr(type(obj), "TYPE", None)
    if kind is not None:
        out["type"] = kind
    out.update(obj.extra)
    for spec in dataclasses.fields(obj):
        if spec.name == "extra":
            continue
        value = getattr(obj, spec.name)
        if spec.default is not dataclasses.MISSING and value == spec.default:
            continue
        out[spec.name] = _jsonable(value)
    if kind is not None:
        out["type"] = kind
    return out
