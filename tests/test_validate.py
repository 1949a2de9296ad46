"""Bad bundles are rejected with every problem, each naming file, line and field."""

from __future__ import annotations

from pathlib import Path

from ingest.bundles.validate import validate_paths

MINIMAL = """\
schema_version: 2
id: tiny
title: A tiny study
summary: One table, two systems.
sources:
  - id: doc
    publisher: Example Corp
    title: An example paper
    date: "2024-02"
    language: en
    identifier: example-paper.pdf
systems:
  - id: a
    label: System A
    storage: {product: Box A, vendor: Example, kind: software-raid}
    raid: {level: "6", drives: 8, drive_model: SSD X, chunk_kib: 4}
    protocol: local
    database: {engine: MySQL, version: "8.0", doublewrite: true}
    host: {cpu: CPU Y}
  - id: b
    label: System B
    storage: {product: Box B, vendor: Example, kind: gpu-raid}
    protocol: local
    database: {engine: MySQL, version: "8.0"}
    host: {cpu: CPU Y}
workloads:
  - id: rw
    tool: sysbench
    test: oltp_read_write
results:
  - type: table
    id: tps
    title: TPS
    provenance: {source: doc, section: Results, table: Table 1}
    defaults: {metric: tps, unit: tx/s, state: optimal}
    columns:
      - {label: 64 Users, threads: 64}
      - {label: 128 Users, threads: 128}
    rows:
      - {system: a, label: A, values: "100.50 200.25"}
      - {system: b, label: B, values: "90.00 180.10"}
charts:
  - {id: tps-chart, title: TPS by users, metric: tps, x: threads}
"""


def _problems(bundle_dir, text: str, name: str = "tiny") -> list[str]:
    folder = bundle_dir(name, text)
    _, problems = validate_paths([folder])
    shown = str((folder / "bundle.yaml").absolute())
    return [str(p).replace(shown, "bundle.yaml") for p in problems]


def test_minimal_bundle_is_valid(bundle_dir):
    folder = bundle_dir("tiny", MINIMAL)
    bundles, problems = validate_paths([folder])
    assert problems == []
    assert [b.bundle.id for b in bundles] == ["tiny"]


def test_the_shipped_bundles_are_valid(layout):
    """No error; a warning only where a log itself says something is off (sysbench's "timer was never
    started", a run cut before its final statistics), which validate reports with the log's line."""
    bundles, problems = validate_paths([layout.data])
    assert [str(p) for p in problems if p.severity == "error"] == []
    assert all(".figures: " in str(p) or "artifacts/" in str(p) for p in problems), [str(p) for p in problems]
    assert "graid-supremeraid-mysql-2023" in [b.bundle.id for b in bundles]


def test_missing_field(bundle_dir):
    text = MINIMAL.replace("    publisher: Example Corp\n", "")
    assert _problems(bundle_dir, text) == ["bundle.yaml:6: sources[doc].publisher: missing required field"]


def test_wrong_type(bundle_dir):
    text = MINIMAL.replace("drives: 8,", 'drives: "eight",')
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:16: systems[a].raid.drives: Input should be a valid integer (got 'eight')"
    ]


def test_number_as_string_is_not_coerced(bundle_dir):
    text = MINIMAL.replace("drives: 8,", 'drives: "8",')
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:16: systems[a].raid.drives: Input should be a valid integer (got '8')"
    ]


def test_unknown_key(bundle_dir):
    text = MINIMAL.replace("    label: System B\n", "    label: System B\n    colour: red\n")
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:22: systems[b].colour: unknown key (not part of bundle format v2)"
    ]


def test_unknown_key_inside_a_table(bundle_dir):
    text = MINIMAL.replace('values: "90.00 180.10"}', 'values: "90.00 180.10", colour: red}')
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:41: results[tps].rows[1].colour: unknown key (not part of bundle format v2)"
    ]


def test_every_problem_is_reported_at_once(bundle_dir):
    text = MINIMAL.replace("    publisher: Example Corp\n", "").replace("drives: 8,", 'drives: "eight",')
    assert len(_problems(bundle_dir, text)) == 2


