"""benchdb capture --plan (issue #63): the RAID-level, array-state and protocol plans, and the devices a
plan refuses. Disk images stand in for drives: blkid probes a file as it probes a device."""

from __future__ import annotations

import hashlib
import shutil
import struct
import subprocess

import pytest
from click.testing import CliRunner

from ingest.cli import main
from ingest.contribute.capture_devices import DeviceRefused, check_devices, holds
from ingest.contribute.capture_plans import PlanRefused, array_state, protocol, raid_levels

needs_tools = pytest.mark.skipif(not (shutil.which("blkid") and shutil.which("mkfs.ext4")),
                                 reason="blkid and mkfs.ext4 (util-linux, e2fsprogs) are not installed")


def _partition_table(path: str) -> None:
    """An MBR of one Linux partition (2048 sectors in, 16,384 long): its entry at byte 446, its 55 AA at 510."""
    with open(path, "r+b") as f:
        f.seek(446)
        f.write(struct.pack("<B3sB3sII", 0, bytes(3), 0x83, bytes(3), 2048, 16384))
        f.seek(510)
        f.write(b"\x55\xaa")


@pytest.fixture
def drives(tmp_path):
    paths = []
    for i in range(4):
        path = tmp_path / f"drive{i}.img"
        with open(path, "wb") as f:
            f.truncate(16 * 2**20)
        paths.append(str(path))
    return paths


def _digests(paths):
    return [hashlib.sha256(open(p, "rb").read()).hexdigest() for p in paths]


@needs_tools
def test_a_dry_run_prints_the_plan_and_touches_nothing(drives):
    before = _digests(drives)
    args = ["capture", "--plan", "array-state", "--level", "5", "--dry-run", *[f"--device={d}" for d in drives]]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == "plan array-state: 4 measurements, 10 commands"
    assert lines[1] == (f"  1. mdadm --create /dev/md/benchdb --run --metadata=1.2 --level=5 --raid-devices=4 "
                        f"{' '.join(drives)}    # md RAID 5 of 4 drives")
    assert f"  6. mdadm /dev/md/benchdb --fail {drives[3]}    # {drives[3]} failed" in lines
    assert " 12. [measure] rebuilding: the workload at each thread count, until the rebuild ends" in lines
    assert lines[-1] == f"     mdadm --zero-superblock {' '.join(drives)}"
    assert _digests(drives) == before


@needs_tools
def test_a_device_with_a_filesystem_or_a_partition_table_is_refused_unless_named(drives):
    subprocess.run(["mkfs.ext4", "-q", "-F", drives[1]], check=True)
    _partition_table(drives[2])
    assert holds(drives[0]) == ()
    assert holds(drives[1]) == ("a filesystem (ext4)",)
    assert holds(drives[2]) == ("a partition table (dos)",)
    before = _digests(drives)
    done = CliRunner().invoke(main, ["capture", "--plan", "raid-levels", "--dry-run", *[f"--device={d}" for d in drives]])
    assert done.exit_code == 1
    assert done.output == (f"Error: {drives[1]} holds a filesystem (ext4): refused; if its data may be destroyed, name "
                           f"it: --destroy-data {drives[1]}\n{drives[2]} holds a partition table (dos): refused; if its "
                           f"data may be destroyed, name it: --destroy-data {drives[2]}\n")
    named = check_devices(drives, destroy=[drives[1], drives[2]])
    assert [(h.device, h.holds) for h in named] == [(drives[1], ("a filesystem (ext4)",)),
                                                    (drives[2], ("a partition table (dos)",))]
    assert _digests(drives) == before


def test_a_mounted_device_and_a_device_given_twice_are_refused(drives):
    mounts = f"{drives[0]} /srv/my\\040data ext4 rw 0 0\n"
    assert holds(drives[0], mounts=mounts)[-1] == "a mount at /srv/my data"
    with pytest.raises(DeviceRefused, match="a device is given twice"):
        check_devices([drives[0], drives[0]], destroy=[])
    with pytest.raises(DeviceRefused, match="--destroy-data names /dev/sdz, which the plan does not use"):
        check_devices(drives, destroy=["/dev/sdz"])


def test_raid_levels_are_those_the_drives_allow():
    four = raid_levels(["/dev/a", "/dev/b", "/dev/c", "/dev/d"], mount="/mnt/x")
    assert [s.measure["raid_level"] for s in four.steps if s.measure] == ["0", "1", "5", "6", "10"]
    two = raid_levels(["/dev/a", "/dev/b"], mount="/mnt/x")
    assert [s.measure["raid_level"] for s in two.steps if s.measure] == ["0", "1"]
    with pytest.raises(PlanRefused, match=r"^1 drive\(s\) allow RAID no level only"):
        raid_levels(["/dev/a"], mount="/mnt/x")
    with pytest.raises(PlanRefused, match="^RAID 6 takes at least 4 drives; 3 given$"):
        raid_levels(["/dev/a", "/dev/b", "/dev/c"], mount="/mnt/x", levels=["5", "6"])


def test_array_state_measures_optimal_degraded_rebuilding_and_optimal_again():
    plan = array_state(["/dev/a", "/dev/b", "/dev/c", "/dev/d"], mount="/mnt/x", level="10", limit_before_kib_s=123)
    assert [s.measure["state"] for s in plan.steps if s.measure] == ["optimal", "degraded", "rebuilding", "optimal"]
    assert plan.teardown[0].argv == ("sh", "-c", "echo 123 > /proc/sys/dev/raid/speed_limit_max")
    with pytest.raises(PlanRefused, match="survives a failed member"):
        array_state(["/dev/a", "/dev/b"], mount="/mnt/x", level="0")


def test_a_protocol_plan_takes_two_ways_or_more():
    plan = protocol(mount="/mnt/x", local="/dev/a", nvme_tcp=("10.0.0.2", "nqn.2026-12.org.benchdb:t"))
    assert [s.measure["protocol"] for s in plan.steps if s.measure] == ["local", "nvme-tcp"]
    assert plan.teardown[-1].argv == ("nvme", "disconnect", "-n", "nqn.2026-12.org.benchdb:t")
    with pytest.raises(PlanRefused, match="takes two ways to the storage or more"):
        protocol(mount="/mnt/x", nfs="srv:/export")


@needs_tools
def test_a_plan_without_dry_run_says_it_is_not_run_yet(drives):
    done = CliRunner().invoke(main, ["capture", "--plan", "raid-levels", *[f"--device={d}" for d in drives[:2]]])
    assert done.exit_code == 1
    assert done.output == ("Error: running a plan is not built yet (issue #63: the lab's guest kernel runs it first); "
                           "--dry-run prints it\n")
