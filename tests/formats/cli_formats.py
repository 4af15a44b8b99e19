#!/usr/bin/env python3
"""Command-line checks of the format commands (hifsim quantize / encode / decode / table).

Good paths: every tensor format quantizes a 3-D float32 array whose last axis (100) is not a
multiple of any block, with --codes; the output has the input's shape, the packed file exists,
and the result equals the dequantized values of the same run without --codes (fast path vs
reference path). `table` prints 256 (or 16) rows for every code format.

Bad input: unknown format, wrong dtype (float64, uint8 into quantize, float32 into decode),
Fortran order, truncated data, truncated header, corrupt header, NaN and Inf into nvfp4, NaN into
fp4-e2m1, an unknown option, a bad --rounding. Each must exit non-zero with exactly one line on
stderr that names the file or option and the reason, and leave no output, no --codes file, no
manifest and no temporary file behind. Plain script (no pytest); exits non-zero on failure.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np

TENSOR_FORMATS = ["hif8", "hif4", "mxfp4", "mxfp8-e4m3", "mxfp8-e5m2", "nvfp4", "fp8-e4m3", "fp8-e5m2", "bf16"]
CODE_FORMATS = {"hif8": 256, "fp8-e4m3": 256, "fp8-e5m2": 256, "fp4-e2m1": 16, "s1p2": 16, "e6m2": 256, "e8m0": 256}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def npy_header(descr, fortran, shape):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
    while (10 + len(d) + 1) % 64:
        d += " "
    d += "\n"
    return b"\x93NUMPY\x01\x00" + len(d).to_bytes(2, "little") + d.encode()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hifsim", required=True)
    a = ap.parse_args()
    h = a.hifsim
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as d:
        x = (rng.standard_normal((2, 3, 100)) * np.exp2(rng.integers(-8, 8, size=(2, 3, 100)))).astype(np.float32)
        xin = os.path.join(d, "x.npy")
        np.save(xin, x)
        # ---- good paths ----
        for f in TENSOR_FORMATS:
            out, codes, out2 = (os.path.join(d, f"{f}.{s}") for s in ("npy", "bin", "fast.npy"))
            p = run([h, "quantize", "--format", f, "--in", xin, "--out", out, "--codes", codes])
            check(p.returncode == 0, f"quantize {f}: exit {p.returncode}: {p.stderr.strip()}")
            if p.returncode:
                continue
            y = np.load(out)
            check(y.shape == x.shape and y.dtype == np.float32, f"quantize {f}: output {y.dtype} {y.shape}")
            check(os.path.getsize(codes) > 0 and open(codes, "rb").read(8) == b"HIFSIMQ1", f"quantize {f}: codes file")
            check(os.path.exists(out + ".manifest.json"), f"quantize {f}: manifest")
            p = run([h, "quantize", "--format", f, "--in", xin, "--out", out2, "--threads", "3"])
            check(p.returncode == 0, f"quantize {f} (fast path): {p.stderr.strip()}")
            if p.returncode == 0:
                y2 = np.load(out2)
                check(np.array_equal(y.view(np.uint32), y2.view(np.uint32)),
                      f"quantize {f}: --codes (reference path) and plain (fast path) outputs differ")
        for f, n in CODE_FORMATS.items():
            p = run([h, "table", "--format", f])
            lines = p.stdout.strip().splitlines()
            check(p.returncode == 0 and lines[0] == "code,value" and len(lines) == n + 1, f"table {f}: {len(lines)} lines")
        # ---- bad input ----
        def bad(name, args, want, outputs):
            for o in outputs:
                if os.path.exists(o):
                    os.remove(o)
            p = run([h] + args)
            err = p.stderr.strip().splitlines()
            check(p.returncode != 0, f"{name}: exit code {p.returncode}")
            check(len(err) == 1, f"{name}: expected one line on stderr, got {err}")
            check(all(w in p.stderr for w in want), f"{name}: message {p.stderr.strip()!r} lacks {want}")
            left = [o for o in outputs if os.path.exists(o)]
            left += [t for t in glob.glob(os.path.join(d, "*tmp*"))]
            check(not left, f"{name}: left behind {left}")
            print(f"ok   {name}: {p.stderr.strip()}")

        out, codes = os.path.join(d, "out.npy"), os.path.join(d, "out.bin")
        outs = [out, codes, out + ".manifest.json"]
        q = lambda f, i: ["quantize", "--format", f, "--in", i, "--out", out, "--codes", codes]
        bad("unknown format", q("fp5", xin), ["--format", "fp5", "unknown"], outs)
        f64 = os.path.join(d, "f64.npy")
        np.save(f64, x.astype(np.float64))
        bad("float64 input", q("hif4", f64), [f64, "dtype", "<f8"], outs)
        u8 = os.path.join(d, "u8.npy")
        np.save(u8, np.zeros(10, dtype=np.uint8))
        bad("uint8 input to quantize", q("hif8", u8), [u8, "dtype", "expected float32"], outs)
        fo = os.path.join(d, "fortran.npy")
        np.save(fo, np.asfortranarray(rng.standard_normal((4, 5)).astype(np.float32)))
        bad("Fortran order", q("mxfp4", fo), [fo, "fortran_order"], outs)
        tr = os.path.join(d, "trunc.npy")
        open(tr, "wb").write(open(xin, "rb").read()[:-7])
        bad("truncated data", q("nvfp4", tr), [tr, "truncated"], outs)
        th = os.path.join(d, "trunchdr.npy")
        open(th, "wb").write(open(xin, "rb").read()[:40])
        bad("truncated header", q("hif8", th), [th, "truncated"], outs)
        ch = os.path.join(d, "corrupt.npy")
        open(ch, "wb").write(npy_header("<f4", "False", "(2, x)") + b"\0" * 8)
        bad("corrupt header", q("hif8", ch), [ch, "shape"], outs)
        nm = os.path.join(d, "magic.npy")
        open(nm, "wb").write(b"PK\x03\x04 this is a zip")
        bad("not an npy", q("hif8", nm), [nm, "magic"], outs)
        xn = x.copy()
        xn[1, 2, 7] = np.nan
        nan_in = os.path.join(d, "nan.npy")
        np.save(nan_in, xn)
        bad("NaN into nvfp4", q("nvfp4", nan_in), [nan_in, "element [5, 7]", "NaN", "nvfp4"], outs)
        bad("NaN into nvfp4 (fast path)", ["quantize", "--format", "nvfp4", "--in", nan_in, "--out", out],
            [nan_in, "NaN", "nvfp4"], outs)
        xi = x.copy()
        xi[0, 0, 0] = -np.inf
        inf_in = os.path.join(d, "inf.npy")
        np.save(inf_in, xi)
        bad("Inf into nvfp4", q("nvfp4", inf_in), [inf_in, "element [0, 0]", "Inf"], outs)
        bad("NaN into fp4-e2m1", ["encode", "--format", "fp4-e2m1", "--in", nan_in, "--out", out],
            [nan_in, "NaN", "fp4-e2m1"], outs)
        bad("float32 codes into decode", ["decode", "--format", "hif8", "--in", xin, "--out", out],
            [xin, "dtype", "uint8"], outs)
        c4 = os.path.join(d, "c4.npy")
        np.save(c4, np.array([3, 17], dtype=np.uint8))
        bad("5-bit code into a 4-bit format", ["decode", "--format", "fp4-e2m1", "--in", c4, "--out", out],
            [c4, "element 1", "4 bits"], outs)
        bad("unknown option", ["quantize", "--format", "hif8", "--in", xin, "--out", out, "--bogus", "1"],
            ["--bogus", "unknown option"], outs)
        bad("bad rounding", ["quantize", "--format", "nvfp4", "--in", xin, "--out", out, "--rounding", "away"],
            ["--rounding", "not supported by nvfp4"], outs)
        bad("saturate on a format without it", ["quantize", "--format", "hif4", "--in", xin, "--out", out, "--saturate"],
            ["--saturate"], outs)
        bad("missing input file", q("hif8", os.path.join(d, "nope.npy")), ["nope.npy", "does not exist"], outs)
        bad("code format into quantize", q("e8m0", xin), ["--format", "e8m0"], outs)
    print("PASS" if not failures else f"FAIL: {len(failures)} checks failed")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
