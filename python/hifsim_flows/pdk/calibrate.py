#!/usr/bin/env python3
"""Calibrate the 45 nm activity-based energy proxy of model/cost against the gate-level energies,
factors for the energy classes of the proxy's table (e_mul, e_add and e_logic share one; e_fpadd,
e_ff_toggle, e_ff_clock one each), and its area (GE) against the sky130 cell area.

  calibrate.py --energy energy.csv --units units.csv --hifsim build/bin/hifsim
               --trace traces/smollm2-135m --op layer15.q_proj --out calibration.csv

For every gate-level row of the op, `hifsim cost` runs the matching unit config (the unit
catalog's RTL-to-config mapping, `hifsim units --json`: the format, the unit's parameters,
pe.pipeline_depth = STAGES + 1) on the same op with the same
number of sampled dot operations, once per class with every other class's coefficient set to 0
(a copy of configs/cost): the proxy's energy split by class comes from the model itself, which
knows which component is which class. The proxy is linear in the coefficients; the check that
the parts add up to the full proxy is part of the run.

Fits (least squares on relative errors, factors >= 0):
  gate logic_pj      = k_dot (P_mul + P_add + P_logic) + k_fpadd P_fpadd
  gate flop_data_pj  = k_ff_toggle P_ff_toggle        gate clock_pj = k_ff_clock P_ff_clock
  sky130 area um2    = a * proxy GE  (one factor: the table has one ge_area_um2)
Writes one row per unit with its residual, then one row per coefficient: its 45 nm value, the
factor and the sky130 value (what energy-sky130.yaml is made of).
"""
import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from ..repo import ROOT  # noqa: E402
CLASSES = ["e_mul", "e_add", "e_logic", "e_fpadd", "e_ff_toggle", "e_ff_clock"]
# The logic classes are fitted in two groups: the dot units' classes share one factor, the FP adder
# its own. One factor per class was tried: multiplier and adder energies rise together across the
# units (the products feed the trees), the fit is ill-conditioned and put e_mul at 0 (multipliers
# free at sky130), which a node table must not say.
LOGIC_GROUPS = [["e_mul", "e_add", "e_logic"], ["e_fpadd"]]


