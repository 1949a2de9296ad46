"""The site's search index: Pagefind (npm) reads the rendered pages of a generation and writes its
index beside them (``public/pagefind/``), which the /search/ page queries in the reader's browser.

What is indexed is marked in the templates: the study pages and facet pages carry
``data-pagefind-body`` (their systems, storage products, claims and notes: what issue #18 asks to find),
so Explore's row pages, embeds and logs stay out of the index; the tables of values (runs, grades,
tables as printed, derived values, tails, the price of redundancy) and boxes that are only markup for
machines (BibTeX, CSL) carry ``data-pagefind-ignore``.

Pagefind has no incremental mode, and its time grows with the HTML it reads (about 23 MB/s: 5 to 6 s
for the 118 MB of study pages at 1,000 bundles, every build). So the index is made in
parts, each cached by the bytes of its pages: the site's own pages that can be marked (the top-level
pages: a facet's first page, the prose pages) are the main index, ``public/pagefind/``, and the study
pages are ``PARTS`` more, by the SHA-256 of the study's id (shards.shard_of), in
``public/pagefind/part-<n>/``; ``public/pagefind/parts.json`` lists them, and the search page merges
them into the main index (Pagefind's mergeIndex). After one study changed, only its part and the main
index's pages are read again, if they changed, the two at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from . import children
from .cache import PRUNE_EVERY, CacheCounts, make_entry, prune
from .digests import Digests
from .problems import BuildError
from .shards import link_tree, shard_of

PARTS = 4  # a first search downloads Pagefind's WebAssembly (60 KB) once for the main index and each part
MAX_BYTES = 2**30  # the cache's bound (cache.prune)
# Pagefind's command, over a folder (a part's pages are linked into one of their own): its Node API,
# given the pages one by one, took twice as long (11.3 against 5.1 s for 1,000 study pages)
RUNNER = Path("node_modules") / "pagefind" / "lib" / "runner" / "bin.cjs"
# What a page that Pagefind indexes carries (the templates mark them): the main index reads only the
# top-level pages that do (Pagefind would leave the others out, after reading them: Explore, Compare,
# the lists of studies, charts and logs, 6 of its 15 MB at 1,000 bundles), and so is made again only
# when one of them changed
MARK = b"data-pagefind-body"


def _pagefind_version(root: Path) -> str:
    manifest = root / "node_modules" / "pagefind" / "package.json"
    if not manifest.is_file() or shutil.which("node") is None:
        raise BuildError("the search index needs Node.js and the npm package pagefind: run `make deps`")
    return json.loads(manifest.read_text(encoding="utf-8"))["version"]


def parts_of(public: Path, studies: dict[str, Path] | None = None) -> dict[str, list[str]]:
    """The pages of each part of the index by their paths in the site: "" (the main index: the
    top-level pages of ``public`` marked for it, MARK) and "part-<n>" (study pages: those of
    ``studies``, by their paths, else those in ``public``), those with pages only."""
    parts = {"": sorted(p.relative_to(public).as_posix() for p in public.glob("*/index.html") if MARK in p.read_bytes())}
    listed = sorted(studies) if studies is not None else sorted(
        p.relative_to(public).as_posix() for p in public.glob("studies/*/index.html"))
    for page in listed:
        parts.setdefault(f"part-{shard_of(page.split('/')[1], PARTS)}", []).append(page)
    return {name: files for name, files in sorted(parts.items()) if files}


def _key(common: str, files: list[str], source: Callable[[str], Path], digests: Digests) -> str:
    """A part's key: Pagefind's version and its pages, each by its path and its bytes' SHA-256 (the
    pages are the build's, mostly linked from the page cache: remembered by ``digests``)."""
    digest = hashlib.sha256(f"{common}\n".encode())
    for file in files:
        digest.update(f"{file}\n{digests.of(source(file), written_by_build=True)}\n".encode())
    return digest.hexdigest()


def index_search(*, root: Path, public: Path, cache: Path, studies: dict[str, Path] | None = None) -> CacheCounts:
    """Write the Pagefind index of the pages in ``public`` into ``public/pagefind``, each part from the
    cache when its pages are the bytes they were. ``studies``: the study pages by their paths in the
    site, read from there (the page cache's entries, while the build still links them into
    ``public``). Returns parts made, parts cached, entries pruned."""
    common = hashlib.sha256(_pagefind_version(root).encode()).hexdigest()
    node = shutil.which("node")
    folder = cache / "search"
    parts = parts_of(public, studies)
    digests = Digests(cache / "digests" / "search.json")

    def source(file: str) -> Path:
        return studies[file] if studies is not None and file in studies else public / file

    entries = {name: folder / key[:2] / key for name, files in parts.items()
               for key in [_key(common, files, source, digests)]}
    digests.save()
    missing = [name for name in parts if not entries[name].is_dir()]

    def index(name: str, out: Path) -> None:
        site = out.with_name(out.name + "-site")  # its pages linked into a folder of their own, at their paths in the site
        try:
            for file in parts[name]:
                (site / file).parent.mkdir(parents=True, exist_ok=True)
                os.link(source(file), site / file)
            done = children.run([node, str(root / RUNNER), "--site", str(site), "--glob", "**/index.html",
                                 "--output-path", str(out), "--silent"], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise BuildError(f"pagefind failed:\n{(done.stdout + done.stderr).strip()}")
        finally:
            shutil.rmtree(site, ignore_errors=True)

    def make(name: str) -> None:
        make_entry(entries[name], lambda out: index(name, out))

    # the main index beside the parts, and the parts one after the other: Pagefind keeps a part's pages
    # in memory (1.7 GiB for each of two parts at once at 10,000 bundles: the build's peak) and uses
    # both cores on its own (1.6 of them for 500 study pages)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(make, "")] if "" in missing else []
        futures.append(pool.submit(lambda: [make(name) for name in missing if name]))
        for future in futures:
            future.result()
    for name, entry in entries.items():
        link_tree(entry, public / "pagefind" / name)
        os.utime(entry)  # used now: kept by prune()
    listed = [f"{name}/" for name in parts if name]
    (public / "pagefind" / "parts.json").write_text(json.dumps(listed), encoding="utf-8")
    pruned = prune(folder, max_bytes=MAX_BYTES, every=PRUNE_EVERY, keep=frozenset(entries.values())) if missing else 0
    return CacheCounts(made=len(missing), cached=len(parts) - len(missing), pruned=pruned)
