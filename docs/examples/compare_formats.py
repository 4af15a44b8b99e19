"""Compare the low-precision formats on one tensor in a few lines (what a notebook cell would do).

    python docs/examples/compare_formats.py            # after `pip install .`

For a weight-like matrix W with a few outlier channels and an activation X, it prints, per
format, the quantization error of W alone and the error of the bit-exact GEMM X @ W.T against
float64, with and without the Rollout-ResQ 2:4 residual for the 4-bit formats.
"""
import numpy as np

import hifsim

rng = np.random.default_rng(0)
W = rng.standard_normal((256, 1024)).astype(np.float32) * 0.02
W[:, rng.choice(1024, 8, replace=False)] *= 30.0          # outlier input channels, as in LLM layers
X = rng.standard_normal((64, 1024)).astype(np.float32)
ref = X.astype(np.float64) @ W.astype(np.float64).T


def sqnr_db(approx, exact):
    err = np.asarray(approx, np.float64) - exact
    return 10 * np.log10(np.sum(exact**2) / np.sum(err**2))


print(f"{'format':12} {'W qdq SQNR':>11} {'GEMM SQNR':>10} {'GEMM + 2:4':>11}")
for fmt in ["hif4", "nvfp4", "mxfp4", "hif8", "mxfp8-e4m3", "bf16"]:
    w_db = sqnr_db(hifsim.quantize_dequantize(W, fmt), W.astype(np.float64))
    g_db = sqnr_db(hifsim.gemm(X, W, fmt), ref)
    r_db = sqnr_db(hifsim.gemm(X, W, fmt, residual="2:4"), ref) if fmt in ("hif4", "nvfp4", "mxfp4") else float("nan")
    print(f"{fmt:12} {w_db:10.2f}  {g_db:9.2f}  {r_db:10.2f}")
