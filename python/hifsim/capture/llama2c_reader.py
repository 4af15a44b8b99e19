"""Read a llama2.c checkpoint (the "legacy" version-0 format written by llama2.c's export).

One job: file -> LlamaModel (llama_numpy.py layout).

Format: seven little-endian int32 (dim, hidden_dim, n_layers, n_heads, n_kv_heads,
vocab_size, seq_len), then float32 tensors in this order:
  token_embedding [vocab, dim]; rms_att [L, dim]; wq [L, dim, dim]; wk [L, kv_dim, dim];
  wv [L, kv_dim, dim]; wo [L, dim, dim]; rms_ffn [L, dim]; w1 (gate) [L, hidden, dim];
  w2 (down) [L, dim, hidden]; w3 (up) [L, hidden, dim]; rms_final [dim];
  two legacy RoPE tables [seq_len, head_dim/2] each (ignored: recomputed);
  classifier [vocab, dim] only when vocab_size is negative (unshared), else the embedding.
Weight matrices are stored out-features x in-features, i.e. already B of C = A . B^T.
llama2.c uses RoPE base 10000 and RMSNorm epsilon 1e-5.
"""
from __future__ import annotations

import os

import numpy as np

from .llama_numpy import LayerWeights, LlamaConfig, LlamaModel
from .validate_trace import sha256_file  # one file hash for the readers, the capture and the validator

HEADER_INTS = 7


class CheckpointError(ValueError):
    pass


def read_llama2c(path: str) -> LlamaModel:
    if not os.path.isfile(path):
        raise CheckpointError(f"{path}: no such file")
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size < HEADER_INTS * 4:
        raise CheckpointError(f"{path}: {raw.size} bytes, too short for the 28-byte header")
    hdr = raw[:HEADER_INTS * 4].view("<i4").astype(np.int64)
    dim, hidden, n_layers, n_heads, n_kv, vocab, seq_len = (int(v) for v in hdr)
    shared = vocab > 0
    vocab = abs(vocab)
    for name, val in (("dim", dim), ("hidden_dim", hidden), ("n_layers", n_layers),
                      ("n_heads", n_heads), ("n_kv_heads", n_kv), ("vocab_size", vocab),
                      ("seq_len", seq_len)):
        if val <= 0 or val > 1 << 24:
            raise CheckpointError(f"{path}: header field {name} = {val} is not plausible")
    cfg = LlamaConfig(dim=dim, hidden_dim=hidden, n_layers=n_layers, n_heads=n_heads,
                      n_kv_heads=n_kv, vocab_size=vocab, max_seq_len=seq_len,
                      rope_theta=10000.0, norm_eps=1e-5)
    try:
        cfg.check()
    except ValueError as e:
        raise CheckpointError(f"{path}: {e}") from None
    hd = cfg.head_dim
    kv_dim = cfg.kv_dim
    L = n_layers
    sizes = [("tok", vocab * dim), ("rms_att", L * dim), ("wq", L * dim * dim),
             ("wk", L * kv_dim * dim), ("wv", L * kv_dim * dim), ("wo", L * dim * dim),
             ("rms_ffn", L * dim), ("w1", L * hidden * dim), ("w2", L * dim * hidden),
             ("w3", L * hidden * dim), ("rms_final", dim),
             ("freq_real", seq_len * hd // 2), ("freq_imag", seq_len * hd // 2)]
    if not shared:
        sizes.append(("wcls", vocab * dim))
    n_floats = sum(n for _, n in sizes)
    body = raw[HEADER_INTS * 4:]
    if body.size != n_floats * 4:
        raise CheckpointError(f"{path}: {body.size} bytes of tensors, the header implies "
                              f"{n_floats * 4} ({n_floats} float32)")
    flat = body.view("<f4").astype(np.float32)
    t = {}
    off = 0
    for name, n in sizes:
        t[name] = flat[off:off + n]
        off += n
    if not np.all(np.isfinite(flat)):
        raise CheckpointError(f"{path}: tensors contain NaN or Inf")

    def per_layer(name, shape):
        return t[name].reshape((L,) + shape)

    rms_att = per_layer("rms_att", (dim,))
    wq = per_layer("wq", (dim, dim))
    wk = per_layer("wk", (kv_dim, dim))
    wv = per_layer("wv", (kv_dim, dim))
    wo = per_layer("wo", (dim, dim))
    rms_ffn = per_layer("rms_ffn", (dim,))
    w1 = per_layer("w1", (hidden, dim))
    w2 = per_layer("w2", (dim, hidden))
    w3 = per_layer("w3", (hidden, dim))
    layers = [LayerWeights(attn_norm=rms_att[i].copy(), wq=wq[i].copy(), wk=wk[i].copy(),
                           wv=wv[i].copy(), wo=wo[i].copy(), ffn_norm=rms_ffn[i].copy(),
                           w_gate=w1[i].copy(), w_up=w3[i].copy(), w_down=w2[i].copy())
              for i in range(L)]
    emb = t["tok"].reshape(vocab, dim).copy()
    cls = emb if shared else t["wcls"].reshape(vocab, dim).copy()
    model = LlamaModel(config=cfg, tok_embeddings=emb, layers=layers,
                       final_norm=t["rms_final"].copy(), classifier=cls,
                       info={"format": "llama2.c v0", "shared_classifier": shared,
                             "sha256": sha256_file(path), "bytes": int(raw.size)})
    model.check()
    return model
