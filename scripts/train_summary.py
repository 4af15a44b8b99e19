#!/usr/bin/env python3
"""Loss-gap table and combined loss plot of `hifsim train` runs (scripts/train_recipes.sh).

    train_summary.py OUT_DIR RECIPE...   (OUT_DIR/<recipe>/loss.csv from the same seed and steps)

Final loss = mean training loss of the last 10 steps (batches are the same for every recipe);
gap = (final - final_fp32) / final_fp32 in %, the papers' relative loss gap. Writes
OUT_DIR/loss_gap.md and OUT_DIR/loss.png; exits 1 when bf16 ends more than 2 % above fp32.
"""
import csv
import math
import os
import sys


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def finite_mean(rows, key):
    vals = [float(r[key]) for r in rows if math.isfinite(float(r[key]))]
    return sum(vals) / len(vals) if vals else float("inf")


def main():
    out, recipes = sys.argv[1], sys.argv[2:]
    runs = {r: read(os.path.join(out, r, "loss.csv")) for r in recipes}
    final = {r: sum(float(x["loss"]) for x in rows[-10:]) / len(rows[-10:]) for r, rows in runs.items()}
    base = final.get("fp32")
    lines = ["| recipe | steps | first loss | final loss (mean of last 10) | gap vs fp32 | gradient SQNR vs FP32 shadow, mean (dB) "
             "| fprop / dgrad / wgrad GEMM SQNR, mean (dB) | time (s) |", "|---|---|---|---|---|---|---|---|"]
    for r, rows in runs.items():
        gap = "—" if base is None or r == "fp32" else f"{100 * (final[r] - base) / base:+.2f} %"
        kinds = " / ".join(f"{finite_mean(rows, k + '_sqnr_db'):.1f}" for k in ("fprop", "dgrad", "wgrad"))
        secs = sum(float(x["seconds"]) for x in rows)
        lines.append(f"| {r} | {len(rows)} | {float(rows[0]['loss']):.4f} | {final[r]:.4f} | {gap} | "
                     f"{finite_mean(rows, 'grad_sqnr_db'):.1f} | {kinds} | {secs:.0f} |")
    table = "\n".join(lines) + "\n"
    with open(os.path.join(out, "loss_gap.md"), "w") as f:
        f.write(table)
    print(table)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
        for r, rows in runs.items():
            ax.plot([int(x["step"]) for x in rows], [float(x["loss"]) for x in rows], label=r, lw=1)
        ax.set_xlabel("step")
        ax.set_ylabel("training loss (nats/token)")
        ax.set_title("stories260K fine-tuned on the shipped text, same batches per recipe")
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "loss.png"))
    except ImportError:
        print("(matplotlib missing: no loss.png)")
    if base is not None and "bf16" in final and (final["bf16"] - base) / base > 0.02:
        print(f"FAIL: bf16 ends {100 * (final['bf16'] - base) / base:.2f} % above fp32 (limit 2 %)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
