#!/usr/bin/env python3
"""RTL mutation campaign: how many deliberately planted bugs the quick cosim level catches.

Each mutant of cosim/mutation/mutants.py is one textual change to one rtl/ file, applied to a copy
of the RTL (the tree is never edited). For each unit, `run` configures a build of that unit's cosim
models from the copy (build/mutation/<unit>), builds the unmutated baseline (which must pass), then
for each mutant writes the mutated file into the copy, rebuilds the unit's harness, runs the quick
level on the main model and, if that passes, on the sweep model (every other STAGES value and
parameter set), and restores the file. A mutant is

  killed       a run reported a mismatch (exit 1: a value or the handshake timing) or an RTL hang (4)
  survived     every run passed
  equivalent   marked so in the table with the reason, for all its units (expect) or for some
               (equivalent_in) (it is still run: a killed "equivalent" mutant is reported as an error)
  build-fail   the mutated RTL did not build (a broken mutant, not a score)

Commands:
  list   [--unit U]                      the mutants (id, file, units, kind, what)
  check  [--table FILE]                  every mutant applies exactly once, names units that use its
                                         file, and every unit has at least 10 mutants (CTest
                                         cosim.mutants_apply)
  ci-list                                "<unit> <mutant id>" of each unit's CTest mutant
  emit   --mutant ID --out DIR [--rtl-dir DIR]
                                         write the mutated file to DIR/<file>, print the file name
  run    [--unit U]... [--mutant ID]... [--build-dir DIR] [--seed N] [--jobs N] [--report FILE] [--resume]
                                         the campaign (the mutants given with --mutant in that
                                         order); prints per-unit scores and writes a Markdown
                                         table (docs/cosim.md) to FILE if given. DIR/results.json is
                                         rewritten after every mutant; --resume keeps its results
                                         and runs only the mutants it does not have
  report [--build-dir DIR] [--report FILE]
                                         the scores and table of DIR/results.json (a campaign that
                                         was stopped, or several resumed runs)

The unit file lists are rtl/<unit>.f, the ones every build reads. A verdict (killed, equivalent, ...)
is judged from the stored result and the current table each time a table is printed, so a mutant
marked equivalent after its run counts as such in `report` and `run --resume`.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "cosim", "mutation", "mutants.py")
MIN_PER_UNIT = 10


def load_mutants(path=TABLE):
    scope = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), scope)
    return scope["MUTANTS"]


def list_sources(path):
    """The sources of a file list rtl/<top>.f (Verilator -F format, as rtl/rtl_files.cmake and
    scripts/rtl_files.sh read it), relative to the list's folder, `-F` lists expanded."""
    out, folder = [], os.path.dirname(path)
    for line in open(path):
        line = line.split("//", 1)[0].strip()
        if line.startswith("-F "):
            inner = os.path.join(folder, line[3:].strip())
            out += [os.path.relpath(os.path.join(os.path.dirname(inner), f), folder) for f in list_sources(inner)]
        elif line:
            out.append(line)
    return list(dict.fromkeys(out))


def unit_files(rtl_dir=os.path.join(ROOT, "rtl")):
    """{unit: [rtl files in compile order]} from the units' file lists rtl/<unit>.f."""
    units = {}
    for name in sorted(os.listdir(rtl_dir)):
        if name.endswith(".f"):
            files = list_sources(os.path.join(rtl_dir, name))
            if files and all(f.endswith(".sv") for f in files):
                units[name[:-2]] = files
    if not units:
        sys.exit(f"mutate_rtl.py: no unit file lists rtl/<unit>.f in {rtl_dir}")
    return units


def expectation(mut, unit):
    """(expect, why) of `mut` on `unit`: a per-unit equivalence (equivalent_in) overrides expect."""
    if unit in mut["equivalent_in"]:
        return "equivalent", mut["equivalent_in"][unit]
    return mut["expect"], mut["why"]


def verdict(result, expect):
    """The verdict of a run result ("killed", "survived", "build-fail") against the expectation."""
    if expect == "equivalent":
        return "equivalent" if result == "survived" else f"EQUIVALENT BUT {result.upper()}"
    return result


def mutated_text(mut, rtl_dir):
    path = os.path.join(rtl_dir, mut["file"])
    text = open(path).read()
    n = text.count(mut["find"])
    if n != 1:
        raise ValueError(f"mutant {mut['id']}: the text to replace occurs {n} times in {path} (must be once): "
                         f"{mut['find']!r}")
    return text.replace(mut["find"], mut["replace"])


