"""The synthesis rules of schema/synthesis.yaml, read once and checked: the band of no practical
difference, how a study's effect and its variance are taken, when studies are pooled, the subgroups that
never mix, and the certainty levels with the words of each reason for rating one down."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

RULES = Path(__file__).resolve().parents[2] / "schema" / "synthesis.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Strict):
    min_sd: float = Field(gt=0)
    impute: Literal["largest"]


class Pool(_Strict):
    min_studies: int = Field(ge=2)
    method: Literal["dl"]
    method_label: str
    level: float = Field(gt=0, lt=1)
    prediction: Literal["t", "z"]


class Words(_Strict):
    below: float
    words: str


class Engine(_Strict):
    key: str
    label: str
    words: tuple[str, ...] = ()


class Engines(_Strict):
    default: Engine
    others: tuple[Engine, ...]


class Level(_Strict):
    key: str
    mark: str


class Rules(_Strict):
    band: float = Field(gt=0, lt=1)
    effect: Effect
    pool: Pool
    heterogeneity: tuple[Words, ...]
    widest: tuple[str, ...]
    engines: Engines
    levels: dict[int, Level]
    down: dict[Literal["risk_of_bias", "inconsistency", "indirectness", "imprecision"], dict[str, str]]
    i2_inconsistent: float


@functools.cache
def rules() -> Rules:
    """schema/synthesis.yaml, validated (a mistake in it names the file and the field)."""
    try:
        return Rules.model_validate(yaml.safe_load(RULES.read_text(encoding="utf-8")))
    except ValueError as e:
        raise ValueError(f"{RULES.name}: {e}") from None


def engine(text: str | None) -> Engine:
    """The storage engine a system's database is, by the words its bundle states it with."""
    for other in rules().engines.others:
        if text and any(w.lower() in text.lower() for w in other.words):
            return other
    return rules().engines.default


def heterogeneity(i2: float) -> str:
    return next(h.words for h in rules().heterogeneity if i2 < h.below)
