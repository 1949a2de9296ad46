"""The load and the export in a process of their own (ingest/build/exporter.py): from APART_FROM bundles on,
what they write is what the build's own process writes, their errors come back as they were raised,
and a failed build stops them. The same holds for the export's worker processes (publish.WORKERS_FROM)."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb
import pytest

from conftest import copy_project
from ingest.plumbing import children
from ingest.build import exporter as exporter_module
from ingest import publish
from ingest.build.site import prepare
from ingest.build.exporter import Exporter
from ingest.build.generation import new_generation
from test_export_cache import MEASURED, _edit, _studies_line
from test_stage import _differences


def test_an_export_in_a_process_of_its_own_writes_what_the_builds_process_writes(tmp_path: Path, capsys, monkeypatch):
    """After one change, the process takes the five other studies from the cache and exports the
    changed one: the same files as a clean export in the build's own process."""
    layout = copy_project(tmp_path / "project")
    prepare(layout, new_generation(layout.build))
    assert _studies_line(capsys.readouterr().out) == "studies: 6 exported, 0 from the cache"
    _edit(layout.data / MEASURED / "bundle.yaml", "title: '", "title: 'Changed: ")
    monkeypatch.setattr(exporter_module, "APART_FROM", 6)
    apart = new_generation(layout.build)
    prepare(layout, apart)
    assert _studies_line(capsys.readouterr().out) == "studies: 1 exported, 5 from the cache"
    monkeypatch.setattr(exporter_module, "APART_FROM", 7)
    here = new_generation(layout.build)
    (layout.cache / "export").rename(tmp_path / "export-cache")
    prepare(layout, here)
    assert _studies_line(capsys.readouterr().out) == "studies: 6 exported, 0 from the cache"
    assert _differences(apart.export, here.export) == []
    assert "Changed: " in (apart.export / "data" / "studies" / f"{MEASURED}.json").read_text(encoding="utf-8")


def test_studies_exported_by_worker_processes_are_the_files_the_build_s_process_exports(tmp_path: Path, monkeypatch):
    """From publish.WORKERS_FROM studies to export on, worker processes make the studies' own outputs, in
    batches of every n-th study: the same files as the build's process making them all."""
    layout = copy_project(tmp_path / "project")
    generation = new_generation(layout.build)
    prepare(layout, generation)
    here = publish.export_all(db_path=generation.database, out_dir=tmp_path / "here", bundles=layout.data)
    pools = []
    workers = children.workers
    monkeypatch.setattr(children, "workers", lambda count: pools.append(count) or workers(count))
    monkeypatch.setattr(publish, "WORKERS_FROM", 1)
    monkeypatch.setattr(publish, "STUDIES_PER_BATCH", 2)  # three batches of two studies
    counts = publish.export_all(db_path=generation.database, out_dir=tmp_path / "apart", bundles=layout.data)
    assert (here.made, counts.made, counts.cached, pools) == (6, 6, 0, [2])
    assert _differences(tmp_path / "here", tmp_path / "apart") == []


def test_an_error_in_the_process_comes_back_as_raised(tmp_path: Path):
    missing = tmp_path / "missing" / "benchmarks.duckdb"
    with Exporter(bundles=exporter_module.APART_FROM) as exporter:
        assert exporter.apart
        with pytest.raises(duckdb.IOException) as caught:
            exporter.export(db_path=missing, out_dir=tmp_path / "export", bundles=tmp_path)
    assert str(caught.value) == f'IO Error: Cannot open database "{missing}" in read-only mode: database does not exist'


def test_a_failed_build_stops_the_process(tmp_path: Path):
    with pytest.raises(RuntimeError):
        with Exporter(bundles=exporter_module.APART_FROM) as exporter:
            pid = exporter.pool.submit(os.getpid).result()
            assert pid != os.getpid()
            exporter.pool.submit(_sleep)
            raise RuntimeError("the load failed")
    assert not Path(f"/proc/{pid}").exists()


def _sleep() -> None:
    import time
    time.sleep(600)
