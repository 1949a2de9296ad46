"""The registry of device classes (schema/devices.yaml): which drive models and words name a class, read
here for the derive stage (a system's class where its bundle states none, and a stated class it
contradicts) and for ``benchdb import``."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, model_validator

from .fields import field

REGISTRY = Path(__file__).resolve().parents[2] / "schema" / "devices.yaml"
SHOWN = "schema/devices.yaml"  # how a derivation names the registry


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Document(_Strict):
    publisher: str
    title: str
    says: str  # what it says of the interface
    url: str | None = None  # the maker's page, where it was found
    read_in: str | None = None  # a third party's copy of the maker's document, where one was read

    def __str__(self) -> str:
        return f"{self.publisher}, {self.title}" + (f" ({self.url})" if self.url else "")


class Entry(_Strict):
    pattern: str
    # a key of schema/fields.yaml's device_class words; checked against them by the registry
    device_class: str
    source: Document | None = None  # a model's: the maker's document
    meaning: str | None = None  # words': what they mean

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @property
    def kind(self) -> Literal["model", "words"]:
        return "model" if self.source else "words"

    @property
    def why(self) -> str:
        """The entry's ground, as a derivation cites it."""
        return str(self.source) if self.source else f"the words {self.pattern!r}: {self.meaning}"

    @functools.cached_property
    def regex(self) -> re.Pattern:
        return _whole_words(self.pattern)


class LookedAt(_Strict):
    text: str
    why: str


def _whole_words(pattern: str) -> re.Pattern:
    """The pattern, case-insensitively, as whole words: a Latin letter or digit at either end may not have
    a letter, digit or "_" beside it (Han text has no spaces between words, so no such rule binds it)."""
    word = "[A-Za-z0-9_]"
    left = f"(?<!{word})" if re.match(word, pattern) else ""
    right = f"(?!{word})" if re.match(word, pattern[-1:]) else ""
    return re.compile(left + re.escape(pattern) + right, re.IGNORECASE)


class Registry(_Strict):
    models: tuple[Entry, ...]
    words: tuple[Entry, ...]
    looked_at: tuple[LookedAt, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _class_key(cls, data: dict) -> dict:
        """The file writes ``class:`` (a Python keyword): read it as ``device_class``."""
        def entry(item: object) -> object:
            if isinstance(item, dict) and "class" in item:
                item = {**{k: v for k, v in item.items() if k != "class"}, "device_class": item["class"]}
            return item
        return {**data, **{k: [entry(i) for i in data.get(k) or []] for k in ("models", "words")}}

    @model_validator(mode="after")
    def _consistent(self) -> "Registry":
        known = set(field("device_class").words) - {"not-stated"}
        problems = []
        for e in self.entries:
            if e.device_class not in known:
                problems.append(f"{e.pattern!r}: class {e.device_class!r} is not one of {', '.join(sorted(known))} "
                                f"(schema/fields.yaml's device_class words)")
            if (e.source is None) != (e in self.words):
                problems.append(f"{e.pattern!r}: a model needs its source, words their meaning")
        for text in [e.pattern for e in self.entries] + [t.text for t in self.looked_at]:
            try:
                found = classes_in(text, self)
            except AmbiguousDevice as exc:
                problems.append(str(exc))
                continue
            if found and text in {t.text for t in self.looked_at}:
                problems.append(f"looked_at {text!r} names no class, but {found[0].pattern!r} matches it")
        patterns = [e.pattern.casefold() for e in self.entries]
        problems += [f"{p!r} is listed twice" for p in sorted({p for p in patterns if patterns.count(p) > 1})]
        if problems:
            raise ValueError(f"{SHOWN}: " + "; ".join(problems))
        return self

    @property
    def entries(self) -> tuple[Entry, ...]:
        return self.models + self.words


class AmbiguousDevice(ValueError):
    """Entries of different classes match one text (``what``: the drive model, the storage product), or two
    texts of a system name different classes (``what`` None)."""

    def __init__(self, message: str, what: str | None = None) -> None:
        super().__init__(message)
        self.what = what


@functools.cache
def registry() -> Registry:
    return Registry.model_validate(yaml.load(REGISTRY.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))


def classes_in(text: str, reg: Registry | None = None) -> list[Entry]:
    """The entries that match ``text`` (models first), all of one class; none when it names no class.
    Entries of two classes that match it raise AmbiguousDevice."""
    found = [e for e in (reg or registry()).entries if e.regex.search(text)]
    if len({e.device_class for e in found}) > 1:
        raise AmbiguousDevice(f"{text!r} is matched by entries of different classes: "
                              + ", ".join(f"{e.pattern!r} ({e.device_class})" for e in found))
    return found


@dataclass(frozen=True)
class DeviceClass:
    """A class the registry gives a system, and from what."""
    device_class: str
    what: str  # "drive model" or "storage product"
    text: str  # the system's text the entry matched
    entry: Entry

    @property
    def reason(self) -> str:
        """How a page tells it: the drive model Intel SSD D7-P5510 ..., schema/devices.yaml: Intel, ..."""
        return f"from the {self.what} {self.text}, {SHOWN}: {self.entry.why}"


def device_class_of(texts: list[tuple[str, str]]) -> DeviceClass | None:
    """The class the first of ``texts`` (what, text) that names one names; None when none does. Texts that
    name two classes raise AmbiguousDevice."""
    named = []
    for what, text in texts:
        try:
            found = classes_in(text)
        except AmbiguousDevice as exc:
            raise AmbiguousDevice(f"the {what} {exc}", what) from None
        if found:
            named.append(DeviceClass(found[0].device_class, what, text, found[0]))
    if len({n.device_class for n in named}) > 1:
        raise AmbiguousDevice("; ".join(f"the {n.what} {n.text!r} names {n.device_class} ({n.entry.pattern!r})"
                                        for n in named))
    return named[0] if named else None


def system_texts(system) -> list[tuple[str, str]]:
    """What of a system (schema.models.System, or its YAML mapping) names its devices: its drive model, for
    storage kind device its storage product, and the storage kind cloud-volume."""
    get = (lambda obj, key: obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None))
    raid, storage = get(system, "raid"), get(system, "storage")
    texts = []
    if raid is not None and isinstance(get(raid, "drive_model"), str):
        texts.append(("drive model", get(raid, "drive_model")))
    if storage is not None and get(storage, "kind") == "device" and isinstance(get(storage, "product"), str):
        texts.append(("storage product", get(storage, "product")))
    if storage is not None and get(storage, "kind") == "cloud-volume":  # the kind names the class itself
        texts.append(("storage kind", "cloud-volume"))
    return texts


def give_device_class(system: dict) -> str | None:
    """Write into a system's mapping (as ``benchdb import`` makes it) the class its drive model or device
    names, where it states none; the note that says why. Texts naming two classes are left to validation,
    which names them and the entries."""
    if "device_class" in system["storage"]:
        return None
    try:
        named = device_class_of(system_texts(system))
    except AmbiguousDevice:
        return None
    if named is None:
        return None
    system["storage"]["device_class"] = named.device_class
    return f"Device class {named.device_class} {named.reason}."
