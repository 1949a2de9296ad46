"""The bundle format as its models define it, for docs/bundle-format.md: every model under ``Bundle``
(schema/models.py) as a section at its place in the file, and every field of it with its type in words,
whether it is required, its description, what schema/fields.yaml publishes it as and the values the
bundles in data/ give it."""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, Union

import annotated_types
import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from schema import models as m

from ..bundles.fields import Field as Published, fields as published_fields
from ..bundles.yamlfile import load_yaml

ITEM = "[]"  # a step into each item of a list
_CHARACTERS = {"\t": "a tab", "\r": "a carriage return"}
_FORMULA_LEADING = ", ".join(_CHARACTERS.get(c, c) for c in m.CSV_CELLS["formula_leading"])
# The types of schema/models.py that have a name, in words; their rules are the models' own.
NAMED: list[tuple[Any, str]] = [
    (m.Id, "an id: a-z, 0-9 and -, from 1 to 80 characters, not beginning with -"),
    (m.Label, f"text, a label: not beginning with {_FORMULA_LEADING} (a spreadsheet would read a formula)"),
    (m.Text, "text"),
    (m.Key, "text (a key)"),
    (m.Setting, "text, a number, or true or false, as the source states it"),
    (m.PartialDate, "a date: YYYY, YYYY-MM or YYYY-MM-DD, of the calendar"),
    (m.Timestamp, "a time, ISO 8601 (e.g. 2023-05-01T12:00:00+00:00)"),
    (m.Language, "a language tag (e.g. en, zh, pt-BR)"),
    (m.Url, "a URL: http:// or https://, no spaces"),
    (m.Metric, "a metric: one of those under Metrics below"),
]
_PLAIN = {str: "text", int: "whole number", float: "number", bool: "true or false"}


@dataclass
class Row:
    """One field of a section."""

    path: tuple              # its place: keys, ITEM, and ("type", tag) for a member of the results union
    name: str
    hint: Any                # its annotation, Annotated metadata kept
    info: FieldInfo
    published: list[Published] = field(default_factory=list)
    examples: list[Any] = field(default_factory=list)


@dataclass
class Section:
    """One model at its place in a bundle (and the other places it is used at)."""

    path: tuple
    model: type[BaseModel]
    also: list[tuple] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)


def shown(path: tuple) -> str:
    """A place as the pages write it: ``systems[].raid.level``."""
    out = ""
    for step in path:
        if step == ITEM:
            out += ITEM
        elif isinstance(step, str):
            out += ("." if out else "") + step
    return out


def tag(path: tuple) -> str | None:
    """The results member a place is in (``table``, ``artifact``, ``derived``), if any."""
    return next((step[1] for step in path if isinstance(step, tuple)), None)


def _hints(model: type[BaseModel]) -> dict[str, Any]:
    return typing.get_type_hints(model, include_extras=True)


def without_none(hint: Any) -> Any:
    if typing.get_origin(hint) in (Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) < len(typing.get_args(hint)):
            return rest[0] if len(rest) == 1 else Union[tuple(rest)]
    return hint


def members(hint: Any) -> list[type[BaseModel]]:
    """The models of a discriminated union (Result), in order."""
    if typing.get_origin(hint) is Annotated:
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) in (Union, types.UnionType):
        args = typing.get_args(hint)
        if all(isinstance(a, type) and issubclass(a, BaseModel) for a in args):
            return list(args)
    return []


def member_tag(model: type[BaseModel]) -> str:
    return typing.get_args(model.model_fields["type"].annotation)[0]


def _children(hint: Any, path: tuple) -> list[tuple[type[BaseModel], tuple]]:
    """The models a field holds, each with its place."""
    hint = without_none(hint)
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        union = members(item)
        if union:
            return [(model, path + (ITEM, ("type", member_tag(model)))) for model in union]
        hint, path = without_none(item), path + (ITEM,)
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return [(hint, path)]
    return []


def _depth(path: tuple) -> int:
    return sum(isinstance(step, str) and step != ITEM for step in path)


def sections() -> list[Section]:
    """Every model under Bundle, depth first in the order of the fields. A model used at several places
    (Host, Provenance) is one section, at the place nearest the top (the first of those), with the others
    in ``also``."""
    places: dict[type, list[tuple]] = {}

    def find(model: type[BaseModel], path: tuple) -> None:
        places.setdefault(model, []).append(path)
        if len(places[model]) == 1:
            for name, hint in _hints(model).items():
                for child, child_path in _children(hint, path + (name,)):
                    find(child, child_path)

    find(m.Bundle, ())
    home = {model: min(found, key=_depth) for model, found in places.items()}  # min keeps the first of a tie
    out: list[Section] = []

    def visit(model: type[BaseModel], path: tuple) -> None:
        if path != home[model]:
            return
        section = Section(path=path, model=model, also=[p for p in places[model] if p != path])
        out.append(section)
        for name, hint in _hints(model).items():
            section.rows.append(Row(path=path + (name,), name=name, hint=hint, info=model.model_fields[name]))
            for child, child_path in _children(hint, path + (name,)):
                visit(child, child_path)

    visit(m.Bundle, ())
    return out


def where(model: type[BaseModel], all_sections: list[Section]) -> str:
    return shown(next(s.path for s in all_sections if s.model is model)) or "the top level"


