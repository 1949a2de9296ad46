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

A document of the common kind (no tag, no merge key) is built straight from the parser's events
(_from_events); any other goes the long way, through PyYAML's nodes, and both give the same values,
lines and problems (tests/test_yaml_events.py).
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

# The values, aliases followed, up to which _from_events repeats an alias's lines (bundles hold 2,011):
# past them, the long way checks the whole shape before anything is built. An alias bomb of 10^18
# values (tests/test_malformed_bundles.py, under tracemalloc) is refused in 0.09 s; repeating 200,000
# values' lines until _Shape reached MAX_NODES took 2.7 s.
ALIASED_UP_TO = 20_000

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


class _Shape:
    """What the parser's events add up to, checked as each comes (nothing is built): a file too deep or
    too large once its aliases are followed is refused at the event that makes it so. Each anchor's
    node is measured (values, levels) where it ends, and an alias counts as the node it names."""

    def __init__(self) -> None:
        self.anchored: dict[str, tuple[int, int]] = {}  # anchor -> (values, levels) of its node
        self.stack: list[list] = []  # each open collection: [anchor, values before it, its level, deepest level inside]
        self.nodes = self.aliases = 0

    def see(self, event: yaml.Event) -> None:
        stack = self.stack
        kind = type(event)
        if kind is yaml.ScalarEvent:
            self.nodes += 1
            depth = len(stack)
            if event.anchor:
                self.anchored[event.anchor] = (1, 0)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            self.nodes += 1
            depth = len(stack) + 1
            stack.append([event.anchor, self.nodes - 1, depth, depth])
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            anchor, before, level, deepest = stack.pop()
            if anchor:
                self.anchored[anchor] = (self.nodes - before, deepest - level + 1)
            if stack and deepest > stack[-1][3]:
                stack[-1][3] = deepest
            return
        elif kind is yaml.AliasEvent:
            line = event.start_mark.line + 1
            if any(event.anchor == anchor for anchor, *_ in stack):
                raise YamlProblem(line, f"alias *{event.anchor} is inside the node it names: a structure that "
                                        "holds itself is refused")
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise YamlProblem(line, f"more than {MAX_ALIASES:,} aliases (*name): refused")
            size, levels = self.anchored.get(event.anchor, (1, 0))
            self.nodes += size
            depth = len(stack) + levels
        else:
            return
        if depth > MAX_DEPTH:
            raise YamlProblem(event.start_mark.line + 1, f"nested more than {MAX_DEPTH} levels deep: refused")
        if self.nodes > MAX_NODES:  # (5,000 runs of one import, no alias among them, were called a bomb)
            raise YamlProblem(event.start_mark.line + 1, f"more than {MAX_NODES:,} values once its aliases are "
                              "followed (an alias bomb?): refused" if self.aliases else
                              f"more than the {MAX_NODES:,} values a bundle.yaml may hold: refused")
        if stack and depth > stack[-1][3]:
            stack[-1][3] = depth


def check_shape(text: str) -> None:
    """Walk the parser's events (nothing is built) and refuse a file too deep or too large once its
    aliases are followed (_Shape)."""
    loader = _SafeLoader(text)
    shape = _Shape()
    get_event = loader.get_event
    try:
        while (event := get_event()) is not None:  # None after the stream's end
            shape.see(event)
    finally:
        loader.dispose()


class _Unusual(Exception):
    """A document _from_events leaves to PyYAML's composer and constructor (load_yaml)."""


_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
# the scalars made by the loader's own constructors (text is taken as it is)
_SCALARS = frozenset(("tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", _INT, _FLOAT))


