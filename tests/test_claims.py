"""The claims ledger: formulas over the study's own values, verdicts checked on validate."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ingest.bundles.claims import FormulaError, Values, evaluate, usable_fraction
from ingest.bundles.validate import validate_paths

from test_validate import MINIMAL

ROOT = Path(__file__).resolve().parents[1]
GRAID = ROOT / "data" / "graid-supremeraid-mysql-2023"

# Figures worked out by hand from the seed's tables (see the bundle's claims for the formulas):
EXPECTED = {
    "exec-more-tps-optimal": (7669.51 / 9838.45, "overstated"),
    "exec-more-tps-recovery": (3793.36 / 3308.86, "holds"),
    "exec-2x-rebuild": (700 / 420, "overstated"),
    "result-almost-twice-md6": (18878.61 / 8455.82, "holds"),
    "faster-than-md6-all-cases": (7669.51 / 8305.70, "overstated"),
    "more-than-twice-md6-high-users": (13807.17 / 8046.76, "overstated"),  # 2.23x at 512 users, 1.72x at 1024
    "decline-supremeraid-raid10": ((1 - 16119.14 / 22048.90) * 100, "understated"),
    "decline-mdraid-raid10": ((1 - 1370.23 / 10221.50) * 100, "holds"),
    "decline-supremeraid-raid6": ((1 - 3793.36 / 7669.51) * 100, "holds"),
    "decline-mdraid-raid6": ((1 - 484.88 / 9872.39) * 100, "holds"),
    "rebuilding-9x-md10": (12953.34 / 1370.23, "holds"),
    "rebuild-2-5-tb-per-hour": (700 * 3600 / 1e6, "holds"),
    "capacity-8-ssds": (50.0, "holds"),
    "capacity-16-ssds": (75.0, "holds"),
    "optimal-up-to-85": ((18878.61 / 10221.50 - 1) * 100, "holds"),
    "recovery-up-to-28": ((12953.34 / 10108.93 - 1) * 100, "holds"),
    "rebuilding-up-to-945": ((12953.34 / 1370.23 - 1) * 100, "misstated"),
    "rebuild-rate-up-to-66": ((700 / 420 - 1) * 100, "holds"),
    "md10-optimal-tables-disagree": (15994.38 / 10556.98, "unverifiable"),
    "md10-recovery-tables-disagree": (10108.93 / 3308.86, "unverifiable"),
    "typically-higher-than-md10": (13807.17 / 8269.07, "holds"),              # median: the 1024-user ratio
    "supremeraid-raid6-12953-tps-at-512": (12953.34, "holds"),
    "supremeraid-raid6-700-at-512": (700.0, "holds"),
    "mdraid-raid6-598-tps-at-512": (598.75, "holds"),
    "mdraid-raid6-340-at-512": (340.0, "holds"),
    "supremeraid-raid10-faster-while-rebuilding": (14875.35 / 14729.23, "unverifiable"),
    # Seed 002, the Chinese republication (source dayingke-zh): flat figures where English says "up to"
    "zh-exec-more-tps-optimal": (7669.51 / 9838.45, "overstated"),
    "zh-exec-more-tps-recovery": (3793.36 / 3308.86, "holds"),
    "zh-rebuild-almost-2x": (700 / 420, "overstated"),
    "zh-almost-twice-md6": (18878.61 / 8455.82, "holds"),
    "zh-faster-than-md6-all-cases": (7669.51 / 8305.70, "overstated"),
    "zh-more-than-twice-md6-high-users": (13807.17 / 8046.76, "overstated"),
    "zh-decline-supremeraid-raid10": ((1 - 14875.35 / 14729.23) * 100, "overstated"),  # -1.0% at 1024 users
    "zh-decline-mdraid-raid10": ((1 - 3308.86 / 9838.45) * 100, "overstated"),        # 66.4% at 64 users
    "zh-decline-supremeraid-raid6": ((1 - 11616.73 / 13807.17) * 100, "overstated"),  # 15.9% at 1024 users
    "zh-decline-mdraid-raid6": ((1 - 973.79 / 8046.76) * 100, "overstated"),          # 87.9% at 1024 users
    "zh-9x-all-test-cases": (3793.36 / 3308.86, "overstated"),                        # 1.15x at 64 users
    "zh-12953-tps-at-512": (12953.34, "holds"),
    "zh-700-at-512": (700.0, "holds"),
    "zh-rebuild-2-5-tb-per-hour": (700 * 3600 / 1e6, "holds"),
    "zh-598-tps-at-512": (598.75, "holds"),
    "zh-340-at-512": (340.0, "holds"),
    "zh-higher-than-md10": (7669.51 / 9838.45, "overstated"),
    "zh-capacity-8-ssds": (50.0, "holds"),
    "zh-capacity-16-ssds": (75.0, "holds"),
    "zh-optimal-85": ((7669.51 / 9838.45 - 1) * 100, "overstated"),                   # 22% slower at 64 users
    "zh-recovery-28": ((12953.34 / 10108.93 - 1) * 100, "holds"),
    "zh-rebuilding-945": ((12953.34 / 1370.23 - 1) * 100, "misstated"),
    "zh-rebuild-rate-66": ((700 / 420 - 1) * 100, "holds"),
}


@pytest.fixture(scope="module")
def graid():
    bundles, problems = validate_paths([GRAID])
    assert [p for p in problems if p.severity == "error"] == []
    return bundles[0]


def test_every_claim_has_a_hand_worked_expectation(graid):
    assert [c.id for c in graid.bundle.claims] == list(EXPECTED)


@pytest.mark.parametrize("claim_id", list(EXPECTED))
def test_claim_verdict_and_figure(graid, claim_id):
    claim = next(c for c in graid.bundle.claims if c.id == claim_id)
    figure, verdict = EXPECTED[claim_id]
    assert graid.derivation.claims[claim_id] == pytest.approx(figure, rel=1e-12)
    assert claim.verdict == verdict


def test_945_percent_is_a_ratio_read_as_a_percentage(graid):
    ratio = graid.derivation.claims["rebuilding-9x-md10"]
    assert round(ratio * 100) == 945                       # what the paper prints
    assert round(graid.derivation.claims["rebuilding-up-to-945"]) == 845  # what "faster" means


def test_median_is_the_typical_value_of_a_row(graid):
    # SupremeRAID RAID 6 over MD RAID 10, optimal: 0.78, 1.28, 1.78, 1.85, 1.67 at 64 to 1024 users
    values = Values(graid.bundle.results)
    assert evaluate('median(row("tps-optimal", "supremeraid-raid6") / row("tps-optimal", "mdraid-raid10"))',
                    values) == pytest.approx(13807.17 / 8269.07)
    assert evaluate("median(1, 4, 2, 3)", values) == 2.5


def test_usable_capacity_fractions():
    assert usable_fraction("6", 8) == 6 / 8
    assert usable_fraction("10", 8) == 0.5
    assert usable_fraction("5", 4) == 3 / 4
    with pytest.raises(FormulaError, match="RAID 6 needs at least 4 drives, not 3"):
        usable_fraction("6", 3)


def _bundle_with_claim(tmp_path, claim: str) -> list[str]:
    folder = tmp_path / "tiny"
    folder.mkdir(parents=True)
    (folder / "bundle.yaml").write_text(MINIMAL + "claims:\n" + claim)
    _, problems = validate_paths([folder])
    return [f"{p.line}: {p.field}: {p.message}" for p in problems]


CLAIM = """  - id: c1
    text: "A is up to 11% faster than B"
    where: {source: doc, section: Results}
    stated: 11
    tolerance: 1
    formula: '(max(row("tps", "a") / row("tps", "b")) - 1) * 100'
    verdict: holds
