"""Numpy forward pass of a Llama-architecture decoder (Llama 2 / SmolLM2 style).

One job: given weights in a canonical layout, compute logits for a token sequence,
optionally recording every GEMM (operands and FP32 result) and optionally passing every
linear layer's operands through a pluggable quantize hook.

Architecture: token embedding -> n_layers x [RMSNorm -> attention (RoPE, grouped-query,
causal softmax) -> residual -> RMSNorm -> SwiGLU MLP -> residual] -> RMSNorm -> classifier.

Numerics (chosen for bit-for-bit reproducibility across runs and machines):
  * activations and weights are float32 arrays;
  * every GEMM accumulates in float64 and rounds the result once to float32, so a recorded
    output is (almost always) the correctly rounded FP32 value of the exact A . B^T;
  * element-wise maths (RMSNorm, RoPE, softmax, SiLU) is done in float64 and rounded to
    float32 at the end of each step.

RoPE is the interleaved-pair form (dimensions 2i and 2i+1 of a head rotate together) used
by llama2.c and by llama.cpp for GGUF "llama" models; GGUF converters permute the rows of
the Q and K weights so that this form equals the Hugging Face rotate-half form.

GEMM convention (hifsim-wide): C = A . B^T with A = M x K activations (tokens x in-features)
and B = N x K weights as stored (out-features x in-features). Attention per head:
Q.K^T has A = Q (tokens x head_dim), B = K (tokens x head_dim); P.V has A = P
(tokens x kv_tokens), B = V^T (head_dim x kv_tokens).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

LINEAR_OPS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
ATTENTION_OPS = ("attn_qk", "attn_pv")
ALL_OPS = LINEAR_OPS + ATTENTION_OPS

# Names of the activation tensors that feed the linear layers (several ops share one A).
A_SOURCE = {
    "q_proj": "attn_in", "k_proj": "attn_in", "v_proj": "attn_in",
    "o_proj": "attn_out",
    "gate_proj": "mlp_in", "up_proj": "mlp_in",
    "down_proj": "mlp_act",
}


@dataclass
class LlamaConfig:
    dim: int
    hidden_dim: int
    n_layers: int
    n_heads: int
    n_kv_heads: int
    vocab_size: int
    max_seq_len: int
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads

    @property
    def kv_dim(self) -> int:
        return self.n_kv_heads * self.head_dim

    def check(self) -> None:
        if self.dim % self.n_heads:
            raise ValueError(f"dim {self.dim} is not a multiple of n_heads {self.n_heads}")
        if self.n_heads % self.n_kv_heads:
            raise ValueError(f"n_heads {self.n_heads} is not a multiple of n_kv_heads {self.n_kv_heads}")
        if self.head_dim % 2:
            raise ValueError(f"head_dim {self.head_dim} must be even for RoPE")


@dataclass
class LayerWeights:
    attn_norm: np.ndarray   # [dim]
    wq: np.ndarray          # [n_heads*head_dim, dim]
    wk: np.ndarray          # [n_kv_heads*head_dim, dim]
    wv: np.ndarray          # [n_kv_heads*head_dim, dim]
    wo: np.ndarray          # [dim, n_heads*head_dim]
    ffn_norm: np.ndarray    # [dim]
    w_gate: np.ndarray      # [hidden_dim, dim]
    w_up: np.ndarray        # [hidden_dim, dim]
    w_down: np.ndarray      # [dim, hidden_dim]

    def linear_weight(self, op: str) -> np.ndarray:
        return {"q_proj": self.wq, "k_proj": self.wk, "v_proj": self.wv, "o_proj": self.wo,
                "gate_proj": self.w_gate, "up_proj": self.w_up, "down_proj": self.w_down}[op]


@dataclass
class LlamaModel:
    config: LlamaConfig
    tok_embeddings: np.ndarray       # [vocab, dim]
    layers: List[LayerWeights]
    final_norm: np.ndarray           # [dim]
    classifier: np.ndarray           # [vocab, dim] (the embedding table when tied)
    info: Dict[str, object] = field(default_factory=dict)

    def check(self) -> None:
        """Raise ValueError naming the first tensor whose shape or dtype is wrong."""
        c = self.config
        c.check()
        want = {"tok_embeddings": (c.vocab_size, c.dim), "final_norm": (c.dim,),
                "classifier": (c.vocab_size, c.dim)}
        for name, shape in want.items():
            _check_tensor(name, getattr(self, name), shape)
        if len(self.layers) != c.n_layers:
            raise ValueError(f"{len(self.layers)} layers, config says {c.n_layers}")
        hd = c.head_dim
        for i, lw in enumerate(self.layers):
            shapes = {"attn_norm": (c.dim,), "wq": (c.n_heads * hd, c.dim), "wk": (c.kv_dim, c.dim),
                      "wv": (c.kv_dim, c.dim), "wo": (c.dim, c.n_heads * hd), "ffn_norm": (c.dim,),
                      "w_gate": (c.hidden_dim, c.dim), "w_up": (c.hidden_dim, c.dim),
                      "w_down": (c.dim, c.hidden_dim)}
            for name, shape in shapes.items():
                _check_tensor(f"layers[{i}].{name}", getattr(lw, name), shape)


def _check_tensor(name: str, t: np.ndarray, shape: tuple) -> None:
    if not isinstance(t, np.ndarray) or t.dtype != np.float32:
        raise ValueError(f"{name}: expected a float32 numpy array, got {type(t).__name__} "
                         f"{getattr(t, 'dtype', '')}")
    if t.shape != shape:
        raise ValueError(f"{name}: shape {t.shape}, expected {shape}")


class KVCache:
    """Keys (after RoPE) and values of every layer, for incremental decoding."""

    def __init__(self, config: LlamaConfig, max_len: Optional[int] = None):
        n = max_len or config.max_seq_len
        shape = (config.n_layers, config.n_kv_heads, n, config.head_dim)
        self.k = np.zeros(shape, dtype=np.float32)
        self.v = np.zeros(shape, dtype=np.float32)
        self.length = 0


# A quantize hook: called as quantize(x, role=..., layer=..., op=...) with role "act" or
# "weight", must return an array of the same shape (float32). It models fake quantization:
# quantize then dequantize to float32.
QuantizeHook = Callable[..., np.ndarray]
# A recorder: called as recorder(layer=, op=, a=, b=, c=, a_source=) for every GEMM of a
# recorded layer. a/b/c follow C = A . B^T; attention tensors carry a leading head axis.
Recorder = Callable[..., None]


def per_tensor(fn: Callable[[np.ndarray], np.ndarray]) -> QuantizeHook:
    """Adapt a one-argument fake-quantizer fn(x) into a quantize hook (same fn for all)."""
    def hook(x: np.ndarray, **_ignored) -> np.ndarray:
        return fn(x)
    return hook


def gemm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C = A . B^T for float32 operands (leading batch axes allowed), float64 accumulation,
    one rounding to float32."""
    return gemm_b64(a, b.astype(np.float64))


