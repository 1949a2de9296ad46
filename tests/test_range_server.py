"""The tests' server answers range requests as Netlify does for a static file (conftest.py: _Handler),
which /sql/'s DuckDB-WASM makes of its database: 206 with the bytes asked for and Content-Range, 416
where the range starts past the file's end, and the whole file for a request without one."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from conftest import byte_range, serve_folder

BYTES = bytes(range(256)) * 4  # 1,024 bytes, each its offset modulo 256


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ranges")
    (folder / "file.bin").write_bytes(BYTES)
    server = serve_folder(folder)
    yield f"http://127.0.0.1:{server.server_port}/file.bin"
    server.shutdown()


def _get(url: str, **headers: str):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


@pytest.mark.parametrize(("header", "span"), [
    ("bytes=0-99", (0, 99)), ("bytes=1000-", (1000, 1023)), ("bytes=-24", (1000, 1023)),
    ("bytes=1000-5000", (1000, 1023)), ("bytes=-5000", (0, 1023)), ("bytes=1023-1023", (1023, 1023)),
    ("bytes=1024-", "unsatisfiable"), ("bytes=-0", "unsatisfiable"),
    ("bytes=5-4", None), ("bytes=0-1,5-6", None), ("items=0-1", None), ("bytes=-", None), ("", None)])
def test_the_range_a_header_asks_for(header, span):
    assert byte_range(header, size=len(BYTES)) == span


def test_a_range_gets_its_bytes_and_says_where_they_are(served):
    status, headers, body = _get(served, Range="bytes=300-309")
    assert status == 206
    assert headers["Content-Range"] == "bytes 300-309/1024"
    assert headers["Content-Length"] == "10"
    assert headers["Accept-Ranges"] == "bytes"
    assert body == bytes(range(44, 54))  # 300 - 256 = 44
    assert headers["Content-Security-Policy"].startswith("default-src 'self'")  # netlify.toml's, as before


def test_a_head_request_of_a_range_says_its_length_alone(served):
    request = urllib.request.Request(served, method="HEAD", headers={"Range": "bytes=0-"})
    with urllib.request.urlopen(request) as response:
        assert (response.status, response.headers["Content-Length"], response.read()) == (206, "1024", b"")


def test_a_range_past_the_end_is_refused_with_the_file_s_length(served):
    status, headers, body = _get(served, Range="bytes=2048-")
    assert (status, headers["Content-Range"], body) == (416, "bytes */1024", b"")


def test_without_a_range_the_whole_file_says_it_takes_ranges(served):
    status, headers, body = _get(served)
    assert (status, headers["Accept-Ranges"], body) == (200, "bytes", BYTES)
    status, headers, body = _get(served, Range="bytes=0-1,5-6")  # several ranges: the whole file
    assert (status, len(body)) == (200, 1024)
