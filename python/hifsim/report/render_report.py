#!/usr/bin/env python3
"""Renders a format comparison report from the data `hifsim compare` writes.

    render_report.py REPORT_DIR [--title T] [--quiet]

Reads REPORT_DIR/data/*.csv|json (every section is optional; a missing section is named in the
report, never invented) and writes REPORT_DIR/report.md, a self-contained REPORT_DIR/report.html
(plots embedded as PNG data URIs, no external files, no network) and the plots as
REPORT_DIR/plots/*.png and *.svg:

  accuracy_vs_energy   SQNR (dB) against energy per MAC (pJ) per format and correction
  area_breakdown       unit area by component per format (gate equivalents)
  layer_sqnr           SQNR per layer per format (and a table: every layer, format and correction)
  underflow            fraction of nonzero activations that quantize to zero, per format
  residual_gain        SQNR gain of each correction over the plain format
  perplexity           model-level perplexity per format and correction (when measured)
  training_loss        stories260K loss curves per recipe (when REPORT_DIR/data/training/<recipe>/loss.csv
                       exist: `bash scripts/train_recipes.sh build/bin/hifsim REPORT_DIR/data/training`)
  training_unit        area and energy per training step per format, split by block (REPORT_DIR/data/
                       training_unit.json: `hifsim compare` on a training trace, or --training-unit on)
and the rollout/training mismatch table (REPORT_DIR/data/mismatch.json: `python -m hifsim.mismatch --out
REPORT_DIR/data`, or `hifsim compare --mismatch-tokens N`).
"""
import argparse
import base64
import csv
import html
import io
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"hif4": "#c0392b", "nvfp4": "#2e86c1", "mxfp4": "#27ae60", "hif8": "#8e44ad", "bf16": "#7f8c8d",
          "mxfp8-e4m3": "#d68910", "mxfp8-e5m2": "#a04000", "fp8-e4m3": "#17a589", "fp8-e5m2": "#1f618d"}


def color(fmt):
    return COLORS.get(fmt, "#34495e")


