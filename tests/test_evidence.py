"""Evidence grades (schema/evidence-grades.yaml), the facet pages' evidence rows and their answers
(ingest/publish/evidence.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import duckdb
import pytest

from ingest.bundles.fields import registry
from ingest.database.evidence import as_data, grades

ROOT = Path(__file__).resolve().parents[1]


def test_the_grade_rule_is_written_once():
    """Every grade's words and mark and each inconsistent flag's reason are in schema/evidence-grades.yaml,
    and each source kind's words in schema/fields.yaml (source_kinds, which /studies/ reads too), and in
    no file of the code, the site or its pages (the bundle format's own description of sources[].kind,
    in schema/models.py, is what a contributor reads, not a page's words)."""
    g = grades()
    owned = ([(t, "schema/evidence-grades.yaml") for t in [x.label for x in g.grades] + [x.mark for x in g.grades]
              + [x.about for x in g.grades] + [i.reason for i in g.inconsistent]]
             + [(k.name, "schema/fields.yaml") for k in registry().source_kinds])
    files = subprocess.run(["git", "ls-files", "ingest", "site", "content", "schema/evidence-grades.yaml",
                            "schema/fields.yaml"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for text, owner in owned:
        holding = [f for f in files if text in (ROOT / f).read_text(encoding="utf-8", errors="replace")]
        assert holding == [owner], (text, holding)


def test_grades_best_first_each_with_a_mark_and_words():
    data = as_data()
    assert [(x["rank"], x["key"], x["mark"]) for x in data["grades"]] == [
        (1, "measured-passing", "⊕⊕⊕⊕"), (2, "printed-exact", "⊕⊕⊕◯"), (3, "derived-approximate", "⊕⊕◯◯"),
        (4, "failing-runs", "⊕◯◯◯")]
    assert data["inconsistent"] == {"matches-no-per-user-cell": "the figure is in no cell of the source's own per-load table"}


def test_the_database_grades_values_by_the_file(tmp_path):
    from ingest.database.evidence import create_macros
    con = duckdb.connect()
    create_macros(con)
    rows = con.execute("SELECT evidence_rank(k, g) FROM (VALUES ('measured', 'pass'), ('measured', 'warn'), "
                       "('measured', 'partial'), ('exact', NULL), ('derived', NULL), ('approximate', NULL), "
                       "('measured', NULL), ('measured', 'not graded'), ('measured', 'fail')) AS t(k, g)").fetchall()
    assert [r for (r,) in rows] == [1, 1, 1, 2, 3, 3, 3, 3, 4]
    assert con.execute("SELECT evidence_inconsistent('matches-no-per-user-cell'), evidence_inconsistent('at-512-users'), "
                       "evidence_inconsistent(NULL)").fetchone() == (True, False, False)


def _evidence(layout) -> dict:
    import json
    facets = json.loads((layout.root / "build" / "export" / "data" / "facets.json").read_text(encoding="utf-8"))
    return {slug: facet["evidence"] for slug, facet in facets.items()}


def test_doublewrite_answers_from_the_measured_studies_in_one_sentence(built_site):
    """The six studies' doublewrite rows: the two measured studies' off-against-on pairs make one contrast
    (its sentence is the synthesis's: tests/test_synthesis.py holds its rules); the 300 s study's compressed
    pair is its only row graded measured and passing (TPS 1.0151 of on)."""
    found = _evidence(built_site)["doublewrite"]
    assert found["question"] == "What does turning InnoDB doublewrite off change?"
    sentence = found["answer"]["sentence"]
    assert sentence.startswith("Doublewrite off against on: ") and "Certainty: " in sentence
    assert len(sentence.split()) <= 30
    assert [(c["other"], c["reference"], c["studies"]) for c in found["synthesis"]["contrasts"][:1]] == [("off", "on", 2)]
    top = [r for r in found["rows"] if r["metric"] == "tps" and r["rank"] == 1]
    assert [(r["study"], r["other"], r["median"]) for r in top] == [
        ("measured-mariadb-2core-vm-5min", "dw-off-compressed", 1.0151)]


def test_inconsistent_cells_make_no_ratio_and_are_named(built_site):
    """Graid's summary table: MD RAID 10's 15994.38 and 10108.93 carry matches-no-per-user-cell
    (bundle lines 262, 268): no ratio of theirs counts, and the answer names what is left out as what it
    is, the study's single figures. NetApp's protocols: NFS over FCP 0.8385 and iSCSI over FCP 0.91 (the
    facet page's ratios), so Fibre Channel gave the most; one vendor's study of single figures."""
    evidence = _evidence(built_site)
    assert evidence["storage-product"]["answer"]["left_out"] == (
        "Left out: Graid 2023's single figures of SupremeRAID RAID 10 over Linux MD RAID 10 (optimal, rebuilding): "
        "the figure is in no cell of the source's own per-load table.")
    assert evidence["protocol"]["answer"]["sentence"] == (
        "Fibre Channel gave the most new-order transactions per minute: NFS 16% fewer, iSCSI 9% fewer. "
        "Certainty: very low (NetApp 2010; a vendor's own study; one study; a single figure).")
    assert evidence["filesystem"]["answer"]["sentence"] == "No study in the database has a like-for-like pair for this question yet."
    left = [r for r in evidence["raid-level"]["rows"] if r["left_out"]]
    assert [(r["other"], r["state"], r["median"]) for r in left] == [
        ("mdraid-raid6", "optimal", None), ("mdraid-raid6", "rebuilding", None)]


def _row(study, title, year, low, high, *, rank=1, state="optimal", other="b", left_out=None):
    return {"study": study, "title": title, "year": year, "source_kind": "independent", "reference": "a",
            "reference_label": "A", "reference_value": "on", "other": other, "other_label": "B", "other_value": "off",
            "systems": "B over A", "publisher": title.split()[0],
            "metric": "tps", "metric_label": "Transactions per second", "unit": "tps", "state": state,
            "by_loads": True, "loads": 3, "median": (low + high) / 2, "low": low, "high": high, "rank": rank,
            "left_out": left_out, "loads_left_out": 0, "workload": "sysbench oltp_read_write", "engine": None,
            "ratios": [] if left_out else [low, (low + high) / 2, high]}


def _answer(rows):
    from ingest.publish.evidence import answer
    from ingest.synthesis.answer import synthesis
    return answer(rows, synthesis=synthesis(rows, slug="doublewrite", name="doublewrite", optimal=False))


def test_an_answer_of_nothing_but_rows_left_out():
    found = _answer([_row("s1", "Study one", 2019, 1.1, 1.4, left_out="the figure is in no cell")])
    assert found["sentence"] == "No pair makes a ratio."
    assert found["left_out"] == "Left out: Study 2019's figures of B over A (optimal): the figure is in no cell."
    assert found["rank"] is None


def test_a_study_label_says_its_year_once_with_its_publishers_kind():
    from ingest.publish.evidence import study_meta
    head = {"sources": [{"date": "2010-03-25", "kind": "independent", "role": "primary", "publisher": "Percona (blog)"}]}
    assert study_meta(head, title="Percona: 16KB random I/O on Fusion-io (2010)")["study_label"] == (
        "Percona: 16KB random I/O on Fusion-io (2010, independent)")
    assert study_meta(head, title="Percona: 16KB random I/O on Fusion-io")["study_label"] == (
        "Percona: 16KB random I/O on Fusion-io (2010, independent)")


def test_facet_values_spelt_as_keys_are_written_in_words():
    """schema/fields.yaml's words: the device class nvme-ssd is written "NVMe SSD" on the facet pages and in
    their answers; a value without words (ext4) stays as it is, and so does a value no field spells."""
    from ingest.bundles.fields import fields
    by_key = {f.key: f for f in fields("compare")}
    assert by_key["device_class"].word("nvme-ssd") == "NVMe SSD"
    assert by_key["protocol"].word("fcp") == "Fibre Channel (FCP)"
    assert by_key["filesystem"].word("ext4") == "ext4"
    assert by_key["device_class"].word(None) is None


def test_the_home_chart_shows_each_study_s_lowest_and_highest_of_the_best_grade():
    """Under a facet's answer on the home page (evidence.home_rows): of the rows its sentence is over (its
    metric, its best grade), each study's lowest and highest median; a row of a lower grade is not drawn."""
    from ingest.publish.evidence import home_rows
    rows = [_row("s1", "One", 2019, 1.0, 1.2), _row("s1", "One", 2019, 1.1, 1.5, other="c"),
            _row("s1", "One", 2019, 1.2, 1.3, other="d"), _row("s2", "Two", 2020, 0.8, 0.9),
            _row("s3", "Three", 2021, 2.0, 3.0, rank=3)]
    home = home_rows(rows, _answer(rows))
    assert [(r["study"], r["other"], r["median"]) for r in home["home"]] == [
        ("s1", "b", 1.1), ("s1", "c", 1.3), ("s2", "b", 0.8500000000000001)]
    assert home["home_of"] == 4


def test_past_its_rows_the_home_chart_keeps_the_extremes_then_each_study_s_lowest(monkeypatch):
    from ingest.publish import evidence
    monkeypatch.setattr(evidence, "HOME_ROWS", 3)
    rows = [_row(f"s{i}", f"S{i}", 2020, 1.0 + i / 10, 1.0 + i / 10 + 0.05) for i in range(4)]
    rows += [_row(f"s{i}", f"S{i}", 2020, 2.0 + i / 10, 2.0 + i / 10 + 0.05, other="c") for i in range(4)]
    home = evidence.home_rows(rows, _answer(rows))
    # the lowest (s0's 1.025), the highest (s3's 2.325), then s1's lowest (1.125)
    assert sorted((r["study"], r["other"]) for r in home["home"]) == [("s0", "b"), ("s1", "b"), ("s3", "c")]
    assert home["home_of"] == 8



@pytest.mark.parametrize("other, reference, words, itself", [
    ("System A", "System B", "System A over System B", "System A over itself in optimal state"),
    ("RAID 5 over iSCSI", "local RAID 5", "“RAID 5 over iSCSI” over local RAID 5",
     "“RAID 5 over iSCSI” over itself in optimal state"),
    ("A", "itself in optimal state over B", "A over “itself in optimal state over B”", "A over itself in optimal state"),
    ("Failover pair", "Over-provisioned SSD", "Failover pair over “Over-provisioned SSD”",
     "Failover pair over itself in optimal state"),
])
def test_a_pair_in_words_quotes_a_label_that_holds_over(other, reference, words, itself):
    """A label holding " over " made a pair's words ambiguous (issue #61): "A over itself in optimal state over B"."""
    from ingest.publish.evidence import systems
    assert systems({"other": "a", "reference": "b", "other_label": other, "reference_label": reference}) == words
    assert systems({"other": "a", "reference": "a", "other_label": other, "reference_label": other}) == itself