def test_duplicate_id_in_a_section(bundle_dir):
    text = MINIMAL.replace("  - id: b\n", "  - id: a\n").replace("{system: b,", "{system: a,")
    problems = _problems(bundle_dir, text)
    assert "bundle.yaml:20: systems[a].id: duplicate id 'a' (also systems[0])" in problems
    assert "bundle.yaml:41: results[tps].rows[1].system: system 'a' has two rows in this table" in problems


def test_duplicate_bundle_id_given_twice(tmp_path):
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "bundle.yaml").write_text(MINIMAL)
    _, problems = validate_paths([tmp_path / "tiny", tmp_path / "tiny" / "bundle.yaml"])
    assert [(p.field, p.type, p.line) for p in problems] == [("id", "duplicate-id", 2)]
    assert problems[0].message.startswith("bundle id 'tiny' is already used by ")


def test_id_must_match_folder(bundle_dir):
    assert _problems(bundle_dir, MINIMAL, name="other") == [
        "bundle.yaml:2: id: id 'tiny' does not match its folder name 'other'"
    ]


def test_duplicate_yaml_key(bundle_dir):
    text = MINIMAL.replace("title: A tiny study\n", "title: A tiny study\ntitle: Again\n")
    assert _problems(bundle_dir, text) == ["bundle.yaml:4: title: key 'title' is given twice (first on line 3)"]


def test_yaml_that_is_not_a_mapping(bundle_dir):
    assert _problems(bundle_dir, "- just\n- a list\n") == [
        "bundle.yaml:1: a bundle must be a YAML mapping, not list"
    ]


def test_yaml_syntax_error(bundle_dir):
    assert _problems(bundle_dir, "id: [unclosed\n") == [
        "bundle.yaml:2: invalid YAML: did not find expected ',' or ']'"
    ]


def test_empty_file(bundle_dir):
    assert _problems(bundle_dir, "") == ["bundle.yaml:1: the file is empty"]


def _with_artifact(path: str) -> str:
    return MINIMAL.replace("charts:\n", (
        "  - {type: artifact, id: log1, format: sysbench, path: '%s', system: a}\ncharts:\n" % path))


def test_artifact_path_escaping_the_bundle(bundle_dir):
    assert _problems(bundle_dir, _with_artifact("../../etc/passwd")) == [
        "bundle.yaml:42: results[log1].path: artifact path '../../etc/passwd' leaves the bundle folder"
    ]
    assert _problems(bundle_dir, _with_artifact("/etc/passwd")) == [
        "bundle.yaml:42: results[log1].path: artifact path '/etc/passwd' leaves the bundle folder"
    ]


def test_artifact_symlink_escaping_the_bundle(bundle_dir, tmp_path):
    folder = bundle_dir("tiny", _with_artifact("artifacts/run.log"))
    (folder / "artifacts").mkdir()
    outside = tmp_path / "outside.log"
    outside.write_text("x")
    (folder / "artifacts" / "run.log").symlink_to(outside)
    _, problems = validate_paths([folder])
    assert [p.message for p in problems] == [
        "artifact path 'artifacts/run.log' goes through a symbolic link (run.log): links are not followed"]


def test_artifact_that_does_not_exist(bundle_dir):
    assert _problems(bundle_dir, _with_artifact("artifacts/run.log")) == [
        "bundle.yaml:42: results[log1].path: artifact file 'artifacts/run.log' does not exist"
    ]


SYSBENCH = Path(__file__).parent / "fixtures" / "sysbench"


def _bundle_with_log(bundle_dir, fixture: str, extra: str = "", text: str | None = None) -> list[str]:
    folder = bundle_dir("tiny", _with_artifact("artifacts/run.log").replace("system: a}", f"system: a{extra}}}"))
    (folder / "artifacts").mkdir(exist_ok=True)
    data = (SYSBENCH / fixture).read_bytes() if text is None else text.encode()
    (folder / "artifacts" / "run.log").write_bytes(data)
    _, problems = validate_paths([folder])
    shown = str((folder / "bundle.yaml").absolute())
    return [str(p).replace(shown, "bundle.yaml") for p in problems]


def test_artifact_inside_the_bundle_is_accepted(bundle_dir):
    assert _bundle_with_log(bundle_dir, "web-1.0.20-oltp-rw-ivl20-shell-prompt.log") == []


