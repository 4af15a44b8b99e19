#!/usr/bin/env python3
"""Metrics that cannot lie, end to end (label `metrics`): a command whose quantized GEMM produces
NaN/Inf outputs must report the accuracy as invalid in every file it writes -- never a score.

  gemm --stats      all-NaN result: "sqnr_db": null and "valid": false (was 1e999, i.e. exact)
                    FP8 E4M3 with 12 of 16 rows overflowing: invalid (was 26.6 dB, cosine 0.999)
  trace             ops.csv / layers.csv / summary.csv cells "invalid" + valid,nonfinite_outputs;
                    accuracy.json null figures; summary.md "invalid: N of M outputs are NaN or Inf"
  sweep             results.csv: empty figures, accuracy_valid false, nonfinite_outputs > 0

Usage: cli_metrics.py --hifsim build/bin/hifsim
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def run(hifsim, args, cwd):
    p = subprocess.run([hifsim] + args, cwd=cwd, capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, f"hifsim {' '.join(args[:2])}... exit {p.returncode} {p.stderr.strip()[:200]}")
    return p


def strict_json(path):
    with open(path) as f:
        return json.load(f, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(f"{path}: non-JSON {c}")))


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hifsim", required=True)
    h = os.path.abspath(ap.parse_args().hifsim)
    d = tempfile.mkdtemp(prefix="hifsim-metrics-")
    try:
        rng = np.random.default_rng(0)
        np.save(os.path.join(d, "nan.npy"), np.full((8, 64), np.nan, np.float32))
        np.save(os.path.join(d, "ones.npy"), np.ones((8, 64), np.float32))
        a = rng.standard_normal((16, 64)).astype(np.float32)
        a[:12] *= 1e6  # beyond FP8 E4M3's 448: NaN without --saturate
        np.save(os.path.join(d, "a.npy"), a)
        np.save(os.path.join(d, "b.npy"), rng.standard_normal((16, 64)).astype(np.float32))

        # gemm --stats
        run(h, ["gemm", "--format", "hif8", "--a", "nan.npy", "--b", "ones.npy", "--out", "c1.npy", "--stats", "s1.json",
                "--quiet"], d)
        e = strict_json(os.path.join(d, "s1.json"))["error_vs_fp64"]
        check(e.get("sqnr_db") is None and e.get("valid") is False, f"gemm all-NaN: sqnr_db {e.get('sqnr_db')}, valid {e.get('valid')}")
        check(e.get("cosine_similarity") is None and e.get("nonfinite_reference") == 64,
              f"gemm all-NaN: cosine {e.get('cosine_similarity')}, {e.get('nonfinite_reference')} NaN reference values")
        run(h, ["gemm", "--format", "fp8-e4m3", "--a", "a.npy", "--b", "b.npy", "--out", "c2.npy", "--stats", "s2.json",
                "--quiet"], d)
        e = strict_json(os.path.join(d, "s2.json"))["error_vs_fp64"]
        check(e.get("valid") is False and e.get("sqnr_db") is None and e.get("nonfinite_outputs") == 192 and e.get("outputs") == 256,
              f"gemm fp8-e4m3 75 % NaN: valid {e.get('valid')}, sqnr {e.get('sqnr_db')}, {e.get('nonfinite_outputs')} of {e.get('outputs')}")
        run(h, ["gemm", "--format", "hif8", "--a", "a.npy", "--b", "b.npy", "--out", "c3.npy", "--stats", "s3.json",
                "--quiet", "--saturate"], d)
        e = strict_json(os.path.join(d, "s3.json"))["error_vs_fp64"]
        check(e.get("valid") is True and isinstance(e.get("sqnr_db"), float), f"gemm hif8 saturating: valid, {e.get('sqnr_db')} dB")

        # trace: a one-op captured trace (A with overflowing rows), formats fp8-e4m3 and bf16
        t = os.path.join(d, "t")
        os.mkdir(t)
        np.save(os.path.join(t, "a.npy"), a)
        np.save(os.path.join(t, "b.npy"), rng.standard_normal((8, 64)).astype(np.float32))
        with open(os.path.join(t, "trace.yaml"), "w") as f:
            f.write("schema: hifsim-trace/1\nkind: captured\nmodel: {name: m, source: s, revision: " + "a" * 64 +
                    ", architecture: llama}\ncapture: {script: s, token_source: model-sample, tokens: 16, token_ids: ["
                    + ", ".join(["1"] * 16) + "], seed: 0, layers: [0]}\nops:\n"
                    "- {name: q, layer: 0, op: q_proj, M: 16, N: 8, K: 64, batch: 1, a: {file: a.npy, dtype: float32},"
                    " b: {file: b.npy, dtype: float32}}\n")
        run(h, ["trace", "--trace", t, "--out", "acc", "--formats", "fp8-e4m3,bf16", "--quiet"], d)
        acc = os.path.join(d, "acc")
        ops = {r["format"]: r for r in rows(os.path.join(acc, "ops.csv"))}
        check(ops["fp8-e4m3"]["sqnr_db"] == "invalid" and ops["fp8-e4m3"].get("valid", "") == "false"
              and int(ops["fp8-e4m3"].get("nonfinite_outputs") or 0) > 0, f"trace ops.csv fp8: {ops['fp8-e4m3']['sqnr_db']}")
        check(ops["bf16"].get("valid", "") == "true" and float(ops["bf16"]["sqnr_db"] or 0) > 20, f"trace ops.csv bf16: {ops['bf16']['sqnr_db']}")
        for name in ("layers.csv", "summary.csv"):
            r = {x["format"]: x for x in rows(os.path.join(acc, name))}["fp8-e4m3"]
            check(r["sqnr_db"] == "invalid" and r.get("cosine", "") == "invalid" and r.get("valid", "") == "false", f"trace {name} fp8 invalid")
        j = strict_json(os.path.join(acc, "accuracy.json"))
        jo = {o["format"]: o for o in j["ops"]}["fp8-e4m3"]
        check(jo.get("sqnr_db") is None and jo.get("valid") is False, "trace accuracy.json fp8: null, valid false")
        md = open(os.path.join(acc, "summary.md")).read()
        check("| fp8-e4m3 | none | invalid: " in md and "outputs are NaN or Inf" in md, "trace summary.md names the invalid row")

        # sweep: accuracy measured on the same trace for a unit of each format
        sw = os.path.join(d, "sw")
        os.mkdir(sw)
        shutil.copy(os.path.join(ROOT, "configs", "units", "bf16-32x32.yaml"), os.path.join(sw, "base.yaml"))
        with open(os.path.join(sw, "s.yaml"), "w") as f:
            f.write("schema: hifsim-sweep/1\nname: m\nbase: base.yaml\nworkload: {gemm: [64, 64, 256]}\n"
                    f"accuracy: {{trace: {t}}}\ngrid:\n  pe.format: [fp8-e4m3, bf16]\n")
        run(h, ["sweep", "--sweep", "sw/s.yaml", "--out", "swout", "--no-plots", "--quiet", "--cost-sample", "16"], d)
        res = rows(os.path.join(d, "swout", "results.csv"))
        by = {r["pe.format"]: r for r in res}
        check(by["fp8-e4m3"]["sqnr_db"] == "" and by["fp8-e4m3"].get("accuracy_valid", "") == "false"
              and int(by["fp8-e4m3"].get("nonfinite_outputs") or 0) > 0, f"sweep results.csv fp8: '{by['fp8-e4m3']['sqnr_db']}'")
        check(by["bf16"].get("accuracy_valid", "") == "true" and float(by["bf16"]["sqnr_db"] or 0) > 20, "sweep results.csv bf16 valid")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print(f"{len(FAILS)} failures")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
