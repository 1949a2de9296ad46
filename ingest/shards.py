"""The site rendered in parts: the pages that read many studies at once, and each group of studies' own.

Hugo renders every page of a site in one process, holding all of them: at 1,000 bundles 15 s and
1.2 GiB, at 10,000 bundles 587 s and 7 GiB, and all of it again after one bundle changed. The site's
config (site/hugo.toml, ``[segments]``) splits the pages in two: ``studies``, each study's own pages
(its page, its Explore rows and Compare series, its chart embeds and its logs), and ``site``/``views``,
the rest. The build then runs Hugo

- once over all the exported data, rendering only the pages of ``site`` and ``views`` (home, lists,
  facets, Explore, Compare, /sql/, ...), into the generation's ``public/``;
- once per shard, a group of studies (``shard_of``: by the SHA-256 of the study's id, so a study stays
  in its shard as others come and go), over that shard's studies' data only (``split_data``: each
  exported data file cut by study, as ``CATALOGUE`` says), rendering only the pages of ``studies``.

A shard's pages are kept in ``build/cache/pages/`` under the SHA-256 of everything its run reads (the
site's templates, assets and config, the content, the npm packages' lock, Hugo's version, the
deployment's address, the shard's data and the assets of its studies): after one bundle changed,
only its shard is rendered again. As a shard's run sees no other study's data, a study's pages cannot
depend on another study, and the pages are the same whichever shard renders them
(tests/test_shards.py renders the project's studies in one shard and in several and compares them
byte for byte).
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Callable

from .cache import CacheCounts, make_entry, prune
from .problems import BuildError

STUDIES_PER_SHARD = 128  # at most, on average: the shard count is the power of two that allows it
MAX_BYTES = 4 * 2**30  # the page cache's bound (cache.prune)
# what Hugo itself writes into the site folder (not what it reads): its lock, and the paths of the
# script bundles' imports for editors (which name the generation's folders)
HUGO_WRITES = {".hugo_build.lock", "assets/jsconfig.json"}
# How the build cuts each file of the exported data (export/data/) for the two kinds of run.
# For a shard ("shard"): "study file" (studies/<id>.json: the shard's own), "by study" (a list of rows,
# or a map of lists of rows, each row with its study), "keys by study" (a map from study to its value),
# "whole" (as it is), a map (its keys cut each by its own rule; a key not named is left out), or None
# (not read). For the site's own run ("site"): "whole", or what its pages read of each row or study
# ("keep": only these keys; "drop": all but these), so that it does not parse every study's data
# (at 1,000 bundles 3.8 s instead of 8.3 s for the same pages). A data file the catalogue does not
# name stops the build.
CATALOGUE: dict[str, dict] = {
    # the lists of studies (home, /studies/: _partials/study-list.html) read these of a study
    "studies": {"shard": "study file", "site": {"keep": ["id", "title", "summary", "value_count", "systems", "sources"]}},
    # the list of logs (/artifacts/) reads all but their lines
    "artifacts.json": {"shard": "by study", "site": {"drop": ["lines"]}},
    "embeds.json": {"shard": "by study", "site": "whole"},
    "explore.json": {"shard": {"studies": "by study"}, "site": "whole"},
    "compare.json": {"shard": {"studies": "by study", "fields": "whole"}, "site": "whole"},
    "findings.json": {"shard": {"headlines": "keys by study"}, "site": "whole"},
    "fields.json": {"shard": "whole", "site": "whole"},
    "run_quality.json": {"shard": "whole", "site": "whole"},
    "preview.json": {"shard": "whole", "site": "whole"},
    "facets.json": {"shard": None, "site": "whole"},
    "sql.json": {"shard": None, "site": "whole"},
}


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
    raise BuildError(f"{where}: no rule {rule!r} in ingest/shards.py's CATALOGUE")


def _write(path: Path, value) -> None:
    path.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def _site_cut(value, rule):
    if rule == "whole":
        return value
    if "keep" in rule:
        return {key: value[key] for key in rule["keep"] if key in value}
    return {key: v for key, v in value.items() if key not in rule["drop"]}


def split_data(*, data: Path, out: Path, per_shard: int = STUDIES_PER_SHARD) -> Parts:
    """Write the site's cut of the exported ``data`` folder into ``out/site/`` and each shard's into
    ``out/<n>/``; return them (the shards that have studies, each with its studies in order)."""
    names = sorted(p.name for p in data.iterdir())
    unknown = [n for n in names if n not in CATALOGUE]
    if unknown:
        raise BuildError(f"exported data {data / unknown[0]}: not in ingest/shards.py's CATALOGUE (say which "
                         "pages read it: each study's, or only the site's)")
    studies = sorted(p.stem for p in (data / "studies").glob("*.json"))
    count = shard_count(len(studies), per_shard=per_shard)
    groups: dict[int, list[str]] = {}
    for study in studies:
        groups.setdefault(shard_of(study, count), []).append(study)
    parts = Parts(out / "site", [Shard(n, tuple(ids), out / str(n)) for n, ids in sorted(groups.items())])
    parts.site.mkdir(parents=True)
    for shard in parts.shards:
        (shard.data / "studies").mkdir(parents=True)
    for name in names:
        rule, site = CATALOGUE[name]["shard"], CATALOGUE[name]["site"]
        if name == "studies":  # the site's: one file of every study's part (the same map for Hugo)
            docs = {s: json.loads((data / name / f"{s}.json").read_text(encoding="utf-8")) for s in studies}
            _write(parts.site / "studies.json", {s: _site_cut(doc, site) for s, doc in docs.items()})
            for shard in parts.shards:
                for study in shard.studies:
                    os.link(data / name / f"{study}.json", shard.data / name / f"{study}.json")
            continue
        value = None if site == "whole" and rule in (None, "whole") else json.loads((data / name).read_text(encoding="utf-8"))
        if site == "whole":
            os.link(data / name, parts.site / name)
        else:
            _write(parts.site / name, [_site_cut(row, site) for row in value])
        for shard in parts.shards if rule is not None else ():
            if rule == "whole":
                os.link(data / name, shard.data / name)
            else:
                _write(shard.data / name, _cut(value, rule, set(shard.studies), str(data / name)))
    return parts


def _digest_files(digest, root: Path, paths) -> None:
    for path in paths:
        digest.update(f"{path.relative_to(root).as_posix()}\n{path.stat().st_size}\n".encode())
        digest.update(path.read_bytes())


def common_digest(*, root: Path, site_url: str) -> str:
    """What every shard's run reads besides its data: the site (templates, assets, config), the
    content, the npm packages bundled into its scripts, Hugo, the deployment's address."""
    digest = hashlib.sha256()
    for folder in ("site", "content"):
        base = root / folder
        _digest_files(digest, root, sorted(p for p in base.rglob("*") if p.is_file()
                                           and p.relative_to(base).as_posix() not in HUGO_WRITES
                                           and p.relative_to(base).parts[0] != "resources"))
    lock = root / "node_modules" / ".package-lock.json"
    digest.update(lock.read_bytes() if lock.is_file() else b"no lock")
    digest.update(json.dumps({"hugo": version("hugo"), "site_url": site_url}).encode())
    return digest.hexdigest()


