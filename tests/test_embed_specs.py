"""A study's embed specs file, one chart a line: still JSON, and read back as each chart's id and exact
text; the export's folder of them read in the files' order."""

from __future__ import annotations

import json

import pytest

from ingest.publish.embed_specs import read, read_each, write
from ingest.bundles.problems import BuildError


def test_charts_are_read_back_as_written_one_a_line(tmp_path):
    charts = [
        {"id": "plain--tps", "title": "Line\nbreak and \u2028 a separator JSON leaves raw", "points": [1.5, None]},
        {"id": "quoted \"id\" \u00e9", "title": "an id with an escape"},
        {"title": "the id last", "id": "last"},
    ]
    texts = [json.dumps(c, ensure_ascii=False) for c in charts]
    path = tmp_path / "embed-specs.json"
    write(path, texts)
    assert json.loads(path.read_text(encoding="utf-8")) == {"charts": charts}
    assert path.read_bytes().count(b"\n") == 5  # the head, three charts, the tail
    assert read(path) == [("plain--tps", texts[0].encode()), ('quoted "id" \u00e9', texts[1].encode()),
                          ("last", texts[2].encode())]


def test_no_charts(tmp_path):
    path = tmp_path / "embed-specs.json"
    write(path, [])
    assert json.loads(path.read_text(encoding="utf-8")) == {"charts": []}
    assert read(path) == []


def test_a_file_written_otherwise_is_refused(tmp_path):
    path = tmp_path / "embed-specs.json"
    path.write_text(json.dumps({"charts": [{"id": "c0"}]}), encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        read(path)
    assert str(caught.value) == f"{path}: not a list of charts one a line, as ingest/publish/embed_specs.py writes it"


def test_a_line_without_an_id_is_named(tmp_path):
    path = tmp_path / "embed-specs.json"
    write(path, ['{"title": "no id"}'])
    with pytest.raises(BuildError) as caught:
        read(path)
    assert str(caught.value) == f'{path}: a line is not a chart with an id: {{"title": "no id"}}'


def test_a_folder_is_read_file_by_file_in_name_order(tmp_path):
    folder = tmp_path / "embed-specs"
    assert list(read_each(folder)) == []  # an export with no charts has none
    folder.mkdir()
    write(folder / "b-study.json", ['{"id": "b1"}', '{"id": "b2"}'])
    write(folder / "a-study.json", ['{"id": "a1"}'])
    assert [chart_id for chart_id, _ in read_each(folder)] == ["a1", "b1", "b2"]
