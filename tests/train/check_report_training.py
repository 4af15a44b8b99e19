#!/usr/bin/env python3
"""The report's training section (label train): render_report.py on a report folder holding
data/training/<recipe>/loss.csv shows the loss-curve plot and the loss-gap table with the gap
computed from the last 10 steps; data/mismatch.json (python -m hifsim.mismatch) gives the
rollout/training mismatch table, one row per format, a row with NaN/Inf values marked invalid;
without them both are named under "Not in this report". Rendered as `hifsim compare` renders:
python -m hifsim.report.render_report, the built package on PYTHONPATH. Usage: check_report_training.py"""
import json
import os
import subprocess
import sys
import tempfile

HEADER = "step,loss,grad_norm,grad_sqnr_db,fprop_sqnr_db,dgrad_sqnr_db,wgrad_sqnr_db,shadow_loss,lr,seconds\n"


def write_run(d, recipe, losses, sqnr):
    os.makedirs(os.path.join(d, "data", "training", recipe))
    with open(os.path.join(d, "data", "training", recipe, "loss.csv"), "w") as f:
        f.write(HEADER)
        for i, l in enumerate(losses, 1):
            f.write(f"{i},{l},1,{sqnr},{sqnr},{sqnr},{sqnr},{l},0.001,0.1\n")


def write_mismatch(d):
    pairs = ("rollout_vs_train_same", "resq_vs_train_same", "rollout_vs_train_bf16", "resq_vs_train_bf16")
    rows = []
    for f, base, bad in (("hif4", 0.0, 0), ("nvfp4", 0.5, 0), ("mxfp4", 1.0, 3)):
        row = {"format": f, "nonfinite": bad, "seconds": 12.5}
        for i, k in enumerate(pairs):
            row[k + "_dlogp"], row[k + "_kl"] = base + 0.1 * i, base + 0.01 * i
        rows.append(row)
    with open(os.path.join(d, "data", "mismatch.json"), "w") as f:
        json.dump({"model": "M", "tokens": 8, "residual": "2:4", "nonfinite": 3, "seconds": 1, "rows": rows}, f)


def render(d):
    with open(os.path.join(d, "data", "accuracy_summary.csv"), "w") as f:
        f.write("format,correction,sqnr_db,rel_frobenius,cosine,mean_underflow_a\nhif4,none,20,0.1,0.99,0.01\n")
    subprocess.run([sys.executable, "-m", "hifsim.report.render_report", d, "--quiet"], check=True)
    return open(os.path.join(d, "report.md")).read()


def main():
    with tempfile.TemporaryDirectory() as d:
        write_run(d, "fp32", [5.0] * 5 + [2.0] * 10, "inf")
        write_run(d, "hif4", [5.0] * 5 + [2.1] * 9 + [3.1], 12.5)   # mean of the last 10: 2.2 -> +10.00 %
        write_mismatch(d)
        md = render(d)
        assert "![training_loss](plots/training_loss.png)" in md, md
        assert "| fp32 | 15 | 2.0000 | — | exact | exact / exact / exact |" in md, md
        assert "| hif4 | 15 | 2.2000 | +10.00 % | 12.5 | 12.5 / 12.5 / 12.5 |" in md, md
        assert "## Rollout/training mismatch" in md, md
        assert "| hif4 | 0.0000 / 0.0000 | 0.1000 / 0.0100 | 0.2000 / 0.0200 | 0.3000 / 0.0300 | 12.5 |" in md, md
        assert "| nvfp4 | 0.5000 / 0.5000 | 0.6000 / 0.5100 | 0.7000 / 0.5200 | 0.8000 / 0.5300 | 12.5 |" in md, md
        assert "| mxfp4 | invalid (NaN/Inf) |" in md, md
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "data"))
        md = render(d)
        assert "training (data/training/<recipe>/loss.csv): not run" in md, md
        assert "training_loss" not in md, md
        assert "rollout/training mismatch (data/mismatch.json): not measured" in md, md
        assert "## Rollout/training mismatch" not in md, md
    print("report training section: plot, gap table (last-10 mean), mismatch table, absent sections named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
