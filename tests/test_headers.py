"""netlify.toml's header rules: one Content-Security-Policy for every path, and no two rules that can
match one path set the same header (issue #49, hole 9). A host may replace an earlier rule's value with
a later one's, or join the two; with no overlap, every path gets one value either way."""

from __future__ import annotations

import itertools
import tomllib

import pytest

from conftest import ROOT, netlify_headers

RULES = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))["headers"]


def _prefix(pattern: str) -> tuple[str, bool]:
    """A rule's path as (prefix, open): ``/js/*`` is every path under /js/, ``/`` only itself."""
    if pattern.count("*") == 0:
        return pattern, False
    if pattern.count("*") == 1 and pattern.endswith("/*"):
        return pattern[:-1], True
    raise AssertionError(f"netlify.toml: {pattern!r} is not a path or a path ending in /*: this test cannot tell "
                         "which paths it matches")


def can_match_one_path(a: str, b: str) -> bool:
    (pa, open_a), (pb, open_b) = _prefix(a), _prefix(b)
    if open_a and open_b:
        return pa.startswith(pb) or pb.startswith(pa)
    if open_a:
        return pb.startswith(pa)
    if open_b:
        return pa.startswith(pb)
    return pa == pb


@pytest.mark.parametrize(("a", "b", "overlap"), [
    ("/*", "/raw/*", True), ("/js/*", "/css/*", False), ("/sql/*", "/sql/duckdb/*", True),
    ("/sql/", "/sql/*", True), ("/sql", "/sql/*", False), ("/a/", "/a/", True), ("/a/", "/b/", False)])
def test_the_overlap_of_two_patterns(a, b, overlap):
    assert can_match_one_path(a, b) is overlap and can_match_one_path(b, a) is overlap


def test_no_two_rules_that_can_match_one_path_set_the_same_header():
    clashes = []
    for first, second in itertools.combinations(RULES, 2):
        shared = {h.lower() for h in first["values"]} & {h.lower() for h in second["values"]}
        if shared and can_match_one_path(first["for"], second["for"]):
            clashes.append((first["for"], second["for"], sorted(shared)))
    assert clashes == []


def test_one_policy_for_every_path_scripts_from_the_site_alone():
    policies = {netlify_headers(path)["Content-Security-Policy"]
                for path in ("/", "/sql/", "/sql/duckdb/duckdb-browser-eh.worker.js", "/search/", "/pagefind/x.js",
                             "/embed/a/", "/raw/s/a.txt", "/artifacts/s/a/", "/studies/")}
    assert len(policies) == 1
    directives = {d.split()[0]: d.split()[1:] for d in (p.strip() for p in policies.pop().split(";")) if d}
    # WebAssembly may be compiled (DuckDB-WASM, Pagefind); no inline script, no eval, nothing from elsewhere
    assert directives["script-src"] == ["'self'", "'wasm-unsafe-eval'"]
    assert directives["default-src"] == ["'self'"] and directives["object-src"] == ["'none'"]


def test_artifacts_are_served_as_text_and_never_sniffed():
    headers = netlify_headers("/raw/some-study/some-log.txt")
    assert headers["Content-Type"] == "text/plain; charset=utf-8"
    assert headers["X-Content-Type-Options"] == "nosniff"