def test_sysbench_warnings_are_reported_by_validate(bundle_dir):
    assert _bundle_with_log(bundle_dir, "mariadbbench-0.5-timer-warning.log") == [
        "bundle.yaml:42: warning: results[log1].path: artifacts/run.log line 11: "
        "sysbench reported: WARNING: timer was never started"
    ]


def test_non_database_sysbench_test_is_rejected(bundle_dir):
    assert _bundle_with_log(bundle_dir, "web-1.0-cpu-no-version-header.log") == [
        "bundle.yaml:42: results[log1].path: artifacts/run.log is a sysbench cpu test, not a database "
        "benchmark or a fileio test: it cannot be loaded as results"
    ]


def test_truncated_log_needs_the_bundle_to_say_so(bundle_dir):
    log = (SYSBENCH / "web-1.0.20-oltp-rw-ivl20-shell-prompt.log").read_text()
    cut = log[: log.index("SQL statistics:")]
    problems = _bundle_with_log(bundle_dir, "", text=cut)
    assert problems[0] == ("bundle.yaml:42: results[log1].path: artifacts/run.log has no final statistics "
                           "(a truncated or unfinished run); set incomplete: true to keep it as an unfinished run")
    kept = _bundle_with_log(bundle_dir, "", extra=", incomplete: true", text=cut)
    assert [p for p in kept if ": warning: " not in p] == []


def test_failed_run_in_a_bundle(bundle_dir):
    text = "sysbench 1.0.20\nNumber of threads: 4\nFATAL: no such table sbtest1\n"
    assert _bundle_with_log(bundle_dir, "", text=text) == [
        "bundle.yaml:42: results[log1].path: artifacts/run.log:3: run failed: FATAL: no such table sbtest1"
    ]


def test_an_artifact_file_of_several_runs_is_refused(bundle_dir):
    assert _bundle_with_log(bundle_dir, "handmade-1.0.20-point-select-three-runs.log") == [
        "bundle.yaml:42: results[log1].path: artifacts/run.log:41: a second run starts here: "
        "the file holds 3 runs (lines 1-39, 41-79, 81-119); give each run its own artifact file"
    ]


def test_thread_count_must_agree_with_the_log(bundle_dir):
    assert _bundle_with_log(bundle_dir, "web-1.0.20-oltp-rw-ivl20-shell-prompt.log", extra=", threads: 32") == [
        "bundle.yaml:42: results[log1].threads: the bundle says 32 threads, artifacts/run.log says 64 (header)"
    ]


def test_unknown_reference(bundle_dir):
    text = MINIMAL.replace("{source: doc,", "{source: docs,").replace("{system: b,", "{system: c,")
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:34: results[tps].provenance.source: no source with id 'docs' in this bundle",
        "bundle.yaml:41: results[tps].rows[1].system: no system with id 'c' in this bundle",
    ]


def test_row_values_must_be_plain_numbers_matching_the_columns(bundle_dir):
    text = MINIMAL.replace('"100.50 200.25"', '"100.50 200,25"').replace('"90.00 180.10"', '"90.00"')
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:40: results[tps].rows[0].values: value 2 (128 Users) is '200,25': not a plain number (ASCII"
        " digits, an optional minus sign and decimal point); record damaged text in corrections",
        "bundle.yaml:41: results[tps].rows[1].values: 1 values for 2 columns",
    ]


def test_correction_must_match_the_cell(bundle_dir):
    text = MINIMAL.replace("charts:\n", "charts:\n", 1).replace(
        '      - {system: b, label: B, values: "90.00 180.10"}\n',
        '      - {system: b, label: B, values: "90.00 180.10"}\n'
        "    corrections:\n"
        "      - {row: b, column: 128 Users, printed: '18010', value: '180.01', reason: lost point}\n")
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:43: results[tps].corrections[0].value: the table holds '180.10' in that cell, not '180.01'"
    ]


def test_chart_needs_a_drawable_metric(bundle_dir):
    text = MINIMAL.replace("metric: tps, x: threads}", "metric: qps, x: threads}")
    assert _problems(bundle_dir, text) == [
        "bundle.yaml:43: charts[tps-chart].metric: no table gives 'qps' against 'threads' to draw"
    ]


