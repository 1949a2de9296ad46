"""Read a YAML file safely and remember the line of every value.

PyYAML's safe loader is used, through libyaml (the C parser PyYAML ships: several times faster than
the pure-Python one, which stays the fallback where libyaml is missing), with two changes so that
nothing is silently guessed:
a key given twice in one mapping is an error (plain PyYAML keeps the last one), and dates
stay text (a bundle's dates may be partial, "2023-05", and are validated as such).

Numbers are YAML 1.1's plain decimal forms only: ``1_000``, ``1:30`` (base 60), ``010`` (octal) and
``0x10`` stay text, so a field that wants a number says so instead of taking a guessed value; a number a
double cannot hold as printed (schema/numbers.py) is reported. A file is refused before anything is
built from it when it is larger than MAX_BYTES, nests deeper than MAX_DEPTH, uses more than
MAX_ALIASES aliases or would expand (aliases followed) to more than MAX_NODES values: an alias bomb
("billion laughs") or a deep nesting is refused in bounded time and memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from schema.numbers import inexact


class YamlProblem(Exception):
    def __init__(self, line: int | None, message: str, field: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.field = field


MAX_BYTES = 4 * 2**20     # the largest bundle today is 46 kB
MAX_DEPTH = 32            # collections inside collections (bundles use 6)
MAX_ALIASES = 1_000       # *name references (bundles use 21)
MAX_NODES = 200_000       # values once every alias is followed (bundles hold 2,011)

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"


class _StrictSafeLoader(_SafeLoader):
    """SafeLoader that refuses duplicate keys, does not turn dates into objects, reads only plain decimal
    numbers and notes (in ``number_problems``) the numbers a double cannot hold as printed."""

    def construct_mapping(self, node, deep=False):  # noqa: ANN001 (PyYAML signature)
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    raise YamlProblem(line, "a key must be plain text, not a list or a mapping")
                key = self.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    kind = "null" if key is None else "true or false" if isinstance(key, bool) else "a number"
                    raise YamlProblem(line, f"key {key_node.value!r} is read as {kind}, not text: quote it")
                if key in seen:
                    raise YamlProblem(line, f"key {key!r} is given twice (first on line {seen[key]})", str(key))
                seen[key] = line
        return super().construct_mapping(node, deep=deep)

    def _number(self, node, make):  # noqa: ANN001
        problem = inexact(node.value)
        if problem is not None:
            self.number_problems[id(node)] = problem
            return node.value  # kept as printed: reported, never rounded
        return make(node)

    def construct_yaml_int(self, node):  # noqa: ANN001
        return self._number(node, super().construct_yaml_int)

    def construct_yaml_float(self, node):  # noqa: ANN001
        return self._number(node, super().construct_yaml_float)


_StrictSafeLoader.add_constructor(_INT, _StrictSafeLoader.construct_yaml_int)
_StrictSafeLoader.add_constructor(_FLOAT, _StrictSafeLoader.construct_yaml_float)
_PLAIN_NUMBERS = [
    (_INT, re.compile(r"^[-+]?(0|[1-9][0-9]*)$")),
    (_FLOAT, re.compile(r"^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$")),
]
_StrictSafeLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:timestamp", _INT, _FLOAT)]
    + [(tag, rx) for tag, rx in _PLAIN_NUMBERS if first in "-+.0123456789"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass
class YamlDocument:
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)
    numbers: list[tuple[tuple, int, str]] = field(default_factory=list)  # (path, line, why) of numbers kept as text

    def line_of(self, loc: tuple) -> int | None:
        """The line of the deepest known node on ``loc`` (a pydantic error location)."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get(())


def _index_lines(node: yaml.Node, path: tuple, lines: dict[tuple, int], numbers: dict[int, str],
                 found: list[tuple[tuple, int, str]]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if id(node) in numbers:
        found.append((path, node.start_mark.line + 1, numbers[id(node)]))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                if key_node.tag == "tag:yaml.org,2002:merge":
                    # keys brought in by a merge point at the merged mapping
                    for merged in (value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]):
                        if isinstance(merged, yaml.MappingNode):
                            for k, v in merged.value:
                                if isinstance(k, yaml.ScalarNode):
                                    _index_lines(v, path + (k.value,), lines, numbers, found)
                    continue
                sub = path + (key_node.value,)
                lines[sub] = key_node.start_mark.line + 1
                _index_lines(value_node, sub, lines, numbers, found)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index_lines(item, path + (i,), lines, numbers, found)


def _check_shape(text: str) -> None:
    """Walk the parser's events (nothing is built) and refuse a file too deep or too large once its
    aliases are followed: each anchor's node is measured (values, levels) where it ends, and an alias
    counts as the node it names."""
    loader = _SafeLoader(text)
    anchored: dict[str, tuple[int, int]] = {}  # anchor -> (values, levels) of its node
    stack: list[list] = []  # each open collection: [anchor, values before it, its level, deepest level inside]
    nodes = aliases = 0
    get_event = loader.get_event
    try:
        while (event := get_event()) is not None:  # None after the stream's end
            kind = type(event)
            if kind is yaml.ScalarEvent:
                nodes += 1
                depth = len(stack)
                if event.anchor:
                    anchored[event.anchor] = (1, 0)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                nodes += 1
                depth = len(stack) + 1
                stack.append([event.anchor, nodes - 1, depth, depth])
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                anchor, before, level, deepest = stack.pop()
                if anchor:
                    anchored[anchor] = (nodes - before, deepest - level + 1)
                if stack and deepest > stack[-1][3]:
                    stack[-1][3] = deepest
                continue
            elif kind is yaml.AliasEvent:
                line = event.start_mark.line + 1
                if any(event.anchor == anchor for anchor, *_ in stack):
                    raise YamlProblem(line, f"alias *{event.anchor} is inside the node it names: a structure that "
                                            "holds itself is refused")
                aliases += 1
                if aliases > MAX_ALIASES:
                    raise YamlProblem(line, f"more than {MAX_ALIASES:,} aliases (*name): refused")
                size, levels = anchored.get(event.anchor, (1, 0))
                nodes += size
                depth = len(stack) + levels
            else:
                continue
            if depth > MAX_DEPTH:
                raise YamlProblem(event.start_mark.line + 1, f"nested more than {MAX_DEPTH} levels deep: refused")
            if nodes > MAX_NODES:
                raise YamlProblem(event.start_mark.line + 1, f"more than {MAX_NODES:,} values once its aliases are "
                                                             "followed (an alias bomb?): refused")
            if stack and depth > stack[-1][3]:
                stack[-1][3] = depth
    finally:
        loader.dispose()


def load_yaml(path: Path) -> YamlDocument:
    """Parse ``path``; raise YamlProblem (with a line) for anything that is not clean YAML."""
    with path.open("rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise YamlProblem(None, f"larger than {MAX_BYTES // 2**20} MiB: refused")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlProblem(raw.count(b"\n", 0, exc.start) + 1,
                          f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    loader = _StrictSafeLoader(text)
    loader.number_problems = {}
    try:
        _check_shape(text)
        node = loader.get_single_node()
        if node is None:
            raise YamlProblem(1, "the file is empty")
        data = loader.construct_document(node)
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        raise YamlProblem(line, f"character U+{exc.character:04X} is not allowed in YAML text "
                                "(a NUL byte or another control character)") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise YamlProblem(line, f"invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(None, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    lines: dict[tuple, int] = {}
    numbers: list[tuple[tuple, int, str]] = []
    _index_lines(node, (), lines, loader.number_problems, numbers)
    return YamlDocument(data=data, lines=lines, numbers=numbers)
