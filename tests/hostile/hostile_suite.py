#!/usr/bin/env python3
"""Hostile inputs of issue 28, each with its expected verdict (label `hostile`, docs/testing.md).

Every case runs in its own process (a segmentation fault or a run of years fails one case, not the
suite) under a memory limit and a deadline, through the `hifsim` program or the Python package of
the build under test. Verdicts:
  error  exit status 2 (CLI) or one hifsim.Error (Python), whose one-line message contains the
         listed words (file/option, field, reason); nothing listed in `absent` exists afterwards;
  ok     exit status 0 and the case's own check passes.
A crash, a TypeError/UnicodeDecodeError, a timeout or a wrong verdict fails the case. Run with an
older build (--hifsim old/bin/hifsim --python old/python) to see which cases it failed.

Usage: hostile_suite.py --hifsim build/bin/hifsim --python build/python [--only SUBSTRING]
"""
import argparse
import importlib.util
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNIT = os.path.join(ROOT, "configs", "units", "hif4-32x32.yaml")
DEADLINE = 20        # seconds per case; every case takes well under two
# The earlier kit's helpers (float32 .npy bytes, the children's 4 GiB address-space limit).
_spec = importlib.util.spec_from_file_location("cli_hostile", os.path.join(ROOT, "tests", "inputs", "cli_hostile.py"))
_kit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_kit)
npy, limit_memory = _kit.npy, _kit.limit_memory


# The Python cases: a snippet run with `import hifsim, numpy as np` and UNIT defined. An `error`
# case must raise hifsim.Error; the snippet's last expression value is not checked for `ok` cases
# (they assert what they need themselves).
PY_PRELUDE = "import hifsim, json, numpy as np, sys\nUNIT = %r\n" % UNIT
PY_RUNNER = """
try:
    exec(compile(CASE, "case", "exec"))
except hifsim.Error as e:
    print("HIFSIM_ERROR " + str(e).replace("\\n", " "))
    sys.exit(0)
except BaseException as e:
    print("OTHER_EXCEPTION " + type(e).__name__ + ": " + str(e).replace("\\n", " ")[:300])
    sys.exit(0)
print("NO_ERROR")
"""