def read_csv(path):
    if not os.path.isfile(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_json(path):
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        return json.load(f)


def fnum(x, default=float("nan")):
    try:
        return float(x)
    except (TypeError, ValueError):
        return default


def invalid(v):
    """An accuracy figure over NaN/Inf outputs: "invalid" in the CSVs, null in the JSON."""
    return v is None or v == "invalid"


class Plots:
    def __init__(self, outdir):
        self.dir = os.path.join(outdir, "plots")
        os.makedirs(self.dir, exist_ok=True)
        self.made = {}  # name -> (png bytes, caption)

    def save(self, fig, name, caption):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        fig.savefig(os.path.join(self.dir, name + ".svg"), bbox_inches="tight")
        with open(os.path.join(self.dir, name + ".png"), "wb") as f:
            f.write(buf.getvalue())
        plt.close(fig)
        self.made[name] = (buf.getvalue(), caption)


def plot_accuracy_vs_energy(p, summary, units):
    # Energy of the unit that runs this (format, correction): a correction costs its own cycles
    # and energy (units.csv has one row per pair), so it is not the plain format's point.
    energy = {(u["format"], u.get("correction", "none")): fnum(u.get("energy_pj_per_mac")) for u in (units or [])}
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    have_energy = any(v == v for v in energy.values())
    formats_seen, corrections_seen = [], []
    for i, r in enumerate(summary):
        f, c = r["format"], r["correction"]
        x = energy.get((f, c), float("nan")) if have_energy else i
        y = fnum(r["sqnr_db"])
        plain = c == "none"
        ax.scatter([x], [y], s=70, color=color(f), marker="o" if plain else "^",
                   facecolors=color(f) if plain else "none", linewidths=1.6, zorder=3)
        if f not in formats_seen:
            formats_seen.append(f)
        if c not in corrections_seen:
            corrections_seen.append(c)
    # A legend instead of point labels: the FP4 formats sit close together and labels collide.
    from matplotlib.lines import Line2D
    bad = [f"{r['format']}" + ("" if r["correction"] == "none" else f" +{r['correction']}") for r in summary
           if invalid(r["sqnr_db"])]
    if bad:  # never a point (or a rank) for a figure over NaN/Inf outputs
        ax.text(0.01, 0.01, "not plotted, NaN/Inf outputs (invalid): " + ", ".join(bad), transform=ax.transAxes,
                fontsize=7, color="crimson", va="bottom")
    handles = [Line2D([], [], marker="o", linestyle="", markersize=8, color=color(f), label=f) for f in formats_seen]
    handles += [Line2D([], [], marker="o" if c == "none" else "^", linestyle="", markersize=8, color="0.3",
                       markerfacecolor="0.3" if c == "none" else "none", label="no correction" if c == "none" else f"+{c}")
                for c in corrections_seen]
    ax.legend(handles=handles, fontsize=8, loc="lower right", ncol=2)
    ax.set_ylabel("GEMM SQNR vs FP32 reference (dB)")
    if have_energy:
        ax.set_xlabel("energy per MAC (pJ, compute + buffers + memory)")
        ax.set_title("Accuracy versus energy per MAC")
    else:
        ax.set_xlabel("format / correction (energy not measured)")
        ax.set_xticks([])
        ax.set_title("Accuracy per format (no energy data in this report)")
    ax.grid(alpha=0.3)
    p.save(fig, "accuracy_vs_energy", "GEMM SQNR against energy per MAC. Filled circles: plain format; "
           "open triangles: with a correction (Rollout-ResQ residual or ARCQuant).")


def plot_area(p, area):
    comps = [k for k in area[0].keys() if k not in ("format", "total_ge")]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    bottom = [0.0] * len(area)
    cmap = plt.get_cmap("tab20")
    for j, c in enumerate(comps):
        vals = [fnum(r[c], 0.0) for r in area]
        ax.bar([r["format"] for r in area], vals, bottom=bottom, label=c, color=cmap(j % 20))
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_ylabel("area (mm², 45 nm proxy)")
    ax.set_title("Matrix-unit area by component")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(axis="y", alpha=0.3)
    p.save(fig, "area_breakdown", "Area of each format's matrix unit (equal peak MACs per cycle) by component: "
           "PE logic from the cost model fitted to Yosys synthesis of our RTL, SRAM buffers from the table in "
           "configs/cost/sram.yaml.")


def plot_layers(p, layers, summary):
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    fmts = []
    for r in summary + layers:  # the summary's order (the run's), not the CSV's alphabetical one
        if r["correction"] == "none" and r["format"] not in fmts:
            fmts.append(r["format"])
    for f in fmts:
        rows = sorted((int(r["layer"]), fnum(r["sqnr_db"])) for r in layers if r["format"] == f and r["correction"] == "none")
        ax.plot([x for x, _ in rows], [y for _, y in rows], marker="o", color=color(f), label=f)
    ax.set_xlabel("layer")
    ax.set_ylabel("SQNR (dB)")
    ax.set_title("Per-layer GEMM SQNR (no correction)")
    ax.legend(fontsize=8, ncol=len(fmts), loc="center")  # the gap between the 4-, 8- and 16-bit bands
    ax.grid(alpha=0.3)
    p.save(fig, "layer_sqnr", "SQNR of all GEMMs of each captured layer, per format.")


ACCS = [("fp32", "-", "FP32 RNE"), ("fp32-m13-rne", "--", "13-bit mantissa RNE"), ("fp32-m13-rz", ":", "13-bit RZ"),
        ("fp32-m10-rne", "-.", "10-bit RNE"), ("fp32-m10-rz", (0, (1, 3)), "10-bit RZ")]


def plot_error_vs_k(p, rows):
    """One panel per format: the accumulator's own error (against the format's Kulisch result) versus
    K per accumulator, and the whole error against FP64 with the FP32 accumulator for scale."""
    fmts = []
    for r in rows:
        if r["format"] not in fmts:
            fmts.append(r["format"])
    fig, axes = plt.subplots(1, len(fmts), figsize=(2.6 * len(fmts) + 0.6, 3.4), sharey=True, squeeze=False)
    for ax, f in zip(axes[0], fmts):
        mine = [r for r in rows if r["format"] == f]
        total = sorted((int(r["K"]), fnum(r["rel_frobenius"])) for r in mine if r["accumulator"] == "fp32")
        ax.plot([k for k, _ in total], [v for _, v in total], color="black", lw=2, alpha=0.35,
                label="total vs FP64 (FP32 acc.)")
        for acc, ls, label in ACCS:
            pts = sorted((int(r["K"]), fnum(r["rel_vs_kulisch"])) for r in mine if r["accumulator"] == acc)
            pts = [(k, v) for k, v in pts if v > 0]  # exact (0) points have no place on a log axis
            if pts:
                ax.plot([k for k, _ in pts], [v for _, v in pts], ls=ls, marker="o", ms=3, color=color(f), label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f, fontsize=9)
        ax.set_xlabel("K")
        ax.grid(alpha=0.3, which="both")
    axes[0][0].set_ylabel("relative Frobenius error")
    axes[0][-1].legend(fontsize=6, loc="lower right")
    p.save(fig, "error_vs_k", "GEMM error versus K on the trace's longest-K ops (operands cut to their first K columns): "
           "each accumulator's own rounding error (against the same format's exact Kulisch result; points where it is "
           "exact are left out) and, grey, the whole error of the FP32-accumulated GEMM against FP64 "
           "(quantization + accumulation).")


OP_ORDER = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "attn_qk", "attn_pv"]


