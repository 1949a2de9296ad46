"""The claims ledger of every study: its counts by verdict (the home page's line, ``ledger``) and
/claims/, every claim in a section by verdict, in the ledger's order (the line links to each). Each claim is
its row as its study page shows it (study.CLAIM_ROWS), with its study's title, year and publisher's
kind as the catalogue says them (catalogue.published, in the study's listing)."""

from __future__ import annotations

import duckdb

from .db import rows
from .study import CLAIM_ROWS


def ledger(con: duckdb.DuckDBPyConnection) -> dict:
    """Every claim checked, by verdict (most first)."""
    verdicts = con.execute("SELECT verdict, count(*) AS n FROM claims GROUP BY verdict ORDER BY n DESC, verdict").fetchall()
    return {"claims": sum(n for _, n in verdicts), "studies": con.execute(
        "SELECT count(DISTINCT study) FROM claims").fetchone()[0],
            "verdicts": [{"name": v, "count": n} for v, n in verdicts]}


def claims_page(con: duckdb.DuckDBPyConnection, *, studies: dict[str, dict]) -> dict:
    """The ledger (``ledger``), each verdict with its claims, by study then in the study's order.
    ``studies``: each study's listing (study_cache.listed, with its catalogue entry)."""
    counted = ledger(con)
    by_verdict: dict[str, list[dict]] = {v["name"]: [] for v in counted["verdicts"]}
    for claim in rows(con, f"{CLAIM_ROWS} ORDER BY study, position"):
        listed = studies[claim["study"]]
        by_verdict[claim["verdict"]].append({**claim, "study_title": listed["title"],
                                             "year": listed["catalogue"]["year"], "kind": listed["catalogue"]["kind"]})
    return {**counted, "verdicts": [{**v, "claims": by_verdict[v["name"]]} for v in counted["verdicts"]]}