def _from_events(loader: _StrictSafeLoader) -> YamlDocument:
    """The document, its lines and its numbers kept as text, built straight from the parser's events (checked
    by _Shape as they come), as PyYAML's composer and constructor and _index_lines make them from its
    nodes, in 60% of their time (no node, no second pass, no walk: the bundles of
    benchmarks/bench_build.py without a merge key took 0.8 to 2.3 ms of CPU each, against 1.4 to 4.0:
    benchmarks/HISTORY.md). It takes the common case: untagged values, mappings with text keys given
    once, anchors and aliases to values. A merge key (<<), a tag, a key that is not plain text, a key
    given twice, an anchor named twice or an alias to no anchor raises _Unusual, and load_yaml reads the
    file the long way, which says what is wrong with it, if anything. An alias is the object its anchor
    made, as PyYAML's are, and its lines and numbers are those of its anchor's node, under the alias's
    path."""
    shape = _Shape()
    get_event = loader.get_event
    resolve = loader.resolve
    constructors = loader.yaml_constructors
    problems = loader.number_problems
    lines: dict[tuple, int] = {}
    numbers: list[tuple[tuple, int, str]] = []
    logged: list[tuple[tuple, int]] = []  # every line set, in order: what an alias of an enclosing node repeats
    anchors: dict[str, tuple] = {}  # anchor -> (object, its path, its line, logged and numbers made inside it)
    named: set[str] = set()  # every anchor so far, from its node's start (PyYAML refuses a name given twice)
    # the open collections: [object, path, key awaited (a mapping's), next index (a list's), anchor, marks]
    stack: list[list] = []
    root: list = []
    while True:
        event = get_event()
        shape.see(event)
        kind = type(event)
        if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            obj, path, _, _, anchor, marks = stack.pop()
            if anchor is not None:
                anchors[anchor] = (obj, path, marks[0], logged[marks[1]:], numbers[marks[2]:])
            continue
        if kind is not yaml.ScalarEvent and kind is not yaml.AliasEvent \
                and kind is not yaml.MappingStartEvent and kind is not yaml.SequenceStartEvent:
            if kind is yaml.DocumentStartEvent and root:
                raise _Unusual  # a second document
            if kind is yaml.StreamEndEvent:
                break
            continue  # the stream's and the document's start and end
        line = event.start_mark.line + 1
        top = stack[-1] if stack else None
        if top is not None and top[2] is None and type(top[0]) is dict:  # a key
            if kind is not yaml.ScalarEvent or event.tag not in (None, "!") \
                    or resolve(yaml.ScalarNode, event.value, event.implicit) != _STR:
                raise _Unusual
            key = event.value
            if key in top[0] or event.anchor in named:
                raise _Unusual
            top[2] = (key,)
            sub = top[1] + (key,)
            lines[sub] = line
            logged.append((sub, line))
            if event.anchor is not None:
                named.add(event.anchor)
                anchors[event.anchor] = (key, sub, line, [], [])
            continue
        if top is None:
            path, under_key = (), False
        elif type(top[0]) is dict:
            path, under_key = top[1] + top[2], True
        else:
            path, under_key = top[1] + (top[3],), False
            top[3] += 1
        if kind is yaml.AliasEvent:
            if event.anchor not in anchors or shape.nodes > ALIASED_UP_TO:
                raise _Unusual
            obj, at, own_line, inner, inner_numbers = anchors[event.anchor]
            if not under_key:
                lines[path] = own_line
                logged.append((path, own_line))
            cut = len(at)
            for p, n in inner:
                lines[path + p[cut:]] = n
                logged.append((path + p[cut:], n))
            numbers.extend((path + p[cut:], n, why) for p, n, why in inner_numbers)
        else:
            if event.tag not in (None, "!") or event.anchor in named:
                raise _Unusual
            if event.anchor is not None:
                named.add(event.anchor)
            if not under_key:
                lines[path] = line
                logged.append((path, line))
            if kind is yaml.ScalarEvent:
                tag = resolve(yaml.ScalarNode, event.value, event.implicit)
                why = None
                if tag == _STR:
                    obj = event.value
                elif tag in _SCALARS:
                    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
                    obj = constructors[tag](loader, node)
                    why = problems.pop(id(node), None)  # (the node goes: its id may be another's next)
                    if why is not None:
                        numbers.append((path, line, why))
                else:
                    raise _Unusual
                if event.anchor is not None:
                    anchors[event.anchor] = (obj, path, line, [], [] if why is None else [(path, line, why)])
            else:
                mapping = kind is yaml.MappingStartEvent
                if resolve(yaml.MappingNode if mapping else yaml.SequenceNode, None, event.implicit) \
                        != (_MAP if mapping else _SEQ):
                    raise _Unusual
                obj = {} if mapping else []
                marks = (line, len(logged), len(numbers)) if event.anchor is not None else None
                stack.append([obj, path, None, 0, event.anchor, marks])
        if top is None:
            root.append(obj)
        elif under_key:
            top[0][top[2][0]] = obj
            top[2] = None
        else:
            top[0].append(obj)
    if not root:
        raise _Unusual  # no document: load_yaml says the file is empty
    return YamlDocument(data=root[0], lines=lines, numbers=numbers)


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
    return load_yaml_text(text)


def load_yaml_text(text: str) -> YamlDocument:
    """Parse a bundle's text (as load_yaml does a file's, once it is read as UTF-8)."""
    try:
        return _read(text)
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


def _loader(text: str) -> _StrictSafeLoader:
    loader = _StrictSafeLoader(text)
    loader.number_problems = {}
    return loader


def _read(text: str) -> YamlDocument:
    """The document of ``text``: from its events (_from_events), else the long way (straight away for
    a text with a merge key's sign, which _from_events leaves to it when it comes to it)."""
    if "<<" in text:
        return _the_long_way(text)
    loader = _loader(text)
    try:
        return _from_events(loader)
    except _Unusual:
        pass
    finally:
        loader.dispose()
    return _the_long_way(text)


def _the_long_way(text: str) -> YamlDocument:
    """The document of ``text``, its shape checked (check_shape), then PyYAML's nodes composed and
    constructed, then walked for their lines (_index_lines)."""
    check_shape(text)
    loader = _loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise YamlProblem(1, "the file is empty")
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    lines: dict[tuple, int] = {}
    numbers: list[tuple[tuple, int, str]] = []
    _index_lines(node, (), lines, loader.number_problems, numbers)
    return YamlDocument(data=data, lines=lines, numbers=numbers)
