"""The runs of a study (sysbench logs) with their interval samples, the charts of those samples over
time, and the rebuild traces (mdstat) with the runs that overlap them placed on their clock."""

from __future__ import annotations

from datetime import datetime, timedelta


from ..bundles.fields import fileio_metrics, metric_label, panels
from . import alt_text
from .artifacts import published_path
from .db import RESULT_ORDER, Snapshot, rows

MAX_RUNS_DRAWN = 8  # more lines than this on one time axis cannot be told apart
# A run with more interval samples than this (over 5 hours at sysbench's usual 1 s) is not drawn on its
# study page: its chart would carry them all. Its samples are in the downloads.
MAX_SAMPLES_SHOWN = 20_000
# A study page carries at most about this many samples of all its runs together: beyond it (55 runs of an
# hour at 1 s made a 36 MB page), its charts draw every k-th sample of each run, the same k for all, and
# every sample stays in the logs and the database download.
PAGE_SAMPLES = 4_000
# What a run's samples carry to its page: its time, its chart's panels (a database run's or a fileio run's,
# schema/fields.yaml) and the latency's percentile
SAMPLE_COLUMNS = tuple(dict.fromkeys(["t_s", *(p["key"] for kind in ("runs", "fileio") for p in panels(kind)),
                                      "latency_pct"]))
# The charts of runs over time: database runs (TPS, latency), and sysbench fileio runs (what a device does)
_CHARTS = {"runs": ("runs-over-time", "Interval samples over time"),
           "fileio": ("fileio-over-time", "File I/O interval samples over time (sysbench fileio)")}


def samples_path(study: str, chart_id: str) -> str:
    """Where a runs chart's spec with its runs' samples is served: its study page folds the chart and
    fetches this when the reader opens it (a page of 55 runs' samples weighed 70 KB of gzip)."""
    return f"/data/studies/{study}/{chart_id}.json"


def threads_text(threads: int | None) -> str:
    return f"{threads} thread{'' if threads == 1 else 's'}"


def _by(items: list[dict], key: str) -> dict:
    out: dict = {}
    for item in items:
        out.setdefault(item[key], []).append(item)
    return out


# A study's logs: those published here (their pages and downloads, and their origin when they come from a
# repository) and those only cited (their file at its commit, by its SHA-256).
LOGS = """
    SELECT study, artifact, true AS published, a.path, a.format, a.sha256, o.repository, o.commit_hash,
           o.path AS origin_path, o.licence, o.href
    FROM artifacts AS a LEFT JOIN origins AS o USING (study, artifact)
    UNION ALL
    SELECT study, artifact, false, path, 'sysbench', sha256, repository, commit_hash, path, licence, href
    FROM origins WHERE NOT carried
    ORDER BY study, published DESC, path, artifact"""


def study_logs(db: Snapshot, study: str) -> list[dict]:
    """The logs of a study, published ones first: each with the link the page gives it (its page here,
    or the file at its commit on GitHub) and, for a published file, its download."""
    logs = [dict(r) for r in db.of(study, LOGS)]
    for log in logs:
        log["href"] = f"/artifacts/{study}/{log['artifact']}/" if log["published"] else log["href"]
        # sysbench and mdstat artifacts are files (validation); a trace may be a folder, offered on its page
        file = log["published"] and log["format"] != "mdstat-trace"
        log["download"] = published_path(study, log["artifact"]) if file else None
    return logs


