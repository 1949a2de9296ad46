"""Publish step: write the downloads and the data the Hugo site reads, from the database only, one
module per page family (downloads, study, explore, facets, compare, embeds) over the SQL views of
ingest/sql/publish.sql. Everything the site shows about results comes out of DuckDB here, so the
pages, the downloads and the database cannot disagree."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb

from ..fields import as_data
from .artifacts import artifact_rows, export_artifacts
from .badges import export_badges
from .colours import colour_chart, positions
from .compare import export_compare
from .csv_cells import export_rule
from .db import Snapshot, materialise_views
from .downloads import export_downloads, export_study_csvs
from .embeds import export_embeds
from .explore import export_explore
from .facets import facet_pages_data
from .findings import findings, headlines, ledger
from .citation import study_reference, write_references
from .sql_page import export_sql
from .quality import export_quality
from .study import export_studies


def export_all(*, db_path: Path, out_dir: Path, bundles: Path, site_url: str = "") -> None:
    """Write ``out_dir/static/data/*`` (downloads), ``out_dir/data/*.json`` (site data Hugo loads at start)
    and ``out_dir/assets/*`` (per-study data each page of Explore and Compare reads for itself). ``bundles`` is
    the data folder the database was loaded from (its artifacts are published from there); ``site_url`` is
    the deployment's address, which the standalone embeds print (empty: addresses from the site root)."""
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        con.execute("SET enable_progress_bar = false")  # long queries would print one into the build log
        data = out_dir / "data"
        data.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=1) as pool:
            # the artifacts are copied (and checked against their SHA-256) beside the rest: mostly disk
            copying = pool.submit(export_artifacts, artifact_rows(con), static_dir=out_dir / "static",
                                  data_dir=data, bundles=bundles)
            _export_pages(con, db_path=db_path, out_dir=out_dir, site_url=site_url)
            copying.result()
    finally:
        con.close()


def _export_pages(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path, site_url: str) -> None:
    """Everything of the export but the artifacts."""
    materialise_views(con)
    export_downloads(con, db_path=db_path, out_dir=out_dir / "static" / "data")
    data = out_dir / "data"
    db = Snapshot(con)
    study_data = out_dir / "static" / "data" / "studies"
    hashes = export_study_csvs(con, out_dir=study_data)
    docs = export_studies(db, out_dir=data, cite=lambda doc: study_reference(
        doc, site_url=site_url.rstrip("/"), sha256=hashes[doc["id"]]))
    (data / "fields.json").write_text(json.dumps(as_data(), ensure_ascii=False), encoding="utf-8")
    export_explore(con, out_dir=data, assets_dir=out_dir / "assets")
    facets = facet_pages_data(db, docs)
    where = positions(con)
    for page in facets.values():  # facet charts are coloured like their study's charts
        for study in page["studies"]:
            for group in study["groups"]:
                if group["chart"]:
                    colour_chart(group["chart"], study["study"], where)
    (data / "facets.json").write_text(json.dumps(facets, ensure_ascii=False), encoding="utf-8")
    found = {"findings": findings(facets), "ledger": ledger(con), "headlines": headlines(facets)}
    (data / "findings.json").write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
    export_compare(con, out_dir=data, assets_dir=out_dir / "assets")
    (data / "sql.json").write_text(json.dumps(export_sql(con, static_dir=out_dir / "static"), ensure_ascii=False),
                                   encoding="utf-8")
    export_badges(con, static_dir=out_dir / "static")
    export_quality(con, data_dir=data, downloads=out_dir / "static" / "data")
    export_rule(out_dir / "assets")  # the CSV-injection rule, for the browser's CSV downloads
    charts = export_embeds(docs, facets, static_dir=out_dir / "static", data_dir=data,
                           specs_path=out_dir / "embed-specs.json", site_url=site_url)
    write_references({d["id"]: [d["citation"], *charts.get(d["id"], [])] for d in docs}, folder=study_data)
