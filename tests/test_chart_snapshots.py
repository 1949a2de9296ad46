"""Snapshots of the pure chart renderers (site/assets/js/plot-*.js) drawn in Node from hand-made specs,
numbers rounded to one decimal. A changed drawing fails here; after looking at the new drawing, write
the snapshots again with UPDATE_SNAPSHOTS=1."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from conftest import FIXTURES, ROOT

SNAPSHOTS = ROOT / "tests" / "snapshots"


@pytest.fixture(scope="module")
def drawn() -> dict[str, str]:
    done = subprocess.run([shutil.which("node") or "node", str(ROOT / "site" / "render" / "snapshot.mjs"),
                           str(FIXTURES / "charts" / "specs.json")], capture_output=True, text=True, check=True)
    return {c["name"]: c["svg"] + "\n" for c in map(json.loads, done.stdout.splitlines())}


@pytest.mark.parametrize("name", ["by-x", "runs-tps", "rebuild-percent", "by-x-framed"])
def test_renderer_snapshot(drawn, name):
    path = SNAPSHOTS / f"{name}.svg"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.write_text(drawn[name], encoding="utf-8")
    assert drawn[name] == path.read_text(encoding="utf-8"), f"{name} drew differently from {path}"


def test_snapshots_show_what_the_specs_hold(drawn):
    """Read by hand against specs.json: the labels, series and bands each drawing must carry."""
    assert "Transactions per second" in drawn["by-x"] and "Array B" in drawn["by-x"]
    assert drawn["by-x"].count("<circle") == 6
    assert 'stroke-dasharray="4,3"' in drawn["runs-tps"]  # r2 is unfinished
    assert "512.3 tps" in drawn["rebuild-percent"] and "Rebuild progress (%)" in drawn["rebuild-percent"]
    framed = drawn["by-x-framed"]  # the context a standalone embed carries, in the image, nothing cut
    assert "<title>Transactions per second by made-up load" in framed
    assert ">would be cut if it were not wrapped</text>" in framed  # the long series name, on a second line
    assert ">Values: exact (as printed); measured (from logs)</text>" in framed
    assert ">0123456789abcdef…</text>" in framed and "https://example.invalid/embed/by-x-framed/" in framed
