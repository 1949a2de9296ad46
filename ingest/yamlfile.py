"""Read a YAML file safely and remember the line of every value.

PyYAML's safe loader is used, through libyaml (the C parser PyYAML ships: several times faster than
the pure-Python one, which stays the fallback where libyaml is missing), with two changes so that
nothing is silently guessed:
a key given twice in one mapping is an error (plain PyYAML keeps the last one), and dates
stay text (a bundle's dates may be partial, "2023-05", and are validated as such).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class YamlProblem(Exception):
    def __init__(self, line: int | None, message: str, field: str = "") -> None:
        super().__init__(message)
        self.line = line
        self.message = message
        self.field = field


_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictSafeLoader(_SafeLoader):
    """SafeLoader that refuses duplicate keys and does not turn dates into objects."""

    def construct_mapping(self, node, deep=False):  # noqa: ANN001 (PyYAML signature)
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                line = key_node.start_mark.line + 1
                if key in seen:
                    raise YamlProblem(line, f"key {key!r} is given twice (first on line {seen[key]})", str(key))
                seen[key] = line
        return super().construct_mapping(node, deep=deep)


_StrictSafeLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass
class YamlDocument:
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)

    def line_of(self, loc: tuple) -> int | None:
        """The line of the deepest known node on ``loc`` (a pydantic error location)."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get(())


def _index_lines(node: yaml.Node, path: tuple, lines: dict[tuple, int]) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                if key_node.tag == "tag:yaml.org,2002:merge":
                    # keys brought in by a merge point at the merged mapping
                    for merged in (value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]):
                        if isinstance(merged, yaml.MappingNode):
                            for k, v in merged.value:
                                if isinstance(k, yaml.ScalarNode):
                                    _index_lines(v, path + (k.value,), lines)
                    continue
                sub = path + (key_node.value,)
                lines[sub] = key_node.start_mark.line + 1
                _index_lines(value_node, sub, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index_lines(item, path + (i,), lines)


def load_yaml(path: Path) -> YamlDocument:
    """Parse ``path``; raise YamlProblem (with a line) for anything that is not clean YAML."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlProblem(None, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    loader = _StrictSafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise YamlProblem(1, "the file is empty")
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise YamlProblem(line, f"invalid YAML: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise YamlProblem(None, f"invalid YAML: {exc}") from None
    finally:
        loader.dispose()
    lines: dict[tuple, int] = {}
    _index_lines(node, (), lines)
    return YamlDocument(data=data, lines=lines)
