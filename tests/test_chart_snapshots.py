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
from ingest.database.evidence import as_data as grades

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



# The forests of tests/fixtures/forest/synthesis.json (hand-made), each contrast at an embed's width (the
# figures in a column of their own) and at a phone's (under the label), the first framed as its embed.
SYNTHESIS = json.loads((FIXTURES / "forest" / "synthesis.json").read_text(encoding="utf-8"))
FOREST_CONTEXT = {"lead": ["Made-up answer for the snapshot."], "notes": ["⊕⊕⊕⊕ made-up words for grade 1"],
                  "sources": ["Study A 2018 (independent)"], "kinds": ["ratio", "pooled"],
                  "address": "https://example.invalid/embed/evidence-made-up/", "sha256": "0123456789abcdef0123"}
FORESTS = {"forest-framed": (0, 760, FOREST_CONTEXT), "forest-narrow": (0, 343, None),
           "forest-groups": (1, 760, None), "forest-groups-narrow": (1, 343, None)}


@pytest.fixture(scope="module")
def forests(tmp_path_factory) -> dict[str, str]:
    charts = [{"name": name, "renderer": "forest", "option": None, "width": width, "title": "Evidence: a made-up question",
               "spec": {"band": SYNTHESIS["band"], "contrast": SYNTHESIS["contrasts"][at], "grades": grades()["grades"]}, **({"context": c} if c else {})}
              for name, (at, width, c) in FORESTS.items()]
    specs = tmp_path_factory.mktemp("forest") / "specs.json"
    specs.write_text(json.dumps({"charts": charts}, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run([shutil.which("node") or "node", str(ROOT / "site" / "render" / "snapshot.mjs"), str(specs)],
                          capture_output=True, text=True, check=True)
    drawn = {c["name"]: c["svg"] + "\n" for c in map(json.loads, done.stdout.splitlines())}
    # and each as its embed's file, numbers as drawn (for the words read by hand below)
    exact = subprocess.run([shutil.which("node") or "node", "--input-type=module", "-e", EXACT % str(specs)], cwd=ROOT,
                           capture_output=True, text=True, check=True)
    return {**drawn, **{f"{c['name']} exact": c["svg"] for c in map(json.loads, exact.stdout.splitlines())}}


EXACT = """
import {readFileSync} from "node:fs";
import {newDocument} from "./site/render/dom.mjs";
import {drawEmbed, drawChart} from "./site/render/draw.mjs";
const document = newDocument();
for (const chart of JSON.parse(readFileSync(%r, "utf-8")).charts) {
  const svg = chart.context ? drawEmbed(chart, {width: chart.width, document}) : drawChart(chart, {width: chart.width, document}).svg.outerHTML;
  console.log(JSON.stringify({name: chart.name, svg}));
}
"""


@pytest.mark.parametrize("name", list(FORESTS))
def test_forest_snapshot(forests, name):
    test_renderer_snapshot(forests, name)


def test_the_forest_draws_what_the_synthesis_holds(forests):
    """Read by hand against tests/fixtures/forest/synthesis.json. A square's area is r² π with r = 11 √weight
    (plot-evidence.js: R_ALL), so its side is 11 √(π weight): 12.33 px for weight 0.4, 10.68 for 0.3, 8.72
    for 0.2, 6.17 for 0.1 (areas 4 : 3 : 2 : 1); a study not pooled is a hollow square of r 4.5, side 7.98."""
    for side in ("12.3", "10.7", "8.7", "6.2"):  # (the snapshot's numbers, to one place)
        assert f"h{side}v{side}h-{side}Z" in forests["forest-framed"], side
    framed = forests["forest-framed exact"]
    assert framed.count('aria-label="area"') == 1  # the one pooled diamond
    # the figures column and the label column, each study's words
    for words in (">1.27× (1.21 to 1.33)</tspan>", ">6 loads, weight 40%</tspan>", ">pair read the other way</tspan>",
                  ">interval borrowed</tspan>", ">Pooled, 4 studies</tspan>", ">DerSimonian-Laird</tspan>",
                  ">prediction 0.96 to 1.38</tspan>", ">I² 64%, tau² 0.0123</tspan>",
                  ">Without Study A 2018</text>", ">1.06× (0.98 to 1.15)</text>", ">Without Study B 2021</text>",
                  ">Study A 2018</tspan>", ">independent ⊕⊕⊕⊕</tspan>", ">doublewrite off over doublewrite on</text>"):
        assert words in framed, words
    # its key in words, in the image, then the grades' words
    assert ">■ A study: the square at its ratio (the median of its ratios), the line its 95% interval; the" in framed
    assert ">The shaded band: 0.95× to 1.05×, no practical difference; the dashed line is 1× (no" in framed
    assert framed.index("The shaded band") < framed.index("made-up words for grade 1")
    assert ">Values: ratios of two values of one study (its median, lowest and highest over the" in framed
    # two groups of one study each: headings, hollow squares of one size, no diamond, no interval for F
    assert forests["forest-groups"].count("h8v8h-8Z") == 2
    groups = forests["forest-groups exact"]
    assert ">Optimal</text>" in groups and ">Rebuilding</text>" in groups and 'aria-label="area"' not in groups
    assert ">0.62× (no interval)</tspan>" in groups and groups.count(">Not pooled: 1 study</text>") == 2
    # at a phone's width the figures go under the label, in the same column
    assert ('>Study A 2018</tspan><tspan x="0" dy="1.1818181818181819em">independent ⊕⊕⊕⊕</tspan><tspan x="0" dy="1.1818181818181819em">1.27× (1.21 to '
            '1.33)</tspan><tspan x="0" dy="1.1818181818181819em">6 loads, weight 40%</tspan>') in forests["forest-narrow exact"]
    assert ">Ratio (95% interval)</text>" not in forests["forest-narrow exact"]


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
