"""hifsim: bit-accurate HiFloat4/HiFloat8, MX, NVFP4, FP8 and BF16 arithmetic and matrix units.

The functions here are the `hifsim` command's computations with numpy arrays in and out: the
same C++ model (compiled into hifsim._ext), the same option names (keyword arguments spell the
command-line options with underscores: ``mx_scale="ceil"`` is ``--mx-scale ceil``), the same
defaults and checks (one declaration per option in the model, model/options, read by both), hence
the same bits. Keyword values are passed to the model as they are -- no text round trip: 64.9
where an integer is needed is refused, never truncated. Bad input raises :class:`hifsim.Error`
(a ValueError) whose message names the argument, the field and the reason, as the command's
does. The GIL is released while the model computes, so threads calling hifsim run in parallel.
docs/python.md has examples; the package ships type stubs (py.typed).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

import numpy as np

from . import _ext
from ._version import __version__  # written by CMake from the file VERSION

__all__ = [
    "Error", "Quantized", "tensor_formats", "code_formats", "quantize_dequantize", "quantize",
    "dequantize", "encode", "decode", "gemm", "dot", "run_unit", "cost",
]

Error = _ext.Error


def tensor_formats() -> list[str]:
    """Formats of quantize/quantize_dequantize/gemm (block formats and element-wise ones)."""
    return [s.strip() for s in _ext.tensor_formats().split(",")]


def code_formats() -> list[str]:
    """Formats of encode/decode (element and scale codes)."""
    return [s.strip() for s in _ext.code_formats().split(",")]


def _call(fn, *args):
    """Runs a model call; a TypeError of the binding (never expected: every argument is checked
    by the model) still surfaces as hifsim.Error naming the call."""
    try:
        return fn(*args)
    except TypeError as e:
        raise Error(f"argument: {fn.__name__}: {e}") from None


def _matrix(x, name: str) -> np.ndarray:
    """C-contiguous float32 without a copy when x already is one."""
    a = np.ascontiguousarray(x, dtype=np.float32)
    if a.ndim == 0:
        raise Error(f"argument {name}: shape: a scalar; expected an array")
    return a


def quantize_dequantize(x, format: str, **options) -> np.ndarray:
    """dequantize(quantize(x)) in `format`, blocks along the last axis (`hifsim quantize`).

    Options: rounding, saturate, seed, nvfp4_recipe, hif4_compare, hif4_convention (official |
    ascend-a6), hif4_inf, mx_scale, mx_convention,
    hybrid_compare, hybrid_threshold, threads (see ``hifsim quantize --help``); residual
    (none | dense | 2:4 | top50) adds the Rollout-ResQ residual: deq(Q(x)) + deq(S(Q(R))).
    """
    a = _matrix(x, "x")
    y = _call(_ext.qdq, a.reshape(-1, a.shape[-1]), format, options)
    return y.reshape(a.shape)


@dataclass(frozen=True)
class Quantized:
    """A quantized tensor: the codes and per-block metadata, and the packed container bytes that
    ``hifsim quantize --codes`` writes (docs/formats.md, "packed codes")."""

    format: str
    shape: tuple
    codes: np.ndarray        # rows x padded_cols element codes (uint16; bf16 uses all 16 bits)
    scales: np.ndarray       # rows x blocks: E6M2 (hif4), E8M0 (mx), E4M3 (nvfp4); empty otherwise
    l2: np.ndarray           # hif4: level-2 micro-exponent bits per block
    l3: np.ndarray           # hif4: level-3 micro-exponent bits per block
    tensor_scale: float      # nvfp4: the per-tensor decode scale
    packed: bytes

    def dequantize(self) -> np.ndarray:
        return dequantize(self.packed).reshape(self.shape)


def quantize(x, format: str, **options) -> Quantized:
    """Quantize x in `format` (blocks along the last axis); options as quantize_dequantize."""
    a = _matrix(x, "x")
    d = _call(_ext.quantize, a.reshape(-1, a.shape[-1]), format, options)
    return Quantized(format=d["format"], shape=a.shape, codes=d["codes"], scales=d["scales"], l2=d["l2"],
                     l3=d["l3"], tensor_scale=d["tensor_scale"], packed=d["packed"])


def dequantize(packed: bytes) -> np.ndarray:
    """Values (rows x cols float32) of a packed container (Quantized.packed, or a --codes file)."""
    return _call(_ext.dequantize_packed, bytes(packed))


def encode(x, format: str, **options) -> np.ndarray:
    """Element or scale codes of every value (`hifsim encode`): uint8, uint16 for bf16.

    Options: rounding, saturate, seed, hybrid_compare, hybrid_threshold, threads.
    """
    a = _matrix(x, "x")
    return _call(_ext.encode, a.reshape(-1), format, options).reshape(a.shape)


def decode(codes, format: str) -> np.ndarray:
    """float32 values of codes (`hifsim decode`); NaN codes give the canonical quiet NaN."""
    c = np.asarray(codes)
    if c.dtype not in (np.uint8, np.uint16):
        raise Error(f"argument codes: dtype: expected uint8 or uint16 codes, got {c.dtype}")
    flat = np.ascontiguousarray(c.reshape(-1), dtype=np.uint16)
    return _call(_ext.decode, flat, format).reshape(c.shape)


def gemm(a, b, format: str = "hif4", *, residual: str = "none", residual_mode: str = "unfused", arc=None,
         arc_calib=None, stats: bool = False, **options):
    """C = a @ b.T through the bit-exact GEMM engine (`hifsim gemm`): a is M x K, b is N x K,
    both quantized along K in `format`.

    residual: none | dense | 2:4 | top50 (Rollout-ResQ); arc: None, a channel count or "auto"
    (ARCQuant; arc_calib: calibration activations, default a). Other options: acc, align_width,
    align_policy, hif8_lanes, kernel and the quantizer options of quantize_dequantize.
    With stats=True returns (C, stats) where stats is the dict `hifsim gemm --stats` writes.
    """
    A, B = _matrix(a, "a"), _matrix(b, "b")
    for name, m in (("a", A), ("b", B)):
        if m.ndim != 2:
            raise Error(f"argument {name}: shape: expected a 2-D array, got {m.ndim}-D")
    cal = None if arc_calib is None else _matrix(arc_calib, "arc_calib")
    c, stats_json, _ = _call(_ext.gemm, A, B, format, dict(options, residual=residual, residual_mode=residual_mode),
                             arc, cal, stats)
    return (c, json.loads(stats_json)) if stats else c


def dot(a, b, format: str = "hif4", **options) -> np.ndarray:
    """The format's dot-product unit on each unit-wide block of two K-vectors: one FP32 value per
    block, as the unit delivers it to the accumulator (hif4, nvfp4, mxfp4, bf16: 64 elements per
    block; mxfp8, fp8: 32; hif8: hif8_lanes). K is zero-padded to whole blocks. gemm() of the two
    vectors is these values accumulated in order from +0 (then NVFP4's per-tensor scale).

    Options: hif8_lanes, align_width, align_policy and the quantizer options (see gemm).
    """
    x, y = _matrix(a, "a"), _matrix(b, "b")
    for name, v in (("a", x), ("b", y)):
        if v.ndim != 1:
            raise Error(f"argument {name}: shape: expected a 1-D vector, got {v.ndim}-D {v.shape} (dot() does not flatten)")
    return _call(_ext.dot, x, y, format, options)


def _overrides(set_) -> list[str]:
    """set={"array.rows": 16} or ["array.rows=16"] as the CLI's --set words."""
    if set_ is None:
        return []
    if isinstance(set_, dict):
        return [f"{k}={'true' if v is True else 'false' if v is False else v}" for k, v in set_.items()]
    return list(set_) if isinstance(set_, (list, tuple)) else set_  # anything else: refused by the model


def _operand(x, name: str):
    """A path (read by the model like the CLI's --a/--b) or a float32 2-D array (passed in place)."""
    if x is None or isinstance(x, (str, bytes, os.PathLike)):
        return x
    m = _matrix(x, name)
    if m.ndim != 2:
        raise Error(f"argument {name}: shape: expected a 2-D array, got {m.ndim}-D")
    return m


def run_unit(config, *, gemm=None, trace=None, a=None, b=None, set=None, ops=None, one_layer=False, values=True,
             simulate_all=False, seed=1, threads=0, cost=True, cost_tables=None, cost_sample=2048) -> dict:
    """`hifsim run` as a function: GEMMs (gemm=(M, N, K), operands a/b as arrays or .npy paths,
    else seeded values) or every op of a trace through the matrix-unit model of a unit config.
    Returns the content of result.json (cycles, stalls, bytes, actions, checksum, cost section)
    as a dict. The engine is the timing core (`--engine analytic`; the SystemC model gives the
    same numbers). set: config overrides as {"array.rows": 16} or ["array.rows=16"].
    """
    options = dict(gemm=gemm, ops=ops, one_layer=one_layer, seed=seed, threads=threads, cost_sample=cost_sample,
                   cost_tables=cost_tables)
    text = _call(_ext.run_unit, config, _overrides(set), trace, _operand(a, "a"), _operand(b, "b"), options, values,
                 simulate_all, cost)
    return json.loads(text)


def cost(config=None, *, gemm=None, trace=None, a=None, b=None, set=None, ops=None, one_layer=False, sample=4096,
         seed=1, tables=None, node="45nm", compare_units=False, formats=("hif4", "nvfp4", "mxfp4", "hif8", "bf16")) -> dict:
    """`hifsim cost` as a function: area, energy, power and EDP of a unit config on a workload
    (the content of cost.json), or with compare_units=True the 64-length dot-unit comparison of
    `formats` (the content of compare.json). Workload arguments as run_unit.
    """
    options = dict(gemm=gemm, ops=ops, one_layer=one_layer, seed=seed, sample=sample, tables=tables, node=node,
                   formats=list(formats) if isinstance(formats, (list, tuple)) else formats)
    text = _call(_ext.cost, config, _overrides(set), trace, _operand(a, "a"), _operand(b, "b"), options, compare_units)
    return json.loads(text)
