"""Citations: each study and each chart has a permalink, the SHA-256 of its data, and BibTeX and
CSL-JSON files (ingest/publish/citation.py)."""

from __future__ import annotations

import csv
import hashlib
import json

import pytest
from pybtex.database import parse_string

from ingest.publish.citation import TEX, reference

GRAID = "graid-supremeraid-mysql-2023"


def test_bibtex_escapes_what_tex_reads_specially():
    ref = reference(key="benchdb-x", title="R&D: 50% of {tps}_max", url="https://example.org/studies/x/",
                    sha256="ab" * 32, about="Values from: A & B.")
    assert ref["bibtex"] == (
        "@misc{benchdb-x,\n  title = {R\\&D: 50\\% of \\textbraceleft{}tps\\textbraceright{}\\_max},\n  author = {{benchdb}},\n"
        "  howpublished = {\\url{https://example.org/studies/x/}},\n"
        f"  note = {{Data SHA-256 {'ab' * 32}. Values from: A \\& B.}}\n}}\n")
    assert [ref["csl"]] == [{
        "id": "benchdb-x", "type": "dataset", "title": "R&D: 50% of {tps}_max", "publisher": "benchdb",
        "URL": "https://example.org/studies/x/", "version": f"sha256:{'ab' * 32}",
        "note": f"Data SHA-256 {'ab' * 32}. Values from: A & B."}]


HOSTILE_TITLES = [
    'Fast RAID}} @misc(forged, title = "Forged", url = "https://evil.example")',  # issue #49's forged entry
    'x}, author = "Mallory", url = "https://evil.example", x = {',  # and its replaced author
    "\\}} @misc{forged2, title={F}} {{{ \\{",  # braces behind backslashes, unbalanced either way
    "{}{}}}}}{{{{ % & # _ $ ~ ^ \\ \" @comment{ @preamble{ é 日本",
]


def _untex(text: str) -> str:
    """The text a BibTeX field holds, with this module's escapes read back."""
    for char, escaped in TEX.items():
        text = text.replace(escaped, "\0" + str(ord(char)) + ";")  # the commands contain other escaped chars
    for char in TEX:
        text = text.replace("\0" + str(ord(char)) + ";", char)
    return text


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_a_hostile_title_stays_one_field_of_one_entry(title):
    """pybtex, which reads BibTeX as BibTeX does, finds one entry with the fields written, each as it was."""
    ref = reference(key="benchdb-x", title=title, url="https://example.org/studies/x/", sha256="ab" * 32,
                    about=f"Values from: {title}.")
    parsed = parse_string(ref["bibtex"], "bibtex")
    assert list(parsed.entries) == ["benchdb-x"]
    entry = parsed.entries["benchdb-x"]
    assert entry.type == "misc"
    assert {role: [str(p) for p in people] for role, people in entry.persons.items()} == {"author": ["{benchdb}"]}
    assert sorted(entry.fields) == ["howpublished", "note", "title"]
    assert _untex(entry.fields["title"]) == title
    assert _untex(entry.fields["note"]) == f"Data SHA-256 {'ab' * 32}. Values from: {title}."
    assert entry.fields["howpublished"] == "\\url{https://example.org/studies/x/}"


def test_a_study_is_cited_with_the_hash_of_its_csv_download(built_site):
    folder = built_site.public / "data" / "studies"
    data = (folder / f"{GRAID}.csv").read_bytes()
    sha = hashlib.sha256(data).hexdigest()
    # the study's rows are its rows of results.csv
    with open(built_site.public / "data" / "results.csv", newline="", encoding="utf-8") as f:
        everything = [row for row in csv.reader(f)]
    mine = list(csv.reader(data.decode("utf-8").splitlines()))
    assert mine[0] == everything[0] and mine[1:] == [r for r in everything[1:] if r[0] == GRAID] and len(mine) == 53
    # the bundle's title and its original source (graid-en: publisher, title, date); then its charts
    bib = (folder / f"{GRAID}.bib").read_text(encoding="utf-8")
    assert bib.startswith(
        f"@misc{{benchdb-{GRAID},\n  title = {{SupremeRAID SR-1010 vs Linux MD RAID: MySQL sysbench OLTP read/write}},\n"
        f"  author = {{{{benchdb}}}},\n  howpublished = {{\\url{{/studies/{GRAID}/}}}},\n"
        f"  note = {{Data SHA-256 {sha}. Values from: Graid Technology Inc., MySQL Performance Testing with RAID "
        "(SupremeRAID versus Linux MD RAID) (2023-05).}\n}\n\n@misc{")
    csl = json.loads((folder / f"{GRAID}.csl.json").read_text(encoding="utf-8"))
    assert (csl[0]["type"], csl[0]["version"], csl[0]["URL"]) == ("dataset", f"sha256:{sha}", f"/studies/{GRAID}/")
    assert [c["id"] for c in csl].count(f"benchdb-{GRAID}--tps-by-users--optimal") == 1
    assert bib.count("@misc{") == len(csl)
    page = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    assert "<summary>Cite this study</summary>" in page and f"SHA-256 <code>{sha}</code>" in page
    assert f'<a href="/data/studies/{GRAID}.bib">BibTeX</a>' in page


def test_a_chart_is_cited_with_the_hash_of_its_embed_csv(built_site):
    index = json.loads((built_site.public / "embed" / "index.json").read_text(encoding="utf-8"))["charts"]
    for chart in index:
        assert chart["cite_key"] == f"benchdb-{chart['id']}"
        # a facet's evidence plot, of many studies, has its own files beside its CSV
        assert chart["bib"] == (f"/embed/{chart['id']}.bib" if chart["kind"] == "evidence"
                                else f"/data/studies/{chart['study']}.bib")
        bib = (built_site.public / chart["bib"].lstrip("/")).read_text(encoding="utf-8")
        entry = bib[bib.index(f"@misc{{{chart['cite_key']},\n"):]
        assert f"Data SHA-256 {chart['sha256']}." in entry[:entry.index("\n}\n")]
        csl = json.loads((built_site.public / chart["csl"].lstrip("/")).read_text(encoding="utf-8"))
        (mine,) = [c for c in csl if c["id"] == chart["cite_key"]]
        assert (mine["URL"], mine["version"]) == (chart["page"], f"sha256:{chart['sha256']}")
    chart = next(c for c in index if c["id"] == f"{GRAID}--tps-by-users--optimal")
    page = (built_site.public / chart["page"].lstrip("/") / "index.html").read_text(encoding="utf-8")
    assert (f'cite as <code>{chart["cite_key"]}</code> in <a href="{chart["bib"]}">BibTeX</a> · '
            f'<a href="{chart["csl"]}">CSL-JSON</a>') in page
