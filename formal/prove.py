#!/usr/bin/env python3
"""Formal checks of the RTL (docs/formal.md): one job of formal/jobs.py, or a mutant of it.

  prove.py list [--label formal|formal-long|proof-open]  the jobs: name, label, label of its mutant
                                                  check (- when it has no mutant), method
  prove.py run JOB [--mutant ID] [--timeout S]    prove JOB on rtl/ (or on a copy with mutant ID
                                                  of formal/mutants.py applied); exit 0 proven,
                                                  1 refuted (counterexample), 2 unknown / error
  prove.py mutants JOB                            the mutants that must refute JOB
  prove.py kill JOB [--timeout S]                 run JOB on each of its mutants; exit 0 when
                                                  every one is refuted (a proof that cannot fail
                                                  is not a proof)

Methods (formal/jobs.py):
  cec     combinational miter (every assert a property, every assume a constraint) flattened by
          Yosys to an AIG, proven by ABC `dprove` (SAT sweeping + CEC): UNSAT = proven for every
          input the assumptions allow
  pdr     sequential: the same AIG, every assert an output that must never be 1; ABC `pdr`
          (IC3) proves it for every reachable state (unbounded) or returns a counterexample
  sim     exhaustive simulation (iverilog) of a decoder, compared with a table computed from
          the format definition by formal/spec_tables.py: every code, so a proof
  taint   the unit's AIG (one copy, formal/nox_wrap.py taint_wrapper) turned into its gate-level
          taint model by formal/taint.py (the registers' power-up contents the only source), then
          `pdr` as above: proven = no observed output is ever tainted (no X from defined inputs)
Every run prints one line `formal: JOB proven|REFUTED|UNKNOWN (method, seconds)`.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import jobs as jobs_mod  # noqa: E402
import mutants as mutants_mod  # noqa: E402


def tree_copy_with(mutant, tmp):
    """rtl/ (or, for a mutant with tree="formal", formal/: a broken reference for the jobs that
    check references alone) copied to tmp with `mutant` (a formal/mutants.py record) applied once;
    returns the copy's directory."""
    tree = mutant.get("tree", "rtl")
    dst = os.path.join(tmp, tree)
    shutil.copytree(os.path.join(ROOT, tree), dst)
    path = os.path.join(dst, mutant["file"])
    text = open(path).read()
    n = text.count(mutant["find"])
    if n != 1:
        raise SystemExit(f"prove.py: mutant {mutant['id']}: `find` occurs {n} times in {tree}/{mutant['file']} (must be 1)")
    open(path, "w").write(text.replace(mutant["find"], mutant["replace"]))
    return dst


def ysval(v):
    """A parameter value for chparam: a negative int as 32-bit two's complement (chparam does not
    parse a leading minus)."""
    return str(v) if v >= 0 else "32'h%08X" % (v & 0xFFFFFFFF)


