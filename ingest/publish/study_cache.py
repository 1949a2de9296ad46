"""The export's per-study outputs, cached by content: a study whose bundle did not change gets its
files and the few facts the rest of the export needs back from ``build/cache/export/`` instead of
being exported again.

A study's outputs are those that depend on its own rows only: its page's document
(``data/studies/<id>.json``), its CSV, its rows for Explore and series for Compare
(``assets/explore/<id>.json``, ``assets/compare/<id>.json``), its badge, the CSVs of its own charts'
embeds and the render specs of all its charts' embeds (``embed-specs/<id>.json``). Everything that
reads several studies (the downloads of the whole database, facets, findings,
the indexes of Explore and Compare, /sql/'s database file, the quality summary, the lists of embeds) is exported
every time. A study's parts of the facet pages depend on it alone, and are kept with it: its
comparisons, the CSVs of their charts and its reference files, which list those charts; only which page
of a facet it is on depends on the others.

An entry, ``<cache>/<key[:2]>/<key>/``, holds the study's files (``0``, ``1``, ... in the order of
``record.json``'s ``files``, their paths in the export) and ``record.json``: the files' paths and what
the aggregate steps read of the study (its head for facets, its entries in the indexes, its embeds'
listings, its citation), but for the texts of its parts of the facet pages, which are in ``facets.txt``
(TEXTS). The key is the SHA-256 of the bundle's own entry key (stage.py: its files, its
path, the code under ingest/ and schema/ and the libraries' versions, so a change of code makes every
study miss) and of the export's arguments (the site's address, which citations print).

Entries are written under a temporary name and renamed into place (``record.json`` last, so an entry
with it is whole), their files linked rather than copied where the file system allows, and bounded
like the other caches (cache.py)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from . import embed_specs
from ..plumbing.cache import PRUNE_EVERY, TMP, link_or_copy, prune
from ..plumbing.recycle import NO_SPARE, Tree

# ten times what 1,000 studies keep (0.40 GiB; 0.57 while their rows of /sql/'s tables were kept too); a build's
# own entries stay beyond it
MAX_BYTES = 6 * 2**30
RECORD = "record.json"
# The texts of the study's parts of the facet pages (facets.entry_text: JSON, about 60 kB a facet), one
# after the other as they are, beside the record, which lists each facet's length: inside the record they
# were strings of escaped JSON, 55% of its bytes and five sixths of the time to parse it (12.0 s for
# 9,041 records, 1.9 s without them)
TEXTS = "facets.txt"


def export_key(bundle_key: str, *, site_url: str) -> str:
    """The key of a study's entry: its bundle's entry key and the export's arguments."""
    return hashlib.sha256(json.dumps([bundle_key, site_url]).encode()).hexdigest()


# What a study's parts of the facet pages read of its document: its comparisons (its systems, baseline
# and title) and their charts' embeds (title and sources, which they cite).
HEAD = ("id", "title", "baseline", "systems", "sources")


# What the lists of studies read of a study's document (home, /studies/: _partials/study-list.html), in
# the export's study_list.json: the site's own run of Hugo reads that instead of every study's document.
LISTED = ("id", "title", "summary", "value_count", "systems", "sources", "catalogue")


# What the export's aggregate steps read of a cached study's record (publish/__init__.py: _export_pages,
# write_artifact_list): a build holds these of every unchanged study until the end of its export (at
# 1,000 bundles the whole records held 133 MiB; the rest is for its entry's files and the study's own).
AGGREGATED = ("listed", "explore", "compare", "facets", "embeds", "artifacts")


def head(doc: dict) -> dict:
    return {k: doc[k] for k in HEAD}


def listed(doc: dict) -> dict:
    return {k: doc[k] for k in LISTED}


def with_artifacts(record: dict, listed: list[dict]) -> dict:
    """A study's entry with its artifacts (publish/artifacts.py: their copies, the files of their pages'
    lines, the file that lists them and their pages)."""
    study = record["head"]["id"]
    files = [f"static/{a['file']}" for a in listed if a["file"]]
    files += [f"assets/{p['lines']}" for a in listed for p in a["pages"]]
    files += [f"data/artifacts/{study}.json"] if listed else []
    return {**record, "files": record["files"] + files, "artifacts": listed}