def shard_key(*, common: str, shard: Shard, assets: Path) -> str:
    """The key of a shard's pages: ``common``, its data, and the exported assets its pages can read
    (its own studies' and those of no study)."""
    digest = hashlib.sha256(f"{common}\n".encode())
    _digest_files(digest, shard.data, sorted(p for p in shard.data.rglob("*") if p.is_file()))
    everyone = {p.stem for p in (assets / "explore").glob("*.json")} | {p.stem for p in (assets / "compare").glob("*.json")}
    mine = set(shard.studies)
    _digest_files(digest, assets, sorted(p for p in assets.rglob("*")
                                         if p.is_file() and (p.stem in mine or p.stem not in everyone)))
    return digest.hexdigest()


def link_tree(source: Path, target: Path) -> int:
    """Link every file under ``source`` into ``target``; a file there already must hold the same bytes
    (the scripts and styles every run writes). Returns how many files were linked."""
    count = 0
    for folder, _, names in os.walk(source):
        into = target / Path(folder).relative_to(source)
        into.mkdir(parents=True, exist_ok=True)
        for name in names:
            there = into / name
            if there.exists():
                if there.read_bytes() != (Path(folder) / name).read_bytes():
                    raise BuildError(f"{there}: two parts of the site wrote it differently")
                continue
            os.link(Path(folder) / name, there)
            count += 1
    return count


def render_pages(*, cache: Path, shards: list[Shard], keys: list[str], public: Path,
                 site: Callable[[Path], None], shard: Callable[[Shard, Path], None]) -> CacheCounts:
    """Render the site's own pages (``site(destination)``) and each shard whose pages the cache does not
    hold (``shard(shard, destination)``), two at a time, then link every shard's pages into ``public``
    beside the site's. Returns shards rendered, found in the cache, and cache entries removed."""
    pages = cache / "pages"
    entry = {key: pages / key[:2] / key for key in keys}
    missing = [(s, k) for s, k in zip(shards, keys) if not entry[k].is_dir()]

    def one(item: tuple[Shard, str]) -> None:
        part, key = item
        make_entry(entry[key], lambda tmp: shard(part, tmp))

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = [pool.submit(site, public)] + [pool.submit(one, item) for item in missing]
        for future in done:
            future.result()
    for key in keys:
        link_tree(entry[key], public)
        os.utime(entry[key])  # used now: kept by prune()
    removed = prune(pages, max_bytes=MAX_BYTES) if missing else 0  # the cache grows only when a shard is stored
    return CacheCounts(made=len(missing), cached=len(keys) - len(missing), pruned=removed)
