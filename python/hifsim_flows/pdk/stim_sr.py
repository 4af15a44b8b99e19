"""Stimulus and reference of sr_quantizer on a trace op: the activation rows (A), 16 values at a
time, each block scaled by 6 / its largest magnitude (FMT 0 and 2: into E2M1's range) or 7 / it
(FMT 1: 4|y| of S1P2; the activations are finite, so MXFP4's Inf/NaN rule does not arise), one
operation per clock; seed 0x5EED, stream 0, element index = 16 x operation.

Reference, independent of the C++ model: Threefry-2x32-20 in Python integers (docs/training.md,
the key schedule and rotations written out here) and the element grid as a table (the neighbours
lo <= |a| < hi, T = floor((|a| - lo) / (hi - lo) x 2^B) on exact fractions, up iff T + r >= 2^B).
"""
from fractions import Fraction

import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, bits, control, word_bits

SEED, STREAM = 0x5EED, 0
ROT = (13, 15, 26, 6, 17, 29, 16, 24)
M32 = 0xFFFFFFFF
GRID = {0: (0, 0.5, 1, 1.5, 2, 3, 4, 6), 1: (0, 1, 2, 3, 4, 5, 6, 7), 2: (0, 0.5, 1, 1.5, 2, 3, 4, 6)}


def threefry(seed, c0, c1):
    k = [seed & M32, seed >> 32]
    k.append(0x1BD11BDA ^ k[0] ^ k[1])
    x0, x1 = (c0 + k[0]) & M32, (c1 + k[1]) & M32
    for r in range(20):
        x0 = (x0 + x1) & M32
        x1 = (((x1 << ROT[r % 8]) | (x1 >> (32 - ROT[r % 8]))) & M32) ^ x0
        if r % 4 == 3:
            s = (r + 1) // 4
            x0 = (x0 + k[s % 3]) & M32
            x1 = (x1 + k[(s + 1) % 3] + s) & M32
    return x0 | x1 << 32


def code(a, r, b, fmt):
    g = GRID[fmt]
    sign = 8 if np.signbit(a) else 0
    m = Fraction(abs(float(a)))
    if m >= g[7]:
        return sign | 7
    c = max(i for i in range(8) if g[i] <= m)
    t = int((m - Fraction(g[c])) / (Fraction(g[c + 1]) - Fraction(g[c])) * 2 ** b)
    return sign | (c + 1 if t + r >= 2 ** b else c)


def build(params, a_npy, b_npy, hifsim, max_ops, work):
    stages, b, fmt = int(params["STAGES"]), int(params["SR_BITS"]), int(params["FMT"])
    lanes = 64 // b
    a = np.load(a_npy).astype(np.float32)
    if a.shape[-1] % 16 or not np.isfinite(a).all():
        raise FlowError(a_npy, "K must be a multiple of 16 and every activation finite")
    blocks = a.reshape(-1, 16)[:max_ops]
    peak = np.abs(blocks).max(axis=1, keepdims=True)
    scaled = (blocks * np.where(peak > 0, np.float32(7 if fmt == 1 else 6) / np.where(peak > 0, peak, 1), 0)).astype(np.float32)
    n = len(scaled)
    ins = control(n)
    ins["a"] = bits(scaled.astype("<f4").view(np.uint8))
    ins["seed"] = word_bits([SEED] * n, 64)
    ins["stream"] = word_bits([STREAM] * n, 32)
    idx = [16 * i for i in range(n)]
    ins["group"] = word_bits([i // lanes for i in idx], 32)
    ins["lane"] = word_bits([i % lanes for i in idx], 6)
    words, ref = {}, []
    for i, row in zip(idx, scaled):
        out = 0
        for k, v in enumerate(row):
            e = i + k
            g = e // lanes
            if g not in words:
                words[g] = threefry(SEED, g & M32, STREAM)
            r = (words[g] >> (b * (e % lanes))) & ((1 << b) - 1)
            out |= code(v, r, b, fmt) << (4 * k)
        ref.append(out)
    return Stimulus(ins, n, [("codes", stages, ref)], f"scaled FP32 -> {'S1P2' if fmt == 1 else 'E2M1'} codes, B = {b}")
