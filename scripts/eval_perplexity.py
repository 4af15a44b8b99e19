#!/usr/bin/env python3
"""Model-level accuracy: perplexity of a small real LLM on the shipped text with every linear
layer fake-quantized per format (activations and weights, blocks along K, through hifsim's
bit-exact quantizers in build/lib/libhifsim_c.so), with and without the Rollout-ResQ residual
correction on the activations, against the FP32 model.

  .venv/bin/python scripts/eval_perplexity.py --model smollm2 --tokens 256 --out reports/ppl
"""
import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "capture"))

import hifsim_lib as H  # noqa: E402


def log(msg, quiet=False):
    if not quiet:
        print(f"[perplexity] {msg}", flush=True)


def make_hook(fmt, residual):
    weights = {}

    def hook(x, role, layer, op, **_):
        if role == "weight":
            key = (layer, op)
            if key not in weights:  # weights never change: quantize each once
                weights[key] = H.qdq(fmt, x)
            return weights[key]
        if residual == "none":
            return H.qdq(fmt, x)
        return H.qdq_residual(fmt, residual, x)

    return hook


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2", help="smollm2 | llama2c:<path to stories260K.bin>")
    ap.add_argument("--text", default=os.path.join(os.path.dirname(HERE), "traces", "text", "pride_and_prejudice_ch1.txt"))
    ap.add_argument("--tokens", type=int, default=256, help="tokens evaluated (one forward each)")
    ap.add_argument("--formats", default="hif4,nvfp4,mxfp4,hif8,bf16")
    ap.add_argument("--residuals", default="none,2:4", help="residual corrections to evaluate (none, dense, 2:4, top50)")
    ap.add_argument("--out", required=True, help="output folder (perplexity.csv/.json/.md)")
    ap.add_argument("--seed", type=int, default=0, help="token sampling seed (models without a tokenizer)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)

    import capture as cap  # noqa: E402
    import llama_numpy as ln  # noqa: E402

    ld = cap.load_model(a.model)
    if ld.tokenizer is not None:
        with open(a.text, encoding="utf-8") as f:
            ids = ld.tokenizer.encode(f.read(), add_bos=True)
        source = os.path.relpath(a.text, os.path.dirname(HERE))
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
    log(f"{ld.name}: FP32 perplexity {base:.4f} on {len(ids) - 1} tokens ({time.time() - t0:.1f} s)", a.quiet)
    rows.append({"format": "fp32", "residual": "none", "perplexity": base, "ratio_to_fp32": 1.0})
    for fmt in a.formats.split(","):
        for res in a.residuals.split(","):
            if fmt in ("bf16",) and res != "none":
                continue  # the baseline format needs no correction
            t1 = time.time()
            p = ln.perplexity(ld.model, ids, quantize=make_hook(fmt, res))
            rows.append({"format": fmt, "residual": res, "perplexity": p, "ratio_to_fp32": p / base})
            log(f"{fmt:10s} residual {res:6s} perplexity {p:.4f} (x{p / base:.4f}) ({time.time() - t1:.1f} s)", a.quiet)
    meta = {"model": ld.name, "model_source": ld.source, "weights_sha256": ld.sha, "tokens": len(ids) - 1,
            "text": source, "quantized_ops": list(ln.LINEAR_OPS), "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(a.out, "perplexity.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=2)
    with open(os.path.join(a.out, "perplexity.csv"), "w") as f:
        f.write("format,residual,perplexity,ratio_to_fp32\n")
        for r in rows:
            f.write(f"{r['format']},{r['residual']},{r['perplexity']:.6f},{r['ratio_to_fp32']:.6f}\n")
    md = [f"Perplexity of {ld.name} on {len(ids) - 1} tokens ({source}); every linear layer's activations and "
          "weights fake-quantized (embedding and LM head excluded).", "",
          "| format | residual | perplexity | x FP32 |", "|---|---|---|---|"]
    md += [f"| {r['format']} | {r['residual']} | {r['perplexity']:.3f} | {r['ratio_to_fp32']:.4f} |" for r in rows]
    with open(os.path.join(a.out, "perplexity.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    if not a.quiet:
        print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
