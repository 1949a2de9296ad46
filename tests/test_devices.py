"""The registry of device classes (schema/devices.yaml): what it matches in the catalogue's drive models and
products, the class a system is given from it, a stated class it contradicts, and what Explore filters by."""

from __future__ import annotations

import duckdb
import pytest
import yaml
from pydantic import ValidationError

from ingest.bundles.devices import Registry, classes_in, device_class_of, registry, system_texts
from ingest.bundles.validate import validate_paths
from ingest.contribute.importer import import_folder
from test_import import LSBLK, MDADM, _folder
from test_validate import MINIMAL

GRAID = "graid-supremeraid-mysql-2023"
D7 = "Intel SSD D7-P5510 SSDPF2KX038TZ 3.84TB"  # data/graid-supremeraid-mysql-2023/bundle.yaml line 90


@pytest.mark.parametrize("text,patterns,device_class", [
    (D7, ["D7-P5510", "SSDPF2KX038TZ"], "nvme-ssd"),
    ("144GB 15K RPM (eight shelves)", ["15K RPM"], "hdd"),  # data/netapp-tr3693-mysql-2010
    ("普通SATA硬盘2T (ordinary SATA disk, 2 TB)", ["SATA硬盘"], "hdd"),  # data/sofire-tpcc-ssd-vs-sata-raid10-2015
    ("10k RPM hard drive (model not stated)", ["hard drive", "10K RPM"], "hdd"),  # case-insensitive
    ("P4610 3.2TB", ["P4610"], "nvme-ssd"),
    ("CSD 2000 4TB", ["CSD 2000"], "nvme-ssd"),
    ("Crucial M500 SATA SSD 900GB", ["M500", "SATA SSD"], "sata-ssd"),
    ("Nytro flash accelerator card (model not stated)", ["flash accelerator card"], "pcie-flash-card"),
])
def test_a_catalogue_text_names_its_class(text, patterns, device_class):
    found = classes_in(text)
    assert [e.pattern for e in found] == patterns
    assert {e.device_class for e in found} == {device_class}


@pytest.mark.parametrize("text", [
    "Kingston SSD 120G (普通的SSD, an ordinary SSD)",  # an SSD of no interface
    "DuraSSD 960GB", "/dev/vda",
    "SM863a",  # whole words: SM863's entry is not the SM863a's
    "not stated (the disk under /bench_hdd)",  # "hdd" is no entry, and "_" joins words
    "固态硬盘",  # a solid-state "hard disk": SATA硬盘 does not match it
])
def test_a_text_that_names_no_class_gets_none(text):
    assert classes_in(text) == []
    assert device_class_of([("drive model", text)]) is None


def test_every_text_looked_at_names_no_class():
    looked_at = {t.text for t in registry().looked_at}
    assert {"Kingston SSD 120G (普通的SSD, an ordinary SSD)", "DuraSSD 960GB", "/dev/vda"} <= looked_at
    assert all(classes_in(text) == [] for text in looked_at)


def test_a_derivation_says_what_it_is_from():
    named = device_class_of([("drive model", D7)])
    assert named.reason == ("from the drive model Intel SSD D7-P5510 SSDPF2KX038TZ 3.84TB, schema/devices.yaml: "
                            "Intel, Intel SSD D7-P5510 Series Product Brief")


def test_a_cloud_volume_is_of_the_class_cloud_volume():
    """Amazon EBS volumes (percona-innodb-ebs-gp2-600-1200gb-tpcc-2018) state their storage kind, not a class."""
    named = device_class_of(system_texts({"storage": {"product": "Amazon EBS", "kind": "cloud-volume"}}))
    assert named.device_class == "cloud-volume"
    assert named.reason == ("from the storage kind cloud-volume, schema/devices.yaml: the words 'cloud-volume': the "
                            "storage kind of a cloud provider's block volume (EBS, Persistent Disk, Managed Disk): its class")


