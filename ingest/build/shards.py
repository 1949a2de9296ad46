"""The site rendered in parts: the pages that read many studies at once, each group of studies' own,
and each page of the facets.

Hugo renders every page of a site in one process, holding all of them: at 1,000 bundles 15 s and
1.2 GiB, at 10,000 bundles 587 s and 7 GiB, and all of it again after one bundle changed. The site's
config (site/hugo.toml, ``[segments]``) splits the pages: ``studies``, each study's own pages (its
page, its Explore rows and Compare series, its chart embeds and its logs), and ``site``/``views``, the
rest. The build then runs Hugo

- once over a cut of the exported data, rendering only the pages of ``site`` and ``views`` (home,
  lists, Explore, Compare, /sql/, ...);
- for the studies whose pages the cache does not hold, once per shard of them (``shard_of``: by the
  SHA-256 of the study's id, so a study stays in its shard as others come and go), over those
  studies' data only (``split_data``: each exported data file cut by study, as ``CATALOGUE`` says),
  rendering only the pages of ``studies``;
- for the facet pages (/raid-level/, /raid-level/2/, ...: twenty studies a page, the most costly pages
  of the site), a few runs, each over the data of its pages only (``facet_run_data``), rendering
  only them (a segment made for the run: ``facet_segment``).

Each study's pages, and each facet page, are kept in ``build/cache/pages/`` under the SHA-256 of
everything a run of it alone reads (page_keys.py: the site's templates, assets and config, the
content, the npm packages' lock, Hugo's version, the deployment's address, its data and the exported
assets it can read): after one bundle changed, only its study's pages and the facet pages it is on
are rendered again. As a run sees no other study's data, a study's pages cannot depend on another
study, and the pages are the same whichever run renders them (tests/test_shards.py renders the
project's studies in one shard and in several, and the facet pages in one run and one a run, and
compares them byte for byte). No run writes into the site's folder: each writes into a folder of its
own, whose files are then moved into their cache entries (page_keys.folders_by_study) and linked in,
the cached ones while Hugo runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..plumbing.cache import PRUNE_EVERY, TMP, CacheCounts, make_entry, prune
from ..plumbing.recycle import NO_SPARE, Tree
from ..bundles.problems import BuildError
from ..publish.facets import page_name

# Studies a run of Hugo renders, at most on average: the shard count is the power of two that allows it.
# A run costs about 0.4 s before its first page (0.6 s of CPU). Hugo's phase over a 10,000-bundle
# export, from an empty page cache, took 611.6 s (935 s of its children's CPU) in 128 runs of 78
# studies on average and 527.5 s (866 s) in 32 runs of 313; a run of 313 studies alone peaked at
# 0.56 GB, one of 79 at 0.23 GB. At 1,000 bundles 2, 4 and 8 runs took about as long.
STUDIES_PER_SHARD = 320
MAX_BYTES = 4 * 2**30  # the page cache's bound (cache.prune)
# Hugo's runs at once, and what follows the runs of study pages (the build: their search index) in the
# place of one of them. At 10,000 bundles, Pagefind's part of 2,500 study pages beside two runs of
# facet pages took the whole tree to 3.93 GiB, against 2.45 GiB with the index made after every run.
SLOTS = 2
# what Hugo itself writes into the site folder (not what it reads): its lock, and the paths of the
# script bundles' imports for editors (which name the generation's folders)
HUGO_WRITES = {".hugo_build.lock", "assets/jsconfig.json"}
# How the build cuts each file of the exported data (export/data/) for the three kinds of run.
# For a shard ("shard") and a run of facet pages ("facets"): "study file" (a folder of a file a study,
# <folder>/<id>.json: the shard's own studies'), "page files" (facet_pages/<facet>-<n>.json: the run's own pages'), "by study" (a list of rows, or
# a map of lists of rows, each row with its study), "keys by study" (a map from study to its value),
# "whole" (as it is), a map (its keys cut each by its own rule; a key not named is left out), or None
# (not read). For the site's own run ("site"): "whole", None, or {"as": name} (whole, under another
# name): the export writes what the site's pages read of every study into files of their own, so that
# the site's run does not read every study's data (at 1,000 bundles 3.8 s instead of 8.3 s for the same
# pages) and the build does not parse it to cut it. A data file the catalogue does not name stops the
# build.
CATALOGUE: dict[str, dict] = {
    "studies": {"shard": "study file", "facets": None, "site": None},
    # what the lists of studies (home, /studies/) read of every study (publish/study_cache.py: LISTED),
    # in the place of the studies' documents
    "study_list.json": {"shard": None, "facets": None, "site": {"as": "studies.json"}},
    # each study's logs and traces with their lines (its log pages'), and the list of them all without
    "artifacts": {"shard": "study file", "facets": None, "site": None},
    "artifact_list.json": {"shard": None, "facets": None, "site": "whole"},
    "embeds.json": {"shard": "by study", "facets": "by study", "site": "whole"},
    "explore.json": {"shard": {"studies": "by study"}, "facets": None, "site": "whole"},
    "compare.json": {"shard": {"studies": "by study", "fields": "whole"}, "facets": None, "site": "whole"},
    "findings.json": {"shard": {"headlines": "keys by study"}, "facets": None, "site": "whole"},
    # every study's claims by verdict, with their counts (home, /claims/)
    "claims.json": {"shard": None, "facets": None, "site": "whole"},
    "fields.json": {"shard": "whole", "facets": "whole", "site": "whole"},
    "run_quality.json": {"shard": "whole", "facets": "whole", "site": "whole"},
    "preview.json": {"shard": "whole", "facets": "whole", "site": "whole"},
    # each facet's prose and pages (cut to the facets of the run's pages), and each page's studies
    "facets.json": {"shard": None, "facets": "facets of the run", "site": None},
    "facet_pages": {"shard": None, "facets": "page files", "site": None},
    "sql.json": {"shard": None, "facets": None, "site": "whole"},
    "landing.json": {"shard": None, "facets": None, "site": "whole"},
    # each facet's question and answer (home, /facets/; a facet page reads its own in facets.json), and
    # the evidence grades' marks and words
    "answers.json": {"shard": None, "facets": None, "site": "whole"},
    "evidence_grades.json": {"shard": "whole", "facets": "whole", "site": "whole"},
}
FACET_PAGES_PER_RUN = 40  # at most, in one run of Hugo: at 1,000 bundles (70 pages) two runs, one a core


@dataclass(frozen=True)
class Shard:
    number: int
    studies: tuple[str, ...]
    data: Path  # the shard's cut of the exported data


@dataclass(frozen=True)
class Parts:
    site: Path  # the site's cut of the exported data
    shards: list[Shard]


def shard_count(studies: int, *, per_shard: int = STUDIES_PER_SHARD) -> int:
    count = 1
    while count * per_shard < studies:
        count *= 2
    return count


def shard_of(study: str, count: int) -> int:
    return int.from_bytes(hashlib.sha256(study.encode()).digest()[:8], "big") % count


def _cut(value, rule, shard: set[str], where: str):
    """``value`` as the shard sees it, by ``rule`` (CATALOGUE)."""
    if rule == "whole":
        return value
    if rule == "keys by study":
        return {k: v for k, v in value.items() if k in shard}
    if rule == "by study":
        if isinstance(value, dict):  # a map of lists (embeds by chart): a key goes with its rows' study
            return {k: rows for k, rows in value.items() if {r["study"] for r in rows} & shard}
        return [row for row in value if row["study"] in shard]
    if isinstance(rule, dict):
        return {key: _cut(value[key], inner, shard, f"{where}: {key}") for key, inner in rule.items() if key in value}
    raise BuildError(f"{where}: no rule {rule!r} in ingest/build/shards.py's CATALOGUE")


def _write(path: Path, value) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def loaded(data: Path, name: str, values: dict):
    """The exported data file ``name``, parsed once for a build into ``values`` (a dict it fills)."""
    if name not in values:
        values[name] = json.loads((data / name).read_text(encoding="utf-8"))
    return values[name]


def split_data(*, data: Path, out: Path, per_shard: int = STUDIES_PER_SHARD, render: set[str] | None = None,
               values: dict | None = None) -> Parts:
    """Write the site's cut of the exported ``data`` folder into ``out/site/`` and each shard's into
    ``out/<n>/``; return them (the shards that have studies, each with its studies in order). With
    ``render``, a shard holds only those of its studies (the studies whose pages are rendered), and a
    shard with none is left out. ``values``: the data files parsed already (``loaded``)."""
    values = {} if values is None else values
    names = sorted(p.name for p in data.iterdir())
    unknown = [n for n in names if n not in CATALOGUE]
    if unknown:
        raise BuildError(f"exported data {data / unknown[0]}: not in ingest/build/shards.py's CATALOGUE (say which "
                         "pages read it: each study's, or only the site's)")
    studies = sorted(p.stem for p in (data / "studies").glob("*.json"))
    count = shard_count(len(studies), per_shard=per_shard)
    groups: dict[int, list[str]] = {}
    for study in studies if render is None else sorted(render):
        groups.setdefault(shard_of(study, count), []).append(study)
    parts = Parts(out / "site", [Shard(n, tuple(ids), out / str(n)) for n, ids in sorted(groups.items())])
    parts.site.mkdir(parents=True)
    for shard in parts.shards:
        shard.data.mkdir(parents=True)
    for name in names:
        rule, site = CATALOGUE[name]["shard"], CATALOGUE[name]["site"]
        if rule is None and site is None:
            continue
        if rule == "study file":  # a folder of a file a study (a study may have none)
            for shard in parts.shards:
                (shard.data / name).mkdir(exist_ok=True)
                for study in shard.studies:
                    if (data / name / f"{study}.json").is_file():
                        os.link(data / name / f"{study}.json", shard.data / name / f"{study}.json")
            continue
        value = None if rule in (None, "whole") or not parts.shards else loaded(data, name, values)
        if site is not None:
            os.link(data / name, parts.site / (site["as"] if isinstance(site, dict) else name))
        for shard in parts.shards if rule is not None else ():
            if rule == "whole":
                os.link(data / name, shard.data / name)
            else:
                _write(shard.data / name, _cut(value, rule, set(shard.studies), str(data / name)))
    return parts


@dataclass(frozen=True)
class FacetPage:
    """A page of a facet's studies: rendered, and kept in the page cache, from its own data."""
    facet: str
    name: str  # its file in facet_pages/ (publish/facets.py: page_name)
    path: str  # its address, e.g. /raid-level/2/
    studies: tuple[str, ...]
    embed: str | None = None  # on a facet's first page, its evidence plot's embed page (rendered with it)
    details: tuple[str, ...] = ()  # the pages of their own of its studies too heavy for it (rendered with it)

    @property
    def file(self) -> str:
        """The page's file in the site."""
        return f"{self.path.strip('/')}/index.html"

    @property
    def files(self) -> list[str]:
        """The page's file and the folders of the embed page and study pages rendered with it, in the site."""
        return [self.file, *([self.embed.strip("/")] if self.embed else []), *(d.strip("/") for d in self.details)]


