"""A probe of this machine's speed past the processor's caches: the CPU time of 32 million reads all
over 64 MiB, three times, printed on one line. bench_build.py runs it in a process of its own (numpy
alone imported, 0.13 GB at its peak), so that its memory is in none of the build's figures.

Usage: python benchmarks/machine_probe.py
"""

from __future__ import annotations

import time

import numpy as np


def reads() -> list[float]:
    table = np.arange(16 * 2**20, dtype=np.int32)  # 64 MiB
    where = np.random.default_rng(0).integers(0, len(table), 4 * 2**20, dtype=np.int32)
    took = []
    for _ in range(3):
        start = time.process_time()
        for _ in range(8):
            table[where].sum()
        took.append(time.process_time() - start)
    return took


if __name__ == "__main__":
    print(", ".join(f"{s:.2f}" for s in reads()))
