#!/usr/bin/env python3
"""Markdown tables of the committed sky130 results for docs/cost.md section 11.

  report_tables.py [--dir configs/cost/sky130] [--proxy compare.json] [--plot stages.png]

Prints: the per-unit table (area, cells, flops, critical path, fmax, energy per op where
measured), the pipeline-depth table (every unit's STAGES values side by side: fmax, area,
energy), the proxy-vs-gate-level calibration, and the HiF4/NVFP4/MXFP4/HiF8/BF16 ratios next to
the 45 nm proxy's (from `hifsim cost --compare-units` JSON) and the paper's. --plot draws the
pipeline-depth table as fmax against area, one line per unit, a point per STAGES value.
"""
import argparse
import csv
import json
import os
import sys

from ..params import UnitParams
from .stimulus import rtl_defaults  # the RTL parameter defaults of the unit catalog

from ..repo import ROOT  # noqa: E402


def fmt(x, d=3):
    return f"{x:,.{d}f}"


# The units whose STAGES sweep is tabled, with the parameters every point of the sweep shares: per
# unit, the synthesis sets of the unit catalog that share their other parameters with the most
# STAGES values.
# ---- BEGIN generated from the unit catalog (hifsim units --update python/hifsim_flows/pdk/report_tables.py)
STAGES_SWEEPS = [
    ("hif4_dot64", ""),
    ("nvfp4_dot64", ""),
    ("mxfp4_dot64", ""),
    ("mxfp8_dot32", "E5M2=0"),
    ("hif8_dot", "N=64;W=0"),
    ("bf16_dot64", "W=64;STICKY=1"),
    ("sparse_residual_add", ""),
    ("hif4_quantizer", ""),
    ("hadamard16", ""),
    ("sr_quantizer", ""),
    ("transpose_buffer", ""),
]
# ---- END generated from the unit catalog


def stages_sweep(units, energy):
    """{(module, shared params): {stages: (units row, energy row or None)}} of STAGES_SWEEPS."""
    out = {}
    for mod, shared in STAGES_SWEEPS:
        want = UnitParams.parse(shared)
        pts = {}
        for r in units:
            if r["module"] != mod:
                continue
            p = UnitParams.parse(r["parameters"], f"{mod} row")
            st = p.get("STAGES")
            if st is None:
                st = int(rtl_defaults(mod)["STAGES"])  # a row without STAGES: the RTL default
            if p.without("STAGES").as_dict() == want.as_dict():
                pts[st] = (r, energy.get((mod, r["parameters"])))
        if pts:
            out[(mod, shared)] = pts
    return out


def print_stages_table(sweep):
    n = 1 + max(st for pts in sweep.values() for st in pts)
    print("\n| unit | " + " | ".join(f"STAGES={k}" for k in range(n)) + " |")
    print("|---|" + "---|" * n)
    for (mod, shared), pts in sweep.items():
        cells = []
        for k in range(n):
            if k not in pts:
                cells.append("")
                continue
            r, e = pts[k]
            cells.append(f"{float(r['fmax_mhz']):.0f} ({float(r['fmax_ss_mhz']):.0f} ss) MHz, {fmt(float(r['area_um2']) / 1000, 1)}k µm²"
                         + (f", {float(e['unit_pj']):.1f} pJ" if e else ""))
        print(f"| {mod}{' ' + shared if shared else ''} | " + " | ".join(cells) + " |")


