"""Shared bits of the pdk tests: paths, a runner that returns (rc, stderr), a check counter."""
import os
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1])
PDK_SCRIPTS = os.path.join(ROOT, "scripts", "pdk")
COMMITTED = os.path.join(ROOT, "configs", "cost", "sky130")
# The project's ngspice characterization (the cross-check of the published data, docs/cost.md 11.10).
LIB = os.path.join(COMMITTED, "sky130_fd_sc_hd_subset.lib")
# The node data the flow maps to (SkyWater's published tt corner) and times sign-off with (ss);
# HIFSIM_PDK_LIB: map to another Liberty (the mutation check of docs/cost.md §11.6).
NODE_LIB = os.environ.get("HIFSIM_PDK_LIB") or os.path.join(COMMITTED, "sky130_fd_sc_hd__tt_025C_1v80.lib.gz")
SIGNOFF_LIB = os.path.join(COMMITTED, "sky130_fd_sc_hd__ss_100C_1v60.lib.gz")


def step(name):
    """The command of a step of the flow: the module hifsim_flows.pdk.<name> (PYTHONPATH: python/,
    set by tests/pdk/CMakeLists.txt)."""
    return [sys.executable, "-m", "hifsim_flows.pdk." + name]

_fails = []
_passes = [0]


def check(cond, what):
    if cond:
        _passes[0] += 1
    else:
        _fails.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def pdk_src():
    rc, out, err = run(["bash", os.path.join(PDK_SCRIPTS, "ensure_pdk.sh")])
    if rc != 0:
        print(err, file=sys.stderr)
        sys.exit(1)
    return out.strip().splitlines()[-1]


def finish():
    print(f"{_passes[0]} passed, {len(_fails)} failed")
    sys.exit(1 if _fails else 0)
