"""Files' digests remembered from one build to the next by their identity (ingest/plumbing/digests.py)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from ingest.plumbing.digests import Digests


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_a_file_is_hashed_once_and_its_digest_kept_under_its_identity(tmp_path: Path):
    page = tmp_path / "index.html"
    page.write_bytes(b"<p>one</p>")
    hour_ago = time.time() - 3600
    os.utime(page, (hour_ago, hour_ago))
    memo = tmp_path / "digests" / "pages.json"
    first = Digests(memo)
    assert first.of(page, written_by_build=True) == _sha(b"<p>one</p>")
    first.save()
    st = page.stat()
    assert json.loads(memo.read_text(encoding="utf-8")) == {
        f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}": _sha(b"<p>one</p>")}
    again = Digests(memo)
    assert again.of(page, written_by_build=True) == _sha(b"<p>one</p>")
    page.write_bytes(b"<p>two</p>")  # written again: a new modification time
    assert again.of(page, written_by_build=True) == _sha(b"<p>two</p>")
    again.save()  # only what this build used, and not the file written a moment ago
    assert json.loads(memo.read_text(encoding="utf-8")) == {
        f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}": _sha(b"<p>one</p>")}


def test_a_source_is_known_by_its_change_time_too(tmp_path: Path):
    """A bundle's file (not the build's) is remembered with its change time, which no tool sets: a file
    changed in place with its size and modification time put back is hashed again."""
    log = tmp_path / "run.log"
    log.write_bytes(b"tps: 1")
    hour_ago = time.time() - 3600
    os.utime(log, (hour_ago, hour_ago))
    digests = Digests(None)
    assert digests.of(log) == _sha(b"tps: 1")
    assert digests.used == {}  # its change time is now: not remembered yet
    log.write_bytes(b"tps: 2")
    os.utime(log, (hour_ago, hour_ago))
    assert digests.of(log) == _sha(b"tps: 2")
