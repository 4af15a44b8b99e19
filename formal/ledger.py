#!/usr/bin/env python3
"""The formal-long ledger: every long test's verdict recorded against the exact inputs it read.

formal-long is several CPU hours on 2 cores, more than one session gives it with the machine to
itself, and the tree moves on between runs. A verdict stays valid while the files and records the
test read are unchanged, so each run is recorded with a fingerprint of those inputs, and `check`
tells which tests of the current tree have a passing verdict on their current inputs and which
must still be run.

  ledger.py fingerprint TEST...              the fingerprint of each test (formal.<job> or
                                             formal.<job>.mutants) in this tree
  ledger.py record LOG... [--ledger FILE]    append the verdicts of ctest logs (`ctest
                                             --output-on-failure` output) run in this tree
  ledger.py check [--ledger FILE] [--all]    each formal-long test of this tree: current (passed
                                             on these inputs), failed, stale (inputs changed
                                             since it passed) or never run; exit 0 when every one
                                             is current; --all lists every test, not only the
                                             ones to run
  ledger.py pending [--ledger FILE]          the tests to run, as one ctest -R regex

A test's inputs: its job record (formal/jobs.py; not its label), the contents of the RTL and
formal files the job names (a unit job: the unit's file list rtl/<unit>.f expanded), for a
mutant check the records of its mutants (formal/mutants.py), the scripts that build and solve
the model (prove.py, taint.py, the wrappers, spec_tables.py) and the Yosys and ABC versions.
The ledger is docs/results/formal-long-ledger.tsv: test, fingerprint, verdict, wall seconds,
the log's date (UTC), commit, one line per verdict, newest last.
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import jobs as jobs_mod  # noqa: E402
import mutants as mutants_mod  # noqa: E402
from mutate_rtl import list_sources  # noqa: E402

LEDGER = os.path.join(ROOT, "docs", "results", "formal-long-ledger.tsv")
TOOL_SCRIPTS = ["prove.py", "taint.py", "nox_wrap.py", "ctrl_wrap.py", "spec_tables.py"]
# formal-long tests that are not jobs: the script and the files they read
NON_JOB = {"formal.round_params": ["formal/round_params.py", "formal/round_params.txt", "rtl/*"]}


def _tool_versions():
    out = []
    for cmd in (["yosys", "-V"], ["yosys-abc", "-c", "version"]):
        try:
            out.append(subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout.strip())
        except OSError:
            out.append(f"{cmd[0]} missing")
    return "\n".join(out)


def _files_of(job):
    """The job's input files, relative to the tree root."""
    if job.get("unit"):
        rtl = [job["unit"] + ".f"] + list_sources(os.path.join(ROOT, "rtl", job["unit"] + ".f")) + [job["unit"] + ".sv"]
    else:
        rtl = job["rtl"]
    return [os.path.join("rtl", f) for f in rtl] + [os.path.join("formal", f) for f in job["formal"]]


def _expand(pattern):
    if pattern.endswith("/*"):
        folder = os.path.join(ROOT, pattern[:-2])
        return sorted(os.path.join(pattern[:-2], f) for f in os.listdir(folder)
                      if os.path.isfile(os.path.join(folder, f)))
    return [pattern]


def fingerprint(test, tools):
    h = hashlib.sha256()
    h.update(tools.encode())
    if test in NON_JOB:
        files = [f for p in NON_JOB[test] for f in _expand(p)]
        record = {"test": test}
    else:
        m = re.fullmatch(r"formal\.(.+?)(\.mutants)?", test)
        name = m.group(1) if m and m.group(1) in jobs_mod.JOBS else None
        if name is None:
            raise KeyError(f"ledger.py: {test} is not a test of formal/jobs.py")
        job = {k: v for k, v in jobs_mod.JOBS[name].items() if k != "label"}
        record = {"job": job, "kill": bool(m.group(2))}
        if m.group(2):
            record["mutants"] = [mutants_mod.MUTANTS[i] for i in mutants_mod.for_job(name)]
        files = _files_of(job) + [os.path.join("formal", f) for f in TOOL_SCRIPTS]
    h.update(json.dumps(record, sort_keys=True, default=str).encode())
    for f in sorted(set(files)):
        h.update(f.encode() + b"\0")
        h.update(_read(f))
    return h.hexdigest()[:16]


