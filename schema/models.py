"""Bundle format v2: the pydantic models every result bundle is validated against.

Format 2 adds to format 1 what contributors know and did not have a place for: "not-stated" where
a contributor may not know the storage kind or protocol, cloud block volumes (a storage kind, with the
volume's service, type, size and provisioned IOPS and throughput), a RAID whose drive count is not
stated, and each device's class. ``benchdb migrate`` rewrites a format 1 bundle to format 2
(ingest/bundles/migrate.py).

A bundle is ``data/<id>/bundle.yaml`` plus optional ``artifacts/``. The models are strict:
unknown keys are errors (``extra="forbid"``) and values are never coerced (``strict=True``),
so a number typed as a string, or a misspelt key, is reported instead of guessed.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator

from .web_address import web_address

SCHEMA_VERSION = 2  # what validate reads; an older bundle is rewritten by `benchdb migrate`
# The characters that make a spreadsheet read a CSV cell as a formula (OWASP, CSV injection), and the
# prefix that defuses them: read here to refuse labels, by the exporters (ingest/publish/csv_cells.py)
# and by the browser's CSV downloads (site/assets/js/csv-cells.js).
CSV_CELLS_PATH = Path(__file__).with_name("csv-cells.json")
CSV_CELLS = json.loads(CSV_CELLS_PATH.read_text(encoding="utf-8"))
# The largest whole number the database's INTEGER columns hold (ingest/database/sql/schema.sql).
INT_MAX = 2**31 - 1
# What `benchdb import` writes where only the contributor knows the value (storage product, RAID level,
# drives, protocol, host): `benchdb validate` reports each as "to be stated", with its line.
TO_BE_STATED = "TO BE STATED"
# What no text or key of a bundle may hold: the C0 controls (tab, LF and CR among them: the bundles'
# text is one line a value, folded by YAML's ">" where it is long), DEL, the C1 controls (ESC's 8-bit
# forms among them), and Unicode's bidirectional embeddings, overrides and isolates, which reorder what
# a reader sees ("Trojan Source", CVE-2021-42574). On a terminal, in a CI log or on a page, such a
# character can start a command of its own or show other text than the bundle holds (issue #49).
_CONTROL = set(range(0x20)) | set(range(0x7F, 0xA0))
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
_FIRST_BAD = re.compile("[" + "".join(re.escape(chr(c)) for c in sorted(_CONTROL | _BIDI)) + "]")  # one search a value


def _refuse(text: str, where: str) -> str:
    bad = _FIRST_BAD.search(text)
    if bad is None:
        return text
    code = ord(bad.group())
    if code in _BIDI:
        raise ValueError(f"bidirectional control U+{code:04X} is not allowed in {where}: it reorders what a reader sees")
    raise ValueError(f"control character U+{code:04X} is not allowed in {where}")


def refused_characters(text: str, where: str) -> str | None:
    """Why ``text`` may not be in a bundle (a control or bidirectional character, in words naming
    ``where``), or None: for what import reads from a folder before it writes it into one (a file name)."""
    try:
        _refuse(text, where)
    except ValueError as exc:
        return str(exc)
    return None


def _plain_text(text: str) -> str:
    return _refuse(text, "text")


def _plain_key(text: str) -> str:
    return _refuse(text, "a key")


def _label(text: str) -> str:
    if text[:1] in CSV_CELLS["formula_leading"]:
        raise ValueError(f"a label may not begin with {text[:1]!r}: a spreadsheet opening the published CSV "
                         "would run it as a formula")
    return text


def _calendar_date(text: str) -> str:
    year, month, day = ([int(p) for p in text.split("-")] + [1, 1])[:3]  # a partial date: its first day
    try:
        date(year, month, day)
    except ValueError as exc:
        raise ValueError(f"{text} is not a date of the calendar ({exc})") from None
    return text


def iso_time(text: str) -> datetime:
    """A wall-clock time in ISO 8601 (``Z`` for UTC allowed)."""
    return datetime.fromisoformat(text.strip().replace("Z", "+00:00"))


def _iso_time(text: str) -> str:
    try:
        iso_time(text)
    except ValueError:
        raise ValueError("not an ISO 8601 time of the calendar (e.g. 2023-05-01T12:00:00+00:00)") from None
    return text


Id = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{0,79}$")]
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=False), AfterValidator(_plain_text)]
Key = Annotated[str, StringConstraints(min_length=1), AfterValidator(_plain_key)]
# A setting's value as the source states it: text (possibly empty), a number or a flag.
Setting = Annotated[str, AfterValidator(_plain_text)] | int | float | bool
Label = Annotated[Text, AfterValidator(_label)]
PartialDate = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$"),
                        AfterValidator(_calendar_date)]
Timestamp = Annotated[Text, AfterValidator(_iso_time)]
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")]
Url = Annotated[str, StringConstraints(pattern=r"^https?://[^\s]+$"), AfterValidator(_plain_text),
                AfterValidator(web_address)]
Positive = Annotated[int, Field(ge=1, le=INT_MAX)]
CommitHash = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{40}$")]
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
# A GitHub repository as owner/name (GitHub's rules: an owner of letters, digits and single inner hyphens, at
# most 39; a name of letters, digits, '.', '_' and '-', at most 100, never '.' or '..').
_REPOSITORY = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}/[A-Za-z0-9._-]{1,100}")


def _repository(text: str) -> str:
    if not _REPOSITORY.fullmatch(text) or text.split("/")[1] in (".", ".."):
        raise ValueError("not a GitHub repository as owner/name")
    return text


Repository = Annotated[str, AfterValidator(_repository)]


def _repository_path(text: str) -> str:
    parts = text.split("/")
    if text.startswith("/") or "\\" in text or any(p in ("", ".", "..") for p in parts):
        raise ValueError("a path inside the repository: relative, '/' between its parts, no empty, '.' or '..' "
                         "part and no backslash")
    return text


RepositoryPath = Annotated[Text, AfterValidator(_repository_path)]

RaidLevel = Literal["0", "1", "5", "6", "10", "50", "60", "raid-dp", "linear", "none"]
NOT_STATED = "not-stated"  # the value of a choice the source (or the contributor) does not state
Protocol = Literal["local", "fcp", "iscsi", "nfs", "smb", "nvme-of", "not-stated"]
DeviceClass = Literal["nvme-ssd", "sas-ssd", "sata-ssd", "pcie-flash-card", "hdd", "cloud-volume", "not-stated"]
ArrayState = Literal["optimal", "degraded", "rebuilding"]
ValueKind = Literal["exact", "derived", "approximate"]
Metric = Literal[
    "tps", "qps", "oet", "latency_avg_ms", "latency_avg_s", "latency_p95_ms", "latency_p99_ms",
    "rebuild_mb_s", "rebuild_duration_s", "cpu_util_pct", "compression_ratio", "space_used_gb", "space_used_tb",
    "ops_per_10s", "writes_s",
    "fileio_reads_s", "fileio_writes_s", "fsyncs_s", "read_mib_s", "written_mib_s", "requests_s", "transferred_mib_s",
]
# sysbench fileio's --file-test-mode: a fileio workload's test
FileTestMode = Literal["seqwr", "seqrewr", "seqrd", "rndrd", "rndwr", "rndrw"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)


class Source(Model):
    """One document a study is taken from. A study may have several (e.g. a translation)."""

    id: Id
    publisher: Text
    title: Text
    date: PartialDate | None = Field(None, description="YYYY, YYYY-MM or YYYY-MM-DD, as precise as the document says")
    language: Language
    url: Url | None = None
    identifier: Text | None = Field(None, description="How to find the document when it has no URL")
    role: Literal["original", "translation", "republication"] = "original"
    kind: Literal["vendor", "independent", "measured-here"] | None = Field(
        None, description="Who stands behind the figures: the vendor of a product compared, an independent party, "
                          "or runs measured for this site")
    author: Text | None = Field(None, description="The author or authors, as the document names them")
    licence: Text | None = Field(
        None, description='The licence the document or repository is published under (e.g. "CC BY 4.0", "MIT"), '
                          'or "cited only" when none allows republishing it')
    commit: CommitHash | None = Field(None, description="For a repository: the commit the figures are read at")
    notes: Text | None = None

    @model_validator(mode="after")
    def _locatable(self) -> "Source":
        if self.url is None and self.identifier is None:
            raise ValueError("a source needs a url or an identifier")
        return self


class Provenance(Model):
    """Where a value is printed. ``line`` is the line in the source's text transcription."""

    source: Id
    page: Positive | None = None
    section: Text | None = None
    table: Text | None = None
    figure: Text | None = None
    line: Positive | None = None


