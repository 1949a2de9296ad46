"""The lab of issue #63: a QEMU guest with md RAID and the storage targets (lab/README.md)."""