def plot_stages(sweep, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker  # noqa: F401
    fig, ax = plt.subplots(figsize=(8, 5.5), dpi=110)
    for (mod, shared), pts in sweep.items():
        ks = sorted(pts)
        xs = [float(pts[k][0]["area_um2"]) / 1000 for k in ks]
        ys = [float(pts[k][0]["fmax_mhz"]) for k in ks]
        line, = ax.plot(xs, ys, marker="o", label=f"{mod}{' ' + shared if shared else ''}")
        ax.plot(xs, [float(pts[k][0]["fmax_ss_mhz"]) for k in ks], marker=".", ls=":", color=line.get_color(), lw=0.8)
        for k, x, y in zip(ks, xs, ys):
            ax.annotate(str(k), (x, y), textcoords="offset points", xytext=(4, 3), fontsize=7, color=line.get_color())
    ax.set_xscale("log")
    ax.set_xticks([t for t in (50, 100, 200, 500, 1000) if t <= 1.5 * max(ax.get_xlim())])
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.set_xlabel("area at sky130 (thousand µm², log scale; no placement or wires)")
    ax.set_ylabel("fmax (MHz, OpenSTA; solid: tt 25 C 1.8 V, dotted: ss 100 C 1.6 V)")
    ax.set_title("Pipeline depth: fmax against area per unit (label = STAGES; SkyWater's published cells)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper center")
    fig.tight_layout()
    tmp = path + ".tmp.png"
    fig.savefig(tmp)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default=os.path.join(ROOT, "configs", "cost", "sky130"))
    ap.add_argument("--proxy", help="compare.json of hifsim cost --compare-units on the same op")
    ap.add_argument("--op", default="smollm2-135m/layer15.q_proj")
    ap.add_argument("--plot", help="write the fmax-against-area plot of the STAGES sweeps (PNG)")
    a = ap.parse_args(argv)
    units = list(csv.DictReader(open(os.path.join(a.dir, "units.csv"))))
    energy = {(r["module"], r["parameters"]): r for r in csv.DictReader(open(os.path.join(a.dir, "energy.csv")))
              if r["trace_op"] == a.op}
    print("| unit | parameters | area (µm²) | cells | flip-flops | critical path tt (ns) | fmax tt (MHz) | fmax ss (MHz) | path (tt) | "
          "energy per op at tt (pJ) | toggles per op |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in units:
        e = energy.get((r["module"], r["parameters"]))
        path = f"{r['startpoint']} → {r['endpoint']}"
        print(f"| {r['module']} | {r['parameters']} | {fmt(float(r['area_um2']), 0)} | {int(r['cells']):,} | {r['flip_flops']} | "
              f"{float(r['min_period_ns']):.3f} | {float(r['fmax_mhz']):.0f} | {float(r['fmax_ss_mhz']):.0f} | `{path}` | "
              f"{fmt(float(e['unit_pj'])) if e else '-'} | {fmt(float(e['toggles_per_op']), 0) if e else '-'} |")
    sweep = stages_sweep(units, energy)
    print_stages_table(sweep)
    if a.plot:
        plot_stages(sweep, a.plot)
    cal = os.path.join(a.dir, "calibration.csv")
    if os.path.isfile(cal):
        rows = list(csv.DictReader(open(cal)))
        print("\n| unit | parameters | gate-level (pJ) | proxy 45 nm (pJ) | gate / proxy | fitted (pJ) | residual | "
              "proxy area (GE) | sky130 area (µm²) | fitted area (µm²) | area residual |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            if r["parameters"] in ("factor", "um2 per proxy GE") or r["gate_pj"] == "no proxy model":
                continue
            print(f"| {r['module']} | {r['parameters']} | {fmt(float(r['gate_pj']))} | {fmt(float(r['proxy_45nm_pj']))} | "
                  f"{r['gate_over_proxy']} | {fmt(float(r['fitted_pj']))} | {float(r['residual_pct']):+.1f} % | "
                  f"{fmt(float(r['proxy_ge']), 0)} | {fmt(float(r['sky130_um2']), 0) if r['sky130_um2'] else '-'} | "
                  f"{fmt(float(r['fitted_um2']), 0)} | {(float(r['area_residual_pct']) if r['area_residual_pct'] else float('nan')):+.1f} % |")
        print("\n| coefficient | 45 nm value | factor | sky130 value |")
        print("|---|---|---|---|")
        for r in rows:
            if r["parameters"] == "factor":
                print(f"| {r['module']} | {r['proxy_45nm_pj']} | {r['gate_pj']} | {r['proxy_e_mul']} |")
            elif r["parameters"] == "um2 per proxy GE":
                print(f"| ge_area_um2 (µm² per proxy GE) | 0.798 | - | {r['gate_pj']} |")
        skipped = [f"{r['module']} {r['parameters']}" for r in rows if r["gate_pj"] == "no proxy model"]
        if skipped:
            print("\nNo proxy model (not in the fit): " + ", ".join(skipped))
    # The comparison of docs/cost.md section 8 at sky130: every unit combinational (STAGES=0). A
    # table without the combinational HiF8 / BF16 rows (their STAGES=0 synthesis does not finish,
    # scripts/synth.sh) takes the shallowest one (STAGES=1: the output register only, else the
    # default STAGES=3): then their area includes those flip-flops and their energy is the logic
    # part alone (energy.csv logic_pj), to stay comparable.
    base = {r["module"]: r for r in units if r["parameters"] == "STAGES=0"}
    wide = {}
    for m, choices in (("hif8_dot", ["N=64;W=0;STAGES=0", "N=64;W=0;STAGES=1", "N=64;W=82"]),
                       ("bf16_dot64", ["W=64;STICKY=1;STAGES=0", "W=64;STICKY=1;STAGES=1", "W=64;STICKY=1"])):
        for p in choices:
            row = [r for r in units if r["module"] == m and r["parameters"] == p]
            if row:
                base[m] = row[0]
                if "STAGES=0" not in p:
                    wide[m] = p
                break
    if all(m in base for m in ("hif4_dot64", "nvfp4_dot64")):
        px = {}
        if a.proxy:
            for u in json.load(open(a.proxy))["units"]:
                px[u["format"]] = u
        print("\n| unit | sky130 area (µm²) | area / NVFP4 | sky130 pJ per dot | energy / NVFP4 | 45 nm proxy area / NVFP4 | proxy incremental / NVFP4 | proxy energy / NVFP4 |")
        print("|---|---|---|---|---|---|---|---|")
        nv_a = float(base["nvfp4_dot64"]["area_um2"])
        nv_e = energy.get(("nvfp4_dot64", "STAGES=0"))
        for m, f in (("hif4_dot64", "hif4"), ("nvfp4_dot64", "nvfp4"), ("mxfp4_dot64", "mxfp4"), ("hif8_dot", "hif8"),
                     ("bf16_dot64", "bf16")):
            if m not in base:
                continue
            params = base[m]["parameters"]
            ar = float(base[m]["area_um2"])
            e = energy.get((m, params))
            pj = float(e["logic_pj"] if m in wide else e["unit_pj"]) if e else None
            er = f"{pj / float(nv_e['unit_pj']):.3f}" if e and nv_e else "-"
            p, pn = px.get(f), px.get("nvfp4")
            pa = f"{p['model_ge'] / pn['model_ge']:.3f}" if p and pn else "-"
            pi = f"{p['incremental_ge'] / pn['incremental_ge']:.3f}" if p and pn else "-"
            pe = f"{p['dot_pj'] / pn['dot_pj']:.3f}" if p and pn else "-"
            label = f"{m} {params}" + (f" ({base[m]['flip_flops']} flip-flops; logic energy)" if m in wide else "")
            print(f"| {label} | {fmt(ar, 0)} | {ar / nv_a:.3f} | {fmt(pj) if e else '-'} | {er} | {pa} | {pi} | {pe} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
