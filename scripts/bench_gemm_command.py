"""The whole `hifsim gemm` process against its engine alone (scripts/bench_gemm.sh --whole-command).

usage: bench_gemm_command.py HIFSIM GEMM_SCALING SCRATCH THREADS...

For each format (hif4, nvfp4), size n (1024, 2048) and thread count: the engine's median wall time
and CPU time per run over 3 runs (bench/gemm_scaling: operands quantized outside, a fresh result),
then 3 runs of `hifsim gemm --format F --threads T` on n x n float32 operands (read, quantize, GEMM,
write, manifest): median wall time and median CPU time (user + system of the process). Prints one
line per case with both ratios and the 1-minute load, and a Markdown table row for
docs/performance.md.
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

REPS = 3


def load() -> str:
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def child_cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def main() -> None:
    hifsim, scaling, out = sys.argv[1:4]
    threads = sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    rows = []
    for n in (1024, 2048):
        a, b = f"{out}/a{n}.npy", f"{out}/b{n}.npy"
        np.save(a, rng.standard_normal((n, n), dtype=np.float32))
        np.save(b, rng.standard_normal((n, n), dtype=np.float32))
        for fmt in ("hif4", "nvfp4"):
            for t in threads:
                e = json.loads(subprocess.run([scaling, fmt, str(n), str(n), str(n), t, str(REPS)], check=True,
                                              capture_output=True, text=True).stdout.splitlines()[0])
                walls, cpus = [], []
                for _ in range(REPS):
                    c0, t0 = child_cpu(), time.perf_counter()
                    subprocess.run([hifsim, "gemm", "--format", fmt, "--threads", t, "--a", a, "--b", b,
                                    "--out", f"{out}/c.npy", "--quiet"], check=True)
                    walls.append(time.perf_counter() - t0)
                    cpus.append(child_cpu() - c0)
                w, c = statistics.median(walls), statistics.median(cpus)
                ew, ec = e["median_wall_s"], e["cpu_s_per_run"]
                ld = load()
                print(f"[bench] hifsim gemm --format {fmt} --threads {t}, {n}^3: process {w:.3f} s wall, {c:.3f} s CPU; "
                      f"engine {ew:.3f} s wall, {ec:.3f} s CPU: {w / ew:.2f}x wall, {c / ec:.2f}x CPU "
                      f"(target <= 1.25x at 2048^3); load {ld}", flush=True)
                rows.append(f"| {fmt} | {n}^3 | {t} | {ew:.3f} | {w:.3f} | **{w / ew:.2f}x** | {ec:.3f} | {c:.3f} | "
                            f"{c / ec:.2f}x | {ld} |")
    print("| format | shape | threads | engine wall s | process wall s | wall ratio | engine CPU s | process CPU s "
          "| CPU ratio | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