class Specification(Model):
    """A figure the vendor states about its product (datasheet or company text): context, never a result of the
    study, and never loaded as a value."""

    text: Text = Field(description="The statement exactly as printed")
    where: Provenance
    note: Text | None = Field(None, description="What the figure is not (e.g. measured in this study)")


class Storage(Model):
    product: Text
    vendor: Text
    kind: Literal["gpu-raid", "software-raid", "hardware-raid", "storage-array", "device", "cloud-volume",
                  "not-stated"]
    device_class: DeviceClass | None = Field(
        None, description="The class of the devices the data is on (NVMe SSD, SATA SSD, hard disk, a cloud volume...); "
                          "where none is stated, the class the drive model (or a device's product) names in "
                          "schema/devices.yaml is derived, and one it contradicts is an error")
    version: Text | None = Field(None, description="Driver, firmware or tool version")
    specifications: list[Specification] = Field(
        [], description="Vendor specification figures of the product, as printed; not results")


class Raid(Model):
    level: RaidLevel
    drives: Positive | None = Field(None, description="How many drives the array has; None when the source does not say")
    drive_model: Text
    chunk_kib: Annotated[float, Field(gt=0)] | None = None
    group_size: Annotated[int, Field(ge=2, le=INT_MAX)] | None = Field(None, description="RAID group size, when drives form several groups")
    drive_capacity_tb: Annotated[float, Field(gt=0)] | None = Field(
        None, description="Each drive's capacity in TB (10^12 bytes) as the source states it (e.g. in the drive's name)")


