"""What every stimulus builder of the gate-level energy needs: the quantized trace operands
(`hifsim quantize --codes`, the project's own encoders), the order of the dot operations, bit
vectors in the RTL's port layout, and an exact floating-point rounding for the references.

The references never run the code under test: they decode the codes (or take hifsim's
dequantized values, which are exact float32 numbers), sum exactly with Fractions and round once.
"""
import os
import struct
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .flow_error import FlowError

ROWS_PER_BLOCK = 16  # activation rows that stream past one held weight block (model/cost, docs/cost.md 5)


@dataclass
class Stimulus:
    """Input bit vectors per port, and the expected words per checked output port.

    checks: [(port, latency, [expected int or None per operation])]: the value the port shows
    `latency` cycles after operation i entered; None = not checked (e.g. a NaN operand)."""
    ins: dict
    n_ops: int
    checks: list = field(default_factory=list)
    what: str = ""


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


def quantize(hifsim, fmt, npy, work, extra=()):
    """(dequantized float32 array, packed records [rows, blocks, record_bytes])."""
    base = os.path.join(work, os.path.basename(npy) + "." + fmt + "".join(extra).replace("-", ""))
    out, codes = base + ".npy", base + ".bin"
    p = subprocess.run([hifsim, "quantize", "--format", fmt, "--in", npy, "--out", out, "--codes", codes,
                        *extra], capture_output=True, text=True)
    if p.returncode != 0:
        raise FlowError(npy, f"hifsim quantize --format {fmt} failed: {p.stderr.strip()}")
    hdr, recs = read_packed(codes)
    return np.load(out), recs


def bits(byte_rows):
    """(n, bytes) uint8 -> (n, 8*bytes) bool, bit i of the little-endian integer at column i."""
    return np.unpackbits(np.ascontiguousarray(byte_rows, np.uint8), axis=1, bitorder="little").astype(bool)


def word_bits(values, width):
    """Python ints -> (n, width) bool, bit 0 first."""
    nbytes = (width + 7) // 8
    raw = np.frombuffer(b"".join(int(v).to_bytes(nbytes, "little") for v in values), np.uint8)
    return bits(raw.reshape(len(values), nbytes))[:, :width]


def dot_order(rows_a, rows_b, kblocks, max_ops):
    """(m, n, kb) in the activity proxy's order: for each weight row n and K block kb, the first
    min(M, 16) activation rows m (a weight block held while activation rows stream)."""
    out = []
    for n in range(rows_b):
        for kb in range(kblocks):
            for m in range(min(rows_a, ROWS_PER_BLOCK)):
                out.append((m, n, kb))
                if len(out) >= max_ops:
                    return out
    return out


def chain_order(rows_a, rows_b, kblocks, max_ops):
    """(m, n, kb) in accumulation order: one output (m, n) after the other, its K blocks in turn."""
    out = []
    for n in range(rows_b):
        for m in range(min(rows_a, ROWS_PER_BLOCK)):
            for kb in range(kblocks):
                out.append((m, n, kb))
                if len(out) >= max_ops:
                    return out
    return out


def control(n_ops, ports=("in_valid", "out_ready", "rst_n")):
    """The handshake of a full pipeline: every cycle a transfer; the clock is ideal (0)."""
    c = {p: np.ones((n_ops, 1), bool) for p in ports}
    c["clk"] = np.zeros((n_ops, 1), bool)
    return c


def frac(x):
    return Fraction(float(x))


def round_fp(x, p=24, rz=False):
    """FP32 bits of the exact value x rounded once to p significant bits in FP32's exponent range
    (the last kept bit weighs at least 2^(-126-(p-1)): subnormals for p = 24), ties to even or
    toward zero; overflow gives Inf (RNE) or the largest p-bit value (RZ); a value that rounds to
    zero keeps its sign. x = None is NaN (0x7FC00000)."""
    if x is None:
        return 0x7FC00000
    if x == 0:
        return 0
    neg, a = x < 0, abs(Fraction(x))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    q = max(e, -126) - (p - 1)
    s = a / Fraction(2) ** q
    i = s.numerator // s.denominator
    r = s - i
    if not rz and (r > Fraction(1, 2) or (r == Fraction(1, 2) and i & 1)):
        i += 1
    sign = 0x80000000 if neg else 0
    if i and q + i.bit_length() - 1 >= 128:
        if not rz:
            return sign | 0x7F800000
        i, q = (1 << p) - 1, 128 - p
    return sign | int(np.array([float(Fraction(i) * Fraction(2) ** q)], np.float32).view(np.uint32)[0])


def f32_value(b):
    """FP32 bits -> exact Fraction (None for NaN / Inf)."""
    if (b >> 23) & 0xFF == 0xFF:
        return None
    return Fraction(float(np.array([b], np.uint32).view(np.float32)[0]))