def study_runs(db: Snapshot, study: str, labels: dict[str, str]) -> list[dict]:
    runs = [dict(r) for r in db.of(study, "SELECT * FROM runs ORDER BY study, system, threads, artifact", keep_study=True)]
    cited = {r["artifact"]: r["href"] for r in db.of(study, "SELECT study, artifact, href FROM origins "
                                                             "WHERE NOT carried ORDER BY study, artifact")}
    values = _by(db.of(study, "SELECT study, result, metric, value_text, provenance, quote, source_href FROM results "
                              f"WHERE value_kind = 'measured' ORDER BY {RESULT_ORDER}"), "result")
    # interval samples stay a query per study (all of them at once would be every log in memory),
    # of the runs with no more than MAX_SAMPLES_SHOWN
    summary = {a: (n, pcts) for a, n, pcts in db.con.execute(
        "SELECT artifact, count(*), list(DISTINCT latency_pct ORDER BY latency_pct) FILTER (latency_pct IS NOT NULL) "
        "FROM intervals WHERE study = ? GROUP BY artifact", [study]).fetchall()} if runs else {}
    shown = sorted(a for a, (n, _) in summary.items() if n <= MAX_SAMPLES_SHOWN)
    every = max(1, -(-sum(summary[a][0] for a in shown) // PAGE_SAMPLES))  # 1: every sample
    samples = _by(rows(db.con, f"SELECT artifact, {', '.join(SAMPLE_COLUMNS)} FROM intervals "
                               "WHERE study = ? AND list_contains(?, artifact) "
                               "QUALIFY (row_number() OVER (PARTITION BY artifact ORDER BY t_s) - 1) % ? = 0 "
                               "ORDER BY artifact, t_s",
                       [study, shown, every]), "artifact") if shown else {}
    for run in runs:
        run["system_label"] = labels[run["system"]]
        run["values"] = {v["metric"]: {"text": v["value_text"], "provenance": v["provenance"], "quote": v["quote"],
                                       "source_href": v["source_href"]}
                         for v in values.get(run["artifact"], [])}
        run["cited"] = run["artifact"] in cited  # its link: the file at its commit, not a page here
        run["href"] = cited.get(run["artifact"]) or f"/artifacts/{study}/{run['artifact']}/"
        run["interval_count"], pcts = summary.get(run["artifact"], (0, []))
        run["panels"] = "fileio" if run["kind"] == "fileio" else "runs"
        keys = ["t_s", *(p["key"] for p in panels(run["panels"])), "latency_pct"]
        run["intervals"] = [{k: s[k] for k in keys} for s in samples.get(run["artifact"], [])]
        run["intervals_every"] = every if run["intervals"] and every > 1 else None
        run["sample_columns"] = [{"key": p["key"], "label": p["label"]} for p in panels(run["panels"])]
        run["intervals_withheld"] = (f"{run['interval_count']:,} interval samples, more than the "
                                     f"{MAX_SAMPLES_SHOWN:,} a study page draws"
                                     if run["interval_count"] > MAX_SAMPLES_SHOWN else None)
        run["latency_pct"] = pcts[0] if pcts and len(pcts) == 1 else None
        run["label"] = (f"{run['artifact']}: {run['system_label']}, {threads_text(run['threads'])}"
                        + ("" if run["complete"] else " (unfinished)"))
    return runs


def fileio_columns(runs: list[dict]) -> list[dict]:
    """The columns of a study's table of fileio runs: the run's latency and the fileio metrics
    (schema/fields.yaml) that any of its fileio runs has a value of, in registry order."""
    have = {metric for run in runs if run["panels"] == "fileio" for metric in run["values"]}
    keys = ["latency_avg_ms", "latency_p95_ms", *(m.key for m in fileio_metrics())]
    return [{"key": key, "label": metric_label(key)} for key in keys if key in have]


def runs_charts(study: str, runs: list[dict]) -> list[dict]:
    """The runs-over-time charts, database runs and fileio runs apart (their panels differ): one chart of
    every run with interval samples, one line each; or, with more runs than can be told apart, one chart
    per system, its runs coloured by thread count (repeated runs of one configuration share a colour). A
    chart with still too many colours is listed but not drawn."""
    charts = []
    for kind, (prefix, heading) in _CHARTS.items():
        drawn = [r for r in runs if r["intervals"] and r["panels"] == kind]
        if not drawn:
            continue
        if len(drawn) <= MAX_RUNS_DRAWN:
            parts = [(prefix, heading, "run", drawn)]
        else:
            by_system = _by(drawn, "system")
            parts = [(f"{prefix}-{system}", f"{heading}: {mine[0]['system_label']}", "threads", mine)
                     for system, mine in by_system.items()]
        for chart_id, title, colour, mine in parts:
            colours = len(mine) if colour == "run" else len({r["threads"] for r in mine})
            # a fileio chart leaves out a panel its runs print as 0 throughout (the reads of a write test)
            shown = [p for p in panels(kind)
                     if kind != "fileio" or any(s[p["key"]] for r in mine for s in r["intervals"])]
            charts.append({
                "id": chart_id, "embed_prefix": f"{study}--{chart_id}", "title": title, "colour": colour,
                "samples": samples_path(study, chart_id),
                "drawn": colours <= MAX_RUNS_DRAWN, "panels": shown,
                "runs": [{**{k: r[k] for k in ("artifact", "path", "log", "label", "complete", "latency_pct",
                                               "intervals")},
                          "colour": r["label"] if colour == "run" else threads_text(r["threads"])} for r in mine],
                "every": mine[0]["intervals_every"],
                "alt": alt_text.over_time([r["intervals"] for r in mine], shown, what="run",
                                          every=mine[0]["intervals_every"])})
    for chart in charts:
        for run in runs:
            if chart["drawn"] and any(r["artifact"] == run["artifact"] for r in chart["runs"]):
                run["chart"] = chart["id"]  # its row links to its chart
    return charts


def traces(db: Snapshot, study: str, runs: list[dict]) -> list[dict]:
    """Rebuild stories: each trace's samples, with the runs that overlap it placed on its clock."""
    with_traces = {r["study"] for r in db.of(study, "SELECT DISTINCT study FROM trace_samples ORDER BY study",
                                              keep_study=True)}
    if study not in with_traces:
        return []
    con = db.con
    samples_of = _by(rows(con, "SELECT artifact, t_s, time, state, operation, percent, speed_kib_s, array_name "
                               "FROM trace_samples WHERE study = ? ORDER BY artifact, t_s", [study]), "artifact")
    out = []
    for artifact, samples in samples_of.items():
        samples = [{k: v for k, v in s.items() if k != "artifact"} for s in samples]
        start = datetime.fromisoformat(samples[0]["time"]) - timedelta(seconds=samples[0]["t_s"])
        windows = []
        for run in runs:
            if run["trace"] != artifact or not run["started"] or run["elapsed_s"] is None:
                continue
            begin = (datetime.fromisoformat(run["started"].replace("Z", "+00:00")) - start).total_seconds()
            tps = run["values"].get("tps", {}).get("text")
            windows.append({"label": run["label"], "start_s": begin, "end_s": begin + run["elapsed_s"],
                            "tps": tps, "flag": run["state_flag"], "path": run["path"], "log": run["log"],
                            "started": run["started"]})
        values = rows(con, "SELECT metric, value_text, unit, provenance, quote, source_href FROM results "
                           "WHERE study = ? AND result = ? ORDER BY col_index", [study, artifact])
        (path,) = con.execute("SELECT path FROM artifacts WHERE study = ? AND artifact = ?", [study, artifact]).fetchone()
        out.append({"artifact": artifact, "path": path, "array": samples[0]["array_name"], "start": start.isoformat(),
                    "samples": samples, "runs": windows, "values": values, "panels": panels("rebuild"),
                    "alt": alt_text.over_time([samples], panels("rebuild"), what="trace"),
                    "title": f"Rebuild of {samples[0]['array_name']} traced in {artifact}",
                    "embed_prefix": f"{study}--rebuild-{artifact}"})
    return out
