"""What the page cache (shards.py) keys its entries by, and which entry each page of a run goes in.

Each study's pages are an entry of their own, under the SHA-256 of everything a run of Hugo over that
study alone reads (``study_keys``): the site (``common_digest``), the study's cut of each exported
data file (shards.CATALOGUE) and the exported assets it can read. After one bundle changed, Hugo
renders that study's pages only, not its shard's hundred-odd studies (4 s of Hugo's time at 1,000
bundles on a busy 2-core machine, for 0.5 s). A run renders many studies at once all the same (a
shard of those whose pages are not in the cache: a run costs Hugo some 0.4 s before its first page),
and its pages are then moved into each study's entry by their folders (``folders_by_study``). Each facet page
is an entry too (``facet_keys``).
"""

from __future__ import annotations

import hashlib
import json
from importlib.metadata import version
from pathlib import Path

from ..plumbing.digests import Digests
from ..bundles.problems import BuildError
from ..publish.artifacts import LINES
from ..publish.facets import PAGES as FACET_PAGES
from .shards import (CATALOGUE, HUGO_WRITES, FacetPage, entries_of_studies, facet_entries_by_study, facet_rules, facets_of_run,
                     loaded)

# Where the pages of a study are in the output of a run of the "studies" segment (site/hugo.toml): the
# first folders of a file's path, and what the folder after them names: a study, or a chart of one
# (embed/<chart>/), whose study the run's embeds.json says. A file directly in one of these folders,
# or in none of them, is one that every run writes alike (scripts, styles): it goes in every entry.
STUDY_FOLDERS = {("studies",): "study", ("artifacts",): "study", ("explore", "rows"): "study",
                 ("compare", "series"): "study", ("embed",): "chart"}


def _digest_files(digest, root: Path, paths, digests: Digests | None = None) -> None:
    """Add each file of ``paths`` to ``digest``: its path from ``root``, its size and its SHA-256 (of the
    files the build wrote, remembered from one build to the next by ``digests``: digests.py)."""
    for path in paths:
        sha = digests.of(path, written_by_build=True) if digests else hashlib.sha256(path.read_bytes()).hexdigest()
        digest.update(f"{path.relative_to(root).as_posix()}\n{path.stat().st_size}\n{sha}\n".encode())


def common_digest(*, root: Path, site_url: str) -> str:
    """What every run of Hugo reads besides its data: the site (templates, assets, config), the
    content (docs/ too), the npm packages bundled into its scripts, Hugo, the deployment's address."""
    digest = hashlib.sha256()
    for folder in ("site", "content", "docs"):  # docs/ is mounted as content/docs (site/hugo.toml)
        base = root / folder
        _digest_files(digest, root, sorted(p for p in base.rglob("*") if p.is_file()
                                           and p.relative_to(base).as_posix() not in HUGO_WRITES
                                           and p.relative_to(base).parts[0] != "resources"))
    lock = root / "node_modules" / ".package-lock.json"
    digest.update(lock.read_bytes() if lock.is_file() else b"no lock")
    digest.update(json.dumps({"hugo": version("hugo"), "site_url": site_url}).encode())
    return digest.hexdigest()


def _assets(assets: Path) -> tuple[list[Path], dict[str, list[Path]]]:
    """The exported assets of no study (sorted), and each study's own: those named by it (its rows of
    Explore, its series of Compare) and the lines of its artifacts' pages (lines/<study>/...)."""
    files = sorted(p for p in assets.rglob("*") if p.is_file())
    named = {p.stem for p in (assets / "explore").glob("*.json")} | {p.stem for p in (assets / "compare").glob("*.json")}
    shared, own = [], {}
    for path in files:
        parts = path.relative_to(assets).parts
        study = parts[1] if parts[0] == LINES and len(parts) > 2 else path.stem if path.stem in named else None
        own.setdefault(study, []).append(path) if study else shared.append(path)
    return shared, own


def _cuts(value, rule, studies: list[str], where: str) -> dict[str, object]:
    """``value`` as a run of each study alone reads it, by ``rule`` (CATALOGUE's "shard"): for each
    study what shards._cut gives for it, in one pass over ``value``."""
    if rule == "whole":
        return dict.fromkeys(studies, value)
    if rule == "keys by study":
        return {s: {s: value[s]} if s in value else {} for s in studies}
    if rule == "by study" and isinstance(value, dict):  # a map of lists (embeds by chart): a key goes with its rows' study
        maps: dict[str, dict] = {s: {} for s in studies}
        for key, rows in value.items():
            for study in sorted({r["study"] for r in rows} & maps.keys()):
                maps[study][key] = rows
        return maps
    if rule == "by study":
        lists: dict[str, list] = {s: [] for s in studies}
        for row in value:
            if row["study"] in lists:
                lists[row["study"]].append(row)
        return lists
    if isinstance(rule, dict):
        inner = {key: _cuts(value[key], r, studies, f"{where}: {key}") for key, r in rule.items() if key in value}
        return {s: {key: cut[s] for key, cut in inner.items()} for s in studies}
    raise BuildError(f"{where}: no rule {rule!r} in ingest/build/shards.py's CATALOGUE")


