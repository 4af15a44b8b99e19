#!/usr/bin/env python3
"""Write the shape-only traces (no tensors) for large published models.

    shape_traces.py [--out traces/shapes] [--prefill-tokens 2048] [--decode-batch 64]
                    [--decode-context 2048]

For Llama-3-8B, Qwen2.5-7B and DeepSeek-V3 it writes <out>/<model>-prefill<T>/trace.yaml
(one sequence of T tokens), <out>/<model>-decode-b<B>/trace.yaml (B sequences, one new
token each, attending to a KV cache of --decode-context tokens) and <out>/<model>-train<T>/trace.yaml
(one training step on a sequence of T tokens: the prefill GEMMs as fprop/attn_fwd plus every
backward GEMM, schema hifsim-trace/2). Each op lists one
representative layer; `repeat` says how many times the GEMM occurs in one forward pass
(one step) of the whole model. GEMM convention C = A.B^T: A = M x K activations,
B = N x K weights. Attention ops: batch = independent per-head (per-sequence) GEMMs.

Not listed: token embedding lookup, LM head (vocab projection), MoE router, norms.
"""
from __future__ import annotations

import argparse
import os
import sys

from .capture import ROOT, dump_yaml
from .validate_trace import SCHEMA as SCHEMA_V2, SCHEMA_V1 as SCHEMA, validate_trace

# Published configs (config.json of the released checkpoints), hard-coded.
# meta-llama/Meta-Llama-3-8B config.json: hidden_size 4096, intermediate_size 14336,
# num_attention_heads 32, num_key_value_heads 8, num_hidden_layers 32 (head_dim 128),
# vocab_size 128256, rope_theta 500000.
LLAMA3_8B = dict(name="Llama-3-8B", key="llama3-8b", architecture="llama",
                 config="meta-llama/Meta-Llama-3-8B config.json: hidden_size 4096, "
                        "intermediate_size 14336, num_attention_heads 32, num_key_value_heads 8, "
                        "num_hidden_layers 32, head_dim 128",
                 hidden=4096, inter=14336, heads=32, kv_heads=8, layers=32, head_dim=128)
# Qwen/Qwen2.5-7B config.json: hidden_size 3584, intermediate_size 18944,
# num_attention_heads 28, num_key_value_heads 4, num_hidden_layers 28 (head_dim 128),
# vocab_size 152064; q/k/v projections carry a bias (does not change the GEMM shapes).
QWEN25_7B = dict(name="Qwen2.5-7B", key="qwen2.5-7b", architecture="qwen2",
                 config="Qwen/Qwen2.5-7B config.json: hidden_size 3584, intermediate_size 18944, "
                        "num_attention_heads 28, num_key_value_heads 4, num_hidden_layers 28, "
                        "head_dim 128 (q/k/v bias)",
                 hidden=3584, inter=18944, heads=28, kv_heads=4, layers=28, head_dim=128)
# deepseek-ai/DeepSeek-V3 config.json: hidden_size 7168, intermediate_size 18432 (dense
# MLP of the first first_k_dense_replace = 3 layers), moe_intermediate_size 2048,
# num_hidden_layers 61, num_attention_heads 128, q_lora_rank 1536, kv_lora_rank 512,
# qk_nope_head_dim 128, qk_rope_head_dim 64, v_head_dim 128, n_routed_experts 256,
# n_shared_experts 1, num_experts_per_tok 8, vocab_size 129280 (the extra MTP layer,
# num_nextn_predict_layers 1, is not part of the main forward and is not listed).
DEEPSEEK_V3 = dict(name="DeepSeek-V3", key="deepseek-v3", architecture="deepseek_v3",
                   config="deepseek-ai/DeepSeek-V3 config.json: hidden_size 7168, "
                          "intermediate_size 18432, moe_intermediate_size 2048, "
                          "num_hidden_layers 61, first_k_dense_replace 3, num_attention_heads 128, "
                          "q_lora_rank 1536, kv_lora_rank 512, qk_nope_head_dim 128, "
                          "qk_rope_head_dim 64, v_head_dim 128, n_routed_experts 256, "
                          "n_shared_experts 1, num_experts_per_tok 8",
                   hidden=7168, inter=18432, moe_inter=2048, layers=61, dense_layers=3, heads=128,
                   q_lora=1536, kv_lora=512, nope=128, rope=64, v_dim=128, experts=256,
                   shared=1, top_k=8)


