"""The site's search index: Pagefind (npm) reads the rendered pages of a generation and writes its
index beside them (``public/pagefind/``), which the /search/ page queries in the reader's browser.

What is indexed is marked in the templates: the study pages and facet pages carry
``data-pagefind-body`` (their systems, storage products, claims and notes: what issue #18 asks to find),
so Explore's row pages, embeds and logs stay out of the index; the tables of values (runs, grades,
tables as printed, derived values, tails, the price of redundancy) and boxes that are only markup for
machines (BibTeX, CSL) carry ``data-pagefind-ignore``. Pagefind's time grows with the text it indexes
(about 10 MB/s here): with the values, 6 s at 1,000 bundles for a third of the build's one-change time.

Pagefind reads only the files of ``GLOB``: the top-level pages (a facet's first page, the prose pages,
the lists) and the study pages, the only places a marked page can be. Without it Pagefind parsed every
page of the site, Explore's row pages and embeds included, to look for the mark: at 1,000 bundles 36 s
and 1.9 GB, against 14 s and 0.8 GB with it (both on a loaded machine).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from . import children
from .problems import BuildError

GLOB = "{*/index.html,studies/*/index.html}"


def index_search(*, root: Path, public: Path) -> None:
    """Write the Pagefind index of the pages in ``public`` into ``public/pagefind``."""
    runner = root / "node_modules" / "pagefind" / "lib" / "runner" / "bin.cjs"
    node = shutil.which("node")
    if node is None or not runner.is_file():
        raise BuildError("the search index needs Node.js and the npm package pagefind: run `make deps`")
    cmd = [node, str(runner), "--site", str(public), "--output-subdir", "pagefind", "--glob", GLOB, "--silent"]
    done = children.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(f"pagefind failed:\n{(done.stdout + done.stderr).strip()}")
