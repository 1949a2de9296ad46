"""The synthesis of a facet's studies (schema/synthesis.yaml, ingest/synthesis/): contrasts in one
direction, each study's effect, pooling from three studies, the band of no practical difference, when
studies disagree, GRADE's certainty, and the answer in at most 30 words with no codes. The pooling's
statistics are held to a published worked example in tests/test_pooling.py."""

from __future__ import annotations

import json
import math
import re

from ingest.synthesis.answer import synthesis


def _row(study, *, ratios, other="off", reference="on", kind="independent", rank=1, publisher=None, year=2020,
         metric="tps", state=None, engine=None, workload="sysbench oltp_read_write"):
    return {"study": study, "title": f"Title of {study}", "year": year, "source_kind": kind, "publisher": publisher or study,
            "reference": "a", "other": "b", "reference_value": reference, "other_value": other,
            "systems": "B over A", "metric": metric, "metric_label": "Transactions per second", "state": state,
            "workload": workload, "by_loads": True, "loads": len(ratios), "median": sorted(ratios)[len(ratios) // 2],
            "rank": rank, "left_out": None, "ratios": ratios, "engine": engine}


def _one(rows, **kw):
    found = synthesis(rows, slug=kw.pop("slug", "doublewrite"), name=kw.pop("name", "doublewrite"), optimal=False)
    return found["contrasts"]


def test_a_pair_listed_the_other_way_round_is_turned_over_into_the_contrast_most_studies_hold():
    rows = [_row("s1", ratios=[0.9, 0.95], other="xfs", reference="ext4"),
            _row("s2", ratios=[1.25, 1.25], other="ext4", reference="xfs")]
    (c,) = _one(rows, slug="filesystem", name="filesystem")
    assert (c["other"], c["reference"]) == ("ext4", "xfs") or (c["other"], c["reference"]) == ("xfs", "ext4")
    studies = {s["study"]: s for s in c["groups"][0]["studies"]}
    # one study holds each value as its reference: the tie goes to the first in order, ext4
    assert (c["other"], c["reference"]) == ("xfs", "ext4")
    assert studies["s2"]["flipped"] is True and studies["s2"]["ratio"] == 0.8  # 1 / 1.25
    assert studies["s1"]["flipped"] is False


def test_a_study_s_effect_is_its_median_ratio_with_the_variance_of_a_median():
    """Ratios 1.1, 1.2, 1.3: the median 1.2; s of the logs 0.083551; variance pi/2 * s^2 / 3 = 0.0036551,
    so the 95% interval is 1.2 x exp(-/+1.95996 * 0.060458) = 1.0659 to 1.3510."""
    (c,) = _one([_row("s1", ratios=[1.1, 1.2, 1.3])])
    (s,) = c["groups"][0]["studies"]
    assert (s["ratio"], s["low"], s["high"], s["min"], s["max"], s["loads"]) == (1.2, 1.0659, 1.351, 1.1, 1.3, 3)
    assert c["groups"][0]["pooled"] is None  # one study: alone
    assert c["groups"][0]["verdict"] == "more"


def test_three_studies_are_pooled_with_a_prediction_interval_and_each_left_out():
    rows = [_row("s1", ratios=[1.1, 1.2, 1.3]), _row("s2", ratios=[1.0, 1.05, 1.1]), _row("s3", ratios=[1.3, 1.4, 1.5])]
    (c,) = _one(rows)
    g = c["groups"][0]
    assert g["pooled"]["k"] == 3 and g["pooled"]["method"] == "DerSimonian-Laird random effects"
    assert g["pooled"]["pi_low"] < g["pooled"]["low"] < g["pooled"]["ratio"] < g["pooled"]["high"] < g["pooled"]["pi_high"]
    assert round(sum(s["weight"] for s in g["studies"]), 3) == 1.0
    assert [w["study"] for w in g["without"]] == ["s1", "s2", "s3"]
    assert c["sentence"].startswith("Doublewrite off against on: about ")
    assert "a new setting may see" in c["sentence"] and len(c["sentence"].split()) <= 30


def test_no_practical_difference_inside_the_band():
    (c,) = _one([_row("s1", ratios=[0.99, 1.0, 1.01, 1.0])])
    assert c["groups"][0]["verdict"] == "no practical difference"
    assert c["sentence"] == ("Doublewrite off against on: no practical difference in transactions per second. "
                             "Certainty: moderate (s1 2020; one study).")


def test_studies_disagree_only_when_whole_ranges_lie_beyond_the_band_on_opposite_sides():
    # one finds nothing (0.99), one a gain (1.22 to 1.34): they do not disagree
    quiet = _one([_row("s1", ratios=[0.99, 0.99]), _row("s2", ratios=[1.22, 1.34])])[0]
    assert quiet["groups"][0]["opposite"] is False and "disagree" not in quiet["sentence"]
    loud = _one([_row("s1", ratios=[1.10, 1.40]), _row("s2", ratios=[0.70, 0.93])])[0]
    assert loud["groups"][0]["opposite"] is True and loud["groups"][0]["verdict"] == "studies disagree"
    assert "studies disagree" in loud["certainty"]["reasons"]


def test_certainty_starts_at_the_grade_and_goes_down_a_level_a_domain():
    """A vendor's printed single figure: starts moderate (printed), down for risk of bias (a vendor's
    own study) and for imprecision (one study, a single figure): very low."""
    (c,) = _one([_row("v", ratios=[1.5], kind="vendor", rank=2, publisher="Vendor")])
    assert c["certainty"]["start"] == "moderate"
    assert c["certainty"]["reasons"] == ["a vendor's own study", "one study", "a single figure"]
    assert c["certainty"]["level"] == "very low" and c["certainty"]["mark"] == "⊕◯◯◯"
    assert c["sentence"] == ("Doublewrite off against on: 1.5× the transactions per second. Certainty: very low "
                             "(Vendor 2020; a vendor's own study; one study; a single figure).")


def test_array_states_and_engines_never_mix():
    rows = [_row("s1", ratios=[0.5, 0.6], state="rebuilding"), _row("s1", ratios=[0.9, 0.95], state="optimal"),
            _row("s2", ratios=[1.0, 1.01], engine="MariaDB (MyRocks)")]
    groups = {(g["state"], g["engine"]) for c in _one(rows) for g in c["groups"]}
    assert groups == {("optimal", "InnoDB"), ("rebuilding", "InnoDB"), (None, "MyRocks")}


def _sentences(layout):
    answers = json.loads((layout.root / "build" / "export" / "data" / "answers.json").read_text(encoding="utf-8"))
    return {slug: a["answer"]["sentences"] for slug, a in answers.items()}


def test_every_answer_of_the_catalogue_is_at_most_30_words_in_words_not_codes(catalogue):
    codes = re.compile(r"\b(fcp|nvme-ssd|sata-ssd|matches-no-per-user-cell|innodb-compressed-8k)\b")
    for slug, sentences in _sentences(catalogue).items():
        assert sentences, slug
        for sentence in sentences:
            assert len(sentence.split()) <= 30, (slug, sentence)
            assert "Certainty: " in sentence and not codes.search(sentence), (slug, sentence)


def test_the_questions_of_the_issue_are_answered(catalogue):
    """RAID 5 against RAID 10 (High Performance MySQL's SAN: 16 KB requests) and ext4 or XFS, with the
    persona's three: SupremeRAID against MD, doublewrite, protocols."""
    said = _sentences(catalogue)
    assert any(s.startswith("RAID level 5 against 10: ") for s in said["raid-level"])
    assert said["filesystem"][0].startswith("XFS against ext4: about ")
    assert said["storage-product"][0].startswith("SupremeRAID SR-1010 against Linux MD RAID: ")
    assert said["doublewrite"][0].startswith("Doublewrite off against on: about ")
    assert said["protocol"][0].startswith("Fibre Channel gave the most new-order transactions per minute: ")
    assert math.isfinite(len(said))
