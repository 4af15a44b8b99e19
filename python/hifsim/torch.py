"""PyTorch integration (optional: needs torch, which hifsim does not depend on).

Forward-only fake quantization through the bit-exact engine: ``HifsimLinear`` computes
``x @ W.T`` with hifsim's GEMM of the chosen format (activations and weights quantized along
in_features, the format's dot-product units, the chosen accumulator), then adds the bias in
FP32. ``quantize_linears(model, "hif4")`` swaps every ``nn.Linear`` of a model for one.
``llama_module`` builds a torch Llama (SmolLM2, stories260K: the checkpoints hifsim's trace
capture reads) whose projections are ``nn.Linear``, so the swap applies to a real LLM:

    from hifsim.capture.capture import load_model
    import hifsim.torch as ht
    net = ht.llama_module(load_model("smollm2").model)
    ht.quantize_linears(net, "hif4", residual="2:4")
    with torch.no_grad():
        logits = net(torch.tensor([[1, 2, 3]]))

No gradient flows through a HifsimLinear: calling it where autograd would need one raises.
"""
from __future__ import annotations

import math
from typing import Callable, List, Optional

import numpy as np
import torch
from torch import nn

import hifsim


class HifsimLinear(nn.Module):
    """An nn.Linear computed by hifsim's bit-exact GEMM in `format` (forward only).

    The weight and bias are the original module's parameters (shared, not copied); gemm_options
    are hifsim.gemm's keyword arguments (acc, residual, arc, rounding, ...).
    """

    def __init__(self, linear: nn.Linear, format: str = "hif4", **gemm_options):
        super().__init__()
        self.in_features, self.out_features = linear.in_features, linear.out_features
        self.weight = linear.weight
        self.bias = linear.bias
        self.format = format
        self.gemm_options = dict(gemm_options)

    def extra_repr(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.gemm_options.items())
        return f"in_features={self.in_features}, out_features={self.out_features}, format={self.format!r}{opts}"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if torch.is_grad_enabled() and (x.requires_grad or self.weight.requires_grad):
            raise RuntimeError("HifsimLinear is forward-only (no gradient through the bit-exact GEMM): "
                               "run the model under torch.no_grad() or torch.inference_mode()")
        a = x.detach().reshape(-1, self.in_features).to(torch.float32).cpu().numpy()
        w = self.weight.detach().to(torch.float32).cpu().numpy()
        y = torch.from_numpy(hifsim.gemm(a, w, self.format, **self.gemm_options))
        if self.bias is not None:
            y = y + self.bias.detach().to(torch.float32).cpu()
        return y.reshape(*x.shape[:-1], self.out_features).to(device=x.device, dtype=x.dtype)


def quantize_linears(model: nn.Module, format: str = "hif4", include: Optional[Callable[[str], bool]] = None,
                     **gemm_options) -> List[str]:
    """Replaces, in place, every nn.Linear of `model` whose qualified name passes `include`
    (default: all) by a HifsimLinear of `format`; returns the replaced names in order."""
    replaced = []
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            full = f"{name}.{child_name}" if name else child_name
            if isinstance(child, nn.Linear) and (include is None or include(full)):
                setattr(module, child_name, HifsimLinear(child, format, **gemm_options))
                replaced.append(full)
    return replaced


# ---- A torch Llama built from hifsim.capture's weights (SmolLM2, stories260K) ----

class _RMSNorm(nn.Module):
    def __init__(self, weight: np.ndarray, eps: float):
        super().__init__()
        self.weight = nn.Parameter(torch.from_numpy(weight.copy()), requires_grad=False)
        self.eps = eps

    def forward(self, x):
        x64 = x.to(torch.float64)
        ms = (x64 * x64).mean(-1, keepdim=True)
        return (x64 / torch.sqrt(ms + self.eps) * self.weight.to(torch.float64)).to(torch.float32)


def _linear(w: np.ndarray) -> nn.Linear:
    lin = nn.Linear(w.shape[1], w.shape[0], bias=False)
    lin.weight = nn.Parameter(torch.from_numpy(w.copy()), requires_grad=False)
    return lin


