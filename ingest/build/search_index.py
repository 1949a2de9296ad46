"""The site's search index: Pagefind (npm) reads the rendered pages of a generation and writes its
index beside them (``public/pagefind/``), which the /search/ page queries in the reader's browser.

What is indexed is marked in the templates: the study pages and facet pages carry
``data-pagefind-body`` (their systems, storage products, claims and notes: what issue #18 asks to find),
so Explore's row pages, embeds and logs stay out of the index; the tables of values (runs, grades and
the rules behind each, tables as printed, derived values, tails, the price of redundancy) and boxes that
are only markup for machines (BibTeX, CSL) carry ``data-pagefind-ignore``. (Each graded run's rules and
reasons, eight lines a run and alike from run to run, were a fifth of the words indexed at 1,000
bundles: Pagefind took 7.2 and 6.8 s of CPU over 1,000 study pages with them, 5.9 and 6.0 s without,
and 0.75 GB at its peak against 0.64.)

Pagefind has no incremental mode, and its time grows with the pages it reads (about 12 ms a study
page: 250 of them took 3.3 s, and 3.0 s with what it ignores cut out of them, 25 of their 56 MB left).
So the index is made in parts, each cached by the bytes of its pages: the site's own pages that can be
marked (the top-level pages: a facet's first page, the prose pages) are the main index,
``public/pagefind/``, and the study pages are ``PARTS`` more, by the SHA-256 of the study's id
(shards.shard_of), in ``public/pagefind/part-<n>/``; ``public/pagefind/parts.json`` lists them, and the
search page merges them into the main index (Pagefind's mergeIndex). The build makes the study parts
as soon as Hugo's runs of study pages are done, beside one run at a time of the other pages, and the
main index once every run is done (build.render_site). After one study changed, only its part and the
main index's pages are read again, if they changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..plumbing import children
from ..plumbing.cache import PRUNE_EVERY, CacheCounts, link_or_copy, make_entry, prune
from ..plumbing.digests import Digests
from ..bundles.problems import BuildError
from ..plumbing.recycle import NO_SPARE, Tree
from .shards import link_tree, shard_of

# a first search fetches each part's entry, metadata and index chunk of each word (Pagefind's WebAssembly
# once): 16 parts cost the reader 79 requests against 43 at 1,000 bundles, and an empty cache 8 s more (README)
PARTS = 4
MAX_BYTES = 2**30  # the cache's bound (cache.prune)
# Pagefind's command, over a folder (a part's pages are linked into one of their own): its Node API,
# given the pages one by one, took twice as long (11.3 against 5.1 s for 1,000 study pages)
RUNNER = Path("node_modules") / "pagefind" / "lib" / "runner" / "bin.cjs"
# The runner starts Node only to find and run the binary of the npm package of this platform
# (@pagefind/<system>-<arch>), which the build runs itself: 0.17 to 0.24 s less a run (two or more a
# build), the same index. Node's names of the machines Pagefind ships binaries for:
ARCHES = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}
BINARIES = ("pagefind_extended", "pagefind")  # the runner's order
# What a page that Pagefind indexes carries (the templates mark them): the main index reads only the
# top-level pages that do (Pagefind would leave the others out, after reading them: Explore, Compare,
# the lists of studies, charts and logs, 6 of its 15 MB at 1,000 bundles), and so is made again only
# when one of them changed
MARK = b"data-pagefind-body"
# What the search page (site/assets/js/search.js) loads of the folder Pagefind writes for a part, and so
# all that is kept of it: of each part, its entry, its languages' metadata and the chunks of its index
# that a search asks for; of the main index, besides, Pagefind's script, the worker that script starts
# and its languages' WebAssembly (mergeIndex loads none for a part: the main index's does the work).
# Pagefind's UI scripts and styles, its highlighting script and its WebAssembly for pages of no language,
# which the site does not use, and a part's own script, worker and WebAssembly are left out: 0.49 MB in
# the main index's folder and 0.64 MB in each part's (2.4 of the index's 2.7 MB on the project's six
# studies). The cache's keys hold this rule: entries made under another are not read.
ENTRY = "pagefind-entry.json"
CHUNKS = ("index", "fragment", "filter")  # folders: each file a chunk that a search may fetch
MAIN_ONLY = ("pagefind.js", "pagefind-worker.js")


def _pagefind_command(root: Path) -> list[str]:
    """The command that runs Pagefind: its platform's binary, where the npm package installed it, else
    the package's Node runner, which finds it."""
    system, arch = platform.system().lower(), ARCHES.get(platform.machine().lower())
    folder = root / "node_modules" / "@pagefind" / f"{system}-{arch}" / "bin"
    for name in BINARIES:
        binary = folder / (f"{name}.exe" if system == "windows" else name)
        if arch and binary.is_file() and os.access(binary, os.X_OK):
            return [str(binary)]
    return [shutil.which("node") or "node", str(root / RUNNER)]