def study_keys(*, common: str, data: Path, assets: Path, digests: Digests, values: dict) -> dict[str, str]:
    """The key of each exported study's pages in the page cache, by study: ``common``, what a run of
    that study alone reads of the ``data`` (CATALOGUE's "shard": each file cut to the study; the
    files it reads are parsed once into ``values``, which split_data reads too) and the exported
    assets it can read (its own, and those of no study)."""
    studies = sorted(p.stem for p in (data / "studies").glob("*.json"))
    shared = hashlib.sha256(f"{common}\n".encode())
    own = {s: hashlib.sha256() for s in studies}
    for name, rules in sorted(CATALOGUE.items()):
        rule, path = rules["shard"], data / name
        if rule is None or not path.exists():
            continue
        if rule == "whole":
            _digest_files(shared, data, [path], digests)
        elif rule == "study file":
            for study in studies:
                file = path / f"{study}.json"
                if file.is_file():
                    _digest_files(own[study], data, [file], digests)
                else:
                    own[study].update(f"{name}/{study}.json: none\n".encode())
        else:
            for study, cut in _cuts(loaded(data, name, values), rule, studies, str(path)).items():
                own[study].update(f"{name}\n".encode())
                own[study].update(json.dumps(cut, ensure_ascii=False, separators=(",", ":")).encode())
                own[study].update(b"\n")
    of_none, by_study = _assets(assets)
    _digest_files(shared, assets, of_none, digests)
    keys = {}
    for study in studies:
        digest = shared.copy()
        digest.update(own[study].digest())
        _digest_files(digest, assets, by_study.get(study, []), digests)
        keys[study] = digest.hexdigest()
    return keys


def folders_by_study(run: Path, *, studies: tuple[str, ...], charts: dict[str, str]) -> dict[str, list[str]]:
    """The folders of a run's output (``run``, of the pages of ``studies``) that hold each study's
    pages, each a page with its files (STUDY_FOLDERS; ``charts``: each chart's study, by its folder in
    embed/): moved whole into the study's entry, not file by file (at 1,000 bundles, 14,000 folders
    made and removed again). A folder there whose study is not one of the run's stops the build."""
    mine = set(studies)
    found: dict[str, list[str]] = {s: [] for s in studies}
    for prefix, named in STUDY_FOLDERS.items():
        base = run.joinpath(*prefix)
        for item in sorted(base.iterdir()) if base.is_dir() else ():
            if not item.is_dir():  # a file of every run (embed/resize.js)
                continue
            study = charts.get(item.name) if named == "chart" else item.name
            if study not in mine:
                raise BuildError(f"{item}: a page of none of this run's studies ({named} {item.name!r}; "
                                 "ingest/build/page_keys.py: STUDY_FOLDERS)")
            found[study].append(item.relative_to(run).as_posix())
    return found


def charts_of(data: Path) -> dict[str, str]:
    """The study of each chart of a run's data (its embeds.json), by the chart's folder in embed/."""
    path = data / "embeds.json"
    embeds = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return {row["page"].strip("/").split("/")[-1]: row["study"] for rows in embeds.values() for row in rows}


def facet_keys(*, common: str, data: Path, facets: dict, pages: list[FacetPage], assets: Path,
               digests: Digests, values: dict | None = None) -> list[str]:
    """The key of each facet page in the page cache: ``common``, what a run of that page alone reads of
    the data (its facet's part of facets.json and the others' titles, its file, its studies' part of
    the files read by study, the files read whole) and the exported assets of no study. ``values``:
    the data files parsed already (shards.loaded)."""
    rules = facet_rules(data)
    unknown = sorted(n for n, r in rules.items() if r not in ("whole", "by study", "facets of the run", "page files"))
    if unknown:
        raise BuildError(f"{data / unknown[0]}: no rule {rules[unknown[0]]!r} for facet pages in ingest/build/shards.py's CATALOGUE")
    by_study = facet_entries_by_study(data, values)
    shared = hashlib.sha256(f"{common}\n".encode())
    _digest_files(shared, data, [data / name for name, rule in rules.items() if rule == "whole"], digests)
    _digest_files(shared, assets, _assets(assets)[0], digests)
    keys = []
    for page in pages:
        digest = shared.copy()
        cut = [facets_of_run(facets, [page]), *(entries_of_studies(by_study[name], page.studies) for name in sorted(by_study))]
        digest.update(json.dumps(cut, ensure_ascii=False).encode())
        _digest_files(digest, data, [data / FACET_PAGES / f"{page.name}.json"], digests)
        keys.append(digest.hexdigest())
    return keys
