"""The registry of published fields (schema/fields.yaml): the one list of what a value is published
with, read here for the results view and the exporters, and exported as ``fields.json`` for the
templates and the scripts."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, StringConstraints, model_validator

REGISTRY = Path(__file__).resolve().parents[2] / "schema" / "fields.yaml"
Role = Literal["download", "filter", "column", "compare"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Wanted(_Strict):
    """What would make a thin facet's answer (ingest/publish/wanted.py): what a study of it varies, in words
    after "one study ...", the command that measures it, and the subgroups counted on their own."""
    varies: str
    command: str
    groups: list[str] = []  # the contrasts' other sides (array state: degraded, rebuilding)


class FacetPage(_Strict):
    slug: str
    title: str
    baseline: Literal["baseline", "optimal"]
    about: str
    question: str  # what the page answers, in one line (its evidence view's heading)
    wanted: Wanted


class Field(_Strict):
    # lower-case words joined by "_": a key is written into SQL, attribute names and query parameters
    key: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$")]
    sql: str
    bundle: str | None = None
    label: str
    display: Literal["on-off"] | None = None
    words: dict[str, str] = {}  # how pages write a value the format spells as a key (nvme-ssd: NVMe SSD)
    roles: tuple[Role, ...]
    facts: tuple[str, ...] = ()  # a compare field: the bundle facts it shows (schema/like-for-like.yaml)
    page: FacetPage | None = None

    def word(self, value: str | None) -> str | None:
        """How a reader is told a value of this field (``shown``'s text): its words, else as it is."""
        return self.words.get(value, value) if value is not None else None

    def shown(self, column: str) -> str:
        """SQL for how pages write this field's value of ``column`` (NULL stays NULL)."""
        if self.display == "on-off":
            return f"CASE WHEN {column} IS NULL THEN NULL WHEN {column} THEN 'on' ELSE 'off' END"
        return f"CAST({column} AS VARCHAR)"


class Named(_Strict):
    key: str
    label: str
    name: str | None = None


class MetricName(Named):
    unit: str  # the one unit every value of it is stored and shown with
    also_printed: tuple[str, ...] = ()  # other spellings of that unit that sources print (benchdb migrate)
    fileio: str | None = None  # the figure of a sysbench fileio run's "fileio" figures it is
    better: Literal["higher", "lower"] = "higher"  # which way of it is better: lower for a latency or a duration
    io: Literal["database", "raw"] = "database"  # raw: a figure of raw I/O (no database ran), as sysbench fileio's


class Registry(_Strict):
    fields: tuple[Field, ...]
    metrics: tuple[MetricName, ...]
    source_kinds: tuple[Named, ...]
    never_negative: frozenset[str]
    panels: dict[Literal["runs", "fileio", "rebuild"], tuple[Named, ...]]

    @model_validator(mode="after")
    def _unique(self) -> "Registry":
        keys = [f.key for f in self.fields]
        slugs = [f.page.slug for f in self.fields if f.page]
        metrics = [m.key for m in self.metrics]
        for name, items in (("key", keys), ("page slug", slugs), ("metric", metrics)):
            twice = sorted({k for k in items if items.count(k) > 1})
            if twice:
                raise ValueError(f"{REGISTRY.name}: {name} listed twice: {', '.join(twice)}")
        return self


@functools.cache
def registry() -> Registry:
    return Registry.model_validate(yaml.load(REGISTRY.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))


def fields(role: Role | None = None) -> list[Field]:
    """The fields in registry order; with ``role``, those that have it."""
    return [f for f in registry().fields if role is None or role in f.roles]


def field(key: str) -> Field:
    return next(f for f in registry().fields if f.key == key)


def keys(role: Role) -> list[str]:
    return [f.key for f in fields(role)]


def facet_pages() -> list[Field]:
    return [f for f in registry().fields if f.page]


def never_negative(metric: str | None) -> bool:
    """Whether values of ``metric`` are never below zero (a throughput, a latency, ...)."""
    return metric in registry().never_negative


def metric_label(metric: str) -> str:
    return next((m.label for m in registry().metrics if m.key == metric), metric)


def metric(key: str) -> MetricName:
    """A metric's entry in the registry: its label, its one unit, the unit's other printed spellings."""
    return next(m for m in registry().metrics if m.key == key)


def metric_unit(key: str) -> str:
    """The one unit of ``key``'s values (schema/fields.yaml)."""
    return metric(key).unit


def unit_misspelt(key: str, unit: str | None) -> str | None:
    """Why a bundle may not state ``unit`` for a value of metric ``key`` (None: it may, or states none)."""
    if unit is None:
        return None
    entry = metric(key)
    if unit == entry.unit:
        return None
    if unit in entry.also_printed:
        return (f"{key}'s unit is {entry.unit!r} (schema/fields.yaml), not {unit!r}, which is how a source prints "
                "it: `benchdb migrate --write` rewrites it")
    return f"{key}'s unit is {entry.unit!r} (schema/fields.yaml), not {unit!r}: state that unit or none"


def source_kind(key: str) -> Named:
    """How pages name a source kind (vendor, independent, measured-here)."""
    return next(k for k in registry().source_kinds if k.key == key)


def panels(chart: Literal["runs", "fileio", "rebuild"]) -> list[dict]:
    """The panels of a chart over time, as its spec carries them to the renderers."""
    return [p.model_dump() for p in registry().panels[chart]]


def fileio_metrics() -> list[MetricName]:
    """The metrics a sysbench fileio run's figures are stored as, in registry order."""
    return [m for m in registry().metrics if m.fileio]


def results_columns_sql() -> str:
    """The select list of the results view: every field, as its key."""
    return ",\n    ".join(f"{f.sql} AS {f.key}" for f in registry().fields)


def metric_text(metric: str, unit: str | None) -> str:
    """How a page writes a value's metric: its name, and its unit where the name does not give it."""
    name = metric_label(metric)
    return name if not unit or f"({unit})" in name else f"{name} ({unit})"


def as_data() -> list[dict]:
    """The registry as the site reads it (``fields.json``)."""
    return [f.model_dump(exclude={"sql"}) for f in registry().fields]