PY_CASES = [
    # (name, snippet, verdict, words the message must contain)
    ("cost compare_units formats=[] (was a segfault)",
     "hifsim.cost(compare_units=True, formats=[])", "error", ["formats", "no format given"]),
    ("cost sample=10**12 (ran for years)",
     "hifsim.cost(UNIT, gemm=(64, 64, 256), sample=10**12)", "error", ["sample", "out of range"]),
    ("run_unit cost_sample=10**12",
     "hifsim.run_unit(UNIT, gemm=(64, 64, 256), cost_sample=10**12)", "error", ["cost_sample", "out of range"]),
    ("cost sample=2**70 (beyond C++ integers)",
     "hifsim.cost(UNIT, gemm=(64, 64, 256), sample=2**70)", "error", ["sample", "out of range"]),
    ("cost sample as text",
     "hifsim.cost(UNIT, gemm=(64, 64, 256), sample='many')", "error", ["sample", "not an integer"]),
    ("run_unit gemm=(64.9, ...) (was truncated)",
     "hifsim.run_unit(UNIT, gemm=(64.9, 64, 64))", "error", ["gemm", "64.9", "not an integer"]),
    ("run_unit gemm of two values",
     "hifsim.run_unit(UNIT, gemm=(64, 64))", "error", ["argument gemm", "M,N,K"]),
    ("run_unit gemm=(0, 64, 64)",
     "hifsim.run_unit(UNIT, gemm=(0, 64, 64))", "error", ["gemm", "out of range"]),
    ("run_unit threads=-1",
     "hifsim.run_unit(UNIT, gemm=(8, 8, 64), threads=-1)", "error", ["threads", "out of range"]),
    ("run_unit seed=-1",
     "hifsim.run_unit(UNIT, gemm=(8, 8, 64), seed=-1)", "error", ["seed", "non-negative"]),
    ("quantize_dequantize threads=1.5",
     "hifsim.quantize_dequantize(np.ones((2, 64), np.float32), 'hif4', threads=1.5)", "error",
     ["threads", "1.5", "not an integer"]),
    ("quantize_dequantize unknown keyword",
     "hifsim.quantize_dequantize(np.ones((2, 64), np.float32), 'hif4', mx_scales='ceil')", "error",
     ["mx_scales", "unknown keyword argument"]),
    ("quantize_dequantize mx_scale=3",
     "hifsim.quantize_dequantize(np.ones((2, 64), np.float32), 'mxfp4', mx_scale=3)", "error",
     ["mx_scale", "'3' is not floor, ceil, rceil, pow2-ceil or even"]),
    ("quantize_dequantize saturate='yes'",
     "hifsim.quantize_dequantize(np.ones((2, 64), np.float32), 'hif8', saturate='yes')", "error",
     ["saturate", "True or False"]),
    ("quantize format given as bytes",
     "hifsim.quantize(np.ones((2, 64), np.float32), b'hif4')", "error", ["format", "text"]),
    ("quantize format not UTF-8 text",
     "hifsim.quantize(np.ones((2, 64), np.float32), '\\udcff')", "error", ["format", "unknown tensor format"]),
    ("gemm format=None",
     "hifsim.gemm(np.ones((2, 64), np.float32), np.ones((2, 64), np.float32), None)", "error", ["format", "text"]),
    ("gemm acc=7",
     "hifsim.gemm(np.ones((2, 64), np.float32), np.ones((2, 64), np.float32), 'hif4', acc=7)", "error", ["acc"]),
    ("gemm align_width for hif4",
     "hifsim.gemm(np.ones((2, 64), np.float32), np.ones((2, 64), np.float32), 'hif4', align_width=8)", "error",
     ["align_width", "applies only to hif8 and bf16"]),
    ("dot 2-D input (was flattened)",
     "hifsim.dot(np.ones((2, 64), np.float32), np.ones((2, 64), np.float32), 'hif4')", "error",
     ["argument a", "expected a 1-D vector"]),
    ("cost unknown node",
     "hifsim.cost(UNIT, gemm=(8, 8, 64), node='1nm')", "error", ["energy-1nm.yaml"]),
    ("cost set with a non-UTF-8 path",
     "hifsim.cost(UNIT, gemm=(8, 8, 64), set=['array.rows=\\udcff'])", "error", ["array.rows"]),
    ("run_unit config None",
     "hifsim.run_unit(None, gemm=(8, 8, 64))", "error", ["config"]),
    ("cost sample at its cap on a tiny workload (capped at the dot-op count)",
     "import time; t = time.time()\n"
     "r = hifsim.cost(UNIT, gemm=(2, 2, 64), sample=100000000)\n"
     "assert time.time() - t < 10, 'sampling not capped'\n"
     "assert r['cost']['area']['total_mm2'] > 0", "ok", []),
    ("run_unit a numpy operand pair",
     "a = np.ones((4, 64), np.float32); b = np.ones((3, 64), np.float32)\n"
     "r = hifsim.run_unit(UNIT, gemm=(4, 3, 64), a=a, b=b, cost=False)\n"
     "assert 'cycles' in json.dumps(r), r", "ok", []),
]


class Suite:
    def __init__(self, hifsim, pythonpath, tmp, only):
        self.hifsim, self.pythonpath, self.tmp, self.only = hifsim, pythonpath, tmp, only
        self.failures, self.count = [], 0

    def _run(self, argv, env=None, file_limit=None):
        def limits():
            limit_memory()
            if file_limit is not None:  # a "full disk": writes beyond it fail with EFBIG
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))
        try:
            return subprocess.run(argv, cwd=self.tmp, capture_output=True, text=True, errors="replace",
                                  timeout=DEADLINE, preexec_fn=limits, env=env)
        except subprocess.TimeoutExpired:
            return None

    def _verdict(self, name, problems, text):
        if problems:
            self.failures.append(f"{name}: {'; '.join(problems)}\n    output: {text[:400]}")
            print(f"FAIL {name}: {'; '.join(problems)}")
        else:
            print(f"ok   {name}: {text[:200]}")

    def python(self, name, snippet, verdict, words):
        if self.only and self.only not in name:
            return
        self.count += 1
        env = dict(os.environ, PYTHONPATH=self.pythonpath)
        p = self._run([sys.executable, "-c", PY_PRELUDE + "CASE = %r\n" % snippet + PY_RUNNER], env)
        if p is None:
            return self._verdict(name, [f"still running after {DEADLINE} s"], "")
        out = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        problems = []
        if p.returncode != 0:
            problems.append(f"the interpreter died (status {p.returncode}): {p.stderr.strip()[-200:]}")
        elif verdict == "error":
            if not out.startswith("HIFSIM_ERROR "):
                problems.append("expected hifsim.Error, got " + (out or "nothing"))
            problems += [f"message lacks '{w}'" for w in words if w not in out]
        elif out != "NO_ERROR":
            problems.append("expected success, got " + out)
        self._verdict(name, problems, out)

    def cli(self, name, args, verdict, words=(), absent=(), check=None, env=None, file_limit=None):
        if self.only and self.only not in name:
            return
        self.count += 1
        p = self._run([self.hifsim] + args, env, file_limit)
        if p is None:
            return self._verdict(name, [f"still running after {DEADLINE} s"], "")
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        text = "\n".join(lines)
        problems = []
        if verdict == "error":
            if p.returncode != 2:
                problems.append(f"exit status {p.returncode}, expected 2")
            if len(lines) != 1:
                problems.append(f"{len(lines)} stderr lines, expected 1")
            problems += [f"message lacks '{w}'" for w in words if w not in text]
        elif p.returncode != 0:
            problems.append(f"exit status {p.returncode}, expected 0")
        problems += [f"{a} exists after the error" for a in absent if os.path.lexists(os.path.join(self.tmp, a))]
        if not problems and check:
            why = check()
            if why:
                problems.append(why)
        self._verdict(name, problems, text)