def proxy_configs(hifsim):
    """{(module, parameters): (unit config, --set overrides, which proxy figure) or None}: the unit
    catalog's RTL-to-config mapping of every variant set (`hifsim units --json`)."""
    p = subprocess.run([hifsim, "units", "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"calibrate: {hifsim} units --json: {p.stderr.strip()}")
    out = {}
    for u in json.loads(p.stdout)["units"]:
        for sets in u["sets"].values():
            for s in sets:
                px = s["proxy"]
                out[(u["name"], s["parameters"])] = None if px is None else \
                    (os.path.join(ROOT, px["config"]), px["sets"], px["figure"])
    return out


def run_proxy(hifsim, tables, config, sets, trace, op, ops):
    with tempfile.TemporaryDirectory() as d:
        cmd = [hifsim, "cost", "--tables", tables, "--config", config, "--set", ",".join(sets), "--trace", trace,
               "--ops", op, "--sample", str(ops), "--out", d, "--quiet"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"calibrate: {' '.join(cmd)}: {p.stderr.strip()}")
        with open(os.path.join(d, "cost.json")) as f:
            return json.load(f)["cost"]


def one_hot_tables(src, work, node="45nm"):
    """{class: tables dir whose energy table keeps only that class's coefficient}."""
    text = open(os.path.join(src, f"energy-{node}.yaml")).read()
    out = {}
    for c in CLASSES:
        d = os.path.join(work, c)
        shutil.copytree(src, d, ignore=shutil.ignore_patterns("sky130"))
        t = text
        for other in CLASSES:
            if other != c:
                t, n = re.subn(rf"^({other}: {{value: )[0-9.eE+-]+", r"\g<1>0", t, flags=re.M)
                if n != 1:
                    sys.exit(f"calibrate: {src}/energy-{node}.yaml: no single '{other}' entry")
        open(os.path.join(d, f"energy-{node}.yaml"), "w").write(t)
        out[c] = d
    return out


def coefficient(src, name, node="45nm"):
    m = re.search(rf"^{name}: {{value: ([0-9.eE+-]+)", open(os.path.join(src, f"energy-{node}.yaml")).read(), re.M)
    return float(m.group(1))


def nnls_rel(X, y):
    """min sum(((X k - y) / y)^2) over k >= 0, by active-set elimination (few columns)."""
    A = X / y[:, None]
    b = np.ones(len(y))
    free = [j for j in range(X.shape[1]) if X[:, j].any()]
    while True:
        k = np.zeros(X.shape[1])
        if free:
            k[free] = np.linalg.lstsq(A[:, free], b, rcond=None)[0]
        neg = [j for j in free if k[j] < 0]
        if not neg:
            return k
        free.remove(min(neg, key=lambda j: k[j]))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--energy", required=True)
    ap.add_argument("--units", required=True)
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--op", default="layer15.q_proj")
    ap.add_argument("--tables", default=os.path.join(ROOT, "configs", "cost"))
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    tag = os.path.basename(os.path.normpath(a.trace)) + "/" + a.op
    area = {(r["module"], r["parameters"]): float(r["area_um2"]) for r in csv.DictReader(open(a.units))}
    rows = [r for r in csv.DictReader(open(a.energy)) if r["trace_op"] == tag]
    data, skipped = [], []
    with tempfile.TemporaryDirectory() as work:
        hot = one_hot_tables(a.tables, work)
        mapping = proxy_configs(a.hifsim)
        for r in rows:
            if (r["module"], r["parameters"]) not in mapping:
                sys.exit(f"calibrate: {a.energy}: {r['module']} {r['parameters']} is not a variant of the unit catalog "
                         "(hifsim units --json)")
            pc = mapping[(r["module"], r["parameters"])]
            if pc is None:
                skipped.append(f"{r['module']} {r['parameters']}")
                continue
            config, sets, figure = pc
            full = run_proxy(a.hifsim, a.tables, config, sets, a.trace, a.op, int(r["ops"]))
            parts = {c: run_proxy(a.hifsim, hot[c], config, sets, a.trace, a.op, int(r["ops"]))["energy_per_op_pj"][figure]
                     for c in CLASSES}
            total = full["energy_per_op_pj"][figure]
            if abs(sum(parts.values()) - total) > 1e-9 * max(total, 1):
                sys.exit(f"calibrate: {r['module']} {r['parameters']}: the class parts sum to {sum(parts.values())}, "
                         f"the proxy says {total}")
            ar = full["area"]
            ge = ar["pe_accumulator_ge"] if figure == "acc_add" else ar["pe_dot_unit_ge"] + ar["pe_pipeline_reg_ge"]
            data.append({"module": r["module"], "parameters": r["parameters"], "gate_logic": float(r["logic_pj"]),
                         "gate_ff": float(r["flop_data_pj"]), "gate_clock": float(r["clock_pj"]),
                         "gate": float(r["unit_pj"]), "parts": parts, "proxy": total, "dots": full["activity"]["dots"],
                         "ge": ge, "um2": area.get((r["module"], r["parameters"]))})
    if not data:
        sys.exit(f"calibrate: {a.energy}: no row of {tag} has a proxy model")
    P = lambda cs: np.array([[d["parts"][c] for c in cs] for d in data])  # noqa: E731
    G = np.array([[sum(d["parts"][c] for c in grp) for grp in LOGIC_GROUPS] for d in data])
    kg = nnls_rel(G, np.array([d["gate_logic"] for d in data]))
    k = {c: kg[i] for i, grp in enumerate(LOGIC_GROUPS) for c in grp}
    for c, g in (("e_ff_toggle", "gate_ff"), ("e_ff_clock", "gate_clock")):
        sel = [i for i, d in enumerate(data) if d["parts"][c] > 0 and d[g] > 0]
        k[c] = nnls_rel(P([c])[sel], np.array([data[i][g] for i in sel]))[0] if sel else float("nan")
    with_area = [d for d in data if d["um2"]]
    a_fit = nnls_rel(np.array([[d["ge"]] for d in with_area]), np.array([d["um2"] for d in with_area]))[0]
    tmp = a.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["module", "parameters", "gate_pj", "proxy_45nm_pj"] + [f"proxy_{c}" for c in CLASSES] +
                   ["proxy_dots", "gate_over_proxy", "fitted_pj", "residual_pct", "proxy_ge", "sky130_um2",
                    "fitted_um2", "area_residual_pct"])
        for d in data:
            fit = sum(0 if np.isnan(k[c]) else k[c] * d["parts"][c] for c in CLASSES)
            fa = a_fit * d["ge"]
            w.writerow([d["module"], d["parameters"], f"{d['gate']:.6g}", f"{d['proxy']:.6g}"] +
                       [f"{d['parts'][c]:.6g}" for c in CLASSES] +
                       [d["dots"], f"{d['gate'] / d['proxy']:.4g}", f"{fit:.6g}", f"{100 * (fit - d['gate']) / d['gate']:.2f}",
                        f"{d['ge']:.6g}", "" if d["um2"] is None else f"{d['um2']:.6g}", f"{fa:.6g}",
                        "" if d["um2"] is None else f"{100 * (fa - d['um2']) / d['um2']:.2f}"])
        for c in CLASSES:
            v = coefficient(a.tables, c)
            w.writerow([c, "factor", f"{k[c]:.6g}", f"{v:.6g}", f"{v * k[c]:.6g}"] + [""] * (len(CLASSES) + 8))
        w.writerow(["ge_area_um2", "um2 per proxy GE", f"{a_fit:.6g}"] + [""] * (len(CLASSES) + 10))
        for s in skipped:
            w.writerow([s.split()[0], s.split()[1] if " " in s else "", "no proxy model"] + [""] * (len(CLASSES) + 10))
    os.replace(tmp, a.out)
    print("calibrate: " + ", ".join(f"{c} x{k[c]:.3g}" for c in CLASSES) + f", {a_fit:.3g} um2/GE; wrote {a.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
