"""The lab's RAID story, run inside the guest (lab/run.py boots it): create an md array over the
virtual disks, put MariaDB on it, measure with ``benchdb capture``, fail a member, add a
replacement and measure again while it rebuilds, until the array is whole again.

/proc/mdstat is sampled every second into mdstat.trace (an ISO time, then the file) for the whole
story; events.log says what was done when. Each capture's bundle is bundles/<id>/. The rebuild is
throttled (/proc/sys/dev/raid/speed_limit_*) so that it outlasts the capture run during it.

It refuses to run outside the lab's guest: it creates arrays on /dev/vd* and formats them.

    python3 lab/scenario.py --level 1 --out /lab-out
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script in the guest: lab/ is a package of the project's root
from lab import iscsi, nfs, nvme_tcp  # noqa: E402

PROTOCOLS = {"nvme-tcp": nvme_tcp, "iscsi": iscsi, "nfs": nfs}  # each: attach(md, run), detach(run), describe()
BENCHDB = ROOT / ".venv" / "bin" / "benchdb"
MD = "/dev/md0"
MOUNT = Path("/mnt/md0")
SPEED = Path("/proc/sys/dev/raid")
EMULATED_NOTE = ("Measured in the lab of issue #63: a QEMU guest under TCG (software emulation of the CPU, "
                 "no KVM), an md RAID {level} array over virtio disks that are sparse files on the host. "
                 "{protocol}The figures describe the emulator, not storage: {phase}.")


def now() -> str:
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


class Story:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.events = (out / "events.log").open("a", encoding="utf-8")
        self.trace = out / "mdstat.trace"
        self.stop_sampling = threading.Event()
        self.phases: dict[str, float] = {}

    def event(self, text: str) -> None:
        line = f"{now()} {text}"
        print(line, flush=True)
        self.events.write(line + "\n")
        self.events.flush()

    def run(self, cmd: list[str], *, check: bool = True, env: dict | None = None, timeout: float = 1800) -> str:
        self.event("$ " + " ".join(cmd))
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL)
        text = (done.stdout + done.stderr).strip()
        if text:
            self.events.write("".join(f"    {line}\n" for line in text.splitlines()))
            self.events.flush()
        if check and done.returncode != 0:
            raise SystemExit(f"{cmd[0]} failed ({done.returncode}): {text[-800:]}")
        return done.stdout

    def sample_forever(self) -> None:
        with self.trace.open("a", encoding="utf-8") as f:
            while not self.stop_sampling.is_set():
                f.write(f"{now()}\n{Path('/proc/mdstat').read_text()}")
                f.flush()
                self.stop_sampling.wait(1.0)

    def mdstat(self) -> str:
        return Path("/proc/mdstat").read_text()

    def wait_optimal(self, timeout: float) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            text = self.mdstat()
            if "recovery" not in text and "resync" not in text and "_" not in _status_line(text):
                return time.monotonic() - started
            time.sleep(1)
        raise SystemExit(f"the array is not optimal after {timeout:.0f} s:\n{self.mdstat()}")


def _status_line(mdstat: str) -> str:
    """The [UU_] part of md0's status line."""
    lines = mdstat.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("md0") and i + 1 < len(lines):
            return lines[i + 1].rsplit("[", 1)[-1]
    return ""


def set_speed(story: Story, min_kib: int, max_kib: int) -> None:
    # max first when raising, min first when lowering: min may never exceed max
    order = [("speed_limit_max", max_kib), ("speed_limit_min", min_kib)]
    if max_kib < int((SPEED / "speed_limit_max").read_text()):
        order.reverse()
    for name, value in order:
        (SPEED / name).write_text(f"{value}\n")
    story.event(f"speed_limit_min={min_kib} speed_limit_max={max_kib} (KiB/s)")