def facet_pages_of(data: Path) -> tuple[dict, list[FacetPage]]:
    """The exported facets (facets.json) and every page of them."""
    facets = json.loads((data / "facets.json").read_text(encoding="utf-8"))
    return facets, [FacetPage(slug, page_name(slug, c["number"]), c["path"], tuple(c["studies"]),
                              _evidence_embed(facet) if c["number"] == 1 else None, tuple(c["details"]))
                    for slug, facet in facets.items() for c in facet["chunks"]]


def _evidence_embed(facet: dict) -> str | None:
    """The path of a facet's evidence embed page (publish/evidence_embed.py), if it has one."""
    return ((facet.get("evidence") or {}).get("embed") or {}).get("page")


def facets_of_run(facets: dict, pages: list[FacetPage]) -> dict:
    """facets.json as a run of ``pages`` reads it: their facets' prose and pages, the others' titles."""
    mine = {p.facet for p in pages}
    return {slug: facet if slug in mine else {"title": facet["title"], "chunks": []} for slug, facet in facets.items()}


def facet_rules(data: Path) -> dict[str, str]:
    """What a run of facet pages reads of each exported data file there is (CATALOGUE's "facets")."""
    return {name: rules["facets"] for name, rules in sorted(CATALOGUE.items())
            if rules["facets"] is not None and (data / name).exists()}


