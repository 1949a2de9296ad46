"""The benchdb command: messages and exit codes at the boundary."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.build.site import BuildError, Layout, build_site
from ingest.cli import main
from ingest.bundles.problems import BundleError

from conftest import copy_project
from test_validate import MINIMAL

ROOT = Path(__file__).resolve().parents[1]
BUNDLES = len([p for p in (ROOT / "data").iterdir() if (p / "bundle.yaml").is_file()])


def test_validate_reports_every_problem_and_exits_1(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    bad = MINIMAL.replace("    publisher: Example Corp\n", "").replace("drives: 8,", 'drives: "eight",')
    (folder / "bundle.yaml").write_text(bad)
    result = CliRunner().invoke(main, ["validate", str(folder)])
    assert result.exit_code == 1
    rel = folder / "bundle.yaml"  # outside the working folder: shown as an absolute path
    assert result.stderr.splitlines() == [
        f"{rel}:6: sources[doc].publisher: missing required field",
        f"{rel}:15: systems[a].raid.drives: Input should be a valid integer (got 'eight')",
        "2 error(s) in 1 file(s)",
    ]


def test_validate_accepts_the_shipped_bundles():
    result = CliRunner().invoke(main, ["validate", str(ROOT / "data")])
    assert result.exit_code == 0, result.stderr
    # warnings: what cited logs say of themselves (tests/test_validate.py: the shipped bundles)
    assert re.fullmatch(rf"{BUNDLES} bundle\(s\) valid(, \d+ warning\(s\))?\n", result.stdout), result.stdout


def test_parse_with_an_unknown_format():
    result = CliRunner().invoke(main, ["parse", "nosuch", "file.log"])
    assert result.exit_code == 1
    assert "Error: unknown format 'nosuch'" in result.stderr


def test_schema_prints_the_json_schema():
    result = CliRunner().invoke(main, ["schema"])
    assert result.exit_code == 0
    assert '"title": "Bundle"' in result.stdout


def test_the_installed_command_runs():
    benchdb = Path(ROOT / ".venv" / "bin" / "benchdb")
    if not benchdb.exists():
        pytest.skip("no .venv: run through 'make test'")
    done = subprocess.run([str(benchdb), "validate"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(rf"{BUNDLES} bundle\(s\) valid(, \d+ warning\(s\))?\n", done.stdout), done.stdout


# --- the build never leaves half-written outputs -------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> Layout:
    return copy_project(tmp_path)


def test_build_into_a_copy_then_a_failing_template_keeps_the_old_site(project: Layout):
    build_site(project)
    index = project.public / "index.html"
    before = index.read_bytes()
    db_before = project.database.read_bytes()
    page = project.site / "layouts" / "home.html"
    page.write_text(page.read_text() + '{{ errorf "broken on purpose" }}')
    with pytest.raises(BuildError, match="broken on purpose"):
        build_site(project)
    assert index.read_bytes() == before
    assert project.database.read_bytes() == db_before or project.database.is_file()
    leftovers = [p.name for p in project.build.iterdir() if p.name.startswith(".") and p.name != ".lock"]
    assert leftovers == []


def test_invalid_bundle_stops_the_build_before_anything_is_written(project: Layout):
    bundle = project.data / "graid-supremeraid-mysql-2023" / "bundle.yaml"
    bundle.write_text(bundle.read_text().replace("schema_version: 2", "schema_version: 3"))
    with pytest.raises(BundleError) as err:
        build_site(project)
    assert [p.field for p in err.value.problems] == ["schema_version"]
    assert not project.public.exists()
    # only the build lock and the cache of what each bundle's validation found (build/cache/bundles, when
    # it was last pruned, and the digests of the bundles' files)
    assert sorted(p.name for p in project.build.iterdir()) == [".lock", "cache"]
    assert sorted(p.name for p in project.cache.iterdir()) == [".bundles.pruned", "bundles", "digests"]
    assert sorted(p.name for p in (project.cache / "digests").iterdir()) == ["bundles.json"]


def test_a_second_build_in_the_same_folder_stops_with_one_line(project: Layout):
    from ingest.build.site import one_build

    with one_build(project):
        with pytest.raises(BuildError) as err:
            build_site(project)
    assert str(err.value) == (f"another build is running in {project.root} (process {os.getpid()}): "
                              "wait for it to finish")
    assert not project.public.exists()


def test_a_build_removes_what_builds_that_died_left_behind(project: Layout):
    left = [project.build / ".export-999999" / "data", project.build / ".public-999999",
            project.build / "cache" / "bundles" / ".tmp-999999", project.root / ".public.old-999999",
            project.build / "gen-1-999999" / "export"]
    for folder in left:
        folder.mkdir(parents=True)
    (project.build / ".benchmarks.duckdb.999999.tmp").write_bytes(b"half")
    (project.build / ".current.link-999999").symlink_to("gen-1-999999")
    build_site(project)
    assert [p for p in (*left, project.build / ".benchmarks.duckdb.999999.tmp") if p.exists()] == []
    assert not (project.build / ".current.link-999999").is_symlink()
    generation = os.readlink(project.build / "current")
    assert sorted(p.name for p in project.build.iterdir()) == [".lock", "benchmarks.duckdb", "cache", "current",
                                                               "export", generation]
