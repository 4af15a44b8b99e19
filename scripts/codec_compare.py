#!/usr/bin/env python3
"""Codec comparison on one array: for each format, reads the dequantized array written by
`hifsim quantize` and reports SQNR (dB), relative Frobenius error, max abs error and the
fraction of nonzero inputs that quantize to zero (underflow). Writes CSV and Markdown."""
import argparse
import os
import sys
import numpy as np

def metrics(x, y):
    x = x.astype(np.float64); y = y.astype(np.float64)
    err = y - x
    sig = float(np.sum(x * x)); noise = float(np.sum(err * err))
    sqnr = float("inf") if noise == 0 else 10.0 * np.log10(sig / noise)
    nz = x != 0
    under = float(np.mean(y[nz] == 0)) if nz.any() else 0.0
    return sqnr, np.sqrt(noise / sig) if sig else 0.0, float(np.max(np.abs(err))), under

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--input", required=True)
    ap.add_argument("--dir", required=True, help="folder holding <format>.npy outputs")
    ap.add_argument("--formats", required=True)
    a = ap.parse_args()
    x = np.load(a.input)
    rows = []
    for f in a.formats.split(","):
        y = np.load(os.path.join(a.dir, f + ".npy"))
        if y.shape != x.shape:
            sys.exit(f"{a.dir}/{f}.npy: shape {y.shape} differs from the input {x.shape}")
        rows.append((f,) + metrics(x, y))
    with open(os.path.join(a.dir, "comparison.csv"), "w") as fh:
        fh.write("format,sqnr_db,rel_frobenius,max_abs_err,underflow_fraction\n")
        for r in rows:
            fh.write(f"{r[0]},{r[1]:.4f},{r[2]:.6g},{r[3]:.6g},{r[4]:.6f}\n")
    md = ["| format | SQNR (dB) | rel. Frobenius error | max abs error | underflow |", "|---|---|---|---|---|"]
    md += [f"| {r[0]} | {r[1]:.2f} | {r[2]:.4g} | {r[3]:.4g} | {100*r[4]:.2f}% |" for r in rows]
    open(os.path.join(a.dir, "comparison.md"), "w").write("\n".join(md) + "\n")
    print("\n".join(md))

if __name__ == "__main__":
    main()
