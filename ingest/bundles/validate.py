"""Validate result bundles: YAML, the v1 models, and the rules that span fields.

``validate_paths`` returns every problem at once (never only the first), each as a
``Problem`` naming the file, the line and the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from pydantic import ValidationError

from schema.models import SCHEMA_VERSION, TO_BE_STATED, Artifact, Bundle, Cited, Derived, ResultTable
from schema.numbers import NUMBER_TEXT, inexact, why_not_plain

from .cited import MAX_BUNDLE_SAMPLES, read_figures, stored_problems
from .claims import verdict_of
from .derive import Derivation, derive
from .fields import fileio_metrics, never_negative, unit_misspelt
from .origins import unsourced
from .files import BUNDLE_FILE, bundle_file, display_path, find_bundle_files, linked
from .fileio import chart_findings, run_findings
from ..parsers import PARSERS, ParseError, artifact_digest
from ..parsers.sysbench_runs import parse_file as parse_sysbench_run
from .problems import Problem
from .migrate import needs
from .yamlfile import YamlDocument, YamlProblem, load_yaml



@dataclass
class LoadedBundle:
    folder: Path
    file: Path
    bundle: Bundle
    doc: YamlDocument
    artifacts: dict[str, dict]  # artifact id -> parsed content
    derivation: Derivation  # every figure computed from the bundle and its artifacts (ingest/bundles/derive.py)


# --- turning pydantic errors into problems -------------------------------------------------

_MESSAGES = {
    "missing": "missing required field",
    "extra_forbidden": f"unknown key (not part of bundle format v{SCHEMA_VERSION})",
}
_MEMBERS = {"str": "text", "int": "a whole number", "float": "a number", "bool": "true or false"}
_MEMBER_TAG = re.compile(r"^function-[a-z]+\[.*\]$")  # a union member with a validator, e.g. Setting's text


def _yaml_path(data: Any, loc: tuple) -> tuple[tuple, str]:
    """Map a pydantic location onto the YAML data: drop union tags, name list items by id."""
    path: list = []
    names: list[str] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part not in node and node.get("type") == part:
            continue  # discriminator tag of a tagged union, not a key in the file
        if (part in _MEMBERS or _MEMBER_TAG.match(str(part))) and not (isinstance(node, dict) and part in node):
            continue  # the member of a union of plain types (str | int | float | bool) the value was tried as
        if part == "[key]" and not (isinstance(node, dict) and part in node):
            continue  # the key just named is what was refused, not its value
        path.append(part)
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            ident = item.get("id") if isinstance(item, dict) else None
            names.append(f"[{ident}]" if isinstance(ident, str) else f"[{part}]")
            node = item
        else:
            # a key is shown as Python writes it where it is not plain (a refused key's control characters)
            names.append(("." if names else "") + str(part) if str(part).isprintable() else f"[{str(part)!r}]")
            node = node.get(part) if isinstance(node, dict) else None
    return tuple(path), "".join(names)


def _model_problems(display: str, doc: YamlDocument, exc: ValidationError) -> list[Problem]:
    problems = []
    for err in exc.errors():
        path, name = _yaml_path(doc.data, tuple(err["loc"]))
        message = _MESSAGES.get(err["type"]) or err["msg"].removeprefix("Value error, ")
        if err["type"] not in _MESSAGES and "input" in err and not isinstance(err["input"], (dict, list)):
            message = f"{message} (got {err['input']!r})"
            text = err["input"]
            if err["type"] in ("int_type", "float_type") and isinstance(text, str) and re.search("[0-9]", text) \
                    and not NUMBER_TEXT.match(text):
                message = f"{message}: {why_not_plain(text)}"
        problems.append(Problem(display, doc.line_of(path), name, err["type"], message))
    return _one_per_value(problems)


def _one_per_value(problems: list[Problem]) -> list[Problem]:
    """One problem per value: a value a union of plain types refused is reported once, by the member whose
    rule it breaks (NaN: not a finite number), or as not of any of the types."""
    kept: dict[tuple, Problem] = {}
    for problem in problems:
        key = (problem.line, problem.field)
        first = kept.get(key)
        if first is None:
            kept[key] = problem
        elif first.type.endswith("_type") and problem.type.endswith("_type"):
            got = first.message[first.message.rfind(" (got "):] if " (got " in first.message else ""
            kept[key] = Problem(first.path, first.line, first.field, "type",
                                f"Input should be {', '.join(_MEMBERS.values())}{got}")
        elif first.type.endswith("_type") or first.type == "type":
            kept[key] = problem
    return list(kept.values())


# --- rules across fields ------------------------------------------------------------------------


class _Checker:
    def __init__(self, display: str, folder: Path, bundle: Bundle | None, doc: YamlDocument) -> None:
        self.display, self.folder, self.bundle, self.doc = display, folder, bundle, doc
        self.problems: list[Problem] = []
        self.parsed: dict[str, dict] = {}  # artifact id -> parsed artifact, reused by the loader
        self.derivation = Derivation()
        self.samples_left = MAX_BUNDLE_SAMPLES  # of the bundle's figures files together (cited.py)

    def add(self, loc: tuple, kind: str, message: str, *, severity: str = "error") -> None:
        path, name = _yaml_path(self.doc.data, loc)
        self.problems.append(Problem(self.display, self.doc.line_of(path), name, kind, message, severity))

    def run(self) -> list[Problem]:
        b = self.bundle
        if b.id != self.folder.name:
            twin = self.folder.parent / b.id
            also = (f" (and {display_path(twin)} is the folder of id {b.id!r}: the same study in two folders?)"
                    if (twin / BUNDLE_FILE).is_file() else "")
            self.add(("id",), "id-mismatch", f"id {b.id!r} does not match its folder name {self.folder.name!r}{also}")
        for section in ("sources", "systems", "workloads", "results", "charts", "claims"):
            seen: dict[str, int] = {}
            for i, item in enumerate(getattr(b, section)):
                if item.id in seen:
                    self.add((section, i, "id"), "duplicate-id",
                             f"duplicate id {item.id!r} (also {section}[{seen[item.id]}])")
                seen.setdefault(item.id, i)
        for i, system in enumerate(b.systems):
            if (system.storage.kind == "cloud-volume") != (system.volume is not None):
                self.add(("systems", i, "volume" if system.volume else "storage"), "volume",
                         "a cloud volume needs storage kind cloud-volume and its volume (service, type...): one "
                         "is given without the other")
        sources = {s.id for s in b.sources}
        systems = {s.id for s in b.systems}
        workloads = {w.id for w in b.workloads}
        self._ref(("baseline",), b.baseline, systems, "system")
        for i, t in enumerate(b.transcriptions):
            self._ref(("transcriptions", i, "source"), t.source, sources, "source")
        for i, result in enumerate(b.results):
            if isinstance(result, ResultTable):
                self._table(i, result, sources, systems, workloads)
            elif isinstance(result, Artifact):
                self._artifact(i, result, systems, workloads)
            elif isinstance(result, Cited):
                self._cited(i, result, systems, workloads)
            elif isinstance(result, Derived):
                self._derived(i, result, sources, systems, workloads)
        self.derivation = derive(b, self.parsed)
        for i, result in enumerate(b.results):
            value = self.derivation.derived.get(result.id) if isinstance(result, Derived) else None
            if value is not None and value < 0 and never_negative(result.metric):
                self.add(("results", i, "formula"), "negative",
                         f"the formula gives {value:g}: {result.metric} is never negative (schema/fields.yaml)")
        for finding in self.derivation.findings:
            self.add(finding.loc, finding.kind, finding.message, severity=finding.severity)
        self._charts()
        self._claims(sources)
        return self.problems

    def _claims(self, sources: set) -> None:
        for i, claim in enumerate(self.bundle.claims):
            loc = ("claims", i)
            self._ref(loc + ("where", "source"), claim.where.source, sources, "source")
            computed = self.derivation.claims.get(claim.id)
            if claim.formula is not None and computed is None:
                continue  # the formula failed: derive reported why
            if claim.verdict in ("misstated", "unverifiable") and not claim.reason:
                self.add(loc + ("reason",), "missing", f"a {claim.verdict} verdict needs a reason")
            if claim.verdict in ("holds", "overstated", "understated", "misstated") and claim.formula is None:
                self.add(loc + ("formula",), "missing", f"a {claim.verdict} verdict needs a formula")
            if claim.verdict in ("holds", "overstated", "understated") and claim.stated is None:
                self.add(loc + ("stated",), "missing", f"a {claim.verdict} verdict needs the stated figure")
            if computed is not None and claim.stated is not None and claim.verdict in ("holds", "overstated",
                                                                                        "understated"):
                expected = verdict_of(stated=claim.stated, computed=computed, tolerance=claim.tolerance,
                                      relation=claim.relation)
                if expected != claim.verdict:
                    self.add(loc + ("verdict",), "verdict-mismatch",
                             f"the formula gives {computed:.4g} against {claim.relation} {claim.stated:g} stated "
                             f"(tolerance {claim.tolerance:g}): {expected}, not {claim.verdict}")

    def _derived(self, i: int, d: Derived, sources: set, systems: set, workloads: set) -> None:
        loc = ("results", i)
        self._ref(loc + ("system",), d.system, systems, "system")
        self._ref(loc + ("workload",), d.workload, workloads, "workload")
        self._ref(loc + ("provenance", "source"), d.provenance.source, sources, "source")
        if d.workload is None and len(workloads) != 1:
            self.add(loc, "missing", f"derived value {d.id!r} has no workload and the bundle has {len(workloads)} workloads")
        self._unit(loc + ("unit",), d.metric, d.unit)

    def _unit(self, loc: tuple, metric: str, unit: str | None) -> None:
        """A stated unit is its metric's as the registry spells it (a default's: once for its columns)."""
        why = unit_misspelt(metric, unit)
        if why and all((p.line, p.message) != (self.doc.line_of(loc), why) for p in self.problems):
            self.add(loc, "unit", why)

    def _ref(self, loc: tuple, value: str | None, known: set[str], what: str) -> None:
        if value is not None and value not in known:
            self.add(loc, "unknown-reference", f"no {what} with id {value!r} in this bundle")

    def _table(self, i: int, t: ResultTable, sources: set, systems: set, workloads: set) -> None:
        loc = ("results", i)
        self._ref(loc + ("provenance", "source"), t.provenance.source, sources, "source")
        self._ref(loc + ("defaults", "workload"), t.defaults.workload, workloads, "workload")
        labels = [c.label for c in t.columns]
        metrics = [c.metric or t.defaults.metric for c in t.columns]
        for j, col in enumerate(t.columns):
            self._ref(loc + ("columns", j, "workload"), col.workload, workloads, "workload")
            if labels.index(col.label) != j:
                self.add(loc + ("columns", j, "label"), "duplicate-id", f"column label {col.label!r} is given twice")
            merged = {k: getattr(col, k) or getattr(t.defaults, k) for k in ("metric", "workload")}
            if merged["metric"] is None:
                self.add(loc + ("columns", j), "missing",
                         f"column {col.label!r} has no metric (set it on the column or in defaults)")
            else:  # the unit a column states, or the defaults' it takes, is its metric's as the registry spells it
                where = ("columns", j, "unit") if col.unit is not None else ("defaults", "unit")
                self._unit(loc + where, merged["metric"], col.unit or t.defaults.unit)
            if merged["workload"] is None and len(workloads) != 1:
                self.add(loc + ("columns", j), "missing",
                         f"column {col.label!r} has no workload and the bundle has {len(workloads)} workloads")
        rows = {}
        for r, row in enumerate(t.rows):
            self._ref(loc + ("rows", r, "system"), row.system, systems, "system")
            if row.system in rows:
                self.add(loc + ("rows", r, "system"), "duplicate-id", f"system {row.system!r} has two rows in this table")
            rows[row.system] = row
            cells = row.cells()
            if len(cells) != len(t.columns):
                spaced = len(cells) > len(t.columns) and re.search(r"(^|\s)[0-9]{1,3} [0-9]{3}(\s|$)", row.values)
                self.add(loc + ("rows", r, "values"), "row-length",
                         f"{len(cells)} values for {len(t.columns)} columns" + (
                             " (a number with a space between its thousands, 12 345, is two values: "
                             "write 12345)" if spaced else ""))
            for c, text in enumerate(cells):
                col = labels[c] if c < len(labels) else f"#{c + 1}"
                if not NUMBER_TEXT.match(text):
                    self.add(loc + ("rows", r, "values"), "not-a-number",
                             f"value {c + 1} ({col}) is {text!r}: {why_not_plain(text)}; "
                             "record damaged text in corrections")
                elif inexact(text):
                    self.add(loc + ("rows", r, "values"), "inexact-number", f"value {c + 1} ({col}): {inexact(text)}")
                elif float(text) < 0 and c < len(labels) and never_negative(metrics[c]):
                    self.add(loc + ("rows", r, "values"), "negative",
                             f"value {c + 1} ({col}) is {text}: {metrics[c]} is never negative (schema/fields.yaml)")
        for k, fix in enumerate(t.corrections):
            cloc = loc + ("corrections", k)
            text = self._cell(cloc, rows, labels, fix.row, fix.column)
            if text is not None and text != fix.value:
                self.add(cloc + ("value",), "correction-mismatch",
                         f"the table holds {text!r} in that cell, not {fix.value!r}")
            if fix.printed == fix.value:
                self.add(cloc + ("printed",), "correction-mismatch", "printed text equals the value: nothing was corrected")
        for k, note in enumerate(t.cell_notes):
            self._cell(loc + ("cell_notes", k), rows, labels, note.row, note.column)

    def _cell(self, loc: tuple, rows: dict, labels: list[str], system: str, column: str) -> str | None:
        """The text of the cell a correction or a cell note names, or None (reported) when there is no such cell."""
        row = rows.get(system)
        if row is None:
            self.add(loc + ("row",), "unknown-reference", f"no row for system {system!r} in this table")
            return None
        if column not in labels:
            self.add(loc + ("column",), "unknown-reference", f"no column labelled {column!r} in this table")
            return None
        cells = row.cells()
        c = labels.index(column)
        return cells[c] if c < len(cells) else None

    def _placed(self, loc: tuple, a: Artifact | Cited, systems: set, workloads: set, *, field: str,
                folder_ok: bool = False) -> Path | None:
        """The references of an artifact or a cited log, and the file of the bundle it names (``field``)."""
        self._ref(loc + ("system",), a.system, systems, "system")
        self._ref(loc + ("workload",), a.workload, workloads, "workload")
        if a.workload is None and len(workloads) != 1:
            self.add(loc, "missing", f"{a.type} {a.id!r} has no workload and the bundle has {len(workloads)} workloads")
        named = getattr(a, field)
        rel = Path(named)
        if rel.is_absolute() or ".." in rel.parts:
            self.add(loc + (field,), "path-escapes", f"{a.type} path {named!r} leaves the bundle folder")
            return None
        try:
            target, kind, why = bundle_file(self.folder, rel, folder_ok=folder_ok)
        except OSError as exc:
            target, kind, why = None, "io", "artifact path {path!r} cannot be read: " + (exc.strerror or "error")
        if target is None:
            self.add(loc + (field,), kind, why.format(path=named))
        return target

    def _cited(self, i: int, c: Cited, systems: set, workloads: set) -> None:
        loc = ("results", i)
        target = self._placed(loc, c, systems, workloads, field="figures")
        if target is None:
            return
        self._sourced(loc, c.origin)
        run, found = read_figures(target, origin={"result": c.id, "sha256": c.origin.sha256}, most=self.samples_left)
        shown = display_path(self.folder / c.figures)
        self.problems.extend(Problem(shown, p.line, p.field, p.kind, p.message, p.severity) for p in found)
        if run is None:
            self.add(loc + ("figures",), "figures", f"{c.figures} does not hold a run's figures (its problems above)")
            return
        self.samples_left -= len(run["intervals"])
        self.parsed[c.id] = run
        self._run(loc, c, run, name=c.origin.path)

    def _artifact(self, i: int, a: Artifact, systems: set, workloads: set) -> None:
        loc = ("results", i)
        target = self._placed(loc, a, systems, workloads, field="path", folder_ok=a.format == "mdstat-trace")
        if target is not None and a.origin is not None:
            self._origin(loc, a, target)
        if target is None:
            return
        elif a.format == "sysbench":
            self._sysbench(loc, a, target)
        elif a.format in ("mdstat", "mdstat-trace"):
            self._mdstat(loc, a, self.folder / a.path)  # as written: the parser refuses a symbolic link

    def _sourced(self, loc: tuple, origin) -> None:
        """A cited log's origin is one of the bundle's sources (origins.py): its values are read from nothing
        else (a carried log is the file itself, with its origin beside it)."""
        if self.bundle is not None and (why := unsourced(origin, self.bundle.sources)) is not None:
            self.add(loc + ("origin", "repository"), "origin-source", why)

    def _mdstat(self, loc: tuple, a: Artifact, target: Path) -> None:
        try:
            parsed = PARSERS[a.format](target)
        except OSError as exc:
            self.add(loc + ("path",), "artifact-unreadable", f"{a.path}: {exc.strerror or exc}")
            return
        except ParseError as exc:
            self.add(loc + ("path",), "artifact-unreadable", str(exc).replace(str(target), a.path, 1))
            return
        self.parsed[a.id] = parsed
        for warning in parsed["warnings"]:
            self.add(loc + ("path",), "artifact-warning", f"{a.path} {warning}", severity="warning")

    def _sysbench(self, loc: tuple, a: Artifact, target: Path) -> None:
        try:
            run = parse_sysbench_run(target)  # an artifact is one run: a file of several is refused
        except OSError as exc:
            self.add(loc + ("path",), "artifact-unreadable", f"{a.path}: {exc.strerror or exc}")
            return
        except ParseError as exc:
            message = str(exc).replace(str(target), a.path, 1)
            self.add(loc + ("path",), "artifact-unreadable", message)
            return
        beyond = stored_problems(run)
        for p in beyond:
            at = f" line {p.line}" if p.line else ""
            self.add(loc + ("path",), p.kind, f"{a.path}{at}: {p.field}: {p.message}" if p.field else f"{a.path}: {p.message}")
        if beyond:
            return
        self.parsed[a.id] = run
        self._run(loc, a, run, name=a.path)

    def _origin(self, loc: tuple, a: Artifact, target: Path) -> None:
        """A log carried from a repository: its licence allows it, and it is the file the origin names."""
        if a.origin.licence is None:
            self.add(loc + ("origin", "licence"), "missing",
                     "a log carried in the bundle needs the licence that allows republishing it; a log of a "
                     "repository without one is cited (type: cited, benchdb import --cite)")
        if target.is_file():
            _, digest = artifact_digest(target)
            if digest != a.origin.sha256:
                self.add(loc + ("origin", "sha256"), "sha256-mismatch",
                         f"{a.path} has the SHA-256 {digest}, not the origin's")

    def _run(self, loc: tuple, a: Artifact | Cited, run: dict, *, name: str) -> None:
        """The checks of a sysbench run against the result that places it (parsed from a log, or cited)."""
        where = loc + (("path",) if isinstance(a, Artifact) else ("figures",))
        self._findings(run_findings(bundle=self.bundle, result=a, run=run, name=name, loc=loc, log_field=where[-1]))
        if not run["complete"] and not a.incomplete:
            self.add(where, "incomplete-run",
                     f"{name} has no final statistics (a truncated or unfinished run); "
                     "set incomplete: true to keep it as an unfinished run")
        if a.threads is not None and run["threads"] is not None and a.threads != run["threads"]:
            self.add(loc + ("threads",), "threads-mismatch",
                     f"the bundle says {a.threads} threads, {name} says {run['threads']} ({run['threads_source']})")
        if a.threads is None and run["threads"] is None:
            self.add(loc + ("threads",), "missing", f"{name} does not say its thread count: give threads")
        for warning in run["warnings"]:
            self.add(where, "artifact-warning", f"{name} {warning}", severity="warning")

    def _findings(self, found: Iterable) -> None:
        """Add the findings of a room's checks (fileio.py)."""
        for finding in found:
            self.add(finding.loc, finding.kind, finding.message, severity=finding.severity)

    def _charts(self) -> None:
        drawable = set()
        if any(isinstance(r, (Artifact, Cited)) and r.format == "sysbench" for r in self.bundle.results):
            drawable |= {"tps", "qps", "latency_avg_ms", "latency_p95_ms", "latency_p99_ms"}  # run totals by threads
        for run in self.parsed.values():
            figures = run.get("fileio") or {}
            drawable |= {m.key for m in fileio_metrics() if figures.get(m.fileio) is not None}
        for t in self.bundle.results:
            if isinstance(t, ResultTable):
                for col in t.columns:
                    has_x = col.threads or t.defaults.threads or any(r.threads for r in t.rows)
                    if has_x:
                        drawable.add(col.metric or t.defaults.metric)
        self._findings(chart_findings(self.bundle))
        for i, chart in enumerate(self.bundle.charts):
            self._ref(("charts", i, "workload"), chart.workload, {w.id for w in self.bundle.workloads}, "workload")
            if chart.metric not in drawable:
                self.add(("charts", i, "metric"), "unknown-reference",
                         f"no table gives {chart.metric!r} against {chart.x!r} to draw")