def facet_entries_by_study(data: Path, values: dict | None = None) -> dict[str, dict[str, dict]]:
    """Each data file a run of facet pages reads "by study" (a map of lists of rows), its entries by
    the study their rows are of: a page's part is the entries of its studies. ``values``: the data
    files parsed already (``loaded``)."""
    found: dict[str, dict[str, dict]] = {}
    for name, rule in facet_rules(data).items():
        if rule == "by study":
            value = loaded(data, name, {} if values is None else values)
            if not isinstance(value, dict):
                raise BuildError(f"{data / name}: a run of facet pages reads it by study, so it must be a map of lists of rows")
            for key, rows in value.items():
                for study in {r["study"] for r in rows}:
                    found.setdefault(name, {}).setdefault(study, {})[key] = rows
            found.setdefault(name, {})
    return found


def entries_of_studies(by_study: dict[str, dict], studies) -> dict:
    """The entries of a map of lists of rows with rows of ``studies`` (CATALOGUE's "by study"), by key."""
    return dict(sorted({key: rows for study in studies for key, rows in by_study.get(study, {}).items()}.items()))


def facet_segment(pages: list[FacetPage]) -> list[str]:
    """The segment of a run of ``pages`` (config lines for Hugo): those pages, their evidence plots'
    embed pages and their studies' pages of their own, and nothing else (not the section Hugo makes of a
    facet whose first page is not in the run)."""
    paths = ",".join(path.rstrip("/") for page in pages for path in (page.path, page.embed, *page.details) if path)
    return ["[segments]", "  [segments.facets]", "    [[segments.facets.includes]]", f"      path = {json.dumps('{' + paths + '}')}"]


