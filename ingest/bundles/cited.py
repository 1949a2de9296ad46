"""Cited logs: the figures file of a ``type: cited`` result (its format: schema/figures.py), written from a
parsed run by ``benchdb import --cite`` and read back as the same run, so that validation, derivation and
the loader take a cited log as they take a parsed one.

The file is hostile input like any other: every problem names the file's line and the field, a run of
bad lines is reported up to MAX_PROBLEMS and then counted, and a line longer than MAX_LINE_BYTES is not
read into memory.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.json as pa_json
from pydantic import ValidationError

from schema.figures import FiguresRun

from ..parsers.sysbench_intervals import INTERVAL_COLUMNS, IntervalColumns
from ..parsers.sysbench_recheck import unrecorded
from ..parsers.sysbench_rows import EXTRA_INTERVAL_COLUMNS

FOLDER = "cited"  # where import writes a bundle's figures files: cited/<id>.jsonl
SUFFIX = ".jsonl"
MAX_LINE_BYTES = 4 * 2**20  # as large as a bundle.yaml may be (yamlfile.py)
MAX_PROBLEMS = 50  # of one file; the rest are counted in one more
_INT64 = range(-2**63, 2**63)
_ROW_KEYS = ("line", *INTERVAL_COLUMNS)
_ALLOWED = frozenset(_ROW_KEYS) | frozenset(EXTRA_INTERVAL_COLUMNS)
_READ = pa_json.ReadOptions(block_size=64 * 2**20)
_MESSAGES = {"missing": "missing required field", "extra_forbidden": "unknown key (not part of a figures file)"}


@dataclass(frozen=True)
class FiguresProblem:
    line: int | None
    field: str
    kind: str
    message: str
    severity: str = "error"


def figures_path(result_id: str) -> str:
    """Where import writes a cited result's figures file, inside its bundle."""
    return f"{FOLDER}/{result_id}{SUFFIX}"


# --- writing ------------------------------------------------------------------------------------


def figures_lines(run: dict) -> Iterator[str]:
    """The lines of ``run``'s figures file (``run``: one run as sysbench_runs.parse_runs gives it)."""
    yield json.dumps({k: v for k, v in run.items() if k != "intervals"}, ensure_ascii=False, allow_nan=False)
    for table, lines in run["intervals"].parts():
        # each row as json.dumps writes it (floats by their repr), made column by column
        keys = [f', "{name}": ' for name in table.column_names]
        texts = [[_number(v) for v in table.column(name).to_pylist()] for name in table.column_names]
        for line, values in zip(lines, zip(*texts)):
            yield '{"line": ' + str(line) + "".join(k + v for k, v in zip(keys, values)) + "}"


def _number(value: int | float | None) -> str:
    if value is None:
        return "null"
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{value!r} is not a number a figures file may hold")
    return repr(value)