def record(doc: dict, *, explore: dict | None, compare: dict | None, embeds: list[dict], facets: dict[str, dict],
           specs: bool) -> dict:
    """A study's entry as the export computed it: its files (paths in the export; with ``specs``, its
    embeds' render specs, embeds.write_specs), its head, its citation, its entries in the indexes of
    Explore and Compare (None: it has no values there), the listings of its own charts' embeds
    (embeds.py) and its parts of the facet pages (publish/__init__.py: facet_parts), with their charts'
    embeds."""
    study = doc["id"]
    files = [f"data/studies/{study}.json", f"static/data/studies/{study}.csv", f"static/badges/{study}.json",
             f"static/data/studies/{study}.bib", f"static/data/studies/{study}.csl.json"]
    files += [f"assets/{kind}/{study}.json" for kind, entry in (("explore", explore), ("compare", compare)) if entry]
    files += [f"static/embed/{e['entry']['id']}.csv" for e in embeds]
    files += [f"static/embed/{e['entry']['id']}.csv" for part in facets.values() for e in part.get("embeds", [])]
    files += [f"static{c['samples']}" for c in doc["runs_charts"] if c["drawn"]]
    files += [f"{embed_specs.FOLDER}/{study}.json"] if specs else []
    return {"files": files, "head": head(doc), "listed": listed(doc), "citation": doc["citation"], "explore": explore, "compare": compare,
            "embeds": embeds, "facets": facets}


def _entry(folder: Path, key: str) -> Path:
    return folder / key[:2] / key


def lookup(folder: Path, key: str) -> dict | None:
    """The record of the entry of ``key``, if it is whole (None otherwise)."""
    entry = _entry(folder, key)
    try:
        names = set(os.listdir(entry))  # one call, not one a file (25 a study)
        record = json.loads((entry / RECORD).read_text(encoding="utf-8"))
        lengths = record.pop("texts")
        texts = (entry / TEXTS).read_bytes().decode("utf-8") if lengths else ""
        if sum(n for _, n in lengths) != len(texts):
            return None
        at = 0
        for slug, length in lengths:
            record["facets"][slug]["text"] = texts[at:at + length]
            at += length
    except (OSError, ValueError, KeyError, TypeError):  # a damaged entry: the study is exported again
        return None
    if not names.issuperset(map(str, range(len(record["files"])))):
        return None
    return {**record, "entry": entry}


def restore(record: dict, *, out_dir: Path, made: set[str], tree: Tree = NO_SPARE) -> None:
    """Put a cached study's files back in place in the export ``out_dir`` (``made``: the folders made so
    far, each made once rather than a call a file; paths as strings, 18,000 files at 1,000 studies;
    ``tree``: ``out_dir`` as recycle.py places files into it)."""
    entry, out = str(record["entry"]), str(out_dir)
    for i, name in enumerate(record["files"]):
        target = f"{out}/{name}"
        parent = os.path.dirname(target)
        if parent not in made:
            tree.folder(parent)
            made.add(parent)
        if not tree.keep(f"{entry}/{i}", target):
            link_or_copy(f"{entry}/{i}", target)
    os.utime(entry)  # used now: kept by prune()


def store(folder: Path, key: str, record: dict, *, out_dir: Path) -> None:
    """Keep a study's files (``record["files"]``, paths below ``out_dir``) and ``record`` under ``key``."""
    final = _entry(folder, key)
    tmp = folder / f"{TMP}{key}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        for i, name in enumerate(record["files"]):
            link_or_copy(out_dir / name, tmp / str(i))
        texts = [(slug, part["text"]) for slug, part in record["facets"].items() if "text" in part]
        if texts:
            (tmp / TEXTS).write_bytes("".join(text for _, text in texts).encode("utf-8"))
        kept = {**record, "facets": {slug: {k: v for k, v in part.items() if k != "text"}
                                     for slug, part in record["facets"].items()},
                "texts": [[slug, len(text)] for slug, text in texts]}
        (tmp / RECORD).write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
        final.parent.mkdir(exist_ok=True)
        shutil.rmtree(final, ignore_errors=True)  # a damaged entry under this key
        try:
            os.replace(tmp, final)
        except OSError:
            if not lookup(folder, key):  # unless a concurrent build stored it first
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prune_entries(folder: Path, *, used: list[str]) -> int:
    """Remove what the bounds of cache.py say (at most every PRUNE_EVERY seconds), but the entries of the
    keys ``used`` (this build's: at 10,000 bundles its studies' entries hold about the bound, 0.57 GiB a
    thousand studies); returns how many entries were removed."""
    return prune(folder, max_bytes=MAX_BYTES, every=PRUNE_EVERY, keep=frozenset(_entry(folder, key) for key in used))