def cmd_list(args, muts):
    for m in muts:
        if args.unit and args.unit not in m["units"]:
            continue
        tag = " [equivalent]" if m["expect"] == "equivalent" else ""
        if m["equivalent_in"]:
            tag += f" [equivalent in {','.join(m['equivalent_in'])}]"
        ci = f" [CI check of {m['ci']}]" if m["ci"] else ""
        print(f"{m['id']:32} {m['file']:24} {','.join(m['units'])}\n    {m['kind']}: {m['what']}{tag}{ci}")
    return 0


def cmd_check(args, muts):
    files = unit_files()
    errors = []
    seen = set()
    per_unit = {u: 0 for u in files}
    ci_units = {}
    for m in muts:
        if m["id"] in seen:
            errors.append(f"{m['id']}: duplicate id")
        seen.add(m["id"])
        try:
            mutated_text(m, os.path.join(ROOT, "rtl"))
        except (ValueError, OSError) as e:
            errors.append(str(e))
        if m["expect"] not in ("killed", "equivalent") or (m["expect"] == "equivalent" and not m["why"]):
            errors.append(f"{m['id']}: expect must be 'killed' or 'equivalent' (with a reason in why)")
        for u, why in m["equivalent_in"].items():
            if u not in m["units"] or not why.strip() or m["expect"] != "killed":
                errors.append(f"{m['id']}: equivalent_in names {u}: it must be one of the mutant's units, with a "
                              "reason, on a mutant whose expect is 'killed'")
        for u in m["units"]:
            if u not in files:
                errors.append(f"{m['id']}: unknown unit {u}")
            elif m["file"] not in files[u]:
                errors.append(f"{m['id']}: {m['file']} is not in {u}'s file list")
            else:
                per_unit[u] += 1
        if m["ci"]:
            if m["ci"] not in m["units"] or expectation(m, m["ci"])[0] != "killed":
                errors.append(f"{m['id']}: the CI check of {m['ci']} must be a killed mutant of that unit")
            if m["ci"] in ci_units:
                errors.append(f"{m['id']}: {m['ci']} already has a CI mutant ({ci_units[m['ci']]})")
            ci_units[m["ci"]] = m["id"]
    for u, n in per_unit.items():
        if n < MIN_PER_UNIT:
            errors.append(f"unit {u}: {n} mutants (at least {MIN_PER_UNIT})")
        if u not in ci_units:
            errors.append(f"unit {u}: no CI mutant")
    for e in errors:
        print("mutate_rtl.py check: " + e, file=sys.stderr)
    if not errors:
        print(f"mutate_rtl.py check: {len(muts)} mutants apply; per unit: " +
              ", ".join(f"{u} {n}" for u, n in per_unit.items()))
    return 1 if errors else 0


def cmd_ci_list(args, muts):
    for m in muts:
        if m["ci"]:
            print(m["ci"], m["id"])
    return 0


def cmd_emit(args, muts):
    mut = next((m for m in muts if m["id"] == args.mutant), None)
    if mut is None:
        sys.exit(f"mutate_rtl.py emit: no mutant {args.mutant!r}")
    try:
        text = mutated_text(mut, args.rtl_dir)
    except (ValueError, OSError) as e:
        sys.exit(f"mutate_rtl.py emit: {e}")
    os.makedirs(args.out, exist_ok=True)
    out = os.path.join(args.out, mut["file"])
    # Rewrite only when the content changes, so a re-configure does not rebuild the model.
    if not os.path.exists(out) or open(out).read() != text:
        with open(out, "w") as f:
            f.write(text)
    print(mut["file"])
    return 0


# ---------------------------------------------------------------------------------------------
# The campaign.

def sh(cmd, log, timeout=None, cwd=None):
    """Runs cmd, appends its output to `log`; returns (exit code, output)."""
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        rc, out = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        rc, out = "timeout", (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}  ({time.time() - t0:.1f} s, exit {rc})\n{out}\n")
    return rc, out


