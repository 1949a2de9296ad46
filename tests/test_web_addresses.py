"""A source's web address goes where its words say (schema/models.py: Url): the site names a repository at a
commit from the address and every value links to it, so an address a browser resolves elsewhere is refused
(issue #61, findings 4 and 11)."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from ingest.contribute.citing import read_cite, source_entry
from schema.models import Url

COMMIT = "0123456789abcdef0123456789abcdef01234567"
DOTS = ("a path with a '.' or '..' part (written as such or as %2e) or a backslash: a browser goes to another "
        "address than the one it shows")


def _refused(url: str) -> str:
    with pytest.raises(ValidationError) as caught:
        TypeAdapter(Url).validate_python(url)
    return caught.value.errors()[0]["msg"].removeprefix("Value error, ")


@pytest.mark.parametrize("url, message", [
    # cited as OWNER/REPO at C while a browser goes to evil-owner/evil-repo
    (f"https://github.com/OWNER/REPO/blob/{COMMIT}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/evil-owner/evil-repo/blob/{COMMIT}/x",
     DOTS),
    ("https://github.com/a/b/blob/c/../../evil/x", DOTS),
    ("https://example.org/docs/%2E/paper.pdf", DOTS),
    ("https://example.org/docs\\paper.pdf", DOTS),
    ("https://github.com:x@evil.example/OWNER/REPO", "a web address with a name before '@' goes to the host after it "
                                                     "('evil.example'), not to the one it seems to name: give the "
                                                     "address without it"),
    ("https://g\u0456thub.com/OWNER/REPO", "a host of letters beyond ASCII ('g\u0456thub.com'), which can pass for "
                                           "another's: write it as a browser reads it, 'xn--gthub-n2e.com'"),
])
def test_an_address_a_browser_resolves_elsewhere_is_refused(url, message):
    assert _refused(url) == message


@pytest.mark.parametrize("url", ["https://github.com/Example-Lab/results/blob/" + COMMIT + "/bench/runs/ro%2016%23/x.log",
                                 "https://www.percona.com/blog/2018/05/01/a-post/", "https://xn--gthub-n2e.com/x",
                                 "http://example.org:8080/a.pdf?page=2#table-3"])
def test_an_address_that_goes_where_it_reads_is_kept(url):
    assert TypeAdapter(Url).validate_python(url) == url


def test_import_cite_quotes_the_folder_in_the_source_s_address():
    """A folder named `%2e%2e` in --cite became part of the address unquoted, which a browser reads as '..'."""
    cite = read_cite(f"Example-Lab/results@{COMMIT}:x/%2e%2e/y")
    source = source_entry({}, cite=cite, to_be_stated="TO BE STATED")
    assert source["url"] == f"https://github.com/Example-Lab/results/tree/{COMMIT}/x/%252e%252e/y"
    assert TypeAdapter(Url).validate_python(source["url"])


@pytest.mark.parametrize("url, message", [  # issue #61's second pass
    ("https://%D0%B0pple.com/x", "a host written with %-escapes, which a browser decodes to another name: write the "
                                 "host as it is"),
    ("https://evil.com%23.github.com/x", "a host written with %-escapes, which a browser decodes to another name: "
                                         "write the host as it is"),
    ("https://0x7f000001/x", "a host that is not a name of the web ('0x7f000001'): an address such as 0x7f000001 or "
                             "127.0.0.1 goes to a machine no source is published from"),
    ("https://127.0.0.1/x", "a host that is not a name of the web ('127.0.0.1'): an address such as 0x7f000001 or "
                            "127.0.0.1 goes to a machine no source is published from"),
    ("https://[::1]/x", "a host that is not a name of the web ('::1'): an address such as 0x7f000001 or 127.0.0.1 "
                        "goes to a machine no source is published from"),
    ("https://github.com:80x/a", "a port that is not a number from 0 to 65535 ('github.com:80x')"),
    ("https://example.org/docs%5Cpaper.pdf", DOTS),
])
def test_a_host_or_port_a_browser_reads_otherwise_is_refused(url, message):
    assert _refused(url) == message


def test_a_repository_address_with_a_query_or_fragment_is_not_cited_as_a_commit():
    from ingest.database.citing import source_name
    from schema.models import Source
    base = dict(id="s", publisher="Good Lab", title="Logs", language="en", commit=COMMIT)
    at = source_name(Source(**base, url=f"https://github.com/good/repo/blob/{COMMIT}/x.log"))
    assert at.startswith("good/repo at ") and "x.log" in at
    for url in (f"https://github.com/good/repo#/blob/{COMMIT}/x.log", f"https://github.com/good/repo?/blob/{COMMIT}/x.log",
                f"https://github.com/good/repo/blob/{COMMIT}/x.log#L3"):
        assert source_name(Source(**base, url=url)) == "Good Lab, “Logs”"
