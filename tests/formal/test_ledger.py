#!/usr/bin/env python3
"""formal.ledger: formal/ledger.py keeps a long test's verdict only while the test's inputs are
unchanged. In a copy of the tree (a git repository of its own): a verdict recorded from a ctest
log is current; editing a file the job reads makes it stale, editing one it does not read leaves
it current; a mutant record changed makes the mutant check stale and not the proof; a failed
verdict is reported failed; a log's default-label tests are not recorded; and a tree with
uncommitted changes is refused.

  test_ledger.py ROOT
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = sys.argv[1]
PROOF, KILL = "formal.ctrl.hif4_dot64.stages3", "formal.ctrl.hif4_dot64.stages3.mutants"
OTHER = "formal.ctrl.sr_quantizer.stages3"


def run(tree, *args, ok=(0, 1)):
    r = subprocess.run([sys.executable, os.path.join(tree, "formal", "ledger.py"), *args],
                       capture_output=True, text=True)
    if r.returncode not in ok:
        sys.exit(f"test_ledger.py: ledger.py {' '.join(args)} exited {r.returncode}:\n{r.stdout}{r.stderr}")
    return r


def status(tree, ledger):
    out = run(tree, "check", "--all", "--ledger", ledger).stdout
    st = {}
    for line in out.splitlines():
        for t in (PROOF, KILL, OTHER):
            if line.split("  (")[0].endswith(" " + t):
                st[t] = line.split(" formal.")[0].strip()
    return st


def git(tree, *args):
    subprocess.run(["git", "-C", tree, *args], check=True, capture_output=True)


def edit(path, old, new):
    text = open(path).read()
    if text.count(old) < 1:
        sys.exit(f"test_ledger.py: `{old}` not in {path}")
    open(path, "w").write(text.replace(old, new, 1))


def expect(got, want, what):
    if got != want:
        sys.exit(f"test_ledger.py: {what}: {got}, expected {want}")


with tempfile.TemporaryDirectory(prefix="hifsim-ledger-") as tmp:
    tree = os.path.join(tmp, "tree")
    for d in ("formal", "rtl"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tree, d), ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("scripts/mutate_rtl.py", "cosim/mutation/mutants.py"):   # the file lists, the mutant table
        os.makedirs(os.path.dirname(os.path.join(tree, f)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, f), os.path.join(tree, f))
    git(tree, "init", "-q")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@t", "add", "-A")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "copy")
    # the ctrl jobs are `formal`; check lists formal-long tests only, so make these three long here
    edit(os.path.join(tree, "formal", "jobs.py"), "\nOPEN = {", "\nfor _n in ('ctrl.hif4_dot64.stages3', "
         "'ctrl.sr_quantizer.stages3'):\n    JOBS[_n]['label'] = 'formal-long'\nKILL_DEFAULT.discard("
         "'ctrl.hif4_dot64.stages3')\nOPEN = {")
    git(tree, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "long")
    log, ledger = os.path.join(tmp, "ctest.log"), os.path.join(tmp, "ledger.tsv")
    open(log, "w").write(f"  1/5 Test #1: {PROOF} ....   Passed    1.20 sec\n"
                         f"  2/5 Test #2: {KILL} ....   Passed    3.40 sec\n"
                         f"  3/5 Test #3: {OTHER} ....***Failed    0.90 sec\n"
                         "  4/5 Test #4: formal.ledger ....   Passed    1.10 sec\n"    # default label: not kept
                         "  5/5 Test #5: formal.ctrl.hif4_dot64.stages0 ....   Passed    0.50 sec\n")
    open(os.path.join(tree, "rtl", "scratch.txt"), "w").write("x")   # untracked: allowed
    r = run(tree, "record", log, "--ledger", ledger, ok=(0,))
    expect(r.stdout.split(":")[1].split(" verdicts")[0].strip(), "3", "verdicts recorded (formal-long tests only)")
    expect(status(tree, ledger), {PROOF: "current", KILL: "current", OTHER: "failed"}, "after recording")
    # a file hif4_dot64 does not read (sr_quantizer's RTL): the hif4 verdicts stay current
    edit(os.path.join(tree, "rtl", "sr_quantizer.sv"), "\n", "\n// edited\n")
    expect(status(tree, ledger), {PROOF: "current", KILL: "current", OTHER: "stale"}, "sr_quantizer.sv edited")
    # a mutant record of the check: the check is stale, the proof is not
    mut = os.path.join(tree, "formal", "mutants.py")
    edit(mut, "MUTANTS = dict(_table())", "MUTANTS = dict(_table())\nMUTANTS['pipe.no_pass_through'] = "
         "dict(MUTANTS['pipe.no_pass_through'], why='edited')")
    expect(status(tree, ledger), {PROOF: "current", KILL: "stale", OTHER: "stale"}, "a mutant record edited")
    # a file the job reads: stale
    edit(os.path.join(tree, "rtl", "hif4_dot64.sv"), "\n", "\n// edited\n")
    expect(status(tree, ledger)[PROOF], "stale", "hif4_dot64.sv edited")
    # record refuses a tree whose tracked files differ from its commit
    r = run(tree, "record", log, "--ledger", ledger, ok=(1,))
    if "uncommitted" not in r.stdout + r.stderr:
        sys.exit("test_ledger.py: record accepted a tree with uncommitted changes:\n" + r.stdout + r.stderr)
    print("formal.ledger: verdicts current on unchanged inputs, stale on changed ones, failed kept; "
          "an uncommitted tree refused")
