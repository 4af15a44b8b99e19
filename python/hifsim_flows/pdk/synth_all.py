#!/usr/bin/env python3
"""Synthesise and time every unit of scripts/synth.sh (its --list-sources) on the sky130 Liberty.

  synth_all.py [--lib L] [--signoff-lib S] --work DIR --out units.csv [--only REGEX] [--jobs N]

L (default: SkyWater's published typical corner, configs/cost/sky130/sky130_fd_sc_hd__tt_025C_1v80.lib.gz)
is what the units are mapped to and timed at (min_period_ns, fmax_mhz); S (default: the published
slow corner ss_100C_1v60, the sign-off corner) times the same netlists again (min_period_ss_ns,
fmax_ss_mhz). Both are first cut to the cells the flow may use (mapping_lib.py, cells.MAP_EXCLUDE)
as plain-text copies in DIR/libs/.

One synth_unit.py run per unit and parameter set (at most --jobs at a time, default 1: ABC
on the large units needs most of a core for minutes); then one CSV row per run. A run that
fails stops the table: the CSV is written (temp name, then rename) only if every run passed.
With --only, the runs that match replace their rows of an existing --out table and every other
row is kept (a subset never leaves a table holding only that subset); rows are in the order of
scripts/synth.sh, and a row whose unit synth.sh no longer lists is dropped with a notice.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import re
import stat
import subprocess
import sys

from ..repo import ROOT, module_env
from .cells import PUBLISHED
from .flow_error import FlowError
from .mapping_lib import mapping_copy
COLUMNS = ["module", "parameters", "area_um2", "cells", "flip_flops", "min_period_ns", "fmax_mhz",
           "startpoint", "endpoint", "min_period_ss_ns", "fmax_ss_mhz"]
SKY130 = os.path.join(ROOT, "configs", "cost", "sky130")


def runs(only):
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts", "synth.sh"), "--list-sources"],
                         capture_output=True, text=True, check=True).stdout
    rows = [l.split("|") for l in out.splitlines() if l.strip()]
    return [r for r in rows if not only or re.search(only, f"{r[0]} {r[2]}")]


def existing_rows(path):
    """{(module, parameters): row} of an existing table, or {} when there is none; a file of
    other columns stops the run (it is not a table of this flow)."""
    if not os.path.lexists(path):
        return {}
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != COLUMNS:
        sys.exit(f"synth_all: {path}: not a units table of this flow (header {rows[0] if rows else 'missing'}); "
                 "remove it or pass another --out")
    bad = [i + 2 for i, r in enumerate(rows[1:]) if len(r) != len(COLUMNS)]
    if bad:
        sys.exit(f"synth_all: {path}: line {bad[0]}: {len(COLUMNS)} fields expected")
    return {(r[0], r[1]): r for r in rows[1:]}


def tag(mod, params):
    return mod + "_" + re.sub(r"[;=]", "_", params)


def previous_seconds(work, mod, params):
    try:
        with open(os.path.join(work, tag(mod, params), "result.json")) as f:
            return float(json.load(f).get("seconds", 0))
    except (OSError, ValueError):
        return 0.0


def one(lib, ss_lib, work, mod, srcs, params):
    out = os.path.join(work, tag(mod, params))
    p = subprocess.run([sys.executable, "-m", "hifsim_flows.pdk.synth_unit", "--lib", lib, "--signoff-lib", ss_lib,
                        "--module", mod,
                        "--sources", srcs, "--params", params, "--out", out], capture_output=True, text=True,
                       env=module_env())
    if p.returncode != 0:
        return None, p.stderr.strip()
    with open(os.path.join(out, "result.json")) as f:
        return json.load(f), None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.path.join(SKY130, PUBLISHED["tt"]),
                    help="Liberty to map to and time at (default: the published tt_025C_1v80)")
    ap.add_argument("--signoff-lib", default=os.path.join(SKY130, PUBLISHED["ss"]),
                    help="the same cells at the sign-off corner (default: the published ss_100C_1v60)")
    ap.add_argument("--work", default="build/pdk/synth")
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    todo = runs(a.only)
    if not todo:
        print(f"synth_all: no run matches --only '{a.only}'", file=sys.stderr)
        return 2
    if os.path.lexists(a.out) and not stat.S_ISREG(os.lstat(a.out).st_mode):
        print(f"synth_all: {a.out}: not a regular file; nothing replaced", file=sys.stderr)
        return 2
    kept = existing_rows(a.out) if a.only else {}  # checked before hours of synthesis, not after
    try:
        lib = mapping_copy(os.path.abspath(a.lib), os.path.join(a.work, "libs"))
        ss_lib = mapping_copy(os.path.abspath(a.signoff_lib), os.path.join(a.work, "libs"))
    except FlowError as e:
        print(f"synth_all: {e}", file=sys.stderr)
        return 2
    # Longest first (the previous run's seconds, where the work folder has one): with 2 at a time
    # the wall time is then about max(longest unit, total / 2), not the longest unit started last.
    todo.sort(key=lambda r: -previous_seconds(a.work, r[0], r[2]))
    results, fails = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(a.jobs, 2)) as ex:
        futs = {ex.submit(one, lib, ss_lib, a.work, *r): r for r in todo}
        for f in concurrent.futures.as_completed(futs):
            r = futs[f]
            res, err = f.result()
            if err:
                fails.append(f"{r[0]} {r[2]}: {err}")
                print(f"[sky130] {r[0]} {r[2]}: FAILED: {err}", file=sys.stderr)
            else:
                results[(r[0], r[2])] = res
                print(f"[sky130] {r[0]} {r[2]}: {res['area_um2']:.0f} um2, {res['cells']} cells, "
                      f"{res['min_period_ns']:.3f} ns ({res['fmax_mhz']:.0f} MHz; ss {res['fmax_ss_mhz']:.0f} MHz), "
                      f"{res['seconds']} s", file=sys.stderr)
    if fails:
        print(f"synth_all: {len(fails)} run(s) failed; {a.out} not written", file=sys.stderr)
        return 1
    fresh = {k: [res[c] if not isinstance(res[c], float) else f"{res[c]:.10g}" for c in COLUMNS]
             for k, res in results.items()}
    table = []
    for r in runs(""):
        row = fresh.get((r[0], r[2])) or kept.pop((r[0], r[2]), None)
        if row:
            table.append(row)
    for k in kept:
        if k not in fresh:
            print(f"[sky130] {a.out}: dropped the row of {k[0]} {k[1]}: scripts/synth.sh no longer lists it", file=sys.stderr)
    tmp = a.out + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        w.writerows(table)
    os.replace(tmp, a.out)
    print(f"[sky130] wrote {a.out} ({len(table)} rows, {len(fresh)} from this run)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
