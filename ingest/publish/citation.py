"""How a study or a chart is cited: its permalink, the SHA-256 of its data, and the same reference as
BibTeX and as CSL-JSON (what reference managers and document editors import). The data of a study is
its CSV download (``/data/studies/<id>.csv``); the data of a chart, its embed CSV (``/embed/<id>.csv``).

Each study's references, its own first and then its charts', are published in one pair of files beside
its CSV, ``/data/studies/<id>.bib`` and ``<id>.csl.json``, each entry keyed ``benchdb-<id>`` or
``benchdb-<chart-id>`` (small files are slow to write: a pair a chart was 9 s of the export at 1,000
bundles). Study pages show the study's own entry.
"""

from __future__ import annotations

import json
from pathlib import Path

PUBLISHER = "benchdb"
# TeX's special characters, as LaTeX prints them. A brace is written as a command, never as \{ or \}:
# BibTeX counts every brace, escaped or not, to find where a field ends, so a title ending in "\}}"
# closed its field and what followed became fields or entries of its own (issue #49). Every brace this
# module writes is one of a pair, so a field ends only where it is meant to
# (tests/test_citation.py parses hostile titles back with pybtex).
TEX = {"\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "%": r"\%", "&": r"\&",
       "#": r"\#", "_": r"\_", "$": r"\$", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_TEX = str.maketrans(TEX)
FOLDER = "/data/studies"  # where the files are published, from the site root


def _tex(text: str) -> str:
    return text.translate(_TEX)


def files(study: str) -> dict[str, str]:
    """The addresses of a study's reference files."""
    return {"bib_url": f"{FOLDER}/{study}.bib", "csl_url": f"{FOLDER}/{study}.csl.json"}


def reference(*, key: str, title: str, url: str, sha256: str, about: str) -> dict:
    """The reference of one cited thing: ``about`` names where its values come from."""
    note = f"Data SHA-256 {sha256}. {about}"
    bibtex = (f"@misc{{{key},\n  title = {{{_tex(title)}}},\n  author = {{{{{PUBLISHER}}}}},\n"
              f"  howpublished = {{\\url{{{url}}}}},\n  note = {{{_tex(note)}}}\n}}\n")
    csl = {"id": key, "type": "dataset", "title": title, "publisher": PUBLISHER, "URL": url,
           "version": f"sha256:{sha256}", "note": note}
    return {"key": key, "url": url, "sha256": sha256, "bibtex": bibtex, "csl": csl}


def sources_line(doc: dict) -> str:
    """The study's original sources as a line of text (translations are named on the study page)."""
    sources = [s for s in doc["sources"] if s["role"] == "original"] or doc["sources"]
    return "; ".join(f"{s['publisher']}, {s['title']}" + (f" ({s['date']})" if s.get("date") else "") for s in sources)


def study_reference(doc: dict, *, site_url: str, sha256: str) -> dict:
    ref = reference(key=f"benchdb-{doc['id']}", title=doc["title"], url=f"{site_url}/studies/{doc['id']}/",
                    sha256=sha256, about=f"Values from: {sources_line(doc)}.")
    return {**ref, **files(doc["id"]), "csl_text": json.dumps([ref["csl"]], ensure_ascii=False, indent=1) + "\n"}


def chart_reference(entry: dict, doc: dict, *, site_url: str) -> dict:
    return reference(key=f"benchdb-{entry['id']}", title=entry["title"], url=f"{site_url}{entry['page']}",
                     sha256=entry["sha256"], about=f"A chart of the study at {site_url}/studies/{doc['id']}/; "
                                                   f"values from: {sources_line(doc)}.")


def write_references(references: dict[str, list[dict]], *, folder: Path) -> None:
    """Each study's references (its own first) as ``<study>.bib`` and ``<study>.csl.json`` in ``folder``."""
    for study, refs in references.items():
        (folder / f"{study}.bib").write_text("\n".join(r["bibtex"] for r in refs), encoding="utf-8")
        (folder / f"{study}.csl.json").write_text(
            json.dumps([r["csl"] for r in refs], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
