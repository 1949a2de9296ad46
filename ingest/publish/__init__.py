"""Publish step: write the downloads and the data the Hugo site reads, from the database only, one
module per page family (downloads, study, explore, facets, compare, embeds) over the SQL views of
ingest/database/sql/publish.sql. Everything the site shows about results comes out of DuckDB here, so the
pages, the downloads and the database cannot disagree. A study's own outputs can come from the
export's cache instead (study_cache.py); whatever reads several studies (/sql/'s database file among
them) is exported every time."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import duckdb

from ..plumbing import children
from ..bundles.fields import as_data
from ..database import comparable
from ..plumbing.memory import hand_back_memory
from . import catalogue
from .artifacts import artifact_rows, export_artifacts, write_artifact_list
from .badges import export_badges
from .colours import positions
from .compare import export_compare, write_compare_index
from .csv_cells import export_rule
from .db import Snapshot, in_studies, materialise_views, release_views
from .downloads import export_downloads, export_study_csvs
from .embeds import export_embeds, facet_embeds, study_embeds, write_specs
from .explore import export_explore, write_explore_index
from .evidence import add_sql_table, evidence_rows
from .evidence_embed import evidence_embeds
from .facets import entry_text, evidence_data, facet_pages_data, study_facets, write_answers, write_facets
from .findings import headlines, study_finding
from .citation import study_reference, write_references
from .claims import claims_page
from .sql_page import export_sql
from .quality import export_quality
from .study import export_studies
from .study_cache import AGGREGATED, export_key, head, lookup, prune_entries, record, restore, store, with_artifacts
from ..plumbing.cache import CacheCounts
from ..plumbing.recycle import Tree


def take_from_cache(*, out_dir: Path, cache: Path, bundle_keys: dict[str, str], site_url: str = "") -> dict[str, dict]:
    """The records of the studies whose outputs the export's cache holds (study_cache.py: by each study's
    bundle entry key, ``bundle_keys``, and the site's address), what the aggregate steps read of them
    (study_cache.AGGREGATED), their files linked into the export ``out_dir``. It needs no database: the
    build does it while the database loads. In a recycled generation (recycle.py), the files ``out_dir``
    holds already are kept where they are these, and the others removed before the export writes its
    own."""
    hits: dict[str, dict] = {}
    made: set[str] = set()
    tree = Tree(out_dir, background=True)  # listed while the first records are read
    for study, key in bundle_keys.items():
        hit = lookup(cache, export_key(key, site_url=site_url))
        if hit is not None:  # (whole records are read one at a time: the rest of each is let go here)
            restore(hit, out_dir=out_dir, made=made, tree=tree)
            hits[study] = {k: hit[k] for k in AGGREGATED}
    tree.purge()
    return hits


def export_all(*, db_path: Path, out_dir: Path, bundles: Path, site_url: str = "", cache: Path | None = None,
               bundle_keys: dict[str, str] | None = None, taken: dict[str, dict] | None = None) -> CacheCounts:
    """Write ``out_dir/static/data/*`` (downloads), ``out_dir/data/*.json`` (site data Hugo loads at start)
    and ``out_dir/assets/*`` (per-study data each page of Explore and Compare reads for itself). ``bundles`` is
    the data folder the database was loaded from (its artifacts are published from there); ``site_url`` is
    the deployment's address, which the standalone embeds print (empty: addresses from the site root).
    With ``cache`` (a folder) and ``bundle_keys`` (each study's bundle entry key, stage.py), a study whose
    outputs are in the cache is not exported again (study_cache.py); ``taken`` is what take_from_cache
    returned for them, if it ran already. Returns how many studies were exported and how many came from
    the cache."""
    known = (bundle_keys or {}) if cache else {}
    if taken is None:
        taken = take_from_cache(out_dir=out_dir, cache=cache, bundle_keys=known, site_url=site_url) if cache else {}
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        con.execute("SET enable_progress_bar = false")  # long queries would print one into the build log
        data = out_dir / "data"
        data.mkdir(parents=True, exist_ok=True)
        studies = [study for (study,) in con.execute("SELECT study FROM studies ORDER BY study").fetchall()]
        hits = {s: taken[s] for s in studies if s in taken}
        todo = [s for s in studies if s not in hits]
        where = in_studies(todo) if hits else "TRUE"  # the studies this export computes
        with ThreadPoolExecutor(max_workers=2) as pool:
            # mostly disk and DuckDB, beside the Python of the rest: the artifacts copied (and checked
            # against their SHA-256), the whole database's files
            copying = pool.submit(export_artifacts, artifact_rows(con, where=where), static_dir=out_dir / "static",
                                  data_dir=data, assets_dir=out_dir / "assets", bundles=bundles)
            whole = pool.submit(_export_whole, con.cursor(), db_path=db_path, out_dir=out_dir)
            made, evidence = _export_pages(con, db_path=db_path, out_dir=out_dir, site_url=site_url, todo=todo,
                                           hits=hits, where=where)
            logs = copying.result()
            whole.result()
        add_sql_table(evidence, static_dir=out_dir / "static", sql_json=out_dir / "data" / "sql.json")
    finally:
        con.close()
    made = {study: with_artifacts(entry, logs.get(study, [])) for study, entry in made.items()}
    write_artifact_list([a for study in studies for a in (hits[study]["artifacts"] if study in hits else made[study]["artifacts"])],
                        data_dir=data)
    keys = {study: export_key(known[study], site_url=site_url) for study in studies if study in known}
    for study, entry in made.items():
        if study in keys:
            store(cache, keys[study], entry, out_dir=out_dir)
    return CacheCounts(made=len(made), cached=len(hits), pruned=prune_entries(cache, used=list(keys.values())) if cache else 0)


def _export_whole(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path) -> None:
    """The files of the whole database: its downloads and /sql/'s database file (run beside the rest of
    the export on a cursor of its own)."""
    try:
        export_downloads(con, db_path=db_path, out_dir=out_dir / "static" / "data")
        doc = export_sql(con, db_path=db_path, static_dir=out_dir / "static")
        (out_dir / "data" / "sql.json").write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        # the rule of "Where does your run land?", which the page runs over /sql/'s database file
        (out_dir / "data" / "landing.json").write_text(json.dumps(comparable.as_data()), encoding="utf-8")
    finally:
        con.close()


def facet_parts(doc: dict, found: dict[str, dict], *, static_dir: Path, site_url: str) -> dict[str, dict]:
    """A study's parts of the facet pages (facets.study_facets: ``found``) as the export keeps them: on
    each page it has comparisons on, their text (facets.entry_text), its first finding and its charts'
    embeds (their CSVs written); on the others, its systems with no pair."""
    parts = {}
    for slug, part in found.items():
        if "entry" not in part:
            parts[slug] = part
            continue
        entry = part["entry"]
        parts[slug] = {"text": entry_text(entry), "finding": study_finding(entry), "evidence": evidence_rows(entry, head(doc)),
                       "embeds": facet_embeds(head(doc), entry, static_dir=static_dir, site_url=site_url)}
    return parts


# From this many studies to export on (an empty cache, or a change of code), their own outputs are made
# by worker processes, one a core: that work is Python's, a study at a time, and the workers cost the
# start of the server they are forked from (children.py: 0.5 s of imports, once a build; spawned, each
# took about a second of imports, when this was chosen). Fewer are exported in this process, at once.
WORKERS_FROM = 200
# Studies a worker exports at once (their rows, documents and facet comparisons are held together, then
# let go): at 10,000 bundles the export once held every study's document at once, 6.4 GiB. At the
# export's peak there, two workers held 0.48 GiB each with 500 studies a batch and 0.38 GiB with 250,
# beside the 2.3 to 2.4 GiB of the build's process, which holds every study's record.
STUDIES_PER_BATCH = 250


def _export_batch(con: duckdb.DuckDBPyConnection, *, out_dir: Path, site_url: str, where: str) -> dict[str, dict]:
    """The per-study outputs of the studies ``where`` holds for (db.in_studies); returns their records
    (study_cache.record)."""
    static = out_dir / "static"
    study_data = static / "data" / "studies"
    hashes = export_study_csvs(con, out_dir=study_data, where=where)
    docs = export_studies(Snapshot(con, where=where), out_dir=out_dir / "data", static_dir=static, cite=lambda doc: study_reference(
        doc, site_url=site_url.rstrip("/"), sha256=hashes[doc["id"]]))
    found = study_facets(Snapshot(con, where=where), [head(doc) for doc in docs], colours=positions(con, where=where))
    explored = export_explore(con, assets_dir=out_dir / "assets", where=where)
    compared = export_compare(con, assets_dir=out_dir / "assets", where=where)
    export_badges(con, static_dir=static, where=where)
    made = {}
    for doc in docs:
        own = study_embeds(doc, static_dir=static, site_url=site_url)
        parts = facet_parts(doc, found[doc["id"]], static_dir=static, site_url=site_url)
        charts = own + [e for part in parts.values() for e in part.get("embeds", [])]
        # its references: its own, its charts', its facet charts' (in the facets' order), taken off the
        # listings, as their specs are (write_specs): the records of every study are held until the end
        # of the export, and nothing after this reads them (at 1,000 bundles, 17 of a record's 111 KB)
        write_references({doc["id"]: [doc["citation"], *(e.pop("reference") for e in charts)]}, folder=study_data)
        specs = write_specs(doc["id"], charts, out_dir=out_dir)
        made[doc["id"]] = record(doc, explore=explored[doc["id"]], compare=compared[doc["id"]], embeds=own,
                                 facets=parts, specs=specs)
    return made


def _export_apart(*, db_path: Path, out_dir: Path, site_url: str, studies: list[str]) -> dict[str, dict]:
    """_export_batch of ``studies`` in a worker process, on a connection of its own (the views
    materialised there: a connection's temporary tables are its own)."""
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        con.execute("SET enable_progress_bar = false")
        where = in_studies(studies)
        materialise_views(con, where=where)
        made = _export_batch(con, out_dir=out_dir, site_url=site_url, where=where)
    finally:
        con.close()
    # what the batch's documents held, handed back to the system before the next batch: the export's
    # peak comes with its last batches, when the build's process holds nearly every study's record
    hand_back_memory()
    return made


def _export_own(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path, site_url: str, todo: list[str],
                where: str) -> dict[str, dict]:
    """The per-study outputs of the studies of ``todo`` (``where`` holds for them): in this process, or,
    from WORKERS_FROM studies on, on worker processes, STUDIES_PER_BATCH at a time; their records, in
    ``todo``'s order."""
    if len(todo) < WORKERS_FROM:
        materialise_views(con, where=where)
        made = _export_batch(con, out_dir=out_dir, site_url=site_url, where=where)
        release_views(con)  # only todo's studies' rows: what follows reads every study
        return made
    # every count-th study a batch: studies of one kind (with logs, say) have ids alike, which sort together
    cores = children.cores()
    count = max(cores, math.ceil(len(todo) / STUDIES_PER_BATCH))
    batches = [todo[n::count] for n in range(count)]
    with children.workers(min(cores, len(batches))) as pool:
        done = [pool.submit(_export_apart, db_path=db_path, out_dir=out_dir, site_url=site_url, studies=batch)
                for batch in batches]
        made = {study: entry for batch in done for study, entry in batch.result().items()}
    return {study: made[study] for study in todo}


def _export_pages(con: duckdb.DuckDBPyConnection, *, db_path: Path, out_dir: Path, site_url: str, todo: list[str],
                  hits: dict[str, dict], where: str) -> tuple[dict[str, dict], dict[str, dict]]:
    """Everything of the export but the artifacts and the whole database's files: the per-study outputs
    of the studies of ``todo`` (``where`` holds for them; _export_own), while those of ``hits`` are
    being linked in place, and every aggregate, from the records of both. Returns the records of
    ``todo``, for the cache, and every facet's evidence (facets.evidence_data: /sql/'s table of it is
    written once /sql/'s own files are)."""
    made = _export_own(con, db_path=db_path, out_dir=out_dir, site_url=site_url, todo=todo, where=where)
    data = out_dir / "data"
    records = {**hits, **made}
    ordered = sorted(records)
    write_explore_index(con, out_dir=data, entries={s: records[s]["explore"] for s in ordered})
    write_compare_index(out_dir=data, entries={s: records[s]["compare"] for s in ordered})
    facets = facet_pages_data({s: records[s]["facets"] for s in ordered})
    varies = catalogue.varies(facets)
    studies = {s: {**records[s]["listed"], "varies": varies.get(s, [])} for s in ordered}
    (data / "study_list.json").write_text(json.dumps(studies, ensure_ascii=False), encoding="utf-8")
    (data / "fields.json").write_text(json.dumps(as_data(), ensure_ascii=False), encoding="utf-8")
    evidence = evidence_data(facets)
    plots = evidence_embeds(evidence, static_dir=out_dir / "static", out_dir=out_dir, site_url=site_url)
    write_facets(facets, data_dir=data, evidence=evidence)
    write_answers(evidence, data_dir=data)
    found = {"headlines": headlines(facets)}
    (data / "findings.json").write_text(json.dumps(found, ensure_ascii=False), encoding="utf-8")
    (data / "claims.json").write_text(json.dumps(claims_page(con, studies=studies), ensure_ascii=False), encoding="utf-8")
    export_quality(con, data_dir=data, downloads=out_dir / "static" / "data")
    export_rule(out_dir / "assets")  # the CSV-injection rule, for the browser's CSV downloads
    export_embeds({s: records[s]["embeds"] for s in ordered}, facets, static_dir=out_dir / "static", data_dir=data,
                  evidence=plots)
    return made, evidence
