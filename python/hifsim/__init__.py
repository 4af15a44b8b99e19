"""hifsim: bit-accurate HiFloat4/HiFloat8, MX, NVFP4, FP8 and BF16 arithmetic and matrix units.

The functions here are the `hifsim` command's computations with numpy arrays in and out: the
same C++ model (compiled into hifsim._ext), the same option names (keyword arguments spell the
command-line options with underscores: ``mx_scale="ceil"`` is ``--mx-scale ceil``), the same
defaults and checks, hence the same bits. Bad input raises :class:`hifsim.Error` (a ValueError)
whose message names the argument, the field and the reason. The GIL is released while the model
computes, so threads calling hifsim run in parallel. docs/python.md has examples.
"""
from __future__ import annotations

import json
import os
import tempfile
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


def _words(options: dict) -> list[str]:
    """Keyword arguments as the command's option words: mx_scale="ceil" -> --mx-scale ceil."""
    words: list[str] = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        name = "--" + key.replace("_", "-")
        words += [name] if value is True else [name, str(value)]
    return words


def _call(fn, *args):
    """Runs a model call; the command's "command line: --opt" wording becomes "argument opt"."""
    try:
        return fn(*args)
    except _ext.Error as e:
        msg = str(e)
        if msg.startswith("command line: --"):
            head, _, rest = msg[len("command line: --"):].partition(":")
            if "unknown option" in rest:
                msg = f"unknown keyword argument {head.replace('-', '_')}"
            else:
                msg = f"argument {head.replace('-', '_')}:{rest}"
        raise Error(msg) from None


def _matrix(x, name: str) -> np.ndarray:
    """C-contiguous float32 without a copy when x already is one."""
    a = np.ascontiguousarray(x, dtype=np.float32)
    if a.ndim == 0:
        raise Error(f"argument {name}: shape: a scalar; expected an array")
    return a


def quantize_dequantize(x, format: str, **options) -> np.ndarray:
    """dequantize(quantize(x)) in `format`, blocks along the last axis (`hifsim quantize`).

    Options: rounding, saturate, seed, nvfp4_recipe, hif4_compare, hif4_inf, mx_scale,
    hybrid_compare, hybrid_threshold, threads (see ``hifsim quantize --help``); residual
    (none | dense | 2:4 | top50) adds the Rollout-ResQ residual: deq(Q(x)) + deq(S(Q(R))).
    """
    a = _matrix(x, "x")
    y = _call(_ext.qdq, a.reshape(-1, a.shape[-1]), format, _words(options))
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
    d = _call(_ext.quantize, a.reshape(-1, a.shape[-1]), format, _words(options))
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
    return _call(_ext.encode, a.reshape(-1), format, _words(options)).reshape(a.shape)


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
    words = _words(dict(options, residual=residual, residual_mode=residual_mode))
    if arc is not None:
        words += ["--arc", str(arc)]
    cal = None if arc_calib is None else _matrix(arc_calib, "arc_calib")
    c, stats_json, _ = _call(_ext.gemm, A, B, format, words, cal, bool(stats))
    return (c, json.loads(stats_json)) if stats else c


def dot(a, b, format: str = "hif4", **options) -> np.ndarray:
    """The format's dot-product unit on each unit-wide block of two K-vectors: one FP32 value per
    block, as the unit delivers it to the accumulator (hif4, nvfp4, mxfp4, bf16: 64 elements per
    block; mxfp8, fp8: 32; hif8: hif8_lanes). K is zero-padded to whole blocks. gemm() of the two
    vectors is these values accumulated in order from +0 (then NVFP4's per-tensor scale).

    Options: hif8_lanes, align_width, align_policy and the quantizer options (see gemm).
    """
    x, y = _matrix(a, "a").reshape(-1), _matrix(b, "b").reshape(-1)
    return _call(_ext.dot, x, y, format, _words(options))


def _overrides(set_) -> list[str]:
    """set={"array.rows": 16} or ["array.rows=16"] as the CLI's --set words."""
    if set_ is None:
        return []
    if isinstance(set_, dict):
        return [f"{k}={'true' if v is True else 'false' if v is False else v}" for k, v in set_.items()]
    return [str(x) for x in set_]


class _Workload:
    """The workload of run_unit/cost; numpy operands are written to .npy files in a temporary
    folder (kept until the call returns) so that the model reads them exactly as the CLI does."""

    def __init__(self, gemm, trace, a, b, ops, one_layer, seed):
        self.args = _ext.WorkloadArgs()
        self._tmp = None
        if gemm is not None:
            if len(gemm) != 3:
                raise Error(f"argument gemm: expected (M, N, K), got {gemm!r}")
            self.args.gemm = tuple(int(v) for v in gemm)
        if trace is not None:
            self.args.trace = os.fspath(trace)
        if (a is None) != (b is None):
            raise Error("argument a/b: give both operands or neither")
        if a is not None:
            self.args.a_file, self.args.b_file = self._file(a, "a"), self._file(b, "b")
        if ops:
            self.args.ops = [ops] if isinstance(ops, str) else list(ops)
        self.args.one_layer = bool(one_layer)
        self.args.seed = int(seed)

    def _file(self, x, name):
        if isinstance(x, (str, os.PathLike)):
            return os.fspath(x)
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="hifsim-")
        path = os.path.join(self._tmp.name, f"{name}.npy")
        m = _matrix(x, name)
        if m.ndim != 2:
            raise Error(f"argument {name}: shape: expected a 2-D array, got {m.ndim}-D")
        np.save(path, m)
        return path

    def close(self):
        if self._tmp is not None:
            self._tmp.cleanup()


def run_unit(config, *, gemm=None, trace=None, a=None, b=None, set=None, ops=None, one_layer=False, values=True,
             simulate_all=False, seed=1, threads=0, cost=True, cost_tables=None, cost_sample=2048) -> dict:
    """`hifsim run` as a function: GEMMs (gemm=(M, N, K), operands a/b as arrays or .npy paths,
    else seeded values) or every op of a trace through the matrix-unit model of a unit config.
    Returns the content of result.json (cycles, stalls, bytes, actions, checksum, cost section)
    as a dict. The engine is the timing core (`--engine analytic`; the SystemC model gives the
    same numbers). set: config overrides as {"array.rows": 16} or ["array.rows=16"].
    """
    w = _Workload(gemm, trace, a, b, ops, one_layer, seed)
    try:
        text = _call(_ext.run_unit, os.fspath(config), _overrides(set), w.args, bool(values), bool(simulate_all),
                     int(threads), bool(cost), os.fspath(cost_tables) if cost_tables else "", int(cost_sample))
    finally:
        w.close()
    return json.loads(text)


def cost(config=None, *, gemm=None, trace=None, a=None, b=None, set=None, ops=None, one_layer=False, sample=4096,
         seed=1, tables=None, node="45nm", compare_units=False, formats=("hif4", "nvfp4", "mxfp4", "hif8", "bf16")) -> dict:
    """`hifsim cost` as a function: area, energy, power and EDP of a unit config on a workload
    (the content of cost.json), or with compare_units=True the 64-length dot-unit comparison of
    `formats` (the content of compare.json). Workload arguments as run_unit.
    """
    if compare_units == (config is not None):
        raise Error("argument config/compare_units: give a unit config, or compare_units=True without one")
    w = _Workload(gemm, trace, a, b, ops, one_layer, seed)
    try:
        text = _call(_ext.cost, "" if config is None else os.fspath(config), _overrides(set), w.args,
                     list(formats) if compare_units else [], int(sample), os.fspath(tables) if tables else "", node)
    finally:
        w.close()
    return json.loads(text)
