"""The price of redundancy on study pages: usable capacity, peak TPS per usable TB, the exposure window
of a rebuild and the throughput kept while rebuilding, each derived with its formula and inputs (the
redundancy_price view of ingest/database/sql/publish.sql); only where the bundle states what they need."""

from __future__ import annotations

from .db import Snapshot

PRICE = ("SELECT study, system, position, figure, value, unit, formula, inputs FROM redundancy_price "
         "ORDER BY study, system, position, figure")


def redundancy_price(db: Snapshot, study: str, labels: dict[str, str]) -> list[dict]:
    return [{**row, "system_label": labels[row["system"]]} for row in db.of(study, PRICE)]
