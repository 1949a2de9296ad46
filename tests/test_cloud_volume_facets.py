"""Cloud volumes on the facet pages: /volume-size/ and /provisioned-iops/ pair two systems of one study
whose volumes differ in that alone (schema/fields.yaml; the rule is ingest/publish/like.py's)."""

from __future__ import annotations

from ingest.bundles.fields import facet_pages, fields
from ingest.publish.like import NOT_STATED, like_for_like


def _config(**given: str) -> dict[str, str]:
    """A system's compare fields as pages write them: the ones given, every other one "not stated"."""
    return {f.key: given.get(f.key, NOT_STATED) for f in fields("compare")}


IO1 = {"volume_type": "aws-ebs io1", "volume_size_gb": "1000", "db": "MySQL 5.7.22", "benchmark": "sysbench tpcc"}


def test_the_two_cloud_volume_facets_have_their_pages():
    pages = {f.key: f.page for f in facet_pages()}
    assert (pages["volume_size_gb"].slug, pages["volume_size_gb"].title) == ("volume-size", "Cloud volume size")
    assert (pages["provisioned_iops"].slug, pages["provisioned_iops"].title) == ("provisioned-iops", "Provisioned IOPS")
    assert pages["volume_size_gb"].baseline == pages["provisioned_iops"].baseline == "baseline"


def test_io1_volumes_of_one_size_pair_on_provisioned_iops_alone():
    a, b = _config(**IO1, provisioned_iops="5000"), _config(**IO1, provisioned_iops="30000")
    assert like_for_like("provisioned_iops", a, b) == (True, [], [])
    paired, breaking, _ = like_for_like("volume_size_gb", a, b)
    assert not paired and [f.key for f in breaking] == ["provisioned_iops"]


def test_gp2_volumes_pair_on_size_unless_something_else_differs():
    gp2 = {**IO1, "volume_type": "aws-ebs gp2"}
    small, large = _config(**{**gp2, "volume_size_gb": "1000"}), _config(**{**gp2, "volume_size_gb": "3400"})
    assert like_for_like("volume_size_gb", small, large) == (True, [], [])
    # a larger buffer pool as well: not like for like, and the page names the field that breaks it
    bigger = _config(**{**gp2, "volume_size_gb": "3400", "buffer_pool_mib": "55296"})
    paired, breaking, _ = like_for_like("volume_size_gb", small, bigger)
    assert not paired and [f.key for f in breaking] == ["buffer_pool_mib"]


def test_a_sata_and_an_nvme_ssd_pair_on_storage_product_and_on_device_class():
    """vadimtk/benchmark-docs' LinkBench page: a Crucial M500 (SATA) and an Intel P3600 (NVMe) with one
    engine: the device class differs because the product does, so each facet takes the pair and names
    the other difference as following from it."""
    base = {"db": "Percona Server 5.6", "benchmark": "LinkBench"}
    m500 = _config(**base, storage="Crucial M500 SATA SSD 900GB (Crucial)", device_class="sata-ssd")
    p3600 = _config(**base, storage="Intel P3600 PCIe SSD 1.6TB (Intel)", device_class="nvme-ssd")
    paired, breaking, following = like_for_like("storage", m500, p3600)
    assert paired and breaking == [] and [f.key for f in following] == ["device_class"]
    paired, breaking, following = like_for_like("device_class", m500, p3600)
    assert paired and breaking == [] and [f.key for f in following] == ["storage"]
    # a class the source does not state: nothing follows, and the difference breaks the pair
    unstated = _config(**base, storage="Intel P3600 PCIe SSD 1.6TB (Intel)")
    paired, breaking, _ = like_for_like("storage", m500, unstated)
    assert not paired and [f.key for f in breaking] == ["device_class"]
