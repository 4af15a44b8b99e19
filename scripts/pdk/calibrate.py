#!/usr/bin/env python3
"""Calibrate the activity-based energy proxy of model/cost against the gate-level energies.

  calibrate.py --energy energy.csv --hifsim build/bin/hifsim --trace traces/smollm2-135m
               --op layer15.q_proj --out calibration.csv

For every gate-level row of the op (unit, STAGES), runs `hifsim cost` on the same op, with the
same number of sampled dot operations and the same order (docs/cost.md section 5) for the
matching config (configs/units/<format>-32x32.yaml, pe.pipeline_depth = STAGES + 1), and splits
the proxy's per-dot energy into logic (s*.*) and register ranks (pipe.*). Then fits
    gate_pJ(unit, STAGES) = k_logic * proxy_logic_pJ + k_reg * proxy_reg_pJ
by least squares on the relative error, and writes one row per unit and STAGES with the
residual. k_logic and k_reg are the factors that turn the 45 nm proxy's coefficients into
sky130 tt/1.8 V ones (printed, and in the CSV's last rows).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FORMAT = {"hif4_dot64": "hif4", "nvfp4_dot64": "nvfp4", "mxfp4_dot64": "mxfp4"}


def proxy(hifsim, fmt, stages, trace, op, ops):
    with tempfile.TemporaryDirectory() as d:
        cmd = [hifsim, "cost", "--config", os.path.join(ROOT, "configs", "units", f"{fmt}-32x32.yaml"),
               "--set", f"pe.pipeline_depth={stages + 1}", "--trace", trace, "--ops", op,
               "--sample", str(ops), "--out", d, "--quiet"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"calibrate: {' '.join(cmd)}: {p.stderr.strip()}")
        c = json.load(open(os.path.join(d, "cost.json")))["cost"]
    comp = c["energy_per_op_pj"]["dot_components"]
    reg = sum(v for k, v in comp.items() if k.startswith("pipe."))
    return sum(comp.values()) - reg, reg, c["activity"]["dots"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--energy", required=True)
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--op", default="layer15.q_proj")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    tag = os.path.basename(os.path.normpath(a.trace)) + "/" + a.op
    rows = [r for r in csv.DictReader(open(a.energy)) if r["trace_op"] == tag and r["module"] in FORMAT]
    if not rows:
        sys.exit(f"calibrate: {a.energy}: no rows for {tag}")
    data = []
    for r in rows:
        s = int(re.search(r"STAGES=(\d+)", r["parameters"]).group(1))
        logic, reg, dots = proxy(a.hifsim, FORMAT[r["module"]], s, a.trace, a.op, int(r["ops"]))
        data.append((r["module"], r["parameters"], float(r["unit_pj"]), logic, reg, dots))
    g = np.array([d[2] for d in data])
    X = np.array([[d[3], d[4]] for d in data])
    # Relative least squares: divide each row by its gate-level value.
    if not X[:, 1].any():  # no pipelined row: only the logic factor can be fitted
        k = np.array([np.sum(X[:, 0] / g) / np.sum((X[:, 0] / g) ** 2), float("nan")])
    elif np.linalg.matrix_rank(X) < 2:
        sys.exit("calibrate: the rows cannot separate logic from register energy")
    else:
        k, *_ = np.linalg.lstsq(X / g[:, None], np.ones(len(g)), rcond=None)
    tmp = a.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["module", "parameters", "gate_pj", "proxy_45nm_logic_pj", "proxy_45nm_reg_pj", "proxy_dots",
                    "gate_over_proxy", "fitted_pj", "residual_pct"])
        for (m, p, gp, lo, re_, dots) in data:
            fit = k[0] * lo + (0.0 if np.isnan(k[1]) else k[1] * re_)
            w.writerow([m, p, f"{gp:.6g}", f"{lo:.6g}", f"{re_:.6g}", dots, f"{gp / (lo + re_):.4g}",
                        f"{fit:.6g}", f"{100 * (fit - gp) / gp:.2f}"])
        w.writerow(["k_logic", "", f"{k[0]:.6g}", "", "", "", "", "", ""])
        w.writerow(["k_reg", "", "not fitted (no pipelined row)" if np.isnan(k[1]) else f"{k[1]:.6g}", "", "", "", "", "", ""])
    os.replace(tmp, a.out)
    print(f"calibrate: k_logic = {k[0]:.4g}, k_reg = {k[1]:.4g}; wrote {a.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
