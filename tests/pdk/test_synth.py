"""Synthesise and time one small unit on the committed Liberty (Yosys + ABC + OpenSTA) and
compare with its row of the committed configs/cost/sky130/units.csv: area, cell and flop
counts exactly (the flow is deterministic), the minimum period to 1 ps. Then the timing step on
two hand-written netlists: Yosys's concatenated assign of register bits (which OpenSTA cannot
parse) is timed through, and a netlist OpenSTA rejects stops the run."""
import csv
import json
import os
import subprocess
import sys
import tempfile

from pdk_test_common import COMMITTED, LIB, PDK_SCRIPTS, ROOT, check, finish, run

MODULE, PARAMS = "fp32_acc", "MANT_BITS=7;ROUND_RZ=1"

rows = list(csv.DictReader(open(os.path.join(COMMITTED, "units.csv"))))
ref = [r for r in rows if r["module"] == MODULE and r["parameters"] == PARAMS]
check(len(ref) == 1, f"one committed row for {MODULE} {PARAMS}")
srcs = [l.split("|")[1] for l in subprocess.run(["bash", os.path.join(ROOT, "scripts", "synth.sh"), "--list-sources"],
                                                capture_output=True, text=True).stdout.splitlines()
        if l.startswith(MODULE + "|") and l.endswith("|" + PARAMS)]
check(len(srcs) == 1, "scripts/synth.sh lists the unit")
with tempfile.TemporaryDirectory() as work:
    rc, out, err = run([sys.executable, os.path.join(PDK_SCRIPTS, "synth_unit.py"), "--lib", LIB, "--module", MODULE,
                        "--sources", srcs[0] if srcs else "", "--params", PARAMS, "--out", work])
    check(rc == 0, f"synth_unit exit {rc}: {err[-1500:]}")
    if rc == 0 and ref:
        res = json.load(open(os.path.join(work, "result.json")))
        r = ref[0]
        check(abs(res["area_um2"] - float(r["area_um2"])) < 1e-3, f"area {res['area_um2']} vs {r['area_um2']}")
        check(res["cells"] == int(r["cells"]), f"cells {res['cells']} vs {r['cells']}")
        check(res["flip_flops"] == int(r["flip_flops"]), f"flops {res['flip_flops']} vs {r['flip_flops']}")
        check(abs(res["min_period_ns"] - float(r["min_period_ns"])) < 1e-3,
              f"min period {res['min_period_ns']} vs {r['min_period_ns']}")
        check(res["endpoint"] == r["endpoint"], f"critical endpoint {res['endpoint']} vs {r['endpoint']}")
        # The timer saw the real cells: the critical path passes through mapped sky130 cells.
        rpt = open(os.path.join(work, "sta.rpt")).read()
        check("sky130_fd_sc_hd__" in rpt, "the STA report names sky130 cells on the critical path")

# The timing step alone. `assign { \r.q [1], \r.q [0] } = { a, a };` as Yosys writes merged
# register bits: OpenSTA 2.0.17 reports a syntax error on it; synth_unit splits it into one-bit
# assigns, so the path a -> f0 is timed.
import synth_unit  # noqa: E402
from flow_error import FlowError  # noqa: E402

TINY = """module t(clk, a, y);
  input clk;
  input a;
  output y;
  wire [1:0] \\r.q ;
  sky130_fd_sc_hd__dfxtp_1 f0 (
    .CLK(clk),
    .D(\\r.q [0]),
    .Q(y)
  );
  assign { \\r.q [1], \\r.q [0] } = { a, a };
endmodule
"""
with tempfile.TemporaryDirectory() as work:
    net = os.path.join(work, "netlist.v")
    open(net, "w").write(TINY)
    clkq, setup, dcap = synth_unit.flop_figures(LIB)
    try:
        t = synth_unit.sta(LIB, "t", net, work, clkq, setup, dcap)
        check(t["endpoint"] == "f0" and t["startpoint"] == "a", f"concatenated assign timed through: {t}")
    except FlowError as e:
        check(False, f"concatenated assign: {e}")
    open(net, "w").write(TINY.replace("  assign {", "  not verilog ;\n  assign {"))
    try:
        synth_unit.sta(LIB, "t", net, work, clkq, setup, dcap)
        check(False, "a netlist OpenSTA rejects must stop the run")
    except FlowError as e:
        check("sta.log" in str(e) and "syntax error" in str(e), f"rejected netlist: {e}")
finish()
