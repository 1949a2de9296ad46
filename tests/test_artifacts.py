"""Artifacts are published as loaded, with their SHA-256, and every measured value links to its line."""

from __future__ import annotations

import hashlib
import html
import json
import re

MEASURED = "measured-mariadb-2core-vm"
RUN = "dw-off-compressed-oltp-read-write-t1-r1"


def test_each_artifact_is_published_as_loaded(built_site):
    artifacts = json.loads((built_site.export / "data" / "artifact_list.json").read_text(encoding="utf-8"))
    # 36 logs of measured-mariadb-2core-vm, 4 of measured-mariadb-2core-vm-5min
    assert len(artifacts) == 40 and {a["format"] for a in artifacts} == {"sysbench"}
    assert all("pages" not in a for a in artifacts)  # each study's are in artifacts/<study>.json
    with_pages = json.loads((built_site.export / "data" / "artifacts" / f"{MEASURED}.json").read_text(encoding="utf-8"))
    assert [{k: v for k, v in a.items() if k != "pages"} for a in with_pages] == [a for a in artifacts if a["study"] == MEASURED]
    # each page's lines in a file of their own (those of 36 logs of at most 43 lines: one page each)
    assert all(a["pages"] == [{"first": 1, "last": a["line_count"], "path": "",
                               "lines": f"lines/{MEASURED}/{a['artifact']}/1.html"}] for a in with_pages)
    for a in with_pages:
        shown = (built_site.export / "assets" / "lines" / MEASURED / a["artifact"] / "1.html").read_text(encoding="utf-8")
        texts = re.findall(r'<span class="line" id="L(\d+)"><a class="ln" href="#L\1" aria-label="line \1">\1</a>(.*?)\n</span>', shown)
        original = (built_site.data / MEASURED / a["path"]).read_text(encoding="utf-8").removesuffix("\n").split("\n")
        assert [(int(n), html.unescape(t)) for n, t in texts] == list(enumerate(original, start=1))
        assert "".join(f'<span class="line" id="L{n}"><a class="ln" href="#L{n}" aria-label="line {n}">{n}</a>{t}\n</span>'
                       for n, t in texts) == shown  # nothing but the lines
    for a in artifacts:
        published = built_site.public / a["file"]
        original = built_site.data / a["study"] / a["path"]
        assert a["file"] == f"raw/{a['study']}/{a['artifact']}.txt" and a["name"] == original.name
        assert published.read_bytes() == original.read_bytes()
        assert hashlib.sha256(published.read_bytes()).hexdigest() == a["sha256"]


def test_the_list_of_logs_is_in_order_of_path_then_study(built_site):
    """The exporter orders the list (its page ranges over it as it is): both measured studies have a
    t2-r1 log of the same path, the 36-log study's first."""
    artifacts = json.loads((built_site.export / "data" / "artifact_list.json").read_text(encoding="utf-8"))
    shared = "artifacts/dw-off-compressed-oltp_read_write-t2-r1.log"
    assert [(a["path"], a["study"]) for a in artifacts[:5]] == [
        ("artifacts/dw-off-compressed-oltp_read_write-t1-r1.log", MEASURED),
        ("artifacts/dw-off-compressed-oltp_read_write-t1-r2.log", MEASURED),
        ("artifacts/dw-off-compressed-oltp_read_write-t1-r3.log", MEASURED),
        (shared, MEASURED), (shared, f"{MEASURED}-5min")]
    assert artifacts == sorted(artifacts, key=lambda a: (a["path"], a["study"]))
    page = (built_site.public / "artifacts" / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<li><a href="[^"]*/artifacts/([^/"]+)/([^/"]+)/"><code>([^<]+)</code>', page)
    assert links == [(a["study"], a["artifact"], a["path"]) for a in artifacts]


def test_a_measured_value_opens_to_its_log_line(page, site_url):
    """From the keyboard: Enter opens the value's provenance, the log's line quoted; its link shows the log
    at that line."""
    page.goto(f"{site_url}/studies/{MEASURED}/")
    fold = page.locator("details.fold:has(table.runs) > summary")  # 36 runs: folded
    assert fold.inner_text() == "Runs: 36 rows (show)"
    fold.focus()
    page.keyboard.press("Enter")
    summary = page.locator(f'tr[data-run="{RUN}"] details.value-prov summary').first
    summary.focus()
    page.keyboard.press("Enter")
    pop = page.locator('tr[data-run] details.value-prov[open] .prov-pop').first
    assert pop.locator("cite").inner_text() == "log artifacts/dw-off-compressed-oltp_read_write-t1-r1.log, line 23"
    link = pop.locator(".prov-quote a")
    # the log's line 23 as printed (its runs of spaces as one)
    assert link.inner_text() == "“transactions: 1218 (243.47 per sec.)”"
    link.click()
    assert page.url.endswith(f"/artifacts/{MEASURED}/{RUN}/#L23")
    line = page.locator("#L23")
    assert " ".join(line.inner_text().split()) == "23 transactions: 1218 (243.47 per sec.)"
    assert line.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 243, 191)"  # :target
    assert page.errors == []


def test_a_transcribed_value_opens_to_its_source(page, site_url):
    page.goto(site_url + "/studies/graid-supremeraid-mysql-2023/")
    cell = page.locator('#table-tps-rebuilding details.value-prov:has(data[value="15445.57"])')
    cell.locator("summary").click()
    # table tps-rebuilding of data/graid-supremeraid-mysql-2023/bundle.yaml: row SupremeRAID RAID 10 (line 177),
    # column 256 Users, printed "1544557" and read as 15445.57; the paper has no web address recorded, so it
    # is named by its identifier and nothing links
    pop = cell.locator(".prov-pop")
    assert pop.locator("cite").inner_text() == (
        "Graid Technology Inc., “MySQL Performance Testing with RAID (SupremeRAID versus Linux MD RAID)” (Graid "
        "Technology white paper (PDF), May 2023), section "
        "Transactions Per Second in Rebuilding State, table “RAID Configuration* / 64 to 1024 Users (* RAID with 4K "
        "chunks)”, row SupremeRAID™ RAID 10, column 256 Users")
    assert pop.locator(".prov-quote").inner_text() == "“SupremeRAID™ RAID 10 … 1544557”"
    assert pop.inner_text().startswith('exact · printed as “1544557” · Graid Technology Inc.,')
    assert pop.locator("a").count() == 0


def test_an_artifact_changed_after_loading_stops_the_export(tmp_path):
    """The published file is the one the values were read from: a file changed between load and publish
    stops the export (the build turns it into a BuildError), naming the file and the recorded hash."""
    import pytest

    from conftest import copy_project
    from ingest.database.load import build_database
    from ingest.publish import export_all
    from ingest.publish.artifacts import ArtifactChanged
    from ingest.bundles.validate import validate_paths

    layout = copy_project(tmp_path / "project")
    bundles, _ = validate_paths([layout.data / MEASURED])
    build_database(bundles, db_path=layout.database)
    log = layout.data / MEASURED / "artifacts" / "dw-off-compressed-oltp_read_write-t1-r1.log"
    loaded = hashlib.sha256(log.read_bytes()).hexdigest()
    log.write_bytes(log.read_bytes() + b"tampered\n")
    with pytest.raises(ArtifactChanged) as caught:
        export_all(db_path=layout.database, out_dir=tmp_path / "export", bundles=layout.data)
    assert str(caught.value) == f"{log}: changed since it was loaded (its SHA-256 is no longer {loaded})"
