"""Gate-level energy of hif4_dot64 (STAGES=1: logic and a register rank) on real trace operands
(stories260k layer0.q_proj, the trace CI produces): every result bit-exact against the
independent reference, and the energy row equal to the committed CI row of
configs/cost/sky130/energy.csv. Then a one-cell mutation of the netlist must be caught."""
import csv
import os
import re
import subprocess
import sys
import tempfile

from pdk_test_common import COMMITTED, LIB, PDK_SCRIPTS, ROOT, check, finish, run

HIFSIM = sys.argv[2]
MODULE, PARAMS, OP, OPS = "hif4_dot64", "STAGES=1", "layer0.q_proj", 256
TRACE = os.path.join(ROOT, "traces", "stories260k")

subprocess.run(["bash", os.path.join(ROOT, "scripts", "capture", "ensure_traces.sh"), "--only", "stories260k"],
               check=True, capture_output=True)
ref = [r for r in csv.DictReader(open(os.path.join(COMMITTED, "energy.csv")))
       if r["module"] == MODULE and r["parameters"] == PARAMS and r["trace_op"] == "stories260k/" + OP]
check(len(ref) == 1, "one committed CI row")
with tempfile.TemporaryDirectory() as work:
    synth = os.path.join(work, "synth")
    rc, out, err = run([sys.executable, os.path.join(PDK_SCRIPTS, "synth_all.py"), "--lib", LIB, "--work", synth,
                        "--out", os.path.join(work, "units.csv"), "--only", f"^{MODULE} {PARAMS}$"])
    check(rc == 0, f"synth_all exit {rc}: {err[-1500:]}")
    csv_out = os.path.join(work, "energy.csv")
    cmd = [sys.executable, os.path.join(PDK_SCRIPTS, "gate_energy.py"), "--lib", LIB, "--synth", synth,
           "--trace", TRACE, "--op", OP, "--hifsim", HIFSIM, "--out", csv_out, "--ops", str(OPS)]
    rc, out, err = run(cmd)
    check(rc == 0, f"gate_energy exit {rc}: {err[-1500:]}")
    check("bit-exact" in err, "results were checked bit for bit")
    if rc == 0 and ref:
        got = [r for r in csv.DictReader(open(csv_out)) if r["parameters"] == PARAMS][0]
        for k in ("ops", "toggles_per_op", "logic_pj", "flop_data_pj", "clock_pj", "input_nets_pj", "unit_pj"):
            a, b = float(got[k]), float(ref[0][k])
            check(abs(a - b) <= 1e-5 * max(abs(b), 1e-9), f"{k}: {a} vs committed {b}")
    # Mutation: the cell driving an FP32 exponent bit of the result becomes its dual (NAND2 <->
    # NOR2, XOR2 <-> XNOR2, ...: same pins, different function); the check must stop the flow.
    net = [os.path.join(synth, d, "netlist.v") for d in sorted(os.listdir(synth)) if not d.startswith(".")][0]
    text = open(net).read()
    dual = {"nand2_1": "nor2_1", "nor2_1": "nand2_1", "xor2_1": "xnor2_1", "xnor2_1": "xor2_1",
            "and2_1": "or2_1", "or2_1": "and2_1", "a21oi_1": "o21ai_1", "o21ai_1": "a21oi_1",
            "nand3_1": "nor3_1", "nor3_1": "nand3_1"}
    mutated = text
    for bit in range(23, 31):
        m = re.search(r"sky130_fd_sc_hd__(\w+) (\S+) \(([^;]*?)\.[XY]\(out\[%d\]\)" % bit, text)
        if m and m.group(1) in dual:
            mutated = text[:m.start()] + "sky130_fd_sc_hd__" + dual[m.group(1)] + text[m.start() + len("sky130_fd_sc_hd__" + m.group(1)):]
            break
    check(mutated != text, "found a cell driving an exponent bit of out to mutate")
    open(net, "w").write(mutated)
    os.remove(csv_out)
    rc, out, err = run(cmd)
    check(rc == 1 and "the reference says" in err and not os.path.exists(csv_out),
          f"mutated netlist rejected, no table written: rc {rc}, {err[-500:]}")
finish()