def vectors_cases(s):
    """`hifsim vectors` reads its real-tensor source through the install layout and hashes it."""
    data = os.path.join(s.tmp, "data")
    os.makedirs(os.path.join(data, "traces", "sample"))
    os.symlink(os.path.join(ROOT, "configs"), os.path.join(data, "configs"))
    with open(os.path.join(data, "traces", "sample", "activations.npy"), "wb") as f:
        f.write(npy((4, 64), [0.125 * ((i % 13) - 6) for i in range(256)]))
    env = dict(os.environ, HIFSIM_DATA_DIR=data)

    def manifest_names_input():
        m = json.load(open(os.path.join(s.tmp, "vec1", "manifest.json")))
        want = os.path.join(data, "traces", "sample", "activations.npy")
        if not m.get("inputs_xxh3_64", {}).get(want):
            return f"manifest inputs {m.get('inputs_xxh3_64')} do not list {want} with its hash"
        return None

    s.cli("vectors default tensor from the data folder, hashed in the manifest",
          ["vectors", "--unit", "hif4_dot64", "--count", "30", "--out", "vec1"], "ok", check=manifest_names_input, env=env)
    os.unlink(os.path.join(data, "traces", "sample", "activations.npy"))
    s.cli("vectors without the data folder's tensor", ["vectors", "--unit", "hif4_dot64", "--count", "30", "--out", "vec2"],
          "error", ["activations.npy"], absent=["vec2/stimulus.hex", "vec2/manifest.json"], env=env)


def cli_cases(s):
    s.cli("cost --sample 10^12", ["cost", "--config", UNIT, "--gemm", "64,64,256", "--sample", "1000000000000",
                                  "--out", "c1"], "error", ["--sample", "out of range"], absent=["c1/cost.json"])
    s.cli("cost --compare-units --formats ,", ["cost", "--compare-units", "--formats", ",", "--out", "c2"], "error",
          ["--formats", "no format given"], absent=["c2/compare.json"])


