"""The devices a capture plan would make arrays of: each one refused while it holds anything (a partition
table, a filesystem, an md superblock or another signature, a mount, a holder such as an md array or a
device-mapper volume) unless the contributor names it in ``--destroy-data``. Read, never written: the
signatures by blkid's low-level probe (util-linux), the mounts from /proc/self/mounts, the holders from
/sys/class/block. A regular file (a disk image, as the lab and the tests give) is read as a device is."""

from __future__ import annotations

import os
import re
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

PROBE = ["blkid", "--probe", "--output", "export"]  # exit status 2: no signature found
WHAT = {"filesystem": "a filesystem", "raid": "an md (or other RAID) superblock", "crypto": "an encrypted volume",
        "other": "a signature"}


class DeviceRefused(Exception):
    """Why the plan will not touch the devices given, one line a device."""


@dataclass(frozen=True)
class Held:
    device: str
    holds: tuple[str, ...]  # in words: "a filesystem (ext4)", "a mount at /srv", ...


def holds(device: str, *, mounts: str | None = None, swaps: str | None = None,
          sys_block: Path = Path("/sys/class/block")) -> tuple[str, ...]:
    """What ``device`` holds, in words; () when nothing was found. DeviceRefused when it is no block device
    nor regular file, or cannot be probed."""
    try:
        info = os.stat(device)
    except OSError as exc:
        raise DeviceRefused(f"{device}: {exc.strerror}") from None
    if not (stat.S_ISBLK(info.st_mode) or stat.S_ISREG(info.st_mode)):
        raise DeviceRefused(f"{device}: not a block device (nor a disk image)")
    found = list(_signatures(device))
    real = os.path.realpath(device)
    for source, target in _mounted(mounts):
        if source == real or stat.S_ISBLK(info.st_mode) and _partition_of(source, real):
            found.append(f"a mount at {target}")
    swaps = Path("/proc/swaps").read_text() if swaps is None and Path("/proc/swaps").exists() else swaps or ""
    if any(line.split()[:1] == [real] for line in swaps.splitlines()[1:]):
        found.append("an active swap area")
    if stat.S_ISBLK(info.st_mode):
        name = Path(real).name
        holders = sorted(p.name for p in (sys_block / name / "holders").glob("*"))
        parts = sorted(p.name for p in (sys_block / name).glob(f"{name}*"))
        if holders:
            found.append(f"a holder ({', '.join(holders)}: an array or volume made of it)")
        if parts:
            found.append(f"partitions ({', '.join(parts)})")
    return tuple(found)


def _mounted(mounts: str | None) -> list[tuple[str, str]]:
    """Each mount's (source, target), from ``mounts`` or /proc/self/mounts, its octal escapes (\\040, a
    space) read back into the UTF-8 name they stand for."""
    table = mounts if mounts is not None else Path("/proc/self/mounts").read_text()
    unescaped = (lambda f: re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), f.encode())
                 .decode("utf-8", "replace"))
    return [(unescaped(f[0]), unescaped(f[1])) for f in (line.split() for line in table.splitlines()) if len(f) >= 2]


def _partition_of(name: str, device: str) -> bool:
    """Whether ``name`` is a partition of ``device`` (/dev/sda1 of /dev/sda, /dev/nvme0n1p2 of /dev/nvme0n1)."""
    rest = name[len(device):] if name.startswith(device) else ""
    return rest.isdigit() or rest[:1] == "p" and rest[1:].isdigit()


def _signatures(device: str):
    try:
        done = subprocess.run([*PROBE, device], capture_output=True, text=True, timeout=60, check=False)
    except FileNotFoundError:
        raise DeviceRefused("blkid is not installed (util-linux): the devices cannot be checked") from None
    if done.returncode == 2:
        return
    if done.returncode != 0:
        raise DeviceRefused(f"{device}: blkid cannot probe it ({done.stderr.strip() or done.returncode})")
    probed = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    if "PTTYPE" in probed:
        yield f"a partition table ({probed['PTTYPE']})"
    if "TYPE" in probed:
        usage = probed.get("USAGE", "other")
        yield f"{WHAT.get(usage, WHAT['other'])} ({probed['TYPE']})"


def check_devices(devices: list[str], *, destroy: list[str], **reading) -> list[Held]:
    """The devices that hold something (each named in ``destroy``, or DeviceRefused names every one that
    is not); a device given twice, or named in ``destroy`` but not given, is refused too."""
    if len(set(map(os.path.realpath, devices))) < len(devices):
        raise DeviceRefused("a device is given twice")
    stray = sorted(set(destroy) - set(devices))
    if stray:
        raise DeviceRefused(f"--destroy-data names {', '.join(stray)}, which the plan does not use")
    held = [Held(d, h) for d in devices if (h := holds(d, **reading))]
    refused = [h for h in held if h.device not in destroy]
    if refused:
        raise DeviceRefused("\n".join(f"{h.device} holds {', '.join(h.holds)}: refused; if its data may be destroyed, "
                                      f"name it: --destroy-data {h.device}" for h in refused))
    return held


def check_mount(mount: str, *, mounts: str | None = None) -> None:
    """DeviceRefused unless ``mount`` is an absolute path where nothing is mounted now: the plan mounts its
    storage there and its teardown unmounts it (--mount / would have unmounted the root: the eighth pass)."""
    real = os.path.realpath(mount)
    if not os.path.isabs(mount) or real == "/":
        raise DeviceRefused(f"--mount {mount}: give an absolute folder other than /, where the plan's storage goes")
    if real in {target for _, target in _mounted(mounts)}:
        raise DeviceRefused(f"--mount {mount}: something is mounted there now, and the plan's teardown would unmount it")
