"""iSCSI inside the lab's guest: the array exported by the kernel's target (LIO, set up through
configfs: an iblock backstore, a portal on 127.0.0.1:3260) and logged into by open-iscsi's
initiator (the host's iscsid and iscsiadm). The guest is target and initiator: TCP over loopback.
"""

from __future__ import annotations

import time
from pathlib import Path

TARGET = Path("/sys/kernel/config/target")
IQN = "iqn.2026-12.org.benchdb:lab"
PORTAL = "127.0.0.1:3260"
BACKSTORE = TARGET / "core" / "iblock_0" / "lab"
TPG = TARGET / "iscsi" / IQN / "tpgt_1"


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def attach(md: str, run) -> str:
    """Export ``md`` over iSCSI and log in; the SCSI disk that appears (/dev/sdX)."""
    run(["modprobe", "-a", "target_core_mod", "target_core_iblock", "iscsi_target_mod", "iscsi_tcp", "sd_mod"])
    if not TARGET.exists():
        run(["mount", "-t", "configfs", "configfs", "/sys/kernel/config"])
    run(["ip", "link", "set", "lo", "up"])
    BACKSTORE.mkdir(parents=True)
    _write(BACKSTORE / "control", f"udev_path={md}")
    _write(BACKSTORE / "enable", "1")
    TPG.mkdir(parents=True)
    lun = TPG / "lun" / "lun_0"
    lun.mkdir()
    (lun / "lab").symlink_to(BACKSTORE)
    (TPG / "np" / PORTAL).mkdir()
    # no authentication, any initiator, writable: a loopback lab
    for name, value in (("authentication", "0"), ("generate_node_acls", "1"), ("demo_mode_write_protect", "0"),
                        ("cache_dynamic_acls", "1")):
        _write(TPG / "attrib" / name, value)
    _write(TPG / "enable", "1")
    before = set(Path("/sys/block").glob("sd*"))
    run(["iscsid"])
    run(["iscsiadm", "-m", "discovery", "-t", "sendtargets", "-p", PORTAL])
    # the 5 s no-op pings time out under emulation: a slow guest is not a dead target
    for name in ("node.conn[0].timeo.noop_out_interval", "node.conn[0].timeo.noop_out_timeout"):
        run(["iscsiadm", "-m", "node", "-T", IQN, "-p", PORTAL, "-o", "update", "-n", name, "-v", "0"])
    run(["iscsiadm", "-m", "node", "-T", IQN, "-p", PORTAL, "--login"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        new = sorted(set(Path("/sys/block").glob("sd*")) - before)
        if new and Path(f"/dev/{new[0].name}").exists():
            return f"/dev/{new[0].name}"
        time.sleep(0.5)
    raise RuntimeError("logged in to the iSCSI target but no SCSI disk appeared")


def detach(run) -> None:
    """Log out and take the target down again."""
    run(["iscsiadm", "-m", "node", "-T", IQN, "-p", PORTAL, "--logout"])
    _write(TPG / "enable", "0")
    (TPG / "np" / PORTAL).rmdir()
    (TPG / "lun" / "lun_0" / "lab").unlink()
    (TPG / "lun" / "lun_0").rmdir()
    TPG.rmdir()
    (TARGET / "iscsi" / IQN).rmdir()
    BACKSTORE.rmdir()


def describe() -> str:
    return f"iSCSI to the guest's own LIO target on {PORTAL} (an iblock backstore on the md array)"
