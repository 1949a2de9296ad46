"""NVMe over TCP inside the lab's guest: a block device exported by the kernel's NVMe target
(nvmet, set up through configfs) on 127.0.0.1 and connected by the kernel's own initiator
(a write to /dev/nvme-fabrics), so neither nvme-cli nor nvmetcli is needed.

The guest is both target and host: what it measures is the protocol's stack (TCP over loopback,
the target's and initiator's queues), not a network.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

CONFIGFS = Path("/sys/kernel/config")
NVMET = CONFIGFS / "nvmet"
NQN = "nqn.2026-12.org.benchdb:lab"
PORT_ID = "1"
ADDRESS, SERVICE = "127.0.0.1", "4420"


def _write(path: Path, value: str) -> None:
    path.write_text(value)


_connected: list[str] = []  # the controller attach connected (nvmeN), for detach


def attach(device: str, run) -> str:
    """Export ``device`` and connect to it; the connected block device (/dev/nvmeNnM).
    ``run`` runs a command (the scenario's logger)."""
    run(["modprobe", "-a", "nvmet", "nvmet-tcp", "nvme-tcp"])
    if not NVMET.exists():
        run(["mount", "-t", "configfs", "configfs", str(CONFIGFS)])
    run(["ip", "link", "set", "lo", "up"])
    subsystem = NVMET / "subsystems" / NQN
    subsystem.mkdir()
    _write(subsystem / "attr_allow_any_host", "1")
    namespace = subsystem / "namespaces" / "1"
    namespace.mkdir()
    _write(namespace / "device_path", device)
    _write(namespace / "enable", "1")
    port = NVMET / "ports" / PORT_ID
    port.mkdir()
    for name, value in (("addr_trtype", "tcp"), ("addr_adrfam", "ipv4"), ("addr_traddr", ADDRESS),
                        ("addr_trsvcid", SERVICE)):
        _write(port / name, value)
    (port / "subsystems" / NQN).symlink_to(subsystem)
    fd = os.open("/dev/nvme-fabrics", os.O_RDWR)
    try:
        os.write(fd, f"transport=tcp,traddr={ADDRESS},trsvcid={SERVICE},nqn={NQN}".encode())
        answer = os.read(fd, 4096).decode()  # "instance=0,cntlid=1"
    finally:
        os.close(fd)
    fields = dict(part.split("=", 1) for part in answer.strip().split(",") if "=" in part)
    controller = f"nvme{fields['instance']}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = sorted(Path("/dev").glob(f"{controller}n*"))
        if found:
            _connected.append(controller)
            return str(found[0])
        time.sleep(0.2)
    raise RuntimeError(f"connected {controller} ({answer.strip()}) but no namespace appeared in /dev")


def detach(run) -> None:
    """Disconnect and take the target down again."""
    while _connected:
        delete = Path("/sys/class/nvme") / _connected.pop() / "delete_controller"
        if delete.exists():
            _write(delete, "1")
    link = NVMET / "ports" / PORT_ID / "subsystems" / NQN
    if link.is_symlink():
        link.unlink()
    for path in (NVMET / "ports" / PORT_ID, NVMET / "subsystems" / NQN / "namespaces" / "1",
                 NVMET / "subsystems" / NQN):
        if path.exists():
            if path.name == "1" and (path / "enable").exists():
                _write(path / "enable", "0")
            path.rmdir()


def describe() -> str:
    return f"NVMe/TCP to the guest's own target on {ADDRESS}:{SERVICE} (nvmet over the md array)"

