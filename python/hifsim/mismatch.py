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

  python -m hifsim.mismatch --model smollm2 --tokens 256 --out reports/mismatch
"""
import argparse
import json
import os
import sys
import time

import numpy as np

import hifsim as H
from hifsim.capture import llama_numpy as ln
from hifsim.perplexity import make_hook


def log(msg):
    print(f"[mismatch] {msg}", flush=True)


def rollout_logprobs(model, ids, hook):
    """log-softmax of the decode forward: one token at a time through a KV cache."""
    cache = ln.KVCache(model.config, max_len=len(ids))
    out = np.empty((len(ids), model.config.vocab_size))
    for i, t in enumerate(ids):
        out[i] = ln.log_softmax(ln.forward(model, [t], cache=cache, quantize=hook, logits_for="last"))[0]
    return out


def training_logprobs(model, ids, hook):
    return ln.log_softmax(ln.forward(model, ids, quantize=hook))


def compare(lp_roll, lp_train, targets):
    """(mean |delta log p| of the targets, mean KL(rollout || training)) over the positions."""
    idx = np.arange(len(targets))
    dlp = np.abs(lp_roll[idx, targets] - lp_train[idx, targets])
    kl = np.sum(np.exp(lp_roll) * (lp_roll - lp_train), axis=-1)
    return float(np.mean(dlp)), float(np.mean(kl))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--model", default="smollm2", help="smollm2 or llama2c:<path> (as the capture)")
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--text", default="traces/text/pride_and_prejudice_ch1.txt")
    ap.add_argument("--formats", default="hif4,nvfp4,mxfp4,hif8")
    ap.add_argument("--residual", default="2:4", help="the Rollout-ResQ residual of the rollout (dense, 2:4, top50)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    from hifsim.capture.capture import ROOT, load_model
    ld = load_model(a.model)
    m = ld.model
    if ld.tokenizer is not None:
        ids = ld.tokenizer.encode(open(os.path.join(ROOT, a.text), encoding="utf-8").read())[:a.tokens + 1]
    else:
        ids = [1] + ln.sample(m, [1], a.tokens, seed=0)
    inputs, targets = ids[:-1], np.asarray(ids[1:])
    t0 = time.time()
    bad = [0]
    train_bf16 = training_logprobs(m, inputs, make_hook("bf16", "none", bad))
    rows = []
    for f in a.formats.split(","):
        train = training_logprobs(m, inputs, make_hook(f, "none", bad))
        roll = rollout_logprobs(m, inputs, make_hook(f, "none", bad))
        roll_r = rollout_logprobs(m, inputs, make_hook(f, a.residual, bad))
        row = {"format": f}
        for key, (r, t) in {"rollout_vs_train_same": (roll, train), "resq_vs_train_same": (roll_r, train),
                            "rollout_vs_train_bf16": (roll, train_bf16), "resq_vs_train_bf16": (roll_r, train_bf16)}.items():
            d, k = compare(r, t, targets)
            row[key + "_dlogp"], row[key + "_kl"] = d, k
        rows.append(row)
        log(f"{f}: " + ", ".join(f"{k} {v:.4g}" for k, v in row.items() if k != "format") + f" ({time.time() - t0:.0f} s)")
    if bad[0]:
        log(f"WARNING: {bad[0]} NaN/Inf quantized values")
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "mismatch.json"), "w") as fh:
        json.dump({"model": ld.name, "tokens": len(inputs), "residual": a.residual, "nonfinite": bad[0],
                   "seconds": round(time.time() - t0, 1), "rows": rows}, fh, indent=1)
    md = [f"Rollout/training mismatch, {ld.name}, {len(inputs)} tokens; rollout = decode with KV cache, "
          f"training = full-sequence forward; ResQ = Rollout-ResQ {a.residual} on the rollout only. "
          "Each cell: mean |delta log p| / mean KL(rollout || training).", "",
          "| format | rollout vs training (same format) | rollout+ResQ vs training (same format) | "
          "rollout vs training BF16 | rollout+ResQ vs training BF16 |", "|---|---|---|---|---|"]
    for r in rows:
        cells = [f"{r[k + '_dlogp']:.4f} / {r[k + '_kl']:.4f}" for k in
                 ("rollout_vs_train_same", "resq_vs_train_same", "rollout_vs_train_bf16", "resq_vs_train_bf16")]
        md.append(f"| {r['format']} | " + " | ".join(cells) + " |")
    with open(os.path.join(a.out, "mismatch.md"), "w") as fh:
        fh.write("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
