"""The code's rooms (ingest/__init__.py: ROOMS, from the bottom up): a module imports from its own room
and those below it, and no modules import each other in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT
from ingest import ROOMS

PACKAGE = ROOT / "ingest"


def _imports() -> dict[str, set[str]]:
    """Each module of ingest (dotted) and the modules of ingest it imports (a name imported from a
    package counts as its module when there is one)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {t for t in found if t in modules and t != name}
    return graph


def _room(module: str) -> str:
    return module.split(".")[1] if module.count(".") else "package"


def test_every_module_is_in_a_room_and_rooms_are_folders():
    graph = _imports()
    assert {_room(m) for m in graph} == set(ROOMS) | {"package"}
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == sorted(
        r for r in ROOMS if r != "cli")
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "cli.py"]


def test_no_module_imports_from_a_room_above_its_own():
    upward = [(m, t) for m, targets in _imports().items() for t in targets
              if _room(m) in ROOMS and _room(t) in ROOMS and ROOMS.index(_room(t)) > ROOMS.index(_room(m))]
    assert upward == []


def test_no_modules_import_each_other_in_a_circle():
    graph = _imports()
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    assert circles == []
