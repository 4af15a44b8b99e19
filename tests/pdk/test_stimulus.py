"""The gate-level stimulus references (hifsim_flows.pdk.stim_*) that every mapped netlist is checked
against: their one rounding step and the alignment rule of the hif8/bf16 units, each against an
independent computation, and the builder's refusal of a unit or parameter it does not know.
No tool runs here (seconds)."""
import math
import random

import numpy as np

from pdk_test_common import check, finish
from fractions import Fraction

from hifsim_flows.pdk.flow_error import FlowError
from hifsim_flows.pdk import stim_common
from hifsim_flows.pdk import stim_fp8
from hifsim_flows.pdk import stim_had
from hifsim_flows.pdk import stim_tpb
from hifsim_flows.pdk import stimulus
from hifsim_flows.params import UnitParams

# 1. round_fp(x, 24) is float32 RNE: numpy's float64 -> float32 conversion is correctly rounded
#    (normal, subnormal, overflow to Inf), so for any double x the two must agree bit for bit.
rng = random.Random(15)
bad = []
for i in range(4000):
    e = rng.randint(-160, 130)
    x = math.ldexp(rng.random() + (0.5 if i % 3 else 0.0), e) * (-1 if i & 1 else 1)
    if i % 7 == 0:  # exact ties between two float32 neighbours
        x = float(np.float32(x)) + math.ldexp(1.0, math.frexp(float(np.float32(x)))[1] - 25) if x else x
    with np.errstate(over="ignore"):
        want32 = np.array([x], np.float64).astype(np.float32)
    want = int(want32.view(np.uint32)[0])
    if x == 0:
        want = 0  # the reference's zero is +0 (no signed-zero Fraction)
    got = stim_common.round_fp(Fraction(x))
    if got != want:
        bad.append((x, hex(got), hex(want)))
check(not bad, f"round_fp(x, 24) == numpy float32 for 4000 doubles: {len(bad)} differ, first {bad[:2]}")


# 2. round_fp(x, p) for p < 24 (the fp32_acc register widths), RNE and RZ, against the two
#    neighbours on the p-bit grid computed with float arithmetic (frexp / ldexp).
def grid_round(x, p, rz):
    m, e = math.frexp(abs(x))  # abs(x) = m 2^e, 0.5 <= m < 1
    q = max(e - 1, -126) - (p - 1)  # weight of the last kept bit
    lo = math.floor(abs(x) / 2.0 ** q)
    r = abs(x) / 2.0 ** q - lo
    up = (not rz) and (r > 0.5 or (r == 0.5 and lo & 1))
    v = math.ldexp(lo + (1 if up else 0), q)
    return int(np.array([math.copysign(v, x)], np.float32).view(np.uint32)[0])


bad = []
for p in (8, 11, 14):
    for rz in (False, True):
        for i in range(1500):
            x = float(np.float32(math.ldexp(rng.random() + 0.5, rng.randint(-140, 100)) * (-1 if i & 1 else 1)))
            if i % 5 == 0:  # a tie on the p-bit grid
                m, e = math.frexp(x)
                x = math.ldexp(round(m * 2 ** p) / 2 ** p + 2.0 ** -(p + 1), e)
            got, want = stim_common.round_fp(Fraction(x), p, rz), grid_round(x, p, rz)
            if got != want:
                bad.append((p, rz, x, hex(got), hex(want)))
check(not bad, f"round_fp(x, p in 8/11/14, RNE/RZ) == grid rounding: {len(bad)} differ, first {bad[:2]}")
check(stim_common.round_fp(Fraction(2) ** 128) == 0x7F800000, "RNE overflow gives +Inf")
check(stim_common.round_fp(-Fraction(2) ** 128, 8, True) == 0xFF7F0000, "RZ overflow gives -(largest 8-bit value)")

# 3. The alignment rule of hif8_dot / bf16_dot64 (docs/datapath.md): a product 2^40 below the
#    largest one falls out of a 24-bit window; with a sticky bit it still sets the result's last
#    bit (64 + 2^-17 is a float32), truncated it is lost, and the exact window (W = 0) rounds the
#    true sum 64 + 2^-34 to 64. A one-bit error in the window arithmetic changes these words.
big, tiny = (False, 8, 0), (False, 8, -3)  # 8 x 8 = 64 at exponent 0; 8 x 8 x 2^-40
tiny_b = (False, 8, -37)
check(stim_fp8.aligned_sum([(big, big), (tiny, tiny_b)], 8, 24, True) == 0x42800001, "sticky keeps the lost bit")
check(stim_fp8.aligned_sum([(big, big), (tiny, tiny_b)], 8, 24, False) == 0x42800000, "truncation drops it")
check(stim_fp8.aligned_sum([(big, big), (tiny, tiny_b)], 8, 0, False) == 0x42800000, "exact sum rounds to 64")
check(stim_fp8.aligned_sum([], 8, 24, True) == 0, "no nonzero product gives +0")

