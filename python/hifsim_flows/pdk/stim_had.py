"""Stimulus and reference of hadamard16 on a trace op: the activation rows (A), 16 FP32 values at a
time, one row block per clock, with one sign vector for the whole run (the GEMM's rht_sign_bits is
a per-GEMM constant the controller loads; which lanes it flips changes the data, not the kind of
data): 0xA5C3.

Reference, independent of the C++ model and the RTL: the butterfly of docs/training.md "Random
Hadamard transform" on exact Fractions, every add rounded once to FP32 (stim_common.round_fp:
RNE, subnormals kept), an exact zero sum +0 but (-0) + (-0) = -0, then the scaling by 2^-2
rounded once; an op whose values reach Inf or NaN is not checked (the activations are finite
and small, so none does).
"""
import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, bits, control, f32_value, round_fp, word_bits

SIGNS = 0xA5C3
SIGN = 0x80000000


def add(x, y):
    """FP32 bits of round(x + y), or None when either is Inf/NaN."""
    if not (x | y) & 0x7FFFFFFF:
        return x & y & SIGN
    vx, vy = f32_value(x), f32_value(y)
    if vx is None or vy is None:
        return None
    return round_fp(vx + vy)


def transform(row):
    """The 16 output words of one row block (FP32 bits), or None if a value left the finite range."""
    v = [int(w) ^ (SIGN if SIGNS >> j & 1 else 0) for j, w in enumerate(row)]
    for h in (1, 2, 4, 8):
        nxt = list(v)
        for i in range(16):
            if i & h:
                continue
            nxt[i], nxt[i + h] = add(v[i], v[i + h]), (None if v[i + h] is None else add(v[i], v[i + h] ^ SIGN))
            if nxt[i] is None or nxt[i + h] is None:
                return None
        v = nxt
    out = [w if not w & 0x7FFFFFFF else round_fp(f32_value(w) / 4) for w in v]  # +-0 passes
    return sum(o << (32 * j) for j, o in enumerate(out))


def build(params, a_npy, b_npy, hifsim, max_ops, work):
    stages = int(params["STAGES"])
    a = np.load(a_npy).astype(np.float32)
    if a.shape[-1] % 16 or not np.isfinite(a).all():
        raise FlowError(a_npy, "K must be a multiple of 16 and every activation finite")
    blocks = np.ascontiguousarray(a.reshape(-1, 16)[:max_ops])
    n = len(blocks)
    ins = control(n)
    ins["x"] = bits(blocks.astype("<f4").view(np.uint8))
    ins["signs"] = word_bits([SIGNS] * n, 16)
    ref = [transform(r) for r in blocks.view(np.uint32)]
    return Stimulus(ins, n, [("y", stages, ref)], f"16 FP32 activations -> their 16-point Hadamard transform x 1/4, signs {SIGNS:#06x}")
