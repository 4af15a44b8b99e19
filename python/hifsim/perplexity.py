#!/usr/bin/env python3
"""Model-level accuracy: perplexity of a small real LLM on the shipped text with every linear
layer computed in a number format, against the FP32 model, two ways (--gemm):
  fake       the layer's activations and weights fake-quantized (quantize-dequantize through
             hifsim's bit-exact quantizers), then an exact float64 GEMM rounded to FP32; with and
             without the Rollout-ResQ residual correction on the activations
  bit-exact  the layer computed by the format's bit-exact GEMM engine (hifsim.gemm: the same
             quantizers, then the format's dot-product unit and FP32 accumulator, exactly as the
             matrix unit computes it)
The difference between the two is what the unit's arithmetic (block dot products, FP32
accumulation across K, NVFP4's tensor-scale epilogue) adds to the quantization error.

  python -m hifsim.perplexity --model smollm2 --tokens 256 --text traces/text/pride_and_prejudice_ch1.txt --out reports/ppl
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

import hifsim as H


def log(msg, quiet=False):
    if not quiet:
        print(f"[perplexity] {msg}", flush=True)


_OPTIONS = {}  # format -> extra quantizer options of every run (--hif4-convention); inherited by forked workers


def make_hook(fmt, residual, nonfinite, threads=0, weights=None):
    """The fake-quantization hook; counts NaN/Inf values the quantizer produces in nonfinite[0].
    weights: the quantized-weight store, to share between hooks of the same format (the residual
    applies to activations only, so every hook of a format quantizes a weight to the same array)."""
    weights = {} if weights is None else weights

    def counted(y):
        nonfinite[0] += int(y.size - np.count_nonzero(np.isfinite(y)))
        return y

    def hook(x, role, layer, op, **_):
        if role == "weight":
            key = (layer, op)
            if key not in weights:  # weights never change: quantize each once
                weights[key] = counted(H.quantize_dequantize(x, fmt, threads=threads, **_OPTIONS.get(fmt, {})))
            return weights[key]
        if residual == "none":
            return counted(H.quantize_dequantize(x, fmt, threads=threads, **_OPTIONS.get(fmt, {})))
        return counted(H.quantize_dequantize(x, fmt, residual=residual, threads=threads, **_OPTIONS.get(fmt, {})))

    return hook


def result_row(fmt, residual, p, base, nonfinite, gemm="fake"):
    """One result. A perplexity computed through NaN/Inf quantized values (or itself NaN/Inf) is
    not a score: it is reported as invalid, with the count, never as a number (issue 18)."""
    valid = math.isfinite(p) and nonfinite == 0
    return {"format": fmt, "residual": residual, "gemm": gemm, "perplexity": p if valid else None,
            "ratio_to_fp32": p / base if valid else None, "valid": valid, "nonfinite_quantized_values": nonfinite}


def row_text(r):
    """(perplexity, ratio) as table text: numbers, or 'invalid' with the reason."""
    if r["valid"]:
        return f"{r['perplexity']:.3f}", f"{r['ratio_to_fp32']:.4f}"
    why = f"{r['nonfinite_quantized_values']} NaN/Inf values after quantization" if r["nonfinite_quantized_values"] \
        else "NaN/Inf perplexity"
    return f"invalid ({why})", "invalid"


def exact_vs_fake(rows):
    """Per format with both valid: the bit-exact GEMM's perplexity relative to fake quantization's."""
    out = []
    for r in rows:
        if r["gemm"] != "bit-exact" or not r["valid"]:
            continue
        fake = next((f for f in rows if f["format"] == r["format"] and f["gemm"] == "fake" and f["residual"] == "none"
                     and f["valid"]), None)
        if fake:
            out.append({"format": r["format"], "fake": fake["perplexity"], "bit_exact": r["perplexity"],
                        "relative": r["perplexity"] / fake["perplexity"] - 1.0})
    return out


def write_results(out, meta, rows, title):
    """perplexity.json (strict JSON: null, never NaN), .csv and .md; returns the Markdown lines."""
    diffs = exact_vs_fake(rows)
    with open(os.path.join(out, "perplexity.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows, "bit_exact_vs_fake": diffs}, f, indent=2, allow_nan=False)
    with open(os.path.join(out, "perplexity.csv"), "w") as f:
        f.write("format,residual,gemm,perplexity,ratio_to_fp32,valid,nonfinite_quantized_values\n")
        for r in rows:
            p, q = (f"{r['perplexity']:.6f}", f"{r['ratio_to_fp32']:.6f}") if r["valid"] else ("invalid", "invalid")
            f.write(f"{r['format']},{r['residual']},{r['gemm']},{p},{q},{str(r['valid']).lower()},"
                    f"{r['nonfinite_quantized_values']}\n")
    md = [title, "", "| format | residual | GEMM | perplexity | x FP32 |", "|---|---|---|---|---|"]
    md += ["| {} | {} | {} | {} | {} |".format(r["format"], r["residual"], r["gemm"], *row_text(r)) for r in rows]
    if diffs:
        md += ["", "The bit-exact GEMM against fake quantization (same quantizers, no residual):", "",
               "| format | fake | bit-exact | difference |", "|---|---|---|---|"]
        md += [f"| {d['format']} | {d['fake']:.4f} | {d['bit_exact']:.4f} | {100 * d['relative']:+.3f}% |" for d in diffs]
    with open(os.path.join(out, "perplexity.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return md


def make_gemm(fmt, threads, nonfinite):
    """Every linear layer through the format's bit-exact GEMM engine; counts its NaN/Inf outputs (the
    row's nonfinite_quantized_values: a layer output that is not finite makes the run invalid)."""
    def linear_gemm(a, w, **_):
        y = H.gemm(a, w, fmt, threads=threads, **_OPTIONS.get(fmt, {}))
        nonfinite[0] += int(y.size - np.count_nonzero(np.isfinite(y)))
        return y

    return linear_gemm