def plot_op_kinds(p, ops):
    """SQNR per kind of GEMM (the attention GEMMs QKᵀ and PV next to the linear layers), per format."""
    rows = [r for r in ops if r["correction"] == "none" and not invalid(r["sqnr_db"])]
    fmts = []
    for r in rows:
        if r["format"] not in fmts:
            fmts.append(r["format"])
    kinds = [k for k in OP_ORDER if any(r["op"] == k for r in rows)] + \
        sorted({r["op"] for r in rows} - set(OP_ORDER))
    fig, ax = plt.subplots(figsize=(7.6, 3.8))
    width = 0.8 / max(1, len(fmts))
    for i, f in enumerate(fmts):
        vals = []
        for k in kinds:
            v = [fnum(r["sqnr_db"]) for r in rows if r["format"] == f and r["op"] == k]
            vals.append(sum(v) / len(v) if v else float("nan"))
        ax.bar([j + (i - (len(fmts) - 1) / 2) * width for j in range(len(kinds))], vals, width, color=color(f), label=f)
    ax.set_xticks(range(len(kinds)))
    ax.set_xticklabels(kinds, fontsize=7, rotation=30)
    ax.set_ylabel("SQNR (dB), mean over layers")
    ax.set_title("GEMM accuracy per kind of op (no correction)")
    ax.legend(fontsize=7, ncol=len(fmts))
    ax.grid(axis="y", alpha=0.3)
    p.save(fig, "op_kinds", "SQNR of each kind of GEMM per format, averaged over the captured layers: the attention "
           "GEMMs (attn_qk = QKᵀ, attn_pv = PV, the path the Full-Stack FP4 study flags) next to the linear layers.")


def plot_underflow(p, summary):
    rows = [r for r in summary if r["correction"] == "none"]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.bar([r["format"] for r in rows], [100 * fnum(r["mean_underflow_a"]) for r in rows],
           color=[color(r["format"]) for r in rows])
    ax.set_ylabel("nonzero activations quantized to 0 (%)")
    ax.set_title("Underflow of activation values")
    ax.grid(axis="y", alpha=0.3)
    p.save(fig, "underflow", "Fraction of nonzero activation values that quantize to zero, averaged over ops: "
           "the error Rollout-ResQ targets.")


def plot_residual_gain(p, summary):
    base = {r["format"]: fnum(r["sqnr_db"]) for r in summary if r["correction"] == "none"}
    corr = sorted({r["correction"] for r in summary if r["correction"] != "none"})
    if not corr:
        return False
    fmts = [f for f in base if not f.startswith("recipe:")]  # recipe rows (--recipe) run no correction
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    w = 0.8 / len(corr)
    for j, c in enumerate(corr):
        gains = []
        for f in fmts:
            v = [fnum(r["sqnr_db"]) for r in summary if r["format"] == f and r["correction"] == c]
            gains.append(v[0] - base[f] if v else 0.0)
        ax.bar([i + j * w for i in range(len(fmts))], gains, width=w, label=c)
    ax.set_xticks([i + w * (len(corr) - 1) / 2 for i in range(len(fmts))])
    ax.set_xticklabels(fmts)
    ax.set_ylabel("SQNR gain (dB)")
    ax.set_title("Gain of the residual corrections")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    p.save(fig, "residual_gain", "SQNR gain of each correction over the same format without it.")
    return True


