#!/usr/bin/env python3
"""The sweep's Slurm path on a real one-node cluster (label `slurm`, docs/sweeps.md).

scripts/slurm/local_cluster.sh starts munged, slurmctld and slurmd as root with a private
configuration under a temporary folder; whatever happens, the cluster is stopped by pid at the
end (and by its watchdog if this process is killed), and the test fails if any Slurm or munge
process it started is still running. On the cluster, with the commands docs/sweeps.md gives:

1. a 60-point sweep emitted as a job array of 4 shards and submitted with plain `sbatch`; after
   the array, `hifsim sweep --merge-only` gives a results.csv equal, row for row and byte for
   byte, to a local `hifsim sweep --jobs 2` of the same sweep;
2. the same sweep through submit.sh (the array, then the merge with --dependency=afterok) in a
   folder whose name is full of shell syntax, with a sweep name holding newlines and $(...):
   one array task is cancelled mid-way with scancel, so Slurm cancels the merge; `submit.sh 3`
   resubmits that task alone, which evaluates exactly its missing points, and its dependent
   merge writes a results.csv equal to the local one; every log is where the docs say, and
   nothing in a name or path ever ran.

Not root: skipped (exit 77) naming what is missing. Root: any failure to install or start the
cluster is a test failure.
"""
import csv
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
HIFSIM = os.environ.get("HIFSIM_BIN") or os.path.join(ROOT, "build", "bin", "hifsim")
CLUSTER = os.path.join(ROOT, "scripts", "slurm", "local_cluster.sh")
TOOLS = ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo")
DAEMONS = ("munged", "slurmctld", "slurmd", "slurmstepd", "slurmscriptd")
SKIP = 77
WAIT_S = 240           # bound on every wait for jobs
COST_SAMPLE = "4096"   # ~0.1 s per point: a 15-point task runs long enough to be cancelled mid-way
TASKS = 4

