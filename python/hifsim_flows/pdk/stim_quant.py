"""Stimulus and reference of hif4_quantizer on a trace op: the activation rows (A), 64 values at a
time, rounded to BF16 here (RNE on the float32 bits), one unit per clock (row by row, its K
blocks in turn).

Reference: `hifsim quantize --format hif4 --codes` on the same BF16 values (the model's
hif4_quantize_bf16, which the RTL is verified against by cosim), with the options the parameters
select: ELEM_RNE -> --rounding rne, CMP_BF16 -> --hif4-compare bf16, INF_TO_NAN -> --hif4-inf nan.
This checks the mapped netlist against the model; the quantizer has no simpler independent form.
"""
import os

import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, bits, control, quantize


def bf16_rne(x):
    """float32 array -> (BF16 codes uint16, the same values as float32), ties to even."""
    u = np.ascontiguousarray(x, np.float32).view(np.uint32).astype(np.uint64)
    if not np.isfinite(x).all():
        raise FlowError("stimulus", "non-finite activation")
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return r, (r.astype(np.uint32) << 16).view(np.float32)


def build(params, a_npy, b_npy, hifsim, max_ops, work):
    stages = int(params["STAGES"])
    a = np.load(a_npy).astype(np.float32)
    K = a.shape[-1]
    if K % 64:
        raise FlowError(a_npy, f"K = {K} is not a multiple of 64")
    codes, vals = bf16_rne(a)
    x_npy = os.path.join(work, "a_bf16.npy")
    np.save(x_npy, vals)
    extra = []
    if int(params["ELEM_RNE"]):
        extra += ["--rounding", "rne"]
    if int(params["CMP_BF16"]):
        extra += ["--hif4-compare", "bf16"]
    if int(params["INF_TO_NAN"]):
        extra += ["--hif4-inf", "nan"]
    _, rec = quantize(hifsim, "hif4", x_npy, work, tuple(extra))
    order = [(m, kb) for m in range(a.shape[0]) for kb in range(K // 64)][:max_ops]
    ins = control(len(order))
    xs = np.stack([codes[m, 64 * kb:64 * kb + 64] for m, kb in order]).astype("<u2").view(np.uint8)
    ins["x"] = bits(xs)
    ref = [int.from_bytes(bytes(rec[m, kb]), "little") for m, kb in order]
    return Stimulus(ins, len(order), [("unit", stages, ref)], "BF16 -> HiF4 units")
