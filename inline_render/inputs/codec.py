"""The JSON object forms of the inputs (``model``) and the validation of their fields.

``input_from_json`` validates an object and names the offending field in an
``InvalidInput`` error; ``input_to_json`` is its exact inverse (fields at their
default value are omitted, so a round trip is stable).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..errors import InvalidInput
from .model import (
    FIELD_KINDS,
    INPUT_TYPES,
    LOG_KINDS,
    MAX_TERMINAL_SIDE,
    NOTIFY_TYPES,
    FormField,
    Input,
    PickOption,
    check_terminal_size,
)

__all__ = ["MAX_INT", "input_from_json", "input_to_json"]


MAX_INT = 2**63 - 1  # integer fields (byte counts) beyond this are errors, not arbitrary-precision numbers


# Value checks beyond the field's type, as data: (type, field) -> (predicate, what it must be).
_CHECKS: dict[tuple[str, str], tuple[Any, str]] = {
    ("resize", "columns"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "rows"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "cursor_row"): (lambda v: v is None or 0 <= v < MAX_TERMINAL_SIDE, "a row >= 0"),
    ("resize", "in_flight_frames"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
    ("resize", "in_flight_columns"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "in_flight_rows"): (lambda v: 1 <= v <= MAX_TERMINAL_SIDE, f"between 1 and {MAX_TERMINAL_SIDE}"),
    ("resize", "cursor_column"): (lambda v: v is None or 0 <= v < MAX_TERMINAL_SIDE, "a column >= 0"),
    ("key", "key"): (lambda v: v != "", "a non-empty key name"),
    ("log.append", "kind"): (lambda v: v in LOG_KINDS, f"one of {', '.join(LOG_KINDS)}"),
    ("notify", "notify_type"): (lambda v: v in NOTIFY_TYPES, f"one of {', '.join(NOTIFY_TYPES)}"),
    ("clock", "now"): (lambda v: math.isfinite(v) and v >= 0, "a finite number >= 0"),
    ("fault", "after_bytes"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
    ("completions", "cursor"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
    ("completions", "replace"): (lambda v: 0 <= v <= MAX_INT, f"between 0 and {MAX_INT}"),
}


def _check_type(where: str, name: str, value: Any, annotation: str) -> Any:
    """Validate one JSON value against a field annotation (as written in ``model``)."""
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    if value is None:
        if optional:
            return None
        raise InvalidInput(f"{where}: field '{name}' must be {base}, got null")
    if base == "str":
        if isinstance(value, str):
            return value
    elif base == "bool":
        if isinstance(value, bool):
            return value
    elif base == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif base == "float":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:  # an integer beyond any float (JSON allows 10**400)
                raise InvalidInput(
                    f"{where}: field '{name}' must be a finite number, got an integer too large for one"
                ) from None
    elif base == "tuple[str, ...]":
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return tuple(value)
        raise InvalidInput(f"{where}: field '{name}' must be a list of strings")
    elif base == "tuple[PickOption, ...]":
        if isinstance(value, list):
            return tuple(_pick_option(f"{where}: field '{name}'[{i}]", item) for i, item in enumerate(value))
    elif base == "tuple[FormField, ...]":
        if isinstance(value, list):
            return tuple(_form_field(f"{where}: field '{name}'[{i}]", item) for i, item in enumerate(value))
    else:  # pragma: no cover - a new annotation without a checker is a programming error
        raise AssertionError(f"no JSON checker for annotation {annotation!r}")
    raise InvalidInput(f"{where}: field '{name}' must be {base}, got {type(value).__name__}")


def _form_field(where: str, item: Any) -> FormField:
    """A form field from seed 003's ``ManualToolField`` JSON: ``name``, ``type``, ``description``, ..."""
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be an object, got {type(item).__name__}")
    unknown = sorted(set(item) - {"name", "type", "description", "required", "default", "options"})
    if unknown:
        raise InvalidInput(f"{where}: unknown field {unknown[0]!r}")
    name, kind = item.get("name"), item.get("type", "text")
    description, required = item.get("description", ""), item.get("required", False)
    default, options = item.get("default"), item.get("options", [])
    if not isinstance(name, str) or not name:
        raise InvalidInput(f"{where}: 'name' must be a non-empty string")
    if kind not in FIELD_KINDS:
        raise InvalidInput(f"{where}: 'type' must be one of {', '.join(FIELD_KINDS)}, got {kind!r}")
    if not isinstance(description, str) or not isinstance(required, bool):
        raise InvalidInput(f"{where}: 'description' must be a string and 'required' a boolean")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise InvalidInput(f"{where}: 'options' must be a list of strings")
    if default is not None and (not isinstance(default, (str, int, float, bool)) or _huge(default)):
        raise InvalidInput(f"{where}: 'default' must be a string, a finite number or a boolean")
    if isinstance(default, int) and not isinstance(default, bool):
        default = float(default)
    return FormField(name, kind, description, required, default, tuple(options))


