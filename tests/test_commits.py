"""Commit subjects of at most 72 characters, the why in the body (issue #50): `git log --oneline`
reads as a list of changes. Checked on every commit since the rule began (the commits before it
ran to 966 characters), and the hook a contributor may use (.githooks/commit-msg) says the same."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import ROOT

SINCE = "e25b8a9"  # the last commit before the rule
LIMIT = 72
HOOK = ROOT / ".githooks" / "commit-msg"


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)


def test_every_commit_since_the_rule_has_a_short_subject_and_a_blank_second_line():
    if shutil.which("git") is None or _git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout: no commits to read")
    if _git("cat-file", "-e", f"{SINCE}^{{commit}}").returncode != 0:
        pytest.fail(f"{SINCE} is not in this clone's history (a shallow clone?): fetch it to check the commits")
    log = _git("log", "--format=%h%x00%B%x01", f"{SINCE}..HEAD").stdout
    long, run_on = [], []
    for entry in filter(str.strip, log.split("\x01")):
        commit, message = entry.strip("\n").split("\x00", 1)
        lines = message.split("\n")
        if len(lines[0]) > LIMIT:
            long.append(f"{commit} ({len(lines[0])}): {lines[0]}")
        if len(lines) > 1 and lines[1].strip():
            run_on.append(commit)
    assert long == [] and run_on == []


@pytest.mark.parametrize(("message", "refused"), [
    ("Short subject\n\nThe why.\n", None),
    ("x" * 72 + "\n", None),
    ("x" * 73 + "\n", "commit-msg: the subject is 73 characters, more than 72: put the why in the body\n"),
    ("Subject\nno blank line\n", "commit-msg: leave the second line blank: the subject, a blank line, then the body\n"),
    ("Café crème brûlée, a subject of 72 characters counted as characters ....\n", None),
])
def test_the_hook_refuses_what_the_test_refuses(tmp_path, message, refused):
    file = tmp_path / "COMMIT_EDITMSG"
    file.write_text(message, encoding="utf-8")
    done = subprocess.run([str(HOOK), str(file)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == ((1, refused) if refused else (0, ""))