"""


def test_a_claim_that_holds_validates(tmp_path):
    # 100.50 / 90.00 = 1.1167 and 200.25 / 180.10 = 1.1119: up to 11.67%
    assert _bundle_with_claim(tmp_path, CLAIM) == []


def test_validate_rejects_a_formula_referring_to_a_missing_value(tmp_path):
    claim = CLAIM.replace('row("tps", "b")', 'row("tps", "c")')
    assert _bundle_with_claim(tmp_path, claim) == [
        "50: claims[c1].formula: table 'tps' has no row for system 'c'"]
    claim = CLAIM.replace("'(max(row(\"tps\", \"a\") / row(\"tps\", \"b\")) - 1) * 100'",
                          "'v(\"tps\", \"a\", \"256 Users\")'")
    assert _bundle_with_claim(tmp_path / "x", claim) == ["50: claims[c1].formula: table 'tps' has no column '256 Users'"]


def test_validate_rejects_a_wrong_verdict(tmp_path):
    claim = CLAIM.replace("stated: 11", "stated: 25")
    assert _bundle_with_claim(tmp_path, claim) == [
        "51: claims[c1].verdict: the formula gives 11.67 against about 25 stated (tolerance 1): overstated, not holds"]


def test_misstated_needs_a_reason(tmp_path):
    claim = CLAIM.replace("verdict: holds", "verdict: misstated")
    assert _bundle_with_claim(tmp_path, claim) == ["45: claims[c1].reason: a misstated verdict needs a reason"]


@pytest.mark.parametrize("formula,message", [
    ('__import__("os").system("true")', "not allowed in a formula"),
    ('__import__("os")', "unknown function __import__()"),
    ("open('x').read()", "not allowed in a formula"),
    ('row("tps-optimal", "mdraid-raid6")', "the formula gives a row, not one number"),
    ("1 +", "not a formula"),
    ("1 / 0", "division by zero"),
    ("2 ** 10", "not allowed in a formula"),
])
def test_formulas_are_arithmetic_only(graid, formula, message):
    with pytest.raises(FormulaError, match=message.replace("(", r"\(").replace(")", r"\)")):
        evaluate(formula, Values(graid.bundle.results))


def test_claims_csv(built_site):
    with open(built_site.public / "data" / "claims.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0])[:9] == ["study", "claim", "reading", "language", "source", "stated", "computed", "verdict",
                                 "formula"]
    row = next(r for r in rows if r["id"] == "rebuilding-up-to-945")
    assert (row["claim"], row["stated"], row["computed"], row["verdict"]) == (
        "Up to 945% faster transactions per second in RAID rebuilding state", "945.0", "845.3406", "misstated")
    # source graid-en of the bundle, which records no web address: named by its identifier
    assert row["source"] == ("Graid Technology Inc., “MySQL Performance Testing with RAID (SupremeRAID versus "
                             "Linux MD RAID)” (Graid Technology white paper (PDF), May 2023), section Conclusion")
    assert row["line"] == "220"
    assert (row["reading"], row["language"]) == ("", "en")
    zh = next(r for r in rows if r["id"] == "zh-9x-all-test-cases")
    assert zh["language"] == "zh" and zh["reading"] and zh["verdict"] == "overstated"


def test_ledger_on_the_study_page(page, site_url):
    page.goto(site_url + "/studies/graid-supremeraid-mysql-2023/")
    # 49 claims, more than a fold's 12 rows (site/hugo.toml fold_rows): folded, the count in its summary
    fold = page.locator("#claims details.fold")
    assert fold.locator("summary").inner_text() == "Claims: 49 rows (show)"
    assert not fold.locator("table.claims").is_visible()
    fold.locator("summary").click()
    rows = page.locator("table.claims tbody tr")
    assert rows.count() == len(EXPECTED)
    assert page.locator('#claim-rebuilding-up-to-945 .verdict').inner_text() == "misstated"
    assert page.locator('tr[data-verdict="holds"]').count() == sum(v == "holds" for _, v in EXPECTED.values())
    assert page.locator('tr[data-verdict="holds"]').count() == 28
    assert page.errors == []
