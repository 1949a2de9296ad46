"""Publish step: write the downloads and the data the Hugo site reads, from the database only, one
module per page family (downloads, study, explore, facets, compare, embeds) over the SQL views of
ingest/sql/publish.sql. Everything the site shows about results comes out of DuckDB here, so the
pages, the downloads and the database cannot disagree. A study's own outputs can come from the
export's cache instead (study_cache.py); whatever reads several studies is exported every time."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb

from ..fields import as_data
from .artifacts import artifact_rows, export_artifacts, write_artifact_list
from .badges import export_badges
from .colours import colour_chart, positions
from .compare import export_compare
from .csv_cells import export_rule
from .db import IN_TODO, Snapshot, materialise_views, set_todo
from .downloads import export_downloads, export_study_csvs
from .embeds import export_embeds
from .explore import export_explore
from .facets import facet_pages_data, write_facets
from .findings import findings, headlines, ledger
from .citation import study_reference, write_references
from .sql_page import export_sql
from .quality import export_quality
from .study import export_studies
from .study_cache import export_key, head, listed, lookup, prune_entries, record, restore, store, with_artifacts
from ..cache import CacheCounts


def export_all(*, db_path: Path, out_dir: Path, bundles: Path, site_url: str = "", cache: Path | None = None,
               bundle_keys: dict[str, str] | None = None) -> CacheCounts:
    """Write ``out_dir/static/data/*`` (downloads), ``out_dir/data/*.json`` (site data Hugo loads at start)
    and ``out_dir/assets/*`` (per-study data each page of Explore and Compare reads for itself). ``bundles`` is
    the data folder the database was loaded from (its artifacts are published from there); ``site_url`` is
    the deployment's address, which the standalone embeds print (empty: addresses from the site root).
    With ``cache`` (a folder) and ``bundle_keys`` (each study's bundle entry key, stage.py), a study whose
    outputs are in the cache is not exported again (study_cache.py). Returns how many studies were
    exported and how many came from the cache."""
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        con.execute("SET enable_progress_bar = false")  # long queries would print one into the build log
        data = out_dir / "data"
        data.mkdir(parents=True, exist_ok=True)
        studies = [study for (study,) in con.execute("SELECT study FROM studies ORDER BY study").fetchall()]
        known = (bundle_keys or {}) if cache else {}
        keys = {s: export_key(known[s], site_url=site_url) for s in studies if s in known}
        hits = lookup(cache, keys) if cache else {}
        for hit in hits.values():
            restore(hit, out_dir=out_dir)
        set_todo(con, [s for s in studies if s not in hits])
        with ThreadPoolExecutor(max_workers=1) as pool:
            # the artifacts are copied (and checked against their SHA-256) beside the rest: mostly disk
            copying = pool.submit(export_artifacts, artifact_rows(con, where=IN_TODO), static_dir=out_dir / "static",
                                  data_dir=data, bundles=bundles)
            made = _export_pages(con, db_path=db_path, out_dir=out_dir, site_url=site_url, hits=hits)
            logs = copying.result()
    finally:
        con.close()
    made = {study: with_artifacts(entry, logs.get(study, [])) for study, entry in made.items()}
    write_artifact_list([a for study in studies for a in (hits[study]["artifacts"] if study in hits else made[study]["artifacts"])],
                        data_dir=data)
    for study, entry in made.items():
        if study in keys:
            store(cache, keys[study], entry, out_dir=out_dir)
    return CacheCounts(made=len(made), cached=len(hits), pruned=prune_entries(cache) if cache else 0)


def _export_pages(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path, site_url: str,
                  hits: dict[str, dict]) -> dict[str, dict]:
    """Everything of the export but the artifacts: the per-study outputs of the studies to compute
    (db.TODO; those of ``hits`` are in place already) and every aggregate. Returns the records of the
    studies computed, for the cache."""
    materialise_views(con)
    export_downloads(con, db_path=db_path, out_dir=out_dir / "static" / "data")
    data = out_dir / "data"
    study_data = out_dir / "static" / "data" / "studies"
    hashes = export_study_csvs(con, out_dir=study_data, where=IN_TODO)
    docs = export_studies(Snapshot(con, where=IN_TODO), out_dir=data, cite=lambda doc: study_reference(
        doc, site_url=site_url.rstrip("/"), sha256=hashes[doc["id"]]))
    heads = sorted([*(head(doc) for doc in docs), *(r["head"] for r in hits.values())], key=lambda h: h["id"])
    studies = sorted([*(listed(doc) for doc in docs), *(r["listed"] for r in hits.values())], key=lambda s: s["id"])
    (data / "study_list.json").write_text(json.dumps({s["id"]: s for s in studies}, ensure_ascii=False), encoding="utf-8")
    (data / "fields.json").write_text(json.dumps(as_data(), ensure_ascii=False), encoding="utf-8")
    explored = export_explore(con, out_dir=data, assets_dir=out_dir / "assets", where=IN_TODO,
                              cached={s: r["explore"] for s, r in hits.items()})
    facets = facet_pages_data(Snapshot(con), heads)
    where = positions(con)
    for page in facets.values():  # facet charts are coloured like their study's charts
        for study in page["studies"]:
            for group in study["groups"]:
                if group["chart"]:
                    colour_chart(group["chart"], study["study"], where)
    write_facets(facets, data_dir=data)
    found = {"findings": findings(facets), "ledger": ledger(con), "headlines": headlines(facets)}
    (data / "findings.json").write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
    compared = export_compare(con, out_dir=data, assets_dir=out_dir / "assets", where=IN_TODO,
                              cached={s: r["compare"] for s, r in hits.items()})
    (data / "sql.json").write_text(json.dumps(export_sql(con, static_dir=out_dir / "static"), ensure_ascii=False),
                                   encoding="utf-8")
    export_badges(con, static_dir=out_dir / "static", where=IN_TODO)
    export_quality(con, data_dir=data, downloads=out_dir / "static" / "data")
    export_rule(out_dir / "assets")  # the CSV-injection rule, for the browser's CSV downloads
    charts, embedded = export_embeds(docs, facets, static_dir=out_dir / "static", data_dir=data,
                                     specs_path=out_dir / "embed-specs.json", site_url=site_url,
                                     cached={s: r["embeds"] for s, r in hits.items()}, heads=heads)
    citations = {**{s: r["citation"] for s, r in hits.items()}, **{d["id"]: d["citation"] for d in docs}}
    write_references({s: [citations[s], *charts.get(s, [])] for s in sorted(citations)}, folder=study_data)
    return {doc["id"]: record(doc, explore=explored[doc["id"]], compare=compared[doc["id"]],
                              embeds=embedded[doc["id"]]) for doc in docs}