SWEEP = """# 60 timing+cost points (no accuracy axis). The name is hostile on purpose: it must reach the
# Slurm files only as data.
schema: hifsim-sweep/1
name: "slurm\\n$(touch PWNED)\\nx"
base: {base}
workload: {{gemm: [64, 64, 256]}}
set: {{array.drain_width: 0}}
grid:
  array.rows: [4, 8, 16, 32, 64]
  array.cols: [4, 8, 16]
  memory.bytes_per_cycle: [32, 64, 128, 256]
"""


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def log(msg):
    print(f"[slurm-test {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(argv, env=None, check_rc=True, cwd=None):
    r = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd)
    if check_rc and r.returncode != 0:
        raise Failure(f"{' '.join(argv)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return r


def daemon_pids():
    """pid -> name of every running Slurm or munge daemon (on the whole machine)."""
    found = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/comm") as f:
                    name = f.read().strip()
            except OSError:
                continue
            if name in DAEMONS:
                found[int(p)] = name
    return found


def ensure_installed():
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if os.geteuid() != 0:
        what = f"; also missing: {', '.join(missing)} (sudo bash scripts/setup.sh --slurm)" if missing else ""
        print(f"SKIPPED: not root: a private Slurm cluster (slurmd, munged) needs root{what}", file=sys.stderr)
        sys.exit(SKIP)
    if missing:
        log(f"installing slurm-wlm and munge (missing: {', '.join(missing)})")
        run(["bash", os.path.join(ROOT, "scripts", "setup.sh"), "--slurm"])
        still = [t for t in TOOLS if shutil.which(t) is None]
        check(not still, f"scripts/setup.sh --slurm did not install {', '.join(still)}")


def read_csv(path):
    with open(path, newline="") as f:
        return f.read()


def records(out):
    """point id -> list of record files holding it, from every complete line."""
    found = {}
    d = os.path.join(out, "records")
    for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        with open(os.path.join(d, name)) as f:
            for line in f:
                if line.endswith("\n"):
                    found.setdefault(line[7:23], []).append(name)
    return found


class Cluster:
    def __init__(self, folder):
        self.folder = folder
        self.env = dict(os.environ, SLURM_CONF=os.path.join(folder, "slurm.conf"), HIFSIM_LOCAL_CLUSTER=folder)

    def start(self):
        r = run(["bash", CLUSTER, "start", self.folder, "--owner", str(os.getpid())], check_rc=False)
        if r.returncode != 0:
            raise Failure(f"the one-node Slurm cluster did not start (running as root):\n{r.stdout}\n{r.stderr}")
        log(r.stdout.strip())

    def stop(self):
        return run(["bash", CLUSTER, "stop", self.folder], check_rc=False)

    def slurm(self, *argv, cwd=None):
        return run(list(argv), env=self.env, cwd=cwd).stdout

    def states(self, job):
        """{task or None: state} of a job (an array job: one entry per task)."""
        out = self.slurm("scontrol", "show", "job", "-o", str(job))
        st = {}
        for line in out.splitlines():
            task = re.search(r"\bArrayTaskId=(\S+)", line)
            state = re.search(r"\bJobState=(\S+)", line)
            if state:
                st[task.group(1) if task else None] = state.group(1)
        return st

    def wait_gone(self, jobs, what):
        """Waits (bounded) until no job of `jobs` is pending or running."""
        t0 = time.time()
        while time.time() - t0 < WAIT_S:
            q = self.slurm("squeue", "-h", "-j", ",".join(str(j) for j in jobs), "-o", "%i %T")
            if not q.strip():
                log(f"{what}: done after {time.time() - t0:.1f} s")
                return
            time.sleep(0.2)
        raise Failure(f"{what}: jobs {jobs} still queued after {WAIT_S} s:\n{q}")


def emit(out, sweep, extra=()):
    return run([HIFSIM, "sweep", "--sweep", sweep, "--out", out, "--emit-slurm", str(TASKS), "--cost-sample", COST_SAMPLE,
                *extra]).stdout


def scenario_plain_sbatch(c, tmp, sweep, local_csv):
    """Bullet 1: sbatch sweep.slurm, wait, --merge-only, compare."""
    out = os.path.join(tmp, "plain")
    emit(out, sweep)
    check(os.path.isdir(os.path.join(out, "logs")), "--emit-slurm did not create the log folder")
    job = int(c.slurm("sbatch", "--parsable", os.path.join(out, "sweep.slurm"), cwd=tmp).strip().split(";")[0])
    log(f"plain sbatch: array job {job}")
    c.wait_gone([job], "array of 4 tasks")
    st = c.states(job)
    check(st == {str(i): "COMPLETED" for i in range(TASKS)}, f"array tasks did not all complete: {st}")
    for i in range(TASKS):
        check(os.path.isfile(os.path.join(out, "logs", f"sweep-{job}_{i}.log")), f"no log logs/sweep-{job}_{i}.log")
    run([HIFSIM, "sweep", "--sweep", sweep, "--out", out, "--cost-sample", COST_SAMPLE, "--merge-only", "--quiet", "--no-plots"])
    got = read_csv(os.path.join(out, "results.csv"))
    check(got == local_csv, "results.csv of the Slurm array differs from the local run")
    return len(got.splitlines()) - 1


def scenario_cancel_resubmit(c, tmp, sweep, local_csv):
    """Bullets 2 and 3: submit.sh (array + dependent merge), scancel mid-way, resubmit, merge."""
    out = os.path.join(tmp, "sweep $(touch PWNED) 'q' \"dq\" %j #x")
    emit(out, sweep, ["--throttle", "2"])
    submit = os.path.join(out, "submit.sh")
    line = c.slurm("bash", submit, cwd=tmp)
    m = re.search(r"array job (\d+) .*merge job (\d+)", line)
    check(m, f"submit.sh printed no job ids: {line}")
    array, merge = int(m.group(1)), int(m.group(2))
    log(f"submit.sh: array job {array}, merge job {merge}")
    # Task 3 starts last (at most 2 tasks at once); cancel it once it has finished 2 points.
    victim = TASKS - 1
    shard_ids = [l.split()[0] for l in run([HIFSIM, "sweep", "--sweep", sweep, "--out", out, "--cost-sample", COST_SAMPLE,
                                            "--dry-run"]).stdout.splitlines()][victim::TASKS]
    t0 = time.time()
    while True:
        done = [i for i in shard_ids if i in records(out)]
        if len(done) >= 2:
            break
        check(time.time() - t0 < WAIT_S, f"task {victim} finished no point within {WAIT_S} s")
        check(len(done) < len(shard_ids), f"task {victim} finished before it could be cancelled")
        time.sleep(0.02)
    c.slurm("scancel", f"{array}_{victim}")
    c.wait_gone([array, merge], "array with one cancelled task, and its merge")
    st = c.states(array)
    check(st.get(str(victim)) == "CANCELLED", f"task {victim} was not cancelled: {st}")
    check(all(st.get(str(i)) == "COMPLETED" for i in range(victim)), f"the other tasks did not complete: {st}")
    check(c.states(merge).get(None) == "CANCELLED", f"the merge ran although a task failed: {c.states(merge)}")
    check(not os.path.exists(os.path.join(out, "results.csv")), "a results.csv exists although the merge never ran")
    before = records(out)
    done_before = [i for i in shard_ids if i in before]
    check(0 < len(done_before) < len(shard_ids),
          f"task {victim} was not cancelled mid-way: {len(done_before)} of {len(shard_ids)} points finished")
    log(f"task {victim} cancelled after {len(done_before)} of {len(shard_ids)} points")

    # Resubmit that task alone: it must evaluate exactly its missing points.
    line = c.slurm("bash", submit, str(victim), cwd=tmp)
    m = re.search(r"array job (\d+) .*merge job (\d+)", line)
    check(m, f"submit.sh {victim} printed no job ids: {line}")
    array2, merge2 = int(m.group(1)), int(m.group(2))
    c.wait_gone([array2, merge2], f"resubmitted task {victim} and its merge")
    check(c.states(array2) == {str(victim): "COMPLETED"}, f"the resubmitted task: {c.states(array2)}")
    check(c.states(merge2).get(None) == "COMPLETED", f"the dependent merge: {c.states(merge2)}")
    after = records(out)
    twice = {i: f for i, f in after.items() if len(f) > 1}
    check(not twice, f"points evaluated twice: {twice}")
    new = sorted(set(after) - set(before))
    check(new == sorted(set(shard_ids) - set(done_before)),
          f"the resubmitted task evaluated {len(new)} points, expected exactly the {len(shard_ids) - len(done_before)} missing")
    task_log = os.path.join(out, "logs", f"sweep-{array2}_{victim}.log")
    check(os.path.isfile(task_log), f"no log {task_log}")
    with open(task_log) as f:
        text = f.read()
    expect = f"{len(shard_ids)} points, {len(done_before)} already done, {len(shard_ids) - len(done_before)} to run"
    check(expect in text, f"{task_log} does not say '{expect}':\n{text}")

    # Logs where docs/sweeps.md says; the merge's output is the local run's.
    for name in [f"sweep-{array}_{i}.log" for i in range(TASKS)] + [f"merge-{merge2}.log"]:
        check(os.path.isfile(os.path.join(out, "logs", name)), f"no log logs/{name}")
    check(not os.path.exists(os.path.join(out, "logs", f"merge-{merge}.log")), "the cancelled merge left a log")
    with open(os.path.join(out, "logs", "jobs.txt")) as f:
        check(f.read() == f"{array} {merge} all\n{array2} {merge2} {victim}\n", "logs/jobs.txt does not list the submissions")
    got = read_csv(os.path.join(out, "results.csv"))
    check(got == local_csv, "results.csv of the dependent merge differs from the local run")
    check(os.path.isfile(os.path.join(out, "pareto.png")), "the merge job drew no Pareto plot")
    run([HIFSIM, "sweep", "--sweep", sweep, "--out", out, "--cost-sample", COST_SAMPLE, "--merge-only", "--quiet", "--no-plots"])
    check(read_csv(os.path.join(out, "results.csv")) == local_csv, "--merge-only after resubmission differs from the local run")


def injected(tmp, start_cwd):
    hits = [os.path.join(d, f) for d, _, files in os.walk(tmp) for f in files if f.startswith("PWNED")]
    return hits + [p for p in (os.path.join(start_cwd, "PWNED"), os.path.expanduser("~/PWNED")) if os.path.exists(p)]


def slurm_default_logs(folders):
    """Slurm's default job logs (slurm-<job>.out, slurm-<array>_<task>.out) in `folders`: a job
    submitted without --output writes one into the submitter's working folder."""
    return {os.path.join(d, f) for d in folders for f in os.listdir(d) if re.fullmatch(r"slurm-[0-9_]+\.out", f)}


def main():
    ensure_installed()
    check(os.access(HIFSIM, os.X_OK), f"{HIFSIM}: hifsim is not built")
    t_start = time.time()
    before = daemon_pids()
    tmp = tempfile.mkdtemp(prefix="hifsim-slurm-")
    os.chmod(tmp, 0o755)  # munged's socket folder below must be reachable by everyone
    # Everything runs in the scratch folder: whatever Slurm or a daemon writes into its working
    # folder lands there, never in the source tree or ctest's folder (a job submitted without
    # --output once left a slurm-1.out in a checkout's top folder).
    start_cwd = os.getcwd()
    watched = sorted({start_cwd, ROOT})
    strays_before = slurm_default_logs(watched)
    os.chdir(tmp)
    cluster = Cluster(os.path.join(tmp, "cluster"))
    # SIGTERM (ctest's timeout) or Ctrl-C unwind through `finally`, which stops the cluster.
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, lambda n, _: sys.exit(128 + n))
    ok = False
    try:
        cluster.start()
        sweep = os.path.join(tmp, "sweep.yaml")
        with open(sweep, "w") as f:
            f.write(SWEEP.format(base=os.path.join(ROOT, "configs", "units", "hif4-32x32.yaml")))
        local = os.path.join(tmp, "local")
        run([HIFSIM, "sweep", "--sweep", sweep, "--out", local, "--jobs", "2", "--cost-sample", COST_SAMPLE, "--quiet",
             "--no-plots"])
        local_csv = read_csv(os.path.join(local, "results.csv"))
        rows = scenario_plain_sbatch(cluster, tmp, sweep, local_csv)
        check(rows >= 40, f"only {rows} rows")
        scenario_cancel_resubmit(cluster, tmp, sweep, local_csv)
        check(not injected(tmp, start_cwd), f"a name or path ran as a command: {injected(tmp, start_cwd)}")
        ok = True
        log(f"merged {rows} rows, identical to the local run, in both scenarios")
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
    finally:
        r = cluster.stop()
        log(r.stdout.strip() + r.stderr.strip())
        left = {p: n for p, n in daemon_pids().items() if p not in before}
        if r.returncode != 0 or left:
            print(f"FAILED: Slurm/munge processes left running: {left or r.stderr}", file=sys.stderr)
            ok = False
        strays = slurm_default_logs(watched) - strays_before
        if strays:
            print(f"FAILED: Slurm wrote outside the test's folder: {sorted(strays)}", file=sys.stderr)
            ok = False
        os.chdir(start_cwd)
        if not ok:
            for name in ("slurmctld.log", "slurmd.log", "munged.log"):
                p = os.path.join(cluster.folder, "log", name)
                if os.path.isfile(p):
                    with open(p) as f:
                        tail = f.read().splitlines()[-15:]
                    print(f"--- {p} (last lines)\n" + "\n".join(tail), file=sys.stderr)
            print(f"kept for inspection: {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    log(f"wall time {time.time() - t_start:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
