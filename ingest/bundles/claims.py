"""Claim formulas: small arithmetic over a study's own values, checked at validation time.

A formula is a Python-like expression, parsed with ``ast`` and evaluated by this module only
(no ``eval``). It may use numbers, ``+ - * /``, parentheses, and these functions:

- ``v("table", "system", "column label")``: one value of a transcribed table;
- ``row("table", "system")``: a row of a table, as a vector (arithmetic is element-wise);
- ``max(x)``, ``min(x)``, ``mean(x)``, ``median(x)``: of a vector (or of several numbers); ``median`` is the
  typical value, for claims like "typically higher";
- ``usable("6", 8)``: the usable capacity fraction of a RAID level on that many drives.

Example: ``(max(row("tps-optimal", "a") / row("tps-optimal", "b")) - 1) * 100``.

A formula is at most MAX_CHARS characters and MAX_DEPTH operations deep (a longer one is refused
before it is parsed), and must give a finite number.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from decimal import Decimal
from statistics import fmean, median

from schema.models import ResultTable
from schema.numbers import NUMBER_TEXT


MAX_CHARS = 2_000  # the longest formula of the shipped bundles has 250
MAX_DEPTH = 50     # levels of operations inside operations (the shipped formulas have 7)


class FormulaError(Exception):
    pass


@dataclass(frozen=True)
class Vector:
    values: tuple[float, ...]
    labels: tuple[str, ...]

    def zip_with(self, other, op):
        if isinstance(other, Vector):
            if other.labels != self.labels:
                raise FormulaError(f"rows with different columns: {self.labels} and {other.labels}")
            return Vector(tuple(op(a, b) for a, b in zip(self.values, other.values)), self.labels)
        return Vector(tuple(op(a, other) for a in self.values), self.labels)


def usable_fraction(level: str, drives: int, group_size: int | None = None) -> float:
    """Share of raw capacity left for data: RAID 6 on 8 drives keeps 6/8. With a group size, each
    group (the last may be smaller) carries its own parity: RAID-DP on 107 disks in groups of 16 keeps 93/107."""
    level, n = str(level), int(drives)
    if group_size and n > group_size and level in ("5", "6", "raid-dp"):
        parity = {"5": 1, "6": 2, "raid-dp": 2}[level]
        groups = -(-n // group_size)
        return (n - parity * groups) / n
    fractions = {"0": n / n, "1": 1 / n, "5": (n - 1) / n, "6": (n - 2) / n, "10": 0.5, "50": (n - 2) / n,
                 "raid-dp": (n - 2) / n,
                 "60": (n - 4) / n, "linear": 1.0, "none": 1.0}
    if level not in fractions:
        raise FormulaError(f"no capacity rule for RAID level {level!r}")
    minimum = {"1": 2, "5": 3, "6": 4, "raid-dp": 3, "10": 4, "50": 6, "60": 8}.get(level, 1)
    if n < minimum:
        raise FormulaError(f"RAID {level} needs at least {minimum} drives, not {n}")
    return fractions[level]


class Values:
    """The transcribed tables of one bundle, by (table, system, column label)."""

    def __init__(self, results) -> None:
        self.tables: dict[str, ResultTable] = {r.id: r for r in results if isinstance(r, ResultTable)}

    def row(self, table: str, system: str) -> Vector:
        t = self.tables.get(table)
        if t is None:
            raise FormulaError(f"no table {table!r} in this bundle")
        row = next((r for r in t.rows if r.system == system), None)
        if row is None:
            raise FormulaError(f"table {table!r} has no row for system {system!r}")
        cells = row.cells()
        bad = next((x for x in cells if not NUMBER_TEXT.match(x)), None)
        if bad is not None:
            raise FormulaError(f"table {table!r}, system {system!r} holds {bad!r}, not a number")
        return Vector(tuple(float(Decimal(x)) for x in cells), tuple(c.label for c in t.columns))

    def value(self, table: str, system: str, column: str) -> float:
        vector = self.row(table, system)
        if column not in vector.labels:
            raise FormulaError(f"table {table!r} has no column {column!r}")
        return vector.values[vector.labels.index(column)]


_BINOPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}


def _depth(tree: ast.AST) -> int:
    """How deep the operations of ``tree`` nest (without recursion: a deep tree is what it guards against)."""
    deepest, todo = 0, [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        deepest = max(deepest, depth)
        todo.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


def evaluate(formula: str, values: Values) -> float:
    if len(formula) > MAX_CHARS:
        raise FormulaError(f"longer than {MAX_CHARS:,} characters ({len(formula):,}): refused")
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as exc:
        raise FormulaError(f"not a formula: {exc.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise FormulaError("not a formula: too deeply nested") from None
    if _depth(tree.body) > MAX_DEPTH:
        raise FormulaError(f"operations nest more than {MAX_DEPTH} deep: refused")
    try:
        result = _eval(tree.body, values)
    except ZeroDivisionError:
        raise FormulaError("division by zero") from None
    except OverflowError:
        raise FormulaError("a number too large for a double") from None
    if isinstance(result, Vector):
        raise FormulaError("the formula gives a row, not one number: wrap it in max(), min() or mean()")
    if not math.isfinite(result):
        raise FormulaError(f"the formula gives {result}, not a finite number")
    return float(result)


def _eval(node, values: Values):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        operand = _eval(node.operand, values)
        return operand.zip_with(-1.0, lambda a, b: a * b) if isinstance(operand, Vector) else -operand
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        op = _BINOPS[type(node.op)]
        left, right = _eval(node.left, values), _eval(node.right, values)
        if isinstance(left, Vector):
            return left.zip_with(right, op)
        if isinstance(right, Vector):
            return right.zip_with(left, lambda b, a: op(a, b))
        return op(left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        name = node.func.id
        if name in ("v", "row", "usable"):
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if len(args) != len(node.args):
                raise FormulaError(f"{name}() takes plain text and numbers")
            if name == "v" and len(args) == 3:
                return values.value(*map(str, args))
            if name == "row" and len(args) == 2:
                return values.row(*map(str, args))
            if name == "usable" and len(args) in (2, 3):
                if not all(isinstance(a, int) and not isinstance(a, bool) for a in args[1:]):
                    raise FormulaError("usable() takes a RAID level and whole numbers of drives")
                return usable_fraction(str(args[0]), args[1], *args[2:])
            raise FormulaError(f"wrong arguments to {name}()")
        if name in ("max", "min", "mean", "median"):
            items = [_eval(a, values) for a in node.args]
            flat = [x for item in items for x in (item.values if isinstance(item, Vector) else (item,))]
            if not flat:
                raise FormulaError(f"{name}() of nothing")
            return {"max": max, "min": min, "mean": fmean, "median": median}[name](flat)
        raise FormulaError(f"unknown function {name}()")
    raise FormulaError(f"not allowed in a formula: {ast.unparse(node)!r}")


def verdict_of(*, stated: float, computed: float, tolerance: float, relation: str = "about") -> str:
    if relation == "at least":
        return "holds" if computed >= stated - tolerance else "overstated"
    if relation == "at most":
        return "holds" if computed <= stated + tolerance else "understated"
    if abs(computed - stated) <= tolerance:
        return "holds"
    return "overstated" if stated > computed else "understated"
