"""Build the lab's guest assets from Debian's packages: a kernel with md and the storage targets,
its modules, and a small initramfs that mounts the host's root read-only over virtiofs.

Everything goes into build/lab/ (git-ignored): the kernel package as downloaded, the package
extracted with its modules indexed by depmod, and initrd.cpio.gz. The guest has no root image of
its own: it sees the host's filesystem (read-only, a tmpfs over it), so mariadb, sysbench, mdadm
and the project's venv are the host's. Debian's cloud kernel has no 9p, hence virtiofs (QEMU's
virtiofsd, /usr/lib/qemu/virtiofsd in qemu-system-common).

    python3 lab/build.py           # build what is missing, print the manifest
    python3 lab/build.py --force   # build again from the package
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "build" / "lab"
LAB = Path(__file__).resolve().parent
KERNEL_PACKAGE = "linux-image-cloud-amd64"  # a metapackage: it depends on the versioned image
# loaded by the initramfs, before the root filesystem is there (modprobe resolves their dependencies)
EARLY_MODULES = ("virtio_pci", "virtiofs", "overlay")
HOST_TOOLS = {  # tool: the Debian package that has it
    "qemu-system-x86_64": "qemu-system-x86", "qemu-img": "qemu-utils", "busybox": "busybox-static",
    "depmod": "kmod", "mdadm": "mdadm", "dpkg-deb": "dpkg", "unshare": "util-linux",
    "mkfs.ext4": "e2fsprogs",
}
VIRTIOFSD = Path("/usr/lib/qemu/virtiofsd")


class BuildError(Exception):
    pass


def run(cmd: list[str], **kw) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, **kw)
    if done.returncode != 0:
        raise BuildError(f"{' '.join(cmd)} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


def missing_tools() -> list[str]:
    """The Debian packages to install for the tools this lab needs on the host."""
    wanted = {pkg for tool, pkg in HOST_TOOLS.items() if shutil.which(tool) is None}
    if not VIRTIOFSD.exists():
        wanted.add("qemu-system-common")
    return sorted(wanted)


def busybox_is_static(path: str) -> bool:
    with open(path, "rb") as f:
        head = f.read(1 << 20)
    return b"/lib64/ld-linux" not in head and b"ld-linux-x86-64" not in head


def kernel_package() -> str:
    """The versioned image package the metapackage depends on, e.g. linux-image-6.1.0-57-cloud-amd64."""
    out = run(["apt-cache", "depends", KERNEL_PACKAGE])
    found = re.findall(r"Depends:\s+(linux-image-\S+)", out)
    if not found:
        raise BuildError(f"apt-cache does not know {KERNEL_PACKAGE} (run apt-get update)")
    return found[0]


def download(package: str, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    debs = sorted(into.glob(f"{package}_*.deb"))
    if not debs:
        run(["apt-get", "download", package], cwd=into)
        debs = sorted(into.glob(f"{package}_*.deb"))
    if not debs:
        raise BuildError(f"apt-get download {package} wrote no .deb into {into}")
    return debs[-1]


def extract_kernel(deb: Path, into: Path) -> str:
    """Extract the package into ``into`` and index its modules; the kernel's release name."""
    if into.exists():
        shutil.rmtree(into)
    run(["dpkg-deb", "-x", str(deb), str(into)])
    releases = [p.name for p in (into / "lib" / "modules").iterdir() if p.is_dir()]
    if len(releases) != 1:
        raise BuildError(f"{deb.name} has {len(releases)} module trees, expected one")
    release = releases[0]
    run(["depmod", "-b", str(into), release])
    return release


def early_modules(kernel_dir: Path, release: str) -> list[Path]:
    """The .ko files to insmod, in order, for EARLY_MODULES and what they depend on."""
    ordered: list[Path] = []
    for name in EARLY_MODULES:
        out = run(["modprobe", "--show-depends", "-d", str(kernel_dir), "-S", release, name])
        for line in out.splitlines():
            parts = line.split()
            if parts[:1] == ["insmod"]:
                path = Path(parts[1])
                if path not in ordered:
                    ordered.append(path)
    return ordered