def test_two_entries_of_different_classes_matching_one_text_are_an_error_of_the_registry():
    data = yaml.safe_load("""
models: []
words:
  - {pattern: SATA SSD, class: sata-ssd, meaning: a solid-state drive on a SATA link}
  - {pattern: SATA, class: hdd, meaning: a disk on a SATA link}
""")
    with pytest.raises(ValidationError) as caught:
        Registry.model_validate(data)
    assert caught.value.errors()[0]["msg"] == (
        "Value error, schema/devices.yaml: 'SATA SSD' is matched by entries of different classes: "
        "'SATA SSD' (sata-ssd), 'SATA' (hdd)")


def test_a_class_must_be_one_of_the_fields_words():
    with pytest.raises(ValidationError) as caught:
        Registry.model_validate({"models": [], "words": [{"pattern": "tape", "class": "tape", "meaning": "a tape"}]})
    assert caught.value.errors()[0]["msg"] == (
        "Value error, schema/devices.yaml: 'tape': class 'tape' is not one of cloud-volume, hdd, nvme-ssd, "
        "pcie-flash-card, sas-ssd, sata-ssd (schema/fields.yaml's device_class words)")


def _system_a(storage: str, drive_model: str) -> str:
    text = (MINIMAL.replace("storage: {product: Box A, vendor: Example, kind: software-raid}", storage)
            .replace("drive_model: SSD X", f"drive_model: {drive_model}"))
    assert storage in text and drive_model in text
    return text


def test_a_stated_class_the_drive_model_contradicts_is_an_error(bundle_dir):
    text = _system_a("storage: {product: Box A, vendor: Example, kind: software-raid, device_class: sata-ssd}", D7)
    _, problems = validate_paths([bundle_dir("tiny", text)])
    assert [str(p).split("/tiny/")[1] for p in problems] == [
        "bundle.yaml:15: systems[a].storage.device_class: sata-ssd contradicts the drive model "
        "'Intel SSD D7-P5510 SSDPF2KX038TZ 3.84TB', which schema/devices.yaml has as nvme-ssd ('D7-P5510': "
        "Intel, Intel SSD D7-P5510 Series Product Brief)"]


def test_a_drive_model_naming_two_classes_is_an_error(bundle_dir):
    _, problems = validate_paths([bundle_dir("tiny", _system_a(
        "storage: {product: Box A, vendor: Example, kind: software-raid}", "Intel P3600 on a SATA hard disk"))])
    assert [(p.line, p.field, p.message) for p in problems] == [
        (16, "systems[a].raid.drive_model",
         "the drive model 'Intel P3600 on a SATA hard disk' is matched by entries of different classes: 'P3600' "
         "(nvme-ssd), 'SATA hard disk' (hdd), 'hard disk' (hdd): schema/devices.yaml cannot tell the device class")]


def test_a_drive_model_and_a_product_naming_two_classes_are_an_error(bundle_dir):
    _, problems = validate_paths([bundle_dir("tiny", _system_a(
        "storage: {product: Samsung SM863, vendor: Samsung, kind: device}", "Intel P3600"))])
    assert [(p.line, p.field, p.message) for p in problems] == [
        (13, "systems[a]", "the drive model 'Intel P3600' names nvme-ssd ('P3600'); the storage product "
                           "'Samsung SM863' names sata-ssd ('SM863'): schema/devices.yaml cannot tell the device class")]


def test_a_system_that_states_no_class_or_not_stated_gets_its_drive_models(bundle_dir):
    for storage in ("storage: {product: Box A, vendor: Example, kind: software-raid}",
                    "storage: {product: Box A, vendor: Example, kind: software-raid, device_class: not-stated}",
                    "storage: {product: Box A, vendor: Example, kind: software-raid, device_class: nvme-ssd}"):
        bundles, problems = validate_paths([bundle_dir("tiny", _system_a(storage, D7))])
        assert problems == []
        derived = bundles[0].derivation.device_classes
        if "nvme-ssd" in storage:
            assert derived == {}  # stated, and the registry agrees: nothing to derive
        else:
            assert list(derived) == ["a"] and derived["a"].device_class == "nvme-ssd"


