"""Shared checks of the convention tests (hif4_conventions.py, mx_conventions.py): the failure list,
and a refused command line (one stderr line naming the option, non-zero exit, no output)."""
import subprocess

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def expect_refused(args, opt, out):
    """`args` (a hifsim command writing `out`) must fail with exactly one error line naming `opt`."""
    import os
    p = subprocess.run(args, capture_output=True, text=True)
    lines = p.stderr.strip().splitlines()
    check(p.returncode != 0 and len(lines) == 1 and opt in lines[0] and not os.path.exists(out),
          f"{' '.join(args[1:])}: want one error line naming {opt}, got rc {p.returncode}: {p.stderr.strip()}")


def finish():
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("ok")
    return 0
