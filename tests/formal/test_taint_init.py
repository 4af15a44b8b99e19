#!/usr/bin/env python3
"""formal.taint_init_guard: the taint model (formal/taint.py) gives a power-up input only to the
registers without an initial value, so a declaration initialiser in the RTL would pass for a reset
(a real flop powers up arbitrary) and hide an X. prove.py refuses such a unit: the taint AIG of the
small transpose tile builds from rtl/, and from a copy whose bank flags get an initialiser
instead of their reset it must fail, naming the reason.

  test_taint_init.py ROOT
"""
import os
import shutil
import sys
import tempfile

ROOT = sys.argv[1]
sys.path.insert(0, os.path.join(ROOT, "formal"))
import jobs  # noqa: E402
import prove  # noqa: E402

JOB = jobs.JOBS["taint.transpose_buffer.t2_w1.stages1"]
DECL = "  logic [1:0]    full_q;"
with tempfile.TemporaryDirectory(prefix="hifsim-taint-init-") as tmp:
    prove.yosys_aig(JOB, os.path.join(ROOT, "rtl"), tmp)  # the committed RTL: no initialiser
    rtl = os.path.join(tmp, "rtl")
    shutil.copytree(os.path.join(ROOT, "rtl"), rtl)
    path = os.path.join(rtl, "transpose_buffer.sv")
    text = open(path).read()
    if text.count(DECL) != 1:
        sys.exit(f"test_taint_init.py: `{DECL.strip()}` not found once in rtl/transpose_buffer.sv")
    open(path, "w").write(text.replace(DECL, "  logic [1:0]    full_q = 2'b00;"))
    try:
        os.makedirs(os.path.join(tmp, "out"))
        prove.yosys_aig(JOB, rtl, os.path.join(tmp, "out"))
    except RuntimeError as e:
        if "declaration initialiser" not in str(e):
            sys.exit(f"test_taint_init.py: failed, but not for the initialiser:\n{e}")
        print("formal.taint_init_guard: an initialiser in the unit is refused:", str(e).splitlines()[0])
        sys.exit(0)
    sys.exit("test_taint_init.py: a unit register with an initialiser was accepted by the taint flow")