def op(name, layer, kind, M, N, K, batch=1, repeat=1, note=None):
    d = {"name": name, "layer": layer, "op": kind, "M": M, "N": N, "K": K, "batch": batch,
         "repeat": repeat}
    if note:
        d["note"] = note
    return d


def dense_ops(c, phase, T, S, ctx):
    """Llama-style GQA decoder. T = tokens in this step (prefill: the prompt; decode: S)."""
    hd, L = c["head_dim"], c["layers"]
    ops = [
        op("q_proj", 0, "q_proj", T, c["heads"] * hd, c["hidden"], repeat=L),
        op("k_proj", 0, "k_proj", T, c["kv_heads"] * hd, c["hidden"], repeat=L),
        op("v_proj", 0, "v_proj", T, c["kv_heads"] * hd, c["hidden"], repeat=L),
    ]
    if phase == "prefill":
        ops += [op("attn_qk", 0, "attn_qk", T, T, hd, batch=c["heads"], repeat=L,
                   note="per query head; causal: a kernel may skip the tiles above the diagonal"),
                op("attn_pv", 0, "attn_pv", T, hd, T, batch=c["heads"], repeat=L,
                   note="per query head; P is lower-triangular")]
    else:
        ops += [op("attn_qk", 0, "attn_qk", 1, ctx, hd, batch=S * c["heads"], repeat=L,
                   note=f"per (sequence, query head): 1 new token against {ctx} cached keys; "
                        f"{c['heads'] // c['kv_heads']} query heads share a KV head (GQA) and may "
                        "be stacked into M by a kernel"),
                op("attn_pv", 0, "attn_pv", 1, hd, ctx, batch=S * c["heads"], repeat=L,
                   note="per (sequence, query head)")]
    ops += [
        op("o_proj", 0, "o_proj", T, c["hidden"], c["heads"] * hd, repeat=L),
        op("gate_proj", 0, "gate_proj", T, c["inter"], c["hidden"], repeat=L),
        op("up_proj", 0, "up_proj", T, c["inter"], c["hidden"], repeat=L),
        op("down_proj", 0, "down_proj", T, c["hidden"], c["inter"], repeat=L),
    ]
    return ops


