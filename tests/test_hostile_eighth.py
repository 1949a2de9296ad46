"""The eighth hostile pass of issue #61 (2026-12-02): each finding it reproduced, at its cause."""

from __future__ import annotations

import os
import shutil

import pytest
from click.testing import CliRunner

from parquet_footer import I64, columns, join_file, split_file
from test_cited import AT, BUNDLE, REFUSED, _problems, cited  # noqa: F401 (a fixture)
from test_landing import database  # noqa: F401 (a fixture)
from test_hostile_seventh import refusal_of
from conftest import ROOT
from ingest.cli import main
from ingest.contribute import server_settings

JSONL = ROOT / "tests" / "fixtures" / "figures-jsonl" / "ro-16.jsonl"


def _footer(folder, edit):
    path = folder / "cited" / "ro-16.parquet"
    body, footer = split_file(path.read_bytes())
    edit(footer)
    path.write_bytes(join_file(body, footer))


def test_a_chunk_of_a_negative_size_is_refused(cited):
    """A row group of no samples whose chunk said -2^40 bytes let another chunk say +2^40 within the
    column's bound, and a page of 2 GiB pass: 2.25 GB for a file of 69 KB (H1)."""
    def negative(footer):
        md = next(md for _, _, _, md, name in columns(footer) if name == "t_s")
        md[6] = (I64, -2**40)
    _footer(cited, negative)
    assert _problems(cited) == [AT + "a column chunk of a negative size or count of values", REFUSED]


def test_a_row_group_of_no_samples_is_refused(cited):
    """10,000 row groups of none (an 18 KB gzipped file) took validate 9.5 s more, a file (M3)."""
    def empty_group(footer):
        groups = footer[4][1][1]
        empty = {k: v for k, v in groups[0].items()}
        empty[3] = (I64, 0)  # RowGroup.num_rows
        groups.append(empty)
    _footer(cited, empty_group)
    assert _problems(cited) == [AT + "a row group of no samples (or fewer): a figures file's row groups each hold "
                                "samples", REFUSED]


def test_migrate_writes_through_no_link_planted_at_a_temporary_name(tmp_path):
    """Links planted at .bundle.yaml.<pid>.tmp and cited/.figures-<pid>.tmp had migrate write the bundle
    into a file outside it (its mode 600 made 644) and move the links into the bundle (H2)."""
    folder = tmp_path / "data" / "cited"
    (folder / "cited").mkdir(parents=True)
    (folder / "bundle.yaml").write_text(BUNDLE.replace("figures: cited/ro-16.parquet", "figures: cited/ro-16.jsonl"))
    shutil.copyfile(JSONL, folder / "cited" / "ro-16.jsonl")
    victim = tmp_path / "victim"
    victim.write_text("precious")
    victim.chmod(0o600)
    (folder / f".bundle.yaml.{os.getpid()}.tmp").symlink_to(victim)
    (folder / "cited" / f".figures-{os.getpid()}.tmp").symlink_to(victim)
    done = CliRunner().invoke(main, ["migrate", "--write", str(folder)])
    assert done.exit_code == 0, done.output
    assert victim.read_text() == "precious" and victim.stat().st_mode & 0o777 == 0o600
    assert not (folder / "bundle.yaml").is_symlink() and not (folder / "cited" / "ro-16.parquet").is_symlink()
    assert "figures: cited/ro-16.parquet" in (folder / "bundle.yaml").read_text()


def test_a_folder_included_again_and_again_is_read_once_and_the_includes_are_bounded(tmp_path):
    """N my.cnf files each saying !includedir . cost N^3: 100 files of 40 bytes 51 s, 400 past 300 s (H3)."""
    for i in range(40):
        (tmp_path / f"f{i:02}.cnf").write_text(f"[mysqld]\n!includedir .\ninnodb_io_capacity={i}\n")
    read = server_settings.read_cnf(tmp_path / "f00.cnf", root=tmp_path,
                                    text=(tmp_path / "f00.cnf").read_text())
    assert len(read.files) == server_settings.MAX_INCLUDED  # itself and 31 more, then the note
    assert read.notes == ["f00.cnf line 2: f32.cnf and the rest: more than the 32 files one my.cnf may include: not "
                          "read"]


def test_a_catalogue_whose_table_is_not_this_version_s_is_refused(tmp_path, database):
    """A generated column of 3^11 terms took compare 38 s, and a DECIMAL column gave a traceback with
    --json: the catalogue's tables were not compared (M1, M2)."""
    forged, said = refusal_of(tmp_path, database, "ALTER TABLE measurements ALTER value TYPE DECIMAL(18,3)")
    assert said == f"{forged}: not a catalogue database benchdb build writes (its table 'measurements' is not this version's)"


def test_characters_that_show_as_nothing_are_refused_in_an_address():
    """NBSP, U+3000, the braille blank and the Hangul filler passed where U+200B was refused (L1)."""
    from schema.web_address import web_address
    at = "https://github.com/Example-Lab/results/tree/0123456789abcdef0123456789abcdef01234567/x"
    for hidden in ("\u00a0", "\u3000", "\u2800", "\u3164", "\ufe0f", " "):
        with pytest.raises(ValueError, match=rf"a character that does not show \(U\+{ord(hidden):04X}\)"):
            web_address(at + hidden)
    assert web_address(at + "é") == at + "é"


def test_a_swap_area_and_a_mounted_folder_are_refused_by_a_plan(tmp_path):
    """An active swap area was only "a signature (swap)" where blkid saw one, and --mount / was taken, its
    teardown an umount / (L2)."""
    from ingest.contribute.capture_devices import DeviceRefused, check_mount, holds
    image = tmp_path / "swap.img"
    image.write_bytes(bytes(4096))
    swaps = f"Filename\tType\tSize\tUsed\tPriority\n{image}\tfile\t4\t0\t-2\n"
    assert holds(str(image), swaps=swaps) == ("an active swap area",)
    with pytest.raises(DeviceRefused, match="^--mount /: give an absolute folder other than /"):
        check_mount("/", mounts="")
    with pytest.raises(DeviceRefused, match="something is mounted there now"):
        check_mount(str(tmp_path), mounts=f"/dev/sdz1 {tmp_path} ext4 rw 0 0\n")
