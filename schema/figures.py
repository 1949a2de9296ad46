"""The figures file of a cited log (a ``type: cited`` result): what the sysbench parser read from a log
that may not be republished, kept in the bundle instead of the log.

The file is Parquet (``cited/<id>.parquet``), written by ``benchdb import --cite``:

- its key-value metadata holds two keys: RUN_KEY, the run as ``benchdb parse sysbench`` prints it, as a
  JSON object, without its interval samples: ``FiguresRun`` below (its figures, the line of each in
  ``source_lines``, its warnings, the lines of the log the run spans); and ORIGIN_KEY, what the figures
  are of: ``FiguresOrigin`` below (the one result that names the file, and the SHA-256 of the log they
  were read from, which must be that result's ``origin.sha256``);
- its rows are the interval samples, in the order of their lines and times: a column ``line`` (the log's
  line a sample is read from) and the columns of INTERVAL_COLUMNS (every one present, null where the log
  prints none), and of EXTRA_INTERVAL_COLUMNS where the log prints them. ``line``, ``t_s`` and
  ``threads`` are 64-bit whole numbers (``t_s`` and ``threads`` within the 32 bits the database stores
  them in: INTEGER_RANGE of ingest/parsers/sysbench_intervals.py); every other column 64-bit whole numbers
  where the log prints its numbers without a point, doubles where it prints them with one (or null
  throughout).

Every value is as the parser gives it. Nothing else may be in the file: an unknown column or key, a
column of another type, a sample out of order or outside the run's lines is an error naming the field and
the row (ingest/bundles/cited.py reads it). Figures files of JSON Lines, the format before (line 1 the run,
every further line a sample), are rewritten to Parquet by ``benchdb migrate --write``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from .models import INT_MAX, Id, Model, Positive, Sha256, Text, _plain_text

RUN_KEY = "benchdb.run"  # the metadata key of the run's figures
ORIGIN_KEY = "benchdb.origin"  # the metadata key of what they are of (FiguresOrigin)

# Whole numbers as the parser reads them (64 bits, what Arrow and the database's BIGINT hold), and numbers
Whole = Annotated[int, Field(ge=-2**63, lt=2**63)]
Number = Whole | float
LineNumber = Annotated[int, Field(ge=0, le=INT_MAX)]  # 0: a warning or figure of the run as a whole
Span = Annotated[list[Positive], Field(min_length=2, max_length=2)]  # a first and a last line
Value = Annotated[str, Field(max_length=10_000), AfterValidator(_plain_text)]  # an option's value (may be empty)


class Totals(Model):
    transactions: Whole | None
    tps: Number | None
    queries: Whole | None
    qps: Number | None
    reads: Whole | None
    writes: Whole | None
    other: Whole | None
    ignored_errors: Whole | None
    reconnects: Whole | None
    time_s: Number | None
    events: Whole | None


class Latency(Model):
    min: Number | None
    avg: Number | None
    max: Number | None
    sum: Number | None
    percentiles: dict[Annotated[str, Field(pattern=r"^[0-9]+(\.[0-9]+)?$")], Number]


class Fairness(Model):
    events_avg: Number | None
    events_stddev: Number | None
    time_avg: Number | None
    time_stddev: Number | None


class HistogramRow(Model):
    value_ms: Number
    count: Whole
    line: Positive


class QueueReport(Model):
    t_s: Whole
    length: Whole
    concurrency: Whole
    line: Positive


class Checkpoint(Model):
    t_s: Whole
    lines: Span
    totals: Totals
    latency_ms: Latency


class FiguresRun(Model):
    """Line 1 of a figures file: one sysbench run as the parser reads it, without its interval samples."""

    sysbench_version: Text | None
    test: Text | None
    kind: Text | None
    complete: bool
    threads: Positive | None
    threads_source: Literal["header", "command", "intervals", "inferred"] | None
    report_interval_s: Positive | None
    totals: Totals
    latency_ms: Latency
    fairness: Fairness
    histogram: list[HistogramRow]
    warnings: list[Text]
    source_lines: dict[Text, LineNumber]
    interval_tps_cv: Annotated[float, Field(ge=0)] | None
    lines: Span
    command_options: dict[Text, Value] | None = None
    test_options: dict[Text, Value] | None = None
    other_statistics: dict[Text, Number | Value] | None = None
    queue: list[QueueReport] | None = None
    checkpoints: list[Checkpoint] | None = None
    fileio: dict[Text, Number | dict[Text, Number | dict[Text, Number] | None] | None] | None = None


class FiguresOrigin(Model):
    """What a figures file's figures are of, so that a file is the figures of one result and of the log its
    origin names: two results cannot name one file, nor a result the figures of another log (issue #61).
    Written by ``benchdb import --cite``; ``benchdb migrate --write`` adds it to a file written before."""

    result: Id  # the id of the cited result that names the file
    sha256: Sha256  # of the log the figures were read from: the result's origin.sha256