def _huge(value: Any) -> bool:
    """A number no float holds (JSON allows 10**400) or not finite."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return not math.isfinite(float(value))
    except OverflowError:
        return True


def _pick_option(where: str, item: Any) -> PickOption:
    if isinstance(item, str):
        return PickOption(id=item, label=item)
    if not isinstance(item, dict):
        raise InvalidInput(f"{where} must be a string or an object, got {type(item).__name__}")
    label = item.get("label", item.get("id"))
    ident = item.get("id", label)
    description = item.get("description", "")
    if not isinstance(ident, str) or not isinstance(label, str) or not isinstance(description, str):
        raise InvalidInput(f"{where}: 'id', 'label' and 'description' must be strings")
    return PickOption(id=ident, label=label, description=description)


def input_from_json(obj: Any, where: str = "input") -> Input:
    """Build the typed input of a JSON object; raise ``InvalidInput`` naming the bad field."""
    if not isinstance(obj, dict):
        raise InvalidInput(f"{where}: must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise InvalidInput(f"{where}: field 'type' must be a string")
    cls = INPUT_TYPES.get(kind)
    if cls is None:
        raise InvalidInput(f"{where}: unknown input type {kind!r}")
    where = f"{where} ({kind})"
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(obj) - set(fields) - {"type"})
    if unknown:
        raise InvalidInput(f"{where}: unknown field {unknown[0]!r}")
    values: dict[str, Any] = {}
    for name, field in fields.items():
        if name not in obj:
            if field.default is dataclasses.MISSING:
                raise InvalidInput(f"{where}: missing field '{name}'")
            continue
        value = _check_type(where, name, obj[name], str(field.type))
        check = _CHECKS.get((kind, name))
        if check is not None and value is not None and not check[0](value):
            raise InvalidInput(f"{where}: field '{name}' must be {check[1]}, got {obj[name]!r}")
        values[name] = value
    if kind == "resize":
        check_terminal_size(values["columns"], values["rows"], where)
    if kind == "log.append" and values.get("final") is False and values.get("id") is None:
        raise InvalidInput(f"{where}: a streaming entry (final=false) needs field 'id'")
    result: Input = cls(**values)
    return result


def input_to_json(value: Input) -> dict[str, Any]:
    """The JSON object form of an input (fields at their default are omitted)."""
    out: dict[str, Any] = {"type": value.TYPE}
    for field in dataclasses.fields(value):
        item = getattr(value, field.name)
        if field.default is not dataclasses.MISSING and item == field.default:
            continue
        if isinstance(item, tuple):
            item = [o if isinstance(o, str) else _item_json(o) for o in item]
        out[field.name] = item
    return out


def _item_json(item: PickOption | FormField) -> dict[str, Any]:
    if isinstance(item, PickOption):
        return _option_json(item)
    data: dict[str, Any] = {"name": item.name}
    if item.kind != "text":
        data["type"] = item.kind
    if item.description:
        data["description"] = item.description
    if item.required:
        data["required"] = True
    if item.default is not None:
        data["default"] = item.default
    if item.options:
        data["options"] = list(item.options)
    return data


def _option_json(option: PickOption) -> dict[str, str]:
    data = {"id": option.id, "label": option.label}
    if option.description:
        data["description"] = option.description
    return data
