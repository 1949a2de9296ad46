"""Like for like: the one rule Compare and the facet pages apply to two series (a system in a study).

A series' configuration is the registry's compare fields (schema/fields.yaml, role ``compare``), each
as pages write it, over all of its values (several values joined with ", "; "not stated" when
none). Compare lists every field whose text differs between the series picked; a facet page pairs two
systems of one study when its facet is the only field that differs. "not stated" counts as a value of
its own: a system that does not say its doublewrite setting is not like for like with one that says
"off".

Fields that are the same by definition within a study (its title) never differ between two systems of
it, so the facet pages, which compare within one study only, need no exception for them. One
difference of each of two kinds is allowed because it follows from the facet itself: a system whose
filesystem *is* its storage protocol (NFS over NFS) differs in filesystem from any block protocol, so for
the protocol facet a filesystem difference of that kind does not break the pair; and a device is of
one class, so two storage products of different device classes (a SATA SSD against an NVMe SSD) differ
in class because they differ in product, and the other way round. The page names each such
difference."""

from __future__ import annotations


from ..bundles.fields import Field, fields
from .db import Snapshot

NOT_STATED = "not stated"


def config_sql(where: str = "TRUE", *, extra: str = "") -> str:
    """One row per (study, system) of the results view with its compare fields as text (after the
    ``extra`` select items, if any)."""
    config = ", ".join(f"coalesce(string_agg(DISTINCT {f.shown(f.key)}, ', ' ORDER BY {f.shown(f.key)}), "
                       f"'{NOT_STATED}') AS {f.key}" for f in fields("compare"))
    return f"SELECT study, system, {extra + ', ' if extra else ''}{config} FROM results WHERE {where} GROUP BY study, system"


def configurations(db: Snapshot, study: str) -> dict[str, dict[str, str]]:
    """Each system of ``study`` that has values, with its configuration (compare field key: text)."""
    return {r["system"]: {k: v for k, v in r.items() if k != "system"}
            for r in db.of(study, config_sql() + " ORDER BY study, system")}


def differing(a: dict[str, str], b: dict[str, str]) -> list[Field]:
    """The compare fields whose text differs between two configurations (what Compare marks ≠)."""
    return [f for f in fields("compare") if a[f.key] != b[f.key]]


# A storage product and the class of its devices: either differs with the other (stated on both sides).
GO_TOGETHER = {("storage", "device_class"), ("device_class", "storage")}


def follows_from(facet: str, field: str, a: dict[str, str], b: dict[str, str]) -> bool:
    """Whether a difference in ``field`` follows from the facet's own values: a filesystem that is the
    protocol itself (an NFS mount), for the protocol facet; a device class, for the storage product
    facet, and a storage product, for the device class facet, where both sides state both."""
    if facet == "protocol" and field == "filesystem":
        return any(c["filesystem"] == c["protocol"] != NOT_STATED for c in (a, b))
    return (facet, field) in GO_TOGETHER and NOT_STATED not in (a[facet], b[facet], a[field], b[field])


def like_for_like(facet: str, a: dict[str, str], b: dict[str, str]) -> tuple[bool, list[Field], list[Field]]:
    """(whether the pair differs in ``facet`` alone, the other fields that differ and break it, the
    other fields that differ only as a consequence of the facet)."""
    others = [f for f in differing(a, b) if f.key != facet]
    following = [f for f in others if follows_from(facet, f.key, a, b)]
    breaking = [f for f in others if f not in following]
    return a[facet] != b[facet] and not breaking, breaking, following
