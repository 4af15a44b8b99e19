#!/usr/bin/env python3
"""Gate-level equivalence: a synthesised sky130 netlist (synth_unit.py's DIR/netlist.v) against its
RTL (docs/formal.md, "Gate-level equivalence"). One step of the flow, run after synth_unit.py.

  gate_equiv.py --lib L --module M --sources "a.sv b.sv" --params "STAGES=3" --netlist DIR/netlist.v
                [--timeout S] [--json OUT]
  gate_equiv.py --lib L --work DIR [--only REGEX] [--timeout S] [--strict]
                every netlist synth_all.py left in DIR/<tag>/ (its result.json names module and
                parameters; sources from scripts/synth.sh --list-sources); one line each and a
                summary; exit 1 if any is NOT EQUIVALENT, 2 with --strict if any is undecided
                (dprove's limits or --timeout), else 0 (scripts/pdk/regenerate.sh step 1b)

Gold: the RTL (read_verilog -sv, chparam, prep -flatten, async2sync: the flow's own treatment of
the valid bits' asynchronous reset). Gate: the netlist with the Liberty's cell functions
(read_liberty without -lib: each cell becomes its Boolean function, dfxtp_1 a D flip-flop).
The miter (_wrapper) drives both with the same inputs, holds rst_n low in the first cycle and
asserts every output equal from the second (data outputs of a unit with out_valid only while it
is high: its data registers are not reset); Yosys writes it as an AIG and ABC `dprove` proves it:
for a combinational unit that is a CEC, for a pipelined one register correspondence (scorr) and
induction, so the mapped flops need not keep their names or polarity. Prints `gate_equiv: M PARAMS equivalent|NOT EQUIVALENT|UNKNOWN (seconds)`; exit 0 /
1 / 2; FlowError-style message naming the file on a tool failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from ..repo import ROOT  # noqa: E402  (the repository root, computed in one place)
from .cells import PUBLISHED  # noqa: E402
from .flow_error import FlowError  # noqa: E402
from .mapping_lib import mapping_copy  # noqa: E402


def _chparam(module, params):
    return "".join(f"chparam -set {kv.split('=')[0]} {kv.split('=')[1]} {module}; "
                   for kv in params.split(";") if kv and kv != "-")


def _wrapper(ports):
    """The miter: gold and gate on the same inputs; rst_n forced low in the first cycle (both start
    from reset, whatever their flops' initial contents); every output equal, except that the
    data outputs of a unit with out_valid are compared only while out_valid is high (its data
    registers are not reset, so their content before the first result is not a value)."""
    ins = [(n, w) for n, (d, w) in ports.items() if d == "input"]
    outs = [(n, w) for n, (d, w) in ports.items() if d == "output"]
    lines = ["module gate_equiv_top ("]
    lines.append(",\n".join(f"  input logic [{w - 1}:0] {n}" for n, w in ins))
    lines.append(");")
    lines.append("  logic first = 1'b1;")
    lines.append("  always_ff @(posedge clk) first <= 1'b0;")
    for side in ("gold", "gate"):
        for n, w in outs:
            lines.append(f"  logic [{w - 1}:0] {side}_{n};")
        conn = [f".{n}({'rst_n & ~first' if n == 'rst_n' else n})" for n, _ in ins]
        conn += [f".{n}({side}_{n})" for n, _ in outs]
        lines.append(f"  {side} u_{side} ({', '.join(conn)});")
    has_valid = any(n == "out_valid" for n, _ in outs)
    lines.append("  always_comb begin")
    lines.append("    if (!first) begin")
    for n, _ in outs:
        data = has_valid and n not in ("out_valid", "in_ready")
        cond = "gold_out_valid && " if data else ""
        lines.append(f"      if ({cond}1'b1) assert (gold_{n} == gate_{n});")
    lines.append("    end")
    lines.append("  end")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


def prove(lib, module, sources, params, netlist, timeout=1800):
    """(verdict, seconds, log tail): verdict 'equivalent', 'NOT EQUIVALENT' or 'UNKNOWN'."""
    t0 = time.time()
    srcs = " ".join(os.path.join(ROOT, "rtl", s) for s in sources.split())
    with tempfile.TemporaryDirectory(prefix="hifsim-gate-equiv-") as tmp:
        gold, js, wrap, aig = (os.path.join(tmp, f) for f in ("gold.il", "gold.json", "top.sv", "miter.aig"))
        y = subprocess.run(["yosys", "-q", "-p",
                            f"read_verilog -sv {srcs}; {_chparam(module, params)}prep -flatten -top {module}; "
                            f"async2sync; rename {module} gold; write_rtlil {gold}; write_json {js}"],
                           capture_output=True, text=True)
        if y.returncode != 0:
            return "UNKNOWN", time.time() - t0, f"{sources}: yosys failed on the RTL: " + (y.stdout + y.stderr)[-1500:]
        ports = {n: (p["direction"], len(p["bits"])) for n, p in json.load(open(js))["modules"]["gold"]["ports"].items()}
        with open(wrap, "w") as f:
            f.write(_wrapper(ports))
        script = (
            f"read_liberty -ignore_miss_func {lib}; read_verilog {netlist}; hierarchy -top {module}; "
            f"rename {module} gate; read_rtlil {gold}; read_verilog -sv -formal {wrap}; "
            f"prep -top gate_equiv_top; flatten; opt -fast; techmap; opt -fast; async2sync; dffunmap; "
            f"setundef -undriven -zero; aigmap; opt_clean; write_aiger -zinit {aig}")
        y = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
        if y.returncode != 0:
            return "UNKNOWN", time.time() - t0, f"{netlist}: yosys failed: " + (y.stdout + y.stderr)[-1500:]
        try:
            # cwd: dprove writes the unsolved miter (sm01.aig) into the working directory
            a = subprocess.run(["yosys-abc", "-c", f"read_aiger {aig}; fold; dprove"], capture_output=True, text=True,
                               timeout=timeout, cwd=tmp)
        except subprocess.TimeoutExpired:
            return "UNKNOWN", time.time() - t0, f"dprove did not finish in {timeout} s"
        out = a.stdout + a.stderr
        if re.search(r"UNSATISFIABLE|Networks are equivalent|Property proved", out):
            return "equivalent", time.time() - t0, out[-600:]
        if re.search(r"SATISFIABLE|NOT EQUIVALENT|not equivalent|asserted|Counter-example", out):
            return "NOT EQUIVALENT", time.time() - t0, out[-1500:]
        return "UNKNOWN", time.time() - t0, out[-1500:]


def prove_work(lib, work, only, timeout, strict=False):
    """Every synthesised netlist of a synth_all.py work folder. Exit 1 if any is NOT EQUIVALENT
    (a wrong netlist stops the flow); an undecided proof (dprove's limits or the timeout) is listed
    and counts as a failure only with strict."""
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts", "synth.sh"), "--list-sources"],
                         capture_output=True, text=True, check=True).stdout
    sources = {}
    for line in out.splitlines():
        f = line.split("|")
        if len(f) >= 3:
            sources[f[0]] = f[1]
    bad, undecided, proven = 0, [], 0
    for tag in sorted(os.listdir(work)):
        res = os.path.join(work, tag, "result.json")
        net = os.path.join(work, tag, "netlist.v")
        if not (os.path.isfile(res) and os.path.isfile(net)):
            continue
        r = json.load(open(res))
        if only and not re.search(only, f"{r['module']} {r['parameters']}"):
            continue
        verdict, secs, log = prove(lib, r["module"], sources[r["module"]], r["parameters"], net, timeout)
        print(f"gate_equiv: {r['module']} {r['parameters']} {verdict} ({secs:.1f} s)", flush=True)
        if verdict == "equivalent":
            proven += 1
        elif verdict == "NOT EQUIVALENT":
            bad += 1
            print(log)
        else:
            undecided.append(f"{r['module']} {r['parameters']}")
    print(f"gate_equiv: {proven} equivalent, {bad} not equivalent, {len(undecided)} undecided"
          + (f" ({', '.join(undecided)})" if undecided else ""), flush=True)
    return 1 if bad else (2 if strict and undecided else 0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.path.join(ROOT, "configs", "cost", "sky130", PUBLISHED["tt"]),
                    help="the Liberty the netlists were mapped to (default: the published tt_025C_1v80); "
                         "its mapping copy (mapping_lib.py) gives the cells' functions")
    ap.add_argument("--work")
    ap.add_argument("--only")
    ap.add_argument("--module")
    ap.add_argument("--sources")
    ap.add_argument("--params", default="-")
    ap.add_argument("--netlist")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--json")
    ap.add_argument("--strict", action="store_true", help="with --work: an undecided proof fails the run (exit 2)")
    a = ap.parse_args(argv)
    if a.work and not os.path.isdir(a.work):
        print(f"gate_equiv: {a.work}: no such folder (synth_all.py's --work)", file=sys.stderr)
        return 2
    if not os.path.isfile(a.lib):
        print(f"gate_equiv: {a.lib}: no such file", file=sys.stderr)
        return 2
    try:  # the cells' functions from the same mapping copy the netlists were mapped to
        a.lib = mapping_copy(os.path.abspath(a.lib), os.path.join(
            a.work or os.path.dirname(os.path.abspath(a.netlist or ".")), "libs"))
    except FlowError as e:
        print(f"gate_equiv: {e}", file=sys.stderr)
        return 2
    if a.work:
        return prove_work(a.lib, a.work, a.only, a.timeout, a.strict)
    if not (a.module and a.sources and a.netlist):
        ap.error("--module, --sources and --netlist (or --work)")
    for f in (a.lib, a.netlist):
        if not os.path.isfile(f):
            print(f"gate_equiv: {f}: no such file", file=sys.stderr)
            return 2
    verdict, secs, log = prove(os.path.abspath(a.lib), a.module, a.sources, a.params, os.path.abspath(a.netlist),
                               a.timeout)
    print(f"gate_equiv: {a.module} {a.params} {verdict} ({secs:.1f} s)")
    if verdict != "equivalent":
        print(log)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"module": a.module, "parameters": a.params, "verdict": verdict, "seconds": round(secs, 1)}, f)
    return {"equivalent": 0, "NOT EQUIVALENT": 1}.get(verdict, 2)


if __name__ == "__main__":
    sys.exit(main())
