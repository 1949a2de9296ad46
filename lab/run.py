"""Boot the lab's guest under QEMU (TCG: no KVM needed) and run one command in it.

The guest sees the host's root read-only (virtiofs under a tmpfs overlay, see lab/init.sh), a
writable output folder at /lab-out (the run folder's out/ on the host) and small raw files as
virtio disks /dev/vda, /dev/vdb... Only files this script creates are given to the guest as disks;
they are deleted when the guest has stopped, and so is every process started here.

    python3 lab/run.py -- uname -r
    python3 lab/run.py --disks 4 --disk-mib 384 -- "$PWD/.venv/bin/python" "$PWD/lab/scenario.py"

The command runs in the guest with /lab-out as its folder; its output is out/job.log.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: the project's root
from lab import build  # noqa: E402

RUNS = build.CACHE / "runs"
QEMU = "qemu-system-x86_64"


class LabError(Exception):
    pass


def _virtiofsd(socket: Path, source: Path, *, read_only: bool, log: Path) -> subprocess.Popen:
    """virtiofsd serving ``source``; read-only through a private mount namespace's read-only bind
    mount (QEMU 7.2's virtiofsd has no read-only option), so the host's root is never writable."""
    daemon = [str(build.VIRTIOFSD), f"--socket-path={socket}", "-o", "sandbox=chroot",
              "-o", f"cache={'always' if read_only else 'auto'}"]
    if read_only:
        view = socket.parent / "root-ro"
        view.mkdir(exist_ok=True)
        script = 'mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" && shift 2 && exec "$@"'
        cmd = ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh",
               str(source), str(view), *daemon, "-o", f"source={view}"]
    else:
        cmd = [*daemon, "-o", f"source={source}"]
    return subprocess.Popen(cmd, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)


def _wait_for(path: Path, procs: list[subprocess.Popen], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if any(p.poll() is not None for p in procs):
            raise LabError(f"virtiofsd stopped before {path.name} appeared (see virtiofsd.log)")
        if time.monotonic() > deadline:
            raise LabError(f"{path} did not appear in {seconds:.0f} s")
        time.sleep(0.05)


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _stop(proc: subprocess.Popen, grace: float = 5) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def boot(command: list[str], *, disks: int = 4, disk_mib: int = 384, memory_mib: int = 2048, cpus: int = 2,
         upper: str = "768M", timeout_s: float = 1200, run_dir: Path | None = None, keep_disks: bool = False,
         echo=print) -> dict:
    """Run ``command`` in a fresh guest; a summary (also written to out/lab-run.json)."""
    if shutil.which(QEMU) is None:
        raise LabError(f"{QEMU} is not installed: apt-get install -y --no-install-recommends qemu-system-x86 qemu-utils")
    manifest = build.assets()
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    run_dir = run_dir or RUNS / stamp
    out = run_dir / "out"
    out.mkdir(parents=True)
    job = out / "job"
    job.write_text("#!/bin/sh\n# written by lab/run.py: the command, its output into job.log\n"
                   f"cd /lab-out || exit 1\n{shlex.join(command)} > job.log 2>&1\n")
    job.chmod(0o755)
    disk_files = []
    for i in range(disks):
        disk = run_dir / f"disk{i}.img"
        subprocess.run(["qemu-img", "create", "-q", "-f", "raw", str(disk), f"{disk_mib}M"], check=True)
        disk_files.append(disk)
    log = run_dir / "virtiofsd.log"
    sockets = (run_dir / "root.sock", run_dir / "out.sock")
    daemons = [_virtiofsd(sockets[0], Path("/"), read_only=True, log=log),
               _virtiofsd(sockets[1], out, read_only=False, log=log)]
    qemu = None
    summary: dict = {"command": command, "run_dir": str(run_dir), "disks": disks, "disk_mib": disk_mib,
                     "memory_mib": memory_mib, "cpus": cpus, "kernel": manifest["release"]}
    try:
        for sock in sockets:
            _wait_for(sock, daemons, 10)
        cmdline = (f"console=ttyS0 quiet panic=-1 lab.modules={manifest['modules']} lab.upper={upper}")
        argv = [QEMU, "-accel", "tcg", "-machine", "q35", "-cpu", "max", "-smp", str(cpus), "-m", f"{memory_mib}M",
                "-object", f"memory-backend-memfd,id=mem,size={memory_mib}M,share=on", "-numa", "node,memdev=mem",
                "-kernel", manifest["kernel"], "-initrd", manifest["initrd"], "-append", cmdline,
                "-display", "none", "-monitor", "none", "-serial", f"file:{run_dir / 'console.log'}",
                "-no-reboot", "-nic", "none",
                "-chardev", f"socket,id=fs0,path={sockets[0]}", "-device", "vhost-user-fs-pci,chardev=fs0,tag=root",
                "-chardev", f"socket,id=fs1,path={sockets[1]}", "-device", "vhost-user-fs-pci,chardev=fs1,tag=out"]
        for i, disk in enumerate(disk_files):
            argv += ["-drive", f"file={disk},format=raw,if=none,id=d{i},cache=writeback,aio=threads",
                     "-device", f"virtio-blk-pci,drive=d{i},serial=lab{i}"]
        summary["qemu"] = argv
        started = time.monotonic()
        qemu = subprocess.Popen(argv, stdout=(run_dir / "qemu.log").open("wb"), stderr=subprocess.STDOUT,
                                start_new_session=True)
        summary["qemu_pid"] = qemu.pid
        peak, booted_s = 0, None
        while qemu.poll() is None:
            peak = max(peak, _rss_kib(qemu.pid))
            if booted_s is None and (out / "booted").exists():
                booted_s = round(time.monotonic() - started, 1)
                echo(f"lab: guest up after {booted_s} s (host wall time), running the command")
            if time.monotonic() - started > timeout_s:
                echo(f"lab: no end after {timeout_s:.0f} s, stopping QEMU")
                _stop(qemu)
                summary["timed_out"] = True
                break
            time.sleep(0.5)
        summary["wall_s"] = round(time.monotonic() - started, 1)
        summary["boot_s"] = booted_s
        summary["qemu_peak_rss_mib"] = round(peak / 1024)
        summary["guest_uptime_at_job_s"] = _first_float(out / "booted")
        status = (out / "exit-status").read_text().strip() if (out / "exit-status").exists() else None
        summary["exit_status"] = int(status) if status and status.isdigit() else None
    finally:
        if qemu is not None:
            _stop(qemu)
        for d in daemons:
            _stop(d)
        if not keep_disks:
            for disk in disk_files:
                disk.unlink(missing_ok=True)
        for sock in sockets:
            sock.unlink(missing_ok=True)
        view = run_dir / "root-ro"
        if view.is_dir():
            view.rmdir()
    (out / "lab-run.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _first_float(path: Path) -> float | None:
    try:
        return float(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--disks", type=int, default=4)
    parser.add_argument("--disk-mib", type=int, default=384)
    parser.add_argument("--memory-mib", type=int, default=2048)
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=1200, help="seconds before QEMU is stopped")
    parser.add_argument("command", nargs="+", help="the command to run in the guest (after --)")
    args = parser.parse_args(argv)
    try:
        summary = boot(args.command, disks=args.disks, disk_mib=args.disk_mib, memory_mib=args.memory_mib,
                       cpus=args.cpus, timeout_s=args.timeout)
    except (LabError, build.BuildError) as exc:
        print(f"lab: {exc}", file=sys.stderr)
        return 1
    job_log = Path(summary["run_dir"]) / "out" / "job.log"
    if job_log.exists():
        sys.stdout.write(job_log.read_text(errors="replace"))
    print(json.dumps({k: v for k, v in summary.items() if k != "qemu"}, indent=2))
    return 0 if summary.get("exit_status") == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
