"""Capture plans for the comparisons the catalogue lacks most (issue #63): RAID levels, array state and
storage protocol, each the same workload over the same drives with one thing changed. A plan is a list
of steps, each a command the kit runs (argv) or a measurement it makes (sysbench over the thread counts,
with /proc/mdstat sampled every second), and the teardown that undoes what the steps made; ``--dry-run``
prints it, and nothing is touched. The devices are checked first (capture_devices.py).

Running a plan is for the lab (a guest kernel with md: `make lab`) and machines with drives to spare;
what this module owns is which commands, in which order, and what each run records."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

ARRAY = "/dev/md/benchdb"  # the array a plan makes (md names it so under /dev/md)
SPEED_LIMIT = "/proc/sys/dev/raid/speed_limit_max"
# md's RAID levels a plan compares, and the fewest members each takes
LEVELS = {"0": 2, "1": 2, "5": 3, "6": 4, "10": 4}
PROTOCOLS = ("local", "nfs", "iscsi", "nvme-tcp")


class PlanRefused(Exception):
    """Why no plan can be made of what was given."""


@dataclass(frozen=True)
class Step:
    says: str  # what the step is for, in words
    argv: tuple[str, ...] = ()  # the command; () for a measurement benchdb makes itself
    measure: dict = field(default_factory=dict)  # a measurement's system facts (raid level, state, protocol)

    def line(self) -> str:
        return shlex.join(self.argv) if self.argv else f"[measure] {self.says}"


@dataclass(frozen=True)
class Plan:
    kind: str
    steps: list[Step]
    teardown: list[Step]  # run however the plan ends, in this order

    def lines(self) -> list[str]:
        out = [f"plan {self.kind}: {sum(1 for s in self.steps if s.measure)} measurements, "
               f"{sum(1 for s in self.steps if s.argv)} commands"]
        out += [f"{i:3}. {s.line()}" + (f"    # {s.says}" if s.argv else "") for i, s in enumerate(self.steps, 1)]
        out.append("teardown, however the plan ends:")
        out += [f"     {s.line()}" for s in self.teardown]
        return out


def _mkfs(device: str, filesystem: str) -> Step:
    force = "-f" if filesystem in ("xfs", "btrfs") else "-F"
    return Step(f"a filesystem ({filesystem}) on {device}", ("mkfs." + filesystem, force, device))


def _array(level: str, devices: list[str], *, mount: str, filesystem: str, options: str) -> list[Step]:
    return [
        Step(f"md RAID {level} of {len(devices)} drives", ("mdadm", "--create", ARRAY, "--run", "--metadata=1.2",
                                                          f"--level={level}", f"--raid-devices={len(devices)}", *devices)),
        Step("the initial resync finished, so that the array is measured optimal", ("mdadm", "--wait", ARRAY)),
        _mkfs(ARRAY, filesystem),
        Step(f"mounted at {mount}", ("mount", "-o", options, ARRAY, mount)),
    ]


def _unmade(devices: list[str], *, mount: str) -> list[Step]:
    return [Step(f"{mount} unmounted", ("umount", mount)), Step("the array stopped", ("mdadm", "--stop", ARRAY)),
            Step("the members' md superblocks erased", ("mdadm", "--zero-superblock", *devices))]


def raid_levels(devices: list[str], *, mount: str, filesystem: str = "ext4", options: str = "noatime",
                levels: list[str] | None = None) -> Plan:
    """The same drives as each md RAID level their count allows (LEVELS), one after the other."""
    allowed = [lv for lv, fewest in LEVELS.items() if len(devices) >= fewest]
    chosen = levels or allowed
    unknown = [lv for lv in chosen if lv not in LEVELS]
    if unknown:
        raise PlanRefused(f"RAID level {', '.join(unknown)}: a plan compares md's levels {', '.join(LEVELS)}")
    short = [lv for lv in chosen if lv not in allowed]
    if short:
        raise PlanRefused(f"RAID {', '.join(short)} takes at least {LEVELS[short[0]]} drives; {len(devices)} given")
    if len(chosen) < 2:
        raise PlanRefused(f"{len(devices)} drive(s) allow RAID {', '.join(chosen) or 'no level'} only: a comparison "
                          "takes two levels or more")
    steps: list[Step] = []
    for level in chosen:
        steps += _array(level, devices, mount=mount, filesystem=filesystem, options=options)
        steps.append(Step(f"RAID {level}, optimal: the workload at each thread count",
                          measure={"raid_level": level, "state": "optimal"}))
        steps += _unmade(devices, mount=mount)
    return Plan("raid-levels", steps, _unmade(devices, mount=mount))


def array_state(devices: list[str], *, mount: str, level: str = "10", filesystem: str = "ext4",
                options: str = "noatime", rebuild_kib_s: int = 10_000, limit_before_kib_s: int = 200_000) -> Plan:
    """One array optimal, then with a member failed (degraded), then while that member rebuilds (the
    rebuild's speed limited to ``rebuild_kib_s`` so that it lasts through the runs; ``limit_before_kib_s``,
    the limit in effect, put back at the end), then optimal again."""
    if level not in LEVELS or level == "0":
        raise PlanRefused(f"RAID {level}: array state is compared on an md level that survives a failed member "
                          "(1, 5, 6 or 10)")
    if len(devices) < LEVELS[level]:
        raise PlanRefused(f"RAID {level} takes at least {LEVELS[level]} drives; {len(devices)} given")
    failed = devices[-1]
    facts = {"raid_level": level}
    steps = _array(level, devices, mount=mount, filesystem=filesystem, options=options) + [
        Step("optimal: the workload at each thread count", measure={**facts, "state": "optimal"}),
        Step(f"{failed} failed", ("mdadm", ARRAY, "--fail", failed)),
        Step("degraded: the workload at each thread count", measure={**facts, "state": "degraded"}),
        Step(f"{failed} removed", ("mdadm", ARRAY, "--remove", failed)),
        Step(f"{failed}'s old superblock erased, so that it is added as a spare", ("mdadm", "--zero-superblock", failed)),
        Step(f"the rebuild limited to {rebuild_kib_s:,} KiB/s (from {limit_before_kib_s:,})",
             ("sh", "-c", f"echo {rebuild_kib_s} > {SPEED_LIMIT}")),
        Step(f"{failed} added back: the array rebuilds onto it", ("mdadm", ARRAY, "--add", failed)),
        Step("rebuilding: the workload at each thread count, until the rebuild ends",
             measure={**facts, "state": "rebuilding"}),
        Step("the rebuild finished", ("mdadm", "--wait", ARRAY)),
        Step("optimal again: the workload at each thread count", measure={**facts, "state": "optimal"}),
    ]
    restore = Step("the rebuild's speed limit put back", ("sh", "-c", f"echo {limit_before_kib_s} > {SPEED_LIMIT}"))
    return Plan("array-state", steps, [restore, *_unmade(devices, mount=mount)])


def protocol(*, mount: str, local: str | None = None, nfs: str | None = None, iscsi: tuple[str, str] | None = None,
             nvme_tcp: tuple[str, str] | None = None, filesystem: str = "ext4", options: str = "noatime") -> Plan:
    """One export reached each way the contributor names: a local device (``local``), NFS (``nfs``:
    host:/path), iSCSI (``iscsi``: portal, target IQN) and NVMe/TCP (``nvme_tcp``: address, NQN); the
    same workload over each, mounted at ``mount``. The targets are the contributor's to set up."""
    ways = [w for w, given in (("local", local), ("nfs", nfs), ("iscsi", iscsi), ("nvme-tcp", nvme_tcp)) if given]
    if len(ways) < 2:
        raise PlanRefused("a protocol comparison takes two ways to the storage or more (--local, --nfs, --iscsi, "
                          f"--nvme-tcp); {len(ways)} given")
    steps: list[Step] = []
    teardown: list[Step] = []
    for way in ways:
        after: list[Step] = []  # what undoes the way's own connection, once it is measured
        if way == "nfs":
            steps.append(Step(f"{nfs} mounted over NFS", ("mount", "-t", "nfs", "-o", f"vers=4.2,{options}", nfs, mount)))
        else:
            device = local
            if way == "iscsi":
                portal, iqn = iscsi
                steps.append(Step(f"logged in to {iqn}", ("iscsiadm", "-m", "node", "-T", iqn, "-p", portal, "--login")))
                device = f"/dev/disk/by-path/ip-{portal}-iscsi-{iqn}-lun-0"
                after = [Step(f"logged out of {iqn}", ("iscsiadm", "-m", "node", "-T", iqn, "-p", portal, "--logout"))]
            elif way == "nvme-tcp":
                address, nqn = nvme_tcp
                steps.append(Step(f"connected to {nqn}", ("nvme", "connect", "-t", "tcp", "-a", address, "-n", nqn)))
                device = f"/dev/disk/by-id/nvme-subsystem-{nqn}"  # the namespace of that subsystem
                after = [Step(f"disconnected from {nqn}", ("nvme", "disconnect", "-n", nqn))]
            steps += [_mkfs(device, filesystem), Step(f"mounted at {mount}", ("mount", "-o", options, device, mount))]
        steps += [Step(f"over {way}: the workload at each thread count", measure={"protocol": way}),
                  Step(f"{mount} unmounted", ("umount", mount)), *after]
        teardown += after
    return Plan("protocol", steps, [Step(f"{mount} unmounted", ("umount", mount)), *teardown])