def yosys_aig(job, rtl_dir, tmp, formal_dir=HERE):
    rtl = job["rtl"]
    formal = [os.path.join(formal_dir, f) for f in job["formal"]]
    if job.get("unit"):  # a control or no-X job: the unit's own file list, a generated wrapper
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        from mutate_rtl import list_sources
        rtl = list_sources(os.path.join(rtl_dir, job["unit"] + ".f"))
        text = open(os.path.join(rtl_dir, job["unit"] + ".sv")).read()
        if job.get("wrap") == "nox":
            import nox_wrap
            src = nox_wrap.wrapper(job["unit"], text, job["unit_params"], job.get("always", ()))
        elif job.get("wrap") == "taint":
            import nox_wrap
            src = nox_wrap.taint_wrapper(job["unit"], text, job["unit_params"], job.get("always", ()))
        else:
            import ctrl_wrap
            src = ctrl_wrap.wrapper(job["unit"], text, job["unit_params"])
        wrap = os.path.join(tmp, job["top"] + ".sv")
        open(wrap, "w").write(src)
        formal.append(wrap)
    srcs = [os.path.join(rtl_dir, f) for f in rtl] + formal
    # a negative value as 32-bit two's complement (chparam does not parse a leading minus)
    chparam = "".join(f"chparam -set {k} {ysval(v)} {job['top']}; " for k, v in job.get("params", {}).items())
    # connect: (lhs, rhs) net pairs joined after flattening, lhs := rhs (its old drivers cut): a
    # miter reads a stage boundary of the unit through an undriven wire (tap := dut.x), or cuts the
    # unit there and drives the boundary from a free input (dut.x := input); the RTL is unchanged.
    # -nomap: only the named net loses its driver; without it `connect` cuts every alias of the net
    # too (a signal passed on unchanged, e.g. a NaN flag carried to the next stage, lost its driver)
    connects = "".join(f"connect -nomap -set {l} {r}; " for l, r in job.get("connect", []))
    aig = os.path.join(tmp, "job.aig")
    script = (f"read_verilog -sv -formal {' '.join(srcs)}; {chparam}"
              # keep_ffs (the two-copy no-X jobs): every flop marked `keep` right after `proc`,
              # before any opt pass. Otherwise opt_merge, after `flatten`, merges a flop of copy a
              # with its twin in copy b (same D, same enable, no init value), the twins then share
              # their arbitrary initial value and the proof says nothing (a two-flop test, each
              # copy a register loaded from an input under an input enable: merged and proven
              # without the mark, refuted with it; in the units a rank's enable reads its own
              # valid bit, so no twins merged there, but the mark makes it so for any unit)
              + (f"hierarchy -top {job['top']}; proc; setattr -set keep 1 t:$*dff* t:$*ff*; "
                 if job.get("keep_ffs") else "")
              # early_flatten: flatten and drop the logic no assert reads before `prep` optimises
              # (a miter that reads one part of a big unit: 2-3x less Yosys time)
              + (f"hierarchy -top {job['top']}; proc; flatten; {connects}opt_clean; "
                 if job.get("early_flatten") or connects else "")
              + f"prep -top {job['top']}; flatten; "
              # taint: the model gives a power-up input to every register without an initial value
              # only, so it would trust a declaration initialiser of the unit's as a reset value
              # (a real flop powers up arbitrary): none may exist (the wrapper's `first` is not dut's)
              + ("select -assert-none w:dut.* a:init %i; " if job["method"] == "taint" else "")
              + "opt -fast; techmap; "
              # lean: no opt pass on the gate-level netlist (ABC strashes the AIG anyway; the adder
              # miter's AIG is the same, 14,599 ANDs, and its elaboration 18 -> 12 s CPU)
              + ("opt_expr; opt_clean; " if job.get("lean") else "opt -fast; ")
              + ("async2sync; dffunmap; " if job["method"] in ("pdr", "taint") else "")
              + "setundef -undriven -zero; aigmap; opt_clean; "
              + (f"write_aiger -zinit -ascii -map {aig}.map {aig}.aag" if job["method"] == "taint" else
                 f"write_aiger -zinit {aig}"))
    r = subprocess.run(["yosys", "-q", "-p", script], capture_output=True, text=True)
    if r.returncode != 0 and job["method"] == "taint" and "selection is not empty" in r.stdout + r.stderr:
        raise RuntimeError(f"{job['unit']}: a register has a declaration initialiser, which the taint model "
                           "would take as a reset value (a flop powers up arbitrary): reset it instead\n"
                           + r.stdout[-2000:] + r.stderr[-2000:])
    if r.returncode != 0:
        raise RuntimeError("yosys failed:\n" + r.stdout[-2000:] + r.stderr[-2000:])
    if job["method"] == "taint":  # the unit's AIG -> its taint model, one output: observed and tainted
        import taint
        taint.taint_aig(aig + ".aag", aig + ".map", aig, rule=job.get("taint_rule", "precise"))
    return aig


