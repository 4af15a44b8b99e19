#!/usr/bin/env python3
"""Synthesise one RTL unit to a sky130 Liberty (Yosys + ABC) and time it (OpenSTA).

  synth_unit.py --lib L [--signoff-lib S] --module M --sources "a.sv b.sv" --params "STAGES=3" --out DIR

L and S are the flow's mapping copies (mapping_lib.py: the allowed cells, plain text), L at the
typical corner (mapping, timing), S the same cells at the slow corner (timing again).

Yosys 0.23: read_verilog -sv; chparam; synth -flatten (+ the unit's options of
scripts/synth_options.txt: -noshare for hadamard16); async2sync (the valid bits' async
reset becomes a synchronous one: 1-5 flops per unit, so area/timing are unaffected within the
rounding here); dfflegalize to plain D flip-flops (enables become a mux in front of the
flop: the library has no enable flop); dfflibmap + abc -liberty -script ABC_SCRIPT; stat -liberty.
OpenSTA: the unit sits between registers: inputs arrive a dfxtp_1 clock-to-Q after the
clock edge, outputs need a dfxtp_1 setup time, input slew 0.1 ns, outputs drive one dfxtp_1 D
pin, ideal clock, no wires. min period = period - worst slack; fmax = 1 / min period.
Writes DIR/netlist.v, DIR/result.json; FlowError (file: reason) on any failure.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time

from . import liberty_read as L  # noqa: E402
from ..params import UnitParams
from .cells import PREFIX  # noqa: E402
from .flow_error import FlowError  # noqa: E402
from .netlist import read_netlist  # noqa: E402

from ..repo import ROOT  # noqa: E402
PERIOD_NS = 20.0
NOM_SLEW, NOM_LOAD = 0.1, 0.008
# ABC script: Yosys 0.23's default for `abc -liberty -constr`,
#   strash; &get -n; &fraig -x; &put; scorr; dc2; dretime; strash; &get -n; &dch -f; &nf; &put;
#   buffer; upsize; dnsize
# without `&fraig -x; scorr`. `&fraig -x` (SAT sweeping of equivalent AIG nodes) is what never
# finished on NVFP4: on the 26,832-node AIG of nvfp4_dot64 it ran past 94 s of CPU where the rest
# of the script takes 6 s (hif4_dot64: 15 of 18 s); `scorr` does nothing on the purely
# combinational logic ABC gets here. The effect of dropping them is measured in docs/cost.md 11.3
# (within 1 % of area and delay on the units that finish both ways). `abc -fast` (`map`) costs
# +53 to +84 % area. `buffer` (fan-out buffer trees) is needed: without it the register enable of
# a pipelined unit drives ~600 mux selects from one nand2_1 (13 ns on that net alone). Every unit
# uses this one script; the constraints: inputs driven like a buf_1, outputs load a dfxtp_1 D pin.
ABC_SCRIPT = "strash; dc2; dretime; strash; &get -n; &dch -f; &nf; &put; buffer; upsize; dnsize\n"
ABC_DRIVER = PREFIX + "buf_1"
# Bumped when the timing step changes, so a reused mapping is timed again (2: one-bit assigns for
# OpenSTA, and any OpenSTA error stops the run; 3: the flop's setup read at the nominal slew,
# and a second timing at the sign-off corner).
STA_FLOW = 3


def flop_figures(lib_path):
    """clock-to-Q (max of rise/fall at nominal slew/load), setup (max of rise/fall at nominal
    slew on both pins), D capacitance; read from each table's own index (the published files)
    or its template's (the ngspice subset)."""
    lib = L.parse(lib_path)
    tmpl = L.templates(lib)
    ff = L.cells(lib).get(PREFIX + "dfxtp_1")
    if not ff:
        raise FlowError(lib_path, f"no {PREFIX}dfxtp_1 cell")
    q = [t for t in ff["pins"]["Q"]["group"].sub("timing") if t.attrs.get("related_pin") == "CLK"]
    if not q:
        raise FlowError(lib_path, "dfxtp_1: no CLK -> Q arc")
    clkq = max(L.at(g, tmpl, NOM_SLEW, NOM_LOAD) for t in q for n in ("cell_rise", "cell_fall") for g in t.sub(n))
    setups = [L.at(g, tmpl, NOM_SLEW, NOM_SLEW) for t in ff["pins"]["D"]["group"].sub("timing")
              if t.attrs.get("timing_type") == "setup_rising" for n in ("rise_constraint", "fall_constraint")
              for g in t.sub(n)]
    if not setups:
        raise FlowError(lib_path, "dfxtp_1: no setup_rising constraint")
    return clkq, max(setups), float(ff["pins"]["D"]["capacitance"])


