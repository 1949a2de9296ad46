"""Golden tests: every corpus log, with values typed by hand from the log text.

Each expectation below was read off the log itself (the line is named in the comment), not
copied from parser output. Fixture provenance: tests/fixtures/sysbench/PROVENANCE.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.parsers.sysbench_runs import parse_file

FIXTURES = Path(__file__).parent / "fixtures" / "sysbench"


def T(**kw):  # totals, with every key the JSON carries
    base = dict.fromkeys(("transactions", "tps", "queries", "qps", "reads", "writes", "other",
                          "ignored_errors", "reconnects", "time_s", "events"))
    base.update(kw)
    return base


def L(mn, avg, mx, sm, **pct):
    return {"min": mn, "avg": avg, "max": mx, "sum": sm, "percentiles": {k.lstrip("p").replace("_", "."): v
                                                                           for k, v in pct.items()}}


def F(ea, es, ta, ts):
    return {"events_avg": ea, "events_stddev": es, "time_avg": ta, "time_stddev": ts}


def FIO(latency, options, **kw):  # a fileio run's "fileio" figures, every key; latency: (min, avg, max, {rank: ms})
    base = dict.fromkeys(("reads_s", "writes_s", "fsyncs_s", "read_mib_s", "written_mib_s", "reads", "writes",
                          "other", "total", "read_mib", "written_mib", "transferred_mib", "transferred_mib_s",
                          "requests_s"))
    base.update(kw, options=options)
    mn, avg, mx, pcts = latency
    base["latency_ms"] = {"min": mn, "avg": avg, "max": mx, "percentiles": pcts}
    return base


def OPT(**kw):  # a fileio run's options (sb_fileio.c file_print_mode); the fixtures' fsync and I/O settings
    return {"fsync_every": 100, "fsync_end": True, "fsync_all": False, "io_mode": "synchronous", **kw}


GOLDEN = {
    # "sysbench 0.4.12:", "Number of threads: 1", "Doing read-only test", OLTP test statistics block.
    "mariadbbench-0.4.12-oltp-ro-1thr.log": dict(
        sysbench_version="0.4.12", test="oltp_read_only", kind="oltp", complete=True, threads=1,
        threads_source="header", report_interval_s=None,
        totals=T(transactions=212131, tps=3535.50, queries=424262, reads=212131, writes=0, other=212131,
                 time_s=60.0003, events=212131),
        # "total time taken by event execution: 59.8391" (seconds) is the latency sum: 59839.1 ms
        latency_ms=L(0.16, 0.28, 0.99, 59839.1, p95=0.35),
        fairness=F(212131.0, 0.0, 59.8391, 0.0), intervals=0, warnings=[]),
    "web-0.4.12-oltp-ro-2thr-lastmsg-repeated.log": dict(
        sysbench_version="0.4.12", test="oltp_read_only", kind="oltp", complete=True, threads=2,
        threads_source="header", report_interval_s=None,
        totals=T(transactions=461658, tps=7694.26, queries=923316, reads=461658, writes=0, other=461658,
                 time_s=60.0003, events=461658),
        latency_ms=L(0.17, 0.26, 1.46, 119638.2, p95=0.31),
        fairness=F(230829.0, 359.0, 59.8191, 0.0), intervals=0, warnings=[]),
    # 0.5 with 'reads:'/'writes:' and 'errors:'/'reconnects:' columns, every 2 s, 25 lines [2s]..[50s].
    "mariadbbench-0.5-errors-reconnects-cols.log": dict(
        sysbench_version="0.5", test=None, kind="oltp", complete=True, threads=1, threads_source="header",
        report_interval_s=2,
        totals=T(transactions=0, tps=0.0, queries=30860, reads=0, writes=30860, other=0, ignored_errors=0,
                 reconnects=0, time_s=51.0026, events=15430),
        latency_ms=L(0.58, 3.30, 13.99, 50967.3, p95=4.09),
        fairness=F(15430.0, 0.0, 50.9673, 0.0), intervals=25,
        first={"t_s": 2, "threads": 1, "tps": 0.0, "reads_s": 0.0, "writes_s": 589.65, "latency_pct": 95,
               "latency_ms": 4.16, "errors_s": 0.0, "reconnects_s": 0.0},
        last={"t_s": 50, "writes_s": 602.00, "latency_ms": 4.06}, warnings=[]),
    "mariadbbench-0.5-ivl-reads-s-99pct.log": dict(
        sysbench_version="0.5", test=None, kind="oltp", complete=True, threads=1, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=254712, tps=424.52, queries=5094240, reads=3565968, writes=1018848, other=509424,
                 time_s=600.0017, events=254712),
        latency_ms=L(1.75, 2.35, 177.96, 599745.4, p99=2.97),
        fairness=F(254712.0, 0.0, 599.7454, 0.0), intervals=60,
        first={"t_s": 10, "tps": 416.58, "reads_s": 5833.36, "writes_s": 1666.33, "latency_pct": 99,
               "latency_ms": 3.09, "qps": None, "errors_s": None},
        last={"t_s": 600, "tps": 451.90, "reads_s": 6325.97, "writes_s": 1807.39, "latency_ms": 2.85},
        warnings=[]),
    "mariadbbench-0.5-ro-64thr-95pct.log": dict(
        sysbench_version="0.5", test=None, kind="oltp", complete=True, threads=64, threads_source="header",
        report_interval_s=5,
        totals=T(transactions=4444119, tps=14715.47, queries=71105904, reads=62217666, writes=0, other=8888238,
                 time_s=302.0032, events=4444119),
        latency_ms=L(2.04, 4.35, 18.27, 19313753.0, p95=6.40),
        fairness=F(69439.3594, 508.01, 301.7774, 0.0), intervals=60,
        first={"t_s": 5, "threads": 64, "tps": 14900.10, "reads_s": 208693.21, "latency_ms": 6.16},
        last={"t_s": 300, "tps": 14631.38, "reads_s": 204854.93, "latency_ms": 6.40}, warnings=[]),
    "mariadbbench-0.5-timer-warning.log": dict(
        sysbench_version="0.5", test=None, kind="oltp", complete=True, threads=128, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=2735949, tps=4559.81, queries=54718980, reads=38303286, writes=10943796,
                 other=5471898, time_s=600.0135, events=2735949),
        latency_ms=L(2.88, 28.07, 358.08, 76793181.0, p99=113.74),
        fairness=F(21374.6016, 65.28, 599.9467, 0.0), intervals=60,
        first={"t_s": 10, "threads": 128, "tps": 4608.49, "latency_ms": 107.61},
        last={"t_s": 600, "tps": 4594.57, "writes_s": 18384.06, "latency_ms": 107.20},
        warnings=["line 11: sysbench reported: WARNING: timer was never started"]),
    # 1.0, no version line; "Number of threads: 8"; one interval line; --events=5000.
    "web-1.0-oltp-rw-events-limited-no-version-header.log": dict(
        sysbench_version=None, test=None, kind="oltp", complete=True, threads=8, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=5000, tps=490.88, queries=100000, qps=9817.55, reads=70000, writes=20000,
                 other=10000, ignored_errors=0, reconnects=0, time_s=10.1842, events=5000),
        latency_ms=L(4.90, 16.27, 90.16, 81359.15, p95=28.67),
        fairness=F(625.0, 13.28, 10.1699, 0.0), intervals=1,
        first={"t_s": 10, "threads": 8, "tps": 492.07, "qps": 9853.57, "reads_s": 6898.83, "writes_s": 1969.89,
               "other_s": 984.85, "latency_pct": 95, "latency_ms": 28.67, "errors_s": 0.0, "reconnects_s": 0.0},
        warnings=[]),
    # zsh prompt + command line first (names oltp_read_write.lua), 15 intervals of 20 s.
    "web-1.0.20-oltp-rw-ivl20-shell-prompt.log": dict(
        sysbench_version="1.0.20", test="oltp_read_write", kind="oltp", complete=True, threads=64,
        threads_source="header", report_interval_s=20,
        totals=T(transactions=9328, tps=30.99, queries=186560, qps=619.85, reads=130592, writes=37312,
                 other=18656, ignored_errors=0, reconnects=0, time_s=300.9748, events=9328),
        latency_ms=L(46.40, 2064.81, 10765.52, 19260519.10, p95=3706.08),
        fairness=F(145.75, 3.03, 300.9456, 0.11), intervals=15,
        first={"t_s": 20, "tps": 10.85, "qps": 262.93, "latency_ms": 8638.96},
        last={"t_s": 300, "tps": 32.15, "qps": 641.59, "reads_s": 449.30, "latency_ms": 2362.72},
        warnings=[]),
    # Non-database tests: recognised by kind, never OLTP.
    "web-1.0-cpu-no-version-header.log": dict(
        sysbench_version=None, test=None, kind="cpu", complete=True, threads=1, threads_source="header",
        report_interval_s=None, totals=T(time_s=10.0002, events=3540),
        latency_ms=L(2.37, 2.82, 5.22, 9991.08, p95=3.49),
        fairness=F(3540.0, 0.0, 9.9911, 0.0), intervals=0, warnings=[]),
    "web-1.0.20-fileio-rndrw.log": dict(
        sysbench_version="1.0.20", test=None, kind="fileio", complete=True, threads=1, threads_source="header",
        report_interval_s=None, totals=T(time_s=30.1454, events=51268),
        latency_ms=L(0.00, 0.58, 70.02, 29915.68, p95=1.64),
        fairness=F(51268.0, 0.0, 29.9157, 0.0), intervals=0, warnings=[],
        # "File operations:" reads/s 447.81, writes/s 298.54, fsyncs/s 958.51; "Throughput:" 7.00 and 4.66 MiB/s
        # its options, lines 8-17: "(none)", "128 files, 8MiB each", "1GiB total file size", "Block size 16KiB",
        # fsync() each 100 requests and at the end (no "after each write" line), synchronous, "random r/w"
        fileio=FIO((0.00, 0.58, 70.02, {"95": 1.64}),
                   OPT(extra_flags="(none)", o_direct=False, files=128, file_size_mib=8, total_size="1GiB",
                       total_size_mib=1024, block_size="16KiB", block_size_kib=16, mode="rndrw"), reads_s=447.81, writes_s=298.54, fsyncs_s=958.51,
                   read_mib_s=7.00, written_mib_s=4.66)),
    "web-1.1.0-cpu-p99-systemd-run-interleaved.log": dict(
        sysbench_version="1.1.0-df89d34c410a", test="cpu", kind="cpu", complete=True, threads=4,
        threads_source="header", report_interval_s=None, totals=T(time_s=10.0006, events=64596),
        latency_ms=L(0.60, 0.62, 1.35, 39994.67, p99=0.64),
        fairness=F(16149.0, 18.12, 9.9987, 0.0), intervals=0, warnings=[]),
    "web-1.1.0-cpu-histogram-p99.log": dict(
        sysbench_version="1.1.0-df89d34c410a", test="cpu", kind="cpu", complete=True, threads=8,
        threads_source="header", report_interval_s=None, totals=T(time_s=10.0017, events=64822),
        latency_ms=L(0.62, 1.23, 57.69, 79991.86, p99=49.21),
        fairness=F(8102.75, 156.76, 9.9990, 0.0), intervals=0, warnings=[],
        # 34 rows from "0.619 | ... 60564" (line 17) to "57.871 | ... 95" (line 50)
        histogram=(34, {"value_ms": 0.619, "count": 60564, "line": 17}, {"value_ms": 57.871, "count": 95, "line": 50})),
    # Hand-made from sysbench's source (PROVENANCE.md names the function each shape follows).
    # 0.4.12.10: a four-part version and "Intermediate results" interval lines every 10 s.
    "handmade-0.4.12.10-oltp-intermediate-results.log": dict(
        sysbench_version="0.4.12.10", test="oltp", kind="oltp", complete=True, threads=8,
        threads_source="header", report_interval_s=10,
        totals=T(transactions=17560, tps=585.33, queries=368760, reads=245840, writes=87800, other=35120,
                 time_s=30.0001, events=17560),
        # "total time taken by event execution: 239.8321" (seconds): 239832.1 ms
        latency_ms=L(3.12, 13.66, 92.40, 239832.1, p99=47.85),
        fairness=F(2195.0, 21.34, 29.9790, 0.01), intervals=3,
        first={"t_s": 10, "threads": 8, "tps": 582.99, "qps": None, "reads_s": 8233.31, "writes_s": 2940.46,
               "other_s": None, "latency_pct": 99, "latency_ms": 48.26},
        last={"t_s": 30, "tps": 585.00, "reads_s": 8190.00, "writes_s": 2925.00, "latency_ms": 47.90},
        lines=[1, 47], warnings=[]),
    # the later 0.4.12.10 interval line: "%6f" figures and the interval's min and max; no summary.
    "handmade-0.4.12.10-ivl-min-max-cut.log": dict(
        sysbench_version="0.4.12.10", test="oltp_read_only", kind="oltp", complete=False, threads=4,
        threads_source="header", report_interval_s=5, totals=T(),
        latency_ms=L(None, None, None, None), fairness=F(None, None, None, None), intervals=3,
        first={"t_s": 5, "threads": 4, "tps": 9120.4, "reads_s": 9120.4, "writes_s": 0.0, "latency_pct": 95,
               "latency_ms": 0.612, "latency_min_ms": 0.301, "latency_max_ms": 4.876},
        last={"t_s": 15, "tps": 9288.2, "latency_ms": 0.601, "latency_min_ms": 0.299, "latency_max_ms": 5.002},
        warnings=["line 19: the log ends after the interval reports: no final statistics"]),
    # a reader's notes after a TAB on two figure lines: the figures are read, the notes named.
    "handmade-1.0.20-oltp-rw-tab-notes.log": dict(
        sysbench_version="1.0.20", test=None, kind="oltp", complete=True, threads=4, threads_source="header",
        report_interval_s=None,
        totals=T(transactions=31434, tps=523.86, queries=628680, qps=10477.20, reads=440076, writes=125736,
                 other=62868, ignored_errors=0, reconnects=0, time_s=60.0046, events=31434),
        latency_ms=L(3.05, 7.63, 65.21, 239869.41, p95=10.46),
        fairness=F(7858.5, 40.12, 59.9674, 0.0), intervals=0,
        warnings=["line 14: text after the figure for 'read' is not sysbench output: 'reads in total'",
                  "line 15: text after the figure for 'write' is not sysbench output: 'writes in total'"]),
    # "[root@db01 ~]# sysbench oltp_read_only ... --threads=16 ... run" first, a bare prompt last.
    "handmade-1.0.17-oltp-ro-rhel-prompt.log": dict(
        sysbench_version="1.0.17", test="oltp_read_only", kind="oltp", complete=True, threads=16,
        threads_source="header", report_interval_s=10,
        totals=T(transactions=73056, tps=2434.78, queries=1168896, qps=38956.45, reads=1022784, writes=0,
                 other=146112, ignored_errors=0, reconnects=0, time_s=30.0052, events=73056),
        latency_ms=L(2.01, 6.57, 41.77, 480065.62, p95=8.28),
        fairness=F(4566.0, 35.22, 30.0041, 0.0), intervals=3,
        first={"t_s": 10, "threads": 16, "tps": 2410.35, "qps": 38565.60, "reads_s": 33744.90, "writes_s": 0.0,
               "other_s": 4820.70, "latency_pct": 95, "latency_ms": 8.43},
        last={"t_s": 30, "tps": 2440.20, "qps": 39043.20},
        command_options={"mysql-host": "10.0.0.5", "mysql-user": "sbtest", "mysql-password": "(not kept)",
                         "tables": "8", "table-size": "1000000", "threads": "16", "time": "30",
                         "report-interval": "10"},
        lines=[1, 43], warnings=[]),
    # nothing but 1.0 interval lines: the thread count from "thds: 8", an OLTP run by its tps column.
    "handmade-1.0-oltp-rw-intervals-only.log": dict(
        sysbench_version=None, test=None, kind="oltp", complete=False, threads=8, threads_source="intervals",
        report_interval_s=None, totals=T(), intervals=5,
        first={"t_s": 1, "threads": 8, "tps": 1021.87, "qps": 20437.40, "reads_s": 14306.18, "writes_s": 4087.48,
               "other_s": 2043.74, "latency_pct": 95, "latency_ms": 9.73},
        last={"t_s": 5, "tps": 1050.01, "latency_ms": 9.22},
        warnings=["line 5: the log ends after the interval reports: no final statistics"]),
    # 0.4 fileio: "Operations performed: ... Total", "Read ... Written ...", "Requests/sec executed".
    "handmade-0.4.12-fileio-rndrw.log": dict(
        sysbench_version="0.4.12", test=None, kind="fileio", complete=True, threads=4, threads_source="header",
        report_interval_s=None, totals=T(time_s=30.0001, events=10000),
        latency_ms=L(0.01, 11.97, 310.55, 119671.2, p95=45.12),
        fairness=F(2500.0, 41.27, 29.9178, 0.01), intervals=0,
        other_statistics={"reads": 6000, "writes": 4000, "other": 12800, "total": 22800, "read": "93.75Mb",
                          "written": "62.5Mb", "transferred": "156.25Mb", "per second": "5.2083Mb",
                          "requests/s": 333.33},
        # the same lines as fileio figures, the "Mb" sizes (MiB: sb_print_value_size divides by 1024) as MiB
        # its options, lines 6-15: flags "0" (%x: none), "128 files, 16Mb each", "2Gb total file size",
        # "Block size 16Kb" (0.4's Mb and Kb are MiB and KiB), fsync each 100 and at the end, "random r/w"
        fileio=FIO((0.01, 11.97, 310.55, {"95": 45.12}),
                   OPT(extra_flags="0", o_direct=False, files=128, file_size_mib=16, total_size="2Gb",
                       total_size_mib=2048, block_size="16Kb", block_size_kib=16, mode="rndrw"), reads=6000, writes=4000, other=12800, total=22800,
                   read_mib=93.75, written_mib=62.5, transferred_mib=156.25, transferred_mib_s=5.2083,
                   requests_s=333.33),
        warnings=[]),
    # 1.0 memory: its options, "[ 5s ] 4870.25 MiB/sec" interval lines, "Total operations", "MiB transferred".
    "handmade-1.0.20-memory-ivl.log": dict(
        sysbench_version="1.0.20", test=None, kind="memory", complete=True, threads=2, threads_source="header",
        report_interval_s=5, totals=T(time_s=10.0001, events=50088960),
        latency_ms=L(0.00, 0.00, 0.92, 15026.69, p95=0.00),
        fairness=F(25044480.0, 1200.0, 7.5133, 0.02), intervals=2,
        first={"t_s": 5, "threads": None, "tps": None, "latency_ms": None, "mib_s": 4870.25},
        last={"t_s": 10, "mib_s": 4912.75},
        test_options={"block size": "1KiB", "total size": "102400MiB", "operation": "write", "scope": "global"},
        other_statistics={"operations": 50088960, "operations/s": 5008845.91, "MiB transferred": 48915.00,
                          "MiB/s": 4891.45},
        warnings=[]),
    # 1.0 fileio with "[ 10s ] reads: .. MiB/s writes: .. MiB/s fsyncs: ../s latency (ms,95%): .." lines.
    "handmade-1.0.20-fileio-seqwr-ivl.log": dict(
        sysbench_version="1.0.20", test=None, kind="fileio", complete=True, threads=1, threads_source="header",
        report_interval_s=10, totals=T(time_s=30.0032, events=390105),
        latency_ms=L(0.01, 0.08, 36.52, 29801.47, p95=0.09),
        fairness=F(390105.0, 0.0, 29.8015, 0.0), intervals=3,
        first={"t_s": 10, "threads": None, "latency_pct": 95, "latency_ms": 0.085, "read_mib_s": 0.0,
               "written_mib_s": 205.32, "fsyncs_s": 131.40},
        last={"t_s": 30, "written_mib_s": 201.15, "fsyncs_s": 128.74, "latency_ms": 0.086},
        other_statistics={"reads/s": 0.0, "writes/s": 12873.38, "fsyncs/s": 128.73, "read, MiB/s": 0.0,
                          "written, MiB/s": 201.15},
        # its options, lines 9-16: "(none)", "128 files, 16MiB each", "2GiB total file size", "Block size
        # 16KiB", fsync each 100 and at the end, synchronous, "sequential write (creation)": seqwr
        fileio=FIO((0.01, 0.08, 36.52, {"95": 0.09}),
                   OPT(extra_flags="(none)", o_direct=False, files=128, file_size_mib=16, total_size="2GiB",
                       total_size_mib=2048, block_size="16KiB", block_size_kib=16, mode="seqwr"), reads_s=0.0, writes_s=12873.38, fsyncs_s=128.73,
                   read_mib_s=0.0, written_mib_s=201.15),
        warnings=[]),
    # Shapes of issue #51 (hand-made; PROVENANCE.md names what each follows).
    # 0.5 interval latency in microseconds: "response time: 13426.06us (95%)" is 13.42606 ms.
    "handmade-0.5-oltp-rw-ivl-latency-us.log": dict(
        sysbench_version="0.5", test=None, kind="oltp", complete=True, threads=8, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=23010, tps=766.95, queries=460200, reads=322140, writes=92040, other=46020,
                 time_s=30.0021, events=23010),
        # "total time taken by event execution: 239.9871s": 239987.1 ms
        latency_ms=L(2.11, 10.43, 87.35, 239987.1, p95=13.42),
        fairness=F(2876.25, 12.04, 29.9984, 0.0), intervals=3,
        first={"t_s": 10, "threads": 8, "tps": 765.10, "qps": None, "reads_s": 10711.40, "writes_s": 3060.40,
               "other_s": None, "latency_pct": 95, "latency_ms": 13.42606},
        last={"t_s": 30, "tps": 766.70, "reads_s": 10733.80, "writes_s": 3066.80, "latency_ms": 13.4417},
        warnings=[]),
    # sysbench-tpcc --report_csv=yes: "10,16,401.30,11842.66,5395.88,5628.28,818.50,87.56,1.20,0.00" lines.
    "handmade-1.0.20-tpcc-report-csv.log": dict(
        sysbench_version="1.0.20", test="tpcc", kind="tpcc", complete=True, threads=16, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=12003, tps=399.93, queries=354248, qps=11803.40, reads=161378, writes=168420,
                 other=24450, ignored_errors=32, reconnects=0, time_s=30.0124, events=12003),
        latency_ms=L(1.02, 39.98, 612.40, 479880.05, p95=88.16),
        fairness=F(750.1875, 14.22, 29.9925, 0.0), intervals=3,
        # no --percentile on the command line: sysbench's default, 95
        first={"t_s": 10, "threads": 16, "tps": 401.30, "qps": 11842.66, "reads_s": 5395.88, "writes_s": 5628.28,
               "other_s": 818.50, "latency_pct": 95, "latency_ms": 87.56, "errors_s": 1.20, "reconnects_s": 0.0},
        last={"t_s": 30, "threads": 16, "tps": 400.10, "qps": 11806.42, "latency_ms": 88.41, "errors_s": 1.10},
        command_options={"mysql-socket": "/tmp/mysql.sock", "mysql-user": "root", "mysql-db": "sbt", "time": "30",
                         "threads": "16", "report-interval": "10", "tables": "10", "scale": "100",
                         "db-driver": "mysql", "report_csv": "yes"},
        lines=[1, 41], warnings=[]),
    # a UTF-8 byte order mark before "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)" on line 1.
    "handmade-1.0.20-point-select-bom.log": dict(
        sysbench_version="1.0.20", test=None, kind="oltp", complete=True, threads=4, threads_source="header",
        report_interval_s=None,
        totals=T(transactions=98765, tps=9875.41, queries=98765, qps=9875.41, reads=98765, writes=0, other=0,
                 ignored_errors=0, reconnects=0, time_s=10.0011, events=98765),
        latency_ms=L(0.09, 0.40, 7.36, 39820.46, p95=0.55),
        fairness=F(24691.25, 118.40, 9.9551, 0.0), intervals=0, lines=[1, 36], warnings=[]),
    # 1.1 --warmup-time=60: "Warming up for 60 seconds..." (line 16) is sysbench's own line.
    "handmade-1.1.0-cpu-warmup.log": dict(
        sysbench_version="1.1.0-df89d34c410a", test="cpu", kind="cpu", complete=True, threads=2,
        threads_source="header", report_interval_s=None, totals=T(time_s=30.0004, events=86896),
        latency_ms=L(0.66, 0.69, 2.13, 59958.21, p95=0.72),
        fairness=F(43448.0, 52.0, 29.9791, 0.0), intervals=0, lines=[1, 35], warnings=[]),
    # "999th percentile: 21.89" is the 99.9th percentile.
    "handmade-1.0.20-oltp-ro-999th-percentile.log": dict(
        sysbench_version="1.0.20", test=None, kind="oltp", complete=True, threads=8, threads_source="header",
        report_interval_s=None,
        totals=T(transactions=100154, tps=1669.13, queries=1602464, qps=26706.04, reads=1402156, writes=0,
                 other=200308, ignored_errors=0, reconnects=0, time_s=60.0038, events=100154),
        latency_ms=L(1.87, 4.79, 38.02, 479781.66, p99_9=21.89),
        fairness=F(12519.25, 41.90, 59.9727, 0.0), intervals=0, warnings=[]),
    # two prepare attempts that fail ("FATAL: failed to create test table", lines 7 and 14), then a whole run.
    "handmade-0.4.12-failed-prepare-then-run.log": dict(
        sysbench_version="0.4.12", test="oltp", kind="oltp", complete=True, threads=2, threads_source="header",
        report_interval_s=None,
        totals=T(transactions=41230, tps=687.15, queries=824600, reads=577220, writes=164920, other=82460,
                 time_s=60.0012, events=41230),
        # "total time taken by event execution: 119.9694" (seconds): 119969.4 ms
        latency_ms=L(1.21, 2.91, 45.87, 119969.4, p95=4.12),
        fairness=F(20615.0, 31.0, 59.9847, 0.0), intervals=0, lines=[15, 54],
        warnings=["line 1: lines 1-7 are a sysbench run that failed (line 7: FATAL: failed to create test table); "
                  "not read as a run",
                  "line 8: lines 8-14 are a sysbench run that failed (line 14: FATAL: failed to create test table); "
                  "not read as a run"]),
    # --rate=100 with 16 threads ("Target transaction rate: 100/sec"): 100.01 tps x 5.40 ms keeps 0.54
    # threads busy, not 16, and no Little's law warning is due; the queue reports are kept.
    "handmade-1.0.20-oltp-ro-rate-limited.log": dict(
        sysbench_version="1.0.20", test=None, kind="oltp", complete=True, threads=16, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=3001, tps=100.01, queries=48016, qps=1600.20, reads=42014, writes=0, other=6002,
                 ignored_errors=0, reconnects=0, time_s=30.0062, events=3001),
        latency_ms=L(3.02, 5.40, 19.44, 16199.87, p95=6.91),
        fairness=F(187.5625, 3.12, 1.0125, 0.05), intervals=3,
        first={"t_s": 10, "threads": 16, "tps": 99.80, "qps": 1596.80, "reads_s": 1397.20, "writes_s": 0.0,
               "other_s": 199.60, "latency_pct": 95, "latency_ms": 6.91},
        last={"t_s": 30, "threads": 16, "tps": 99.90, "latency_ms": 6.85},
        queue=[{"t_s": 10, "length": 0, "concurrency": 1, "line": 15},
               {"t_s": 20, "length": 0, "concurrency": 0, "line": 17},
               {"t_s": 30, "length": 0, "concurrency": 1, "line": 19}],
        warnings=[]),
    # the last two interval lines show 11 and 4 threads as the run's 16 finish: no warning.
    "handmade-0.5-oltp-rw-ramp-down.log": dict(
        sysbench_version="0.5", test=None, kind="oltp", complete=True, threads=16, threads_source="header",
        report_interval_s=10,
        totals=T(transactions=40000, tps=798.03, queries=800000, reads=560000, writes=160000, other=80000,
                 time_s=50.1236, events=40000),
        latency_ms=L(2.35, 15.75, 96.41, 630120.0, p95=19.85),
        fairness=F(2500.0, 48.71, 39.3825, 6.42), intervals=5,
        first={"t_s": 10, "threads": 16, "tps": 1000.00, "reads_s": 14000.00, "latency_ms": 19.84},
        last={"t_s": 50, "threads": 4, "tps": 195.10, "writes_s": 780.40, "latency_ms": 12.66},
        warnings=[]),
    # sysbench's own cram templates: globbed values are unreadable, never guessed.
    "sysbench-repo-CRAMTEMPLATE-1.0.20-cpu-run.log": dict(
        sysbench_version=None, kind="cpu", complete=False, threads=2, totals=T(events=100),
        latency_ms=L(None, None, None, None), fairness=F(None, None, None, None), intervals=0),
    "sysbench-repo-CRAMTEMPLATE-master-histogram.log": dict(
        sysbench_version=None, kind=None, complete=False, threads=2, totals=T(events=2),
        fairness=F(1.0, 0.0, None, None), intervals=0, histogram=(0, None, None)),
}


# Files of several runs: tests/test_sysbench_wild.py reads them run by run.
SEVERAL_RUNS = {"handmade-1.0.20-point-select-three-runs.log"}


def test_every_corpus_log_has_a_golden():
    assert sorted(GOLDEN) == sorted(p.name for p in FIXTURES.glob("*.log") if p.name not in SEVERAL_RUNS)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden(name):
    expected = dict(GOLDEN[name])
    got = parse_file(FIXTURES / name)
    intervals = expected.pop("intervals")
    assert len(got["intervals"]) == intervals
    for key in ("first", "last"):
        if key in expected:
            row = got["intervals"].to_rows()[0 if key == "first" else -1]
            assert {k: row[k] for k in expected[key]} == expected.pop(key)
    if "histogram" in expected:
        count, first, last = expected.pop("histogram")
        assert len(got["histogram"]) == count
        if count:
            assert (got["histogram"][0], got["histogram"][-1]) == (first, last)
    for key, value in expected.items():
        assert got[key] == value, key


def test_cram_templates_warn_about_every_globbed_value():
    got = parse_file(FIXTURES / "sysbench-repo-CRAMTEMPLATE-1.0.20-cpu-run.log")
    assert got["warnings"][:3] == [
        "line 1: unreadable version '*.*'",
        "line 15: unreadable value for 'events per second': '*.* (glob)'",
        "line 18: unreadable value for 'total time': '*s (glob)'",
    ]
    assert len(got["warnings"]) == 10


def test_interval_spread_is_reported():
    got = parse_file(FIXTURES / "web-1.0.20-oltp-rw-ivl20-shell-prompt.log")
    tps = [10.85, 21.50, 27.45, 27.00, 32.10, 29.20, 35.40, 36.25, 35.90, 36.45, 35.25, 34.70, 37.05, 31.95, 32.15]
    mean = sum(tps) / len(tps)
    cv = (sum((x - mean) ** 2 for x in tps) / len(tps)) ** 0.5 / mean
    assert got["interval_tps_cv"] == round(cv, 4)
