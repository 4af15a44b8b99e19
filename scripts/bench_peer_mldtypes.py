#!/usr/bin/env python3
"""Peer benchmark for docs/performance.md: the numpy cast round trip float32 -> element format ->
float32 with ml-dtypes (float4_e2m1fn, float8_e4m3fn, float8_e5m2, bfloat16) and en-dtypes
(hifloat8), on the same input size as bench/bench_quantize.cpp (1000 x 4096 float32, normal(0,1)
with 1% outliers x 30). numpy casts run on one thread. Reports GB/s of float32 input (median of
--reps timed round trips after one warm-up) as JSON on stdout or into --json."""
import argparse
import json
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--cols", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json", help="write the results here (default: stdout)")
    a = ap.parse_args()
    import ml_dtypes
    peers = {
        "float4_e2m1fn": ml_dtypes.float4_e2m1fn,
        "float8_e4m3fn": ml_dtypes.float8_e4m3fn,
        "float8_e5m2": ml_dtypes.float8_e5m2,
        "bfloat16": ml_dtypes.bfloat16,
    }
    try:
        import en_dtypes
        peers["hifloat8"] = en_dtypes.hifloat8
    except ImportError:
        pass
    rng = np.random.default_rng(20261129)
    x = rng.standard_normal((a.rows, a.cols)).astype(np.float32)
    x[rng.random(x.shape) < 0.01] *= 30
    out = {"rows": a.rows, "cols": a.cols, "bytes": int(x.nbytes), "ml_dtypes": ml_dtypes.__version__,
           "numpy": np.__version__, "gbps": {}}
    for name, dt in peers.items():
        x.astype(dt).astype(np.float32)  # warm-up
        times = []
        for _ in range(a.reps):
            t0 = time.perf_counter()
            y = x.astype(dt).astype(np.float32)
            times.append(time.perf_counter() - t0)
        del y
        out["gbps"][name] = x.nbytes / float(np.median(times)) / 1e9
    s = json.dumps(out, indent=1)
    if a.json:
        open(a.json, "w").write(s + "\n")
    else:
        print(s)


if __name__ == "__main__":
    main()
