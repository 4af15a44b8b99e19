"""Gate-level energy on real trace operands (stories260k layer0.q_proj, the trace CI produces) of
hif4_dot64 STAGES=1 (a dot unit: logic and a register rank) and fp32_acc MANT_BITS=7 RZ (the
accumulator: its own port layout, a chain of dependent additions, the register checked one cycle
later): every result bit-exact against the independent reference, and each energy row equal to
its committed CI row of configs/cost/sky130/energy.csv. Then a one-cell mutation of the HiF4
netlist must be caught."""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

from pdk_test_common import COMMITTED, NODE_LIB, ROOT, check, finish, run, step

HIFSIM = sys.argv[2]
UNITS = [("hif4_dot64", "STAGES=1"), ("fp32_acc", "MANT_BITS=7;ROUND_RZ=1")]
OP, OPS = "layer0.q_proj", 256
TRACE = os.path.join(ROOT, "traces", "stories260k")

subprocess.run(["bash", os.path.join(ROOT, "scripts", "capture", "ensure_traces.sh"), "--only", "stories260k"],
               check=True, capture_output=True)
committed = list(csv.DictReader(open(os.path.join(COMMITTED, "energy.csv"))))
ref = {u: [r for r in committed if (r["module"], r["parameters"]) == u and r["trace_op"] == "stories260k/" + OP]
       for u in UNITS}
for u in UNITS:
    check(len(ref[u]) == 1, f"one committed CI row for {u[0]} {u[1]}")
with tempfile.TemporaryDirectory() as work:
    synth = os.path.join(work, "synth")
    rc, out, err = run([*step("synth_all"), "--lib", NODE_LIB, "--work", synth,
                        "--out", os.path.join(work, "units.csv"), "--only",
                        "^(" + "|".join(f"{m} {p}" for m, p in UNITS) + ")$"])
    check(rc == 0, f"synth_all exit {rc}: {err[-1500:]}")
    # Into a copy of the committed table, as regenerate.sh --only does: the two CI rows are
    # replaced in place, every other row stays as it was.
    csv_out = os.path.join(work, "energy.csv")
    shutil.copyfile(os.path.join(COMMITTED, "energy.csv"), csv_out)
    cmd = [*step("gate_energy"), "--lib", NODE_LIB, "--synth", synth,
           "--trace", TRACE, "--op", OP, "--hifsim", HIFSIM, "--out", csv_out, "--ops", str(OPS), "--append",
           "--only", "^(" + "|".join(f"{m} {p}" for m, p in UNITS) + ")$"]
    rc, out, err = run(cmd)
    check(rc == 0, f"gate_energy exit {rc}: {err[-1500:]}")
    check("255 results bit-exact (accumulations" in err and "255 results bit-exact (hif4" in err,
          f"every result was checked bit for bit: {err[-800:]}")
    if rc == 0:
        rows = list(csv.DictReader(open(csv_out)))
        key = lambda r: (r["module"], r["parameters"], r["trace_op"])  # noqa: E731
        check([key(r) for r in rows] == [key(r) for r in committed], "--append kept every row, in its place")
        ci = [r for r in rows if (r["module"], r["parameters"]) in UNITS and r["trace_op"] == "stories260k/" + OP]
        check(len(ci) == len(UNITS), f"the {len(UNITS)} CI rows written once each")
        check([r for r in rows if r not in ci] == [r for r in committed if key(r) not in {key(c) for c in ci}],
              "every other unit's row unchanged")
        for u in UNITS:
            got = [r for r in ci if (r["module"], r["parameters"]) == u]
            check(len(got) == 1 and len(ref[u]) == 1, f"{u[0]} {u[1]}: one row written and one committed")
            for k in ("ops", "toggles_per_op", "logic_pj", "flop_data_pj", "clock_pj", "input_nets_pj", "unit_pj"):
                if got and ref[u]:
                    a, b = float(got[0][k]), float(ref[u][0][k])
                    check(abs(a - b) <= 1e-5 * max(abs(b), 1e-9), f"{u[0]} {k}: {a} vs committed {b}")
    # Mutation: the cell driving an FP32 exponent bit of the result becomes its dual (NAND2 <->
    # NOR2, XOR2 <-> XNOR2, ...: same pins, different function); the check must stop the flow.
    net = os.path.join(synth, "hif4_dot64_STAGES_1", "netlist.v")
    text = open(net).read()
    # The dual of a cell: same pins, the AND/OR roles swapped, at the same drive strength, if
    # the library has it.
    dual = {"nand2": "nor2", "nor2": "nand2", "xor2": "xnor2", "xnor2": "xor2", "and2": "or2", "or2": "and2",
            "nand3": "nor3", "nor3": "nand3", "and3": "or3", "or3": "and3", "a21oi": "o21ai", "o21ai": "a21oi",
            "a21o": "o21a", "o21a": "a21o", "a22oi": "o22ai", "o22ai": "a22oi", "a22o": "o22a", "o22a": "a22o",
            "a211oi": "o211ai", "o211ai": "a211oi", "a31oi": "o31ai", "o31ai": "a31oi", "a2bb2oi": "o2bb2ai",
            "o2bb2ai": "a2bb2oi", "a311oi": "o311ai", "o311ai": "a311oi", "nand4": "nor4", "nor4": "nand4"}
    have = set(re.findall(r"cell \((sky130_fd_sc_hd__\w+)\)", open(os.path.join(synth, "libs", "sky130_fd_sc_hd__tt_025C_1v80.map.lib")).read())) \
        if not os.environ.get("HIFSIM_PDK_LIB") else None
    mutated = text
    for bit in range(23, 31):
        m = re.search(r"sky130_fd_sc_hd__(\w+?)_(\d+) (\S+) \(([^;]*?)\.[XY]\(out\[%d\]\)" % bit, text)
        if not m or m.group(1) not in dual:
            continue
        new = f"sky130_fd_sc_hd__{dual[m.group(1)]}_{m.group(2)}"
        if have is not None and new not in have:
            continue
        mutated = text[:m.start()] + new + text[m.start() + len(f"sky130_fd_sc_hd__{m.group(1)}_{m.group(2)}"):]
        break
    check(mutated != text, "found a cell driving an exponent bit of out to mutate")
    open(net, "w").write(mutated)
    os.remove(csv_out)
    rc, out, err = run(cmd)
    check(rc == 1 and "the reference says" in err and not os.path.exists(csv_out),
          f"mutated netlist rejected, no table written: rc {rc}, {err[-500:]}")
finish()