def write_newc(root: Path, out: Path) -> None:
    """A gzip'd cpio archive (the kernel's newc format) of the folder ``root``."""
    entries = sorted(p for p in root.rglob("*"))
    with gzip.open(out, "wb", compresslevel=6) as f:
        ino = 1
        for path in [root, *entries]:
            rel = "." if path == root else str(path.relative_to(root))
            st = path.lstat()
            data = b""
            if path.is_symlink():
                data = os.readlink(path).encode()
            elif path.is_file():
                data = path.read_bytes()
            _newc_entry(f, rel, st.st_mode, data, ino)
            ino += 1
        _newc_entry(f, "TRAILER!!!", 0, b"", 0)


def _newc_entry(f, name: str, mode: int, data: bytes, ino: int) -> None:
    encoded = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(encoded), 0]
    header = b"070701" + b"".join(b"%08X" % v for v in fields)
    f.write(header + encoded + b"\0" * (-(len(header) + len(encoded)) % 4))
    f.write(data + b"\0" * (-len(data) % 4))


def build_initramfs(kernel_dir: Path, release: str, out: Path) -> int:
    staging = CACHE / "initramfs"
    if staging.exists():
        shutil.rmtree(staging)
    for d in ("bin", "dev", "proc", "sys", "lower", "upper", "newroot", "modules"):
        (staging / d).mkdir(parents=True)
    busybox = shutil.which("busybox")
    if not busybox or not busybox_is_static(busybox):
        raise BuildError("a static busybox is needed for the initramfs: apt-get install busybox-static")
    shutil.copy2(busybox, staging / "bin" / "busybox")
    (staging / "bin" / "sh").symlink_to("busybox")
    shutil.copy2(LAB / "init.sh", staging / "init")
    (staging / "init").chmod(0o755)
    modules = early_modules(kernel_dir, release)
    for ko in modules:
        shutil.copy2(ko, staging / "modules" / ko.name)
    (staging / "modules" / "order").write_text("".join(f"{ko.name}\n" for ko in modules))
    write_newc(staging, out)
    shutil.rmtree(staging)
    return len(modules)


def assets(force: bool = False) -> dict:
    """Build what is missing (everything, with ``force``) and return the manifest."""
    manifest_path = CACHE / "assets.json"
    if manifest_path.exists() and not force:
        manifest = json.loads(manifest_path.read_text())
        if all(Path(manifest[k]).exists() for k in ("kernel", "initrd", "modules")) \
                and manifest.get("init_digest") == _init_digest():
            return manifest
    missing = missing_tools()
    if missing:
        raise BuildError("install on the host first: apt-get install -y --no-install-recommends " + " ".join(missing))
    started = time.monotonic()
    CACHE.mkdir(parents=True, exist_ok=True)
    package = kernel_package()
    deb = download(package, CACHE / "debs")
    downloaded = time.monotonic()
    kernel_dir = CACHE / "kernel"
    release = extract_kernel(deb, kernel_dir)
    initrd = CACHE / "initrd.cpio.gz"
    count = build_initramfs(kernel_dir, release, initrd)
    finished = time.monotonic()
    manifest = {
        "package": package, "deb": str(deb), "release": release,
        "kernel": str(kernel_dir / "boot" / f"vmlinuz-{release}"),
        "modules": str(kernel_dir / "lib" / "modules"), "initrd": str(initrd), "early_modules": count,
        "init_digest": _init_digest(),
        "seconds": {"download": round(downloaded - started, 1), "extract_and_initramfs": round(finished - downloaded, 1),
                    "total": round(finished - started, 1)},
        "bytes": {"deb": deb.stat().st_size, "initrd": initrd.stat().st_size, "kernel_tree": _du(kernel_dir)},
    }
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _init_digest() -> str:
    import hashlib
    return hashlib.sha256((LAB / "init.sh").read_bytes()).hexdigest()[:16]


def _du(path: Path) -> int:
    return sum(p.lstat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build again even if the assets are there")
    args = parser.parse_args(argv)
    try:
        manifest = assets(force=args.force)
    except BuildError as exc:
        print(f"lab build: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(manifest, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
