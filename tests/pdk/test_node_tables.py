"""`hifsim cost --node sky130`: the committed node tables (configs/cost/energy-sky130.yaml,
sram-sky130.yaml) are what scripts/pdk/node_tables.py makes of the committed calibration, and
hifsim applies them as the calibration assumes: on a real trace op (stories260k layer0.q_proj),
the sky130 dot energy equals the 45 nm proxy's per-class parts times the per-class sky130/45 nm
ratios, the logic area is its GE times the fitted um2 per GE, and the SRAM area comes from the
sky130 SRAM table (its rows are the 45 nm ones times (130/45)^2). The PE's dot unit is quoted at
sky130 from the committed synthesis row of its exact RTL instance (area, cells, critical path,
fmax, gate-level pJ/op; a clock above fmax is flagged), not quoted for an instance without a row,
not at all at 45 nm, and a malformed units.csv stops hifsim with the file, line and column."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

from pdk_test_common import ROOT, check, finish, run, step

HIFSIM = sys.argv[2]
TABLES = os.path.join(ROOT, "configs", "cost")
CONFIG = os.path.join(ROOT, "configs", "units", "hif4-32x32.yaml")
TRACE, OP = os.path.join(ROOT, "traces", "stories260k"), "layer0.q_proj"

subprocess.run(["bash", os.path.join(ROOT, "scripts", "capture", "ensure_traces.sh"), "--only", "stories260k"],
               check=True, capture_output=True)
rc, _, err = run([*step("node_tables"), "--check"])
check(rc == 0, f"committed node tables equal node_tables.py's output: {err.strip()}")

from hifsim_flows.pdk import calibrate  # noqa: E402

sets = ["pe.pipeline_depth=2"]  # one register rank: every energy class has a part
e45 = yaml.safe_load(open(os.path.join(TABLES, "energy-45nm.yaml")))
e130 = yaml.safe_load(open(os.path.join(TABLES, "energy-sky130.yaml")))
with tempfile.TemporaryDirectory() as d:
    p = subprocess.run([HIFSIM, "cost", "--node", "sky130", "--config", CONFIG, "--set", ",".join(sets), "--trace", TRACE,
                        "--ops", OP, "--sample", "64", "--out", d, "--quiet"], capture_output=True, text=True)
    check(p.returncode == 0, f"hifsim cost --node sky130: {p.stderr.strip()}")
    sky = json.load(open(os.path.join(d, "cost.json")))["cost"] if p.returncode == 0 else None
with tempfile.TemporaryDirectory() as work:
    hot = calibrate.one_hot_tables(TABLES, work)
    parts = {c: calibrate.run_proxy(HIFSIM, hot[c], CONFIG, sets, TRACE, OP, 64)["energy_per_op_pj"]
             for c in calibrate.CLASSES}
    base = calibrate.run_proxy(HIFSIM, TABLES, CONFIG, sets, TRACE, OP, 64)
check(all(parts[c]["dot"] > 0 for c in calibrate.CLASSES if c != "e_fpadd") and parts["e_fpadd"]["acc_add"] > 0,
      f"every class has a part on this op (the FP adder in the accumulator): {parts}")
for fig in ("dot", "acc_add"):
    if sky:
        want = sum(parts[c][fig] * e130[c]["value"] / e45[c]["value"] for c in calibrate.CLASSES)
        got = sky["energy_per_op_pj"][fig]
        check(abs(got - want) <= 1e-9 * want, f"sky130 {fig} energy {got} = sum of the class parts x ratios {want}")
    a = sky["area"]
    check(abs(a["logic_mm2"] - a["logic_ge"] * e130["ge_area_um2"]["value"] * 1e-6) <= 1e-9 * a["logic_mm2"],
          f"logic area {a['logic_mm2']} mm2 = {a['logic_ge']} GE x {e130['ge_area_um2']['value']} um2")
    ratio = a["sram_mm2"] / base["area"]["sram_mm2"]
    check(abs(ratio - (130 / 45) ** 2) <= 1e-5 * ratio, f"SRAM area from sram-sky130.yaml: x{ratio:.6g} of 45 nm")

# ---- The PE's dot unit at sky130: the committed row of its RTL instance ----
rows = {(r["module"], r["parameters"]): r for r in csv.DictReader(open(os.path.join(TABLES, "sky130", "units.csv")))}
energy = [r for r in csv.DictReader(open(os.path.join(TABLES, "sky130", "energy.csv")))]


def cost_json(node, config, sets=(), tables=TABLES):
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([HIFSIM, "cost", "--node", node, "--tables", tables, "--config", config, "--gemm", "64,64,256",
                            "--out", d, "--quiet"] + (["--set", ",".join(sets)] if sets else []), capture_output=True, text=True)
        return (json.load(open(os.path.join(d, "cost.json")))["cost"] if p.returncode == 0 else None), p.stderr


for fmt_name, module, stages in (("hif4", "hif4_dot64", 3), ("nvfp4", "nvfp4_dot64", 3), ("hif4", "hif4_dot64", 0)):
    cfg = os.path.join(ROOT, "configs", "units", f"{fmt_name}-32x32.yaml")
    for clock in ("1.0", "0.1"):
        c, err = cost_json("sky130", cfg, [f"pe.pipeline_depth={stages + 1}", f"clock_ghz={clock}"])
        check(c is not None, f"hifsim cost --node sky130 {fmt_name} STAGES={stages}: {err.strip()}")
        if c is None:
            continue
        n, want = c["node_dot_unit"], rows[(module, f"STAGES={stages}")]
        check(n["module"] == module and n["parameters"] == f"STAGES={stages}" and n["synthesised"], f"instance named: {n}")
        for k in ("area_um2", "min_period_ns", "fmax_mhz", "min_period_ss_ns", "fmax_ss_mhz", "cells", "flip_flops"):
            check(abs(n[k] - float(want[k])) <= 1e-9 * float(want[k]), f"{module} STAGES={stages} {k}: {n[k]} = units.csv {want[k]}")
        gl = max((r for r in energy if r["module"] == module and r["parameters"] == f"STAGES={stages}"), key=lambda r: int(r["ops"]))
        check(n["gate_level_pj_per_op"] == float(gl["unit_pj"]) and n["gate_level_trace_op"] == gl["trace_op"],
              f"{module} STAGES={stages} gate-level pJ/op {n['gate_level_pj_per_op']} = energy.csv {gl['unit_pj']} ({gl['trace_op']})")
        # The sign-off (ss) fmax decides; the note names tt as well when the clock is above both.
        over = [x for x in c["notes"] if "exceeds the sky130 sign-off fmax" in x]
        check(len(over) == (1 if float(clock) * 1e3 > float(want["fmax_ss_mhz"]) else 0),
              f"clock {clock} GHz vs ss fmax {want['fmax_ss_mhz']} MHz flagged once iff above: {over}")
        check(all(("at tt" in x) == (float(clock) * 1e3 > float(want["fmax_mhz"])) for x in over),
              f"clock {clock} GHz vs tt fmax {want['fmax_mhz']} MHz named iff above: {over}")
# The default HiF8 and BF16 configs (pe.pipeline_depth 5: their dot units at STAGES=4) are quoted
# from the rows of exactly those instances.
for fmt_name, module, params in (("hif8", "hif8_dot", "N=64;W=0;STAGES=4"), ("bf16", "bf16_dot64", "W=64;STICKY=1;STAGES=4")):
    c, err = cost_json("sky130", os.path.join(ROOT, "configs", "units", f"{fmt_name}-32x32.yaml"))
    want = rows.get((module, params))
    n = c["node_dot_unit"] if c else None
    check(want is not None and n is not None and n["module"] == module and n["synthesised"],
          f"default {fmt_name} config quoted from the {module} {params} row: {n} {err}")
    if want and n and n["synthesised"]:
        for k in ("area_um2", "fmax_mhz", "flip_flops"):
            check(abs(n[k] - float(want[k])) <= 1e-9 * float(want[k]), f"{module} {params} {k}: {n[k]} = units.csv {want[k]}")
# An instance without a synthesis row (bf16_dot64 with a 48-bit window) is named and not quoted.
c, err = cost_json("sky130", os.path.join(ROOT, "configs", "units", "bf16-32x32.yaml"), ["pe.align_width=48"])
check(c is not None and c["node_dot_unit"]["module"] == "bf16_dot64" and "W=48" in c["node_dot_unit"]["parameters"] and
      not [k for k in rows if k[0] == "bf16_dot64" and "W=48" in k[1]] and c["node_dot_unit"]["synthesised"] is False
      and "area_um2" not in c["node_dot_unit"], f"bf16 W=48 not synthesised: {c and c['node_dot_unit']} {err}")
c, err = cost_json("45nm", CONFIG)
check(c is not None and c["node_dot_unit"] is None, f"45 nm has no synthesised units: {c and c['node_dot_unit']} {err}")
# A malformed units.csv: one line, naming the file, the line and the column; nothing written.
with tempfile.TemporaryDirectory() as t:
    bad = os.path.join(t, "cost")
    shutil.copytree(TABLES, bad)
    text = open(os.path.join(bad, "sky130", "units.csv")).read().splitlines()
    text[2] = text[2].replace(text[2].split(",")[6], "fast", 1)  # line 3's fmax_mhz
    open(os.path.join(bad, "sky130", "units.csv"), "w").write("\n".join(text) + "\n")
    c, err = cost_json("sky130", CONFIG, tables=bad)
    check(c is None and "units.csv" in err and "line 3 fmax_mhz" in err and len(err.strip().splitlines()) == 1,
          f"malformed units.csv rejected with file, line, column: {err.strip()}")
finish()