class UnitBuild:
    """A build directory with one unit's cosim models built from an RTL copy."""

    def __init__(self, unit, base, jobs, log):
        self.unit, self.dir, self.jobs, self.log = unit, os.path.join(base, unit), jobs, log
        self.rtl = os.path.join(self.dir, "rtl")

    def configure(self):
        if os.path.isdir(self.rtl):
            shutil.rmtree(self.rtl)
        # copy, not copy2: fresh modification times, so outputs built from a mutated file of an
        # interrupted run are rebuilt (copy2 kept the tree's older times and ninja reused them).
        shutil.copytree(os.path.join(ROOT, "rtl"), self.rtl, ignore=shutil.ignore_patterns("CMakeLists.txt"),
                        copy_function=shutil.copy)
        rc, out = sh(["cmake", "-S", ROOT, "-B", self.dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                      f"-DHIFSIM_COSIM_UNITS={self.unit}", f"-DHIFSIM_COSIM_RTL_DIR={self.rtl}",
                      "-DHIFSIM_COSIM_MUTANTS=OFF", "-DHIFSIM_COSIM_CONFORMANCE=OFF", "-DHIFSIM_COSIM_FAST_COMPILE=ON",
                      # the 7 array PE models of cosim/tlm_calibration are Verilated at configure
                      # time (~5 CPU-min) and not used by a unit's campaign
                      "-DHIFSIM_TLM_CALIBRATION=OFF"],
                     self.log)
        if rc != 0:
            sys.exit(f"mutate_rtl.py: configuring {self.dir} failed (log: {self.log})")

    def build(self):
        rc, _ = sh(["cmake", "--build", self.dir, "--target", f"cosim_{self.unit}", "-j", str(self.jobs)], self.log)
        return rc == 0

    def run(self, model, seed):
        """Quick level of one model; returns (exit code, first failure line or '')."""
        exe = os.path.join(self.dir, "bin", f"cosim_{self.unit}")
        cmd = [exe, "--level", "quick", "--seed", str(seed), "--out", os.path.join(self.dir, "cosim-out")]
        if model == "sweep":
            cmd.append("--sweep")
        rc, out = sh(cmd, self.log, timeout=1800)
        first = next((l for l in out.splitlines() if "MISMATCH" in l or l.startswith("HANG")), "")
        return rc, first.strip()

    def has_sweep(self):
        return self.unit != "fp32_acc"


def run_unit(unit, muts, args, results, save):
    """Runs `muts` on `unit`, appending to `results` and calling save() after each mutant (a
    campaign stopped half-way keeps what it measured; `run --resume` goes on from there)."""
    log = os.path.join(args.build_dir, f"{unit}.log")
    os.makedirs(args.build_dir, exist_ok=True)
    open(log, "a").close()
    b = UnitBuild(unit, args.build_dir, args.jobs, log)
    print(f"== {unit}: configuring {b.dir}", flush=True)
    b.configure()
    models = ["main", "sweep"] if b.has_sweep() else ["main"]
    if not b.build():
        sys.exit(f"mutate_rtl.py: the unmutated {unit} does not build (log: {log})")
    for model in models:
        rc, first = b.run(model, args.seed)
        if rc != 0:
            sys.exit(f"mutate_rtl.py: the unmutated {unit} fails its {model} quick level (exit {rc}: {first}; log: {log})")
    print(f"   baseline builds and passes ({', '.join(models)})", flush=True)
    for m in muts:
        path = os.path.join(b.rtl, m["file"])
        original = open(path).read()
        t0 = time.time()
        try:
            # From the unit's copy (restored after each mutant), so an edit of rtl/ while the
            # campaign runs cannot mix two versions of the RTL; made before the file is reopened.
            text = mutated_text(m, b.rtl)
            with open(path, "w") as f:
                f.write(text)
            res = {"id": m["id"], "kind": m["kind"], "what": m["what"], "expect": expectation(m, unit)[0]}
            if not b.build():
                res.update(result="build-fail", by="")
            else:
                res.update(result="survived", by="")
                for model in models:
                    rc, first = b.run(model, args.seed)
                    if rc in (1, 4, "timeout"):
                        res.update(result="killed", by=f"{model}: {first or 'timeout'}")
                        break
        finally:
            with open(path, "w") as f:
                f.write(original)
        res["seconds"] = round(time.time() - t0, 1)
        res["verdict"] = verdict(res["result"], res["expect"])
        results.append(res)
        save()
        print(f"   {m['id']:32} {res['verdict']:12} {res['by'][:90]}  ({res['seconds']} s)", flush=True)
    return results