def run(cmd, log, cwd=None):
    with open(log, "w") as f:
        p = subprocess.run(["nice", "-n", "10"] + cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        tail = open(log).read().splitlines()[-5:]
        raise FlowError(log, f"{cmd[0]} failed (exit {p.returncode}): " + " | ".join(tail))


def synth_options(module):
    """The unit's extra `synth` options from scripts/synth_options.txt (shared with
    scripts/yosys_row.sh; why each is there is written beside it), "" for the others."""
    with open(os.path.join(ROOT, "scripts", "synth_options.txt")) as f:
        for line in f:
            name, _, opts = line.split("#", 1)[0].strip().partition(" ")
            if name == module:
                return opts.strip()
    return ""


def generic_path(out, name):
    """Where synth_unit.py keeps a unit's technology-independent netlist: the cache beside the
    unit folders (one per synthesis work folder); name is result.json's `generic`."""
    return os.path.join(os.path.dirname(os.path.abspath(out)), ".generic", name)


def generic(module, sources, params, out):
    """The technology-independent part (synth -flatten, async2sync, dfflegalize), cached by the
    hash of the sources, the parameters, the unit's synth options and the Yosys version: it does
    not depend on the Liberty, so a new library only reruns the mapping."""
    chp = "".join(f"chparam -set {k} {v} {module}; " for k, v in UnitParams.parse(params, module).items)
    opts = synth_options(module)
    h = hashlib.sha256()
    for f in sources.split():
        h.update(open(os.path.join(ROOT, "rtl", f), "rb").read())
    h.update(f"{module}|{params}|".encode())
    if opts:  # no effect on the other units' cache keys
        h.update(opts.encode())
    h.update(subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.encode())
    cache = generic_path(out, h.hexdigest()[:24] + ".il")
    if not os.path.isfile(cache):
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        tmp = cache + ".tmp%d.il" % os.getpid()
        script = (f"read_verilog -sv {sources}; {chp}synth -flatten {opts + ' ' if opts else ''}-top {module}; async2sync; "
                  f"dfflegalize -cell $_DFF_P_ 01; write_rtlil {tmp}")
        run(["yosys", "-q", "-p", script], os.path.join(out, "yosys_generic.log"), cwd=os.path.join(ROOT, "rtl"))
        os.replace(tmp, cache)
    return cache


def synth(lib, module, sources, params, out, lib_sha, dcap):
    """map the generic netlist to lib; dcap: the flop's D capacitance (ABC's output load)."""
    lib = os.path.abspath(lib)
    il = generic(module, sources, params, out)
    net = os.path.join(out, "netlist.v")
    stat = os.path.join(out, "stat.txt")
    stamp = os.path.join(out, "map.stamp")
    abc_script = os.path.join(out, "abc.script")
    with open(abc_script, "w") as f:
        f.write(ABC_SCRIPT)
    constr = os.path.join(out, "abc.constr")
    with open(constr, "w") as f:
        f.write(f"set_driving_cell {ABC_DRIVER}\nset_load {dcap:.6g}\n")
    key = f"{lib_sha} {os.path.basename(il)} {_script_sha()}"
    if os.path.isfile(stamp) and open(stamp).read() == key and os.path.isfile(net) and os.path.isfile(stat):
        return _read_stat(stat, net)  # same Liberty, same generic netlist: the mapping is reused
    # read_liberty -lib: the cells as blackboxes with pin directions, so `check` sees their
    # outputs as drivers.
    script = (f"read_liberty -lib {lib}; read_rtlil {il}; dfflibmap -liberty {lib}; abc -liberty {lib} -constr {constr} -script {abc_script}; "
              f"opt_clean -purge; setundef -zero; check -assert; tee -o {stat} stat -liberty {lib}; "
              f"write_verilog -noattr -noexpr -nohex -nodec {net}")
    run(["yosys", "-q", "-p", script], os.path.join(out, "yosys.log"))
    with open(stamp, "w") as f:
        f.write(key)
    return _read_stat(stat, net)


def _script_sha():
    return hashlib.sha256((ABC_SCRIPT + ABC_DRIVER).encode()).hexdigest()[:16]


def _read_stat(stat, net):
    text = open(stat).read()
    m = re.search(r"Chip area for (?:top )?module '\\?[^']*':\s*([0-9.]+)", text)
    if not m:
        raise FlowError(stat, "no 'Chip area' in Yosys stat -liberty")
    counts = {c: int(n) for n, c in re.findall(r"^\s+(\d+)\s+(" + re.escape(PREFIX) + r"\w+)", text, re.M)}
    if not counts:
        counts = {c: int(n) for c, n in re.findall(r"^\s+(" + re.escape(PREFIX) + r"\w+)\s+(\d+)", text, re.M)}
    unmapped = re.findall(r"^\s+(\$_\w+)\s+(\d+)", text, re.M)
    if unmapped:
        raise FlowError(stat, f"cells left unmapped: {unmapped[:3]}")
    return float(m.group(1)), counts, net


def _verilog_bit(name):
    """A bit name of netlist.py ("\\u_x.q[2]", "a[3]", "1'b0") back in Verilog syntax: an escaped
    identifier ends at a space, so its bit select must follow one."""
    m = re.fullmatch(r"(\\\S+?)\[(\d+)\]", name)
    return f"{m.group(1)} [{m.group(2)}]" if m else name


def sta_netlist(net, module, out):
    """A copy of the netlist for OpenSTA with every assign split into one-bit assigns. Yosys
    writes merged register bits as `assign { \\u_cut.q [46], \\u_cut.q [36] } = {...};`, which
    OpenSTA 2.0.17 rejects with a syntax error (and then times the design without those bits)."""
    text = open(net).read()
    assigns = read_netlist(net, module)["assigns"]
    body = re.sub(r"^\s*assign\s+.*?;\n", "", text, flags=re.S | re.M)
    lines = "".join(f"  assign {_verilog_bit(l)} = {_verilog_bit(r)};\n" for l, r in assigns)
    k = body.rindex("endmodule")
    path = os.path.join(out, "netlist_sta.v")
    with open(path, "w") as f:
        f.write(body[:k] + lines + body[k:])
    return path


def sta(lib, module, net, out, clkq, setup, dcap, tag=""):
    """worst path of the netlist timed with lib; tag names the corner's files (sta<tag>.rpt)."""
    net = sta_netlist(net, module, out)
    has_clk = re.search(r"^\s*input\s+clk\s*;", open(net).read(), re.M) is not None
    clk = "create_clock -name clk -period {p} [get_ports clk]" if has_clk else "create_clock -name clk -period {p}"
    tcl = os.path.join(out, f"sta{tag}.tcl")
    rpt = os.path.join(out, f"sta{tag}.rpt")
    with open(tcl, "w") as f:
        f.write(f"""read_liberty {os.path.abspath(lib)}
read_verilog {os.path.abspath(net)}
link_design {module}
{clk.format(p=PERIOD_NS)}
set_clock_transition {NOM_SLEW} [all_clocks]
set_input_delay {clkq:.6g} -clock clk [all_inputs]
set_input_transition {NOM_SLEW} [all_inputs]
set_output_delay {setup:.6g} -clock clk [all_outputs]
set_load {dcap:.6g} [all_outputs]
report_checks -path_delay max -digits 4 > {rpt}
exit
""")
    log = os.path.join(out, f"sta{tag}.log")
    run(["sta", "-no_init", "-no_splash", "-exit", tcl], log)
    errors = [l for l in open(log).read().splitlines() if l.startswith("Error")]
    if errors:  # OpenSTA goes on after a parse error: a report from a partial netlist is no result
        raise FlowError(log, errors[0])
    text = open(rpt).read()
    ws = re.search(r"^\s*(-?[0-9.]+)\s+slack \((?:MET|VIOLATED)\)", text, re.M)
    sp = re.search(r"Startpoint:\s*(\S+)", text)
    ep = re.search(r"Endpoint:\s*(\S+)", text)
    arr = re.search(r"^\s*(-?[0-9.]+)\s+data arrival time", text, re.M)
    if not ws or not sp or not ep:
        raise FlowError(rpt, "OpenSTA reported no path (unconstrained design?)")
    min_period = PERIOD_NS - float(ws.group(1))
    return {"min_period_ns": min_period, "fmax_mhz": 1000.0 / min_period, "startpoint": sp.group(1),
            "endpoint": ep.group(1), "arrival_ns": float(arr.group(1)) if arr else None}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", required=True, help="the Liberty to map to and time at (typical corner)")
    ap.add_argument("--signoff-lib", help="the same cells at the sign-off corner (slow): the netlist is timed "
                    "again with it (min_period_ss_ns, fmax_ss_mhz)")
    ap.add_argument("--module", required=True)
    ap.add_argument("--sources", required=True)
    ap.add_argument("--params", default="-")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    try:
        # A previous result for the same Liberty and the same generic netlist is reused.
        lib_sha = hashlib.sha256(open(a.lib, "rb").read()).hexdigest()
        ss_sha = hashlib.sha256(open(a.signoff_lib, "rb").read()).hexdigest() if a.signoff_lib else None
        il = generic(a.module, a.sources, a.params, a.out)
        prev = os.path.join(a.out, "result.json")
        if os.path.isfile(prev):
            old = json.load(open(prev))
            if (old.get("liberty_sha256") == lib_sha and old.get("generic") == os.path.basename(il)
                    and old.get("abc_script") == _script_sha() and old.get("sta_flow") == STA_FLOW
                    and old.get("signoff_liberty_sha256") == ss_sha):
                print(json.dumps({k: old[k] for k in ("module", "parameters", "area_um2", "cells", "min_period_ns", "fmax_mhz")}))
                return 0
        clkq, setup, dcap = flop_figures(a.lib)
        area, counts, net = synth(a.lib, a.module, a.sources, a.params, a.out, lib_sha, dcap)
        t = sta(a.lib, a.module, net, a.out, clkq, setup, dcap)
        if a.signoff_lib:  # the same netlist, its inputs and outputs against the slow corner's flop
            ts = sta(a.signoff_lib, a.module, net, a.out, *flop_figures(a.signoff_lib), tag="_ss")
            t.update({"min_period_ss_ns": ts["min_period_ns"], "fmax_ss_mhz": ts["fmax_mhz"],
                      "startpoint_ss": ts["startpoint"], "endpoint_ss": ts["endpoint"]})
    except FlowError as e:
        print(f"synth_unit: {e}", file=sys.stderr)
        return 1
    ffs = sum(n for c, n in counts.items() if c.startswith(PREFIX + "df"))
    res = {"module": a.module, "parameters": a.params, "area_um2": area, "cells": sum(counts.values()),
           "flip_flops": ffs, "cell_counts": counts, **t, "seconds": round(time.time() - t0, 1),
           "liberty_sha256": lib_sha, "generic": os.path.basename(il), "abc_script": _script_sha(),
           "sta_flow": STA_FLOW, "signoff_liberty_sha256": ss_sha}
    tmp = os.path.join(a.out, "result.json.tmp")
    with open(tmp, "w") as f:
        json.dump(res, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(a.out, "result.json"))
    print(json.dumps({k: res[k] for k in ("module", "parameters", "area_um2", "cells", "min_period_ns", "fmax_mhz")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