def deepseek_ops(c, phase, T, S, ctx):
    L, Ld = c["layers"], c["dense_layers"]
    Lm = L - Ld
    H, qk = c["heads"], c["nope"] + c["rope"]
    ops = [
        op("mla.q_a_proj", 0, "q_proj", T, c["q_lora"], c["hidden"], repeat=L,
           note="MLA query down-projection (q_a_proj)"),
        op("mla.q_b_proj", 0, "q_proj", T, H * qk, c["q_lora"], repeat=L,
           note="MLA query up-projection (q_b_proj): 128 heads x (128 nope + 64 rope)"),
        op("mla.kv_a_proj", 0, "k_proj", T, c["kv_lora"] + c["rope"], c["hidden"], repeat=L,
           note="MLA kv_a_proj_with_mqa: 512-dim KV latent + 64-dim shared rope key"),
    ]
    if phase == "prefill":
        ops += [
            op("mla.kv_b_proj.k", 0, "k_proj", T, H * c["nope"], c["kv_lora"], repeat=L,
               note="key half of kv_b_proj (latent -> 128 heads x 128 nope dims)"),
            op("mla.kv_b_proj.v", 0, "v_proj", T, H * c["v_dim"], c["kv_lora"], repeat=L,
               note="value half of kv_b_proj (latent -> 128 heads x 128 dims)"),
            op("attn_qk", 0, "attn_qk", T, T, qk, batch=H, repeat=L,
               note="non-absorbed MLA (usual for prefill): per head, K = 128 nope + 64 rope"),
            op("attn_pv", 0, "attn_pv", T, c["v_dim"], T, batch=H, repeat=L,
               note="per head; P is lower-triangular"),
        ]
    else:
        ops += [
            op("mla.q_absorb_uk", 0, "q_proj", T, c["kv_lora"], c["nope"], batch=H, repeat=L,
               note="absorbed MLA decode: per head, q_nope (128) times W_UK into the 512-dim "
                    "latent space"),
            op("attn_qk", 0, "attn_qk", H, ctx, c["kv_lora"] + c["rope"], batch=S, repeat=L,
               note=f"absorbed MLA: per sequence the 128 heads share one latent KV (MQA-like), "
                    f"so heads are stacked into M; K = 512 latent + 64 rope; {ctx} cached tokens"),
            op("attn_pv", 0, "attn_pv", H, c["kv_lora"], ctx, batch=S, repeat=L,
               note="absorbed MLA: P (128 heads x context) times the latent values (512)"),
            op("mla.v_absorb_uv", 0, "v_proj", T, c["v_dim"], c["kv_lora"], batch=H, repeat=L,
               note="per head, latent attention output (512) times W_UV -> 128"),
        ]
    routed = T * c["top_k"] // c["experts"]
    rnote = (f"routed experts: batch = {c['experts']} experts, M = tokens x top_k / experts = "
             f"{T} x {c['top_k']} / {c['experts']} = {routed} (perfectly balanced routing assumed)")
    ops += [
        op("o_proj", 0, "o_proj", T, c["hidden"], H * c["v_dim"], repeat=L),
        op("dense_mlp.gate_proj", 0, "gate_proj", T, c["inter"], c["hidden"], repeat=Ld,
           note="dense MLP of the first 3 layers"),
        op("dense_mlp.up_proj", 0, "up_proj", T, c["inter"], c["hidden"], repeat=Ld),
        op("dense_mlp.down_proj", 0, "down_proj", T, c["hidden"], c["inter"], repeat=Ld),
        op("moe.shared.gate_proj", Ld, "gate_proj", T, c["shared"] * c["moe_inter"], c["hidden"],
           repeat=Lm, note="shared expert, every token"),
        op("moe.shared.up_proj", Ld, "up_proj", T, c["shared"] * c["moe_inter"], c["hidden"],
           repeat=Lm),
        op("moe.shared.down_proj", Ld, "down_proj", T, c["hidden"], c["shared"] * c["moe_inter"],
           repeat=Lm),
        op("moe.routed.gate_proj", Ld, "gate_proj", routed, c["moe_inter"], c["hidden"],
           batch=c["experts"], repeat=Lm, note=rnote),
        op("moe.routed.up_proj", Ld, "up_proj", routed, c["moe_inter"], c["hidden"],
           batch=c["experts"], repeat=Lm),
        op("moe.routed.down_proj", Ld, "down_proj", routed, c["hidden"], c["moe_inter"],
           batch=c["experts"], repeat=Lm),
    ]
    return ops


