#!/usr/bin/env python3
"""formal.gate_equiv.<unit>: synthesise a unit to the flow's sky130 cells (the mapping copy of
SkyWater's published tt Liberty, as scripts/pdk/regenerate.sh maps; hifsim_flows.pdk.synth_unit),
prove the netlist equivalent to the technology-independent netlist it was mapped from (the mapping
proof) and, with --rtl, to its RTL (hifsim_flows.pdk.gate_equiv); then break one gate of a copy of
the netlist (the first nand2_1 becomes a nor2_1) and require the same proofs to fail: a proof that
cannot fail is not a proof.

  test_gate_equiv.py ROOT MODULE PARAMS [--rtl]     (PARAMS: NAME=VALUE pairs joined by "," or ";")
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT, MODULE, PARAMS = sys.argv[1], sys.argv[2], sys.argv[3].replace(",", ";")  # "," from CMake
RTL = "--rtl" in sys.argv[4:]
sys.path.insert(0, os.path.join(ROOT, "python"))  # the flow package, as run from the source tree
from hifsim_flows.pdk import gate_equiv  # noqa: E402
from hifsim_flows.pdk.cells import PUBLISHED  # noqa: E402
from hifsim_flows.pdk.mapping_lib import mapping_copy  # noqa: E402
from hifsim_flows.pdk.synth_unit import generic_path  # noqa: E402

srcs = subprocess.run(["bash", "-c", f'ROOT="{ROOT}"; source "{ROOT}/scripts/rtl_files.sh"; unit_sources {MODULE}'],
                      capture_output=True, text=True, check=True).stdout.strip()
with tempfile.TemporaryDirectory(prefix="hifsim-gate-equiv-test-") as tmp:
    LIB = mapping_copy(os.path.join(ROOT, "configs", "cost", "sky130", PUBLISHED["tt"]), tmp)
    out = os.path.join(tmp, "synth")
    r = subprocess.run([sys.executable, "-m", "hifsim_flows.pdk.synth_unit", "--lib", LIB,
                        "--module", MODULE, "--sources", srcs, "--params", PARAMS, "--out", out],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": os.path.join(ROOT, "python")})
    if r.returncode:
        sys.exit(f"synth_unit failed: {r.stderr[-1000:]}")
    net = os.path.join(out, "netlist.v")
    generic = generic_path(out, json.load(open(os.path.join(out, "result.json")))["generic"])
    proofs = [("mapping", generic)] + ([("rtl", None)] if RTL else [])

    def run_all(netlist, want, what):
        for kind, gold in proofs:
            verdict, secs, log = gate_equiv.prove(LIB, MODULE, srcs, PARAMS, netlist, generic=gold)
            print(f"gate_equiv: {MODULE} {PARAMS} {what}{kind}: {verdict} ({secs:.1f} s); {log.splitlines()[0]}")
            if verdict != want:
                print(log)
                sys.exit(1)

    run_all(net, "equivalent", "")
    text = open(net).read()
    broken, n = re.subn(r"\bsky130_fd_sc_hd__nand2_1\b", "sky130_fd_sc_hd__nor2_1", text, count=1)
    if n != 1:
        sys.exit("the netlist has no nand2_1 to break")
    bad = os.path.join(tmp, "broken.v")
    open(bad, "w").write(broken)
    run_all(bad, "NOT EQUIVALENT", "one nand2_1 -> nor2_1, ")
print("1 passed, 0 failed")
