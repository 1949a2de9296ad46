"""Every value, claim and specification of the bundles is printed where the bundle says, in the seed text."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.bundles.validate import validate_paths
from schema.models import Derived, ResultTable
from seeds import printed_near, quoted_pieces, seed_of

DATA = Path(__file__).resolve().parents[1] / "data"
BUNDLES, _ = validate_paths([DATA])
BUNDLES = {b.bundle.id: b.bundle for b in BUNDLES}
SEEDED = {k: b for k, b in BUNDLES.items() if any(seed_of(b, s.id) for s in b.sources)}


def test_every_seed_study_has_its_seed_excerpt():
    # the four studies transcribed from the seed documents; later studies cite their sources' addresses
    assert sorted(SEEDED) == ["graid-supremeraid-mysql-2023", "netapp-tr3693-mysql-2010",
                              "scaleflux-csd2000-mysql-2020", "seagate-nytro-mysql-2015"]


@pytest.mark.parametrize("study", sorted(SEEDED))
def test_table_values_are_printed_on_their_lines(study):
    """Each cell, as printed (a corrected cell by its damaged text), is a token of its row's line."""
    bundle = SEEDED[study]
    checked = 0
    for table in (r for r in bundle.results if isinstance(r, ResultTable)):
        lines = seed_of(bundle, table.provenance.source)
        fixes = {(c.row, c.column): c.printed for c in table.corrections}
        for row in table.rows:
            for column, text in zip(table.columns, row.cells(), strict=True):
                line = column.line or row.line
                printed = fixes.get((row.system, column.label), text)
                tokens = lines[line - 1].replace("\u202f", " ").split()
                assert any(t.strip(",.;:") == printed or t == printed for t in tokens) or printed in lines[line - 1], (
                    f"{study} line {line}: {printed!r} not in {lines[line - 1]!r}")
                checked += 1
    assert checked > 0


CLAIMS = [(study, c.id) for study, b in sorted(SEEDED.items()) for c in b.claims if c.kind == "claim"]


@pytest.mark.parametrize("study,claim_id", CLAIMS)
def test_claim_text_is_quoted_as_printed(study, claim_id):
    """What a claim quotes (outside [brackets]) is printed on its line or the four after it, to the letter."""
    bundle = SEEDED[study]
    claim = next(c for c in bundle.claims if c.id == claim_id)
    assert claim.where.line, f"{claim_id}: no line"
    text = printed_near(seed_of(bundle, claim.where.source), claim.where.line)
    for piece in quoted_pieces(claim.text):
        assert piece in text, f"{claim_id}: {piece!r} not printed at line {claim.where.line}: {text!r}"


def test_derived_relations_and_specifications_are_printed():
    netapp = SEEDED["netapp-tr3693-mysql-2010"]
    derived = [r for r in netapp.results if isinstance(r, Derived)]
    for d in derived:
        assert d.relation in seed_of(netapp, d.provenance.source)[d.provenance.line - 1]
    graid = SEEDED["graid-supremeraid-mysql-2023"]
    specs = [spec for s in graid.systems for spec in s.storage.specifications]
    assert specs
    for spec in specs:
        assert spec.text in printed_near(seed_of(graid, spec.where.source), spec.where.line, 1)


@pytest.mark.parametrize("study", sorted(SEEDED))
def test_graph_titles_are_printed_on_their_lines(study):
    bundle = SEEDED[study]
    for graph in bundle.graph_only:
        assert graph.title in printed_near(seed_of(bundle, graph.where.source), graph.where.line, 0)
