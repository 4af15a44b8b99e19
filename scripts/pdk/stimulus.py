"""Dot-unit operands from a real trace op, in the RTL's port layout, with reference results.

The operand tensors (A = activations [M, K], B = weights [N, K]) are quantized by
`hifsim quantize --codes` (the project's own encoders; packed container of docs/formats.md
section 8), and each dot operation takes the K-block kb of A row m and of B row n, in the
order of the activity proxy (model/cost, docs/cost.md section 5): for each n and kb, the
first min(M, 16) rows m in order (a weight block held while activation rows stream).

Reference results are computed here independently of the RTL, from the codes (E2M1, E4M3,
E8M0 decoded by table) or, for HiF4, from hifsim's dequantized values: the exact sum as a
Fraction rounded once to FP32 (RNE).
"""
import os
import struct
import subprocess
import tempfile
from fractions import Fraction

import numpy as np

from flow_error import FlowError

E2M1 = [Fraction(x) for x in (0, 0.5, 1, 1.5, 2, 3, 4, 6)]
FORMATS = {  # unit -> (hifsim format, block, blocks per 64-element unit)
    "hif4_dot64": ("hif4", 64, 1),
    "nvfp4_dot64": ("nvfp4", 16, 4),
    "mxfp4_dot64": ("mxfp4", 32, 2),
}


def read_packed(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"HIFSIMQ1":
        raise FlowError(path, "not a hifsim packed container")
    h = struct.unpack("<I", data[8:12])[0]
    hdr = dict(l.split("=", 1) for l in data[12:12 + h].decode().splitlines() if "=" in l)
    rows, pcols, block, rb = (int(hdr[k]) for k in ("rows", "padded_cols", "block", "record_bytes"))
    body = data[12 + h:]
    nrec = rows * (pcols // block)
    if len(body) != nrec * rb:
        raise FlowError(path, f"payload {len(body)} bytes, expected {nrec * rb}")
    recs = np.frombuffer(body, np.uint8).reshape(rows, pcols // block, rb)
    return hdr, recs


def quantize(hifsim, fmt, npy, work):
    out, codes = os.path.join(work, os.path.basename(npy) + f".{fmt}.npy"), os.path.join(work, os.path.basename(npy) + f".{fmt}.bin")
    p = subprocess.run([hifsim, "quantize", "--format", fmt, "--in", npy, "--out", out, "--codes", codes],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise FlowError(npy, f"hifsim quantize --format {fmt} failed: {p.stderr.strip()}")
    hdr, recs = read_packed(codes)
    return np.load(out), recs


def _bits(byte_rows):
    """(n, bytes) uint8 -> (n, 8*bytes) bool, bit i of the little-endian integer at column i."""
    return np.unpackbits(byte_rows, axis=1, bitorder="little").astype(bool)


def _e4m3(code):
    s = -1 if code & 0x80 else 1
    e, m = (code >> 3) & 0xF, code & 7
    if (code & 0x7F) == 0x7F:
        return None
    return s * (Fraction(m, 8) * Fraction(2) ** -6 if e == 0 else (1 + Fraction(m, 8)) * Fraction(2) ** (e - 7))


def _e2m1(nib):
    return -E2M1[nib & 7] if nib & 8 else E2M1[nib & 7]


def _fp32_bits(x):
    """Exact Fraction -> FP32 bits, RNE; None if float64 rounding could double-round."""
    if x is None:
        return 0x7FC00000
    f = float(x)
    if Fraction(f) != x:
        f32 = np.float32(f)
        lo, hi = Fraction(float(np.nextafter(f32, np.float32(-np.inf)))), Fraction(float(np.nextafter(f32, np.float32(np.inf))))
        if not (lo < x < hi):
            return None
    return int(np.array([f], np.float64).astype(np.float32).view(np.uint32)[0])


def _elements(rec_bytes):
    return [(b >> (4 * h)) & 0xF for b in rec_bytes for h in (0, 1)]


def dot_ops(unit, a_npy, b_npy, hifsim, max_ops, rows_per_block=16):
    fmt, block, nblk = FORMATS[unit]
    with tempfile.TemporaryDirectory() as work:
        a_deq, a_rec = quantize(hifsim, fmt, a_npy, work)
        b_deq, b_rec = quantize(hifsim, fmt, b_npy, work)
    K = a_deq.shape[-1]
    if b_deq.shape[-1] != K or K % 64:
        raise FlowError(b_npy, f"K = {b_deq.shape[-1]} does not match A's {K} or is not a multiple of 64")
    pairs = []
    for n in range(b_rec.shape[0]):
        for kb in range(K // 64):
            for m in range(min(a_rec.shape[0], rows_per_block)):
                pairs.append((m, n, kb))
                if len(pairs) >= max_ops:
                    break
            if len(pairs) >= max_ops:
                break
        if len(pairs) >= max_ops:
            break
    ins, ref = {}, []
    if fmt == "hif4":
        ins["a"] = _bits(np.stack([a_rec[m, kb] for m, n, kb in pairs]))
        ins["b"] = _bits(np.stack([b_rec[n, kb] for m, n, kb in pairs]))
        for m, n, kb in pairs:
            s = sum(Fraction(float(x)) * Fraction(float(y)) for x, y in
                    zip(a_deq[m, 64 * kb:64 * kb + 64], b_deq[n, 64 * kb:64 * kb + 64]))
            ref.append(_fp32_bits(s))
    else:
        def unit_bytes(rec, r, kb):
            blocks = rec[r, kb * nblk:(kb + 1) * nblk]
            return np.concatenate([blk[1:] for blk in blocks]), np.array([blk[0] for blk in blocks], np.uint8)
        ea, sa, eb, sb = [], [], [], []
        for m, n, kb in pairs:
            x, y = unit_bytes(a_rec, m, kb)
            ea.append(x), sa.append(y)
            x, y = unit_bytes(b_rec, n, kb)
            eb.append(x), sb.append(y)
            total, nan = Fraction(0), False
            for j in range(nblk):
                if fmt == "nvfp4":
                    ka, kb_ = _e4m3(int(sa[-1][j])), _e4m3(int(sb[-1][j]))
                else:
                    ka = None if sa[-1][j] == 0xFF else Fraction(2) ** (int(sa[-1][j]) - 127)
                    kb_ = None if sb[-1][j] == 0xFF else Fraction(2) ** (int(sb[-1][j]) - 127)
                if ka is None or kb_ is None:
                    nan = True
                    continue
                ela = _elements(ea[-1][j * block // 2:(j + 1) * block // 2])
                elb = _elements(eb[-1][j * block // 2:(j + 1) * block // 2])
                total += ka * kb_ * sum(_e2m1(p) * _e2m1(q) for p, q in zip(ela, elb))
            ref.append(_fp32_bits(None if nan else total))
        ins["a"], ins["b"] = _bits(np.stack(ea)), _bits(np.stack(eb))
        ins["sa"], ins["sb"] = _bits(np.stack(sa)), _bits(np.stack(sb))
    n_ops = len(pairs)
    for p in ("in_valid", "out_ready", "rst_n", "clk"):
        ins[p] = np.ones((n_ops, 1), bool) if p != "clk" else np.zeros((n_ops, 1), bool)
    return ins, ref, pairs
