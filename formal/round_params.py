#!/usr/bin/env python3
"""The parameter sets of hifsim_round_fp32 that the RTL units instantiate (docs/formal.md).

Elaborates each unit configuration of the synthesis list (UNIT_CONFIGS below: every default and
the parameter sets that change the rounder's widths) with Yosys, reads every derived
hifsim_round_fp32 module's parameters from the JSON netlist and prints one line per distinct set:
    WS WE MAG_BITS LSB_EXP_MIN LSB_EXP_MAX   <units that use it>
`--check FILE` compares with the committed list formal/round_params.txt (test formal.round_params)
so a unit that changes its rounder's widths cannot leave the proofs behind.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (top, {param: value}): every configuration of scripts/synth.sh / rtl/CMakeLists.txt whose
# rounder widths can differ (STAGES never changes them).
UNIT_CONFIGS = [
    ("hif4_dot64", {}), ("sparse_residual_add", {}), ("nvfp4_dot64", {}), ("mxfp4_dot64", {}),
    ("mxfp8_dot32", {"E5M2": 0}), ("mxfp8_dot32", {"E5M2": 1}),
    ("bf16_dot64", {}), ("bf16_dot64", {"W": 16, "STICKY": 0}), ("bf16_dot64", {"W": 32, "STICKY": 1}),
    ("bf16_dot64", {"W": 120, "STICKY": 1}),
    ("hif8_dot", {"N": 16, "W": 24, "STICKY": 0}), ("hif8_dot", {"N": 32, "W": 40, "STICKY": 1}),
    ("hif8_dot", {"N": 64, "W": 82, "STICKY": 0}), ("hif8_dot", {"N": 16, "W": 8, "STICKY": 1}),
    ("hif8_dot", {"N": 32, "W": 120, "STICKY": 1}), ("hif8_dot", {"N": 32, "W": 24, "STICKY": 0}),
    ("hif8_dot", {}),
]


def sources(top):
    r = subprocess.run(["bash", "-c", f'ROOT="{ROOT}"; source "{ROOT}/scripts/rtl_files.sh"; unit_sources {top}'],
                       capture_output=True, text=True, check=True)
    return [os.path.join(ROOT, "rtl", s) for s in r.stdout.split()]


def signed32(bits):
    v = int(bits, 2)
    return v - (1 << 32) if len(bits) == 32 and bits[0] == "1" else v


def sets_of(top, params):
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "n.json")
        ch = "".join(f"chparam -set {k} {v} {top}; " for k, v in params.items())
        subprocess.run(["yosys", "-q", "-p", f"read_verilog -sv {' '.join(sources(top))}; {ch}hierarchy -top {top}; "
                        f"select -module {top}; cd; proc; write_json {js}"], check=True, capture_output=True)
        d = json.load(open(js))
    out = []
    for name, m in d["modules"].items():
        if name.endswith("hifsim_round_fp32"):
            p = m["parameter_default_values"]
            out.append(tuple(signed32(p[k]) for k in ("WS", "WE", "MAG_BITS", "LSB_EXP_MIN", "LSB_EXP_MAX")))
    return out


def main():
    found = {}
    for top, params in UNIT_CONFIGS:
        tag = top + "".join(f" {k}={v}" for k, v in params.items())
        for s in sets_of(top, params):
            found.setdefault(s, []).append(tag)
    lines = [" ".join(str(x) for x in s) + "   " + "; ".join(u) for s, u in sorted(found.items())]
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        want = [l.split("#")[0].split("   ")[0].strip() for l in open(sys.argv[2]) if l.split("#")[0].strip()]
        have = [l.split("   ")[0] for l in lines]
        if sorted(want) != sorted(have):
            print("round_params: the units' rounder parameter sets differ from " + sys.argv[2])
            print("  units now:  " + " | ".join(have))
            print("  committed:  " + " | ".join(want))
            return 1
        print(f"round_params: {len(have)} sets, as committed")
        return 0
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
