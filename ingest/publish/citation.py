"""How a study or a chart is cited: its permalink, the SHA-256 of its data, and the same reference as
BibTeX and as CSL-JSON (what reference managers and document editors import). The data of a study is
its CSV download (``/data/studies/<id>.csv``); the data of a chart, its embed CSV (``/embed/<id>.csv``).
The files ``<name>.bib`` and ``<name>.csl.json`` are published beside each, and pages show the same text.
"""

from __future__ import annotations

import json
from pathlib import Path

PUBLISHER = "benchdb"
# BibTeX's special characters, as (La)TeX reads them inside braces
_TEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "%": r"\%", "&": r"\&", "#": r"\#", "_": r"\_",
        "$": r"\$", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _tex(text: str) -> str:
    return "".join(_TEX.get(c, c) for c in text)


def reference(*, key: str, title: str, url: str, sha256: str, about: str) -> dict:
    """The reference of one cited thing: ``about`` names where its values come from."""
    note = f"Data SHA-256 {sha256}. {about}"
    bibtex = (f"@misc{{{key},\n  title = {{{_tex(title)}}},\n  author = {{{{{PUBLISHER}}}}},\n"
              f"  howpublished = {{\\url{{{url}}}}},\n  note = {{{_tex(note)}}}\n}}\n")
    csl = {"id": key, "type": "dataset", "title": title, "publisher": PUBLISHER, "URL": url,
           "version": f"sha256:{sha256}", "note": note}
    return {"key": key, "url": url, "sha256": sha256, "bibtex": bibtex,
            "csl": json.dumps([csl], ensure_ascii=False, indent=1) + "\n"}


def write_reference(ref: dict, *, folder: Path, name: str) -> dict:
    """Write ``name``.bib and ``name``.csl.json into ``folder``; the reference with their file names."""
    (folder / f"{name}.bib").write_text(ref["bibtex"], encoding="utf-8")
    (folder / f"{name}.csl.json").write_text(ref["csl"], encoding="utf-8")
    return {**ref, "bib_file": f"{name}.bib", "csl_file": f"{name}.csl.json"}


def sources_line(doc: dict) -> str:
    """The study's original sources as a line of text (translations are named on the study page)."""
    sources = [s for s in doc["sources"] if s["role"] == "original"] or doc["sources"]
    return "; ".join(f"{s['publisher']}, {s['title']}" + (f" ({s['date']})" if s.get("date") else "") for s in sources)


def study_reference(doc: dict, *, site_url: str, sha256: str, folder: Path) -> dict:
    ref = reference(key=f"benchdb-{doc['id']}", title=doc["title"], url=f"{site_url}/studies/{doc['id']}/",
                    sha256=sha256, about=f"Values from: {sources_line(doc)}.")
    return write_reference(ref, folder=folder, name=doc["id"])


def chart_reference(entry: dict, doc: dict, *, site_url: str, folder: Path) -> dict:
    ref = reference(key=f"benchdb-{entry['id']}", title=entry["title"], url=f"{site_url}{entry['page']}",
                    sha256=entry["sha256"], about=f"A chart of the study at {site_url}/studies/{doc['id']}/; "
                                                  f"values from: {sources_line(doc)}.")
    return write_reference(ref, folder=folder, name=entry["id"])