def plot_perplexity(p, ppl):
    """Perplexity per format: fake quantization (with each residual correction) and, where
    measured, the format's bit-exact GEMM engine (hatched bars)."""
    rows = [r for r in ppl["rows"] if r["format"] != "fp32"]
    base = next((r["perplexity"] for r in ppl["rows"] if r["format"] == "fp32"), None)
    fig, ax = plt.subplots(figsize=(7.2, 3.8))
    labels = [r["format"] + ("" if r["residual"] == "none" else f"\n+{r['residual']}") +
              ("\nbit-exact" if r.get("gemm") == "bit-exact" else "") for r in rows]
    bars = ax.bar(range(len(rows)), [0 if invalid(r["perplexity"]) else r["perplexity"] for r in rows],
                  color=[color(r["format"]) for r in rows])
    for i, (bar, r) in enumerate(zip(bars, rows)):
        bar.set_alpha(1.0 if r["residual"] == "none" else 0.55)
        if r.get("gemm") == "bit-exact":
            bar.set_hatch("///")
            bar.set_edgecolor("black")
        if invalid(r["perplexity"]):  # NaN/Inf after quantization: no bar, a label
            ax.text(i, 0, "invalid\n(NaN/Inf)", ha="center", va="bottom", fontsize=6, color="crimson", rotation=90)
    if base:
        ax.axhline(base, color="black", lw=1, ls="--", label=f"FP32 {base:.2f}")
        ax.legend(fontsize=8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(labels, fontsize=6)
    ax.set_ylabel("perplexity")
    ax.set_title(f"{ppl['meta']['model']}: perplexity on {ppl['meta']['tokens']} tokens")
    ax.grid(axis="y", alpha=0.3)
    p.save(fig, "perplexity", "Perplexity with every linear layer in the format: activations and weights fake-quantized "
           "(plain bars; lighter: with the Rollout-ResQ residual on the activations) and computed by the format's "
           "bit-exact GEMM engine (hatched).")


def read_training(data):
    """{recipe: loss.csv rows} from data/training/<recipe>/loss.csv (scripts/train_recipes.sh)."""
    d = os.path.join(data, "training")
    runs = {}
    for r in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        rows = read_csv(os.path.join(d, r, "loss.csv"))
        if rows:
            runs[r] = rows
    if "fp32" in runs:  # the baseline first
        runs = {"fp32": runs.pop("fp32"), **runs}
    return runs


def plot_training(p, runs):
    fig, ax = plt.subplots(figsize=(7.2, 3.8))
    for r, rows in runs.items():
        ax.plot([int(x["step"]) for x in rows], [float(x["loss"]) for x in rows], lw=1, label=r,
                color=COLORS.get(r, "black" if r == "fp32" else None))
    ax.set_xlabel("step")
    ax.set_ylabel("training loss (nats/token)")
    ax.set_title("stories260K trained through the bit-exact engines, per recipe")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    p.save(fig, "training_loss", "Training loss per step of `hifsim train` (same seed and batches for every recipe; "
           "every linear-layer GEMM, fprop, dgrad and wgrad, through the recipe's bit-exact engine).")


def training_table(runs):
    final = {r: sum(float(x["loss"]) for x in rows[-10:]) / len(rows[-10:]) for r, rows in runs.items()}
    base = final.get("fp32")

    def mean_db(rows, key):
        v = [float(x[key]) for x in rows if x[key] not in ("inf", "-inf", "nan")]
        return f"{sum(v) / len(v):.1f}" if v else "exact"

    out = ["| recipe | steps | final loss (mean of last 10) | gap vs fp32 | gradient SQNR vs FP32 shadow (dB) | "
           "fprop / dgrad / wgrad SQNR (dB) |", "|---|---|---|---|---|---|"]
    for r, rows in runs.items():
        gap = "—" if base is None or r == "fp32" else f"{100 * (final[r] - base) / base:+.2f} %"
        kinds = " / ".join(mean_db(rows, k + "_sqnr_db") for k in ("fprop", "dgrad", "wgrad"))
        out.append(f"| {r} | {len(rows)} | {final[r]:.4f} | {gap} | {mean_db(rows, 'grad_sqnr_db')} | {kinds} |")
    return "\n".join(out)


def perplexity_tables(ppl):
    """The perplexity section: every run, then the bit-exact GEMM against fake quantization."""
    num = lambda d: (lambda v: "invalid" if invalid(v) else f"{v:.{d}f}")
    rows = [dict(r, gemm=r.get("gemm", "fake")) for r in ppl["rows"]]
    out = md_table(rows, ["format", "residual", "gemm", "perplexity", "ratio_to_fp32"],
                   ["format", "residual", "GEMM", "perplexity", "x FP32"],
                   {"perplexity": num(3), "ratio_to_fp32": num(4)})
    diffs = ppl.get("bit_exact_vs_fake") or []
    if diffs:
        out += ("\n\nThe bit-exact GEMM (the format's dot-product unit and FP32 accumulator) against fake quantization "
                "(the same quantizers, exact float64 GEMM):\n\n" +
                md_table(diffs, ["format", "fake", "bit_exact", "relative"],
                         ["format", "fake quantization", "bit-exact GEMM", "difference"],
                         {"fake": num(4), "bit_exact": num(4), "relative": lambda v: f"{100 * v:+.3f}%"}))
    return out


TU_BLOCKS = [("dot_units", "dot units", "#34495e"), ("quantizer_rn", "quantizers RN", "#2e86c1"),
             ("quantizer_sr", "quantizers SR", "#85c1e9"), ("rht", "RHT", "#d68910"),
             ("transpose_buffer", "transpose buffer", "#8e44ad"), ("sram", "SRAM", "#27ae60"), ("dram", "DRAM", "#bdc3c7")]
TU_ADDED = [b for b in TU_BLOCKS if b[0] in ("quantizer_rn", "quantizer_sr", "rht", "transpose_buffer")]  # what training adds


def tu_rows(tu):
    """The training-unit rows with figures (a skipped format has none), each block by name."""
    return [dict(r, by={b["block"]: b for b in r["blocks"]}) for r in tu["rows"] if "skipped" not in r]


TU_PROXY = {"area_mm2": "area_proxy", "energy_uj": "energy_proxy"}
WIDE_PLOTS = {"training_unit"}  # four panels: the width of two figures in the HTML page
WIDE_FIGURE = ' style="width:1060px"'


def plot_training_unit(p, tu):
    """Stacked bars per format: the unit's area and the step's energy by block (top), and the blocks
    training adds -- quantizers, RHT, transpose buffer -- alone (bottom, they are small); proxies hatched."""
    rows = tu_rows(tu)
    fig, axes = plt.subplots(2, 2, figsize=(10.4, 7.2))
    panels = ((axes[0][0], "area_mm2", "area (mm²)", [b for b in TU_BLOCKS if b[0] != "dram"]),
              (axes[0][1], "energy_uj", "energy per training step (µJ)", TU_BLOCKS),
              (axes[1][0], "area_mm2", "area of the training blocks (mm²)", TU_ADDED),
              (axes[1][1], "energy_uj", "energy of the training blocks (µJ/step)", TU_ADDED))
    for ax, key, label, blocks in panels:
        bottom = [0.0] * len(rows)
        for name, title, col in blocks:
            vals = [r["by"][name][key] if r["by"][name]["used"] else 0.0 for r in rows]
            bars = ax.bar([r["format"] for r in rows], vals, bottom=bottom, color=col, label=title)
            for bar, r in zip(bars, rows):
                if r["by"][name][TU_PROXY[key]] and r["by"][name]["used"]:
                    bar.set_hatch("//")
                    bar.set_edgecolor("white")
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_ylabel(label, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    axes[0][1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(f"Training unit per format ({tu['node']} cost tables; hatched: proxy estimate)")
    fig.tight_layout()
    p.save(fig, "training_unit", f"Area of each format's training unit and energy of one training step under the "
           f"format's recipe, by block ({tu['node']}); below, the blocks training adds alone. Hatched: a proxy "
           f"estimate (no hardware in the unit catalog, or energy partly from such a block).")


def training_unit_tables(tu):
    """The training-unit section: area and energy per step by block, one row per format."""
    rows = tu_rows(tu)

    def cell(b, key):
        if not b["used"]:
            return "—"
        return f"{b[key]:.4g}" + (" (PROXY)" if b[TU_PROXY[key]] else "")

    out = []
    for key, what, blocks in (("area_mm2", f"Area (mm², {tu['node']})", [b for b in TU_BLOCKS if b[0] != "dram"]),
                              ("energy_uj", f"Energy per training step (µJ, {tu['node']})", TU_BLOCKS)):
        table = [dict({"format": r["format"], "recipe": r["recipe"], "total": f"{r[key]:.4g}",
                       "step_cycles": f"{r['step_cycles']:,}"},
                      **{n: cell(r["by"][n], key) for n, _, _ in blocks}) for r in rows]
        cols = ["format", "recipe"] + [n for n, _, _ in blocks] + ["total"] + (["step_cycles"] if key == "energy_uj" else [])
        heads = ["format", "recipe"] + [t for _, t, _ in blocks] + ["total"] + (["step cycles"] if key == "energy_uj" else [])
        out += [f"### {what}", "", md_table(table, cols, heads), ""]
    out += ["Sources: " + "; ".join(tu["notes"]) + ".", ""]
    for r in rows:
        for n, title, _ in TU_ADDED:
            b = r["by"][n]
            if b["used"]:
                out += [f"{r['format']} {title}: area {b['area_source']}; energy {b['energy_source']}.", ""]
    return "\n".join(out)


def md_table(rows, cols, headers=None, fmt=None):
    headers = headers or cols
    out = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        cells = []
        for c in cols:
            v = r.get(c, "")
            if invalid(v):
                cells.append("invalid (NaN/Inf)")
                continue
            if fmt and c in fmt:
                try:
                    v = fmt[c](v)
                except (TypeError, ValueError):
                    pass
            cells.append(str(v))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def layer_table(layers, summary):
    """SQNR of every captured layer (rows) per format and correction (columns, in the order of the
    summary table): the whole model at a glance, next to plots/layer_sqnr."""
    keys = []
    for r in summary + layers:
        if (r["format"], r["correction"]) not in keys:
            keys.append((r["format"], r["correction"]))
    by_layer = {}
    for r in layers:
        by_layer.setdefault(int(r["layer"]), {})[(r["format"], r["correction"])] = r["sqnr_db"]
    cols = [f if c == "none" else f"{f} +{c}" for f, c in keys]
    rows = [dict({"layer": str(l)}, **{col: by_layer[l].get(k, "") for col, k in zip(cols, keys)}) for l in sorted(by_layer)]
    return (md_table(rows, ["layer"] + cols, fmt={c: lambda v: f"{float(v):.2f}" for c in cols})
            + f"\n\nSQNR (dB) of all GEMMs of each layer together (linear layers and attention QKᵀ, PV), {len(rows)} layers.")


def md_block_to_html(md):
    """Markdown subset used by the data files: ### headings, | tables |, paragraphs."""
    out, table = [], []

    def flush():
        if table:
            out.append(md_to_html_table("\n".join(table)))
            table.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("### "):
            out.append(f"<h3>{html.escape(line[4:])}</h3>")
        elif line.strip():
            out.append(f"<p>{html.escape(line)}</p>")
    flush()
    return "".join(out)


def _cells(line):
    """Cells of a Markdown table row; "\\|" is a literal bar inside a cell."""
    parts = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip().replace("\\|", "|") for c in parts[1:-1]]


def md_to_html_table(md):
    lines = [l for l in md.strip().splitlines() if l.startswith("|")]
    head = _cells(lines[0])
    body = [_cells(l) for l in lines[2:]]
    h = "<table><thead><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr></thead><tbody>"
    for r in body:
        h += "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
    return h + "</tbody></table>"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report_dir")
    ap.add_argument("--title", default="hifsim format comparison")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    d = a.report_dir
    data = os.path.join(d, "data")
    summary = read_csv(os.path.join(data, "accuracy_summary.csv"))
    layers = read_csv(os.path.join(data, "accuracy_layers.csv"))
    ops = read_csv(os.path.join(data, "accuracy_ops.csv"))
    error_k = read_csv(os.path.join(data, "error_vs_k.csv"))
    units = read_csv(os.path.join(data, "units.csv"))
    area = read_csv(os.path.join(data, "area_breakdown.csv"))
    ppl = read_json(os.path.join(data, "perplexity.json"))
    mismatch = read_json(os.path.join(data, "mismatch.json"))
    training_unit = read_json(os.path.join(data, "training_unit.json"))
    dot_units = None
    if os.path.isfile(os.path.join(data, "dot_units.md")):
        with open(os.path.join(data, "dot_units.md")) as fh:
            dot_units = fh.read()
    manifest = read_json(os.path.join(d, "manifest.json")) or {}
    if not summary:
        sys.exit(f"{data}/accuracy_summary.csv: missing or empty: nothing to report")

    p = Plots(d)
    missing = []
    plot_accuracy_vs_energy(p, summary, units)
    if not units:
        missing.append("timing, area and energy (data/units.csv): not produced by this run")
    if area:
        plot_area(p, area)
    else:
        missing.append("area breakdown (data/area_breakdown.csv): not produced by this run")
    if layers:
        plot_layers(p, layers, summary)
    if ops:
        plot_op_kinds(p, ops)
    if error_k:
        plot_error_vs_k(p, error_k)
    else:
        missing.append("GEMM error versus K (data/error_vs_k.csv): not produced by this run")
    plot_underflow(p, summary)
    if not plot_residual_gain(p, summary):
        missing.append("residual correction gain: no correction was run")
    if ppl:
        plot_perplexity(p, ppl)
    else:
        missing.append("model-level perplexity (data/perplexity.json): not measured in this run")
    training = read_training(data)
    if training:
        plot_training(p, training)
    else:
        missing.append("training (data/training/<recipe>/loss.csv): not run (scripts/train_recipes.sh)")
    if training_unit and tu_rows(training_unit):
        plot_training_unit(p, training_unit)
    else:
        missing.append("training unit (data/training_unit.json): not produced by this run (hifsim compare on a "
                       "training trace such as traces/stories260k-train, or --training-unit on)")
    for r in (training_unit or {}).get("rows", []):
        if "skipped" in r:
            missing.append(f"training unit, {r['format']}: {r['skipped']}")
    if not mismatch:
        missing.append("rollout/training mismatch (data/mismatch.json): not measured in this run "
                       "(hifsim compare --mismatch-tokens N, or python -m hifsim.mismatch --out REPORT_DIR/data)")

    f2 = lambda v: f"{float(v):.2f}"
    sections = [("Accuracy per format and correction",
                 md_table(summary, ["format", "correction", "sqnr_db", "rel_frobenius", "cosine", "mean_underflow_a"],
                          ["format", "correction", "SQNR (dB)", "rel. Frobenius", "cosine", "underflow"],
                          {"sqnr_db": f2, "rel_frobenius": lambda v: f"{float(v):.4f}",
                           "cosine": lambda v: f"{float(v):.6f}",
                           "mean_underflow_a": lambda v: f"{100 * float(v):.2f}%"}))]
    if layers:
        sections.append(("Accuracy per layer", layer_table(layers, summary)))
    if units:
        g3 = lambda v: f"{float(v):.4g}"
        for u in units:
            u["config"] = os.path.basename(u.get("config", ""))
        cols = ["format", "correction", "cycles", "utilization", "timing", "energy_pj_per_mac", "compute_pj_per_mac",
                "buffers_pj_per_mac", "memory_pj_per_mac", "area_mm2", "power_w", "config"]
        # `timing` (units.csv, perf::timing_calibration): rtl-calibrated = the timing equations of
        # this unit's structure match the RTL matrix unit of its PE type cycle for cycle.
        fmt = {c: g3 for c in cols if c not in ("format", "correction", "config", "cycles", "timing")}
        # The PE's dot unit at sky130 (units.csv sky130_*, docs/cost.md section 11): area and fmax of
        # the mapped netlist of that RTL instance (empty: not synthesised), pJ per dot operation from
        # the calibrated sky130 coefficients on this run's operands.
        sky = any(u.get("sky130_dot") for u in units)  # empty: the run's cost folder has no sky130 tables
        cols += ["sky130_dot", "sky130_dot_um2", "sky130_fmax_mhz", "sky130_fmax_ss_mhz", "sky130_dot_pj"] if sky else []
        fmt.update({"sky130_dot_um2": lambda v: f"{float(v):,.0f}" if v else "not synthesised",
                    "sky130_fmax_mhz": lambda v: f"{float(v):.0f}" if v else "not synthesised",
                    "sky130_fmax_ss_mhz": lambda v: f"{float(v):.0f}" if v else "not synthesised",
                    "sky130_dot_pj": lambda v: f"{float(v):.2f}"})
        sections.append(("Timing, area and energy per unit (equal peak throughput)",
                         md_table(units, cols, ["format", "correction", "cycles", "utilization", "timing", "pJ/MAC",
                                                "compute", "buffers", "memory", "area (mm²)", "power (W)", "config",
                                                ] + (["sky130 dot unit", "sky130 dot µm²", "sky130 fmax tt (MHz)",
                                                      "sky130 fmax ss (MHz)", "sky130 pJ/op"] if sky else []), fmt)
                         + "\n\nColumn timing: rtl-calibrated = the cycle counts come from timing equations that match the "
                           "Verilated RTL matrix unit of this PE type and structure cycle for cycle (0 % error, both "
                           "dataflows, docs/tlm.md section 11); model = equations not checked against RTL for this "
                           "unit (e.g. a residual path or a format without an RTL unit). pJ/MAC, compute, buffers, memory, "
                           "area and power are the 45 nm proxy."
                         + ("" if not sky else "\n\nColumns sky130: the PE's dot unit (RTL module and parameters) mapped to SkyWater "
                           "sky130_fd_sc_hd cells (SkyWater's published characterization; mapped at tt 25 C 1.8 V; no wires): "
                           "cell area and the maximum clock from static timing of that netlist at tt and at the sign-off "
                           "corner ss 100 C 1.6 V (configs/cost/sky130/units.csv; 'not synthesised' when this "
                           "instance has no row), and the energy per 64-element dot operation from the sky130-calibrated "
                           "cost coefficients on this run's operands (residuals against gate-level simulation per unit: "
                           "docs/cost.md section 11).")))
    if ppl:
        sections.append(("Model-level perplexity", perplexity_tables(ppl)))
    if training:
        sections.append(("Training: stories260K loss gaps per recipe (docs/training.md)", training_table(training)))
    if training_unit and tu_rows(training_unit):
        sections.append(("Training unit: area and energy per training step by block", training_unit_tables(training_unit)))
    if mismatch:
        from hifsim.mismatch import mismatch_table  # mismatch.py needs no matplotlib: the table lives there
        sections.append(("Rollout/training mismatch", mismatch_table(mismatch)))
    if dot_units:
        sections.append(("64-length dot-product units versus the HiF4 paper's claims", dot_units))
    else:
        missing.append("dot-unit comparison (data/dot_units.md): not produced by this run")
    trace = manifest.get("facts", {}).get("trace", "")
    intro = (f"Trace: `{trace}`. " if trace else "") + (
        "Accuracy comes from the bit-exact GEMM engine on the trace's real tensors against the FP32 reference outputs; "
        "see docs/ for every convention.")

    md = [f"# {a.title}", "", intro, ""]
    for name, (png, cap) in p.made.items():
        md += [f"![{name}](plots/{name}.png)", "", f"*{cap}*", ""]
    for title, table in sections:
        md += [f"## {title}", "", table, ""]
    if missing:
        md += ["## Not in this report", ""] + [f"- {m}" for m in missing] + [""]
    md += ["## Provenance", "", f"- git revision: `{manifest.get('git_revision', 'unknown')}`",
           f"- command: `{' '.join(manifest.get('argv', []))}`", f"- seed: {manifest.get('seed', '')}", ""]
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(md))

    css = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
           "table{border-collapse:collapse;margin:1em 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 8px}"
           "th{background:#f3f3f3}figure{display:inline-block;margin:0.5em;vertical-align:top;width:520px}"
           "figure img{width:100%}figcaption{font-size:12px;color:#555}code{background:#f5f5f5}")
    figs = "".join(
        f'<figure{WIDE_FIGURE if n in WIDE_PLOTS else ""}><img class="plot" alt="{n}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'
        f"<figcaption>{html.escape(cap)}</figcaption></figure>" for n, (png, cap) in p.made.items())
    body = [f"<h1>{html.escape(a.title)}</h1>", f"<p>{html.escape(intro)}</p>", f'<div id="plots">{figs}</div>']
    for title, table in sections:
        body += [f"<h2>{html.escape(title)}</h2>", md_block_to_html(table)]
    if missing:
        body += ["<h2>Not in this report</h2><ul>" + "".join(f"<li>{html.escape(m)}</li>" for m in missing) + "</ul>"]
    body += ["<h2>Provenance</h2><ul>",
             f"<li>git revision: <code>{html.escape(manifest.get('git_revision', 'unknown'))}</code></li>",
             f"<li>command: <code>{html.escape(' '.join(manifest.get('argv', [])))}</code></li></ul>"]
    # A self-check the headless-browser test reads: every plot decoded and has a size.
    check = ("<script>window.addEventListener('load',function(){var im=document.querySelectorAll('img.plot');"
             "var ok=0;for(var i=0;i<im.length;i++){if(im[i].complete&&im[i].naturalWidth>0)ok++;}"
             "document.body.setAttribute('data-plots-loaded',ok+'/'+im.length);});</script>")
    page = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(a.title)}</title>"
            f"<style>{css}</style></head><body>{''.join(body)}{check}</body></html>")
    with open(os.path.join(d, "report.html"), "w") as f:
        f.write(page)
    if not a.quiet:
        print(f"[report] {d}/report.html, report.md, {len(p.made)} plots in {p.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