# 3b. hadamard16's reference (stim_had.transform: Fractions, one FP32 rounding per add) against the
#     same butterfly in numpy float32 arithmetic (IEEE RNE, subnormals kept): rows over a wide
#     exponent range (subnormal sums and scaled results), rows of equal magnitudes (exact
#     cancellations: +0) and rows of zeros of both signs ((-0) + (-0) = -0, -0 - (+0) = -0).
def numpy_hadamard(row):
    v = row.view(np.float32).copy()
    v[[j for j in range(16) if stim_had.SIGNS >> j & 1]] *= np.float32(-1)
    for h in (1, 2, 4, 8):
        n = v.copy()
        for i in (i for i in range(16) if not i & h):
            n[i], n[i + h] = v[i] + v[i + h], v[i] - v[i + h]
        v = n
    v = v * np.float32(0.25)
    return sum(int(w) << (32 * j) for j, w in enumerate(v.view(np.uint32)))


nrng = np.random.default_rng(16)
rows = [np.ldexp(nrng.random(16) + 0.5, nrng.integers(-149, -120 if k % 2 else 20, 16)) for k in range(300)]
rows += [np.full(16, 1.5) * np.where(nrng.random(16) < 0.5, -1, 1) for _ in range(50)]
rows += [np.where(nrng.random(16) < 0.5, -0.0, 0.0) for _ in range(50)]
bad = []
for r in rows:
    r32 = np.asarray(r, np.float32).view(np.uint32)
    if stim_had.transform(r32) != numpy_hadamard(r32):
        bad.append(r32[:2])
check(not bad, f"stim_had.transform == numpy float32 butterfly on {len(rows)} rows: {len(bad)} differ, first {bad[:1]}")

# 3b. stim_tpb: row beat i of the stream is row (i mod T) of its tile and the check of beat i is
#     column (i mod T) of the same tile, element e of each at [W*e +: W], tiles in row-block then
#     K-block order -- against element indices computed one by one (6 x 10 matrix, T = 2 and 4:
#     the ragged edges are left out).
for t in (2, 4):
    a = np.arange(60, dtype=np.uint32).reshape(6, 10)
    tl = stim_tpb.tiles(a, t)
    order = [(i0, k0) for i0 in range(0, 6 - 6 % t, t) for k0 in range(0, 10 - 10 % t, t)]
    ok = len(tl) == len(order)
    for n, (i0, k0) in enumerate(order):
        for r in range(t):
            ok &= stim_tpb.pack(tl[n][r], 8) == sum(int(a[i0 + r, k0 + e]) << (8 * e) for e in range(t))
            ok &= stim_tpb.pack(tl[n].T[r], 8) == sum(int(a[i0 + e, k0 + r]) << (8 * e) for e in range(t))
    check(ok, f"stim_tpb: T = {t} tiles in the unit's order, rows and columns packed element 0 first")

# 4. Units and parameters the builder does not know are refused by name.
for mod, params, what in (("nosuch_dot", "-", "no stimulus builder"), ("hif4_dot64", "NOSUCH=1", "no parameter NOSUCH")):
    try:
        stimulus.build(mod, params, "a.npy", "b.npy", "hifsim", 1)
        check(False, f"{mod} {params}: refused")
    except FlowError as e:
        check(what in str(e), f"{mod} {params}: message '{e}' says '{what}'")
check(stimulus.parameters("fp32_acc", "MANT_BITS=7")["ROUND_RZ"] is not None, "unset parameters take the RTL default")

# 5. Unit parameters are parsed once (UnitParams) and print back to the exact key text of the tables.
for text in ("STAGES=3;ELEM_RNE=1;CMP_BF16=1", "N=64;W=0;STAGES=1", "-"):
    check(UnitParams.parse(text).text() == text, f"'{text}' round-trips")
check(UnitParams.parse("N=16;W=24;STAGES=3").get("STAGES") == 3, "STAGES is an integer")
check(UnitParams.parse("N=16;STAGES=3").without("STAGES").text() == "N=16", "without STAGES")
for bad in ("N=16;W", "STAGES=3x", "=3", "STAGES=3;"):
    try:
        UnitParams.parse(bad, "units.csv")
        check(False, f"'{bad}' refused")
    except FlowError as e:
        check("units.csv" in str(e) and "NAME=INTEGER" in str(e), f"'{bad}': message '{e}' names the file and the form")
finish()