def _pagefind_version(root: Path) -> str:
    manifest = root / "node_modules" / "pagefind" / "package.json"
    if not manifest.is_file() or shutil.which("node") is None:
        raise BuildError("the search index needs Node.js and the npm package pagefind: run `make deps`")
    return json.loads(manifest.read_text(encoding="utf-8"))["version"]


def main_part(public: Path, *, tree: Tree = NO_SPARE) -> list[str]:
    """The main index's pages by their paths in the site: the top-level pages of ``public`` marked for it
    (MARK), but for those of the spare that the build has not placed (``tree``: recycle.py)."""
    return sorted(p.relative_to(public).as_posix() for p in public.glob("*/index.html")
                  if not tree.stale(os.fspath(p)) and MARK in p.read_bytes())


def study_parts(studies: Iterable[str]) -> dict[str, list[str]]:
    """The study pages (``studies``: their paths in the site) of each part, "part-<n>", by the SHA-256 of
    the study's id (shards.shard_of), those with pages only."""
    parts: dict[str, list[str]] = {}
    for page in sorted(studies):
        parts.setdefault(f"part-{shard_of(page.split('/')[1], PARTS)}", []).append(page)
    return dict(sorted(parts.items()))


def parts_of(public: Path, studies: dict[str, Path] | None = None) -> dict[str, list[str]]:
    """The pages of each part of the index by their paths in the site: "" (the main index: main_part)
    and "part-<n>" (study pages: those of ``studies``, by their paths, else those in ``public``), those
    with pages only."""
    listed = studies if studies is not None else [
        p.relative_to(public).as_posix() for p in public.glob("studies/*/index.html")]
    main = main_part(public)
    return {**({"": main} if main else {}), **study_parts(listed)}


def used_files(folder: Path, *, main: bool) -> list[str]:
    """The files of ``folder`` (a part of the index as Pagefind wrote it) that the search page loads:
    the paths in it of its entry, each language's metadata (``pagefind.<hash>.pf_meta``) and every
    chunk (CHUNKS); for the ``main`` index also MAIN_ONLY and each language's WebAssembly
    (``wasm.<its wasm, else unknown>.pagefind``, as pagefind.js names it)."""
    languages = json.loads((folder / ENTRY).read_text(encoding="utf-8"))["languages"].values()
    used = [ENTRY, *(f"pagefind.{language['hash']}.pf_meta" for language in languages)]
    if main:
        used += [*MAIN_ONLY, *(f"wasm.{language.get('wasm') or 'unknown'}.pagefind" for language in languages)]
    used += [p.relative_to(folder).as_posix() for chunks in CHUNKS for p in (folder / chunks).glob("*")]
    return sorted(set(used))


def _keep_used(folder: Path, *, main: bool) -> None:
    """Remove what the search page does not load from ``folder`` (used_files); a file it loads that
    Pagefind did not write (another version's layout) stops the build."""
    used = used_files(folder, main=main)
    missing = [name for name in used if not (folder / name).is_file()]
    if missing:
        raise BuildError(f"pagefind wrote no {', '.join(missing)} into its index: "
                         "is it the version package-lock.json names?")
    for path in folder.iterdir():
        if path.is_dir() and path.name in CHUNKS:
            continue
        if path.is_dir():
            shutil.rmtree(path)
        elif path.name not in used:
            path.unlink()


