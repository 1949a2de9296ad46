"""Bundle format versions: a bundle of an older format rewritten to the current one (``benchdb migrate``),
one step at a time, as asv keeps its result files readable across versions.

Each step rewrites the file's text, not a YAML round trip, so that its comments, anchors, layout and
line numbers (which provenance cites) stay as they are. From format 1 to 2 nothing of a bundle changes
meaning: format 2 only adds (schema/models.py), so the step is its ``schema_version`` line.

Then, in a bundle of any format, a value's unit written as a source prints it (``TpmC``) becomes its
metric's unit as schema/fields.yaml spells it (``new-order transactions/min``): only the spellings the
registry lists as ``also_printed`` for that metric, never a unit it does not know (``ms`` for a metric in
seconds is another quantity, which validate reports and no rewrite may hide).

And a cited log's figures file of JSON Lines (the format before Parquet, schema/figures.py) is read with
every check it always had, written again as Parquet beside it, and the bundle names the new file: only
once every figures file of the bundle has been read without a problem (``convert_figures``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from schema.models import SCHEMA_VERSION

from ..plumbing.beside import written_beside
from . import cited, cited_lines
from .fields import metric
from .files import bundle_file, linked
from .yamlfile import YamlDocument, YamlProblem, load_yaml, load_yaml_text

VERSION_LINE = re.compile(r"^(\s*schema_version\s*:\s*)(['\"]?)(\d+)\2(\s*(?:#.*)?)$")


class MigrateError(Exception):
    pass


def _version_line(text: str, *, line: int, to: int) -> str:
    lines = text.split("\n")
    match = VERSION_LINE.match(lines[line - 1])
    if match is None:
        raise MigrateError(f"line {line}: schema_version is not written on one line of its own")
    lines[line - 1] = f"{match.group(1)}{to}{match.group(4)}"
    return "\n".join(lines)


# format N -> its rewrite to N + 1: the file's text, and the line of its schema_version
STEPS: dict[int, Callable[..., str]] = {
    1: lambda text, *, line: _version_line(text, line=line, to=2),
}


def _document(file: Path) -> YamlDocument:
    try:
        return load_yaml(file)
    except YamlProblem as exc:
        raise MigrateError(f"{exc.line or '-'}: {exc.message}") from None


def version_of(file: Path) -> tuple[int, int]:
    """A bundle file's format and the line that states it."""
    doc = _document(file)
    version = doc.data.get("schema_version") if isinstance(doc.data, dict) else None
    if not isinstance(version, int) or isinstance(version, bool):
        raise MigrateError("no schema_version that is a whole number")
    return version, doc.line_of(("schema_version",))


@dataclass(frozen=True)
class UnitRewrite:
    """A unit written as a source prints it, and the registry's spelling it becomes."""

    line: int
    field: str  # as validate names it: results[<id>].defaults.unit
    printed: str
    unit: str

    def __str__(self) -> str:
        return f"{self.line}: {self.field}: unit {self.printed!r} -> {self.unit!r}"


def _known(key: object) -> str | None:
    """``key`` if it is a metric of the registry (a bundle's text may hold anything)."""
    try:
        return metric(key).key if isinstance(key, str) else None
    except StopIteration:
        return None


def _stated_units(data: object) -> Iterator[tuple[tuple, str, str, set[str]]]:
    """Every unit a bundle states for values: (its path, its name as validate writes it, the unit, the
    metrics of the values it is the unit of)."""
    results = data.get("results") if isinstance(data, dict) else None
    for i, result in enumerate(results if isinstance(results, list) else []):
        if not isinstance(result, dict):
            continue
        name = f"results[{result['id']}]" if isinstance(result.get("id"), str) else f"results[{i}]"
        if result.get("type") == "derived":
            yield ("results", i, "unit"), f"{name}.unit", result.get("unit"), {_known(result.get("metric"))}
        if result.get("type") != "table":
            continue
        defaults = result.get("defaults") if isinstance(result.get("defaults"), dict) else {}
        columns = [c if isinstance(c, dict) else {} for c in result.get("columns") or []] \
            if isinstance(result.get("columns"), list) else []
        of_defaults = {_known(c.get("metric") or defaults.get("metric")) for c in columns if c.get("unit") is None}
        yield ("results", i, "defaults", "unit"), f"{name}.defaults.unit", defaults.get("unit"), of_defaults
        for j, column in enumerate(columns):
            yield (("results", i, "columns", j, "unit"), f"{name}.columns[{j}].unit", column.get("unit"),
                   {_known(column.get("metric") or defaults.get("metric"))})


