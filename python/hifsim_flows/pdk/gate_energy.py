#!/usr/bin/env python3
"""Gate-level energy per dot operation of the mapped sky130 netlists on real trace operands.

  gate_energy.py --lib L --synth DIR --trace traces/smollm2-135m --op layer15.q_proj
                 --hifsim build/bin/hifsim --out energy.csv [--ops 1024] [--only REGEX] [--units CSV]

For every synthesised netlist under DIR (synth_all.py: DIR/<tag>/result.json names the module
and parameters), builds the unit's stimulus from the op's operands (stimulus.py), simulates the
netlist (gate_sim.py), checks every checked output word against the reference (a netlist that
computes anything else stops the flow), and writes one CSV row: toggles and energy per operation
split into logic / flip-flop data / clock / input nets. Temp file + rename; nothing on failure.
--only REGEX selects runs by "module parameters" (the convention of scripts/synth.sh and
synth_all.py); --append keeps every row of an existing --out and replaces, in place, the rows of
the same unit, parameters and trace op (new ones go last).
"""
import argparse
import csv
import json
import os
import re
import stat
import sys

import numpy as np  # noqa: E402

from ..repo import ROOT  # noqa: E402
from .cells import PREFIX, PUBLISHED  # noqa: E402
from .flow_error import FlowError  # noqa: E402
from .mapping_lib import mapping_copy  # noqa: E402
from .gate_sim import CellLib, output_ints, simulate  # noqa: E402
from .netlist import read_netlist  # noqa: E402
from . import stimulus  # noqa: E402
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


def synthesised(synth_dir, only, listed=None):
    """[(tag, module, parameters)] of the finished synthesis runs under synth_dir, sorted; with
    `listed` (a set of (module, parameters)), only those."""
    runs = []
    for d in sorted(os.listdir(synth_dir)):
        res = os.path.join(synth_dir, d, "result.json")
        if d.startswith(".") or not os.path.isfile(res):
            continue
        with open(res) as f:
            r = json.load(f)
        if only and not re.search(only, f"{r['module']} {r['parameters']}"):
            continue
        if listed is None or (r["module"], r["parameters"]) in listed:
            runs.append((d, r["module"], r["parameters"]))
    return runs


def check_outputs(net_path, val, ports, stim):
    """Every checked word of every checked port equal to the reference; returns how many."""
    checked = 0
    for port, lat, ref in stim.checks:
        got = output_ints(val, ports, port)
        bad = [i for i in range(len(ref) - lat) if ref[i] is not None and got[i + lat] != ref[i]]
        if bad:
            i = bad[0]
            raise FlowError(net_path, f"gate-level {port} of op {i} is {got[i + lat]:#x}, "
                            f"the reference says {ref[i]:#x} ({len(bad)} mismatches)")
        checked += sum(r is not None for r in ref[:len(ref) - lat])
    return checked


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.path.join(ROOT, "configs", "cost", "sky130", PUBLISHED["tt"]),
                    help="the Liberty the units were mapped to (default: the published tt_025C_1v80); "
                         "its mapping copy (mapping_lib.py) is read")
    ap.add_argument("--synth", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--op", default="layer15.q_proj")
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--append", action="store_true", help="keep the rows of an existing --out for other ops")
    ap.add_argument("--ops", type=int, default=1024)
    ap.add_argument("--only", default="", help="regex on 'module parameters', e.g. '^hif4_dot64 STAGES=1$'")
    ap.add_argument("--units", help="only the runs listed in this units.csv (synth_all.py's table)")
    a = ap.parse_args(argv)
    try:
        if os.path.lexists(a.out) and not stat.S_ISREG(os.lstat(a.out).st_mode):
            raise FlowError(a.out, "not a regular file; nothing replaced")
        if not os.path.isdir(a.synth):  # checked before the mapping copy is written into it
            raise FlowError(a.synth, "no such folder (synth_all.py's --work)")
        lib_path = mapping_copy(os.path.abspath(a.lib), os.path.join(a.synth, "libs"))
        lib = CellLib(lib_path)
        out_load = lib.pin_cap(PREFIX + "dfxtp_1", "D")  # primary outputs drive one flop's D pin
        a_npy, b_npy = trace_op(a.trace, a.op)
        top = os.path.basename(os.path.normpath(a.trace)) + "/" + a.op
        rows = []
        listed = None
        if a.units:
            with open(a.units, newline="") as f:
                listed = {(r["module"], r["parameters"]) for r in csv.DictReader(f)}
        runs = synthesised(a.synth, a.only, listed)
        if not runs:
            raise FlowError(a.synth, "no finished synthesis run" + (f" matching '{a.only}'" if a.only else ""))
        for d, unit, params in runs:
            stim = stimulus.build(unit, params, a_npy, b_npy, a.hifsim, a.ops)
            net_path = os.path.join(a.synth, d, "netlist.v")
            net = read_netlist(net_path, unit)
            val, rep = simulate(net, lib, stim.ins, stim.n_ops, out_load)
            checked = check_outputs(net_path, val, net["ports"], stim)
            if not checked:
                raise FlowError(net_path, "no result could be checked against the reference")
            print(f"[energy] {unit} {params}: {checked} results bit-exact ({stim.what}); {rep['unit_pj']:.3f} pJ/op "
                  f"(+{rep['input_nets_pj']:.3f} input nets), {rep['toggles_per_op']:.0f} toggles/op", file=sys.stderr)
            rows.append([unit, params, top] + [rep[c] if isinstance(rep[c], int) else f"{rep[c]:.6g}" for c in COLUMNS[3:]])
        if a.append and os.path.isfile(a.out):
            with open(a.out, newline="") as f:
                old = list(csv.reader(f))
            if not old or old[0] != COLUMNS:
                raise FlowError(a.out, "not an energy table of this version (columns differ)")
            mine = {(r[0], r[1], r[2]): r for r in rows}
            merged = [mine.pop((r[0], r[1], r[2]), r) for r in old[1:]]
            rows = merged + [r for r in rows if (r[0], r[1], r[2]) in mine]
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