def output_cases(s):
    """Outputs: the same path twice refused before any work, a failed write changing nothing,
    a replaced output keeping its mode, a name the folder cannot hold refused first."""
    t = s.tmp
    with open(os.path.join(t, "x.npy"), "wb") as f:
        f.write(npy((4, 64), [0.1 * (i % 17 - 8) for i in range(256)]))
    s.cli("gemm --stats equal to --out", ["gemm", "--format", "hif4", "--a", "x.npy", "--b", "x.npy", "--out", "c.npy",
                                          "--stats", "c.npy"], "error", ["c.npy", "named twice"], absent=["c.npy"])
    s.cli("quantize --codes equal to --out (another spelling)", ["quantize", "--format", "hif4", "--in", "x.npy",
                                                                 "--out", "y.npy", "--codes", "./y.npy"],
          "error", ["y.npy", "same file"], absent=["y.npy", "y.npy.manifest.json"])
    long_name = "q" * 245 + ".npy"  # its manifest name, + ".manifest.json", exceeds 255 bytes
    s.cli("quantize output whose manifest name exceeds NAME_MAX", ["quantize", "--format", "hif4", "--in", "x.npy",
                                                                    "--out", long_name],
          "error", ["manifest.json", "more than the 255"], absent=[long_name])
    open(os.path.join(t, "private.npy"), "wb").close()
    os.chmod(os.path.join(t, "private.npy"), 0o600)
    s.cli("a replaced 0600 output stays 0600", ["quantize", "--format", "hif4", "--in", "x.npy", "--out", "private.npy"],
          "ok", check=lambda: None if os.stat(os.path.join(t, "private.npy")).st_mode & 0o777 == 0o600
          else "mode %o" % (os.stat(os.path.join(t, "private.npy")).st_mode & 0o777))
    # A full disk in the middle of `vectors`: the earlier run's files and manifest stay as they were.
    s.cli("vectors earlier run", ["vectors", "--unit", "hif4_dot64", "--count", "20", "--out", "full"], "ok")
    if not os.path.isdir(os.path.join(t, "full")):  # skipped by --only
        return
    before = {f: open(os.path.join(t, "full", f), "rb").read() for f in os.listdir(os.path.join(t, "full"))}

    def unchanged():
        now = {f: open(os.path.join(t, "full", f), "rb").read() for f in os.listdir(os.path.join(t, "full"))}
        return None if now == before else f"the folder changed: {sorted(now)} (was {sorted(before)})"
    s.cli("vectors on a full disk changes nothing", ["vectors", "--unit", "hif4_dot64", "--count", "3000", "--out", "full"],
          "error", ["full/", "write failed"], check=unchanged, file_limit=64 << 10)


def misc_cases(s):
    """gemm --stats with NaN input, trace --config's message, sweep options that were ignored."""
    t = s.tmp
    with open(os.path.join(t, "nan.npy"), "wb") as f:
        f.write(npy((2, 64), [float("nan") if i == 3 else 0.5 for i in range(128)]))
    with open(os.path.join(t, "w.npy"), "wb") as f:
        f.write(npy((2, 64), [0.25] * 128))

    def two_nonfinite_outputs():
        st = json.load(open(os.path.join(t, "nan-stats.json")))["error_vs_fp64"]
        return None if st.get("nonfinite_outputs") == 2 else f"nonfinite_outputs {st.get('nonfinite_outputs')}, expected 2 (row 0 is NaN)"
    s.cli("gemm --stats counts NaN outputs of a NaN input", ["gemm", "--format", "hif4", "--a", "nan.npy", "--b", "w.npy",
                                                             "--out", "nan-c.npy", "--stats", "nan-stats.json", "--quiet"],
          "ok", check=two_nonfinite_outputs)
    s.cli("trace --config says what to run instead", ["trace", "--trace", os.path.join(ROOT, "traces", "sample"),
                                                      "--config", UNIT, "--out", "tr"],
          "error", ["--config", "hifsim run", "--trace"], absent=["tr/manifest.json"])
    sw = os.path.join(t, "sw.yaml")
    with open(sw, "w") as f:
        f.write("schema: hifsim-sweep/1\nname: s\nbase: %s\nworkload: {gemm: [64, 64, 64]}\ngrid:\n  array.rows: [8, 16]\n" % UNIT)
    s.cli("sweep --throttle without --emit-slurm", ["sweep", "--sweep", sw, "--out", "sw1", "--throttle", "4"],
          "error", ["--throttle", "--emit-slurm"], absent=["sw1/results.csv"])
    s.cli("sweep --cpus-per-task without --emit-slurm", ["sweep", "--sweep", sw, "--out", "sw2", "--cpus-per-task", "4"],
          "error", ["--cpus-per-task", "--emit-slurm"], absent=["sw2/results.csv"])
    s.cli("sweep --no-plots runs no Python (none here)", ["sweep", "--sweep", sw, "--out", "sw3", "--no-plots", "--quiet"],
          "ok", env=dict(os.environ, HIFSIM_PYTHON="/nonexistent/python"),
          check=lambda: None if os.path.exists(os.path.join(t, "sw3", "manifest.json")) else "no manifest")


