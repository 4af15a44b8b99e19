"""Stimulus and reference of transpose_buffer on a trace op: the activation matrix (A, M x K) cut
into T x T tiles, tile after tile (row blocks of T rows, then K blocks of T columns), each tile
written as T row beats; a W-bit element is the top W bits of the FP32 value (W = 32: the value,
W = 16: its BF16 truncation). At full throughput (in_valid and out_ready always high) the unit
delivers column c of tile t exactly T + STAGES cycles after row c of tile t entered
(tests/datapath/test_transpose_buffer.cpp: first column T + STAGES cycles after the first row, no
bubble), so row beat i's check is the column (i mod T) of its tile at latency T + STAGES.

Reference, independent of the C++ model and the RTL: numpy's transpose of the tile.
"""
import numpy as np

from .flow_error import FlowError
from .stim_common import Stimulus, control, word_bits


def tiles(a, t):
    """The T x T tiles of a (M x K) in the unit's order, as an (n, T, T) uint32 array."""
    m, k = (a.shape[0] // t) * t, (a.shape[1] // t) * t
    if not m or not k:
        raise FlowError("transpose_buffer", f"the operand ({a.shape[0]} x {a.shape[1]}) holds no {t} x {t} tile")
    x = a[:m, :k].reshape(m // t, t, k // t, t).transpose(0, 2, 1, 3)
    return np.ascontiguousarray(x.reshape(-1, t, t))


def pack(elements, w):
    """Python int of T W-bit elements, element e at [W*e +: W]."""
    out = 0
    for e, v in enumerate(elements):
        out |= int(v) << (w * e)
    return out


def build(params, a_npy, b_npy, hifsim, max_ops, work):
    t, w, stages = int(params["T"]), int(params["W"]), int(params["STAGES"])
    a = np.load(a_npy).astype(np.float32)
    a = a.reshape(-1, a.shape[-1])
    bits32 = a.view(np.uint32) >> np.uint32(32 - w)
    tl = tiles(bits32, t)[:max(1, max_ops // t)]
    n = len(tl) * t
    ins = control(n)
    ins["row"] = word_bits([pack(r, w) for tile in tl for r in tile], t * w)
    ref = [pack(c, w) for tile in tl for c in tile.T]
    return Stimulus(ins, n, [("col", t + stages, ref)],
                    f"{t} x {t} tiles of the activations' top {w} bits -> their columns")
