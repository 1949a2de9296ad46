"""One colour per system, on every page and embed: a system is drawn in the palette colour of its
position in its study's bundle (the renderers map the index onto site/assets/js/palette.js), so
SupremeRAID RAID 6 is the same colour on its study page, on every facet page and in every embed."""

from __future__ import annotations

import duckdb


def positions(con: duckdb.DuckDBPyConnection, *, where: str = "TRUE") -> dict[tuple[str, str], int]:
    """(study, system) -> the system's position in its bundle, of the studies ``where`` holds for
    (db.in_studies)."""
    return {(study, system): pos for study, system, pos in con.execute(
        f"SELECT study, system, position FROM systems WHERE {where}").fetchall()}


def colour_chart(chart: dict, study: str, where: dict[tuple[str, str], int]) -> None:
    """Give a by-x chart spec ``colours``: for each of its series, the palette index of its system."""
    system_of = {p["series"]: p["system"] for p in chart["points"]}
    chart["colours"] = [where[(study, system_of[s])] for s in chart["series"]]
