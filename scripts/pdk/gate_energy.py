#!/usr/bin/env python3
"""Gate-level energy per dot operation of the mapped sky130 netlists on real trace operands.

  gate_energy.py --lib L --synth DIR --trace traces/smollm2-135m --op layer15.q_proj
                 --hifsim build/bin/hifsim --out energy.csv [--ops 1024] [--only REGEX]

For every dot unit with a stimulus builder (stimulus.FORMATS) and every synthesised netlist
of it under DIR (synth_all.py), simulates the netlist on the op's operands (gate_sim.py),
checks every result bit against the independent reference (a netlist that computes anything
else stops the flow), and writes one CSV row: toggles and energy per operation split into
logic / flip-flop data / clock / input nets. Temp file + rename; nothing on failure.
"""
import argparse
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

from flow_error import FlowError  # noqa: E402
from gate_sim import CellLib, output_words, simulate  # noqa: E402
from netlist import read_netlist  # noqa: E402
from stimulus import FORMATS, dot_ops  # noqa: E402
import yaml  # noqa: E402

COLUMNS = ["module", "parameters", "trace_op", "ops", "toggles_per_op", "logic_pj", "flop_data_pj", "clock_pj",
           "input_nets_pj", "unit_pj", "total_pj"]


def trace_op(trace_dir, op):
    man = os.path.join(trace_dir, "trace.yaml")
    try:
        with open(man) as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise FlowError(man, f"cannot read the trace manifest: {e}")
    for o in doc.get("ops", []):
        if o.get("name") == op:
            paths = [os.path.join(trace_dir, o[k]["file"]) for k in ("a", "b")]
            for p in paths:
                if not os.path.isfile(p):
                    raise FlowError(p, "missing trace tensor (bash scripts/capture/ensure_traces.sh)")
            return paths
    raise FlowError(man, f"no op {op}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--synth", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--op", default="layer15.q_proj")
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--append", action="store_true", help="keep the rows of an existing --out for other ops")
    ap.add_argument("--ops", type=int, default=1024)
    ap.add_argument("--only", default="")
    a = ap.parse_args(argv)
    try:
        lib = CellLib(a.lib)
        from synth_unit import flop_figures
        out_load = flop_figures(a.lib)[2]
        a_npy, b_npy = trace_op(a.trace, a.op)
        rows = []
        for unit in FORMATS:
            dirs = sorted(d for d in os.listdir(a.synth) if d.startswith(unit + "_"))
            dirs = [d for d in dirs if not a.only or re.search(a.only, d)]
            if not dirs:
                continue
            ins, ref, pairs = dot_ops(unit, a_npy, b_npy, a.hifsim, a.ops)
            for d in dirs:
                net_path = os.path.join(a.synth, d, "netlist.v")
                net = read_netlist(net_path, unit)
                stages = int(re.search(r"STAGES_(\d+)", d).group(1)) if "STAGES_" in d else 0
                val, rep = simulate(net, lib, ins, len(pairs), out_load)
                got = output_words(val, net["ports"], "out")
                bad = [i for i in range(stages, len(pairs)) if ref[i - stages] is not None and int(got[i]) != ref[i - stages]]
                if bad:
                    i = bad[0]
                    raise FlowError(net_path, f"gate-level result of op {i - stages} is {int(got[i]):#010x}, "
                                    f"the reference says {ref[i - stages]:#010x} ({len(bad)} mismatches)")
                checked = sum(r is not None for r in ref[:len(pairs) - stages])
                params = d[len(unit) + 1:].replace("_", "=", 1)
                print(f"[energy] {unit} {params}: {checked} results bit-exact; {rep['unit_pj']:.3f} pJ/op "
                      f"(+{rep['input_nets_pj']:.3f} input nets), {rep['toggles_per_op']:.0f} toggles/op", file=sys.stderr)
                top = os.path.basename(os.path.normpath(a.trace)) + "/" + a.op
                rows.append([unit, params, top] + [rep[c] if isinstance(rep[c], int) else f"{rep[c]:.6g}" for c in COLUMNS[3:]])
        if not rows:
            raise FlowError(a.synth, "no synthesised dot unit with a stimulus builder")
        if a.append and os.path.isfile(a.out):
            with open(a.out, newline="") as f:
                old = list(csv.reader(f))
            if not old or old[0] != COLUMNS:
                raise FlowError(a.out, "not an energy table of this version (columns differ)")
            mine = {(r[0], r[1], r[2]) for r in rows}
            rows = [r for r in old[1:] if (r[0], r[1], r[2]) not in mine] + rows
        tmp = a.out + ".tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            w.writerows(rows)
        os.replace(tmp, a.out)
    except FlowError as e:
        print(f"gate_energy: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
