"""Stimulus and reference of the 8/16-bit dot units on a trace op: mxfp8_dot32 (one 32-element
MX block per operand), hif8_dot (N lanes) and bf16_dot64 (64 lanes), units of A row m and B row n,
K block kb, in the proxy's order.

References, computed here from the documented algorithms (docs/datapath.md sections 3-5):
- mxfp8_dot32: E4M3 / E5M2 elements and the E8M0 scales decoded from the codes; the exact sum
  rounded once to FP32 (RNE).
- hif8_dot / bf16_dot64 (hierarchical alignment): every nonzero product is psig * 2^pexp with the
  operands' significands normalized (HiF8 8..15 from hifsim's dequantized values, BF16 from the
  code: 128 + mantissa, or the mantissa at exponent -133 for a subnormal), L = max(pexp) + P - W;
  each term is floor(psig * 2^(pexp - L + SB)), with SB = 1 sticky bit that ORs in "a bit fell
  off"; the signed sum times 2^(L - SB) rounded once to FP32 (RNE). W = 0 (HiF8 exact): the exact
  sum.
"""
from fractions import Fraction

import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, bits, control, dot_order, quantize, round_fp
from .stim_fp4 import e4m3


def e5m2(code):
    """E5M2 code -> Fraction; None for Inf / NaN."""
    s = -1 if code & 0x80 else 1
    e, m = (code >> 2) & 0x1F, code & 3
    if e == 31:
        return None
    return s * (Fraction(m, 4) * Fraction(2) ** -14 if e == 0 else (1 + Fraction(m, 4)) * Fraction(2) ** (e - 15))


def _split_hif8(x, where):
    """HiF8 value (float32) -> (sign, sig 8..15, e) with x = sign * sig * 2^e; None for 0."""
    if x == 0:
        return None
    f = Fraction(float(x))
    a = abs(f)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e -= 3
    sig = a / Fraction(2) ** e
    if sig.denominator != 1 or not 8 <= sig <= 15:
        raise FlowError(where, f"HiF8 value {float(x)!r} is not a 4-bit significand times a power of two")
    return (f < 0, int(sig), e)


def _split_bf16(code):
    """BF16 code -> (sign, sig, e) with value = sign * sig * 2^e; None for 0; 'nan' for Inf/NaN."""
    s, ex, m = code >> 15, (code >> 7) & 0xFF, code & 0x7F
    if ex == 0xFF:
        return "nan"
    if ex == 0:
        return None if m == 0 else (bool(s), m, -133)
    return (bool(s), 128 + m, ex - 134)


def aligned_sum(terms, P, W, sticky):
    """terms: [(neg, sig, e)] of the nonzero operands' products -> FP32 bits (RNE)."""
    prods = [(na != nb, sa * sb, ea + eb) for (na, sa, ea), (nb, sb, eb) in terms]
    if not prods:
        return 0
    if W == 0:
        return round_fp(sum((-1 if n else 1) * Fraction(s) * Fraction(2) ** e for n, s, e in prods))
    sb = 1 if sticky else 0
    L = max(e for _, _, e in prods) + P - W
    total = 0
    for neg, s, e in prods:
        v = Fraction(s) * Fraction(2) ** (e - L + sb)
        t = v.numerator // v.denominator
        if sticky and v.denominator != 1:
            t |= 1
        total += -t if neg else t
    return round_fp(Fraction(total) * Fraction(2) ** (L - sb))


def build(unit, params, a_npy, b_npy, hifsim, max_ops, work):
    stages = int(params["STAGES"])
    if unit == "mxfp8_dot32":
        fmt = "mxfp8-e5m2" if int(params["E5M2"]) else "mxfp8-e4m3"
        dec = e5m2 if int(params["E5M2"]) else e4m3
        _, a_rec = quantize(hifsim, fmt, a_npy, work)
        _, b_rec = quantize(hifsim, fmt, b_npy, work)
        order = dot_order(a_rec.shape[0], b_rec.shape[0], b_rec.shape[1], max_ops)
        ins, ref = control(len(order)), []
        ra, rb = np.stack([a_rec[m, kb] for m, n, kb in order]), np.stack([b_rec[n, kb] for m, n, kb in order])
        ins["sa"], ins["a"] = bits(ra[:, :1]), bits(ra[:, 1:])
        ins["sb"], ins["b"] = bits(rb[:, :1]), bits(rb[:, 1:])
        for x, y in zip(ra, rb):
            if x[0] == 0xFF or y[0] == 0xFF:
                ref.append(round_fp(None))
                continue
            el = [(dec(int(p)), dec(int(q))) for p, q in zip(x[1:], y[1:])]
            if any(p is None or q is None for p, q in el):
                ref.append(None)  # Inf / NaN elements: not in real traces; not checked
                continue
            s = Fraction(2) ** (int(x[0]) + int(y[0]) - 254)
            ref.append(round_fp(s * sum(p * q for p, q in el)))
        return Stimulus(ins, len(order), [("out", stages, ref)], f"{fmt} dot products")
    if unit == "hif8_dot":
        n_lanes, fmt, P = int(params["N"]), "hif8", 8
    elif unit == "bf16_dot64":
        n_lanes, fmt, P = 64, "bf16", 16
    else:
        raise FlowError(unit, "no stimulus builder")
    W, sticky = int(params["W"]), int(params["STICKY"]) != 0
    a_deq, a_rec = quantize(hifsim, fmt, a_npy, work)
    b_deq, b_rec = quantize(hifsim, fmt, b_npy, work)
    K = a_deq.shape[-1]
    if K % n_lanes or b_deq.shape[-1] != K:
        raise FlowError(b_npy, f"K = {K} is not a multiple of {n_lanes} lanes or B's K differs")
    ca, cb = a_rec.reshape(a_rec.shape[0], -1), b_rec.reshape(b_rec.shape[0], -1)  # element bytes per row
    eb = ca.shape[1] // K  # bytes per element: 1 (HiF8) or 2 (BF16, little-endian)
    order = dot_order(ca.shape[0], cb.shape[0], K // n_lanes, max_ops)
    ins, ref = control(len(order)), []
    span = n_lanes * eb
    ins["a"] = bits(np.stack([ca[m, kb * span:(kb + 1) * span] for m, n, kb in order]))
    ins["b"] = bits(np.stack([cb[n, kb * span:(kb + 1) * span] for m, n, kb in order]))
    for m, n, kb in order:
        ks = range(kb * n_lanes, (kb + 1) * n_lanes)
        if fmt == "hif8":
            if not (np.isfinite(a_deq[m, ks.start:ks.stop]).all() and np.isfinite(b_deq[n, ks.start:ks.stop]).all()):
                ref.append(None)
                continue
            pa = [_split_hif8(a_deq[m, k], a_npy) for k in ks]
            pb = [_split_hif8(b_deq[n, k], b_npy) for k in ks]
        else:
            pa = [_split_bf16(int(ca[m, 2 * k]) | int(ca[m, 2 * k + 1]) << 8) for k in ks]
            pb = [_split_bf16(int(cb[n, 2 * k]) | int(cb[n, 2 * k + 1]) << 8) for k in ks]
            if "nan" in pa or "nan" in pb:
                ref.append(None)
                continue
        ref.append(aligned_sum([(x, y) for x, y in zip(pa, pb) if x and y], P, W, sticky))
    return Stimulus(ins, len(order), [("out", stages, ref)], f"{fmt} dot products")
