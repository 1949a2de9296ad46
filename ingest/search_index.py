"""The site's search index: Pagefind (npm) reads the rendered pages of a generation and writes its
index beside them (``public/pagefind/``), which the /search/ page queries in the reader's browser.

What is indexed is marked in the templates: the study pages and facet pages carry
``data-pagefind-body`` (their systems, storage products, claims, notes and values), so Explore's row
pages, embeds and logs stay out of the index; boxes that are only markup for machines (BibTeX, CSL)
carry ``data-pagefind-ignore``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from . import children
from .problems import BuildError


def index_search(*, root: Path, public: Path) -> None:
    """Write the Pagefind index of the pages in ``public`` into ``public/pagefind``."""
    runner = root / "node_modules" / "pagefind" / "lib" / "runner" / "bin.cjs"
    node = shutil.which("node")
    if node is None or not runner.is_file():
        raise BuildError("the search index needs Node.js and the npm package pagefind: run `make deps`")
    done = children.run([node, str(runner), "--site", str(public), "--output-subdir", "pagefind", "--silent"],
                        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BuildError(f"pagefind failed:\n{(done.stdout + done.stderr).strip()}")