_CONTENT = {}


def _read(f):
    """A file's bytes, read once per run: most tests share the solver scripts and many their RTL."""
    if f not in _CONTENT:
        with open(os.path.join(ROOT, f), "rb") as fh:
            _CONTENT[f] = fh.read()
    return _CONTENT[f]


def long_tests():
    """The formal-long tests of this tree, as CTest names them (tests/formal/CMakeLists.txt)."""
    out = []
    for name, job in jobs_mod.JOBS.items():
        if job["label"] == "formal-long":
            out.append(f"formal.{name}")
        if jobs_mod.kill_label(name) == "formal-long" and mutants_mod.for_job(name):
            out.append(f"formal.{name}.mutants")
    return out + list(NON_JOB)


def read_ledger(path):
    rows = []
    if os.path.exists(path):
        for line in open(path):
            if line.strip() and not line.startswith("#"):
                rows.append(line.rstrip("\n").split("\t"))
    return rows


def parse_ctest(log):
    """(test, verdict, seconds) of each finished test of a ctest log."""
    pat = re.compile(r"Test +#\d+: (\S+) \.*\s*(\*\*\*)?(Passed|Failed|Timeout|Not Run|Exception\S*)\s+([\d.]+) sec")
    for line in open(log):
        m = pat.search(line)
        if m:
            yield m.group(1), "passed" if m.group(3) == "Passed" else "failed", float(m.group(4))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("fingerprint")
    p.add_argument("tests", nargs="+")
    p = sub.add_parser("record")
    p.add_argument("logs", nargs="+")
    p.add_argument("--ledger", default=LEDGER)
    for c in ("check", "pending"):
        p = sub.add_parser(c)
        p.add_argument("--ledger", default=LEDGER)
        if c == "check":
            p.add_argument("--all", action="store_true")
    a = ap.parse_args()
    tools = _tool_versions()
    if a.cmd == "fingerprint":
        for t in a.tests:
            print(t, fingerprint(t, tools))
        return 0
    if a.cmd == "record":
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True).stdout.strip() or "unknown"
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        if dirty:
            raise SystemExit("ledger.py record: the tree has uncommitted changes; record from the commit the run used")
        new, long = [], set(long_tests())
        for log in a.logs:
            when = datetime.datetime.utcfromtimestamp(os.path.getmtime(log)).strftime("%Y-%m-%d")
            for test, verdict, sec in parse_ctest(log):
                if test in long:  # a log may hold default-label tests too (formal.ledger, formal.gate_equiv.*)
                    new.append([test, fingerprint(test, tools), verdict, f"{sec:.1f}", when, commit])
        fresh = not os.path.exists(a.ledger) or os.path.getsize(a.ledger) == 0
        with open(a.ledger, "a") as f:
            if fresh:
                f.write("# test\tfingerprint\tverdict\twall_s\tdate\tcommit   (formal/ledger.py)\n")
            for r in new:
                f.write("\t".join(r) + "\n")
        print(f"ledger.py: {len(new)} verdicts recorded in {os.path.relpath(a.ledger)}")
        return 0
    last = {}
    for r in read_ledger(a.ledger):
        last.setdefault(r[0], []).append(r)
    status = {}
    for t in long_tests():
        fp = fingerprint(t, tools)
        rows = [r for r in last.get(t, []) if r[1] == fp]
        if rows:
            status[t] = ("current" if rows[-1][2] == "passed" else "failed", rows[-1])
        else:
            status[t] = ("stale" if t in last else "never run", last.get(t, [None])[-1])
    if a.cmd == "pending":
        todo = [t for t, (s, _) in status.items() if s != "current"]
        print("^(" + "|".join(re.escape(t) for t in todo) + ")$" if todo else "")
        return 0
    counts = {}
    for t, (s, row) in status.items():
        counts[s] = counts.get(s, 0) + 1
        if a.all or s != "current":
            where = f"  ({row[2]} {row[3]} s, {row[4]}, {row[5]})" if row else ""
            print(f"{s:10s} {t}{where}")
    print(f"ledger.py: {len(status)} formal-long tests: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    return 0 if counts.get("current", 0) == len(status) else 1


if __name__ == "__main__":
    sys.exit(main())
