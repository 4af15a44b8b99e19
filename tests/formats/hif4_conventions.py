#!/usr/bin/env python3
"""hifsim quantize / gemm --format hif4 --hif4-convention ascend-a6 against an independent port of
the Ascend A6 golden (hif4_a6_oracle.py). Plain script (no pytest); exits non-zero on failure.

Quantize: Gaussian, heavy-tailed (Student t, 2 degrees of freedom, random block scales over
2^-40..2^40) and adversarial units (elements placed on and one BF16 ulp around the element ties,
the BF16 rounding ties of x*scale and the level-2/3 thresholds, for every E6M2 mantissa; units
whose scale rounds to code 0x00 or saturates at 0xFE; negative elements whose scaled product
underflows to -0). Every unit is compared field by field (E6M2, E1_8, E1_16, 64 nibbles) and the
dequantized output bit for bit: 0 mismatches allowed. Units outside the golden's domain
(docs/formats.md, non-goals) are not generated; the oracle asserts it.

Gemm: hifsim gemm at K = 64 equals the golden's dequantize-then-FP32 matmul bit for bit.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hif4_a6_oracle as a6  # noqa: E402
from conv_cli import check, expect_refused, finish  # noqa: E402



def read_packed(path):
    """The packed container (docs/formats.md section 8) -> dict of hif4 fields per unit."""
    raw = open(path, "rb").read()
    assert raw[:8] == b"HIFSIMQ1", path
    h = int.from_bytes(raw[8:12], "little")
    head = dict(line.split("=", 1) for line in raw[12:12 + h].decode().splitlines() if line)
    assert head["format"] == "hif4" and head["record_bytes"] == "36", head
    rec = np.frombuffer(raw[12 + h:], dtype=np.uint8).reshape(-1, 36)
    e1_8 = (rec[:, 1:2] >> np.arange(8)) & 1
    l3 = rec[:, 2].astype(np.int64) | (rec[:, 3].astype(np.int64) << 8)
    e1_16 = (l3[:, None] >> np.arange(16)) & 1
    nib = np.empty((rec.shape[0], 64), dtype=np.uint8)
    nib[:, 0::2] = rec[:, 4:] & 15
    nib[:, 1::2] = rec[:, 4:] >> 4
    return {"e6m2": rec[:, 0], "e1_8": e1_8, "e1_16": e1_16, "nib": nib}


def to_bf16(x):
    return a6.bf16(x)


def gaussian(rng, n):
    return to_bf16(rng.standard_normal((n, 64)))


def heavy(rng, n):
    t = rng.standard_t(2, size=(n, 64)) * np.exp2(rng.integers(-40, 41, size=(n, 1)))
    return to_bf16(t)


def ulps(v, k):
    """BF16 values k ulps above v (k may be negative), v > 0."""
    b = v.astype(np.float32).view(np.uint32) >> 16
    return ((b.astype(np.int64) + k).astype(np.uint32) << 16).view(np.float32)


def adversarial(rng, n):
    """Units whose elements sit on / next to every rounding boundary of the A6 rules."""
    units = []
    for _ in range(n):
        mant = rng.integers(0, 4)                     # E6M2 mantissa of the unit
        exp = int(rng.integers(-30, 12))
        vmax = to_bf16(np.float32(7.0 * (1 + mant / 4) * 2.0 ** exp))  # scale ~ (1 + mant/4) 2^exp
        rec = 1.0 / ((1 + mant / 4) * 2.0 ** exp)
        # targets in the scaled domain: element ties (c + 1/2)/4 at each micro-exponent shift,
        # the level-2 (4) and level-3 (2) thresholds, and BF16 ties of the product
        shift = rng.integers(0, 3, size=63)
        c = rng.integers(0, 8, size=63)
        kind = rng.integers(0, 3, size=63)
        target = np.where(kind == 0, (c + 0.5) / 4 * 2.0 ** shift,
                          np.where(kind == 1, np.where(rng.integers(0, 2, size=63) == 0, 4.0, 2.0),
                                   (1 + (2 * rng.integers(0, 128, size=63) + 1) / 256) * 2.0 ** rng.integers(-3, 1, size=63)))
        x = to_bf16(target / rec)
        x = ulps(np.abs(x), rng.integers(-2, 3, size=63))
        x = np.where(rng.integers(0, 2, size=63) == 0, -x, x)
        u = np.concatenate([[vmax], x]).astype(np.float32)
        units.append(rng.permutation(u))
    out = np.array(units, dtype=np.float32)
    # scale code 0x00 (Vmax*C7 in [0.875, 1.125] * 2^-48) and just above it; saturated 0xFE units
    lo = to_bf16(rng.standard_normal((8, 64)) * 2.0 ** -47)
    lo[:, 0] = to_bf16(np.float32([0.875, 0.9, 1.0, 1.1, 1.125, 1.13, 1.2, 2.0]) * 2.0 ** -48 / a6.C7)
    hi = to_bf16(rng.standard_normal((8, 64)) * 2.0 ** 20)
    hi[:, 0] = to_bf16(np.float32([49152, 53248, 57344, 2.0 ** 16, 2.0 ** 20, 2.0 ** 30, 2.0 ** 40, 2.0 ** 45]) * 7)
    # negative elements whose FP32 product with a tiny scale underflows (sign from the BF16 product)
    uf = np.zeros((4, 64), dtype=np.float32)
    uf[:, 0] = to_bf16(np.float32(2.0 ** 18))
    uf[:, 1:] = -to_bf16(np.exp2(rng.integers(-133, -110, size=(4, 63))).astype(np.float32))
    zero = np.zeros((1, 64), dtype=np.float32)
    return np.concatenate([out, lo, hi, uf, zero])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--units", type=int, default=4000, help="Gaussian and heavy-tailed units each")
    a = ap.parse_args()
    rng = np.random.default_rng(29)
    sets = {"gaussian": gaussian(rng, a.units), "heavy-tailed": heavy(rng, a.units), "adversarial": adversarial(rng, 3000)}
    conv = ["--hif4-convention", "ascend-a6"]
    with tempfile.TemporaryDirectory() as d:
        for name, x in sets.items():
            want = a6.quantize(x)
            check(want["in_domain"].all(), f"{name}: generator left the golden's domain")
            xin, out, codes = (os.path.join(d, f"{name}.{s}") for s in ("in.npy", "out.npy", "bin"))
            np.save(xin, x)
            p = subprocess.run([a.hifsim, "quantize", "--format", "hif4", "--in", xin, "--out", out, "--codes", codes] + conv, capture_output=True, text=True)
            if p.returncode:
                check(False, f"{name}: hifsim quantize failed: {p.stderr.strip()}")
                continue
            got = read_packed(codes)
            bad = np.zeros(x.shape[0], dtype=bool)
            for f in ("e6m2", "e1_8", "e1_16", "nib"):
                w, g = np.asarray(want[f]).reshape(x.shape[0], -1), got[f].reshape(x.shape[0], -1)
                bad |= (w != g).any(axis=1)
            deq_want = a6.dequantize(want)
            deq_got = np.load(out)
            nbits = int((deq_want.view(np.uint32) != deq_got.view(np.uint32)).sum())
            print(f"{name}: {x.shape[0]} units, {int(bad.sum())} unit mismatches, {nbits} dequantized-bit mismatches, "
                  f"{int((want['e6m2'] == 0).sum())} code-0x00 units, {int((want['e6m2'] == 0xFE).sum())} 0xFE units")
            if name == "gaussian":  # the closest official setting still differs (issue 29: ~0.8 % of elements)
                c2 = os.path.join(d, "closest.bin")
                subprocess.run([a.hifsim, "quantize", "--format", "hif4", "--in", xin, "--out", out, "--codes", c2,
                                "--rounding", "rne", "--hif4-compare", "bf16"], check=True, capture_output=True)
                near = read_packed(c2)
                diff_el = int((near["nib"] != want["nib"]).sum())
                diff_u = int(((near["nib"] != want["nib"]).any(axis=1) | (near["e6m2"] != want["e6m2"])).sum())
                print(f"  official --rounding rne --hif4-compare bf16 vs the golden: {diff_el} of {want['nib'].size} "
                      f"elements ({100.0 * diff_el / want['nib'].size:.2f} %), {diff_u} of {x.shape[0]} units")
                check(diff_el > 0, "the official convention equals the A6 golden on Gaussian units (the test has no teeth)")
            check(not bad.any(), f"{name}: {int(bad.sum())} units differ from the A6 golden port "
                                 f"(first unit {int(np.argmax(bad)) if bad.any() else -1})")
            check(nbits == 0, f"{name}: {nbits} dequantized values differ")

        # gemm at K = 64: the golden's dequantize-then-FP32 matmul, bit for bit
        for name, (m, n) in {"gaussian": (64, 48), "heavy-tailed": (40, 40)}.items():
            A = (gaussian if name == "gaussian" else heavy)(rng, m)
            B = (gaussian if name == "gaussian" else heavy)(rng, n)
            ain, bin_, cout = (os.path.join(d, f"g{name}.{s}.npy") for s in ("a", "b", "c"))
            np.save(ain, A)
            np.save(bin_, B)
            p = subprocess.run([a.hifsim, "gemm", "--format", "hif4", "--a", ain, "--b", bin_, "--out", cout, "--quiet"] + conv,
                               capture_output=True, text=True)
            if p.returncode:
                check(False, f"gemm {name}: {p.stderr.strip()}")
                continue
            want = a6.matmul(A, B)
            got = np.load(cout)
            nbits = int((want.view(np.uint32) != got.view(np.uint32)).sum())
            print(f"gemm {name} {m}x64x{n}: {nbits} of {want.size} results differ")
            check(nbits == 0, f"gemm {name}: {nbits} results differ from the golden's FP32 matmul")
        # conflicting options: one error line naming the option, no output
        np.save(os.path.join(d, "e.npy"), gaussian(rng, 2))
        for extra, opt in ((["--format", "hif4", "--rounding", "away"], "--rounding"),
                           (["--format", "hif4", "--hif4-compare", "exact"], "--hif4-compare"),
                           (["--format", "mxfp4"], "--hif4-convention"),
                           (["--format", "hif4", "--hif4-convention", "a6"], "--hif4-convention")):
            eout = os.path.join(d, "e.out.npy")
            args = [a.hifsim, "quantize", "--in", os.path.join(d, "e.npy"), "--out", eout] + extra
            if "--hif4-convention" not in extra:
                args += conv
            expect_refused(args, opt, eout)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