def test_partial_dates_stay_text_and_bad_dates_are_rejected(bundle_dir):
    assert _problems(bundle_dir, MINIMAL.replace('date: "2024-02"', "date: 2024-02-30x")) == [
        "bundle.yaml:9: sources[doc].date: String should match pattern '^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$' (got '2024-02-30x')"
    ]
    assert _problems(bundle_dir, MINIMAL.replace('date: "2024-02"', "date: 2024-02-01")) == []


def test_missing_path(tmp_path: Path):
    _, problems = validate_paths([tmp_path / "nope"])
    assert [p.message for p in problems] == ["no such file or folder"]


def test_folder_without_bundle_file(tmp_path: Path):
    (tmp_path / "data" / "empty").mkdir(parents=True)
    _, problems = validate_paths([tmp_path / "data"])
    assert [(p.path.endswith("empty"), p.message) for p in problems] == [(True, "no bundle.yaml in this bundle folder")]


def test_values_to_be_stated_and_the_logs_warnings_are_reported_together(tmp_path):
    """An imported bundle still holds TO BE STATED (one in a text field, one where a number goes, which
    the model refuses too): the log's own warning is reported with them, not after they are stated
    (issue #51). The bundle is valid-sysbench-warning with two values to be stated."""
    import shutil

    source = Path(__file__).parent / "fixtures" / "malformed" / "valid-sysbench-warning"
    folder = tmp_path / "valid-sysbench-warning"
    shutil.copytree(source, folder)
    text = (folder / "bundle.yaml").read_text(encoding="utf-8")
    for old, new in (("drive_model: SSD X", "drive_model: TO BE STATED"), ("drives: 8,", "drives: TO BE STATED,")):
        assert text.count(old) == 1
        text = text.replace(old, new)
    (folder / "bundle.yaml").write_text(text, encoding="utf-8")
    _, problems = validate_paths([folder])
    shown = [(p.line, p.field, p.type, p.severity) for p in problems]
    assert shown == [
        (16, "systems[a].raid.drives", "to-be-stated", "error"),
        (16, "systems[a].raid.drive_model", "to-be-stated", "error"),
        (42, "results[log1].path", "artifact-warning", "warning")]
    assert problems[2].message == "artifacts/run.log line 11: sysbench reported: WARNING: timer was never started"


def test_format_2_says_what_a_contributor_does_not_know_and_holds_a_cloud_volume(bundle_dir):
    """Format 2 (issue #51): "not-stated" for a storage kind or protocol the source does not give, a RAID
    whose drive count is not stated (no usable capacity is derived then), a device class, and a cloud
    volume with what was provisioned."""
    text = (MINIMAL
            .replace("storage: {product: Box A, vendor: Example, kind: software-raid}",
                     "storage: {product: Box A, vendor: Example, kind: not-stated, device_class: nvme-ssd}")
            .replace('raid: {level: "6", drives: 8, drive_model: SSD X, chunk_kib: 4}\n    protocol: local',
                     'raid: {level: "6", drive_model: SSD X}\n    protocol: not-stated')
            .replace("storage: {product: Box B, vendor: Example, kind: gpu-raid}",
                     "storage: {product: EBS io2, vendor: AWS, kind: cloud-volume, device_class: cloud-volume}\n"
                     "    volume: {service: aws-ebs, type: io2, size_gb: 1000, provisioned_iops: 32000}"))
    bundles, problems = validate_paths([bundle_dir("tiny", text)])
    assert problems == []
    a, b = bundles[0].bundle.systems
    assert (a.storage.kind, a.protocol, a.raid.drives, a.storage.device_class) == ("not-stated", "not-stated", None,
                                                                                     "nvme-ssd")
    assert bundles[0].derivation.usable["a"] is None
    assert (b.volume.service, b.volume.type, b.volume.size_gb, b.volume.provisioned_iops) == ("aws-ebs", "io2", 1000, 32000)


def test_a_cloud_volume_needs_its_kind_and_its_volume(bundle_dir):
    text = MINIMAL.replace("storage: {product: Box B, vendor: Example, kind: gpu-raid}",
                           "storage: {product: EBS gp3, vendor: AWS, kind: cloud-volume}")
    _, problems = validate_paths([bundle_dir("tiny", text)])
    assert [(p.line, p.field, p.message) for p in problems] == [
        (22, "systems[b].storage", "a cloud volume needs storage kind cloud-volume and its volume (service, type...): "
                                   "one is given without the other")]
