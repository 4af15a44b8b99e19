#!/usr/bin/env python3
"""Writes traces/sample/activations.npy: a small deterministic activation-like array
(64 tokens x 1024 channels, float32) with the features that separate the formats --
a Gaussian bulk, a few outlier channels 30-80x larger, and a band of tiny values that
underflow in coarse block formats. Used by the codec comparison until real traces exist."""
import argparse
import numpy as np

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default="traces/sample/activations.npy")
    ap.add_argument("--seed", type=int, default=20261129)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    x = rng.standard_normal((64, 1024)).astype(np.float32)
    outliers = rng.choice(1024, size=8, replace=False)
    x[:, outliers] *= rng.uniform(30, 80, size=8).astype(np.float32)
    x[:, 512:576] *= np.float32(1e-3)
    np.save(a.out, np.ascontiguousarray(x, dtype=np.float32))
    print(f"wrote {a.out} {x.shape} outlier channels {sorted(outliers.tolist())}")

if __name__ == "__main__":
    main()
