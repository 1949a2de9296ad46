"""NFS inside the lab's guest: the array's filesystem exported by the kernel's nfsd (the host's
nfs-kernel-server tools: rpcbind, exportfs, rpc.mountd, rpc.nfsd) and mounted over NFSv4.2 on
127.0.0.1 by the kernel's client. The guest is server and client: TCP over loopback, no network.
"""

from __future__ import annotations

from pathlib import Path

EXPORT = Path("/srv/lab-export")
# fsid=0: the export is NFSv4's root. Without it nfs-utils makes a pseudo-root of "/", the guest's
# overlay, which cannot be exported, and the mount fails with "No such file or directory"
SOURCE = "127.0.0.1:/"
OPTIONS = "vers=4.2,proto=tcp,hard"
# a new server refuses opens for its grace period (90 s by default): the guest's server is new
GRACE_S = "10"


def attach(md: str, run) -> str:
    """Put ext4 on ``md``, export it and return what to mount (``mount -t nfs4 -o OPTIONS``)."""
    run(["modprobe", "-a", "nfsd", "nfsv4"])
    run(["ip", "link", "set", "lo", "up"])
    run(["mkfs.ext4", "-q", "-F", md])
    EXPORT.mkdir(parents=True, exist_ok=True)
    run(["mount", "-o", "noatime", md, str(EXPORT)])
    nfsd = Path("/proc/fs/nfsd")
    if not (nfsd / "threads").exists():
        run(["mount", "-t", "nfsd", "nfsd", str(nfsd)])
    for name in ("nfsv4gracetime", "nfsv4leasetime"):
        if (nfsd / name).exists():
            (nfsd / name).write_text(GRACE_S + "\n")
    Path("/var/lib/nfs/rpc_pipefs").mkdir(parents=True, exist_ok=True)
    run(["rpcbind", "-w"])
    run(["exportfs", "-o", "rw,sync,no_root_squash,no_subtree_check,insecure,fsid=0", f"127.0.0.1:{EXPORT}"])
    run(["rpc.mountd", "--no-udp"])
    run(["rpc.nfsd", "--no-udp", "4"])
    run(["exportfs", "-v"])
    return SOURCE


def detach(run) -> None:
    """Stop the server and unmount the export (the client's mount is the scenario's to undo)."""
    run(["rpc.nfsd", "0"], check=False)
    run(["exportfs", "-ua"], check=False)
    # rpcbind and rpc.mountd are left to the guest's power-off: they hold nothing on the export
    run(["umount", str(EXPORT)])


def describe() -> str:
    return f"NFS ({OPTIONS}) from the guest's own nfsd on 127.0.0.1 (ext4 on the md array, exported)"
