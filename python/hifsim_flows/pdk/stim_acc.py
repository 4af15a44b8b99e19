"""Stimulus and reference of the accumulating units on a trace op, one output (m, n) after the
other with its K blocks in turn (chain_order):

- fp32_acc: the addends are the HiF4 dot products of the op (exact sums of hifsim's dequantized
  values rounded to FP32); the first block of an output loads the register (init), the others add.
- sparse_residual_add: the residual A - hif4(A) quantized to HiF4 (hifsim) and pruned 2:4 (the two
  largest-magnitude elements of every group of 4, the lower index on a tie) against the dense HiF4
  weight unit; acc_start with init_value +0 on the first block of an output.

Reference register (docs/datapath.md section 6, hifsim::dp::fp_add): round_P(v) keeps a zero's
sign; x + y with both zero is -0 only if both are -0, with one zero it is round_P(the other),
otherwise the exact sum rounded once to P = MANT_BITS + 1 bits (RNE or RZ) in FP32's range.
"""
import os
from fractions import Fraction

import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, bits, chain_order, f32_value, frac, quantize, round_fp, word_bits


def fp_round(b, p, rz):
    """FP32 bits b brought to a p-bit register."""
    v = f32_value(b)
    if v is None:
        return 0x7FC00000 if b & 0x7FFFFF else b
    return b if v == 0 else round_fp(v, p, rz)


def fp_add(x, y, p, rz):
    vx, vy = f32_value(x), f32_value(y)
    if vx is None or vy is None:
        return None  # Inf / NaN: never produced by these trace operands; not checked
    if vx == 0 and vy == 0:
        return 0x80000000 if (x & y) >> 31 else 0
    if vx == 0:
        return fp_round(y, p, rz)
    if vy == 0:
        return fp_round(x, p, rz)
    s = vx + vy
    return 0 if s == 0 else round_fp(s, p, rz)


def _hif4_dots(a_deq, b_deq, order):
    return [round_fp(sum(frac(x) * frac(y) for x, y in zip(a_deq[m, 64 * kb:64 * kb + 64],
                                                          b_deq[n, 64 * kb:64 * kb + 64]))) for m, n, kb in order]


def build_acc(params, a_npy, b_npy, hifsim, max_ops, work):
    p, rz = int(params["MANT_BITS"]) + 1, int(params["ROUND_RZ"]) != 0
    a_deq, _ = quantize(hifsim, "hif4", a_npy, work)
    b_deq, _ = quantize(hifsim, "hif4", b_npy, work)
    K = a_deq.shape[-1]
    order = chain_order(a_deq.shape[0], b_deq.shape[0], K // 64, max_ops)
    dots = _hif4_dots(a_deq, b_deq, order)
    first = np.array([kb == 0 for _, _, kb in order])
    n = len(order)
    ins = {"clk": np.zeros((n, 1), bool), "rst_n": np.ones((n, 1), bool), "clear": np.zeros((n, 1), bool),
           "init": first[:, None], "add_valid": ~first[:, None],
           "init_value": word_bits([d if f else 0 for d, f in zip(dots, first)], 32),
           "addend": word_bits([0 if f else d for d, f in zip(dots, first)], 32)}
    ref, acc = [], 0
    for d, f in zip(dots, first):
        acc = fp_round(d, p, rz) if f else (None if acc is None else fp_add(acc, d, p, rz))
        ref.append(acc)
    return Stimulus(ins, n, [("acc", 1, ref)], "accumulations of HiF4 dot products")


def _prune_2_4(rec, deq_row):
    """Dense layout-(A) HiF4 unit (36 bytes) -> (the 224-bit Hif4Sparse24 word, kept element indices)."""
    nib = [(int(rec[4 + k // 2]) >> (4 * (k & 1))) & 0xF for k in range(64)]
    word = int(rec[0]) | int(rec[1]) << 8 | int(rec[2]) << 16 | int(rec[3]) << 24
    kept = []
    for g in range(16):
        ks = sorted(range(4 * g, 4 * g + 4), key=lambda k: (-abs(float(deq_row[k])), k))[:2]
        for slot, k in enumerate(sorted(ks)):
            j = 2 * g + slot
            word |= nib[k] << (32 + 4 * j) | (k - 4 * g) << (160 + 2 * j)
            kept.append(k)
    return word, kept


def build_sparse(params, a_npy, b_npy, hifsim, max_ops, work):
    stages, p, rz = int(params["STAGES"]), int(params["MANT_BITS"]) + 1, int(params["ROUND_RZ"]) != 0
    a = np.load(a_npy).astype(np.float32)
    a_deq, _ = quantize(hifsim, "hif4", a_npy, work)
    res_npy = os.path.join(work, "residual.npy")
    np.save(res_npy, (a - a_deq).astype(np.float32))
    r_deq, r_rec = quantize(hifsim, "hif4", res_npy, work)
    b_deq, b_rec = quantize(hifsim, "hif4", b_npy, work)
    K = a.shape[-1]
    if K % 64 or b_deq.shape[-1] != K:
        raise FlowError(b_npy, f"K = {K} is not a multiple of 64 or B's K differs")
    order = chain_order(a.shape[0], b_deq.shape[0], K // 64, max_ops)
    n = len(order)
    rw, dots, accs, acc = [], [], [], 0
    for m, nn, kb in order:
        word, kept = _prune_2_4(r_rec[m, kb], r_deq[m, 64 * kb:64 * kb + 64])
        rw.append(word)
        d = round_fp(sum(frac(r_deq[m, 64 * kb + k]) * frac(b_deq[nn, 64 * kb + k]) for k in kept))
        x = 0 if kb == 0 else acc
        acc = None if x is None else fp_add(x, d, p, rz)
        dots.append(d), accs.append(acc)
    start = np.array([kb == 0 for _, _, kb in order])[:, None]
    ins = {"clk": np.zeros((n, 1), bool), "rst_n": np.ones((n, 1), bool), "in_valid": np.ones((n, 1), bool),
           "out_ready": np.ones((n, 1), bool), "acc_start": start, "init_value": np.zeros((n, 32), bool),
           "r": word_bits(rw, 224), "w": bits(np.stack([b_rec[nn, kb] for m, nn, kb in order]))}
    return Stimulus(ins, n, [("out_dot", stages, dots), ("out_acc", stages, accs)],
                    "2:4 residual dot products and accumulations")
