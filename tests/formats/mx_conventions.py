#!/usr/bin/env python3
"""Every MX convention (hifsim quantize --mx-convention NAME) against an independent reference.

The reference is written here from the published rules (docs/formats.md, "MX conventions"): the
E8M0 exponent of each rule computed with exact arithmetic (Python fractions / frexp, the FP32
product of `rceil` with NumPy float32), and the elements by a nearest search over the element
format's value table (taken from ml-dtypes), ties to even or away, saturated. Blocks: Gaussian and
heavy-tailed times random powers of two, and blocks whose amax sits on and next to every rule's
boundary (max_elem * 2^k, powers of two, the EVEN rule's rounding point), with ties among the
elements. Each set must give 0 mismatching blocks (scale byte and every element code) for mxfp4,
mxfp8-e4m3 and mxfp8-e5m2. Plain script; exits non-zero on failure.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conv_cli import check, expect_refused, finish  # noqa: E402

FORMATS = {  # name: (ml-dtypes type, mantissa bits, emax, record bytes, element bits)
    "mxfp4": (ml_dtypes.float4_e2m1fn, 1, 2, 17, 4),
    "mxfp8-e4m3": (ml_dtypes.float8_e4m3fn, 3, 8, 33, 8),
    "mxfp8-e5m2": (ml_dtypes.float8_e5m2, 2, 15, 33, 8),
}
CONVENTIONS = {  # name: (rule, ties away)
    "ocp": ("floor", False), "microxcaling": ("floor", True), "nvidia": ("rceil", False),
    "torchao-ceil": ("pow2-ceil", False), "torchao-even": ("even", False), "arcquant": ("ceil", False),
}


def value_table(dtype, bits):
    """Positive finite values and their codes, ascending."""
    codes = np.arange(1 << (bits - 1), dtype=np.uint8)
    vals = codes.view(dtype).astype(np.float64)  # ml-dtypes keeps a float4 code in the low bits of a byte
    keep = np.isfinite(vals)
    return vals[keep], codes[keep]


def floor_log2(a):
    m, e = math.frexp(a)  # a = m 2^e, m in [0.5, 1)
    return e - 1


def shared_exp(amax, rule, mbits, emax, maxe):
    if amax == 0:
        return -127
    if rule == "floor":
        s = floor_log2(amax) - emax
    elif rule == "ceil":  # smallest e with maxe 2^e >= amax
        q = Fraction(amax) / Fraction(maxe)
        s = floor_log2(float(q))
        if Fraction(2) ** s < q:
            s += 1
        while Fraction(2) ** (s - 1) >= q:
            s -= 1
    elif rule == "pow2-ceil":  # amax rounded up to a power of two
        s = floor_log2(amax) + (0 if Fraction(amax) == Fraction(2) ** floor_log2(amax) else 1) - emax
        if amax < 2.0 ** -126:  # FP32 subnormal: exponent field 0 (-127), +1 for a nonzero fraction
            s = -126 - emax
    elif rule == "even":  # round the significand to mbits bits, half up, then floor(log2)
        m, e = math.frexp(amax)
        sig = Fraction(m) * 2
        r = math.floor(sig * 2 ** mbits + Fraction(1, 2))
        s = (e - 1) + (1 if r >= 2 ** (mbits + 1) else 0) - emax
        if amax < 2.0 ** -126:
            s = -127 - emax
    elif rule == "rceil":  # FP32 product, then E8M0 rounded up
        d = np.float32(amax) * (np.float32(1.0) / np.float32(maxe))
        b = int(np.float32(d).view(np.uint32))
        field, frac = b >> 23, b & 0x7FFFFF
        s = field - 127 + (1 if (frac > 0x400000 if field == 0 else frac != 0) else 0)
    return max(s, -127)


def quantize_block(x, rule, away, dtype, mbits, emax, bits):
    vals, codes = value_table(dtype, bits)
    maxe = vals[-1]
    amax = float(np.max(np.abs(x)))
    s = shared_exp(amax, rule, mbits, emax, maxe)
    out = []
    for v in x.astype(np.float64):
        q = min(abs(v) / 2.0 ** s, maxe)
        i = int(np.searchsorted(vals, q))
        if i == len(vals):
            best = len(vals) - 1
        elif vals[i] == q or i == 0:
            best = i
        else:
            lo, hi = vals[i - 1], vals[i]
            if q - lo < hi - q:
                best = i - 1
            elif q - lo > hi - q:
                best = i
            else:
                best = i if away else (i - 1 if codes[i - 1] % 2 == 0 else i)
        out.append(int(codes[best]) | ((1 << (bits - 1)) if v < 0 or (v == 0 and math.copysign(1, v) < 0) else 0))
    return s + 127, out


def blocks(rng, maxe, mbits, n):
    b = []
    for _ in range(n):
        kind = rng.integers(0, 4)
        x = rng.standard_normal(32) * 2.0 ** rng.integers(-30, 30)
        if kind == 1:
            x = rng.standard_t(2, 32) * 2.0 ** rng.integers(-30, 30)
        if kind >= 2:  # amax on / next to a boundary of some rule
            k = int(rng.integers(-40, 40)) if rng.integers(0, 4) else int(rng.integers(-140, -118))  # FP32 subnormals
            base = [maxe * 2.0 ** k, 2.0 ** k, (2 - 2.0 ** -(mbits + 1)) * 2.0 ** k, 1.5 * 2.0 ** k][rng.integers(0, 4)]
            a = np.float32(base)
            a = np.nextafter(a, np.float32(np.inf) if rng.integers(0, 2) else np.float32(0)) if rng.integers(0, 3) == 0 else a
            x = (rng.integers(-8, 9, 32) / 8.0) * float(a)  # ties among the elements
            x[rng.integers(0, 32)] = float(a) * (1 if rng.integers(0, 2) else -1)
        b.append(np.asarray(x, dtype=np.float32))
    # the one amax per format where rceil and the exact ceil differ (docs/formats.md): max * 2^-127 + 1 ulp
    x = np.zeros(32, dtype=np.float32)
    x[5] = np.nextafter(np.float32(maxe * 2.0 ** -127), np.float32(1))
    b.append(x)
    return np.array(b, dtype=np.float32)


def read_records(path, rec):
    raw = open(path, "rb").read()
    h = int.from_bytes(raw[8:12], "little")
    return np.frombuffer(raw[12 + h:], dtype=np.uint8).reshape(-1, rec)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--blocks", type=int, default=500)
    a = ap.parse_args()
    rng = np.random.default_rng(2902)
    with tempfile.TemporaryDirectory() as d:
        for fname, (dtype, mbits, emax, rec, bits) in FORMATS.items():
            maxe = value_table(dtype, bits)[0][-1]
            x = blocks(rng, maxe, mbits, a.blocks)
            xin = os.path.join(d, f"{fname}.npy")
            np.save(xin, x)
            for conv, (rule, away) in CONVENTIONS.items():
                out, codes = os.path.join(d, "o.npy"), os.path.join(d, "c.bin")
                p = subprocess.run([a.hifsim, "quantize", "--format", fname, "--mx-convention", conv, "--in", xin,
                                    "--out", out, "--codes", codes], capture_output=True, text=True)
                if p.returncode:
                    check(False, f"{fname} {conv}: {p.stderr.strip()}")
                    continue
                got = read_records(codes, rec)
                bad = 0
                for i in range(x.shape[0]):
                    scale, el = quantize_block(x[i], rule, away, dtype, mbits, emax, bits)
                    if bits == 4:
                        gel = [(got[i, 1 + k // 2] >> (4 * (k % 2))) & 15 for k in range(32)]
                    else:
                        gel = list(got[i, 1:])
                    if got[i, 0] != scale or [int(v) for v in gel] != el:
                        if bad < 3:
                            print(f"  {fname} {conv} block {i}: scale {got[i, 0]} want {scale}")
                        bad += 1
                print(f"{fname} {conv}: {x.shape[0]} blocks, {bad} mismatching")
                check(bad == 0, f"{fname} {conv}: {bad} blocks differ from the reference")
        # conflicting or unknown options: one error line naming the option, no output
        for extra, opt in ((["--format", "mxfp4", "--mx-convention", "nvidia", "--mx-scale", "floor"], "--mx-convention"),
                           (["--format", "mxfp4", "--mx-convention", "nvidia", "--rounding", "away"], "--mx-convention"),
                           (["--format", "mxfp4", "--mx-convention", "amd"], "--mx-convention"),
                           (["--format", "mxfp4", "--mx-scale", "round"], "--mx-scale"),
                           (["--format", "nvfp4", "--mx-convention", "ocp"], "--mx-convention")):
            eout = os.path.join(d, "e.npy")
            expect_refused([a.hifsim, "quantize", "--in", xin, "--out", eout] + extra, opt, eout)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