def _plain(unit: str) -> str:
    """``unit`` as a YAML value on a line: as it is where YAML reads it back so, else double-quoted."""
    try:
        if load_yaml_text("{unit: %s}" % unit).data == {"unit": unit}:
            return unit
    except YamlProblem:
        pass
    return json.dumps(unit, ensure_ascii=False)


def _rewrite_units(text: str, doc: YamlDocument) -> tuple[str, list[UnitRewrite]]:
    """``text`` with every unit written as a source prints it rewritten to the registry's spelling."""
    lines, done, rewrites = text.split("\n"), set(), []
    for path, name, unit, metrics in _stated_units(doc.data):
        if not isinstance(unit, str) or None in metrics or not metrics:
            continue  # no unit, or one of a value whose metric validate reports
        spelt = {metric(key).unit for key in metrics}
        if len(spelt) != 1 or not all(unit in metric(key).also_printed for key in metrics):
            continue  # the registry's own spelling, or one it does not know for each of these metrics
        (registry_unit,) = spelt
        line = doc.line_of(path)
        rewrites.append(UnitRewrite(line, name, unit, registry_unit))
        if (line, unit) in done:
            continue  # an anchor's unit, rewritten once for every value that takes it
        done.add((line, unit))
        written = re.compile(r"(?<![\w-])(unit\s*:\s*(?:&[^\s,{}\[\]]+\s+)?)(['\"]?)" + re.escape(unit)
                             + r"\2(?=\s*(?:[,}\]#]|$))")  # its key, an anchor it names, its quotes
        found = written.findall(lines[line - 1])
        if len(found) != 1:
            raise MigrateError(f"line {line}: {name}: the unit {unit!r} is not written once on its line as "
                               f"`unit: {unit}`; rewrite it to {registry_unit!r} by hand")
        lines[line - 1] = written.sub(lambda m: m.group(1) + (  # quoted as it was, where the quotes hold it
            m.group(2) + registry_unit + m.group(2) if m.group(2) and m.group(2) not in registry_unit
            else _plain(registry_unit)), lines[line - 1])
    text = "\n".join(lines)
    if rewrites:
        _check_rewrite(text, doc, rewrites)
    return text, rewrites


def _check_rewrite(text: str, doc: YamlDocument, rewrites: list[UnitRewrite]) -> None:
    """The rewritten text reads back as the bundle did but for the units rewritten (an anchor's unit that
    other metrics' values share, a line the rewrite broke: refused, to be rewritten by hand)."""
    try:
        again = load_yaml_text(text)
    except YamlProblem as exc:
        raise MigrateError(f"{exc.line or '-'}: rewriting the units would make {exc.message}") from None
    to = {r.field: r.unit for r in rewrites}
    before, after = list(_stated_units(doc.data)), list(_stated_units(again.data))
    for (path, name, unit, _), (_, _, now, _) in zip(before, after, strict=True):
        if now != to.get(name, unit):
            raise MigrateError(f"line {doc.line_of(path)}: {name}: rewriting the units would change this one's "
                               f"({unit!r} to {now!r}, an anchor other metrics' values share); rewrite them by hand")


