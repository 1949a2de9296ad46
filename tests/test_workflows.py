"""The pull-request workflow: actionlint finds nothing, actions are pinned by commit, the token is
read-only, and `benchdb validate --github` annotates each problem on its line."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import ROOT
from ingest.github import annotation
from ingest.problems import Problem

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = Path(sys.executable).parent / "actionlint"  # installed by `make test` (Makefile)


def test_actionlint_finds_nothing_and_is_the_pinned_version():
    pinned = re.search(r"^ACTIONLINT_VERSION := (\S+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    version = subprocess.run([str(ACTIONLINT), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.splitlines()[0] == pinned
    done = subprocess.run([str(ACTIONLINT), "-color=false", *map(str, WORKFLOWS)], cwd=ROOT, capture_output=True,
                          text=True)
    assert (done.returncode, done.stdout) == (0, "")


def test_actions_are_pinned_by_commit_and_the_token_can_only_read():
    assert WORKFLOWS
    for path in WORKFLOWS:
        workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
        triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
        assert "pull_request_target" not in triggers and "workflow_run" not in triggers
        assert workflow["permissions"] == {"contents": "read"}
        for job in workflow["jobs"].values():
            assert "permissions" not in job
            for step in job["steps"]:
                if "uses" in step:
                    assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
                    assert step.get("with", {}).get("persist-credentials", False) is False


def test_an_annotation_escapes_what_the_runner_reads():
    problem = Problem(path="data/a,b/bundle.yaml", line=12, field="results[0].values", type="number",
                      message="100% wrong:\nsee line 3")
    assert annotation(problem) == ("::error file=data/a%2Cb/bundle.yaml,line=12,title=results[0].values::"
                                   "100%25 wrong:%0Asee line 3")
    warning = Problem(path="data/x/artifacts/run.log", line=None, field="", type="sysbench", message="odd: a, b",
                      severity="warning")
    assert annotation(warning) == "::warning file=data/x/artifacts/run.log,title=sysbench::odd: a, b"


def test_validate_annotates_each_problem_for_github(tmp_path):
    bundle = tmp_path / "data" / "graid-supremeraid-mysql-2023"
    shutil.copytree(ROOT / "data" / "graid-supremeraid-mysql-2023", bundle)
    text = (bundle / "bundle.yaml").read_text(encoding="utf-8")
    (bundle / "bundle.yaml").write_text(text.replace("schema_version: 1", "schema_version: 2"), encoding="utf-8")
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([str(benchdb), "validate", "--github", "data"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("schema_version:"))
    assert done.stdout.splitlines() == [
        f"::error file=data/graid-supremeraid-mysql-2023/bundle.yaml,line={line},title=schema_version::"
        "Input should be 1 (got 2)"]