def _bounds(metadata: list) -> str:
    """A number's bounds in words: "from 1 to 2147483647", ">= 0", "> 0"."""
    found = {kind: getattr(item, name) for item in metadata
             for kind, name in ((">=", "ge"), (">", "gt"), ("<=", "le"), ("<", "lt"))
             if isinstance(item, getattr(annotated_types, name.capitalize()))}
    if ">=" in found and "<=" in found:
        return f"from {found['>=']} to {found['<=']}"
    return " and ".join(f"{sign} {value}" for sign, value in found.items())


def words(hint: Any, all_sections: list[Section]) -> str:
    """A field's type in words: "whole number from 1 to 2147483647", 'one of "0", "1", ...'."""
    hint = without_none(hint)
    for alias, said in NAMED:
        if hint == alias:
            return said
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    union = members(hint)
    if union:
        return " or ".join(f"a mapping of type {member_tag(k)}" for k in union)
    if origin is Annotated:
        base, *extra = args
        metadata = [x for item in extra for x in (item.metadata if isinstance(item, FieldInfo) else [item])]
        bounds = _bounds(metadata)
        return words(base, all_sections) + (f" {bounds}" if bounds else "")
    if origin is Literal:
        quoted = [f'"{a}"' if isinstance(a, str) else str(a) for a in args]
        return f"exactly {quoted[0]}" if len(quoted) == 1 else "one of " + ", ".join(quoted)
    if origin is list:
        (item,) = args
        inner = members(item) or [without_none(item)]
        if isinstance(inner[0], type) and issubclass(inner[0], BaseModel):
            return "a list of mappings: " + ("see below" if members(item) else f"see `{where(inner[0], all_sections)}`")
        return f"a list, each: {words(item, all_sections)}"
    if origin is dict:
        key, value = args
        value_words = "anything" if value is Any else words(value, all_sections)
        return f"a mapping, each key {words(key, all_sections)}, each value {value_words}"
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return f"a mapping: see `{where(hint, all_sections)}`"
    if hint in _PLAIN:
        return _PLAIN[hint]
    raise TypeError(f"no words for the type {hint!r}: add them to ingest/contribute/reference_fields.py")


def needed(info: FieldInfo) -> str:
    """Required, or optional with its default, in words."""
    least = next((x.min_length for x in info.metadata if isinstance(x, annotated_types.MinLen)), None)
    if info.is_required():
        return "required" + (f", at least {least}" if least else "")
    default = info.default
    if default is None:
        return "optional"
    if default in ([], {}) or (isinstance(default, BaseModel) and not default.model_dump(exclude_none=True)):
        return "optional, empty when not given"
    return f"optional, default `{flow(default)}`"


def flow(value: Any) -> str:
    """A value as YAML writes it on one line."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**6, sort_keys=False)
    return text.strip().removesuffix("...").strip()


def short(value: Any, *, longest: int = 50, items: int = 3) -> Any:
    """A value shortened to show: long text cut, the first items of a list or mapping, a mapping inside a
    mapping as "…"."""
    if isinstance(value, str):
        return value if len(value) <= longest else value[: longest - 1].rstrip() + "…"
    if isinstance(value, list):
        return [short(v, longest=longest) for v in value[:items]] + (["…"] if len(value) > items else [])
    if isinstance(value, dict):
        shown_items = {k: "…" if isinstance(v, (dict, list)) else short(v, longest=longest)
                       for k, v in list(value.items())[:items]}
        return shown_items | ({"…": "…"} if len(value) > items else {})
    return value


# --- the values the bundles in data/ give -----------------------------------------------------------


def values_at(data: Any, path: tuple) -> list[Any]:
    """Every value at a place of a bundle's data (each list item, the matching union members)."""
    if not path:
        return [data]
    step, rest = path[0], path[1:]
    if step == ITEM:
        if not isinstance(data, list):
            return []
        if rest and isinstance(rest[0], tuple):
            items, rest = [d for d in data if isinstance(d, dict) and d.get("type") == rest[0][1]], rest[1:]
        else:
            items = data
        return [v for item in items for v in values_at(item, rest)]
    if isinstance(data, dict) and step in data:
        return values_at(data[step], rest)
    return []


def bundles(data_dir: Path) -> list[Any]:
    """The data of every bundle in ``data_dir``, in the order of their folders."""
    return [load_yaml(file).data for file in sorted(data_dir.glob("*/bundle.yaml"))]


def examples(places: list[tuple], data: list[Any], *, most: int = 3) -> list[Any]:
    """Up to ``most`` different values the bundles give the field, at any of its places."""
    found: list[Any] = []
    for bundle in data:
        for place in places:
            for value in values_at(bundle, place):
                if value not in found:
                    found.append(value)
    return found[:most]


def published_at() -> dict[str, list[Published]]:
    """The fields of schema/fields.yaml by the place a bundle states them ("workloads[].tool and .test":
    both)."""
    out: dict[str, list[Published]] = {}
    for entry in published_fields():
        if entry.bundle is None:
            continue
        first, *more = entry.bundle.split(" and .")
        for place in [first] + [first.rsplit(".", 1)[0] + "." + name for name in more]:
            out.setdefault(place, []).append(entry)
    return out


def model(*, data_dir: Path) -> list[Section]:
    """Every section with its rows filled in: published fields and examples."""
    all_sections = sections()
    data = bundles(data_dir)
    published = published_at()
    documented = set()
    for section in all_sections:
        for row in section.rows:
            places = [row.path] + [p + (row.name,) for p in section.also]
            documented.add(shown(row.path))
            row.published = published.get(shown(row.path), [])
            row.examples = examples(places, data)
    unknown = sorted(set(published) - documented)
    if unknown:
        raise ValueError(f"schema/fields.yaml names places no model has: {', '.join(unknown)}")
    return all_sections
