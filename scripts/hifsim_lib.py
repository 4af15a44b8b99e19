"""numpy interface to hifsim's C library (build/lib/libhifsim_c.so, model/capi/hifsim_c.h).

    import hifsim_lib as H
    y = H.qdq("hif4", x)                       # fake quantization, blocks along the last axis
    y = H.qdq_residual("hif4", "2:4", x)       # Rollout-ResQ corrected activation
    c = H.gemm("nvfp4", a, b)                  # bit-exact C = A B^T

The library path is $HIFSIM_LIB, else <repo>/build/lib/libhifsim_c.so.
"""
import ctypes
import os

import numpy as np

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_lib = None


class HifsimError(RuntimeError):
    pass


def _load():
    global _lib
    if _lib is not None:
        return _lib
    path = os.environ.get("HIFSIM_LIB") or os.path.join(_ROOT, "build", "lib", "libhifsim_c.so")
    if not os.path.isfile(path):
        raise HifsimError(f"{path}: not found; build it (cmake --build build --target hifsim_c) or set HIFSIM_LIB")
    lib = ctypes.CDLL(path)
    f32p = np.ctypeslib.ndpointer(dtype=np.float32, flags="C_CONTIGUOUS")
    sz, cs, u = ctypes.c_size_t, ctypes.c_char_p, ctypes.c_uint
    lib.hifsim_qdq.argtypes = [cs, f32p, f32p, sz, sz, cs, u, ctypes.c_char_p, sz]
    lib.hifsim_qdq_residual.argtypes = [cs, cs, f32p, f32p, sz, sz, u, ctypes.c_char_p, sz]
    lib.hifsim_gemm.argtypes = [cs, f32p, sz, sz, f32p, sz, f32p, cs, u, ctypes.c_char_p, sz]
    for fn in (lib.hifsim_qdq, lib.hifsim_qdq_residual, lib.hifsim_gemm):
        fn.restype = ctypes.c_int
    _lib = lib
    return lib


def _check(rc, buf):
    if rc != 0:
        raise HifsimError(buf.value.decode(errors="replace"))


def _as2d(x):
    x = np.ascontiguousarray(x, dtype=np.float32)
    cols = x.shape[-1] if x.ndim else 1
    return x, (x.size // cols if cols else 0), cols


def qdq(fmt, x, rounding=None, threads=0):
    """Quantize-dequantize x (any shape) in format fmt along its last axis."""
    lib = _load()
    x, rows, cols = _as2d(x)
    y = np.empty_like(x)
    err = ctypes.create_string_buffer(512)
    _check(lib.hifsim_qdq(fmt.encode(), x, y, rows, cols, rounding.encode() if rounding else None, threads, err, 512), err)
    return y


def qdq_residual(fmt, residual, x, threads=0):
    """deq(Q(x)) + deq(S(Q(R))) with R = bf16(x - deq(Q(x))), S = dense | 2:4 | top50 | none."""
    lib = _load()
    x, rows, cols = _as2d(x)
    y = np.empty_like(x)
    err = ctypes.create_string_buffer(512)
    _check(lib.hifsim_qdq_residual(fmt.encode(), residual.encode(), x, y, rows, cols, threads, err, 512), err)
    return y


def gemm(fmt, a, b, acc="fp32", threads=0):
    """Bit-exact C = A B^T, A (M x K), B (N x K)."""
    lib = _load()
    a = np.ascontiguousarray(a, dtype=np.float32)
    b = np.ascontiguousarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[1]:
        raise HifsimError(f"gemm: shapes {a.shape} and {b.shape} are not M x K and N x K")
    c = np.empty((a.shape[0], b.shape[0]), dtype=np.float32)
    err = ctypes.create_string_buffer(512)
    _check(lib.hifsim_gemm(fmt.encode(), a, a.shape[0], a.shape[1], b, b.shape[0], c, acc.encode(), threads, err, 512), err)
    return c