class Volume(Model):
    """A cloud block volume the data is on, as the source states it (storage kind cloud-volume)."""

    service: Literal["aws-ebs", "gcp-persistent-disk", "azure-managed-disk", "other"]
    type: Text = Field(description='The volume type as the service names it, e.g. "gp2", "gp3", "io1", "io2", "pd-ssd"')
    size_gb: Annotated[float, Field(gt=0)] | None = Field(None, description="The volume's size in GB, as stated")
    provisioned_iops: Positive | None = Field(None, description="The IOPS provisioned for it, as stated")
    provisioned_throughput_mb_s: Annotated[float, Field(gt=0)] | None = Field(
        None, description="The throughput provisioned for it in MB/s, as stated")


class Filesystem(Model):
    type: Text
    version: Text | None = None
    mount_options: list[Text] = []


class Database(Model):
    engine: Text
    version: Text | None = Field(None, description="None when the source does not say")
    doublewrite: bool | None = None
    compression: Text | None = Field(None, description='"none", or what compresses: e.g. "innodb-compressed-8k"')
    buffer_pool_mib: Positive | None = Field(None, description="innodb_buffer_pool_size in MiB")
    page_size_kib: Positive | None = None
    settings: dict[Key, Setting] = {}


class Host(Model):
    model: Text | None = None
    cpu: Text | None = Field(None, description="None when the source does not say")
    sockets: Positive | None = None
    memory_gib: Annotated[float, Field(gt=0)] | None = None
    memory_detail: Text | None = None
    os: Text | None = None
    kernel: Text | None = None
    tuning: dict[Key, Setting] = Field(
        {}, description="Operating-system and block-layer settings as the source states them")
    firmware: dict[Key, Setting] = Field(
        {}, description="BIOS / firmware settings as the source states them")
    placement: Text | None = Field(
        None, description="Where drives and controllers attach (e.g. which CPU socket), as the source states it")


class System(Model):
    """A system under test: storage, host and database as configured for the runs."""

    id: Id
    label: Label
    storage: Storage
    raid: Raid | None = None
    volume: Volume | None = Field(None, description="The cloud block volume, when the storage kind is cloud-volume")
    protocol: Protocol
    filesystem: Filesystem | None = None
    database: Database
    host: Host
    notes: Text | None = None


class FileTest(Model):
    """The options of a sysbench fileio test, as its log prints them (sb_fileio.c file_print_mode); the
    workload's test is the --file-test-mode."""

    total_size_mib: Annotated[float, Field(gt=0)] = Field(description='The files\' total size in MiB ("2GiB total file size": 2048)')
    block_size_kib: Annotated[float, Field(gt=0)] = Field(description='The block size in KiB ("Block size 16KiB": 16)')
    fsync_every: Annotated[int, Field(ge=0, le=INT_MAX)] = Field(
        description='fsync() after this many requests ("Periodic FSYNC enabled, calling fsync() each 100 requests."); 0: off')
    fsync_end: bool = Field(description='"Calling fsync() at the end of test, Enabled."')
    fsync_all: bool = Field(description='"Calling fsync() after each write operation."')
    o_direct: bool | None = Field(
        description='Whether the files are opened with O_DIRECT ("Extra file open flags: directio"); null where the '
                    'log does not say (0.4 prints the flags as a number of the platform\'s)')
    io_mode: Literal["synchronous", "asynchronous", "slow mmaped", "fast mmaped"] = Field(
        description='"Using synchronous I/O mode"')


