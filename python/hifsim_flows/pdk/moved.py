"""Every number of the sky130 tables that moved between two versions of configs/cost/ (docs/results).

  python -m hifsim_flows.pdk.moved --before DIR --after DIR [--trace-op smollm2-135m/layer15.q_proj]

DIR is a configs/cost folder (its sky130/units.csv, sky130/energy.csv, sky130/calibration.csv and
energy-sky130.yaml). Prints Markdown: per unit and parameter set the area, the fmax (tt; ss where
the after table has it) and the gate-level energy per operation on the trace op, before -> after
with the ratio; then the calibration factors and the node table's coefficients; then the
geometric mean of each ratio and the HiF4 / NVFP4 ratios the comparison report rests on. A row
only one side has is listed as new or gone.
"""
import argparse
import csv
import math
import os
import sys

import yaml


NEED = {"units.csv": ("module", "parameters", "area_um2", "fmax_mhz"),
        "energy.csv": ("module", "parameters", "trace_op", "unit_pj"),
        "calibration.csv": ("module", "parameters", "gate_pj")}


def _read(path):
    """the rows of one of the flow's tables; a missing file or column stops with its name."""
    if not os.path.isfile(path):
        sys.exit(f"moved: {path}: no such file")
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        missing = [c for c in NEED[os.path.basename(path)] if c not in (r.fieldnames or [])]
        if missing:
            sys.exit(f"moved: {path}: no column {', '.join(missing)}")
        return [dict(row, _where=f"{path}: line {r.line_num}") for row in r]


def _num(row, col):
    """the row's number in col; None when the row or the field is absent (a new or a gone row,
    a column only one version has). A field that is there must be a finite number: a NaN or an
    Inf would make a ratio that looks like anything."""
    x = (row or {}).get(col)
    if x is None or x == "":
        return None
    try:
        v = float(x)
    except ValueError:
        sys.exit(f"moved: {row['_where']} {col}: {x!r} is not a number")
    if not math.isfinite(v):
        sys.exit(f"moved: {row['_where']} {col}: {x!r} is not a finite number")
    return v


def _pair(a, b, fmt):
    if a is None and b is None:
        return "–", None
    if a is None:
        return f"new: {fmt(b)}", None
    if b is None:
        return f"{fmt(a)} → gone", None
    r = b / a if a else None
    return f"{fmt(a)} → {fmt(b)}" + (f" ({r:.2f}×)" if r is not None else ""), r


def _gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _yaml(path):
    if not os.path.isfile(path):
        sys.exit(f"moved: {path}: no such file")
    try:
        with open(path) as f:
            doc = yaml.safe_load(f)
    except yaml.YAMLError as e:
        sys.exit(f"moved: {path}: not YAML: {str(e).splitlines()[0]}")
    if not isinstance(doc, dict):
        sys.exit(f"moved: {path}: not a mapping of coefficients")
    return doc


def _yaml_num(doc, key, side):
    v = (doc.get(key) or {}).get("value") if isinstance(doc.get(key), dict) else None
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        sys.exit(f"moved: energy-sky130.yaml ({side}) {key}: {v!r} is not a finite number")
    return float(v)