class _Block(nn.Module):
    def __init__(self, lw, cfg):
        super().__init__()
        self.cfg = cfg
        self.attn_norm, self.ffn_norm = _RMSNorm(lw.attn_norm, cfg.norm_eps), _RMSNorm(lw.ffn_norm, cfg.norm_eps)
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (_linear(lw.wq), _linear(lw.wk), _linear(lw.wv),
                                                              _linear(lw.wo))
        self.gate_proj, self.up_proj, self.down_proj = _linear(lw.w_gate), _linear(lw.w_up), _linear(lw.w_down)

    def forward(self, x, cos, sin):
        c, T = self.cfg, x.shape[0]
        h = self.attn_norm(x)
        q = self.q_proj(h).reshape(T, c.n_heads, c.head_dim).transpose(0, 1)
        k = self.k_proj(h).reshape(T, c.n_kv_heads, c.head_dim).transpose(0, 1)
        v = self.v_proj(h).reshape(T, c.n_kv_heads, c.head_dim).transpose(0, 1)
        q, k = _rope(q, cos, sin), _rope(k, cos, sin)
        rep = c.n_heads // c.n_kv_heads
        k, v = k.repeat_interleave(rep, 0), v.repeat_interleave(rep, 0)
        s = (q.to(torch.float64) @ k.to(torch.float64).transpose(1, 2)) / math.sqrt(c.head_dim)
        s = s.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
        p = torch.softmax(s, -1)
        att = (p @ v.to(torch.float64)).to(torch.float32).transpose(0, 1).reshape(T, -1)
        x = x + self.o_proj(att)
        h = self.ffn_norm(x)
        g = self.gate_proj(h).to(torch.float64)
        act = (g / (1.0 + torch.exp(-g)) * self.up_proj(h).to(torch.float64)).to(torch.float32)
        return x + self.down_proj(act)


def _rope(x, cos, sin):
    x64 = x.to(torch.float64)
    x0, x1 = x64[..., 0::2], x64[..., 1::2]
    out = torch.empty_like(x64)
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out.to(torch.float32)


class LlamaModule(nn.Module):
    """The Llama forward of hifsim.capture.llama_numpy in torch, one sequence at a time: token
    ids (T,) or (1, T) -> logits (T, vocab). Element-wise maths in float64 like the numpy model;
    the seven projections of every layer and the classifier are nn.Linear (float32)."""

    def __init__(self, model):
        super().__init__()
        self.cfg = model.config
        self.tok_embeddings = nn.Parameter(torch.from_numpy(model.tok_embeddings.copy()), requires_grad=False)
        self.layers = nn.ModuleList(_Block(lw, self.cfg) for lw in model.layers)
        self.norm = _RMSNorm(model.final_norm, self.cfg.norm_eps)
        self.classifier = _linear(model.classifier)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        ids = ids.reshape(-1)
        T, hd = ids.shape[0], self.cfg.head_dim
        inv = self.cfg.rope_theta ** (-(2.0 * torch.arange(hd // 2, dtype=torch.float64)) / hd)
        ang = torch.arange(T, dtype=torch.float64)[:, None] * inv[None, :]
        cos, sin = torch.cos(ang), torch.sin(ang)
        x = self.tok_embeddings[ids]
        for layer in self.layers:
            x = layer(x, cos, sin)
        return self.classifier(self.norm(x))


def llama_module(model) -> LlamaModule:
    """A torch LlamaModule from a hifsim.capture LlamaModel (load_model("smollm2").model, ...)."""
    return LlamaModule(model)


def perplexity(net: nn.Module, ids) -> float:
    """exp(mean negative log-likelihood of ids[1:] given the prefix), one forward pass."""
    ids = torch.as_tensor(np.asarray(ids, dtype=np.int64))
    with torch.no_grad():
        logits = net(ids[:-1]).to(torch.float64)
    logp = torch.log_softmax(logits, -1)
    nll = -logp[torch.arange(ids.shape[0] - 1), ids[1:]].mean()
    return float(torch.exp(nll))