class Workload(Model):
    id: Id
    tool: Text
    tool_version: Text | None = None
    test: Text
    tables: Positive | None = None
    rows_per_table: Annotated[int, Field(ge=1)] | None = None
    data_size: Text | None = Field(None, description='Data set size as stated, e.g. "100GB"')
    data_gb: Annotated[float, Field(gt=0)] | None = Field(None, description="The stated data size as a number of GB")
    distribution: Text | None = None
    concurrency: list[Positive] = []
    duration_s: Positive | None = None
    client: Host | None = Field(None, description="The machine the benchmark tool ran on, when not the database host")
    file_test: FileTest | None = Field(
        None, description="For a sysbench fileio workload (test: its --file-test-mode): the file-test options its logs print")
    notes: Text | None = None


# A value's unit is its metric's, which schema/fields.yaml gives: a bundle need not state it, and where it does,
# validation refuses any other spelling (a printed one stays in the column's label or a note).
UNIT_TEXT = "The metric's unit as schema/fields.yaml spells it (optional: the registry gives it)"


class Coordinates(Model):
    """What a table cell measures. Table defaults, the column and the row are merged."""

    metric: Metric | None = None
    unit: Text | None = Field(None, description=UNIT_TEXT)
    state: ArrayState | None = None
    threads: Positive | None = None
    workload: Id | None = None


class Column(Coordinates):
    label: Label
    line: Positive | None = Field(None, description="Line of this column's value, when rows share none")


class Row(Model):
    system: Id
    label: Label = Field(description="The row heading as printed")
    values: Text = Field(description="The row's numbers as printed, separated by spaces")
    state: ArrayState | None = None
    threads: Positive | None = None
    line: Positive | None = Field(None, description="Line of this row in the source's text")

    def cells(self) -> list[str]:
        return self.values.split()


class Correction(Model):
    """A cell whose printed text could not be taken as it stands (OCR damage, typos)."""

    row: Id = Field(description="The system id of the row")
    column: Text = Field(description="The column label")
    printed: Text = Field(description="The text exactly as the source shows it")
    value: Text = Field(description="The value recorded in the table")
    reason: Text


class CellNote(Model):
    """A remark recorded with one cell and carried with its value: e.g. that it matches no cell of another
    table, or the load the text ties it to when the table names none."""

    row: Id = Field(description="The system id of the row")
    column: Text = Field(description="The column label")
    flag: Id = Field(description='A short key for the remark, e.g. "matches-no-per-user-cell"')
    note: Text = Field(description="The remark in words, with the lines it rests on")


class ResultTable(Model):
    """A table transcribed from a document: one value per row and column."""

    type: Literal["table"]
    id: Id
    title: Text
    provenance: Provenance
    value_kind: ValueKind = "exact"
    defaults: Coordinates = Coordinates()
    columns: list[Column] = Field(min_length=1)
    rows: list[Row] = Field(min_length=1)
    corrections: list[Correction] = []
    cell_notes: list[CellNote] = []
    notes: Text | None = None


class Origin(Model):
    """Where a log comes from: a file of a public repository at one commit."""

    repository: Repository = Field(description="The GitHub repository, as owner/name")
    commit: CommitHash = Field(description="The commit the file is read at: 40 hexadecimal digits, lower case")
    path: RepositoryPath = Field(description="The file's path in the repository at that commit")
    sha256: Sha256 = Field(description="The SHA-256 of the file's bytes at that commit (64 hexadecimal digits, "
                                       "lower case)")
    licence: Text | None = Field(
        None, description="The licence the repository gives the file (an SPDX identifier, e.g. CC-BY-4.0); none: "
                          "it gives none, and the log may only be cited")


class _Log(Model):
    """What an artifact and a cited log share: their id, and where their run stands in the study."""

    type: str
    id: Id
    format: str
    system: Id
    workload: Id | None = None
    threads: Positive | None = Field(None, description="Defaults to the log's own")
    state: ArrayState | None = None
    incomplete: bool = Field(False, description="Keep a log that has no final statistics (shown as unfinished)")
    started: Timestamp | None = Field(None, description="Wall-clock start of the run, ISO 8601, to align with traces")


class Artifact(_Log):
    """A raw artifact (a log, a snapshot) kept in the bundle's ``artifacts/`` folder."""

    type: Literal["artifact"]
    format: Literal["sysbench", "mdstat", "mdstat-trace"]
    path: Text
    array: Text | None = Field(None, description="For a trace: the md array it follows (e.g. md6)")
    origin: Origin | None = Field(
        None, description="For a log copied from a repository: where it comes from, with the licence that lets it "
                          "be republished")


