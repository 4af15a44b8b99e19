"""`hifsim cost --node sky130`: the committed node tables (configs/cost/energy-sky130.yaml,
sram-sky130.yaml) are what scripts/pdk/node_tables.py makes of the committed calibration, and
hifsim applies them as the calibration assumes: on a real trace op (stories260k layer0.q_proj),
the sky130 dot energy equals the 45 nm proxy's per-class parts times the per-class sky130/45 nm
ratios, the logic area is its GE times the fitted um2 per GE, and the SRAM area comes from the
sky130 SRAM table (its rows are the 45 nm ones times (130/45)^2)."""
import json
import os
import subprocess
import sys
import tempfile

import yaml

from pdk_test_common import PDK_SCRIPTS, ROOT, check, finish, run

HIFSIM = sys.argv[2]
TABLES = os.path.join(ROOT, "configs", "cost")
CONFIG = os.path.join(ROOT, "configs", "units", "hif4-32x32.yaml")
TRACE, OP = os.path.join(ROOT, "traces", "stories260k"), "layer0.q_proj"

subprocess.run(["bash", os.path.join(ROOT, "scripts", "capture", "ensure_traces.sh"), "--only", "stories260k"],
               check=True, capture_output=True)
rc, _, err = run([sys.executable, os.path.join(PDK_SCRIPTS, "node_tables.py"), "--check"])
check(rc == 0, f"committed node tables equal node_tables.py's output: {err.strip()}")

import calibrate  # noqa: E402

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
finish()