def yaml_cases(s):
    """YAML: a deep file and a second document are reported as what they are."""
    t = s.tmp
    with open(os.path.join(t, "deep.yaml"), "w") as f:
        f.write("schema: hifsim-unit/1\nname: " + "[" * 5000 + "]" * 5000 + "\n")
    s.cli("unit config nested 5000 deep", ["run", "--config", "deep.yaml", "--gemm", "8,8,8", "--out", "y1"], "error",
          ["deep.yaml", "line 2", "nested deeper than 256 levels"], absent=["y1/manifest.json"])
    with open(os.path.join(t, "two.yaml"), "w") as f:
        f.write(open(UNIT).read() + "---\narray: {rows: 2}\n")
    s.cli("unit config with a second document", ["run", "--config", "two.yaml", "--gemm", "8,8,8", "--out", "y2"], "error",
          ["two.yaml", "second YAML document"], absent=["y2/manifest.json"])
    with open(os.path.join(t, "two-sweep.yaml"), "w") as f:
        f.write("schema: hifsim-sweep/1\nname: s\nbase: %s\nworkload: {gemm: [64, 64, 64]}\ngrid:\n  array.rows: [8]\n"
                "---\ngrid:\n  array.rows: [16]\n" % UNIT)
    s.cli("sweep file with a second document", ["sweep", "--sweep", "two-sweep.yaml", "--out", "y3", "--no-plots"], "error",
          ["two-sweep.yaml", "line 8", "second YAML document"], absent=["y3/results.csv"])


def sweep_cases(s):
    """Sweep point ids include the contents of the trace's tensors (they hashed trace.yaml only)."""
    t = s.tmp
    d = _kit.captured_trace(os.path.join(t, "cap"))  # one op, A 2 x 64 in a.npy, B 3 x 64
    with open(os.path.join(t, "badgrid.yaml"), "w") as f:
        f.write("schema: hifsim-sweep/1\nname: s\nbase: %s\nworkload: {gemm: [64, 64, 64]}\ngrid:\n  array.rows: [8, 0]\n" % UNIT)
    s.cli("sweep grid value out of range names the sweep file, key and value",
          ["sweep", "--sweep", "badgrid.yaml", "--out", "bg", "--no-plots"], "error",
          ["badgrid.yaml", "grid.array.rows = 0", "must be in [1, 1024]"], absent=["bg/results.csv"])
    # A record file that is huge and sparse (no newline): read whole, it ended in an internal
    # out-of-memory; streamed, it is one bad line and the sweep runs its points.
    gs = os.path.join(t, "small-sweep.yaml")
    with open(gs, "w") as f:
        f.write("schema: hifsim-sweep/1\nname: s\nbase: %s\nworkload: {gemm: [64, 64, 64]}\ngrid:\n  array.rows: [8]\n" % UNIT)
    os.makedirs(os.path.join(t, "sparse", "records"))
    with open(os.path.join(t, "sparse", "records", "x-host-1-0.jsonl"), "wb") as f:
        f.truncate(6 << 30)  # 6 GiB of holes, more than the children's 4 GiB address space
    s.cli("sweep resumed over a 6 GiB sparse record file", ["sweep", "--sweep", gs, "--out", "sparse", "--no-plots", "--quiet"],
          "ok", check=lambda: None if os.path.exists(os.path.join(t, "sparse", "results.csv")) else "no results.csv")
    sw = os.path.join(t, "cap-sweep.yaml")
    with open(sw, "w") as f:
        f.write("schema: hifsim-sweep/1\nname: s\nbase: %s\nworkload: {trace: cap}\ngrid:\n  array.rows: [8]\n" % UNIT)

    def ids_of_dry_run():
        p = s._run([s.hifsim, "sweep", "--sweep", sw, "--out", "capout", "--dry-run"])
        return p.stdout.split()[0] if p and p.returncode == 0 and p.stdout.split() else None
    if s.only and s.only not in "sweep point id follows the trace's tensor contents":
        return
    first = ids_of_dry_run()
    with open(os.path.join(d, "a.npy"), "wb") as f:
        f.write(npy((2, 64), [0.5 * ((i % 7) - 3) for i in range(128)]))
    second = ids_of_dry_run()
    s.count += 1
    s._verdict("sweep point id follows the trace's tensor contents",
               [] if first and second and first != second else [f"ids {first} and {second}: a changed tensor kept the id"],
               f"{first} -> {second}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hifsim", required=True)
    ap.add_argument("--python", required=True, help="folder holding the hifsim package (build/python)")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hifsim-hostile2-") as tmp:
        s = Suite(os.path.abspath(args.hifsim), os.path.abspath(args.python), tmp, args.only)
        for case in PY_CASES:
            s.python(*case)
        cli_cases(s)
        output_cases(s)
        misc_cases(s)
        yaml_cases(s)
        sweep_cases(s)
        vectors_cases(s)
    print(f"\n{s.count - len(s.failures)} of {s.count} cases as expected")
    for f in s.failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if s.failures else 0


if __name__ == "__main__":
    sys.exit(main())