def facet_run_data(*, data: Path, out: Path, facets: dict, pages: list[FacetPage], values: dict | None = None) -> Path:
    """Write the data a run of ``pages`` reads (CATALOGUE's "facets") into ``out``; returns it.
    ``values``: the data files parsed already (``loaded``)."""
    out.mkdir(parents=True)
    studies = sorted({s for p in pages for s in p.studies})
    by_study = facet_entries_by_study(data, values)
    for name, rule in facet_rules(data).items():
        if rule == "whole":
            os.link(data / name, out / name)
        elif rule == "by study":
            _write(out / name, entries_of_studies(by_study[name], studies))
        elif rule == "facets of the run":
            _write(out / name, facets_of_run(facets, pages))
        else:  # "page files"
            (out / name).mkdir()
            for page in pages:
                os.link(data / name / f"{page.name}.json", out / name / f"{page.name}.json")
    return out


def link_tree(source: Path, target: Path, *, same: set[tuple[str, int, int]] | None = None,
              tree: Tree = NO_SPARE) -> int:
    """Link every file under ``source`` into ``target``; a file there already must be the same file or
    hold the same bytes (the scripts and styles every run writes). ``same``: the (file there, device
    and inode here) found to hold the same bytes, kept from one call to the next (each of a thousand
    studies' cache entries holds the site's script, 0.3 MB, from one of a few runs). ``tree``: the
    folder ``target`` is in, where the spare's files are kept or replaced (recycle.py). Paths are
    strings: at 1,000 bundles the pages are 20,600 files in 14,000 folders. Returns how many files were
    placed (linked, or kept from the spare)."""
    count = 0
    same = set() if same is None else same
    src, dst = os.fspath(source), os.fspath(target)
    for folder, _, names in os.walk(src):
        into = dst + folder[len(src):]
        tree.folder(into)
        for name in names:
            there, here = f"{into}/{name}", f"{folder}/{name}"
            if tree.keep(here, there):
                count += 1
                continue
            try:
                os.link(here, there)
            except FileExistsError:
                found = os.stat(here)
                checked = (there, found.st_dev, found.st_ino)
                if checked not in same and not os.path.samestat(found, os.stat(there)):
                    if Path(there).read_bytes() != Path(here).read_bytes():
                        raise BuildError(f"{there}: two parts of the site wrote it differently") from None
                    same.add(checked)
                continue
            count += 1
    return count


@dataclass(frozen=True)
class Job:
    """A run of Hugo whose pages are kept in the page cache: ``render(destination)`` writes them into a
    folder of the run's own, ``keys`` are the cache entries it fills, and ``files(destination)`` says
    the files and folders of each (moved into it); a file no entry names goes in every one (the
    scripts and styles every run writes)."""
    render: Callable[[Path], None]
    keys: tuple[str, ...]
    files: Callable[[Path], dict[str, list[str]]]
    studies: bool = False  # a run of study pages (render_pages: after_studies)


def _fill(run: Path, entries: dict[str, list[str]], cache: Path) -> None:
    """Store a finished run's output (``run``) as its cache entries: each entry's own files and folders
    moved into it, the files no entry names (the scripts and styles every run writes) linked into each."""
    named = {path for paths in entries.values() for path in paths}
    shared = []
    for folder, dirs, files in os.walk(run):
        here = Path(folder).relative_to(run)
        dirs[:] = [d for d in dirs if (here / d).as_posix() not in named]
        shared += [(here / f).as_posix() for f in files if (here / f).as_posix() not in named]

    def fill(paths: list[str]) -> Callable[[Path], None]:
        def into(tmp: Path) -> None:
            for path in paths:
                (tmp / path).parent.mkdir(parents=True, exist_ok=True)
                os.rename(run / path, tmp / path)
            for file in shared:
                (tmp / file).parent.mkdir(parents=True, exist_ok=True)
                os.link(run / file, tmp / file)
        return into

    for key, paths in entries.items():
        make_entry(_entry(cache, key), fill(paths))


def _entry(cache: Path, key: str) -> Path:
    return cache / "pages" / key[:2] / key


def missing(cache: Path, keys: list[str]) -> set[str]:
    """The keys of ``keys`` that the page cache holds no entry for."""
    return {key for key in keys if not _entry(cache, key).is_dir()}


