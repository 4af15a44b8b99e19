#!/usr/bin/env python3
"""The peer for the GEMM benchmark: numpy's float32 matmul (OpenBLAS) on the same shapes, the
machine's float ceiling. Thread count comes from OPENBLAS_NUM_THREADS (set by the caller before
numpy is imported). Prints JSON lines {shape, threads, seconds, macs_per_second, cpu_seconds,
macs_per_cpu_second}: the CPU-time rate (process time, all threads) is what the machine's load
does not change much, so with one thread it compares kernels on a shared machine."""
import json
import os
import sys
import time

import numpy as np


def main():
    threads = int(os.environ.get("OPENBLAS_NUM_THREADS", "0") or 0)
    rng = np.random.default_rng(0)
    for (m, n, k) in [(1024, 1024, 1024), (4096, 4096, 512)]:
        a = rng.standard_normal((m, k), dtype=np.float32)
        b = rng.standard_normal((n, k), dtype=np.float32)
        a @ b.T  # warm up
        reps, best, best_cpu = 0, float("inf"), float("inf")
        t_end = time.time() + 1.5
        while reps < 3 or time.time() < t_end:
            t0, c0 = time.perf_counter(), time.process_time()
            c = a @ b.T
            best = min(best, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
            reps += 1
        assert c.shape == (m, n)
        print(json.dumps({"shape": f"{m}x{n}x{k}", "threads": threads, "seconds": best,
                          "macs_per_second": m * n * k / best,
                          "cpu_seconds": best_cpu, "macs_per_cpu_second": m * n * k / best_cpu}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