def report(before, after, trace_op):
    ub = {(r["module"], r["parameters"]): r for r in _read(os.path.join(before, "sky130", "units.csv"))}
    ua = {(r["module"], r["parameters"]): r for r in _read(os.path.join(after, "sky130", "units.csv"))}
    eb = {(r["module"], r["parameters"]): r for r in _read(os.path.join(before, "sky130", "energy.csv")) if r["trace_op"] == trace_op}
    ea = {(r["module"], r["parameters"]): r for r in _read(os.path.join(after, "sky130", "energy.csv")) if r["trace_op"] == trace_op}
    keys = list(ua) + [k for k in ub if k not in ua]
    out = [f"| unit | parameters | area (µm²) | fmax tt (MHz) | fmax ss (MHz) | pJ per op ({trace_op}) |",
           "|---|---|---|---|---|---|"]
    ratios = {"area": [], "fmax": [], "pj": [], "ss_over_tt": []}
    for k in keys:
        b, a = ub.get(k, {}), ua.get(k, {})
        area, ra = _pair(_num(b, "area_um2"), _num(a, "area_um2"), lambda v: f"{v:,.0f}")
        fmax, rf = _pair(_num(b, "fmax_mhz"), _num(a, "fmax_mhz"), lambda v: f"{v:.1f}")
        ss = _num(a, "fmax_ss_mhz")
        pj, rp = _pair(_num(eb.get(k), "unit_pj"), _num(ea.get(k), "unit_pj"), lambda v: f"{v:.3f}")
        for name, r in (("area", ra), ("fmax", rf), ("pj", rp)):
            if r:
                ratios[name].append(r)
        if ss and _num(a, "fmax_mhz"):
            ratios["ss_over_tt"].append(ss / _num(a, "fmax_mhz"))
        out.append(f"| {k[0]} | {k[1]} | {area} | {fmax} | {'–' if ss is None else f'{ss:.1f}'} | {pj} |")
    out.append("")
    cb = {r["module"]: r for r in _read(os.path.join(before, "sky130", "calibration.csv")) if r["parameters"] in ("factor", "um2 per proxy GE")}
    ca = {r["module"]: r for r in _read(os.path.join(after, "sky130", "calibration.csv")) if r["parameters"] in ("factor", "um2 per proxy GE")}
    yb, ya = _yaml(os.path.join(before, "energy-sky130.yaml")), _yaml(os.path.join(after, "energy-sky130.yaml"))
    out += ["| calibration (calibration.csv) | before | after |", "|---|---|---|"]
    for m in list(ca) + [m for m in cb if m not in ca]:
        s, _ = _pair(_num(cb.get(m), "gate_pj"), _num(ca.get(m), "gate_pj"), lambda v: f"{v:.4g}")
        out.append(f"| {m} ({(ca.get(m) or cb.get(m))['parameters']}) | {s} |".replace(" → ", " | ", 1))
    out += ["", "| energy-sky130.yaml | before | after |", "|---|---|---|"]
    for k in ya:
        if isinstance(ya[k], dict) and "value" in ya[k]:
            s, _ = _pair(_yaml_num(yb, k, "before"), _yaml_num(ya, k, "after"), lambda v: f"{v:.6g}")
            out.append(f"| {k} ({ya[k].get('unit', '')}) | {s} |".replace(" → ", " | ", 1))
    def gm(v, unit):  # no rows: a dash, not a number
        g = _gmean(v)
        return ("–" if g is None else f"{g:.3f}{unit}") + f" ({len(v)} rows)"
    out += ["", "Geometric means over the rows both tables have: " + ", ".join(
        f"{n} {gm(v, '×')}" for n, v in
        (("area", ratios["area"]), ("fmax at tt", ratios["fmax"]), ("pJ per op", ratios["pj"]))) +
        f"; fmax ss / tt {gm(ratios['ss_over_tt'], '')}."]
    # The ratios the format comparison quotes: HiF4 against NVFP4 at the same STAGES.
    lines = []
    for st in range(6):
        h, n = ("hif4_dot64", f"STAGES={st}"), ("nvfp4_dot64", f"STAGES={st}")
        if h in eb and n in eb and h in ea and n in ea:
            before_r = _num(eb[h], "unit_pj") / _num(eb[n], "unit_pj")
            after_r = _num(ea[h], "unit_pj") / _num(ea[n], "unit_pj")
            lines.append(f"STAGES={st} {before_r:.3f} → {after_r:.3f}")
    if lines:
        out.append("HiF4 / NVFP4 gate-level energy per dot operation: " + "; ".join(lines) + ".")
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="configs/cost folder before")
    ap.add_argument("--after", required=True, help="configs/cost folder after")
    ap.add_argument("--trace-op", default="smollm2-135m/layer15.q_proj")
    a = ap.parse_args(argv)
    print(report(a.before, a.after, a.trace_op))
    return 0


if __name__ == "__main__":
    sys.exit(main())
