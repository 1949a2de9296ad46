"""YAML read from the parser's events (ingest/bundles/yamlfile.py, _from_events) gives what the long way gives
(PyYAML's nodes composed, constructed and walked for their lines): the same values of the same types,
the same lines, the same numbers kept as text and the same problems, or it leaves the file to the long
way. Checked on every YAML file of the project (bundles, fixtures, schema) and on documents made for
the cases around it."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ingest.bundles.yamlfile import YamlProblem, _from_events, _loader, _read, _the_long_way, _Unusual

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(p for folder in ("data", "tests", "schema") for p in (ROOT / folder).rglob("*.yaml"))

# read from the events
EVENTS = {
    "numbers": "a: 1\nb: [1, 2.5, -3, +4, .5, 1., -.inf, .NaN, 0, -0, 010, 0x10, 1_000, 1:30]\n",
    "words read as null or true/false": "a: yes\nb: No\nc: ~\nd: null\ne:\nf: ''\ng: 'yes'\nh: \"1\"\n"
                                        "i: true\nj: Off\n",
    "dates stay text": "a: 2023-05-01\nb: 2023-05\nc: 12:30:00\n",
    "aliases of a mapping": "x: &a {p: 1, q: [1, 2]}\ny: *a\nz: [*a, *a]\n",
    "an alias of a number kept as text": "- &s 12345678901234567890123\n- *s\n- {k: *s}\n",
    "numbers kept as text inside an alias": "big: 1.00000000000000000000001\nlist: &l [9007199254740993, 1e400, x]\n"
                                            "again: *l\n",
    "an alias of a key": "&k key: value\nother: *k\n",
    "aliases inside an anchored node": "a: &o\n  b: &i\n    c: 1\n  d: *i\ne: *o\nf: [*o, *i]\n",
    "anchors inside anchors": "a: &a [1, &b {c: 2}, *b]\nb: *a\nc: {d: *a, e: *b}\n",
    "an alias three times in a list": "l: &l [1]\nm: [*l, *l, *l]\n",
    "a number kept as text, aliased in a list and a mapping": "a:\n  - &n 1.0000000000000000001\n  - *n\nb: *n\n",
    "empty collections aliased": "a: &e {}\nb: &f []\nc: [*e, *f]\n",
    "a non-specific tag": "a: ! 1\n! b: 2\n",
    "quoted keys": "'1': a\n\"true\": b\n\"a\": 1\n",
    "a non-specific tag alone": "a: !\n",
    "nesting": "- 1\n- - 2\n  - [3, {a: [4]}]\n",
    "a list of mappings": "- a: 1\n  b: 2\n- a: 3\n",
    "block and quoted text": "a: |\n  text\n  more\nb: >\n  folded\nc: 'quoted: yes'\nd: \"x\\ty\"\n",
    "an empty document": "---\n...\n",
    "a scalar document": "plain scalar root\n",
    "a directive and an end marker": "%YAML 1.1\n---\na: 1\n...\n",
}
# left to the long way
LONG_WAY = {
    "an anchor named twice, inside itself": "a: &x {b: &x 1}\n",
    "an anchor named twice": "a: &x 1\nb: &x 2\n",
    "an alias to no anchor": "a: *nope\n",
    "a list as a key": "? [a, b]\n: c\n",
    "an alias as a key": "&a k: 1\n*a : 2\n",
    "a tag": "a: !!str 1\n",
    "a tag of no constructor": "a: !custom 1\n",
    "a set": "a: !!set {x, y}\n",
    "a key twice": "a: 1\na: 2\n",
    "a number as a key": "1: a\n",
    "null as a key": "null: a\n",
    "a merge": "base: &b {a: 1, c: 3}\nx:\n  <<: *b\n  c: 4\n",
    "a value key": "=: 1\n",
    "a value sign as a value": "a: =\n",
    "a merge sign as a value": "b: <<\n",
    "two documents": "---\na: 1\n---\nb: 2\n",
    "nothing": "",
    "a comment only": "# only a comment\n",
}
# problems found on the way, as the long way finds them
PROBLEMS = {
    "an unclosed list": "a: [1, 2\n",
    "a mapping in a plain value": "a: b: c\n",
    "a control character": "a: \x01\n",
    "an alias inside its own node": "a: &a [*a]\n",
    "too deep": "a: " + "[" * 40 + "]" * 40 + "\n",
    "an alias bomb": "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(5)),
}


def _same(a, b) -> bool:
    """Equal values of the same types all the way down (1 is not 1.0 nor True; NaN is NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _from(text: str):
    loader = _loader(text)
    try:
        return _from_events(loader)
    finally:
        loader.dispose()


def _problem(read, text: str) -> tuple:
    try:
        read(text)
    except YamlProblem as exc:
        return exc.line, exc.message
    except Exception as exc:  # noqa: BLE001 (PyYAML's own errors, which load_yaml turns into problems)
        return type(exc).__name__, str(exc)
    raise AssertionError("read without a problem")


def _agrees(text: str) -> None:
    fast, slow = _from(text), _the_long_way(text)
    assert _same(fast.data, slow.data)
    assert fast.lines == slow.lines
    assert fast.numbers == slow.numbers


@pytest.mark.parametrize("case", EVENTS)
def test_a_document_read_from_its_events_is_what_the_long_way_reads(case):
    _agrees(EVENTS[case])


@pytest.mark.parametrize("case", LONG_WAY)
def test_a_document_out_of_the_common_case_is_left_to_the_long_way(case):
    with pytest.raises(_Unusual):
        _from(LONG_WAY[case])


@pytest.mark.parametrize("case", PROBLEMS)
def test_a_problem_met_on_the_events_is_the_long_way_s(case):
    assert _problem(_read, PROBLEMS[case]) == _problem(_the_long_way, PROBLEMS[case])


def test_every_yaml_file_of_the_project_reads_the_same_either_way():
    assert len(FILES) > 90
    fast = 0
    for file in FILES:
        text = file.read_text(encoding="utf-8", errors="replace")
        try:
            _from(text)
        except _Unusual:
            continue
        except Exception:  # noqa: BLE001
            assert _problem(_read, text) == _problem(_the_long_way, text), file
            continue
        _agrees(text)
        fast += 1
    assert fast > 80  # the merge keys of Graid's bundle (and some broken fixtures) go the long way


def test_an_alias_is_the_object_its_anchor_made_as_pyyaml_s_is():
    doc = _from(EVENTS["aliases of a mapping"])
    assert doc.data["y"] is doc.data["x"] and doc.data["z"][0] is doc.data["x"] and doc.data["z"][1] is doc.data["x"]
    assert doc.lines[("z", 1, "q", 0)] == 1  # the alias's values have the lines of its anchor's node
    assert doc.lines[("z", 1)] == 1 and doc.lines[("y",)] == 2
