"""mdstat traces built from real snapshots: the pr28_0..2 series was taken from one array while
it recovered (tests/fixtures/mdstat/PROVENANCE.md). The series carries no times, so each test
supplies them; the arithmetic below follows from those times and the printed block counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.parsers import ParseError
from ingest.parsers.mdstat_trace import parse_time, parse_trace

FIXTURES = Path(__file__).parent / "fixtures" / "mdstat"
SERIES = [(FIXTURES / f"checkraid-pr28_{i}.txt").read_text() for i in range(3)]
OPTIMAL_AFTER = """Personalities : [raid1]
md1 : active raid1 sda2[2] sdb2[1]
      972574976 blocks [2/1] [_U]

md0 : active raid1 sda1[2] sdb1[1]
      208704 blocks [2/2] [UU]

unused devices: <none>
"""  # constructed for these tests: md0 after its recovery, not a captured snapshot


def _snaps(tmp_path, files: dict[str, str]) -> Path:
    """A folder of snapshot files: name -> text."""
    folder = tmp_path / "snaps"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def _trace(tmp_path, stamps, bodies) -> Path:
    path = tmp_path / "mdstat.trace"
    path.write_text("".join(f"{s}\n{b}" for s, b in zip(stamps, bodies)))
    return path


def test_iso_trace_gives_states_and_measured_throughput(tmp_path):
    stamps = ["2024-05-01T12:00:00+00:00", "2024-05-01T12:10:00+00:00", "2024-05-01T12:11:00+00:00"]
    got = parse_trace(_trace(tmp_path, stamps, SERIES))
    assert [s["t_s"] for s in got["snapshots"]] == [0.0, 600.0, 660.0]
    md0 = got["arrays"]["md0"]
    assert md0["timeline"] == [{"state": "recovering", "start_s": 0.0, "end_s": 660.0}]
    # (7680 - 1024) blocks of 1 KiB in 600 s = 11.1 KiB/s; (8448 - 7680) in 60 s = 12.8 KiB/s
    assert md0["throughput"] == [
        {"t_s": 600.0, "kind": "recovery", "percent": 3.6, "measured_kib_s": 11.1, "kernel_speed_kib_s": 12},
        {"t_s": 660.0, "kind": "recovery", "percent": 3.9, "measured_kib_s": 12.8, "kernel_speed_kib_s": 12},
    ]
    assert md0["rebuild"] == {"start_s": 0.0, "end_s": None, "duration_s": None, "finished": False,
                              "state_after": None}
    md1 = got["arrays"]["md1"]
    assert [(s["state"], s["start_s"]) for s in md1["timeline"]] == [("optimal", 0.0), ("degraded", 600.0)]
    assert got["warnings"] == []


def test_a_finished_rebuild_has_start_end_and_duration(tmp_path):
    stamps = ["1714564800", "1714565400", "1714565460", "1714566000"]
    got = parse_trace(_trace(tmp_path, stamps, SERIES + [OPTIMAL_AFTER]))
    assert got["start"] == "2024-05-01T12:00:00+00:00"
    assert got["arrays"]["md0"]["rebuild"] == {"start_s": 0.0, "end_s": 1200.0, "duration_s": 1200.0,
                                               "finished": True, "state_after": "optimal"}


def test_date_default_format_separators(tmp_path):
    stamps = ["Wed May  1 12:00:00 UTC 2024", "Wed May  1 12:00:05 UTC 2024", "Wed May  1 12:00:10 UTC 2024"]
    got = parse_trace(_trace(tmp_path, stamps, SERIES))
    assert [s["t_s"] for s in got["snapshots"]] == [0.0, 5.0, 10.0]


def test_folder_of_snapshots_named_by_time(tmp_path):
    folder = tmp_path / "snaps"
    folder.mkdir()
    names = ["mdstat-2024-05-01T12-00-10Z.txt", "mdstat-2024-05-01T12-00-00Z.txt", "mdstat-2024-05-01T12-00-05Z.txt"]
    for name, body in zip(names, [SERIES[2], SERIES[0], SERIES[1]]):
        (folder / name).write_text(body)
    (folder / "README").write_text("notes")
    got = parse_trace(folder)
    assert [s["file"] for s in got["snapshots"]] == sorted(names)
    assert [t["percent"] for t in got["arrays"]["md0"]["throughput"]] == [3.6, 3.9]
    assert got["warnings"] == ["README: no time in the file name; not used"]


def test_samples_that_go_backwards_are_reported_with_their_line(tmp_path):
    stamps = ["2024-05-01T12:00:00Z", "2024-05-01T12:00:05Z", "2024-05-01T12:00:10Z"]
    path = _trace(tmp_path, stamps, [SERIES[0], SERIES[2], SERIES[1]])
    got = parse_trace(path)
    line = path.read_text().split("\n").index("      [>....................]  recovery =  3.6% "
                                             "(7680/208704) finish=259.6min speed=12K/sec") + 1
    assert got["warnings"] == [f"line {line}: md0 recovery went backwards from 8448 to 7680 blocks"]
    assert [t["t_s"] for t in got["arrays"]["md0"]["throughput"]] == [5.0]


def test_an_array_that_goes_missing_is_reported(tmp_path):
    without_md1 = SERIES[1].replace("md1 : active raid1 sdb2[1]\n      972574976 blocks [2/1] [_U]\n\n", "")
    stamps = ["2024-05-01T12:00:00Z", "2024-05-01T12:00:05Z", "2024-05-01T12:00:10Z"]
    path = _trace(tmp_path, stamps, [SERIES[0], without_md1, SERIES[2]])
    got = parse_trace(path)
    sep = path.read_text().split("\n").index("2024-05-01T12:00:05Z") + 1
    assert f"line {sep}: md1 is missing from this sample" in got["warnings"]
    assert [s["state"] for s in got["arrays"]["md1"]["timeline"]] == ["optimal", "absent", "degraded"]


def test_unreadable_progress_line_in_a_trace(tmp_path):
    damaged = SERIES[1].replace("recovery =  3.6%", "recovery =  3.6%%")
    path = _trace(tmp_path, ["2024-05-01T12:00:00Z", "2024-05-01T12:00:05Z"], [SERIES[0], damaged])
    got = parse_trace(path)
    assert len(got["warnings"]) == 1 and "md0: unreadable progress line" in got["warnings"][0]
    assert got["arrays"]["md0"]["throughput"] == []


def test_trace_errors(tmp_path):
    no_time = tmp_path / "a.trace"
    no_time.write_text(SERIES[0])
    with pytest.raises(ParseError, match=r"a\.trace:1: a trace must start with a time line"):
        parse_trace(no_time)
    mixed = _trace(tmp_path, ["2024-05-01T12:00:00Z", "2024-05-01T12:00:05"], SERIES[:2])
    with pytest.raises(ParseError, match="some times carry a time zone and some do not"):
        parse_trace(mixed)


@pytest.mark.parametrize("text,iso", [
    ("2024-05-01T12:00:05+02:00", "2024-05-01T12:00:05+02:00"),
    ("2024-05-01T12:00:05Z", "2024-05-01T12:00:05+00:00"),
    ("1714564805", "2024-05-01T12:00:05+00:00"),
    ("Wed May  1 12:00:05 UTC 2024", "2024-05-01T12:00:05+00:00"),
    ("Wed May  1 12:00:05 2024", "2024-05-01T12:00:05"),
])
def test_time_formats(text, iso):
    assert parse_time(text).isoformat() == iso


def test_cli_parse_mdstat_trace(tmp_path):
    path = _trace(tmp_path, ["2024-05-01T12:00:00Z", "2024-05-01T12:00:05Z"], SERIES[:2])
    result = CliRunner().invoke(main, ["parse", "mdstat-trace", str(path)])
    assert result.exit_code == 0
    assert '"state": "recovering"' in result.stdout


def test_trace_mutations_give_a_result_or_a_clean_error(tmp_path):
    stamps = ["2024-05-01T12:00:00Z", "2024-05-01T12:00:05Z", "2024-05-01T12:00:10Z"]
    lines = _trace(tmp_path, stamps, SERIES).read_text().split("\n")
    path = tmp_path / "mutated.trace"
    for i in range(len(lines)):
        for variant in (lines[:i] + lines[i + 1:], lines[: i + 1] + lines[i:],
                        lines[:i] + [lines[i].replace("1", "l").replace("0", "O")] + lines[i + 1:]):
            path.write_text("\n".join(variant))
            try:
                got = parse_trace(path)
            except ParseError:
                continue
            for t in got["arrays"].get("md0", {}).get("throughput", []):
                assert t["measured_kib_s"] >= 0 and t["kernel_speed_kib_s"] == 12


@pytest.mark.parametrize("stamp,why", [
    ("2024-05-01T12:00:60Z", "'2024-05-01T12:00:60Z' is not a time that exists (second must be in 0..59)"),
    ("Fri Feb 30 12:00:00 UTC 2024", "'Fri Feb 30 12:00:00 UTC 2024' is not a time that exists "
                                     "(day is out of range for month)"),
    ("2023-02-29 08:00:00", "'2023-02-29 08:00:00' is not a time that exists (day is out of range for month)"),
    ("Mon May  1 12:00:05 UTC 2024", "'Mon May  1 12:00:05 UTC 2024' is not a time that exists "
                                     "(1 May 2024 is a Wed)"),
])
def test_a_time_line_that_does_not_exist_is_an_error_naming_file_and_line(tmp_path, stamp, why):
    path = _trace(tmp_path, ["2024-05-01T12:00:00Z", stamp], SERIES[:2])
    line = path.read_text().split("\n").index(stamp) + 1
    with pytest.raises(ParseError) as exc:
        parse_trace(path)
    assert str(exc.value) == f"{path}:{line}: {why}"


def test_a_snapshot_file_named_by_a_time_that_does_not_exist(tmp_path):
    folder = _snaps(tmp_path, {"mdstat-2024-05-01T12-00-00Z.txt": SERIES[0],
                               "mdstat-2024-02-30T12-00-05Z.txt": SERIES[1]})
    with pytest.raises(ParseError, match="the time in its name") as exc:
        parse_trace(folder)
    assert str(exc.value) == (f"{folder}/mdstat-2024-02-30T12-00-05Z.txt: the time in its name, "
                              "'2024-02-30T12:00:05Z' is not a time that exists (day is out of range for month)")


def test_symbolic_links_are_refused_never_followed(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text(SERIES[0])
    folder = _snaps(tmp_path, {"mdstat-2024-05-01T12-00-00Z.txt": SERIES[1]})
    (folder / "mdstat-2024-05-01T12-00-05Z.txt").symlink_to(outside)
    with pytest.raises(ParseError) as exc:
        parse_trace(folder)
    assert str(exc.value) == (f"{folder}/mdstat-2024-05-01T12-00-05Z.txt: a symbolic link in a trace folder is "
                              "not followed: put the file itself there")
    trace = _trace(tmp_path, ["2024-05-01T12:00:00Z"], SERIES[:1])
    (tmp_path / "link.trace").symlink_to(trace)
    with pytest.raises(ParseError) as exc:
        parse_trace(tmp_path / "link.trace")
    assert str(exc.value) == (f"{tmp_path}/link.trace: a symbolic link is not followed: "
                              "put the trace itself in the bundle")
    (tmp_path / "linked-folder").symlink_to(folder)
    with pytest.raises(ParseError, match="a symbolic link is not followed"):
        parse_trace(tmp_path / "linked-folder")


def test_a_folder_inside_a_trace_folder_is_reported(tmp_path):
    folder = _snaps(tmp_path, {"mdstat-2024-05-01T12-00-00Z.txt": SERIES[0]})
    (folder / "old").mkdir()
    assert parse_trace(folder)["warnings"] == ["old: not a file; not used"]


def test_a_progress_line_cut_short_in_a_trace_is_kept_without_its_figures(tmp_path):
    cut = SERIES[1].replace("(7680/208704) finish=259.6min speed=12K/sec", "(7680/2087")
    path = _trace(tmp_path, ["2024-05-01T12:00:00Z", "2024-05-01T12:10:00Z", "2024-05-01T12:11:00Z"],
                  [SERIES[0], cut, SERIES[2]])
    got = parse_trace(path)
    line = path.read_text().split("\n").index("      [>....................]  recovery =  3.6% (7680/2087") + 1
    assert got["warnings"] == [f"line {line}: md0: the progress line ends in '(7680/2087' before done/total "
                               "and finish and speed: not read"]
    md0 = got["arrays"]["md0"]
    assert md0["timeline"] == [{"state": "recovering", "start_s": 0.0, "end_s": 660.0}]
    # the cut sample has no done blocks: no throughput is measured against it, before or after
    assert md0["throughput"] == []


def test_a_sample_that_does_not_come_after_the_one_before_is_an_error(tmp_path):
    # the database keys trace samples by their time: a repeated time used to pass validation and stop the build
    stamps = ["2024-05-01T12:00:00Z", "2024-05-01T12:10:00Z", "2024-05-01T12:10:00Z"]
    path = _trace(tmp_path, stamps, SERIES)
    lines = path.read_text().split("\n")
    second, third = (i + 1 for i, line in enumerate(lines) if line == "2024-05-01T12:10:00Z")
    with pytest.raises(ParseError) as exc:
        parse_trace(path)
    assert str(exc.value) == (f"{path}:{third}: 2024-05-01T12:10:00+00:00 does not come after the sample at line "
                              f"{second} (2024-05-01T12:10:00+00:00): a trace goes forward in time")
    folder = _snaps(tmp_path, {"mdstat-2024-05-01T12-00-00Z.txt": SERIES[0],
                               "mdstat-2024-05-01T12:00:00Z.txt": SERIES[1]})
    with pytest.raises(ParseError) as exc:
        parse_trace(folder)
    assert str(exc.value) == (f"{folder}: mdstat-2024-05-01T12-00-00Z.txt and mdstat-2024-05-01T12:00:00Z.txt "
                              "name the same time")


def test_a_count_beyond_what_the_kernel_prints_is_not_read(tmp_path):
    big = SERIES[1].replace("(7680/208704)", "(7680/99999999999999999999)")
    got = parse_trace(_trace(tmp_path, ["2024-05-01T12:00:00Z", "2024-05-01T12:10:00Z"], [SERIES[0], big]))
    assert got["warnings"][0].endswith("md0: 99999999999999999999 in the progress line is more than the kernel can "
                                       "count: not read")
    assert [s["state"] for s in got["arrays"]["md0"]["timeline"]] == ["recovering", "degraded"]
