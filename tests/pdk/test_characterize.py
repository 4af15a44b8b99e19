"""Characterize two cells with real ngspice (no cache) and compare with the committed Liberty.

Tolerance: 1 % relative (floor 1e-5 in the table's unit: 10 fs, 10 aJ, 0.01 fF). SPICE reruns
with the same ngspice are bit-identical; the margin covers the 6 printed digits and other
ngspice builds. A 2 % change of any committed entry fails (docs/cost.md, sky130 tests).
"""
import os
import re
import sys
import tempfile

from pdk_test_common import LIB, check, finish, pdk_src, run, step
from hifsim_flows.pdk import liberty_read as L

CELLS = ["inv_1", "nand2_1"]
REL, FLOOR = 0.01, 1e-5


def close(a, b):
    return abs(a - b) <= max(REL * max(abs(a), abs(b)), FLOOR)


def flatten(g, prefix=""):
    """Every table and scalar attribute under a group, keyed by its path."""
    out = {}
    for k, v in g.attrs.items():
        out[prefix + k] = v
    for n, sub in enumerate(g.groups):
        key = f"{prefix}{sub.kind}({','.join(sub.args)})"
        if sub.kind in ("timing", "internal_power"):
            key += "[" + sub.attrs.get("related_pin", "") + sub.attrs.get("timing_type", "") + "]"
        if "values" in sub.complex:
            out[key] = L.table(sub)
        out.update(flatten(sub, key + "/"))
    return out


with tempfile.TemporaryDirectory() as work:
    fresh = os.path.join(work, "fresh.lib")
    rc, out, err = run([*step("build_liberty"), "--pdk", pdk_src(),
                        "--out", fresh, "--cells", ",".join(CELLS), "--work", work])
    check(rc == 0, f"build_liberty exit {rc}: {err[-2000:]}")
    m = re.search(r"ngspice runs (\d+), cached (\d+)", err)
    check(m is not None and int(m.group(1)) > 0 and int(m.group(2)) == 0,
          f"the fresh characterization ran ngspice for real (no cache): {err[-300:]}")
    if rc == 0:
        new = L.cells(L.parse(fresh))
        old = L.cells(L.parse(LIB))
        for c in CELLS:
            name = "sky130_fd_sc_hd__" + c
            check(name in old, f"{name} in the committed Liberty")
            if name not in old:
                continue
            check(new[name]["area"] == old[name]["area"], f"{name} area {new[name]['area']} == {old[name]['area']}")
            fn, fo = flatten(new[name]["group"]), flatten(old[name]["group"])
            check(set(fn) == set(fo), f"{name}: same entries ({sorted(set(fn) ^ set(fo))[:5]})")
            for k in sorted(set(fn) & set(fo)):
                a, b = fn[k], fo[k]
                if isinstance(a, list):
                    flat_a = [x for row in a for x in row]
                    flat_b = [x for row in b for x in row]
                    bad = [(x, y) for x, y in zip(flat_a, flat_b) if not close(x, y)]
                    check(len(flat_a) == len(flat_b) and not bad, f"{name} {k}: {bad[:3]}")
                else:
                    try:
                        check(close(float(a), float(b)), f"{name} {k}: {a} vs {b}")
                    except ValueError:
                        check(a == b, f"{name} {k}: {a!r} vs {b!r}")
finish()
