#!/usr/bin/env python3
"""External-oracle test, through the command line: `hifsim encode` / `hifsim decode` against
ml-dtypes (fp4-e2m1, fp8-e4m3, fp8-e5m2, e8m0, bf16) or en-dtypes (hif8).

For one format it builds >= N float32 inputs covering every boundary class -- every value of the
format and every midpoint between neighbours, each +-4 ulps, both signs; zeros, infinities, NaNs
with several payloads, FP32 subnormals and extremes; uniformly random FP32 bit patterns; and
log-uniform random values across the format's range -- encodes them with hifsim and with the
oracle, and compares the codes bit for bit. It then decodes every code with both and compares
the values (NaN compared as "NaN with the same sign": payloads are not part of any format here).

Deliberate deviations are excluded explicitly (and argued in docs/formats.md):
  fp4-e2m1  NaN and +-Inf inputs: `hifsim encode` rejects them (E2M1 has neither); ml-dtypes maps
            NaN to a signed zero with an inverted sign. The test checks that hifsim rejects them.
  e8m0      FP32 subnormal inputs x with 2^-127 < x < 1.5 * 2^-127: ml-dtypes gives 2^-126 (0x01)
            although 2^-127 (0x00) is nearer; hifsim rounds to nearest (ties up) everywhere. The
            test checks that hifsim gives 0x00 there and ml-dtypes 0x01, so a change in either shows.
Nothing else is excluded. Exits non-zero on any mismatch. Plain script (no pytest).
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

FORMATS = {
    # name: (oracle module, dtype name, code dtype)
    "hif8": ("en_dtypes", "hifloat8", np.uint8),
    "fp4-e2m1": ("ml_dtypes", "float4_e2m1fn", np.uint8),
    "fp8-e4m3": ("ml_dtypes", "float8_e4m3fn", np.uint8),
    "fp8-e5m2": ("ml_dtypes", "float8_e5m2", np.uint8),
    "e8m0": ("ml_dtypes", "float8_e8m0fnu", np.uint8),
    "bf16": ("ml_dtypes", "bfloat16", np.uint16),
}

# hif8.md section 7 vectors (FP32 bits), always part of the hif8 input.
HIF8_VECTORS = [
    0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0x3F880000, 0x3F880001, 0x3F980000,
    0xBF880000, 0x3FF80000, 0x41780000, 0x4177FFFF, 0x41880000, 0x41900000, 0x46C00000, 0x46E00000, 0x47000000,
    0x47000100, 0x471FFFFF, 0x47200000, 0x473FFFFF, 0x47400000, 0x477FE000, 0x38000000, 0x38200000, 0x37C00000,
    0x37BFFFFF, 0x37800000, 0x34C00000, 0x34800000, 0x34000000, 0x33FFFFFF, 0xB4000000, 0x33800000, 0x00000001,
    0x3F7FFFFF, 0x40F00000, 0x3F400000, 0x3F380000, 0x41400000, 0xC0D00000, 0x437FFFFF, 0x45400000, 0x45600000,
    0x41800000, 0x41A00000,
]


def oracle_dtype(fmt):
    mod, name, _ = FORMATS[fmt]
    m = __import__(mod)
    return getattr(m, name)


def all_codes(fmt):
    ct = FORMATS[fmt][2]
    n = 16 if fmt == "fp4-e2m1" else (65536 if ct == np.uint16 else 256)
    return np.arange(n, dtype=ct)


def format_values(fmt):
    """Every finite value of the format, decoded by the oracle (float64, sorted, unique)."""
    dt = oracle_dtype(fmt)
    codes = all_codes(fmt)
    if fmt == "fp4-e2m1":
        v = codes.astype(np.uint8).view(dt).astype(np.float64)
    else:
        v = codes.view(dt).astype(np.float64)
    v = v[np.isfinite(v)]
    return np.unique(v)


def ulps_around(points, k):
    """float32 points and their neighbours up to k ulps either side, both signs."""
    p = np.asarray(points, dtype=np.float32)
    p = p[np.isfinite(p)]
    bits = np.abs(p).view(np.uint32).astype(np.int64)
    out = [bits + d for d in range(-k, k + 1)]
    b = np.concatenate(out)
    b = b[(b >= 0) & (b <= 0x7F7FFFFF)].astype(np.uint32)
    pos = b.view(np.float32)
    return np.concatenate([pos, -pos])


def build_inputs(fmt, n, rng):
    with np.errstate(invalid="ignore", over="ignore"):
        vals = format_values(fmt)
    finite_vals = vals[vals >= 0]
    mids = (finite_vals[:-1] + finite_vals[1:]) / 2
    top = finite_vals[-1]
    extra = [top + (top - finite_vals[-2]) / 2, top * 2, top * 4]  # overflow ties and beyond
    if fmt == "hif8":
        extra += [40960.0, 49152.0, 65536.0, 2.0**-23, 2.0**-24]
    if fmt == "e8m0":
        extra += [1.5 * 2.0**k for k in range(-127, 128)]
    with np.errstate(over="ignore"):
        parts = [ulps_around(np.concatenate([finite_vals, mids, extra]), 4)]
    # Specials and FP32 extremes.
    special_bits = np.array(
        [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
         0x7FA12345, 0xFFFFFFFF, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF],
        dtype=np.uint32)
    parts.append(special_bits.view(np.float32))
    if fmt == "hif8":
        parts.append(np.array(HIF8_VECTORS, dtype=np.uint32).view(np.float32))
    # Random FP32 bit patterns (all classes, NaNs included).
    parts.append(rng.integers(0, 2**32, size=n // 3, dtype=np.uint64).astype(np.uint32).view(np.float32))
    # Log-uniform random values across the format's range and a little beyond.
    pos = finite_vals[finite_vals > 0]
    lo, hi = np.log2(pos[0]) - 3, np.log2(pos[-1]) + 2
    m = max(n - sum(len(p) for p in parts), n // 3)
    e = rng.uniform(lo, hi, size=m)
    with np.errstate(over="ignore"):
        r = (np.exp2(e) * rng.choice([-1.0, 1.0], size=m)).astype(np.float32)
    parts.append(r)
    x = np.concatenate(parts).astype(np.float32)
    return x


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def same_value(a, b):
    """Bitwise equal, or both NaN with the same sign."""
    ab = a.view(np.uint32)
    bb = b.view(np.uint32)
    nan = np.isnan(a) & np.isnan(b) & (np.signbit(a) == np.signbit(b))
    return (ab == bb) | nan


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--format", required=True, choices=sorted(FORMATS))
    ap.add_argument("--n", type=int, default=1_000_000, help="minimum number of values (default 10^6)")
    ap.add_argument("--seed", type=int, default=20261129)
    a = ap.parse_args()

    rng = np.random.default_rng(a.seed)
    fmt = a.format
    dt = oracle_dtype(fmt)
    code_dt = FORMATS[fmt][2]
    x = build_inputs(fmt, a.n, rng)
    excluded = np.zeros(x.shape, dtype=bool)
    if fmt == "fp4-e2m1":
        excluded = ~np.isfinite(x)
    e8m0_quirk = np.zeros(x.shape, dtype=bool)
    if fmt == "e8m0":
        e8m0_quirk = (x > np.float32(2.0**-127)) & (x < np.float32(1.5 * 2.0**-127))
    xs = x[~excluded]
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        xin, cout, yout = (os.path.join(d, n) for n in ("x.npy", "c.npy", "y.npy"))
        np.save(xin, xs)
        rc, out = run([a.hifsim, "encode", "--format", fmt, "--in", xin, "--out", cout])
        if rc != 0:
            print(f"FAIL: hifsim encode exited {rc}: {out.strip()}")
            return 1
        got = np.load(cout)
        if got.dtype != code_dt or got.shape != xs.shape:
            print(f"FAIL: hifsim encode wrote {got.dtype} {got.shape}, expected {np.dtype(code_dt)} {xs.shape}")
            return 1
        with np.errstate(invalid="ignore", over="ignore"):
            want = xs.astype(dt).view(np.uint8 if code_dt == np.uint8 else np.uint16)
        quirk = e8m0_quirk[~excluded]
        if quirk.any():
            # The documented deviation: hifsim 0x00 (nearest), ml-dtypes 0x01.
            if not ((got[quirk] == 0) & (want[quirk] == 1)).all():
                print("FAIL: the e8m0 subnormal deviation changed shape (expected hifsim 0x00, ml-dtypes 0x01)")
                failures += 1
            want = want.copy()
            want[quirk] = got[quirk]
        bad = np.nonzero(got != want)[0]
        failures += len(bad)
        print(f"{fmt}: encode {len(xs)} values against {FORMATS[fmt][0]}.{FORMATS[fmt][1]}: {len(bad)} mismatches;"
              f" {int(excluded.sum()) + int(quirk.sum())} excluded (see the script header)")
        for i in bad[:10]:
            print(f"  x=0x{xs[i:i+1].view(np.uint32)[0]:08X} ({xs[i]!r}): hifsim 0x{int(got[i]):02X}"
                  f" oracle 0x{int(want[i]):02X}")
        if fmt == "hif8":
            v = np.array(HIF8_VECTORS, dtype=np.uint32).view(np.float32)
            print(f"  hif8.md section 7 vectors through {FORMATS[fmt][1]}: "
                  + " ".join(f"{int(c):02X}" for c in v.astype(dt).view(np.uint8)))

        # Decode every code with both.
        codes = all_codes(fmt)
        np.save(xin, codes if code_dt == np.uint16 else codes.astype(np.uint8))
        rc, out = run([a.hifsim, "decode", "--format", fmt, "--in", xin, "--out", yout])
        if rc != 0:
            print(f"FAIL: hifsim decode exited {rc}: {out.strip()}")
            return 1
        y = np.load(yout)
        with np.errstate(invalid="ignore"):
            yo = codes.astype(np.uint8 if code_dt == np.uint8 else np.uint16).view(dt).astype(np.float32)
        ok = same_value(y, yo)
        nbad = int((~ok).sum())
        failures += nbad
        print(f"{fmt}: decode all {len(codes)} codes: {nbad} mismatches")
        for i in np.nonzero(~ok)[0][:10]:
            print(f"  code 0x{int(codes[i]):X}: hifsim {y[i]!r} oracle {yo[i]!r}")

        # The excluded inputs must be rejected with a clear message (fp4-e2m1: NaN/Inf).
        if excluded.any():
            np.save(xin, x[excluded][:4])
            rc, out = run([a.hifsim, "encode", "--format", fmt, "--in", xin, "--out", cout + "2"])
            if rc == 0 or "cannot be represented" not in out or os.path.exists(cout + "2"):
                print(f"FAIL: excluded inputs were not rejected cleanly (exit {rc}): {out.strip()}")
                failures += 1
            else:
                print(f"{fmt}: excluded inputs rejected: {out.strip()}")
    print("PASS" if failures == 0 else f"FAIL: {failures} mismatches")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
