"""No page, download or embed of the built site names a folder of the project's development: the seed
documents beside the project (``shared/seeds/``), the machine's working folders, or the folder the site
was built in. Provenance names sources as a reader cites them (ingest/database/citing.py)."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT

# What the site publishes as text: pages, data, downloads, embeds' CSV and SVG, references, scripts.
# DuckDB's WebAssembly and worker script (/sql/duckdb/) are the library's own build and are left out.
TEXT = {".html", ".json", ".csv", ".svg", ".txt", ".bib", ".js", ".xml", ".css"}
THIRD_PARTY = ("sql/duckdb/",)
DEVELOPMENT = ("shared/seeds", "../shared", "/work/")


def _published_text(public: Path):
    for path in sorted(public.rglob("*")):
        relative = path.relative_to(public).as_posix()
        if path.is_file() and path.suffix in TEXT and not relative.startswith(THIRD_PARTY):
            yield relative, path.read_text(encoding="utf-8", errors="replace")


def test_no_published_file_names_a_development_folder(built_site):
    public = built_site.public.resolve()
    banned = (*DEVELOPMENT, str(ROOT), str(built_site.root.resolve()))
    found = [(relative, word) for relative, text in _published_text(public) for word in banned if word in text]
    assert found == []
    assert sum(1 for _ in _published_text(public)) > 100  # the walk saw the site
