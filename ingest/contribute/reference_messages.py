"""What ``benchdb validate`` says when a field is wrong, for docs/bundle-format.md: found by validating
tests/fixtures/every-field (a small valid bundle that gives every field a value) with that one field
made wrong, through ingest.bundles.validate, never written by hand.

The fixture is kept in the form yaml.safe_dump writes, so that the changed copy, dumped the same way,
keeps every line before the change where it is: the line of each message is the line in the fixture."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
import shutil
import tempfile
import typing
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Iterator, Literal

import annotated_types
import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from schema import models as m

from ..bundles.validate import BUNDLE_FILE, validate_file
from ..bundles.yamlfile import load_yaml
from .reference_fields import ITEM, Row, Section, members, shown, tag, without_none

FIXTURE = Path("tests") / "fixtures" / "every-field"

# The first wrong value of each named type that validate refuses at the field itself is shown: an id
# that names nothing refers to nothing (a reference), else one that breaks the pattern.
_NAMED: list[tuple[Any, list[Any]]] = [
    (m.Id, ["no-such-id", "Not An Id"]),
    (m.Label, ["=1+1"]),
    (m.Text, [42]),
    (m.Setting, [[1, 2]]),
    (m.PartialDate, ["2023-13"]),
    (m.Timestamp, ["2023-02-30T12:00:00"]),
    (m.Language, ["English"]),
    (m.Url, ["example.org/paper.pdf"]),
]
_PLAIN = {bool: ["yes"], float: ["85%"], int: ["eight"], str: [42]}

# The rules beyond a field's type, each shown with a value that breaks it: (results member or None,
# place) -> values.
RULES: dict[tuple[str | None, str], list[Any]] = {
    ("table", "results[].rows[].values"): ["100.50", "100.50 1,200.25", "-100.50 200.25"],
    ("table", "results[].defaults.unit"): ["TPS"],
    ("table", "results[].columns[].unit"): ["tx/min"],
    ("derived", "results[].unit"): ["ms"],
    ("table", "results[].corrections[].value"): ["180.01"],
    ("table", "results[].corrections[].printed"): ["180.10"],
    ("table", "results[].corrections[].column"): ["256 Users"],
    ("artifact", "results[].path"): ["../run.log", "/etc/passwd", "artifacts/missing.log", "artifacts"],
    ("artifact", "results[].threads"): [8],
    ("derived", "results[].formula"): ['v("tps", "a", "256 Users")', 'v("tps", "a", "64 Users") *', "-1"],
    (None, "charts[].metric"): ["rebuild_mb_s"],
    (None, "claims[].formula"): ["max(row(\"tps\", \"a\")) / 0"],
    (None, "claims[].verdict"): ["overstated"],
    (None, "claims[].stated"): [20],
}


@dataclass(frozen=True)
class Wrong:
    """One field made wrong: what the changed file gives, what validate prints of that field (all it prints
    when it names the field nowhere), and how many more lines it prints, of other fields."""

    given: str
    said: tuple[str, ...]
    elsewhere: int = 0


_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's, as the loader: the same text, faster


def dumped(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10**6, default_flow_style=False)


class Fixture:
    """The fixture, copied once into a work folder named by its id; ``said`` validates a changed copy."""

    def __init__(self, *, folder: Path, work: Path) -> None:
        text = (folder / BUNDLE_FILE).read_text(encoding="utf-8")
        self.header = "".join(itertools.takewhile(lambda line: line.startswith("#"), text.splitlines(keepends=True)))
        self.data = load_yaml(folder / BUNDLE_FILE).data
        if self.header + dumped(self.data) != text:
            raise ValueError(f"{folder / BUNDLE_FILE} is not in the form yaml.safe_dump writes (block style, "
                             "comments first): dump it again so that the lines of the messages agree")
        self.text = text
        self.folder = work / self.data["id"]
        shutil.copytree(folder, self.folder)

    def said(self, *, data: Any = None, text: str | None = None) -> tuple[str, ...]:
        file = self.folder / BUNDLE_FILE
        file.write_text(text if text is not None else self.header + dumped(data), encoding="utf-8")
        _, problems = validate_file(file)
        return tuple(str(dataclasses.replace(p, path=BUNDLE_FILE)) for p in problems)

    def changed(self, line: str, new: str) -> str:
        """The fixture's text with one whole line replaced (``new`` may be several lines)."""
        if self.text.count(f"\n{line}\n") != 1:
            raise ValueError(f"the line {line!r} is not once in {FIXTURE / BUNDLE_FILE}")
        return self.text.replace(f"\n{line}\n", f"\n{new}\n", 1)


