"""Derive: every figure computed from a bundle and its parsed artifacts, once, between validation and
loading. Validation reports what this stage finds (each finding names the place in the bundle it is
about); the loader only maps the figures to rows.

- derived values: the formula of each ``derived`` result over the bundle's own values
- claim figures: the formula of each claim of the ledger
- usable capacity: the fraction of raw capacity each system's RAID level keeps
- device classes: the class a system's drive model names (schema/devices.yaml) where its bundle states
  none, and a stated class the drive model contradicts
- traces: the array each mdstat trace follows, its state at each sample and the measured rebuild figures
- alignments: the array state each timed sysbench run ran in, from its system's trace
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from schema.models import Artifact, Bundle, Cited, Derived

from .align import Alignment, align, parse_started, rebuild_figures, run_seconds, states_during, trace_array
from .claims import FormulaError, Values, evaluate, usable_fraction
from .devices import AmbiguousDevice, DeviceClass, device_class_of, system_texts


@dataclass(frozen=True)
class Finding:
    """Something the derivation could not do or doubts, at a place in the bundle (a YAML path)."""
    loc: tuple
    kind: str
    message: str
    severity: str = "error"


@dataclass(frozen=True)
class Trace:
    array: str                        # the array the trace follows
    rebuild: dict | None              # measured rebuild figures (align.rebuild_figures), if it shows one


@dataclass
class Derivation:
    derived: dict[str, float] = field(default_factory=dict)       # derived result id -> value
    claims: dict[str, float] = field(default_factory=dict)        # claim id -> the figure its formula gives
    usable: dict[str, float | None] = field(default_factory=dict)  # system id -> usable fraction of raw capacity
    device_classes: dict[str, DeviceClass] = field(default_factory=dict)  # system id -> the class derived for it
    traces: dict[str, Trace] = field(default_factory=dict)        # trace artifact id -> what it follows and shows
    alignments: dict[str, tuple[str, Alignment]] = field(default_factory=dict)  # run id -> (trace id, state)
    findings: list[Finding] = field(default_factory=list)


def _usable(bundle: Bundle, out: Derivation) -> None:
    for i, system in enumerate(bundle.systems):
        try:
            raid = system.raid
            out.usable[system.id] = None if raid is None or raid.drives is None else round(
                usable_fraction(raid.level, raid.drives, raid.group_size), 4)
        except FormulaError as exc:  # too few drives for the level (every level has a capacity rule)
            out.usable[system.id] = None
            out.findings.append(Finding(("systems", i, "raid", "drives"), "bad-raid", str(exc)))


def _device_classes(bundle: Bundle, out: Derivation) -> None:
    """A system that states no class (or not-stated) gets the one its drive model names; a stated class
    that the drive model contradicts is an error."""
    for i, system in enumerate(bundle.systems):
        try:
            named = device_class_of(system_texts(system))
        except AmbiguousDevice as exc:
            where = {"drive model": ("raid", "drive_model"), "storage product": ("storage", "product")}
            out.findings.append(Finding(("systems", i, *where.get(exc.what, ())), "device-class",
                                        f"{exc}: schema/devices.yaml cannot tell the device class"))
            continue
        stated = system.storage.device_class
        if named is None:
            continue
        if stated in (None, "not-stated"):
            out.device_classes[system.id] = named
        elif stated != named.device_class:
            out.findings.append(Finding(
                ("systems", i, "storage", "device_class"), "device-class",
                f"{stated} contradicts the {named.what} {named.text!r}, which schema/devices.yaml has as "
                f"{named.device_class} ({named.entry.pattern!r}: {named.entry.why})"))


def _formulas(bundle: Bundle, out: Derivation) -> None:
    values = Values(bundle.results)
    for i, result in enumerate(bundle.results):
        if isinstance(result, Derived):
            try:
                # the value keeps only the precision its relation supports (decimals), as its text shows it
                out.derived[result.id] = round(evaluate(result.formula, values), result.decimals)
            except FormulaError as exc:
                out.findings.append(Finding(("results", i, "formula"), "bad-formula", str(exc)))
    for i, claim in enumerate(bundle.claims):
        if claim.formula is not None:
            try:
                out.claims[claim.id] = evaluate(claim.formula, values)
            except FormulaError as exc:
                out.findings.append(Finding(("claims", i, "formula"), "bad-formula", str(exc)))


def _traces(bundle: Bundle, parsed: dict[str, dict], out: Derivation) -> None:
    for i, result in enumerate(bundle.results):
        if not (isinstance(result, Artifact) and result.format == "mdstat-trace" and result.id in parsed):
            continue
        trace = parsed[result.id]
        array = trace_array(trace, result.array)
        if array is None:
            names = ", ".join(trace["arrays"]) or "none"
            out.findings.append(Finding(("results", i, "array"), "missing" if result.array is None
                                        else "unknown-reference",
                                        f"name the array this trace follows (arrays in {result.path}: {names})"))
            continue
        out.traces[result.id] = Trace(array=array, rebuild=rebuild_figures(trace, array))


def _alignments(bundle: Bundle, parsed: dict[str, dict], out: Derivation) -> None:
    """Give each timed run the array state its system's trace shows; flag a declared state that does not hold."""
    traces = [r for r in bundle.results if isinstance(r, Artifact) and r.id in out.traces]
    for i, artifact in enumerate(bundle.results):
        if not (isinstance(artifact, (Artifact, Cited)) and artifact.format == "sysbench"):
            continue
        run = parsed.get(artifact.id)
        mine = [t for t in traces if t.system == artifact.system]
        if run is None or not mine:
            continue
        loc = ("results", i)
        if artifact.started is None:
            out.findings.append(Finding(loc, "cannot-align", f"system {artifact.system!r} has a trace, but run "
                                        f"{artifact.id!r} has no started time to align it with", "warning"))
            continue
        try:
            start = parse_started(artifact.started)
        except ValueError:
            out.findings.append(Finding(loc + ("started",), "bad-time", f"not an ISO 8601 time: {artifact.started!r}"))
            continue
        for trace_artifact in mine:
            trace, array = parsed[trace_artifact.id], out.traces[trace_artifact.id].array
            if (start.tzinfo is None) != (datetime.fromisoformat(trace["start"]).tzinfo is None):
                out.findings.append(Finding(loc + ("started",), "bad-time", f"started and the times in "
                                            f"{trace_artifact.path} must both carry a time zone or neither"))
                continue
            states, gap = states_during(trace, array, start, run_seconds(run) or 0)
            result = align(declared=artifact.state, states=states, trace_name=trace_artifact.path, array=array)
            out.alignments[artifact.id] = (trace_artifact.id, result)
            if gap:
                out.findings.append(Finding(loc + ("started",), "trace-gap", f"{trace_artifact.path}: {gap}",
                                            "warning"))
            if result.flag:
                out.findings.append(Finding(loc + ("state",), "state-mismatch", result.flag, "warning"))


def derive(bundle: Bundle, parsed: dict[str, dict]) -> Derivation:
    """Every figure of one bundle whose artifacts parsed (``parsed``: artifact id -> parsed content)."""
    out = Derivation()
    _usable(bundle, out)
    _device_classes(bundle, out)
    _formulas(bundle, out)
    _traces(bundle, parsed, out)
    _alignments(bundle, parsed, out)
    return out
