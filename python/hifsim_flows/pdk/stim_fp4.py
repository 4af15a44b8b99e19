"""Stimulus and reference of the 4-bit dot units (hif4_dot64, nvfp4_dot64, mxfp4_dot64) on a
trace op: 64-element units of A row m and B row n, K block kb, in the proxy's order.

References: HiF4 from hifsim's dequantized values (exact float32 numbers: E6M2 x 2^E1 x S1P2);
NVFP4 and MXFP4 from the codes themselves (E2M1 elements, E4M3 / E8M0 scales decoded here).
The exact sum as a Fraction, rounded once to FP32 (RNE).
"""
from fractions import Fraction

import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, bits, control, dot_order, frac, quantize, round_fp

E2M1 = [Fraction(x) for x in (0, 0.5, 1, 1.5, 2, 3, 4, 6)]
FORMATS = {  # unit -> (hifsim format, elements per block, blocks per 64-element unit)
    "hif4_dot64": ("hif4", 64, 1),
    "nvfp4_dot64": ("nvfp4", 16, 4),
    "mxfp4_dot64": ("mxfp4", 32, 2),
}


def e4m3(code):
    """E4M3 code -> Fraction; None for NaN (0x7F / 0xFF)."""
    if (code & 0x7F) == 0x7F:
        return None
    s = -1 if code & 0x80 else 1
    e, m = (code >> 3) & 0xF, code & 7
    return s * (Fraction(m, 8) * Fraction(2) ** -6 if e == 0 else (1 + Fraction(m, 8)) * Fraction(2) ** (e - 7))


def _e2m1(nib):
    return -E2M1[nib & 7] if nib & 8 else E2M1[nib & 7]


def _nibbles(rec_bytes):
    return [(b >> (4 * h)) & 0xF for b in rec_bytes for h in (0, 1)]


def build(unit, params, a_npy, b_npy, hifsim, max_ops, work):
    fmt, block, nblk = FORMATS[unit]
    a_deq, a_rec = quantize(hifsim, fmt, a_npy, work)
    b_deq, b_rec = quantize(hifsim, fmt, b_npy, work)
    K = a_deq.shape[-1]
    if b_deq.shape[-1] != K or K % 64:
        raise FlowError(b_npy, f"K = {b_deq.shape[-1]} does not match A's {K} or is not a multiple of 64")
    order = dot_order(a_rec.shape[0], b_rec.shape[0], K // 64, max_ops)
    ins, ref = control(len(order)), []
    if fmt == "hif4":
        ins["a"] = bits(np.stack([a_rec[m, kb] for m, n, kb in order]))
        ins["b"] = bits(np.stack([b_rec[n, kb] for m, n, kb in order]))
        for m, n, kb in order:
            ks = slice(64 * kb, 64 * kb + 64)
            ref.append(round_fp(sum(frac(x) * frac(y) for x, y in zip(a_deq[m, ks], b_deq[n, ks]))))
    else:
        def unit_bytes(rec, r, kb):  # elements of the nblk blocks, then their scale bytes
            blocks = rec[r, kb * nblk:(kb + 1) * nblk]
            return np.concatenate([blk[1:] for blk in blocks]), np.array([blk[0] for blk in blocks], np.uint8)
        ea, sa, eb, sb = [], [], [], []
        for m, n, kb in order:
            x, y = unit_bytes(a_rec, m, kb)
            ea.append(x), sa.append(y)
            x, y = unit_bytes(b_rec, n, kb)
            eb.append(x), sb.append(y)
            total = Fraction(0)
            for j in range(nblk):
                if fmt == "nvfp4":
                    ka, kb_ = e4m3(int(sa[-1][j])), e4m3(int(sb[-1][j]))
                else:
                    ka = None if sa[-1][j] == 0xFF else Fraction(2) ** (int(sa[-1][j]) - 127)
                    kb_ = None if sb[-1][j] == 0xFF else Fraction(2) ** (int(sb[-1][j]) - 127)
                if ka is None or kb_ is None:
                    total = None
                    break
                ela = _nibbles(ea[-1][j * block // 2:(j + 1) * block // 2])
                elb = _nibbles(eb[-1][j * block // 2:(j + 1) * block // 2])
                total += ka * kb_ * sum(_e2m1(p) * _e2m1(q) for p, q in zip(ela, elb))
            ref.append(round_fp(total))
        ins["a"], ins["b"] = bits(np.stack(ea)), bits(np.stack(eb))
        ins["sa"], ins["sb"] = bits(np.stack(sa)), bits(np.stack(sb))
    stages = int(params.get("STAGES", 0))
    return Stimulus(ins, len(order), [("out", stages, ref)], f"{fmt} dot products")