@dataclass(frozen=True)
class FiguresRewrite:
    """A cited result's figures file of JSON Lines and the Parquet file it becomes ("parquet"), or a Parquet
    file written before figures were tied to their origin, written again with it ("origin")."""

    line: int
    field: str  # as validate names it: results[<id>].figures
    old: str
    new: str
    origin: dict  # what the file is the figures of (schema/figures.py: FiguresOrigin)
    kind: str = "parquet"

    def __str__(self) -> str:
        if self.kind == "origin":
            return f"{self.line}: {self.field}: {self.old} tied to its result and its log's SHA-256"
        return f"{self.line}: {self.field}: {self.old} -> {self.new} (JSON Lines to Parquet)"


def _origin_of(result: dict) -> dict | None:
    """What a cited result's figures are of (its id, its origin's SHA-256), or None where the bundle does
    not say it well enough (validate names the field)."""
    sha = result.get("origin", {}).get("sha256") if isinstance(result.get("origin"), dict) else None
    if not isinstance(result.get("id"), str) or not isinstance(sha, str):
        return None
    return {"result": result["id"], "sha256": sha}


def _untied(folder: Path, path: str) -> bool:
    """Whether the bundle's Parquet figures file ``path`` is one of before ORIGIN_KEY (no symbolic link
    followed: one on the way is a MigrateError, not a silent skip; a file that is not there or not Parquet
    is validate's to name)."""
    target, kind, why = bundle_file(folder, Path(path), folder_ok=False)
    if kind in ("symlink", "path-escapes"):
        raise MigrateError("-: " + why.format(path=path))
    try:
        return target is not None and target.is_file() and cited.stored_origin(target) is None
    except (OSError, ValueError, cited.Refused):
        return False


def _rewrite_figures(text: str, doc: YamlDocument, folder: Path) -> tuple[str, list[FiguresRewrite]]:
    """``text`` with every cited result's ``figures: <path>.jsonl`` naming its Parquet file instead, and
    the Parquet files of before ORIGIN_KEY to tie (the text as it is)."""
    results = doc.data.get("results") if isinstance(doc.data, dict) else None
    lines, rewrites = text.split("\n"), []
    for i, result in enumerate(results if isinstance(results, list) else []):
        old = result.get("figures") if isinstance(result, dict) and result.get("type") == "cited" else None
        origin = _origin_of(result) if isinstance(old, str) else None
        if origin is None:
            continue
        name = f"results[{result['id']}]"
        line = doc.line_of(("results", i, "figures"))
        if old.endswith(cited.SUFFIX) and _untied(folder, old):
            rewrites.append(FiguresRewrite(line, f"{name}.figures", old, old, origin, kind="origin"))
        if not old.endswith(cited_lines.SUFFIX):
            continue
        new = old.removesuffix(cited_lines.SUFFIX) + cited.SUFFIX
        written = re.compile(r"(?<![\w-])(figures\s*:\s*)(['\"]?)" + re.escape(old) + r"\2(?=\s*(?:[,}#]|$))")
        if line is None or len(written.findall(lines[line - 1])) != 1:
            raise MigrateError(f"line {line or '-'}: {name}.figures: {old!r} is not written once on its line as "
                               f"`figures: {old}`; convert it by hand")
        lines[line - 1] = written.sub(lambda m: m.group(1) + m.group(2) + new + m.group(2), lines[line - 1])
        rewrites.append(FiguresRewrite(line, f"{name}.figures", old, new, origin))
    return "\n".join(lines), rewrites


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def convert_figures(folder: Path, rewrites: list[FiguresRewrite], *, write: bool) -> None:
    """Read each figures file of JSON Lines ``rewrites`` names in the bundle ``folder`` (no symbolic link
    followed) and, with ``write``, write its Parquet file beside it: all read before any is written, so
    that a problem in one leaves the bundle as it was. The JSON Lines files stay until the bundle names
    the new ones (the caller removes them)."""
    runs = []
    for rewrite in rewrites:
        target, _, why = bundle_file(folder, Path(rewrite.old), folder_ok=False)
        if target is None:
            raise MigrateError(f"{rewrite.line}: {rewrite.field}: " + why.format(path=rewrite.old))
        if rewrite.kind == "origin":  # read as validate reads it: every problem but the missing tie is the file's
            digest = _sha256(target)
            run, problems = cited.read_figures(target, origin=rewrite.origin)
            problems = [p for p in problems if p.field != cited.ORIGIN_KEY]
            if _sha256(target) != digest:
                raise MigrateError(f"{rewrite.line}: {rewrite.field}: {rewrite.old} changed while it was read: "
                                   "run migrate again")
            run = digest  # what tie_figures writes from: the bytes checked
        else:
            run, problems = cited_lines.read_figures_lines(target)
        errors = [p for p in problems if p.severity == "error"]
        if errors or (run is None and rewrite.kind != "origin"):
            first = errors[0] if errors else problems[0]
            raise MigrateError(f"{rewrite.line}: {rewrite.field}: {rewrite.old}:{first.line or '-'}: "
                               f"{first.field + ': ' if first.field else ''}{first.message}"
                               + (f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""))
        runs.append((rewrite, run))
    for rewrite, run in runs if write else ():
        if rewrite.kind == "origin":
            try:
                cited.tie_figures(folder / rewrite.new, origin=rewrite.origin, sha256=run)
            except cited.Refused as exc:
                raise MigrateError(f"{rewrite.line}: {rewrite.field}: {rewrite.old}: {exc}") from None
        else:
            cited.write_figures(run, folder / rewrite.new, origin=rewrite.origin)