def _placeholders(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """The paths of every value written as TO_BE_STATED (by ``benchdb import``), in file order."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _placeholders(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _placeholders(value, (*path, index))
    elif node == TO_BE_STATED:
        yield path


def validate_file(file: Path) -> tuple[LoadedBundle | None, list[Problem]]:
    display = display_path(file)
    if why := linked(file):
        return None, [Problem(display, None, "", "symlink", why)]
    try:
        doc = load_yaml(file)
    except YamlProblem as exc:
        return None, [Problem(display, exc.line, exc.field, "yaml", exc.message)]
    except OSError as exc:
        return None, [Problem(display, None, "", "io", exc.strerror or str(exc))]
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__ if doc.data is not None else "nothing"
        return None, [Problem(display, 1, "", "not-a-mapping", f"a bundle must be a YAML mapping, not {kind}")]
    format_needed = needs(doc.data.get("schema_version"))
    if format_needed:
        return None, [Problem(display, doc.line_of(("schema_version",)), "schema_version", "format", format_needed)]
    numbers = [Problem(display, line, _yaml_path(doc.data, path)[1], "inexact-number", why)
               for path, line, why in doc.numbers]
    numbers += [Problem(display, doc.line_of(path), _yaml_path(doc.data, path)[1], "to-be-stated",
                        f"to be stated: only the contributor knows it (replace {TO_BE_STATED})")
                for path in _placeholders(doc.data)]
    try:
        bundle = Bundle.model_validate(doc.data)
    except ValidationError as exc:
        shown = {(p.line, p.field) for p in numbers}
        problems = numbers + [p for p in _model_problems(display, doc, exc) if (p.line, p.field) not in shown]
        return None, problems + _artifacts_alone(display, file.parent, doc)
    if numbers:
        return None, numbers + _artifacts_alone(display, file.parent, doc)
    folder = file.parent
    checker = _Checker(display, folder, bundle, doc)
    problems = checker.run()
    loaded = LoadedBundle(folder=folder, file=file, bundle=bundle, doc=doc, artifacts=checker.parsed,
                          derivation=checker.derivation)
    errors = [p for p in problems if p.severity == "error"]
    return (None if errors else loaded), problems


# What an artifact's own check finds (its file, its parse, the log's warnings), reported even when the
# bundle around it does not validate yet
_OF_THE_FILE = {"artifact-warning", "artifact-unreadable", "path-escapes", "missing-file", "symlink", "not-a-file", "io"}


def _artifacts_alone(display: str, folder: Path, doc: YamlDocument) -> list[Problem]:
    """The problems of each artifact of a bundle that does not validate (values still to be stated, a
    field of the wrong type): its file is read and checked as a whole bundle's would be, so that
    validate reports everything at once, the logs' warnings with the rest (issue #51)."""
    results = doc.data.get("results")
    if not isinstance(results, list):
        return []
    ids = {section: {item.get("id") for item in doc.data.get(section) or [] if isinstance(item, dict)}
           for section in ("systems", "workloads")}
    checker = _Checker(display, folder, None, doc)
    for i, item in enumerate(results):
        kind = {"artifact": Artifact, "cited": Cited}.get(item.get("type")) if isinstance(item, dict) else None
        if kind is None:
            continue
        try:
            result = kind.model_validate(item)
        except ValidationError:
            continue  # its own problems are already reported
        (checker._artifact if kind is Artifact else checker._cited)(i, result, ids["systems"], ids["workloads"])
    return [p for p in checker.problems if p.type in _OF_THE_FILE or p.path != display]


def duplicate_id(file: Path, bundle_id: str, *, line: int | None, first: Path) -> Problem:
    return Problem(display_path(file), line, "id", "duplicate-id",
                   f"bundle id {bundle_id!r} is already used by {display_path(first)}")


def validate_paths(paths: Iterable[Path]) -> tuple[list[LoadedBundle], list[Problem]]:
    """Validate every bundle under ``paths``; return the valid ones and all problems."""
    files, problems = find_bundle_files(paths)
    loaded: list[LoadedBundle] = []
    ids: dict[str, LoadedBundle] = {}
    for file in files:
        bundle, found = validate_file(file)
        problems.extend(found)
        if bundle is None:
            continue
        first = ids.get(bundle.bundle.id)
        if first is not None:
            problems.append(duplicate_id(file, bundle.bundle.id, line=bundle.doc.line_of(("id",)), first=first.file))
            continue
        ids[bundle.bundle.id] = bundle
        loaded.append(bundle)
    return loaded, problems
