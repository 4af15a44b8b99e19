"""An independent port of the Ascend A6 HiF4 golden (test oracle for --hif4-convention ascend-a6).

Written from a reading of Huawei's PTO-ISA (public mirror zouzias/pto-isa-mirror):
docs/isa/TQUANT_HIF4.md, tests/npu/a6/src/st/testcase/tquant/gen_data.py (the TQuant golden),
tests/npu/a6/src/st/testcase/tmatmul_mx_hif4/gen_data.py (the matmul golden's dequantizer). No code
was copied: every step below is restated from the documents, in this file's own structure, and
works on whole arrays of 64-element units. The rules, in the golden's order:

  1. |x| and the 4/8/64 peaks (exact in BF16).
  2. sf = BF16(FP32(Vmax * C7)), C7 = BF16(1/7).
  3. E6M2 code: sf = 0 -> 0x00; else e = floor(log2 sf) clamped to [-48, 15], mantissa
     (sf / 2^e - 1) * 4 rounded half to even, a mantissa of 4 carries into e, and the code
     saturates at 0xFE. sf < 0.875 * 2^-48 gives a negative mantissa in the golden (its defect):
     outside this oracle's domain.
  4. The code's value, with code 0x00 = 0; REC = BF16(FP32(1 / value)), 0 for value 0.
  5. E1_8 = BF16(V8 * REC) >= 4.
  6. E1_16 = BF16(BF16(V16 * REC) * 2^-E1_8) >= 2.
  7. scale = BF16(REC * BF16(2^-E1_8 * 2^-E1_16)).
  8. p = BF16(FP32(x * scale)); sign = p < 0; magnitude code = the nearest of
     {0, 0.25, ..., 1.75} to |p|, an exact tie to the even code. |p| >= 2^50 is outside the
     domain (the golden's float64 distance search then ties among several codes).
  9. (matmul golden) dequant = BF16(BF16(BF16(+-m/4 * value) * 2^E1_8) * 2^E1_16), and
     C = FP32 matmul of the dequantized A (M x K) and B^T (K x N).
Inf and NaN inputs are outside the domain (the golden's log2/floor raise on them).
"""
import numpy as np
from ml_dtypes import bfloat16

E1M2 = np.arange(8, dtype=np.float64) / 4.0


def bf16(a):
    """FP32 -> BF16 round to nearest even, back to FP32 (the golden's astype(bfloat16))."""
    return np.asarray(a, dtype=np.float32).astype(bfloat16).astype(np.float32)


C7 = bf16(np.float32(1.0) / np.float32(7.0))  # 0x3E12 = 0.142578125


def e6m2_codes(sf):
    """Rule 3 on an array of BF16 scale values (float32). Returns (codes uint8, in_domain bool)."""
    codes = np.zeros(sf.shape, dtype=np.uint8)
    ok = np.ones(sf.shape, dtype=bool)
    for i, v in np.ndenumerate(sf):
        v = float(v)
        if v == 0.0:
            continue
        if not np.isfinite(v):
            ok[i] = False
            continue
        e = min(max(int(np.floor(np.log2(v))), -48), 15)
        mant = int(np.rint((v / 2.0 ** e - 1.0) * 4.0))  # rint: half to even
        if mant < 0:
            ok[i] = False  # the golden's defect below 0.875 * 2^-48
            continue
        big_e = e + 48
        if mant >= 4:
            mant, big_e = 0, big_e + 1
        if big_e > 63 or (big_e == 63 and mant == 3):
            big_e, mant = 63, 2
        codes[i] = (big_e << 2) | mant
    return codes, ok


def e6m2_value(codes):
    c = codes.astype(np.int64)
    v = (1.0 + (c & 3) / 4.0) * np.exp2((c >> 2) - 48.0)
    return np.where(c == 0, 0.0, v)


def quantize(x):
    """x: float32 array (n, 64) of BF16 values. Returns dict of e6m2 (n,), e1_8 (n, 8),
    e1_16 (n, 16), nib (n, 64) and in_domain (n,)."""
    x = bf16(x)
    n = x.shape[0]
    ax = np.abs(x)
    v16 = ax.reshape(n, 16, 4).max(axis=2)
    v8 = v16.reshape(n, 8, 2).max(axis=2)
    vmax = v8.max(axis=1)
    ok = np.isfinite(x).all(axis=1)
    sf = bf16(np.where(ok, vmax, 0).astype(np.float32) * C7)
    codes, ok_code = e6m2_codes(sf)
    ok &= ok_code
    val = e6m2_value(codes)
    with np.errstate(divide="ignore"):
        rec = bf16(np.where(val > 0, 1.0 / np.where(val > 0, val, 1.0), 0.0))
    e8 = (bf16(v8 * rec[:, None]) >= 4.0).astype(np.int64)
    half8 = np.where(e8 == 1, 0.5, 1.0).astype(np.float32)
    t16 = bf16(v16 * rec[:, None])
    e16 = (bf16(t16 * np.repeat(half8, 2, axis=1)) >= 2.0).astype(np.int64)
    half16 = np.where(e16 == 1, 0.5, 1.0).astype(np.float32)
    scale4 = bf16(rec[:, None] * bf16(np.repeat(half8, 2, axis=1) * half16))
    p = bf16(x * np.repeat(scale4, 4, axis=1))
    sign = (p < 0).astype(np.uint8)
    mag = np.abs(p).astype(np.float64)
    ok &= ~(mag >= 2.0 ** 50).any(axis=1)
    dist = np.abs(E1M2[None, None, :] - np.where(mag >= 2.0 ** 50, 0, mag)[:, :, None])
    best = dist.min(axis=2, keepdims=True)
    cand = dist == best
    first = cand.argmax(axis=2)  # lowest code at the minimum distance
    tie = cand.sum(axis=2) > 1
    m = np.where(tie & (first % 2 == 1), first + 1, first)  # of two tied neighbours, the even one
    return {"e6m2": codes, "e1_8": e8, "e1_16": e16, "nib": (sign << 3) | m.astype(np.uint8), "in_domain": ok}


def dequantize(q):
    """Rule 9: the matmul golden's dequantizer, (n, 64) float32."""
    nib = q["nib"].astype(np.int64)
    v = E1M2[nib & 7].astype(np.float32)
    v = np.where(nib & 8, -v, v).astype(np.float32)
    d = bf16(v * e6m2_value(q["e6m2"]).astype(np.float32)[:, None])
    d = bf16(d * np.repeat(np.where(q["e1_8"] == 1, 2.0, 1.0), 8, axis=1).astype(np.float32))
    d = bf16(d * np.repeat(np.where(q["e1_16"] == 1, 2.0, 1.0), 4, axis=1).astype(np.float32))
    return d


def matmul(a, b):
    """The matmul golden's FP32 result for A (M x K) and B given as N x K (both grouped along K)."""
    m, k = a.shape
    da = dequantize(quantize(a.reshape(-1, 64))).reshape(m, k)
    db = dequantize(quantize(b.reshape(-1, 64))).reshape(b.shape)
    return (da @ db.T).astype(np.float32)