def migrated(file: Path) -> tuple[str, list[int], list[UnitRewrite], list[FiguresRewrite]] | None:
    """The text of ``file`` rewritten to the current format, the formats it went through (none when it
    was of the current one), the units it rewrote to the registry's spelling and the figures files it
    names in Parquet instead of JSON Lines (convert_figures writes them); None when nothing changes."""
    if why := linked(file):  # validate refuses it too: a rewrite would change the file it points at
        raise MigrateError(f"-: {why}")
    version, line = version_of(file)
    if version not in STEPS and version < SCHEMA_VERSION or version > SCHEMA_VERSION:
        raise MigrateError(f"format {version}: this version of benchdb reads format {SCHEMA_VERSION} and migrates "
                           f"formats {', '.join(map(str, sorted(STEPS)))}")
    with open(file, encoding="utf-8", newline="") as f:  # its line endings as they are
        raw = f.read()
    crlf = raw.count("\r\n") == raw.count("\n") > 0  # written with CRLF: rewritten so (issue #61)
    text, path = (raw.replace("\r\n", "\n") if crlf else raw), []
    while version < SCHEMA_VERSION:
        text = STEPS[version](text, line=line)
        path.append(version)
        version += 1
    try:
        text, rewrites = _rewrite_units(text, load_yaml_text(text))
        text, figures = _rewrite_figures(text, load_yaml_text(text), file.parent)
    except YamlProblem as exc:
        raise MigrateError(f"{exc.line or '-'}: {exc.message}") from None
    if not path and not rewrites and not figures:
        return None
    return (text.replace("\n", "\r\n") if crlf else text), (path + [SCHEMA_VERSION] if path else []), rewrites, figures


def needs(version: object) -> str | None:
    """What validate says of a bundle's format when it is not the current one (None when it is)."""
    if version == SCHEMA_VERSION or not isinstance(version, int) or isinstance(version, bool):
        return None
    if version in STEPS:
        return (f"bundle format {version}: this version reads format {SCHEMA_VERSION}; `benchdb migrate` rewrites "
                f"it (run it with --write)")
    return f"bundle format {version}: this version of benchdb reads format {SCHEMA_VERSION}"


def replace_text(file: Path, text: str) -> None:
    """``file`` holding ``text`` (its line endings as given: migrated() keeps the file's), or as it was:
    written beside it and moved into its place (written in place, a full disk cut a bundle.yaml of
    24,348 bytes at 16,384: issue #61's fourth pass)."""
    with written_beside(file, prefix=f".{file.name}.", mode=stat.S_IMODE(os.lstat(file).st_mode)) as f:
        f.write(text.encode("utf-8"))
