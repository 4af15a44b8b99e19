#!/usr/bin/env python3
"""Rollout/training mismatch (the HiF4 RL post-training paper's failure mode): per-token
log-probabilities of the *rollout* forward against the *training* forward of the same policy.

  rollout   the sequence decoded token by token with a KV cache (as an inference engine samples
            it, teacher-forced on the shipped text), every linear layer's activations and weights
            fake-quantized in the format (hifsim's bit-exact quantizers), with or without the
            Rollout-ResQ residual on the activations (rollout only: the training side never has it)
  training  the same tokens in one full-sequence forward (as the trainer recomputes them), linear
            layers in the same format without residual, or in BF16

For every pair: mean |delta log p| of the text's next token and the mean KL(rollout || training)
over the positions. With row-local block scales (HiF4, MXFP4, HiF8) a 1-row and a T-row activation
quantize the same, so decode and full-sequence forwards differ only by the last-bit effects of
the two evaluation orders; NVFP4's per-tensor FP32 scale depends on the whole activation tensor,
so its decode and training forwards quantize differently.

  python -m hifsim.mismatch --model smollm2 --tokens 256 --jobs 2 --out reports/mismatch

Writes OUT/mismatch.json (one row per format, with its seconds) and OUT/mismatch.md; with OUT =
REPORT_DIR/data the report renders the table (`hifsim compare --mismatch-tokens N` does that).
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np

import hifsim as H
from hifsim.capture import llama_numpy as ln
from hifsim.perplexity import _OPTIONS, make_hook


def log(msg):
    print(f"[mismatch] {msg}", flush=True)


def weights_once_gemm():
    """A linear_gemm for ln.forward computing ln.gemm's float64 GEMM with each layer's (quantized)
    weight converted to float64 once, not once per token: the decode calls every layer for every
    token, and those conversions (with the classifier's) were most of a SmolLM2 rollout's time.
    Same call, same bits."""
    cache = {}

    def linear_gemm(a, w, layer, op):
        hit = cache.get((layer, op))
        if hit is None or hit[0] is not w:  # the hook returns one array per weight; anything else converts afresh
            hit = cache[(layer, op)] = (w, w.astype(np.float64))
        return ln.gemm_b64(a, hit[1])

    return linear_gemm


def rollout_logprobs(model, ids, hook, head=None):
    """log-softmax of the decode forward: one token at a time through a KV cache (head: the
    classifier in float64, when the caller converted it once for several rollouts)."""
    cache = ln.KVCache(model.config, max_len=len(ids))
    out = np.empty((len(ids), model.config.vocab_size))
    lin = weights_once_gemm()
    if head is None:
        head = model.classifier.astype(np.float64)
    for i, t in enumerate(ids):
        out[i] = ln.log_softmax(ln.forward(model, [t], cache=cache, quantize=hook, linear_gemm=lin,
                                           logits_for="last", classifier_b64=head))[0]
    return out


def training_logprobs(model, ids, hook):
    return ln.log_softmax(ln.forward(model, ids, quantize=hook))


def compare(lp_roll, lp_train, targets):
    """(mean |delta log p| of the targets, mean KL(rollout || training)) over the positions."""
    idx = np.arange(len(targets))
    dlp = np.abs(lp_roll[idx, targets] - lp_train[idx, targets])
    kl = np.sum(np.exp(lp_roll) * (lp_roll - lp_train), axis=-1)
    return float(np.mean(dlp)), float(np.mean(kl))


PAIRS = ("rollout_vs_train_same", "resq_vs_train_same", "rollout_vs_train_bf16", "resq_vs_train_bf16")


def measure_format(model, inputs, targets, fmt, residual, train_bf16):
    """One table row: the four pairs of one format, with its own NaN/Inf count and seconds. A row
    measured through NaN/Inf quantized values, or whose figures are not finite, is not a score:
    valid is False and its figures are None (never a number that could look good)."""
    t0, bad, wq = time.time(), [0], {}  # wq: the format's weights, quantized once for the three forwards
    head = model.classifier.astype(np.float64)
    train = training_logprobs(model, inputs, make_hook(fmt, "none", bad, weights=wq))
    roll = rollout_logprobs(model, inputs, make_hook(fmt, "none", bad, weights=wq), head)
    roll_r = rollout_logprobs(model, inputs, make_hook(fmt, residual, bad, weights=wq), head)
    row = {"format": fmt}
    for key, (r, t) in zip(PAIRS, ((roll, train), (roll_r, train), (roll, train_bf16), (roll_r, train_bf16))):
        row[key + "_dlogp"], row[key + "_kl"] = compare(r, t, targets)
    figures = [k + s for k in PAIRS for s in ("_dlogp", "_kl")]
    row["valid"] = bad[0] == 0 and all(math.isfinite(row[k]) for k in figures)
    if not row["valid"]:
        row.update({k: None for k in figures})
    row["nonfinite"], row["seconds"] = bad[0], round(time.time() - t0, 1)
    return row


MAX_TOKENS = 100000


def row_is_valid(r):
    """Rows written before the valid field: invalid when they counted NaN/Inf values."""
    return r.get("valid", not r.get("nonfinite"))


def mismatch_table(mm):
    """The rollout/training mismatch (mismatch.json) as Markdown: one row per format, each cell
    mean |delta log p| / mean KL(rollout || training) in nats."""
    out = [f"{mm['model']}, {mm['tokens']} tokens; rollout = decode with a KV cache, training = full-sequence "
           f"forward; ResQ = Rollout-ResQ {mm['residual']} on the rollout only. Each cell: mean |Δ log p| / "
           "mean KL(rollout ‖ training), nats (docs/training.md).", "",
           "| format | rollout vs training (same format) | rollout+ResQ vs training (same format) | "
           "rollout vs training BF16 | rollout+ResQ vs training BF16 | seconds |", "|---|---|---|---|---|---|"]
    for r in mm["rows"]:
        cells = [f"{r[k + '_dlogp']:.4f} / {r[k + '_kl']:.4f}" if row_is_valid(r) else "invalid (NaN/Inf)"
                 for k in PAIRS]
        out.append(f"| {r['format']} | " + " | ".join(cells) + f" | {r.get('seconds', '')} |")
    return "\n".join(out)


_SHARED = None  # (model, inputs, targets, residual, train_bf16) of the forked workers: inherited, never pickled


def _worker(fmt):
    m, inputs, targets, residual, train_bf16 = _SHARED
    return measure_format(m, inputs, targets, fmt, residual, train_bf16)


def measure(model, inputs, targets, formats, residual, train_bf16, jobs):
    """Yields the rows in the order of `formats`; with jobs > 1 each format in a forked process (every
    row is deterministic numpy and bit-exact quantizers: the same numbers for any jobs)."""
    global _SHARED
    if jobs <= 1:
        for f in formats:
            yield measure_format(model, inputs, targets, f, residual, train_bf16)
        return
    import multiprocessing as mp
    _SHARED = (model, inputs, targets, residual, train_bf16)
    try:
        with mp.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(_worker, formats, chunksize=1)
    finally:
        _SHARED = None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--model", default="smollm2", help="smollm2 or llama2c:<path> (as the capture)")
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--text", default="traces/text/pride_and_prejudice_ch1.txt")
    ap.add_argument("--formats", default="hif4,nvfp4,mxfp4,hif8")
    ap.add_argument("--residual", default="2:4", help="the Rollout-ResQ residual of the rollout (dense, 2:4, top50)")
    ap.add_argument("--jobs", type=int, default=1, help="formats measured in parallel, one process each (0 = one per "
                    "core); results do not depend on it")
    ap.add_argument("--hif4-convention", default="official", choices=("official", "ascend-a6"),
                    help="hif4 quantizer reference (docs/formats.md 3.1)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    formats = a.formats.split(",")
    if not 1 <= a.tokens <= MAX_TOKENS:  # the range of `hifsim compare --mismatch-tokens` (sim/cmd_compare.cpp)
        ap.error(f"--tokens: {a.tokens} must be between 1 and {MAX_TOKENS}")
    if a.jobs < 0:
        ap.error(f"--jobs: {a.jobs} must be 0 (one per core) or more")
    if not all(formats):
        ap.error(f"--formats: '{a.formats}' names an empty format (give a comma-separated list, e.g. hif4,nvfp4)")
    if a.residual not in ("dense", "2:4", "top50"):
        ap.error(f"--residual: '{a.residual}' is not one of dense, 2:4, top50")
    unknown = [f for f in formats if f not in H.tensor_formats()]
    if unknown:
        ap.error(f"--formats: {', '.join(unknown)}: unknown (choose from {', '.join(H.tensor_formats())})")
    _OPTIONS.clear()
    if a.hif4_convention != "official":
        _OPTIONS["hif4"] = {"hif4_convention": a.hif4_convention}
    from hifsim.capture.capture import ROOT, CaptureError, load_model
    try:
        ld = load_model(a.model)
    except CaptureError as e:
        ap.error(str(e))
    m = ld.model
    if ld.tokenizer is not None:
        ids = ld.tokenizer.encode(open(os.path.join(ROOT, a.text), encoding="utf-8").read())[:a.tokens + 1]
    else:
        ids = [1] + ln.sample(m, [1], a.tokens, seed=0)
    inputs, targets = ids[:-1], np.asarray(ids[1:])
    t0 = time.time()
    bad = [0]
    train_bf16 = training_logprobs(m, inputs, make_hook("bf16", "none", bad))
    jobs = min(len(formats), a.jobs if a.jobs > 0 else (os.cpu_count() or 1))
    rows = []
    baseline_ok = bad[0] == 0 and bool(np.all(np.isfinite(train_bf16)))
    for row in measure(m, inputs, targets, formats, a.residual, train_bf16, jobs):
        if not baseline_ok:  # every row is measured against the BF16 baseline
            row.update({k: None for k in row if k.endswith(("_dlogp", "_kl"))}, valid=False)
        rows.append(row)
        bad[0] += row["nonfinite"]
        if not a.quiet:
            log(f"{row['format']}: " + ", ".join(f"{k} {v:.4g}" if isinstance(v, (int, float)) else f"{k} {v}"
                                                 for k, v in row.items() if k != "format")
                + f" ({time.time() - t0:.0f} s)")
    if bad[0]:
        log(f"WARNING: {bad[0]} NaN/Inf quantized values")
    os.makedirs(a.out, exist_ok=True)
    result = {"model": ld.name, "tokens": len(inputs), "residual": a.residual, "nonfinite": bad[0],
              "seconds": round(time.time() - t0, 1), "rows": rows}
    with open(os.path.join(a.out, "mismatch.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    md = mismatch_table(result)
    with open(os.path.join(a.out, "mismatch.md"), "w") as fh:
        fh.write(md + "\n")
    if not a.quiet:
        print(md)
    return 0


if __name__ == "__main__":
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1":  # one BLAS thread per process, as hifsim.perplexity
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
        os.execv(sys.executable, [sys.executable, "-m", "hifsim.mismatch"] + sys.argv[1:])
    sys.exit(main())
