"""Synthesise and time one small unit on the flow's node data (SkyWater's published cells, mapped at
tt and timed at tt and ss; Yosys + ABC + OpenSTA) through
synth_all.py --only, writing into a copy of the committed configs/cost/sky130/units.csv: the copy
must come back byte-identical (the flow is deterministic, and a subset run replaces only its own
row: every other unit's row stays), and the unit's result equals its committed row (area, cell
and flop counts exactly, the minimum period to 1 ps). Then the timing step on two hand-written
netlists: Yosys's concatenated assign of register bits (which OpenSTA cannot parse) is timed
through, and a netlist OpenSTA rejects stops the run."""
import csv
import json
import os
import shutil
import sys
import tempfile

from pdk_test_common import COMMITTED, LIB, NODE_LIB, check, finish, run, step

MODULE, PARAMS, TAG = "fp32_acc", "MANT_BITS=7;ROUND_RZ=1", "fp32_acc_MANT_BITS_7_ROUND_RZ_1"

committed_csv = os.path.join(COMMITTED, "units.csv")
rows = list(csv.DictReader(open(committed_csv)))
ref = [r for r in rows if r["module"] == MODULE and r["parameters"] == PARAMS]
check(len(ref) == 1, f"one committed row for {MODULE} {PARAMS}")
with tempfile.TemporaryDirectory() as work:
    table = os.path.join(work, "units.csv")
    shutil.copyfile(committed_csv, table)
    rc, out, err = run([*step("synth_all"), "--lib", NODE_LIB, "--work", work,
                        "--out", table, "--only", f"^{MODULE} {PARAMS}$"])
    check(rc == 0, f"synth_all exit {rc}: {err[-1500:]}")
    check("1 from this run" in err, f"exactly one unit synthesised: {err[-300:]}")
    check(open(table).read() == open(committed_csv).read(),
          f"--only on one unit leaves the committed table byte-identical ({len(rows)} rows): "
          f"{sum(1 for _ in open(table)) - 1} rows written")
    res_path = os.path.join(work, TAG, "result.json")
    if rc == 0 and ref and os.path.isfile(res_path):
        res = json.load(open(res_path))
        r = ref[0]
        check(abs(res["area_um2"] - float(r["area_um2"])) < 1e-3, f"area {res['area_um2']} vs {r['area_um2']}")
        check(res["cells"] == int(r["cells"]), f"cells {res['cells']} vs {r['cells']}")
        check(res["flip_flops"] == int(r["flip_flops"]), f"flops {res['flip_flops']} vs {r['flip_flops']}")
        check(abs(res["min_period_ns"] - float(r["min_period_ns"])) < 1e-3,
              f"min period {res['min_period_ns']} vs {r['min_period_ns']}")
        check(res["endpoint"] == r["endpoint"], f"critical endpoint {res['endpoint']} vs {r['endpoint']}")
        # The same netlist at the sign-off corner (the published ss_100C_1v60 cells).
        check(abs(res["min_period_ss_ns"] - float(r["min_period_ss_ns"])) < 1e-3,
              f"ss min period {res['min_period_ss_ns']} vs {r['min_period_ss_ns']}")
        check(res["min_period_ss_ns"] > res["min_period_ns"], "the slow corner is slower")
        check(os.path.isfile(os.path.join(work, TAG, "sta_ss.rpt")), "the sign-off timing report is written")
        # The timer saw the real cells: the critical path passes through mapped sky130 cells.
        rpt = open(os.path.join(work, TAG, "sta.rpt")).read()
        check("sky130_fd_sc_hd__" in rpt, "the STA report names sky130 cells on the critical path")
    else:
        check(False, f"{res_path} written")
    # A table that is not this flow's is not overwritten.
    open(table, "w").write("module,area\nx,1\n")
    rc, out, err = run([*step("synth_all"), "--lib", NODE_LIB, "--work", work,
                        "--out", table, "--only", f"^{MODULE} {PARAMS}$"])
    check(rc != 0 and "not a units table of this flow" in err and open(table).read() == "module,area\nx,1\n",
          f"foreign --out kept and rejected: rc {rc}, {err[-300:]}")
    # A committed table with a truncated row, and a --out that is a symlink: refused before any
    # synthesis, nothing replaced.
    lines = open(committed_csv).read().splitlines()
    truncated = "\n".join(lines[:3] + [lines[3].rsplit(",", 2)[0]] + lines[4:]) + "\n"
    open(table, "w").write(truncated)
    rc, out, err = run([*step("synth_all"), "--lib", NODE_LIB, "--work", work,
                        "--out", table, "--only", f"^{MODULE} {PARAMS}$"])
    check(rc != 0 and "line 4: 11 fields expected" in err and open(table).read() == truncated,
          f"truncated row rejected with its line, table kept: rc {rc}, {err[-300:]}")
    link = os.path.join(work, "link.csv")
    os.symlink(committed_csv, link)
    rc, out, err = run([*step("synth_all"), "--lib", NODE_LIB, "--work", work,
                        "--out", link, "--only", f"^{MODULE} {PARAMS}$"])
    check(rc != 0 and "not a regular file" in err and os.path.islink(link),
          f"symlinked --out refused and left as it was: rc {rc}, {err[-300:]}")

# The timing step alone. `assign { \r.q [1], \r.q [0] } = { a, a };` as Yosys writes merged
# register bits: OpenSTA 2.0.17 reports a syntax error on it; synth_unit splits it into one-bit
# assigns, so the path a -> f0 is timed.
from hifsim_flows.pdk import synth_unit  # noqa: E402
from hifsim_flows.pdk.flow_error import FlowError  # noqa: E402

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