def test_import_gives_the_class_lsblks_drive_model_names(tmp_path):
    """lsblk prints a D7-P5510 of 3.84 TB as "INTEL SSDPF2KX038TZ": its product code, in the registry."""
    logs = _folder(tmp_path)
    (logs / "mdadm-detail.txt").write_text(MDADM, encoding="utf-8")
    lsblk = LSBLK.replace("Samsung SSD 980 PRO 1TB", "INTEL SSDPF2KX038TZ    ")
    assert lsblk.count("INTEL SSDPF2KX038TZ") == 4
    (logs / "lsblk.txt").write_text(lsblk, encoding="utf-8")
    out = tmp_path / "data" / "my-runs"
    import_folder(logs, out=out, answers={})
    system = yaml.safe_load((out / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert (system["raid"]["drive_model"], system["storage"]["device_class"]) == ("INTEL SSDPF2KX038TZ", "nvme-ssd")
    assert system["notes"].endswith(
        "(artifacts/lsblk.txt line 8). Device class nvme-ssd from the drive model INTEL SSDPF2KX038TZ, "
        "schema/devices.yaml: Intel, Intel SSD D7-P5510 Series Product Brief.")
    # a class the contributor gives is kept, and a drive model that names none gives none
    import_folder(logs, out=tmp_path / "data" / "given", answers={"device_class": "nvme-ssd"})
    given = yaml.safe_load((tmp_path / "data" / "given" / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert given["storage"]["device_class"] == "nvme-ssd" and "Device class" not in given["notes"]
    (logs / "lsblk.txt").write_text(LSBLK, encoding="utf-8")
    import_folder(logs, out=tmp_path / "data" / "samsung", answers={})
    other = yaml.safe_load((tmp_path / "data" / "samsung" / "bundle.yaml").read_text(encoding="utf-8"))["systems"][0]
    assert "device_class" not in other["storage"] and "Device class" not in other["notes"]


def test_graids_four_systems_are_nvme_ssds_in_the_database(built_site):
    con = duckdb.connect(str(built_site.database), read_only=True)
    rows = con.execute("SELECT system, device_class, device_class_from FROM systems WHERE study = ? ORDER BY system",
                       [GRAID]).fetchall()
    reason = ("from the drive model Intel SSD D7-P5510 SSDPF2KX038TZ 3.84TB, schema/devices.yaml: "
              "Intel, Intel SSD D7-P5510 Series Product Brief")
    assert rows == [(system, "nvme-ssd", reason) for system in
                    ("mdraid-raid10", "mdraid-raid6", "supremeraid-raid10", "supremeraid-raid6")]
    # a class a bundle states is loaded as stated, with nothing derived
    assert con.execute("SELECT count(*) FROM systems WHERE device_class_from IS NOT NULL AND study = "
                       "'seagate-nytro-mysql-2015'").fetchone() == (2,)


@pytest.mark.browser
def test_the_study_page_says_where_the_class_comes_from(page, site_url):
    page.goto(f"{site_url}/studies/{GRAID}/")
    cells = page.locator("table.setup tr", has_text="Device class").locator("td").all_inner_texts()
    assert cells == ["NVMe SSD (from the drive model Intel SSD D7-P5510 SSDPF2KX038TZ 3.84TB, schema/devices.yaml: "
                     "Intel, Intel SSD D7-P5510 Series Product Brief)"] * 4


@pytest.mark.browser
def test_explore_finds_graid_among_nvme_ssds_running_oltp_read_write(page, site_url):
    page.goto(f"{site_url}/explore/?device_class=nvme-ssd")
    page.wait_for_selector('#explore-status[aria-busy="false"]')
    page.locator('fieldset[data-param="benchmark"] input[value="sysbench oltp_read_write (OLTP_RW-trx.lua)"]').check()
    page.wait_for_url("**benchmark=*")
    page.wait_for_selector('#explore-status[aria-busy="false"]')
    total = page.locator("#explore-status").inner_text().split(" of ")[1].split(" ")[0]
    # Graid's 52 values: the only oltp_read_write of an NVMe SSD among the test site's studies
    assert page.locator("#explore-status").inner_text() == f"52 of {total} values (showing the first 50)."
    studies = page.locator("#explore-table tbody tr:not([hidden]) td:nth-child(1)").all_inner_texts()
    assert len(studies) == 50 and set(studies) == {GRAID}
    assert page.errors == []
