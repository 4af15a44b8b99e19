#!/usr/bin/env python3
"""CTest cosim.mutants_check_rules: `mutate_rtl.py check` rejects a broken per-unit equivalence, and
`report` judges stored results against the current table.

Each case is the real table (cosim/mutation/mutants.py) with one deliberate defect appended as a
line of Python; check must exit 1 and name the defect. Then a results file holding a "survived"
round.subnormal_boundary on nvfp4_dot64 (where the table marks it equivalent) and on bf16_dot64
(where it must be killed) must be reported as one equivalent and one survivor."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "mutate_rtl.py")
TABLE = os.path.join(ROOT, "cosim", "mutation", "mutants.py")

SUBNORMAL = 'next(m for m in MUTANTS if m["id"] == "round.subnormal_boundary")'
TIES_ODD = 'next(m for m in MUTANTS if m["id"] == "round.ties_to_odd")'
CASES = [  # (defect appended to the table, text check must print)
    (f'{SUBNORMAL}["equivalent_in"]["fp32_acc"] = "not a unit of this mutant"',
     "round.subnormal_boundary: equivalent_in names fp32_acc"),
    (f'{SUBNORMAL}["equivalent_in"]["bf16_dot64"] = "  "',
     "round.subnormal_boundary: equivalent_in names bf16_dot64"),
    (f'{TIES_ODD}["equivalent_in"]["nvfp4_dot64"] = "the CI mutant of nvfp4_dot64"',
     "round.ties_to_odd: the CI check of nvfp4_dot64 must be a killed mutant"),
]


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    failures = []
    base = run("check")
    if base.returncode != 0:
        failures.append(f"the real table fails check: {base.stderr.strip()}")
    with tempfile.TemporaryDirectory() as tmp:
        for defect, expected in CASES:
            table = os.path.join(tmp, "mutants.py")
            with open(TABLE) as f, open(table, "w") as out:
                out.write(f.read() + "\n" + defect + "\n")
            r = run("check", "--table", table)
            if r.returncode != 1 or expected not in r.stderr:
                failures.append(f"{defect!r}: exit {r.returncode}, expected 1 and {expected!r}; stderr: {r.stderr.strip()}")

        stored = {"id": "round.subnormal_boundary", "kind": "", "what": "", "expect": "killed",
                  "result": "survived", "by": "", "verdict": "survived", "seconds": 0}
        with open(os.path.join(tmp, "results.json"), "w") as f:
            json.dump({"nvfp4_dot64": [dict(stored)], "bf16_dot64": [dict(stored)]}, f)
        r = run("report", "--build-dir", tmp)
        want = ["nvfp4_dot64            0/0   (1 of the table's 19 mutants run, 1 equivalent)",
                "bf16_dot64             0/1   (1 of the table's 19 mutants run, 0 equivalent)",
                "1 mutants neither killed nor confirmed equivalent"]
        if r.returncode != 1 or any(w not in r.stdout for w in want):
            failures.append(f"report: exit {r.returncode}, expected 1 and {want}; stdout: {r.stdout.strip()}")
    for f in failures:
        print("FAIL " + f)
    print("PASS" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
