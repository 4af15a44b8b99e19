#!/usr/bin/env python3
"""Gate-level equivalence: a synthesised sky130 netlist (synth_unit.py's DIR/netlist.v) against the
design it came from (docs/formal.md, "Gate-level equivalence"). One step of the flow, run after
synth_unit.py. Two proofs, which together say the netlist is its RTL:

  mapping  the netlist against synth_unit.py's technology-independent netlist (DIR/../.generic/*.il,
           `synth -flatten` of the RTL): the step where the published cells, their Liberty
           functions, dfflibmap, ABC's mapping and sizing and `setundef` come in. Runs in the flow
           by default; closes on 41 of the 54 netlists measured (docs/formal.md), the others are
           listed as undecided.
  rtl      the netlist against the RTL itself (`prep -flatten`), which also covers Yosys's
           coarse synthesis (alumacc, share, abc -fast); closes on the small units, not on every
           dot unit's datapath (a multiplier and adder trees of two different structures): --rtl.

  gate_equiv.py --lib L --module M --sources "a.sv b.sv" --params "STAGES=3" --netlist DIR/netlist.v
                [--generic G.il] [--timeout S] [--json OUT]
  gate_equiv.py --lib L --work DIR [--only REGEX] [--rtl] [--timeout S] [--strict]
                every netlist synth_all.py left in DIR/<tag>/ (its result.json names module,
                parameters and generic netlist; sources from scripts/synth.sh --list-sources); one
                line per proof and a summary; exit 1 if any is NOT EQUIVALENT, 2 with --strict if
                any is undecided (dprove's limits or --timeout), else 0 (scripts/pdk/regenerate.sh
                step 1b)

Gate: the netlist with the Liberty's cell functions (read_liberty without -lib: each cell becomes
its Boolean function, dfxtp_1 a D flip-flop). Both sides become BLIF with one-bit gates and D
flops (async2sync: the flow's own treatment of the valid bits' asynchronous reset; enable flops as
flop + mux). The registers are matched by the public names of their Q nets and cut
(register_cut.py: each pair a free input and a compared output), so a pipelined unit is checked
stage by stage as combinational logic; registers without a partner start at 0 on both sides. ABC
`miter` + `dprove` proves the rest (a CEC, or induction over the unmatched registers). Prints
`gate_equiv: M PARAMS mapping|rtl equivalent|NOT EQUIVALENT|UNKNOWN (seconds)`; exit 0 / 1 / 2;
a message naming the file on a tool failure.
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
from . import register_cut  # noqa: E402
from .synth_unit import generic_path  # noqa: E402


def _chparam(module, params):
    return "".join(f"chparam -set {kv.split('=')[0]} {kv.split('=')[1]} {module}; "
                   for kv in params.split(";") if kv and kv != "-")


# Both sides end the same way: enable flops as D flops and muxes, one-bit gates, undriven and
# undefined bits at 0 (synth_unit.py's own `setundef -zero`), then BLIF (a `.latch` per flop).
_TO_BLIF = "async2sync; dffunmap; techmap; opt_clean; setundef -undriven -zero; setundef -zero; opt_clean; write_blif"


def prove(lib, module, sources, params, netlist, timeout=1800, generic=None):
    """(verdict, seconds, log tail): verdict 'equivalent', 'NOT EQUIVALENT' or 'UNKNOWN'.
    Gold is the RTL (sources, params; `prep -flatten`) or, with generic, synth_unit.py's
    technology-independent netlist that the gate netlist was mapped from (the mapping proof);
    gate is the netlist with the Liberty's cell functions. Registers are matched by name and cut
    (register_cut.py); ABC `dprove` proves the miter of the two (a CEC when every register has
    its partner)."""
    t0 = time.time()
    srcs = " ".join(os.path.join(ROOT, "rtl", s) for s in sources.split())
    read_gold = (f"read_rtlil {generic}; hierarchy -top {module}" if generic else
                 f"read_verilog -sv {srcs}; {_chparam(module, params)}prep -flatten -top {module}")
    with tempfile.TemporaryDirectory(prefix="hifsim-gate-equiv-") as tmp:
        gold, gate = os.path.join(tmp, "gold.blif"), os.path.join(tmp, "gate.blif")
        y = subprocess.run(["yosys", "-q", "-p", f"{read_gold}; {_TO_BLIF} {gold}"], capture_output=True, text=True)
        if y.returncode != 0:
            return "UNKNOWN", time.time() - t0, f"{generic or sources}: yosys failed on the gold design: " + (
                y.stdout + y.stderr)[-1500:]
        y = subprocess.run(["yosys", "-q", "-p", f"read_liberty -ignore_miss_func {lib}; read_verilog {netlist}; "
                            f"hierarchy -top {module}; flatten; {_TO_BLIF} {gate}"], capture_output=True, text=True)
        if y.returncode != 0:
            return "UNKNOWN", time.time() - t0, f"{netlist}: yosys failed: " + (y.stdout + y.stderr)[-1500:]
        verdict, log = prove_blifs(gold, gate, timeout - (time.time() - t0), tmp)
        return verdict, time.time() - t0, log


def prove_blifs(gold, gate, timeout, tmp):
    """(verdict, log) for two BLIFs of the same ports (one `.latch` per flop): every register
    cut (a combinational check: fast when it holds); if that fails and some pairs were only
    guessed by order, again with those left as registers (induction)."""
    t0, log = time.time(), ""
    gold_cut, gate_cut = os.path.join(tmp, "gold_cut.blif"), os.path.join(tmp, "gate_cut.blif")
    for pair_rest in (True, False):
        pairs, by_order, n_gold, n_gate = register_cut.cut_matched(gold, gate, gold_cut, gate_cut, pair_rest)
        log += f"registers cut: {pairs} of {n_gold} (gold) / {n_gate} (gate), {by_order} of them paired by order\n"
        try:
            # cwd: dprove writes the unsolved miter (sm01.aig) into the working directory
            a = subprocess.run(["yosys-abc", "-c", f"miter {gold_cut} {gate_cut}; dprove"], capture_output=True,
                               text=True, timeout=max(timeout - (time.time() - t0), 1), cwd=tmp)
        except subprocess.TimeoutExpired:
            return "UNKNOWN", log + f"dprove did not finish in {timeout:.0f} s"
        out = a.stdout + a.stderr
        if re.search(r"Networks are equivalent|UNSATISFIABLE|Property proved", out):
            return "equivalent", log + out[-600:]
        if not by_order:
            break
    # "SATISFIABLE": dprove's answer when no latch is left (a CEC) and the miter can be 1
    if re.search(r"Networks are not equivalent|NOT EQUIVALENT|was asserted|Counter-example|(?<!UN)SATISFIABLE", out):
        return "NOT EQUIVALENT", log + out[-1500:]
    return "UNKNOWN", log + out[-1500:]


def prove_work(lib, work, only, timeout, strict=False, rtl=False):
    """Every synthesised netlist of a synth_all.py work folder: the mapping proof (the netlist
    against the technology-independent netlist it was mapped from, result.json's `generic`) and,
    with rtl, the netlist against its RTL. Exit 1 if any proof says NOT EQUIVALENT (a wrong
    netlist stops the flow); an undecided proof (dprove's limits or the timeout) is listed and
    counts as a failure only with strict."""
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
        proofs = [("mapping", generic_path(os.path.join(work, tag), r["generic"]))] + ([("rtl", None)] if rtl else [])
        for kind, generic in proofs:
            if generic and not os.path.isfile(generic):
                verdict, secs, log = "UNKNOWN", 0.0, f"{generic}: the generic netlist is gone (synth_all.py's cache)"
            else:
                verdict, secs, log = prove(lib, r["module"], sources[r["module"]], r["parameters"], net, timeout,
                                           generic=generic)
            print(f"gate_equiv: {r['module']} {r['parameters']} {kind} {verdict} ({secs:.1f} s)", flush=True)
            if verdict == "equivalent":
                proven += 1
            elif verdict == "NOT EQUIVALENT":
                bad += 1
                print(log)
            else:
                undecided.append(f"{r['module']} {r['parameters']} {kind}")
                print(log.splitlines()[-1] if log else "")
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
    ap.add_argument("--rtl", action="store_true",
                    help="with --work: also prove each netlist against its RTL (the mapping proof always runs)")
    ap.add_argument("--generic", help="with --netlist: prove it against this technology-independent netlist "
                                      "(synth_unit.py's .generic/*.il) instead of the RTL")
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
        return prove_work(a.lib, a.work, a.only, a.timeout, a.strict, a.rtl)
    if not (a.module and a.sources and a.netlist):
        ap.error("--module, --sources and --netlist (or --work)")
    for f in (a.lib, a.netlist) + ((a.generic,) if a.generic else ()):
        if not os.path.isfile(f):
            print(f"gate_equiv: {f}: no such file", file=sys.stderr)
            return 2
    verdict, secs, log = prove(os.path.abspath(a.lib), a.module, a.sources, a.params, os.path.abspath(a.netlist),
                               a.timeout, generic=a.generic and os.path.abspath(a.generic))
    print(f"gate_equiv: {a.module} {a.params} {'mapping' if a.generic else 'rtl'} {verdict} ({secs:.1f} s)")
    if verdict != "equivalent":
        print(log)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"module": a.module, "parameters": a.params, "verdict": verdict, "seconds": round(secs, 1)}, f)
    return {"equivalent": 0, "NOT EQUIVALENT": 1}.get(verdict, 2)


if __name__ == "__main__":
    sys.exit(main())
