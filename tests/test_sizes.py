"""Sizes in words: one Hugo partial (site/layouts/_partials/size.html) words every size the site shows,
in decimal units (1 KB = 1,000 bytes). Rendered here by Hugo itself, in a site of that partial alone."""

from __future__ import annotations

import subprocess

from conftest import ROOT
from ingest.build.site import hugo_binary

# bytes -> the words, each worked by hand: under 10 of a unit one decimal, from 10 none, and the unit the
# rounded figure is under 1,000 of
SIZES = [
    (0, "0 bytes"),
    (1, "1 byte"),
    (312, "312 bytes"),
    (999, "999 bytes"),
    (1000, "1.0 KB"),
    (1739, "1.7 KB"),  # measured-mariadb-2core-vm's t1-r1 log
    (9949, "9.9 KB"),
    (9950, "10 KB"),  # 9.95 KB: no longer under 10 once rounded to one decimal
    (91_000, "91 KB"),
    (59_928, "60 KB"),  # measured-mariadb-2core-vm-5min's longest log, 709 lines
    (999_499, "999 KB"),
    (999_500, "1.0 MB"),  # 999.5 KB would round to 1,000 KB: the next unit
    (2_846_969, "2.8 MB"),  # mcgrof-mysql8-docker-doublewrite-2024's log, 21,638 lines
    (145_000_000, "145 MB"),
    (3_200_000_000, "3.2 GB"),
    (2_000_000_000_000_000, "2000 TB"),
]


def test_a_size_is_in_decimal_units_with_the_digits_it_needs(tmp_path):
    site = tmp_path / "site"
    (site / "layouts" / "_partials").mkdir(parents=True)
    (site / "layouts" / "_partials" / "size.html").write_bytes(
        (ROOT / "site" / "layouts" / "_partials" / "size.html").read_bytes())
    (site / "layouts" / "home.html").write_text(
        '{{ range site.Params.sizes }}{{ partial "size.html" . }}\n{{ end }}', encoding="utf-8")
    (site / "hugo.toml").write_text(
        'baseURL = "/"\ndisableKinds = ["taxonomy", "term", "rss", "sitemap", "page", "section", "404"]\n'
        f"[params]\n  sizes = {[n for n, _ in SIZES]}\n", encoding="utf-8")
    subprocess.run([str(hugo_binary()), "--quiet", "--source", str(site), "--destination", str(tmp_path / "out")],
                   check=True, capture_output=True)
    shown = (tmp_path / "out" / "index.html").read_text(encoding="utf-8").splitlines()
    assert shown == [words for _, words in SIZES]