def run_abc(job, aig, timeout, mutant=False):
    if job["method"] == "cec":
        # abc_pre: a first pass for AIGs on which `fold` asserts (Abc_AigFree), e.g. `&fraig -x`.
        # abc_pre_mutant: the pass on a mutant (prove.py kill): `&fraig -x` sweeps the whole AIG
        # before dprove looks at the output, minutes on a broken design whose counterexample plain
        # `dprove`'s random simulation finds in a second (the al.* jobs); the AIG is the same
        pre = job.get("abc_pre_mutant", job.get("abc_pre", "fold;")) if mutant else job.get("abc_pre", "fold;")
        cmd = f"read_aiger {aig}; {pre} dprove"
    else:  # pdr, taint: constraints folded in, then IC3
        cmd = f"read_aiger {aig}; fold; strash; pdr -T {int(timeout)}"
    # cwd: dprove writes an unsolved miter (sm01.aig) into the working directory
    r = subprocess.run(["yosys-abc", "-c", cmd], capture_output=True, text=True, timeout=timeout + 30,
                       cwd=os.path.dirname(aig))
    out = r.stdout + r.stderr
    # a solver that did not exit normally (killed by a signal, crashed) gives no verdict, whatever
    # its partial output says (a hand-killed dprove once printed a line the REFUTED pattern matched)
    if r.returncode != 0:
        return "UNKNOWN", out + f"\n(yosys-abc exit status {r.returncode})"
    if re.search(r"UNSATISFIABLE|Property proved|Networks are equivalent", out):
        return "proven", out
    if re.search(r"SATISFIABLE|was asserted|Output .* was asserted|Networks are NOT EQUIVALENT|Counter-example", out):
        return "REFUTED", out
    return "UNKNOWN", out


def run_sim(job, rtl_dir, tmp):
    import spec_tables
    return spec_tables.check(job, rtl_dir, tmp)


def run_job(name, mutant_id=None, timeout=600, verbose=False):
    job = jobs_mod.JOBS[name]
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="hifsim-formal-") as tmp:
        rtl_dir, formal_dir = os.path.join(ROOT, "rtl"), HERE
        if mutant_id:
            m = mutants_mod.MUTANTS[mutant_id]
            if m.get("tree") == "formal":
                formal_dir = tree_copy_with(m, tmp)
            else:
                rtl_dir = tree_copy_with(m, tmp)
        try:
            if job["method"] == "sim":
                verdict, log = run_sim(job, rtl_dir, tmp)
            else:
                aig = yosys_aig(job, rtl_dir, tmp, formal_dir)
                if os.environ.get("HIFSIM_FORMAL_KEEP_AIG"):  # debugging: keep the AIG the solver got
                    shutil.copy(aig, os.environ["HIFSIM_FORMAL_KEEP_AIG"])
                verdict, log = run_abc(job, aig, timeout, bool(mutant_id))
        except subprocess.TimeoutExpired:
            verdict, log = "UNKNOWN", f"timeout after {timeout} s"
        except RuntimeError as e:
            verdict, log = "UNKNOWN", str(e)
    dt = time.time() - t0
    what = f" on mutant {mutant_id}" if mutant_id else ""
    print(f"formal: {name}{what} {verdict} ({job['method']}, {dt:.1f} s)", flush=True)
    if verbose or verdict == "UNKNOWN" or (verdict == "REFUTED" and not mutant_id):
        print(log[-3000:])
    return verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("list")
    p.add_argument("--label")
    p = sub.add_parser("run")
    p.add_argument("job")
    p.add_argument("--mutant")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("-v", "--verbose", action="store_true")
    p = sub.add_parser("mutants")
    p.add_argument("job")
    p = sub.add_parser("kill")
    p.add_argument("job")
    p.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    if a.cmd == "list":
        for n, j in jobs_mod.JOBS.items():
            if not a.label or j["label"] == a.label:
                kill = jobs_mod.kill_label(n) if mutants_mod.for_job(n) else "-"
                print(f"{n:40s} {j['label']:12s} {kill:12s} {j['method']}")
        return 0
    if a.cmd == "mutants":
        for m in mutants_mod.for_job(a.job):
            print(m)
        return 0
    if a.cmd == "run":
        v = run_job(a.job, a.mutant, a.timeout, a.verbose)
        return {"proven": 0, "REFUTED": 1}.get(v, 2)
    if a.cmd == "kill":
        ms = mutants_mod.for_job(a.job)
        if not ms:
            print(f"formal: {a.job} has no mutant in formal/mutants.py")
            return 2
        bad = [m for m in ms if run_job(a.job, m, a.timeout) != "REFUTED"]
        print(f"formal: {a.job}: {len(ms) - len(bad)} of {len(ms)} mutants refuted" + (f"; not: {' '.join(bad)}" if bad else ""))
        return 0 if not bad else 1
    return 2


if __name__ == "__main__":
    sys.exit(main())
