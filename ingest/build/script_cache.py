"""The site's scripts, bundled once for every run of Hugo that reads the same site code.

Every run of Hugo (the site's own pages, each shard of study pages, each run of facet pages:
shards.py) bundled the scripts again with js.Build: Plot and d3-array into ``js/plot.js`` (their one
bundle, which the others import), the charts into ``js/site.js``, DuckDB-WASM's loader into ``js/sql.js``. On the project's six studies, the run of the site's own pages took 0.85 s
with it and 0.25 s without, a run of study pages 0.56 and 0.33 s, a run of facet pages 0.51 and 0.21 s.

So the build keeps the bundles that the run of the site's own pages published (``js/<name>.<SHA-256>.js``)
in ``build/cache/scripts/``, under the digest of what every run reads besides its data
(page_keys.common_digest: the site's templates and scripts, the npm packages' lock, Hugo's version,
...), with their SHA-256 (checked before a build mounts them: a damaged entry is removed), and mounts
them at ``assets/bundled/`` into the runs that start after that one (build.render_pages_of: in a build
from an empty cache, all but the first two) and into every run of later builds. The partial that bundles a
script (site/layouts/_partials/bundle.html) takes the mounted copy where there is one, else bundles it:
the bytes are the same either way, so are the pages (tests/test_stage.py compares a build that read
them with a clean build). ``benchdb build --serve`` mounts none: a script edited there is bundled anew.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

from ..plumbing.cache import PRUNE_EVERY, link_or_copy, make_entry, prune

FOLDER = "scripts"
MOUNT = "assets/bundled"  # where the runs read the bundles (the partial's "bundled/<name>.js")
MAX_BYTES = 64 * 2**20  # about 0.8 MB an entry: a few versions of the site's code
# a script that Hugo published, fingerprinted: js/<name>.<SHA-256 of its bytes>.js
PUBLISHED = re.compile(r"(?P<name>[\w-]+)\.[0-9a-f]{64}\.js")
DIGESTS = "sha256.json"  # beside js/: each bundle's SHA-256, checked before the runs read them


def _entry(cache: Path, key: str) -> Path:
    return cache / FOLDER / key[:2] / key


def bundles(cache: Path, key: str) -> Path | None:
    """The folder of the bundles kept under ``key`` (page_keys.common_digest), if the cache holds it
    whole: each file the bytes it was kept with (DIGESTS). A damaged entry is removed (the build's runs
    then bundle the scripts, and the run of the site's own pages keeps them again)."""
    entry = _entry(cache, key)
    if not entry.is_dir():
        return None
    try:
        digests = json.loads((entry / DIGESTS).read_text(encoding="utf-8"))
        whole = isinstance(digests, dict) and sorted(os.listdir(entry / "js")) == sorted(digests) and all(
            hashlib.sha256((entry / "js" / name).read_bytes()).hexdigest() == digest for name, digest in digests.items())
    except (OSError, ValueError):
        whole = False
    if not whole:
        shutil.rmtree(entry, ignore_errors=True)
        return None
    os.utime(entry)  # used now: kept by prune()
    return entry / "js"


def keep(cache: Path, key: str, *, site: Path, run: Path) -> int:
    """Keep the bundles that a run of Hugo published into ``run`` (its ``js/`` folder) under ``key``:
    each script of ``site``'s assets/js/ published there once (a script published twice, in two
    versions, is left to be bundled), as ``js/<name>.js``, and their SHA-256 (DIGESTS). Returns how
    many."""
    scripts = {p.stem for p in (site / "assets" / "js").glob("*.js")}
    folder = run / "js"
    published: dict[str, list[Path]] = {}
    for file in sorted(os.listdir(folder)) if folder.is_dir() else []:
        found = PUBLISHED.fullmatch(file)
        if found and found["name"] in scripts:
            published.setdefault(found["name"], []).append(folder / file)
    once = {name: paths[0] for name, paths in published.items() if len(paths) == 1}
    if not once:
        return 0

    def fill(tmp: Path) -> None:
        (tmp / "js").mkdir(parents=True)
        for name, path in once.items():
            link_or_copy(path, tmp / "js" / f"{name}.js")
        digests = {f"{name}.js": hashlib.sha256((tmp / "js" / f"{name}.js").read_bytes()).hexdigest() for name in once}
        (tmp / DIGESTS).write_text(json.dumps(digests, indent=1, sort_keys=True), encoding="utf-8")

    entry = _entry(cache, key)
    make_entry(entry, fill)
    prune(cache / FOLDER, max_bytes=MAX_BYTES, every=PRUNE_EVERY, keep=frozenset([entry]))
    return len(once)
