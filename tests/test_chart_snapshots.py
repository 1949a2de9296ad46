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


@pytest.mark.parametrize("name", ["by-x", "runs-tps", "rebuild-percent", "by-x-framed", "by-x-one-load", "evidence-framed"])
def test_renderer_snapshot(drawn, name):
    path = SNAPSHOTS / f"{name}.svg"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.write_text(drawn[name], encoding="utf-8")
    assert drawn[name] == path.read_text(encoding="utf-8"), f"{name} drew differently from {path}"


def test_snapshots_show_what_the_specs_hold(drawn):
    """Read by hand against specs.json: the labels, series and bands each drawing must carry."""
    assert "Transactions per second" in drawn["by-x"] and "Array B" in drawn["by-x"]
    assert drawn["by-x"].count("<circle") == 6
    # one load: two dots at x 8, no line joining nothing (its spec's two points)
    one = drawn["by-x-one-load"]
    assert one.count("<circle") == 2 and 'aria-label="line"' not in one and ">8</text>" in one
    assert 'stroke-dasharray="4,3"' in drawn["runs-tps"]  # r2 is unfinished
    assert "512.3 tps" in drawn["rebuild-percent"] and "Rebuild progress (%)" in drawn["rebuild-percent"]
    framed = drawn["by-x-framed"]  # the context a standalone embed carries, in the image, nothing cut
    assert "<title>Transactions per second by made-up load" in framed
    assert ">would be cut if it were not wrapped</text>" in framed  # the long series name, on a second line
    assert ">Values: exact (as printed); measured (from logs)</text>" in framed
    assert ">0123456789abcdef…</text>" in framed and "https://example.invalid/embed/by-x-framed/" in framed
    # a facet's evidence plot as its embed frames it: a dot and a bar a row, the rule at 1x, the answer
    # above, the grades in words below, each study with its year and publisher's kind
    evidence = drawn["evidence-framed"]
    assert evidence.count("<circle") == 2
    assert "Hand-made study one (2026, measured here) ⊕⊕⊕⊕" in evidence
    assert "Switch off over Switch on, sysbench oltp_read_write, optimal (single figure): 0.8×\n(derived: a ratio)</title>" in evidence
    assert ">Transactions per second, switch off over on: 0.8× to 1.5×</text>" in evidence  # (numbers rounded)
    assert ">⊕⊕⊕◯ figures the source prints: made-up words for grade 2</text>" in evidence
    assert ">Sources: Hand-made study one (2026, measured here); Hand-made</text>" in evidence
    assert ">study two (vendor)</text>" in evidence and "Study:" not in evidence
    assert ">Values: ratios of two values of one study (its median, lowest and</text>" in evidence



# The same steps on an element of each kind, in a document: what each step leaves in the markup and what
# the style object reads. Run once in a document of site/render/dom.mjs, once in jsdom's own (apart: the
# patch changes jsdom's classes for the whole process).
STYLE_STEPS = r"""
import {JSDOM} from "jsdom";
%s
const out = [];
for (const make of [() => document.createElementNS("http://www.w3.org/2000/svg", "text"),
                    () => document.createElement("div")]) {
  const a = make();
  a.setAttribute("style", "font-size: 13px; background: white");  // before the style object is read
  out.push(a.outerHTML, a.style.fontSize, a.style.length);
  a.style.color = "red";  // through the object
  out.push(a.outerHTML, a.getAttribute("style"));
  const b = make();
  b.style.setProperty("fill", "blue");  // read first, on a new element
  out.push(b.outerHTML, b.style.cssText);
  b.removeAttribute("style");
  out.push(b.outerHTML, b.style.length);
  const c = make();
  out.push(c.outerHTML, c.style.length, c.outerHTML);  // never styled
}
console.log(JSON.stringify(out));
"""
PATCHED = 'import {newDocument} from "./site/render/dom.mjs";\nconst document = newDocument();'
OWN = 'const {document} = new JSDOM("<!doctype html><html><body></body></html>").window;'


def _style_steps(document: str) -> list:
    done = subprocess.run([shutil.which("node") or "node", "--input-type=module", "-e", STYLE_STEPS % document],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_the_renderer_s_document_styles_elements_as_jsdom_does():
    """dom.mjs makes each element's style object when it is first read (a CPU saving): every step gives
    what jsdom's own document gives, and what the steps say."""
    patched = _style_steps(PATCHED)
    assert patched == _style_steps(OWN)
    svg = ['<text style="font-size: 13px; background: white"></text>', "13px", 2,  # the attribute as written
           '<text style="font-size: 13px; background: white; color: red;"></text>',
           "font-size: 13px; background: white; color: red;",
           '<text style="fill: blue;"></text>', "fill: blue;", "<text></text>", 0, "<text></text>", 0, "<text></text>"]
    assert patched[:12] == svg
    assert patched[12:] == [item.replace("text", "div") if isinstance(item, str) else item for item in svg]