class Cited(_Log):
    """A log that may not be republished (its repository gives no licence that allows it): cited by its
    repository, commit, path and SHA-256, with what the parser read from it (its figures, its interval
    samples with the line of each, its warnings) in a figures file of the bundle. It is loaded as a parsed
    log is; the file itself is never in the bundle."""

    type: Literal["cited"]
    format: Literal["sysbench"]
    origin: Origin
    figures: Text = Field(description="The figures file in the bundle, e.g. cited/<id>.parquet, as benchdb import "
                                      "--cite writes it (its format: schema/figures.py)")


class Derived(Model):
    """A value the source gives only as a relation ("iSCSI about 9% lower than FCP"): the relation is
    stored as printed, the value is computed from it and shown as approximate."""

    type: Literal["derived"]
    id: Id
    title: Text
    system: Id
    metric: Metric
    unit: Text | None = Field(None, description=UNIT_TEXT)
    workload: Id | None = None
    state: ArrayState | None = None
    threads: Positive | None = None
    relation: Text = Field(description="The relation exactly as printed")
    formula: Text = Field(description="The relation as arithmetic over the bundle's values (ingest/bundles/claims.py)")
    decimals: Annotated[int, Field(ge=0, le=6)] = Field(
        0, description="Decimal places the relation supports: the computed value is rounded to them")
    provenance: Provenance


Result = Annotated[Union[ResultTable, Artifact, Cited, Derived], Field(discriminator="type")]


class Chart(Model):
    """A chart of the transcribed tables: one line per system against ``x``. Runs from artifacts are
    drawn in their own time-series charts."""

    id: Id
    title: Text
    metric: Metric
    x: Literal["threads"]
    switch: Literal["state"] | None = None
    workload: Id | None = Field(
        None, description="Only this workload's values: a fileio metric's chart is one mode's (and block size's), "
                          "required where the bundle has several fileio workloads")


class Claim(Model):
    """A quantitative claim of the study (or an inconsistency between its tables), tested by a formula
    over the bundle's own values. The verdict is checked against the formula when the bundle is validated."""

    id: Id
    kind: Literal["claim", "inconsistency"] = "claim"
    text: Text = Field(description="The wording exactly as printed")
    reading: Text | None = Field(
        None, description="How the printed text is read, shown beside it: the intended words of damaged text, "
                          "or an English reading of a claim printed in another language")
    where: Provenance
    stated: float | None = Field(None, description="The figure the claim states, in unit")
    unit: Text | None = None
    formula: Text | None = Field(None, description="Arithmetic over the bundle's values (see ingest/bundles/claims.py)")
    relation: Literal["about", "at least", "at most"] = Field(
        "about", description='How the stated figure is meant: "up to 85%" is about the highest computed value; '
                             '"more than twice" is at least')
    tolerance: Annotated[float, Field(ge=0)] = Field(
        0.0, description="How far the computed figure may be from the stated one and still hold")
    verdict: Literal["holds", "overstated", "understated", "misstated", "unverifiable"]
    reason: Text | None = Field(None, description="Required for misstated and unverifiable")


class GraphOnly(Model):
    """A result the source shows only as a graph: named so the page can say so, with no numbers."""

    title: Text = Field(description="The graph's title or caption as printed")
    shows: Text = Field(description="What the graph compares, in words")
    where: Provenance
    text_says: Text | None = Field(None, description="What the surrounding text states about it, quoted")


class Transcription(Model):
    """A setup detail whose printed text was damaged and has been read from context."""

    field: Text
    printed: Text
    value: Text
    reason: Text
    source: Id


class Bundle(Model):
    """A result bundle: one study, its sources, systems, workloads and results."""

    schema_version: Literal[2]
    id: Id
    title: Text
    summary: Text
    sources: list[Source] = Field(min_length=1)
    systems: list[System] = Field(min_length=1)
    workloads: list[Workload] = Field(min_length=1)
    results: list[Result] = Field(min_length=1)
    charts: list[Chart] = []
    baseline: Id | None = Field(None, description="The system the study compares the others against (e.g. MD RAID 10, FCP)")
    claims: list[Claim] = []
    graph_only: list[GraphOnly] = []
    transcriptions: list[Transcription] = []
    notes: list[Text] = []
    anchors: dict[Key, Any] = Field(
        {}, description="YAML anchors (&name) that the rest of the file reuses (*name); not loaded by itself"
    )


def json_schema() -> dict:
    schema = Bundle.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