def training_ops(fwd):
    """A training step's GEMMs from the forward (prefill) ones, C = A.B^T throughout: each linear
    Y = X.W^T (M tokens, N out, K in) adds dgrad dX = dY.W (M, K, N) and wgrad dW = dY^T.X (N, K, M);
    attention S = Q.K^T (T, T, d_qk) and O = P.V (T, d_v, T) add dP = dO.V^T (T, T, d_v),
    dV = P^T.dO (T, d_v, T), dQ = dS.K (T, d_qk, T) and dK = dS^T.Q (T, d_qk, T), per head."""
    out = []
    for o in fwd:
        o = dict(o)
        attn = o["op"].startswith("attn_")
        kind = "attn_fwd" if attn else "fprop"
        out.append({**{k: o[k] for k in ("name", "layer", "op")}, "kind": kind,
                    **{k: v for k, v in o.items() if k not in ("name", "layer", "op")}})
    by = {o["op"]: o for o in fwd if o["op"] in ("attn_qk", "attn_pv")}
    for o in fwd:
        if o["op"].startswith("attn_"):
            continue
        M, N, K = o["M"], o["N"], o["K"]
        base = {"layer": o["layer"], "op": o["op"]}
        rest = {"batch": o["batch"], "repeat": o["repeat"]}
        out.append({"name": o["name"] + ".dgrad", **base, "kind": "dgrad", "M": M, "N": K, "K": N, **rest,
                    "note": "dX = dY.W: reduces over the output features"})
        out.append({"name": o["name"] + ".wgrad", **base, "kind": "wgrad", "M": N, "N": K, "K": M, **rest,
                    "note": "dW = dY^T.X: reduces over the tokens"})
    if by:
        qk, pv = by["attn_qk"], by["attn_pv"]
        T, dqk, dv, H, L = qk["M"], qk["K"], pv["N"], qk["batch"], qk["repeat"]
        for name, M, N, K, note in (("attn_dp", T, T, dv, "dP = dO.V^T"), ("attn_dv", T, dv, T, "dV = P^T.dO"),
                                    ("attn_dq", T, dqk, T, "dQ = dS.K"), ("attn_dk", T, dqk, T, "dK = dS^T.Q")):
            out.append({"name": name, "layer": qk["layer"], "op": name, "kind": "attn_bwd", "M": M, "N": N,
                        "K": K, "batch": H, "repeat": L, "note": note + ", per query head"})
    return out


def write_trace(out_root, c, phase, T, S, ctx, builder) -> str:
    tag = {"prefill": f"{c['key']}-prefill{T}", "decode": f"{c['key']}-decode-b{S}",
           "training": f"{c['key']}-train{T}"}[phase]
    d = os.path.join(out_root, tag)
    os.makedirs(d, exist_ok=True)
    ops = builder(c, phase, T, S, ctx) if phase != "training" else training_ops(builder(c, "prefill", T, S, ctx))
    schema = SCHEMA_V2 if phase == "training" else SCHEMA
    macs = sum(o["M"] * o["N"] * o["K"] * o["batch"] * o["repeat"] for o in ops)
    doc = {
        "schema": schema,
        "kind": "shape-only",
        "description": (f"{c['name']} {phase}: " + {
                            "prefill": f"one sequence of {T} tokens",
                            "decode": f"{S} sequences, one new token each, {ctx}-token KV cache",
                            "training": f"one training step (forward and backward) on a sequence of {T} tokens"}[phase]
                        + f"; {len(ops)} distinct GEMMs, {macs / 1e12:.3f} T multiply-adds per step "
                        "(sum of M*N*K*batch*repeat; LM head, router and embedding not listed)"),
        "model": {"name": c["name"], "source": "published config.json (shapes only, no weights)",
                  "revision": "config as published with the released checkpoint",
                  "architecture": c["architecture"]},
        "shape": {"phase": phase, "sequences": S, "tokens": T, "context": ctx,
                  "config": c["config"]},
        "provenance": {"generated_by": "python -m hifsim.capture.shape_traces"},
        "ops": ops,
    }
    with open(os.path.join(d, "trace.yaml"), "w", encoding="utf-8") as f:
        f.write(f"# hifsim trace manifest ({schema}), shape-only; written by "
                "python -m hifsim.capture.shape_traces.\n")
        dump_yaml(doc, f)
    validate_trace(d, check_tensors=False)
    return d


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "traces", "shapes"))
    ap.add_argument("--prefill-tokens", type=int, default=2048)
    ap.add_argument("--decode-batch", type=int, default=64)
    ap.add_argument("--decode-context", type=int, default=2048,
                    help="KV-cache length seen by each decode step")
    args = ap.parse_args(argv)
    for c, builder in ((LLAMA3_8B, dense_ops), (QWEN25_7B, dense_ops), (DEEPSEEK_V3, deepseek_ops)):
        for phase in ("prefill", "decode", "training"):
            if phase in ("prefill", "training"):
                T, S = args.prefill_tokens, 1
                ctx = T
            else:
                T = S = args.decode_batch
                ctx = args.decode_context
            d = write_trace(args.out, c, phase, T, S, ctx, builder)
            print(f"wrote {os.path.relpath(os.path.join(d, 'trace.yaml'), ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