def _key(common: str, files: list[str], source: Callable[[str], Path], digests: Digests) -> str:
    """A part's key: Pagefind's version and its pages, each by its path and its bytes' SHA-256 (the
    pages are the build's, mostly linked from the page cache: remembered by ``digests``)."""
    digest = hashlib.sha256(f"{common}\n".encode())
    for file in files:
        digest.update(f"{file}\n{digests.of(source(file), written_by_build=True)}\n".encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Indexed:
    """Parts of the index in the cache: each part's entry by its name, and how many were made."""
    entries: dict[str, Path]
    made: int


def index_parts(parts: dict[str, list[str]], *, root: Path, cache: Path, source: Callable[[str], Path]) -> Indexed:
    """The cache entry of each part of ``parts`` (name -> its pages' paths in the site, each read from
    ``source(path)``), made by Pagefind, one part after the other, where the cache does not hold it:
    Pagefind keeps a part's pages in memory (1.7 GiB for each of two parts at once at 10,000 bundles) and
    uses both cores on its own (1.6 of them for 500 study pages)."""
    if not parts:
        return Indexed(entries={}, made=0)
    common = hashlib.sha256(f"{_pagefind_version(root)}\n{ENTRY} {CHUNKS} {MAIN_ONLY}".encode()).hexdigest()
    pagefind = _pagefind_command(root)
    # the pages' digests: a file for the main index and one for the study parts, which are made at once
    digests = Digests(cache / "digests" / f"search{'-main' if '' in parts else ''}.json")
    entries = {name: cache / "search" / key[:2] / key for name, files in parts.items()
               for key in [_key(common, files, source, digests)]}
    digests.save()
    missing = [name for name in parts if not entries[name].is_dir()]

    def index(name: str, out: Path) -> None:
        site = out.with_name(out.name + "-site")  # its pages linked into a folder of their own, at their paths in the site
        try:
            for file in parts[name]:
                (site / file).parent.mkdir(parents=True, exist_ok=True)
                link_or_copy(source(file), site / file)  # (a copy where the page is on another file system)
            done = children.run([*pagefind, "--site", str(site), "--glob", "**/index.html",
                                 "--output-path", str(out), "--silent"], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise BuildError(f"pagefind failed:\n{(done.stdout + done.stderr).strip()}")
            _keep_used(out, main=not name)
        finally:
            shutil.rmtree(site, ignore_errors=True)

    for name in missing:
        make_entry(entries[name], lambda out, name=name: index(name, out))
    return Indexed(entries=entries, made=len(missing))


def publish_index(indexed: list[Indexed], *, public: Path, cache: Path, tree: Tree = NO_SPARE) -> CacheCounts:
    """Link the parts (``indexed``) into ``public/pagefind/`` (the main index there, the others in their
    folders), list the others in ``parts.json`` (the search page merges them), and prune the cache.
    ``tree``: ``public`` as recycle.py places files into it."""
    entries = {name: entry for done in indexed for name, entry in done.entries.items()}
    for name, entry in sorted(entries.items()):
        link_tree(entry, public / "pagefind" / name, tree=tree)
        os.utime(entry)  # used now: kept by prune()
    listed = [f"{name}/" for name in sorted(entries) if name]
    tree.fresh(os.fspath(public / "pagefind" / "parts.json"))
    (public / "pagefind" / "parts.json").write_text(json.dumps(listed), encoding="utf-8")
    made = sum(done.made for done in indexed)
    pruned = prune(cache / "search", max_bytes=MAX_BYTES, every=PRUNE_EVERY,
                   keep=frozenset(entries.values())) if made else 0
    return CacheCounts(made=made, cached=len(entries) - made, pruned=pruned)


def index_search(*, root: Path, public: Path, cache: Path, studies: dict[str, Path] | None = None) -> CacheCounts:
    """Write the Pagefind index of the pages in ``public`` into ``public/pagefind``, each part from the
    cache when its pages are the bytes they were: the main index beside the study parts. ``studies``:
    the study pages by their paths in the site, read from there (the page cache's entries, while the
    build still links them into ``public``). Returns parts made, parts cached, entries pruned."""
    parts = parts_of(public, studies)

    def source(file: str) -> Path:
        return studies[file] if studies is not None and file in studies else public / file

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = [pool.submit(index_parts, {name: files}, root=root, cache=cache, source=source)
                for name, files in parts.items() if not name]
        done.append(pool.submit(index_parts, {name: files for name, files in parts.items() if name}, root=root,
                                cache=cache, source=source))
        return publish_index([d.result() for d in done], public=public, cache=cache)