def study_pages(cache: Path, keys: dict[str, str]) -> dict[str, Path]:
    """Each study's page, by its path in the site: the file in the study's entry (``keys``: by study)."""
    pages = {f"studies/{study}/index.html": _entry(cache, key) / "studies" / study / "index.html"
             for study, key in keys.items()}
    return {path: file for path, file in pages.items() if file.is_file()}


def render_pages(*, cache: Path, keys: list[str], jobs: list[Job], public: Path, site: Callable[[Path], None],
                 own: Path, first: Iterable[str] = (), after_studies: Callable[[], None] = lambda: None,
                 after_runs: Callable[[], None] = lambda: None, tree: Tree = NO_SPARE) -> CacheCounts:
    """Render the site's own pages (``site(own)``) and the ``jobs``, two runs at a time, each linked into
    ``public`` once done, while the entries of ``keys`` that the cache holds already are linked in
    beside them (those of ``first`` before the runs start). ``after_studies`` runs once the runs of
    study pages are done, in the place of one of the two runs (SLOTS), before the other runs start;
    ``after_runs`` once every run is done and its pages linked in, beside the cached entries' links
    (which, at 14,000 folders for 1,000 bundles, go on longer than Hugo) and ``after_studies``. No run
    writes into ``public`` itself (a run writing over a linked file would write into the cache).
    ``tree``: ``public`` as recycle.py places files into it (the spare's files kept where they are the
    same). The page cache is pruned (cache.prune) once every run is done, beside ``after_runs``. Returns
    the entries rendered, found in the cache, and cache entries removed."""
    made = {key for job in jobs for key in job.keys}
    first = [key for key in first if key not in made]
    later = [key for key in keys if key not in made.union(first)]

    def link(keys) -> None:
        same: set[tuple[str, int, int]] = set()
        for key in keys:
            link_tree(_entry(cache, key), public, same=same, tree=tree)
            os.utime(_entry(cache, key))  # used now: kept by prune()

    def run(job: Job) -> None:
        folder = cache / "pages" / f"{TMP}run-{id(job)}-{os.getpid()}"
        shutil.rmtree(folder, ignore_errors=True)
        try:
            if not job.studies:
                searching.wait()
            with slots:
                job.render(folder)
            entries = job.files(folder)
            if set(entries) != set(job.keys):
                raise BuildError(f"{folder}: the run filled {sorted(entries)}, not its entries {sorted(job.keys)}")
            _fill(folder, entries, cache)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        link(job.keys)

    def own_pages() -> None:
        with slots:
            site(own)
        link_tree(own, public, tree=tree)

    def when_done(runs: list[Future]) -> None:
        try:
            wait(runs)
            if all(run.exception() is None for run in runs):  # else the runs' error is raised, not this
                with slots:
                    searching.set()
                    after_studies()
        finally:
            searching.set()

    slots = threading.Semaphore(SLOTS)
    # set once after_studies holds its slot (or is not to run): the runs after the study pages' wait for
    # it, so that it starts first, as the longest (the search index of 1,000 study pages, 6.6 s against
    # Hugo's 2.9 and 3.6 s runs of facet pages; waiting for a slot, it began once they were done, and
    # then ran alone on 1.6 of the two cores)
    searching = threading.Event()

    link(first)
    # two runs of Hugo, the links of the cached entries, and what follows the runs of study pages
    with ThreadPoolExecutor(max_workers=3) as pool:
        linking = pool.submit(link, later)
        with ThreadPoolExecutor(max_workers=2) as runs:
            # the runs of study pages first: a run of others waits for them (and after_studies) to start
            ordered = [job for job in jobs if job.studies] + [job for job in jobs if not job.studies]
            started = [runs.submit(own_pages)] + [runs.submit(run, job) for job in ordered]
            studies = pool.submit(when_done, [future for future, job in zip(started[1:], ordered) if job.studies])
            for future in started:
                future.result()
        # every entry is made: the prune (the cache grows only when an entry is stored) runs beside the
        # last of the search index and the links, as it keeps the entries of ``keys`` whatever their
        # time (at 10,000 bundles it read the sizes of 10,700 entries for 9 s, on one core, after them)
        pruning = pool.submit(prune, cache / "pages", max_bytes=MAX_BYTES, every=PRUNE_EVERY,
                              keep=frozenset(_entry(cache, key) for key in keys)) if made else None
        after_runs()
        studies.result()
        linking.result()
        removed = pruning.result() if pruning else 0
    return CacheCounts(made=len(made), cached=len(keys) - len(made), pruned=removed)
