"""A value its source's own figures contradict, in a chart embed drawn at build time: its point carries the
flag's reason in words (schema/evidence-grades.yaml, inconsistent) and its note from the coordinate
(study.chart_points), the embed's CSV has them in its "inconsistency" and "note" columns, its alt text
says it, and its SVG draws it as a hollow, crossed dot with the reason under the chart
(site/render/draw.mjs, site/assets/js/inconsistent.js).

No chart of the corpus draws such a value by load (Graid's two are summary figures, without a user
count): the chart here is made by hand from the Graid cell, its flag and note as the bundle records them
(data/graid-supremeraid-mysql-2023/bundle.yaml, rebuild-summary's cell_notes), placed at 512 users as
if it were a per-user figure, beside that table's own 512-user cell (seed 000 line 126, 10221.50)."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess

from conftest import INCONSISTENT_REASON, MD10_SUMMARY_NOTE, ROOT
from ingest.publish import embeds
from ingest.publish.study import chart_points

REASON, NOTE = INCONSISTENT_REASON, MD10_SUMMARY_NOTE


def _coordinate(*, text: float, flag: str | None, note: str | None, line: str) -> dict:
    return {"system": "mdraid-raid10", "threads": 512, "state": "optimal", "value_kind": "exact", "value": float(text),
            "low": float(text), "high": float(text), "runs": 1, "text": text, "quote": None, "source_href": None,
            "printed_as": None, "flag": flag, "note": note,
            "provenance": f"Graid white paper, section Rebuilding Speed, {line}"}


def _chart() -> tuple[dict, dict]:
    points = chart_points([_coordinate(text="15994.38", flag="matches-no-per-user-cell", note=NOTE, line="line 201"),
                           _coordinate(text="15994.38", flag="at-512-users", note="tied to 512 users", line="line 201")
                           | {"system": "mdraid-raid6"}],
                          {"mdraid-raid10": "Linux MD RAID 10", "mdraid-raid6": "Linux MD RAID 6"}, x="threads")
    chart = {"id": "tps", "title": "TPS by users", "unit": "tx/s", "x_label": "Concurrent users (threads)",
             "y_label": "Transactions per second", "series": ["Linux MD RAID 10", "Linux MD RAID 6"],
             "colours": [2, 3], "switch": None, "points": points, "embed_prefix": "made--tps"}
    return {"id": "made", "title": "A chart made by hand"}, chart


def test_a_contradicted_value_carries_its_reason_and_note_into_its_chart_point():
    _, chart = _chart()
    flagged, other = chart["points"]
    assert (flagged["flag"], flagged["inconsistent"], flagged["note"]) == ("matches-no-per-user-cell", REASON, NOTE)
    # a flag that is no inconsistency marks nothing in a chart
    assert "inconsistent" not in other and "note" not in other and "flag" not in other


def test_the_embed_csv_and_alt_text_say_why_in_words():
    doc, chart = _chart()
    (embed,) = embeds._by_x(doc, chart, "/studies/made/#chart-tps")
    rows = list(csv.DictReader(io.StringIO(embeds.csv_bytes(embed["columns"], embed["rows"]).decode("utf-8"))))
    assert embed["columns"][-2:] == ["inconsistency", "note"]
    assert [(r["series"], r["value_text"], r["inconsistency"], r["note"]) for r in rows] == [
        ("Linux MD RAID 10", "15994.38", REASON, NOTE), ("Linux MD RAID 6", "15994.38", "", "")]
    assert embed["alt"] == ("Linux MD RAID 10 (optimal): 15994.38 at 512 threads; Linux MD RAID 6 (optimal): 15994.38 at "
                            "512 threads; a value the source's own figures contradict: Linux MD RAID 10 (optimal) "
                            f"15994.38 at 512 threads: {REASON}.")


DRAW = r"""
import {newDocument} from "./site/render/dom.mjs";
import {drawEmbed} from "./site/render/draw.mjs";
const chart = JSON.parse(process.argv[1]);
process.stdout.write(drawEmbed(chart, {width: 480, document: newDocument()}));
"""


def test_the_embed_svg_draws_it_hollow_and_crossed_with_the_reason_under_it():
    doc, chart = _chart()
    (embed,) = embeds._by_x(doc, chart, "/studies/made/#chart-tps")
    spec = {"id": embed["id"], "title": embed["title"], "renderer": "by-x", "spec": chart, "option": None,
            "context": {"study": "made", "sources": "Graid white paper", "kinds": ["exact"], "address": "https://x/",
                        "sha256": "0" * 64, "alt": embed["alt"]}}
    done = subprocess.run([shutil.which("node") or "node", "--input-type=module", "-e", DRAW, json.dumps(spec)],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    svg = done.stdout
    # the plain point filled; the contradicted one a ring without fill and a cross over it, in its series' colour
    marks = [m.split("</g>")[0] for m in svg.split('<g aria-label="dot"')[1:]]
    assert marks[0].startswith('><circle cx="260"') and 'fill="#D55E00"' in marks[0]  # PALETTE[3]
    assert marks[1].startswith(' fill="none" stroke-width="2"><circle cx="260"') and 'r="5.5" stroke="#009E73"' in marks[1]
    assert marks[2].startswith(' fill="none" stroke-width="2"><path transform="translate(260,')
    assert 'd="M-4.87,-4.87L4.87,4.87M-4.87,4.87L4.87,-4.87" stroke="#009E73"' in marks[2]  # PALETTE[2]
    # its <title> (a tip on hover), and the words under the chart (wrapped into lines of text)
    assert ("Linux MD RAID 10\n15994.38 tx/s (exact)\nConcurrent users (threads): 512\nGraid white paper, section "
            f"Rebuilding Speed, line 201\n⊗ {REASON}\n{NOTE}</title>") in marks[1]
    said = " ".join(t.split(">")[-1] for t in svg.split("</text>") if 'font-size="12"' in t)
    assert (f"Drawn as a hollow, crossed dot (⊗), a value the source's own figures contradict: Linux MD RAID 10 "
            f"(optimal), 15994.38 tx/s at 512 threads: {REASON} ({NOTE[:-1]}).") in said
    assert f"<desc>{embed['alt']}</desc>" in svg
