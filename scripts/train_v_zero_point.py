#!/usr/bin/env python3
"""Why a 4-bit AdamW second moment diverges (docs/training.md, "Optimizer state"): from step 1's
gradients of `hifsim train ... --steps 1 --gradients --out DIR`, counts the v = (1 - beta2) g^2
entries a format stores as 0 (as model/train/adamw.cpp stores v: quantize-dequantize per parameter
tensor, blocks along each row, round-to-nearest, optionally of sqrt(v)) and the largest update
lr * m_hat / (sqrt(v_hat) + eps) that results. Gradients are clipped to norm 1 as the trainer
does. "All-zero blocks" counts zeros in blocks whose every element was stored as 0 (tensors whose
rows are whole blocks only).

  PYTHONPATH=build/python .venv/bin/python scripts/train_v_zero_point.py DIR
"""
import glob
import os
import sys

import numpy as np

import hifsim as H

BETA1, BETA2, EPS = 0.9, 0.95, 1e-8  # model/train/adamw.hpp
BLOCK = {"nvfp4": 16, "mxfp4": 32, "hif4": 64}  # elements per block along a row (docs/formats.md)
CASES = (("nvfp4", True), ("nvfp4", False), ("hif4", True), ("mxfp4", True), ("hif8", False), ("bf16", False))


def main(d):
    with open(os.path.join(d, "loss.csv")) as f:
        head, first = f.read().splitlines()[:2]
    row = dict(zip(head.split(","), first.split(",")))
    clip, lr = min(1.0, 1.0 / float(row["grad_norm"])), float(row["lr"])
    print("| v stored as | v > 0 stored as 0 | of them in all-zero blocks | largest update | updates > 10 x lr |")
    print("|---|---|---|---|---|")
    for fmt, sqrt in CASES:
        positive = zeros = in_zero_blocks = big = 0
        largest = 0.0
        block = BLOCK.get(fmt, 1)
        for path in sorted(glob.glob(os.path.join(d, "gradients", "*.npy"))):
            g = np.atleast_2d(np.load(path).astype(np.float32) * np.float32(clip))
            m, v = (1 - BETA1) * g, (1 - BETA2) * g * g
            stored = H.quantize_dequantize((np.sqrt(v) if sqrt else v).astype(np.float32), fmt)
            vq = stored * stored if sqrt else stored
            update = lr * (m / (1 - BETA1)) / (np.sqrt(vq / (1 - BETA2)) + EPS)
            positive += np.count_nonzero(v)
            zeros += np.count_nonzero((v > 0) & (vq == 0))
            if block > 1 and g.shape[1] % block == 0:
                qb, vb = vq.reshape(g.shape[0], -1, block), v.reshape(g.shape[0], -1, block)
                in_zero_blocks += np.count_nonzero((qb == 0).all(-1, keepdims=True) & (vb > 0))
            largest = max(largest, float(np.abs(update).max()))
            big += np.count_nonzero(np.abs(update) > 10 * lr)
        print(f"| {fmt}, {'sqrt(v)' if sqrt else 'v'} | {zeros} ({100 * zeros / positive:.1f} %) of {positive} | "
              f"{in_zero_blocks if block > 1 else '(no blocks)'} | {largest:.3g} | {big} |")
    print(f"\nlr {lr:g} at step 1; with FP32 state every update is at most lr.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
