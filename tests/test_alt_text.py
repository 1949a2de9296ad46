"""Every chart's text alternative is generated from its data (ingest/publish/alt_text.py): in the chart's
caption on its page, on its embed page, and as its standalone SVG's <desc>."""

from __future__ import annotations

import re

from ingest.publish import alt_text

GRAID = "graid-supremeraid-mysql-2023"
MEASURED = "measured-mariadb-2core-vm"
# Graid's per-user optimal TPS (bundle lines 189 and 191; seed 000 lines 123 and 126), 64 to 1024 users:
# SupremeRAID RAID 10 8476.39 14627.62 19889.56 22048.90 14729.23; MD RAID 10 9838.45 10510.42 10556.98
# 10221.50 8269.07
RAID10 = ("SupremeRAID RAID 10 (optimal): 5 values, lowest 8476.39 at 64 threads, highest 22048.90 at 512 threads; ")
MD10 = "Linux MD RAID 10 (optimal): 5 values, lowest 8269.07 at 1024 threads, highest 10556.98 at 256 threads; "


def _alts(html: str) -> list[str]:
    return re.findall(r'<span class="chart-alt"> In numbers: (.*?)</span>', html)


def test_lines_by_load_in_words():
    points = [{"series": "A", "state": None, "x": x, "y": y, "text": t}
              for x, y, t in [(1, 5.0, "5.00"), (2, 9.5, "9.5"), (4, 7.0, "7")]]
    points.append({"series": "B", "state": "rebuilding", "x": 8, "y": 1.0, "text": "1"})
    assert alt_text.by_x(points) == ("A: 3 values, lowest 5.00 at 1 thread, highest 9.5 at 2 threads; "
                                     "B (rebuilding): 1 at 8 threads.")
    assert alt_text.by_x([]) == ""


def test_a_study_chart_says_its_numbers_in_its_caption(built_site):
    page = (built_site.public / "studies" / GRAID / "index.html").read_text(encoding="utf-8")
    (chart,) = _alts(page)
    assert chart.startswith(RAID10 + "SupremeRAID RAID 6 (optimal)")
    assert MD10 in chart
    assert chart.count(" values, lowest ") == 8  # 4 systems in 2 states


def test_runs_over_time_in_words(built_site):
    """The measured study's doublewrite-off compressed runs: 9 logs (1, 2, 4 threads, 3 times each) of 44
    interval lines in all (grep '^\\[ [0-9]*s \\]'); their TPS from 202.00 to 479.08 and 95th-percentile
    latency from 4.49 to 19.65 ms, read from the logs."""
    page = (built_site.public / "studies" / MEASURED / "index.html").read_text(encoding="utf-8")
    assert ("9 runs, 44 samples from 1 s to 5 s; Transactions per second from 202.0 to 479.08; "
            "Latency (ms) from 4.49 to 19.65.") in _alts(page)


def test_an_embed_carries_its_own_part_in_words(built_site):
    """The rebuilding-state embed of Graid's chart speaks of the rebuilding lines only."""
    name = f"{GRAID}--tps-by-users--rebuilding"
    svg = (built_site.public / "embed" / f"{name}.svg").read_text(encoding="utf-8")
    desc = re.search(r"<desc>(.*?)</desc>", svg).group(1)
    assert desc.startswith("SupremeRAID RAID 10 (rebuilding): 5 values, lowest 7009.97 at 64 threads, "
                           "highest 16119.14 at 512 threads; ")
    assert "(optimal)" not in desc
    page = (built_site.public / "embed" / name / "index.html").read_text(encoding="utf-8")
    assert _alts(page) == [desc]
