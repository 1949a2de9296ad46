"""Relations that hold between the figures of one /proc/mdstat array, as the kernel computes them.

Each function returns the text of a warning when its relation does not hold, else None; the parser
(mdstat.py) reports them with the line they concern, and the mutation test uses the same functions
to know which relations a changed snapshot breaks. Sources: drivers/md/md.c (status_resync,
md_seq_show), raid1.c, raid5.c and raid10.c (the size each personality resyncs), md-bitmap.c.
"""

from __future__ import annotations

PARITY = {"raid4": 1, "raid5": 1, "raid6": 2}
PAGE_KIB = (4, 8, 16, 64)  # the page sizes Linux runs with; md-bitmap prints pages x page size in KB
MAX_COUNT = 2**63 - 1  # blocks are sector_t / 2, the speed a long: the kernel prints nothing larger


def past_the_end(op: dict) -> str | None:
    done, total = op["done_blocks"], op["total_blocks"]
    if done is not None and done > total:
        return f"progress {done}/{total} is past the end"
    return None


def percent_off(op: dict) -> str | None:
    """The printed percent against done/total. The kernel truncates to the one decimal it prints (so the
    percent is at most 0.1 below the exact figure, never above), and computes it from the counts shifted
    right by 10 and a total plus one (status_resync): a further 200 / (total // 1024 + 1) below at most."""
    pct, done, total = op["percent"], op["done_blocks"], op["total_blocks"]
    if pct is None or done is None or total == 0 or done > total:
        return None
    exact = 100 * done / total
    below = 0.1 + 200 / (total // 1024 + 1)
    if pct > exact + 1e-9 or pct < exact - below - 1e-9:
        return f"{op['kind']} at {pct:.1f}% does not match {done}/{total} blocks ({exact:.2f}%)"
    return None


def finish_off(op: dict) -> str | None:
    """finish= against (total - done) / speed. The kernel estimates both from the same window (status_resync):
    finish is at most the remaining blocks over the printed speed (speed is truncated, finish too), and at
    least the remaining blocks over (speed + 101) less the truncations (the '+1' the kernel adds to its
    divisor, which older kernels scaled by 100)."""
    done, total, finish, speed = op["done_blocks"], op["total_blocks"], op["finish_min"], op["speed_kib_s"]
    if done is None or finish is None or not speed or done > total:
        return None
    remaining = total - done
    most = remaining / speed / 60
    least = (remaining / (speed + 101) - 3) / 60 - 0.1
    if finish > most + 1e-9 or finish < least:
        return (f"finish={finish:.1f}min does not match ({total} - {done}) blocks at {speed}K/sec "
                f"({most:.1f} min)")
    return None


def bar_off(op: dict, bar: str | None) -> str | None:
    """The bar: per_milli / 50 '=' steps, '>', then the rest of 20 as '.' (status_resync)."""
    if bar is None or op["percent"] is None:
        return None
    steps = round(op["percent"] * 10) // 50
    if bar != "=" * steps + ">" + "." * (20 - steps):
        return f"progress bar [{bar}] does not show {op['percent']:.1f}% ({steps} of 20 steps)"
    return None


def size_off(array: dict, op: dict) -> str | None:
    """The blocks a resync, recovery or check covers against the array's size, where the level fixes it:
    raid1 works over the device size, which is the array's; raid4/5/6 over the device size, the array
    holding (devices - parity) of them; a raid10 resync or check over the array's size. A reshape
    changes the size as it goes, and a raid10 recovery covers one device: neither is checked."""
    total, blocks, level, disks = op["total_blocks"], array["blocks"], array["level"], array["raid_disks"]
    if total is None or blocks is None or array["state"] != "active" or op["kind"] == "reshape":
        return None
    if level in ("raid1", "raid10") and (level == "raid1" or op["kind"] != "recovery"):
        if total != blocks:
            return f"{op['kind']} of {total} blocks does not cover the {level} array's {blocks} blocks"
    elif level in PARITY and disks is not None:
        data = disks - PARITY[level]
        if total * data != blocks:
            return (f"{op['kind']} of {total} blocks a device does not fit the {level} array's {blocks} blocks "
                    f"({data} data devices x {total} = {total * data})")
    return None


def bitmap_off(bitmap: dict, kib: int) -> str | None:
    used, total = bitmap["pages_used"], bitmap["pages_total"]
    if used > total:
        return f"bitmap uses {used} of {total} pages"
    if not any(kib == used * page for page in PAGE_KIB):
        return f"bitmap [{kib}KB] is not {used} pages of 4, 8, 16 or 64 KB"
    return None


def progress_problems(array: dict, op: dict, bar: str | None) -> list[str]:
    """What the progress line says against itself (size_off needs the whole array: checked once it is read)."""
    found = [past_the_end(op), percent_off(op), finish_off(op), bar_off(op, bar)]
    return [f"{array['name']}: {text}" for text in found if text]