def capture(story: Story, args, *, bundle_id: str, phase: str) -> float:
    tmp = MOUNT / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(tmp)}  # the capture's own MariaDB: its datadir on the array
    started = time.monotonic()
    story.run([str(BENCHDB), "capture", "--out", str(story.out / "bundles" / bundle_id),
               "--threads", args.threads, "--repetitions", "1", "--time", str(args.time),
               "--tables", "1", "--table-size", str(args.table_size), "--doublewrite", "on", "--compression", "off",
               "--note", EMULATED_NOTE.format(level=args.level, phase=phase, protocol=args.protocol_note)], env=env)
    took = time.monotonic() - started
    story.phases[f"capture {bundle_id}"] = round(took, 1)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=["1", "5", "10"], default="1")
    parser.add_argument("--out", type=Path, default=Path("/lab-out"))
    parser.add_argument("--threads", default="1,2", help="benchdb capture --threads")
    parser.add_argument("--time", type=int, default=5, help="seconds a sysbench run")
    parser.add_argument("--table-size", type=int, default=1000)
    parser.add_argument("--rebuild-kib", type=int, default=1000, help="speed_limit_max during the measured rebuild")
    parser.add_argument("--skip-degraded-capture", action="store_true")
    parser.add_argument("--protocol", choices=["local", *PROTOCOLS], default="local",
                        help="how the database reaches the array: the guest is its own target (loopback)")
    args = parser.parse_args(argv)
    stack = PROTOCOLS.get(args.protocol)
    args.protocol_note = f"The database reached it by {stack.describe()}. " if stack else ""
    name = f"lab-raid{args.level}" + ("" if args.protocol == "local" else f"-{args.protocol}")
    if not Path("/lab-out/booted").exists():
        raise SystemExit("not in the lab's guest (/lab-out/booted is missing): this formats /dev/vd*")
    story = Story(args.out)
    begun = time.monotonic()
    story.run(["modprobe", "-a", "virtio_blk", "md_mod", "raid1", "raid456", "raid10"])
    disks = sorted(str(p) for p in Path("/dev").glob("vd?"))
    members = {"1": 2, "5": 3, "10": 4}[args.level]
    spare_needed = 1 if args.level != "10" else 0
    if len(disks) < members + spare_needed:
        raise SystemExit(f"RAID {args.level} wants {members + spare_needed} disks, the guest has {disks}")
    array, spare = disks[:members], (disks[members] if spare_needed else None)
    sampler = threading.Thread(target=story.sample_forever, daemon=True)
    # --assume-clean: the members are new sparse files (zeros), so mirrors and parity already agree
    story.run(["mdadm", "--create", MD, "--run", "--assume-clean", f"--level={args.level}",
               f"--raid-devices={members}", "--metadata=1.2", *array])
    sampler.start()
    story.run(["mdadm", "--detail", MD])
    MOUNT.mkdir(parents=True, exist_ok=True)
    if stack is nfs:  # the filesystem is the server's, on the array; the client mounts the export
        device = nfs.attach(MD, story.run)
        story.run(["mount", "-t", "nfs4", "-o", nfs.OPTIONS, device, str(MOUNT)])
    else:
        device = stack.attach(MD, story.run) if stack else MD
        if stack:
            story.event(f"{MD} exported over {args.protocol} and connected as {device}")
        story.run(["mkfs.ext4", "-q", "-F", device])
        story.run(["mount", "-o", "noatime", device, str(MOUNT)])
    story.phases["setup"] = round(time.monotonic() - begun, 1)

    capture(story, args, bundle_id=f"{name}-optimal", phase="the array optimal")

    failed = array[1]
    story.run(["mdadm", MD, "--fail", failed])
    story.run(["mdadm", MD, "--remove", failed])
    story.run(["mdadm", "--detail", MD])
    time.sleep(3)  # degraded for three samples at least, even with no capture while degraded
    if not args.skip_degraded_capture:
        capture(story, args, bundle_id=f"{name}-degraded", phase=f"the array degraded ({failed} failed)")
    set_speed(story, min_kib=max(1, args.rebuild_kib // 2), max_kib=args.rebuild_kib)
    replacement = spare or failed
    if spare is None:  # RAID 10 here has no fifth disk: the failed member comes back, wiped
        story.run(["mdadm", "--zero-superblock", failed])
    story.run(["mdadm", MD, "--add", replacement])
    time.sleep(2)
    during = story.mdstat()
    story.event("rebuilding: " + " ".join(line.strip() for line in during.splitlines() if "recovery" in line))
    capture(story, args, bundle_id=f"{name}-rebuilding",
            phase=f"the array rebuilding onto {replacement}, throttled to {args.rebuild_kib} KiB/s")
    still = "recovery" in story.mdstat()
    story.event(f"capture over; the rebuild {'still running' if still else 'had already finished'}")
    set_speed(story, min_kib=1000, max_kib=200000)
    took = story.wait_optimal(600)
    story.event(f"array optimal {took:.0f} s after the limit was lifted")
    story.run(["mdadm", "--detail", MD])
    time.sleep(1.5)  # one more sample of the whole array
    story.stop_sampling.set()
    sampler.join()
    story.run(["umount", str(MOUNT)])
    if stack:
        stack.detach(story.run)
        story.event(f"{args.protocol}: disconnected, the target taken down")
    story.run(["mdadm", "--stop", MD])
    story.phases["total"] = round(time.monotonic() - begun, 1)
    summary = {"level": args.level, "protocol": args.protocol, "device": device, "members": array, "failed": failed,
               "replacement": replacement, "rebuild_outlasted_capture": still, "seconds": story.phases,
               "meminfo": {line.split(":")[0]: line.split(":")[1].strip()
                           for line in Path("/proc/meminfo").read_text().splitlines()[:3]}}
    (args.out / "scenario.json").write_text(json.dumps(summary, indent=2) + "\n")
    story.event("done: " + json.dumps(story.phases))
    return 0


if __name__ == "__main__":
    sys.exit(main())