@contextmanager
def fixture(*, root: Path) -> Iterator[Fixture]:
    with tempfile.TemporaryDirectory(prefix="benchdb-docs-") as work:
        yield Fixture(folder=root / FIXTURE, work=Path(work))


def concrete(data: Any, path: tuple) -> tuple:
    """The first place of the fixture at ``path`` (the items of each list, of its type, tried in order)."""
    found = _first(data, path, ())
    if found is None:
        raise ValueError(f"{FIXTURE / BUNDLE_FILE} gives no value at {shown(path)}: give it one")
    return found


def _first(node: Any, path: tuple, loc: tuple) -> tuple | None:
    if not path:
        return loc
    step, rest = path[0], path[1:]
    if step == ITEM:
        want = rest[0][1] if rest and isinstance(rest[0], tuple) else None
        rest = rest[1:] if want else rest
        for i, item in enumerate(node if isinstance(node, list) else []):
            if want is None or (isinstance(item, dict) and item.get("type") == want):
                found = _first(item, rest, loc + (i,))
                if found is not None:
                    return found
        return None
    return _first(node[step], rest, loc + (step,)) if isinstance(node, dict) and step in node else None


def _set(data: Any, loc: tuple, value: Any) -> Any:
    data = copy.deepcopy(data)
    node = data
    for step in loc[:-1]:
        node = node[step]
    node[loc[-1]] = value
    return data


def _renamed(data: Any, loc: tuple, old: str, new: str) -> Any:
    data = copy.deepcopy(data)
    node = data
    for step in loc:
        node = node[step]
    items = list(node.items())
    node.clear()
    node.update((new if key == old else key, value) for key, value in items)
    return data


def candidates(hint: Any, info: FieldInfo) -> list[Any]:
    """Wrong values for a field of this type, in the order they are tried."""
    hint = without_none(hint)
    for alias, values in _NAMED:
        if hint == alias:
            return values
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is Annotated:
        metadata = [x for item in args[1:] for x in (item.metadata if isinstance(item, FieldInfo) else [item])]
        for item in metadata:
            if isinstance(item, annotated_types.Ge):
                return [item.ge - 1]
            if isinstance(item, annotated_types.Gt):
                return [item.gt]
        return candidates(args[0], info)
    if origin is Literal:
        return [max(args) + 1] if all(isinstance(a, int) for a in args) else ["other"]
    if origin is list:
        item = without_none(args[0])
        if members(item) or (isinstance(item, type) and issubclass(item, BaseModel)):
            return [[]] if info.is_required() else ["x"]
        return [[value] for value in candidates(item, FieldInfo())][:1]
    if origin is dict:
        return ["x"] if args[1] is Any else [{"x": value} for value in candidates(args[1], FieldInfo())]
    if isinstance(hint, type) and issubclass(hint, BaseModel):
        return ["x"]
    return _PLAIN[hint]


def _at(line: str, place: str) -> bool:
    """Whether a line validate prints names the field at ``place`` (or a value inside it)."""
    field = re.sub(r"\[[^\]]*\]", ITEM, line.split(": ")[1]) if line.count(": ") >= 2 else ""
    return field == place or field.startswith((place + ".", place + "["))


def _wrong(given: str, said: tuple[str, ...], place: str) -> Wrong:
    at = tuple(line for line in said if _at(line, place))
    return Wrong(given, at, len(said) - len(at)) if at else Wrong(given, said)


