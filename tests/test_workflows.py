"""The pull-request workflow: actionlint finds nothing, actions are pinned by commit, the token is
read-only, and `benchdb validate --github` annotates each problem on its line."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

from conftest import ROOT
from ingest.contribute.github import annotation
from ingest.bundles.problems import Problem

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
    (bundle / "bundle.yaml").write_text(text.replace("schema_version: 2", "schema_version: 3"), encoding="utf-8")
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([str(benchdb), "validate", "--github", "data"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 1
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.startswith("schema_version:"))
    assert done.stdout.splitlines() == [
        f"::error file=data/graid-supremeraid-mysql-2023/bundle.yaml,line={line},title=schema_version::"
        "bundle format 3: this version of benchdb reads format 2"]


def _commands(output: str) -> list[str]:
    """The lines the runner would take as workflow commands (actions/runner: a line starting with "::"
    once its leading blanks are trimmed, or holding the older form "##[" anywhere)."""
    return [line for line in output.split("\n") if line.lstrip().startswith("::") or "##[" in line]


def test_nothing_a_bundle_or_its_folder_holds_starts_a_command_on_either_stream(tmp_path):
    """A folder's name may hold newlines (a pull request can add one): every problem is one annotation on
    standard output, and standard error, which the runner reads too, starts no command (issue #49)."""
    name = "x\n::error file=README.md,line=1::forged\n  ::add-mask::secret\n##[error]v1 form\r::warning::cr"
    folder = tmp_path / "data" / name
    folder.mkdir(parents=True)
    (folder / "bundle.yaml").write_text("schema_version: 2\n", encoding="utf-8")
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([str(benchdb), "validate", "--github", "data"], cwd=tmp_path, capture_output=True,
                          text=True)
    assert done.returncode == 1
    stdout, stderr = done.stdout.split("\n"), done.stderr.split("\n")
    annotations = _commands(done.stdout)
    assert annotations == [line for line in stdout if line] and len(annotations) >= 2
    escaped = ("data/x%0A%3A%3Aerror file=README.md%2Cline=1%3A%3Aforged%0A  %3A%3Aadd-mask%3A%3Asecret%0A"
               "##[error]v1 form%0D%3A%3Awarning%3A%3Acr/bundle.yaml")
    assert annotations[0].startswith(f"::error file={escaped},line=1,title=")
    assert _commands(done.stderr) == []
    shown = [line for line in stderr if line]
    assert shown[0].startswith("data/x%0A::error file=README.md,line=1::forged%0A  ::add-mask::secret%0A"
                               "#%23[error]v1 form%0D::warning::cr/bundle.yaml:1: ")
    assert len(shown) == len(annotations) + 1 and shown[-1] == f"{len(annotations)} error(s) in 1 file(s)"


def test_a_log_line_that_would_start_a_command_is_defused():
    from ingest.contribute.github import log_line

    assert log_line("  ::error::x") == "  %3A:error::x"
    assert log_line("a ##[warning]b ##[c") == "a #%23[warning]b #%23[c"
    assert log_line("50% done\nnext") == "50%25 done%0Anext"
    assert log_line("data/a: ::not at the start") == "data/a: ::not at the start"


def test_steps_that_print_the_bundles_read_no_workflow_command():
    """Every step after the validation prints what the pull request brings (a build's messages, test
    output): the runner is told to read no command there until the step's own token comes back."""
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pull-request.yml").read_text(encoding="utf-8"))
    steps = [s for job in workflow["jobs"].values() for s in job["steps"] if "run" in s]
    printing = [s for s in steps if re.search(r"benchdb diff|make site|make test", s["run"])]
    assert len(printing) == 3
    for step in printing:
        lines = step["run"].strip().split("\n")
        assert lines[0] == """token="$(python3 -c 'import secrets; print(secrets.token_hex(16))')\""""
        assert lines[1] == 'echo "::stop-commands::$token"' and lines[-1] == 'echo "::$token::"', step["name"]


def test_the_container_and_the_python_packages_are_pinned_by_their_hashes():
    """A tag or a version names what the registry serves today; a digest or a hash names the bytes
    (issue #49, hole 10)."""
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pull-request.yml").read_text(encoding="utf-8"))
    for job in workflow["jobs"].values():
        assert re.fullmatch(r"debian:12@sha256:[0-9a-f]{64}", job["container"]), job["container"]
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    entries = re.split(r"\n(?=[A-Za-z])", text[text.index("\n\n") + 2:].strip())
    pinned = {}
    for entry in entries:
        name, version = re.match(r"([A-Za-z0-9._-]+)==(\S+) \\", entry).groups()
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", entry)
        assert hashes and len(hashes) == entry.count("--hash="), name
        pinned[name.lower().replace("_", "-")] = version
    # what pyproject.toml asks for (its test extras too), and setuptools, which builds the project
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    asked = project["dependencies"] + [d for extra in project["optional-dependencies"].values() for d in extra]
    wanted = {re.match(r"[A-Za-z0-9._-]+", d).group().lower().replace("_", "-") for d in asked} | {"setuptools"}
    assert len(wanted) == 16 and wanted <= set(pinned)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock" in makefile
    assert "--no-deps --no-build-isolation -e ." in makefile  # no unhashed setuptools fetched to build it