def gemm_b64(a: np.ndarray, b64: np.ndarray) -> np.ndarray:
    """gemm(a, b) with b already converted to float64 (b64 = b.astype(float64)): the same call,
    the same bits; lets a token-by-token decode convert each weight once instead of per token."""
    return np.matmul(a.astype(np.float64), np.swapaxes(b64, -1, -2)).astype(np.float32)


def rmsnorm(x: np.ndarray, w: np.ndarray, eps: float) -> np.ndarray:
    x64 = x.astype(np.float64)
    ms = np.mean(x64 * x64, axis=-1, keepdims=True)
    return (x64 / np.sqrt(ms + eps) * w.astype(np.float64)).astype(np.float32)


def rope_tables(head_dim: int, positions: np.ndarray, theta: float):
    """cos/sin tables [T, head_dim/2] for pair i rotating at frequency theta^(-2i/head_dim)."""
    i = np.arange(head_dim // 2, dtype=np.float64)
    inv_freq = theta ** (-(2.0 * i) / head_dim)
    ang = positions.astype(np.float64)[:, None] * inv_freq[None, :]
    return np.cos(ang), np.sin(ang)


def apply_rope(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """x: [heads, T, head_dim]; rotates the pairs (2i, 2i+1)."""
    x64 = x.astype(np.float64)
    x0 = x64[..., 0::2]
    x1 = x64[..., 1::2]
    out = np.empty_like(x64)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out.astype(np.float32)


def softmax_rows(s: np.ndarray) -> np.ndarray:
    s64 = s.astype(np.float64)
    s64 = s64 - np.max(s64, axis=-1, keepdims=True)
    e = np.exp(s64)
    return (e / np.sum(e, axis=-1, keepdims=True)).astype(np.float32)


def silu(x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    return (x64 / (1.0 + np.exp(-x64))).astype(np.float32)


def forward(model: LlamaModel, tokens: Sequence[int], *, cache: Optional[KVCache] = None,
            recorder: Optional[Recorder] = None, record_layers: Optional[Sequence[int]] = None,
            quantize: Optional[QuantizeHook] = None, quantize_ops: Sequence[str] = LINEAR_OPS,
            linear_gemm: Optional[Callable[..., np.ndarray]] = None,
            logits_for: str = "all", classifier_b64: Optional[np.ndarray] = None) -> np.ndarray:
    """Run the decoder on `tokens` (positions continue from cache.length if a cache is given).

    Returns float32 logits [T, vocab] (logits_for="all") or [1, vocab] (logits_for="last").
    recorder/record_layers: record every GEMM of the listed layers (all layers if None).
    quantize/quantize_ops: fake-quantization hook applied to both operands of the listed ops.
    linear_gemm: computes every linear layer's C = A . W^T instead of the float64 GEMM, called as
    linear_gemm(a, w, layer=, op=) (e.g. hifsim's bit-exact GEMM of a number format).
    classifier_b64: model.classifier already in float64 (same bits; saves a decode converting it per token).
    """
    c = model.config
    toks = np.asarray(tokens, dtype=np.int64)
    if toks.ndim != 1 or toks.size == 0:
        raise ValueError("tokens must be a non-empty 1-D sequence")
    if toks.min() < 0 or toks.max() >= c.vocab_size:
        raise ValueError(f"token id out of range [0, {c.vocab_size})")
    T = int(toks.size)
    pos0 = cache.length if cache is not None else 0
    if pos0 + T > (cache.k.shape[2] if cache is not None else c.max_seq_len):
        raise ValueError(f"sequence of {pos0 + T} tokens exceeds the context of {c.max_seq_len}")
    hd, nh, nkv = c.head_dim, c.n_heads, c.n_kv_heads
    group = nh // nkv
    positions = np.arange(pos0, pos0 + T)
    cos, sin = rope_tables(hd, positions, c.rope_theta)
    rec_set = set(range(c.n_layers)) if record_layers is None else set(record_layers)
    qops = set(quantize_ops) if quantize is not None else set()

    def linear(layer: int, op: str, a: np.ndarray, w: np.ndarray) -> np.ndarray:
        if op in qops:
            a = quantize(a, role="act", layer=layer, op=op)
            w = quantize(w, role="weight", layer=layer, op=op)
        y = gemm(a, w) if linear_gemm is None else linear_gemm(a, w, layer=layer, op=op)
        if recorder is not None and layer in rec_set:
            recorder(layer=layer, op=op, a=a, b=w, c=y, a_source=A_SOURCE[op])
        return y

    def attn_gemm(layer: int, op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if op in qops:
            a = quantize(a, role="act", layer=layer, op=op)
            b = quantize(b, role="act", layer=layer, op=op)
        y = gemm(a, b)
        if recorder is not None and layer in rec_set:
            recorder(layer=layer, op=op, a=a, b=b, c=y, a_source=op)
        return y

    x = model.tok_embeddings[toks].astype(np.float32)        # [T, dim]
    # causal mask over the whole key range [0, pos0+T)
    kv_len = pos0 + T
    key_pos = np.arange(kv_len)
    masked = key_pos[None, :] > positions[:, None]           # [T, kv_len]
    scale = 1.0 / np.sqrt(hd)

    for l, lw in enumerate(model.layers):
        h = rmsnorm(x, lw.attn_norm, c.norm_eps)
        q = linear(l, "q_proj", h, lw.wq)                     # [T, nh*hd]
        k = linear(l, "k_proj", h, lw.wk)                     # [T, nkv*hd]
        v = linear(l, "v_proj", h, lw.wv)
        q = apply_rope(q.reshape(T, nh, hd).transpose(1, 0, 2), cos, sin)   # [nh, T, hd]
        k = apply_rope(k.reshape(T, nkv, hd).transpose(1, 0, 2), cos, sin)  # [nkv, T, hd]
        v = v.reshape(T, nkv, hd).transpose(1, 0, 2)
        if cache is not None:
            cache.k[l, :, pos0:pos0 + T] = k
            cache.v[l, :, pos0:pos0 + T] = v
            k_all = cache.k[l, :, :kv_len]
            v_all = cache.v[l, :, :kv_len]
        else:
            k_all, v_all = k, v
        # grouped-query attention: query head j uses KV head j // group
        k_heads = np.repeat(k_all, group, axis=0)            # [nh, kv_len, hd]
        v_heads = np.repeat(v_all, group, axis=0)
        s = attn_gemm(l, "attn_qk", q, k_heads)               # [nh, T, kv_len]
        s64 = s.astype(np.float64) * scale
        s64[:, masked] = -np.inf
        p = softmax_rows(s64)                                 # [nh, T, kv_len]
        o = attn_gemm(l, "attn_pv", p, np.ascontiguousarray(v_heads.transpose(0, 2, 1)))  # [nh, T, hd]
        o = np.ascontiguousarray(o.transpose(1, 0, 2).reshape(T, nh * hd))
        x = (x.astype(np.float64) + linear(l, "o_proj", o, lw.wo)).astype(np.float32)

        h = rmsnorm(x, lw.ffn_norm, c.norm_eps)
        g = linear(l, "gate_proj", h, lw.w_gate)
        u = linear(l, "up_proj", h, lw.w_up)
        act = (silu(g).astype(np.float64) * u).astype(np.float32)
        x = (x.astype(np.float64) + linear(l, "down_proj", act, lw.w_down)).astype(np.float32)

    if cache is not None:
        cache.length = kv_len
    if logits_for == "last":
        x = x[-1:]
    elif logits_for != "all":
        raise ValueError("logits_for must be 'all' or 'last'")
    x = rmsnorm(x, model.final_norm, c.norm_eps)
    return gemm(x, model.classifier) if classifier_b64 is None else gemm_b64(x, classifier_b64)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    l64 = logits.astype(np.float64)
    m = np.max(l64, axis=-1, keepdims=True)
    return l64 - m - np.log(np.sum(np.exp(l64 - m), axis=-1, keepdims=True))


def perplexity(model: LlamaModel, tokens: Sequence[int], **forward_kw) -> float:
    """exp(mean negative log-likelihood) of tokens[1:] given their prefixes (one forward)."""
    toks = np.asarray(tokens, dtype=np.int64)
    if toks.size < 2:
        raise ValueError("perplexity needs at least 2 tokens")
    logits = forward(model, toks[:-1], **forward_kw)
    lp = log_softmax(logits)
    nll = -lp[np.arange(toks.size - 1), toks[1:]]
    return float(np.exp(np.mean(nll)))


def generate_greedy(model: LlamaModel, prompt: Sequence[int], n_new: int,
                    stop: Sequence[int] = (), **forward_kw) -> List[int]:
    """Greedy (argmax, lowest id on ties) continuation with a KV cache; returns new ids."""
    cache = KVCache(model.config, max_len=min(model.config.max_seq_len, len(prompt) + n_new))
    logits = forward(model, prompt, cache=cache, logits_for="last", **forward_kw)
    out: List[int] = []
    for _ in range(n_new):
        nxt = int(np.argmax(logits[-1]))
        out.append(nxt)
        if nxt in stop or len(out) == n_new:
            break
        logits = forward(model, [nxt], cache=cache, logits_for="last", **forward_kw)
    return out


def sample(model: LlamaModel, prompt: Sequence[int], n_new: int, seed: int,
           temperature: float = 1.0) -> List[int]:
    """Sample a continuation (numpy Generator(PCG64(seed)), inverse-CDF on float64 probs)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    cache = KVCache(model.config, max_len=min(model.config.max_seq_len, len(prompt) + n_new))
    logits = forward(model, prompt, cache=cache, logits_for="last")
    out: List[int] = []
    for _ in range(n_new):
        lp = log_softmax(logits[-1].astype(np.float64) / temperature)
        p = np.exp(lp)
        cdf = np.cumsum(p)
        r = rng.random() * cdf[-1]
        nxt = int(min(np.searchsorted(cdf, r, side="right"), p.size - 1))
        out.append(nxt)
        if len(out) == n_new:
            break
        logits = forward(model, [nxt], cache=cache, logits_for="last")
    return out
