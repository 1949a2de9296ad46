"""`benchdb diff`: what a change does to the data, between two folders of bundles or two git refs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from ingest.contribute.diff import diff
from ingest.contribute.diff_markdown import markdown

GRAID = "graid-supremeraid-mysql-2023"


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def sides(tmp_path_factory) -> tuple[Path, Path]:
    """data/ as it is, and a copy with one value changed (22048.90 as 22148.90, Graid's table line 123),
    a claim restated (22% -> 27%: its verdict goes from understated to holds), a line added at the top
    of a bundle, and the Seagate study removed."""
    tmp = tmp_path_factory.mktemp("diff")
    base, head = tmp / "base", tmp / "head"
    shutil.copytree(ROOT / "data", base)
    shutil.copytree(ROOT / "data", head)
    bundle = head / GRAID / "bundle.yaml"
    _edit(bundle, 'line: 123, values: "8476.39 14627.62 19889.56 22048.90', 'line: 123, values: "8476.39 14627.62 19889.56 22148.90')
    _edit(bundle, "    stated: 22\n    unit: \"% (largest drop, rebuilding vs optimal)\"\n    tolerance: 1\n",
          "    stated: 27\n    unit: \"% (largest drop, rebuilding vs optimal)\"\n    tolerance: 1\n")
    _edit(bundle, "    verdict: understated\n    reason: \"The drop is 26.9% at 512 users",
          "    verdict: holds\n    reason: \"The drop is 27.2% at 512 users")
    bundle.write_text("# a comment moves every line down\n" + bundle.read_text(encoding="utf-8"), encoding="utf-8")
    shutil.rmtree(head / "seagate-nytro-mysql-2015")
    return base, head


@pytest.fixture(scope="module")
def report(sides) -> dict:
    base, head = sides
    return diff(str(base), str(head), repo=ROOT)


def test_a_changed_value_is_listed_with_both_sides_and_nothing_else_of_its_study(report):
    mine = [v for v in report["values"] if v["study"] == GRAID]
    assert [(v["result"], v["row_label"], v["column_label"], v["change"], v["old_value_text"], v["new_value_text"])
            for v in mine] == [("tps-optimal", "SupremeRAID™ RAID 10", "512 Users", "changed", "22048.90", "22148.90")]
    assert mine[0]["new_provenance"].endswith("row SupremeRAID™ RAID 10, column 512 Users")


def test_a_removed_study_takes_its_values_systems_and_claims(report):
    assert [(s["study"], s["change"]) for s in report["studies"]] == [("seagate-nytro-mysql-2015", "removed")]
    assert {(v["change"], v["old_value_text"]) for v in report["values"] if v["study"] == "seagate-nytro-mysql-2015"} == {
        ("removed", "412.33"), ("removed", "1328.06"), ("removed", "0.242"), ("removed", "0.075")}
    assert [(s["system"], s["change"]) for s in report["systems"]] == [("competitor", "removed"), ("nytro", "removed")]


def test_a_verdict_that_changes_is_named_with_both_verdicts(report):
    assert [(c["claim"], c["fields"]["verdict"]) for c in report["verdicts"]] == [
        ("decline-supremeraid-raid10", ["understated", "holds"])]
    changed = next(c for c in report["claims"] if c["claim"] == "decline-supremeraid-raid10")
    assert changed["fields"]["stated"] == [22.0, 27.0]


def test_facet_pages_that_show_a_changed_study(report):
    assert report["facet_pages"] == {"/storage-product/": [GRAID, "seagate-nytro-mysql-2015"],
                                     "/raid-level/": [GRAID], "/array-state/": [GRAID]}


def test_markdown_for_the_job_summary(report):
    text = markdown(report)
    assert text.splitlines()[:3] == [
        f"## What `{report['head']}` changes in the data of `{report['base']}`", "",
        "studies: 1 removed; systems: 2 removed; values: 4 removed, 1 changed; claims: 2 removed, 1 changed; "
        "claim verdicts that change: 1."]
    assert ("| `tps-optimal` | `SupremeRAID™ RAID 10` | `512 Users` | `changed` | `22048.90 tx/s (exact)` | "
            "`22148.90 tx/s (exact)` |") in text
    assert "- `graid-supremeraid-mysql-2023` / `decline-supremeraid-raid10`: " in text
    assert "verdict: `understated` → `holds`" in text


HOSTILE = ["\r\r## All checks passed\r\r<img src=\"https://evil.example/pixel.png\">", "a | b || c\\|",
           "`` code ` ticks", "` edge`", "  spaced  ", "https://evil.example/x www.evil.example",
           "[link](https://evil.example) ![img](https://evil.example/i.png) **bold** &lt;b&gt; &#60;i>",
           "<script>alert(1)</script>\n- item\r\n| x | y |\n|---|---|", "\\` \\| \\"]


def _summary_of(labels: list[str]) -> dict:
    """A report whose every text from the data is one of ``labels``, in every place markdown() writes one."""
    def value(label: str) -> dict:
        return {"study": "s", "result": label, "row_label": label, "column_label": label, "change": "changed",
                "old_value_text": label, "old_unit": label, "old_value_kind": "exact", "new_value_text": label,
                "new_unit": label, "new_value_kind": "exact", "new_provenance": label, "old_provenance": None}
    return {"head": labels[0], "base": labels[-1], "studies_touched": ["s"], "verdicts": [],
            "studies": [{"study": "s", "change": "changed", "fields": {"title": [label, label]}} for label in labels],
            "systems": [{"study": "s", "system": label, "change": "added"} for label in labels],
            "values": [value(label) for label in labels],
            "claims": [{"study": "s", "claim": label, "change": "changed", "fields": {"text": [label, None]}}
                       for label in labels],
            "facet_pages": {"/raid-level/": labels}}


def _rendered(text: str) -> tuple[list[str], list[str]]:
    """The elements cmark-gfm (GitHub's Markdown, raw HTML let through) makes of ``text``, and the
    texts of its code spans."""
    import html.parser

    import cmarkgfm
    from cmarkgfm.cmark import Options

    class Tags(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.codes, self.in_code = [], [], False

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            self.in_code = tag == "code"
            if self.in_code:
                self.codes.append("")

        def handle_endtag(self, tag):
            self.in_code = False if tag == "code" else self.in_code

        def handle_data(self, data):
            if self.in_code:
                self.codes[-1] += data

    parser = Tags()
    parser.feed(cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE))
    return parser.tags, parser.codes


def test_no_label_makes_an_element_of_the_job_summary():
    """Hostile labels (a heading and an image after carriage returns, pipes, backticks, bare and Markdown
    links, HTML and entities) give the summary the same elements as plain ones, each label whole in its
    code span with its line breaks as spaces (issue #49)."""
    hostile_tags, codes = _rendered(markdown(_summary_of(HOSTILE)))
    plain_tags, _ = _rendered(markdown(_summary_of([f"label{i}" for i in range(len(HOSTILE))])))
    assert hostile_tags == plain_tags
    assert not {"img", "a", "script", "h1", "strong", "b", "i"} & set(hostile_tags)
    assert hostile_tags.count("h2") == 1
    for label in HOSTILE:
        shown = label.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
        assert shown in codes, label


def test_two_git_refs_and_the_command(tmp_path, sides):
    base, head = sides
    repo = tmp_path / "repo"
    shutil.copytree(base, repo / "data")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "data"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "base"], check=True)
    shutil.rmtree(repo / "data")
    shutil.copytree(head, repo / "data")
    subprocess.run([*git, "add", "-A", "data"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "head"], check=True)
    from_refs = diff("HEAD~1", "HEAD", repo=repo)
    from_folders = diff(str(base), str(head), repo=ROOT)
    assert {k: v for k, v in from_refs.items() if k not in ("base", "head")} == {
        k: v for k, v in from_folders.items() if k not in ("base", "head")}
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([str(benchdb), "diff", str(base), str(base)], cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (0, "No study, system, value or claim changes.")
    done = subprocess.run([str(benchdb), "diff", "no-such-ref", str(base)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and done.stderr.startswith("Error: no-such-ref: not a git ref with a data/ folder")


@pytest.mark.parametrize("ref", ["--output={target}", "--list", "--exec=touch {target}", "-o{target}", "HEAD\n--list"])
def test_a_ref_is_never_an_option_of_git(tmp_path, ref):
    """`benchdb diff -- --output=FILE HEAD` truncated FILE through git archive (issue #49): a ref is looked
    up after --end-of-options, and one that names no commit is one line, with nothing written."""
    target = tmp_path / "target"
    target.write_text("kept\n")
    ref = ref.format(target=target)
    benchdb = Path(sys.executable).parent / "benchdb"
    done = subprocess.run([str(benchdb), "diff", "--", ref, "HEAD"], cwd=ROOT, capture_output=True, text=True)
    shown = ref if ref.isprintable() else repr(ref)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"Error: {shown}: not a git ref with a data/ folder (no commit has that name)\n"
    assert target.read_text() == "kept\n"


def test_a_preview_base_is_never_an_option_of_git(tmp_path):
    from ingest.contribute.preview import preview_data

    target = tmp_path / "target"
    environ = {"CONTEXT": "deploy-preview", "REVIEW_ID": "7", "PREVIEW_BASE": f"--output={target}"}
    shown = preview_data(data=ROOT / "data", repo=ROOT, environ=environ)
    assert shown["studies"] is None
    assert shown["why"] == f"--output={target}: not a git ref with a data/ folder (no commit has that name)"
    assert not target.exists()