def one_run(model, ids, run, threads):
    """(perplexity, NaN/Inf count, seconds) of one (format, gemm, residual) run."""
    from .capture import llama_numpy as ln
    fmt, how, res = run
    t = time.time()
    nonfinite = [0]
    if how == "fake":
        p = ln.perplexity(model, ids, quantize=make_hook(fmt, res, nonfinite, threads))
    else:
        p = ln.perplexity(model, ids, linear_gemm=make_gemm(fmt, threads, nonfinite))
    return p, nonfinite[0], time.time() - t


_SHARED = None  # (model, ids) of the forked workers: inherited, never pickled


def _worker(run):
    return one_run(*_SHARED, run, 1)


def evaluate(model, ids, runs, jobs, threads):
    """Yields every run's result, in the order of `runs`. With jobs > 1 the runs go to forked processes
    (each inherits the model; the engine then uses one thread per process): every run is one
    deterministic forward, so the results are the same bits for any jobs/threads."""
    global _SHARED
    if jobs <= 1:
        for r in runs:
            yield one_run(model, ids, r, threads)
        return
    import multiprocessing as mp
    _SHARED = (model, ids)
    try:
        with mp.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(_worker, runs, chunksize=1)  # in order, as they finish
    finally:
        _SHARED = None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2", help="smollm2 | llama2c:<path to stories260K.bin>")
    ap.add_argument("--text", default="traces/text/pride_and_prejudice_ch1.txt",
                    help="text to evaluate on (models with a tokenizer); relative to the current directory")
    ap.add_argument("--tokens", type=int, default=256, help="tokens evaluated (one forward each)")
    ap.add_argument("--formats", default="hif4,nvfp4,mxfp4,hif8,bf16")
    ap.add_argument("--residuals", default="none,2:4", help="residual corrections to evaluate (none, dense, 2:4, top50)")
    ap.add_argument("--gemm", default="both", choices=("fake", "bit-exact", "both"),
                    help="fake quantization, the bit-exact GEMM engine (no residual), or both (default)")
    ap.add_argument("--jobs", type=int, default=0,
                    help="runs evaluated in parallel, one process each (0 = one per core); results do not depend on it")
    ap.add_argument("--threads", type=int, default=0,
                    help="threads of the bit-exact GEMM when --jobs is 1 (0 = all cores; 1 per process otherwise)")
    ap.add_argument("--out", required=True, help="output folder (perplexity.csv/.json/.md)")
    ap.add_argument("--seed", type=int, default=0, help="token sampling seed (models without a tokenizer)")
    ap.add_argument("--hif4-convention", default="official", choices=("official", "ascend-a6"),
                    help="hif4 quantizer reference (docs/formats.md 3.1)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    _OPTIONS.clear()
    if a.hif4_convention != "official":
        _OPTIONS["hif4"] = {"hif4_convention": a.hif4_convention}

    from .capture import capture as cap
    from .capture import llama_numpy as ln

    ld = cap.load_model(a.model)
    if ld.tokenizer is not None:
        with open(a.text, encoding="utf-8") as f:
            ids = ld.tokenizer.encode(f.read(), add_bos=True)
        source = a.text
    else:  # no tokenizer (stories260K): the model's own greedy-free sample from BOS
        ids = ln.sample(ld.model, [1], a.tokens, seed=a.seed)
        source = f"own sample, seed {a.seed}"
    ids = list(ids[: a.tokens + 1])
    if len(ids) < 2:
        sys.exit(f"{a.text}: too few tokens")
    os.makedirs(a.out, exist_ok=True)
    rows = []
    t0 = time.time()
    base = ln.perplexity(ld.model, ids)
    if not math.isfinite(base):
        sys.exit(f"{ld.name}: the FP32 model's perplexity is {base}: no baseline to compare with")
    log(f"{ld.name}: FP32 perplexity {base:.4f} on {len(ids) - 1} tokens ({time.time() - t0:.1f} s)", a.quiet)
    rows.append(result_row("fp32", "none", base, base, 0, "fp64"))
    runs = []
    for fmt in a.formats.split(","):
        if a.gemm in ("fake", "both"):  # the baseline format needs no correction
            runs += [(fmt, "fake", res) for res in a.residuals.split(",") if res == "none" or fmt != "bf16"]
        if a.gemm in ("bit-exact", "both"):
            runs.append((fmt, "bit-exact", "none"))
    jobs = min(len(runs), a.jobs if a.jobs > 0 else (os.cpu_count() or 1))
    for (fmt, how, res), (p, nonfinite, seconds) in zip(runs, evaluate(ld.model, ids, runs, jobs, a.threads)):
        rows.append(result_row(fmt, res, p, base, nonfinite, how))
        log(f"{fmt:10s} {how:9s} residual {res:6s} perplexity {' '.join(row_text(rows[-1]))} ({seconds:.1f} s)", a.quiet)
    meta = {"model": ld.name, "model_source": ld.source, "weights_sha256": ld.sha, "tokens": len(ids) - 1,
            "hif4_convention": a.hif4_convention,
            "text": source, "quantized_ops": list(ln.LINEAR_OPS), "seconds": round(time.time() - t0, 1)}
    md = write_results(a.out, meta, rows, f"Perplexity of {ld.name} on {len(ids) - 1} tokens ({source}); every linear "
                       "layer in the format (embedding and LM head excluded): `fake` = activations and weights "
                       "fake-quantized, float64 GEMM; `bit-exact` = the format's bit-exact GEMM engine (its dot-product "
                       "unit and FP32 accumulator).")
    if not a.quiet:
        print("\n".join(md))
    return 0


if __name__ == "__main__":
    # One BLAS thread per process: the runs are parallel processes, and OpenBLAS's own threads on
    # these small float64 GEMMs mostly spin (4x the CPU time of one thread here). The BLAS library
    # reads this when it loads, so the command restarts itself once with it set.
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        os.execv(sys.executable, [sys.executable, "-m", "hifsim.perplexity"] + sys.argv[1:])
    sys.exit(main())