def given(name: str, value: Any) -> str:
    """``name: value`` as YAML writes it on one line, non-ASCII characters escaped."""
    text = yaml.safe_dump({name: value}, default_flow_style=True, allow_unicode=False, width=10**6)
    return text.strip()[1:-1]


def wrongs(*, fx: Fixture, row: Row) -> list[Wrong]:
    """The field made wrong by its type (the first value refused at the field), then by each rule of RULES."""
    loc = concrete(fx.data, row.path)
    place = shown(row.path)
    tried = [(value, fx.said(data=_set(fx.data, loc, value))) for value in candidates(row.hint, row.info)]
    first = next(((v, s) for v, s in tried if any(_at(x, place) for x in s)), None) \
        or next(((v, s) for v, s in tried if s), None)
    out = [_wrong(given(row.name, first[0]), first[1], place)] if first else []
    for value in RULES.get((tag(row.path), place), []):
        said = fx.said(data=_set(fx.data, loc, value))
        if not said:
            raise ValueError(f"{place}: validate takes {value!r}: the rule shown for it no longer holds")
        out.append(_wrong(given(row.name, value), said, place))
    return out


def misspelt(*, fx: Fixture, section: Section) -> Wrong:
    """The section's first key misspelt (its last two letters swapped)."""
    name = section.rows[0].name
    wrong = name[:-2] + name[-1] + name[-2]
    loc = concrete(fx.data, section.path)
    value = fx.data
    for step in loc + (name,):
        value = value[step]
    said = fx.said(data=_renamed(fx.data, loc, name, wrong))
    return Wrong(given(wrong, value if not isinstance(value, (dict, list)) else "..."), said)


def general(*, fx: Fixture) -> list[tuple[str, Wrong]]:
    """The rules of every field of a kind (text, keys, numbers, YAML), each broken once."""
    a = ("systems", 0)

    def refused(wrong: Wrong) -> Wrong:
        if not wrong.said:
            raise ValueError(f"validate takes {wrong.given!r}: the rule shown for it no longer holds")
        return wrong

    def value(loc: tuple, value: Any, shown_as: str | None = None) -> Wrong:
        return refused(Wrong(shown_as or given(str(loc[-1]), value), fx.said(data=_set(fx.data, loc, value))))

    def raw(line: str, new: str, shown_as: str) -> Wrong:
        return refused(Wrong(shown_as, fx.said(text=fx.changed(line, new))))

    title = f"title: {fx.data['title']}"
    setting = "      innodb_flush_method: O_DIRECT"
    return [
        ("A control character in any text (here ESC, which starts a terminal's escape sequences)",
         value(("summary",), "A \x1b[31mred\x1b[0m summary")),
        ("A bidirectional control in any text, which reorders what a reader sees",
         value(("title",), "A tiny \u202eyduts\u202c study")),
        ("A control character in a key",
         value(a + ("database", "settings"), {"innodb\nflush": 1}, 'settings: {"innodb\\nflush": 1}')),
        ("Empty text", value(("title",), "")),
        ("A label that begins with a character a spreadsheet reads as a formula", value(a + ("label",), "@SUM(1+1)")),
        (f"{m.TO_BE_STATED}, which `benchdb import` writes where only the contributor knows the value",
         value(a + ("storage", "product"), m.TO_BE_STATED)),
        ("A number with thousands separators", value(a + ("raid", "drives"), "1,000")),
        ("A number written as text", value(a + ("raid", "drives"), "8")),
        ("A number with a leading zero: not read as octal, nor as a number",
         raw("    drives: 8", "    drives: 010", "drives: 010")),
        ("A number with more digits than a double holds",
         raw("    memory_gib: 64", "    memory_gib: 1234567890123456789012345678901234567890.5",
             "memory_gib: 1234567890123456789012345678901234567890.5")),
        ("A key given twice (here title, on the next line)", raw(title, f"{title}\ntitle: Again", "title: Again")),
        ("A key YAML reads as true or false (here on, added to settings)",
         raw(setting, f"{setting}\n      on: 1", "on: 1")),
    ]