def write_figures(run: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for line in figures_lines(run):
            out.write(line + "\n")


# --- reading ------------------------------------------------------------------------------------


class _Refused(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict:
    seen: dict = {}
    for key, value in pairs:
        if key in seen:
            raise _Refused(f"key {key!r} is given twice")
        seen[key] = value
    return seen


def _constant(name: str) -> float:
    raise _Refused(f"{name} is not a number a figure may be")


def _json(text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_constant)
    except _Refused:
        raise
    except ValueError as exc:
        raise _Refused(f"not JSON: {exc}") from None


def _where(loc: tuple) -> str:
    name = ""
    for part in loc:
        name += f"[{part}]" if isinstance(part, int) else ("." if name else "") + str(part)
    return name


def _header(text: str) -> tuple[dict | None, list[FiguresProblem]]:
    try:
        data = _json(text)
    except _Refused as exc:
        return None, [FiguresProblem(1, "", "figures", str(exc))]
    if not isinstance(data, dict):
        return None, [FiguresProblem(1, "", "figures", "line 1 must be a JSON object: the run's figures")]
    try:
        FiguresRun.model_validate(data)
    except ValidationError as exc:
        return None, _model_problems(exc)
    if not all(_finite(v) for v in _numbers(data)):
        return None, [FiguresProblem(1, "", "figures", "a figure is not a finite number")]
    return data, _header_lines(data)


_TYPES = {"int_type": "a whole number", "float_type": "a number", "string_type": "text", "bool_type": "true or false",
          "none_required": "null", "dict_type": "an object", "list_type": "a list"}


def _model_problems(exc: ValidationError) -> list[FiguresProblem]:
    """One problem a field: the members of a union the value is none of are named together."""
    found: dict[str, list[dict]] = {}
    for err in exc.errors():
        found.setdefault(_where(tuple(p for p in err["loc"] if not _union_tag(p))), []).append(err)
    problems = []
    for field, errors in found.items():
        kinds = [e["type"] for e in errors]
        if len(errors) > 1 and all(k in _TYPES for k in kinds):
            wanted = [_TYPES[k] for k in dict.fromkeys(kinds) if not (k == "int_type" and "float_type" in kinds)]
            message = "Input should be " + (", ".join(wanted[:-1]) + " or " if len(wanted) > 1 else "") + wanted[-1]
            errors = [{**errors[0], "type": "type", "msg": message}]
        for err in errors:
            message = _MESSAGES.get(err["type"]) or err["msg"].removeprefix("Value error, ")
            if err["type"] not in _MESSAGES and not isinstance(err.get("input"), (dict, list, type(None))):
                message = f"{message} (got {err['input']!r})"
            problems.append(FiguresProblem(1, field, err["type"], message))
    return problems


def _union_tag(part: Any) -> bool:
    return isinstance(part, str) and (part in ("int", "float", "str", "constrained-int", "constrained-str")
                                      or part.startswith("function-") or part.startswith("tuple["))


def _numbers(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _numbers(value)
    elif isinstance(node, list):
        for value in node:
            yield from _numbers(value)
    else:
        yield node


def _finite(value: Any) -> bool:
    return not isinstance(value, float) or math.isfinite(value)


def _header_lines(run: dict) -> list[FiguresProblem]:
    """The lines the header names lie inside the run's lines (a figure of the run as a whole: line 0)."""
    first, last = run["lines"]
    problems = []
    if first > last:
        problems.append(FiguresProblem(1, "lines", "figures", f"the run's lines {first}-{last} end before they begin"))
    inside = range(first, last + 1)
    for key, line in run["source_lines"].items():
        if line and line not in inside:
            problems.append(FiguresProblem(1, f"source_lines.{key}", "figures",
                                           f"line {line} is outside the run's lines {first}-{last}"))
    for i, row in enumerate(run["histogram"]):
        if row["line"] not in inside:
            problems.append(FiguresProblem(1, f"histogram[{i}].line", "figures",
                                           f"line {row['line']} is outside the run's lines {first}-{last}"))
    return problems


def _row(number: int, text: str, previous: tuple[int, int] | None,
         inside: range | None) -> tuple[dict, list[FiguresProblem]]:
    """One interval sample of line ``number`` of the file: its row, or the problems that refuse it."""
    try:
        row = _json(text)
    except _Refused as exc:
        return {}, [FiguresProblem(number, "", "figures", str(exc))]
    if not isinstance(row, dict):
        return {}, [FiguresProblem(number, "", "figures", "an interval sample must be a JSON object")]
    problems = [FiguresProblem(number, key, "extra_forbidden", _MESSAGES["extra_forbidden"])
                for key in row if key not in _ALLOWED]
    problems += [FiguresProblem(number, key, "missing", _MESSAGES["missing"]) for key in _ROW_KEYS if key not in row]
    for key, value in row.items():
        if key not in _ALLOWED:
            continue
        whole = key in ("line", "t_s", "threads")
        if value is None and key not in ("line", "t_s"):
            continue
        if type(value) is int and value not in _INT64:
            problems.append(FiguresProblem(number, key, "figures", f"{value} does not fit in 64 bits"))
        elif type(value) is not int and (whole or type(value) is not float):
            wanted = "a whole number" if whole else "a number or null"
            problems.append(FiguresProblem(number, key, "type", f"Input should be {wanted} (got {value!r})"))
        elif not _finite(value):
            problems.append(FiguresProblem(number, key, "figures", f"{value!r} is not a finite number"))
    if problems:
        return {}, problems
    line, t_s = row["line"], row["t_s"]
    if inside is not None and line not in inside:
        problems.append(FiguresProblem(number, "line", "figures",
                                       f"line {line} is outside the run's lines {inside.start}-{inside.stop - 1}"))
    if previous is not None and line <= previous[1]:
        problems.append(FiguresProblem(number, "line", "out-of-order",
                                       f"line {line} does not follow the previous sample's line {previous[1]}"))
    if previous is not None and t_s <= previous[0]:
        problems.append(FiguresProblem(number, "t_s", "out-of-order",
                                       f"the sample at {t_s}s does not follow the previous one at {previous[0]}s"))
    return row, problems


def _lines(path: Path) -> Iterator[tuple[int, str | None, str | None]]:
    """(number, text, why not) of each line of the file, without reading a line longer than MAX_LINE_BYTES."""
    with open(path, "rb") as f:
        number = 0
        while raw := f.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw) > MAX_LINE_BYTES:
                yield number, None, f"a line longer than {MAX_LINE_BYTES:,} bytes"
                while raw and not raw.endswith(b"\n"):
                    raw = f.readline(MAX_LINE_BYTES + 1)
                continue
            if not raw.endswith(b"\n"):
                yield number, None, "the file does not end with a newline"
                continue
            try:
                yield number, raw[:-1].decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield number, None, f"bytes that are not UTF-8 (at byte {exc.start})"


def _fast_rows(data: bytes, inside: range) -> tuple[pa.Table, np.ndarray] | None:
    """The interval samples of a figures file (its bytes after line 1) read by Arrow at once, when every
    check the line-by-line reading (_row) makes holds; else None, and _row finds what is wrong and where.
    Each key once in every row (counted in the bytes: a valid row holds no text), no blank line, types
    and order as _row wants them."""
    rows = data.count(b"\n")
    if not rows or not data.endswith(b"\n") or any(data.count(b'"%s":' % key.encode()) != rows for key in _ROW_KEYS):
        return None
    try:
        table = pa_json.read_json(pa.py_buffer(data), read_options=_READ)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != rows or not set(table.column_names) <= _ALLOWED:
        return None
    for name in table.column_names:
        column, kind = table.column(name), table.schema.field(name).type
        whole = name in ("line", "t_s", "threads")
        if not (kind == pa.int64() or kind == pa.null() and name not in ("line", "t_s")
                or kind == pa.float64() and not whole):
            return None
        if name in ("line", "t_s") and column.null_count:
            return None
        if kind == pa.float64():  # finite, and not a whole number too large for 64 bits (_row refuses it)
            values = column.drop_null().to_numpy()
            if not np.all(np.isfinite(values)) or np.max(np.abs(values), initial=0) >= 2.0**63:
                return None
    lines, times = (table.column(name).to_numpy() for name in ("line", "t_s"))
    if np.any(np.diff(lines) <= 0) or np.any(np.diff(times) <= 0) or not inside.start <= lines[0] <= lines[-1] < inside.stop:
        return None
    return table.drop_columns(["line"]), lines


def read_figures(path: Path) -> tuple[dict | None, list[FiguresProblem]]:
    """The run a figures file holds (as sysbench_runs.parse_file gives a log's: its intervals an
    IntervalColumns), or None, and every problem found; warnings are the checks of the figures
    (sysbench_recheck.py) that the parser did not record. The samples are read by Arrow at once
    (_fast_rows), or line by line where that finds anything amiss."""
    try:
        with open(path, "rb") as f:
            first = f.readline(MAX_LINE_BYTES + 1)
            header, problems = _header(first[:-1].decode("utf-8")) if first.endswith(b"\n") else (None, [])
            fast = _fast_rows(f.read(), range(header["lines"][0], header["lines"][1] + 1)) \
                if header and not problems else None
    except (OSError, UnicodeDecodeError):
        fast = None
    if fast is None:
        return _read_lines(path)
    table, lines = fast
    header["intervals"] = intervals = IntervalColumns()
    intervals.add_part(table, lines.tolist())
    return _rechecked(header, problems)


def _rechecked(run: dict, problems: list[FiguresProblem]) -> tuple[dict | None, list[FiguresProblem]]:
    extra, cv = unrecorded(run)
    if cv != run["interval_tps_cv"]:
        problems.append(FiguresProblem(1, "interval_tps_cv", "figures",
                                       f"the interval samples' tps give a CV of {cv}, not {run['interval_tps_cv']}"))
        return None, problems
    problems += [FiguresProblem(None, "", "figures-check",
                                f"the figures give a warning the parser did not record: {w}", "warning")
                 for w in extra]
    return run, problems


def _read_lines(path: Path) -> tuple[dict | None, list[FiguresProblem]]:
    """read_figures, a line at a time: every problem with its line and field."""
    problems: list[FiguresProblem] = []
    run = None
    intervals = IntervalColumns()
    previous: tuple[int, int] | None = None
    inside = None
    more = 0
    try:
        for number, text, why in _lines(path):
            if len(problems) >= MAX_PROBLEMS:
                more += 1
                continue
            if text is None:
                problems.append(FiguresProblem(number, "", "figures", why))
            elif number == 1:
                run, found = _header(text)
                problems += found
                if run is not None:
                    inside = range(run["lines"][0], run["lines"][1] + 1)
            else:
                row, found = _row(number, text, previous, inside)
                problems += found
                if row:
                    previous = (row["t_s"], row["line"])
                    intervals.append({k: v for k, v in row.items() if k != "line"}, line=row["line"])
    except OSError as exc:
        return None, [FiguresProblem(None, "", "io", f"cannot read: {exc.strerror or exc}")]
    if more:
        problems.append(FiguresProblem(None, "", "figures", f"{more:,} more lines with problems, not listed"))
    if run is None and not problems:
        problems.append(FiguresProblem(None, "", "figures", "the file is empty: line 1 holds the run's figures"))
    if run is None or any(p.severity == "error" for p in problems):
        return None, problems
    run["intervals"] = intervals
    return _rechecked(run, problems)