def rejudge(all_results):
    """Each stored result judged against the current table (expect, equivalent_in); a mutant no
    longer in the table keeps its stored verdict."""
    table = {m["id"]: m for m in load_mutants()}
    for unit, results in all_results.items():
        for r in results:
            if r["id"] in table:
                r["expect"] = expectation(table[r["id"]], unit)[0]
                r["verdict"] = verdict(r["result"], r["expect"])
    return all_results


def score(results):
    killed = sum(1 for r in results if r["verdict"] == "killed")
    equivalent = sum(1 for r in results if r["verdict"] == "equivalent")
    return killed, equivalent, len(results)


def planned(unit):
    return sum(1 for m in load_mutants() if unit in m["units"])


def markdown(all_results):
    lines = ["| Unit | Mutants run (of the table's) | Killed | Equivalent | Survived | Score (killed / non-equivalent) |",
             "|---|---|---|---|---|---|"]
    for unit, results in all_results.items():
        k, e, n = score(results)
        lines.append(f"| {unit} | {n} of {planned(unit)} | {k} | {e} | {n - k - e} | {k}/{n - e} |")
    lines += ["", "| Unit | Mutant | Kind | Result | Caught by |", "|---|---|---|---|---|"]
    for unit, results in all_results.items():
        for r in results:
            by = r["by"].replace("|", "\\|")
            lines.append(f"| {unit} | `{r['id']}` | {r['kind']} | {r['verdict']} | {by} |")
    return "\n".join(lines) + "\n"


def results_path(args):
    return os.path.join(args.build_dir, "results.json")


def load_results(args):
    path = results_path(args)
    if not os.path.exists(path):
        sys.exit(f"mutate_rtl.py: no campaign results in {path}")
    with open(path) as f:
        return json.load(f)


def cmd_run(args, muts):
    files = unit_files()
    units = args.unit or list(files)
    all_results = load_results(args) if args.resume and os.path.exists(results_path(args)) else {}

    def save():
        tmp = results_path(args) + ".tmp"
        with open(tmp, "w") as f:
            json.dump(all_results, f, indent=1)
        os.replace(tmp, results_path(args))

    for u in units:
        if u not in files:
            sys.exit(f"mutate_rtl.py run: unknown unit {u} (have: {' '.join(files)})")
        results = all_results.setdefault(u, [])
        done = {r["id"] for r in results}
        sel = [m for m in muts if u in m["units"] and (not args.mutant or m["id"] in args.mutant) and m["id"] not in done]
        if args.mutant:  # in the order given: a campaign that may be stopped runs the informative ones first
            sel.sort(key=lambda m: args.mutant.index(m["id"]))
        if sel:
            run_unit(u, sel, args, results, save)
        elif not results:
            del all_results[u]
    return finish(args, all_results)


def cmd_report(args, muts):
    return finish(args, load_results(args))


def finish(args, all_results):
    rejudge(all_results)
    bad = 0
    print("\nper-unit scores (killed / non-equivalent mutants):")
    for u, results in all_results.items():
        k, e, n = score(results)
        print(f"  {u:22} {k}/{n - e}   ({n} of the table's {planned(u)} mutants run, {e} equivalent)")
        bad += sum(1 for r in results if r["verdict"] not in ("killed", "equivalent"))
    if args.report:
        with open(args.report, "w") as f:
            f.write(markdown(all_results))
        print(f"table: {args.report}")
    if bad:
        print(f"{bad} mutants neither killed nor confirmed equivalent")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("list")
    p.add_argument("--unit")
    p = sub.add_parser("check")
    p.add_argument("--table", default=TABLE, help="a mutant table other than cosim/mutation/mutants.py (tests)")
    sub.add_parser("ci-list")
    p = sub.add_parser("emit")
    p.add_argument("--mutant", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--rtl-dir", default=os.path.join(ROOT, "rtl"))
    p = sub.add_parser("run")
    p.add_argument("--unit", action="append")
    p.add_argument("--mutant", action="append")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build", "mutation"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--report")
    p.add_argument("--resume", action="store_true")
    p = sub.add_parser("report")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build", "mutation"))
    p.add_argument("--report")
    args = ap.parse_args()
    muts = load_mutants(getattr(args, "table", TABLE))
    return {"list": cmd_list, "check": cmd_check, "ci-list": cmd_ci_list, "emit": cmd_emit, "run": cmd_run,
            "report": cmd_report}[args.cmd](args, muts)


if __name__ == "__main__":
    sys.exit(main())
