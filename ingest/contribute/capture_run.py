"""``benchdb capture --plan``: the devices checked (capture_devices.py), then the plan (capture_plans.py)
printed. Running a plan's steps is the lab's next step (issue #63): without ``--dry-run`` the command
says so and touches nothing."""

from __future__ import annotations

from pathlib import Path

from .capture import CaptureError
from .capture_devices import DeviceRefused, check_devices, check_mount
from .capture_plans import SPEED_LIMIT, PlanRefused, array_state, protocol, raid_levels


def _pair(text: str | None, flag: str) -> tuple[str, str] | None:
    if text is None:
        return None
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise CaptureError(f"{flag} {text!r}: give two parts, comma-separated")
    return parts[0], parts[1]


def _limit_before() -> int:
    """The rebuild speed limit in effect (KiB/s), or md's default where this kernel has no md."""
    try:
        return int(Path(SPEED_LIMIT).read_text().strip())
    except (OSError, ValueError):
        return 200_000


def print_plan(plan: str | None, *, devices: list[str], destroy: list[str], mount: str, levels: list[str],
               filesystem: str, local: str | None, nfs: str | None, iscsi: str | None, nvme_tcp: str | None,
               dry_run: bool) -> list[str]:
    """The lines of the plan's dry run; CaptureError for what cannot be planned or run."""
    if plan is None:
        raise CaptureError("--dry-run prints a plan: give --plan raid-levels, array-state or protocol")
    used = devices + ([local] if local else [])
    try:
        if plan != "protocol" and not devices:
            raise PlanRefused(f"--plan {plan} takes the drives of its array: give --device for each")
        if plan == "protocol" and devices:
            raise PlanRefused("--plan protocol takes --local, --nfs, --iscsi and --nvme-tcp, not --device")
        check_mount(mount)
        held = check_devices(used, destroy=destroy)
        if plan == "raid-levels":
            made = raid_levels(devices, mount=mount, filesystem=filesystem, levels=levels or None)
        elif plan == "array-state":
            if len(levels) > 1:
                raise PlanRefused("--plan array-state takes one --level")
            made = array_state(devices, mount=mount, filesystem=filesystem, level=(levels or ["10"])[0],
                               limit_before_kib_s=_limit_before())
        else:
            made = protocol(mount=mount, local=local, nfs=nfs, iscsi=_pair(iscsi, "--iscsi"),
                            nvme_tcp=_pair(nvme_tcp, "--nvme-tcp"), filesystem=filesystem)
    except (DeviceRefused, PlanRefused) as exc:
        raise CaptureError(str(exc)) from None
    if not dry_run:
        raise CaptureError("running a plan is not built yet (issue #63: the lab's guest kernel runs it first); "
                           "--dry-run prints it")
    lines = [f"dry run: nothing is touched; the data of {h.device} ({', '.join(h.holds)}) would be destroyed"
             for h in held]
    return lines + made.lines()
