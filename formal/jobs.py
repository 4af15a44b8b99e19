"""The formal jobs (docs/formal.md): what is proven, on which RTL, by which method.

A job: top (the miter or property wrapper), rtl (files of rtl/, compile order), formal (files
of formal/), params (chparam of the top), method (cec | pdr | sim, formal/prove.py) and label
(`formal`: the default suite; `formal-long`: the slow ones; `proof-open`: not closed or never
run to a verdict, see OPEN at the end). Names: <group>.<case>; the mutants
each must refute are in formal/mutants.py (KILLS, matched on the name).
"""
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
PKG = ["hifsim_pkg.sv"]
JOBS = {}

# Every unit's RTL parameters as (default, min, max), from the unit catalog
# (model/datapath/hw_catalog.cpp; test hw.unit_catalog fails when this block differs from it).
# ---- BEGIN generated from the unit catalog (hifsim units --update formal/jobs.py)
CATALOG = {
    "hif4_dot64": {"STAGES": (3, 0, 5)},
    "nvfp4_dot64": {"STAGES": (3, 0, 5)},
    "mxfp4_dot64": {"STAGES": (2, 0, 4)},
    "mxfp8_dot32": {"E5M2": (0, 0, 1), "STAGES": (2, 0, 3)},
    "hif8_dot": {"N": (64, 16, 64), "W": (0, 0, 112), "STICKY": (0, 0, 1), "STAGES": (3, 0, 4)},
    "bf16_dot64": {"W": (64, 16, 112), "STICKY": (1, 0, 1), "STAGES": (3, 0, 4)},
    "fp32_acc": {"MANT_BITS": (23, 1, 23), "ROUND_RZ": (0, 0, 1)},
    "sparse_residual_add": {"STAGES": (3, 0, 5), "MANT_BITS": (23, 1, 23), "ROUND_RZ": (0, 0, 1)},
    "hif4_quantizer": {"STAGES": (3, 0, 4), "ELEM_RNE": (0, 0, 1), "CMP_BF16": (0, 0, 1), "INF_TO_NAN": (0, 0, 1), "ASCEND_A6": (0, 0, 1)},
    "hadamard16": {"STAGES": (2, 0, 5)},
    "sr_quantizer": {"STAGES": (4, 0, 6), "SR_BITS": (8, 1, 32), "FMT": (0, 0, 2)},
    "transpose_buffer": {"T": (16, 2, 64), "W": (32, 1, 32), "STAGES": (1, 0, 1)},
}
# ---- END generated from the unit catalog


def unit_params(unit, **over):
    """The unit's RTL parameters at the catalog's defaults with `over` applied, in the RTL's order.
    A parameter the unit does not have, or a value outside the catalog's range, raises: `prove.py
    list` fails, and with it the configure step that registers the tests."""
    if unit not in CATALOG:
        raise KeyError(f"formal/jobs.py: {unit} is not a unit of the catalog")
    for k, v in over.items():
        if k not in CATALOG[unit]:
            raise KeyError(f"formal/jobs.py: {unit} has no parameter {k}")
        lo, hi = CATALOG[unit][k][1:]
        if not lo <= v <= hi:
            raise ValueError(f"formal/jobs.py: {unit} {k}={v} is outside the catalog's range {lo}..{hi}")
    return {k: over.get(k, d[0]) for k, d in CATALOG[unit].items()}


def param_range(unit, name):
    """Every value the catalog allows for the unit's parameter `name`."""
    _, lo, hi = CATALOG[unit][name]
    return range(lo, hi + 1)


# The mutant checks (prove.py kill) that run in the default suite; every other one is formal-long.
KILL_DEFAULT = {"dec.e2m1", "dec.e4m3", "dec.e5m2", "dec.hif8", "dec.bf16", "round.ws29_we11", "round.hif4_exact",
                "acc.m23_rne", "acc.m1_rne", "ctrl.hif4_dot64.stages1", "ctrl.hif4_dot64.stages3",
                "ctrl.hif4_dot64.stages0", "ctrl.hadamard16.stages1", "ctrl.hadamard16.stages2",
                "ctrl.sr_quantizer.stages2", "ctrl.mxfp8_dot32.e5m2.stages2",
                "ctrl.transpose_buffer.t2_w1.stages0", "ctrl.transpose_buffer.t2_w1.stages1",
                "ctrl.transpose_buffer.t4_w2.stages0", "ctrl.transpose_buffer.t4_w2.stages1",
                "ctrl.transpose_buffer.stages1", "fpadd.m1_rne", "quant.elem.away.k63", "hif4.s6_tail", "mx4.front",
                "nv.front", "nox.transpose_buffer.t2_w1.stages1", "nox.fp32_acc.m1_rne",
                "sp.acc.m10_rz", "mx8.e4m3.tail", "taint.hif4_dot64.stages3", "taint.fp32_acc.m23_rne"}


def kill_label(name):
    if JOBS[name]["label"] == "proof-open":
        return "proof-open"
    return "formal" if name in KILL_DEFAULT else "formal-long"


def job(name, top, rtl, formal, method, label, params=None, **extra):
    JOBS[name] = dict(top=top, rtl=rtl, formal=formal, method=method, label=label, params=params or {}, **extra)


# ---- hifsim_round_fp32 for every parameter set the units instantiate (formal/round_params.txt,
# kept equal to the units by test formal.round_params) against ref_round (IEEE RNE).
def _round_sets():
    for line in open(os.path.join(_HERE, "round_params.txt")):
        line = line.split("#")[0].strip()
        if line:
            ws, we, mag, lo, hi = (int(v) for v in line.split("   ")[0].split())
            yield ws, we, mag, lo, hi, line.split("   ", 1)[1].strip()


LONG_ROUND_WS = 64   # sets wider than this take minutes: formal-long
for ws, we, mag, lo, hi, users in _round_sets():
    exact = mag < ws
    tag = "hif4_exact" if (exact and ws == 23) else ("sp_exact" if exact else f"ws{ws}_we{we}")
    job(f"round.{tag}", "round_miter", PKG + ["hifsim_round_fp32.sv"], ["ref/ref_round.sv", "round/round_miter.sv"],
        "cec", "formal-long" if ws > LONG_ROUND_WS else "formal",
        dict(WS=ws, WE=we, MAG_BITS=mag, LSB_EXP_MIN=lo, LSB_EXP_MAX=hi), users=users)
# the module's defaults (no unit uses them; the widest general case cheaply)
job("round.full_ws32_we11", "round_miter", PKG + ["hifsim_round_fp32.sv"], ["ref/ref_round.sv", "round/round_miter.sv"],
    "cec", "formal", dict(WS=32, WE=11), users="module defaults")

# ---- hifsim_fp_add (fp32_acc, sparse_residual_add, hadamard16) against ref_fp_add: every pair of
# binary32 operands (the full exponent range, NaN and Inf included), at every (MANT_BITS, ROUND_RZ)
# fp32_acc accepts (the register formats fp32-m<b>-rne|rz, b = 1..23). In the default suite: the
# class-1 hole of issue 30 (MANT_BITS = 1, RNE) with its mutant check; the rest formal-long.
FPADD_DEFAULT = {(1, 0)}
for m in param_range("fp32_acc", "MANT_BITS"):
    for rz in param_range("fp32_acc", "ROUND_RZ"):
        job(f"fpadd.m{m}_{'rz' if rz else 'rne'}", "fpadd_miter", PKG + ["hifsim_fp_add.sv"],
            ["ref/ref_round.sv", "ref/ref_fp_add.sv", "fpadd/fpadd_miter.sv"], "cec",
            "formal" if (m, rz) in FPADD_DEFAULT else "formal-long", dict(MANT_BITS=m, ROUND_RZ=rz), lean=True)

# The reference's far-operand step (ref_fp_add.sv): its 27-binade field against a KBIG-binade
# one, exact for operands up to KBIG binades apart (formal/fpadd/far_lemma_miter.sv).
for m, rz in [(23, 0), (1, 0)]:
    job(f"fpadd.far_lemma.m{m}_{'rz' if rz else 'rne'}.k60", "far_lemma_miter", [],
        ["ref/ref_round.sv", "ref/ref_fp_add.sv", "fpadd/far_lemma_miter.sv"], "cec", "formal-long",
        dict(MANT_BITS=m, ROUND_RZ=rz, KBIG=60), lean=True)
# the fully exact field (253 binades, 280 bits): 166k ANDs, on which `fold` asserts; `&fraig -x`
# reduces the miter to the constant 0
job("fpadd.far_lemma.m23_rne.k253", "far_lemma_miter", [],
    ["ref/ref_round.sv", "ref/ref_fp_add.sv", "fpadd/far_lemma_miter.sv"], "cec", "formal-long",
    dict(MANT_BITS=23, ROUND_RZ=0, KBIG=253), lean=True, abc_pre="&get -n; &fraig -x; &put;")

# ---- the element decoders of hifsim_pkg, every code (exhaustive = proof)
for d in ("e2m1", "e4m3", "e5m2", "hif8", "bf16"):
    job(f"dec.{d}", None, PKG, [], "sim", "formal", decoder=d)

# The reduced parameter sets of hif8_dot and bf16_dot64 that the control and no-X jobs use besides
# (or instead of) the defaults: the same RTL with a narrower alignment window (and 16 HiF8 lanes),
# whose Yosys elaboration takes seconds where the defaults' takes minutes.
REDUCED = {"hif8_dot": dict(N=16, W=24, STICKY=0), "bf16_dot64": dict(W=16, STICKY=0)}

# ---- control: latency = STAGES, valid/ready protocol, reset (formal/ctrl/handshake_props.sv),
# unbounded (ABC pdr): every catalog unit with a STAGES parameter at every STAGES value the catalog
# allows (the handshake does not read the data, so hif8_dot and bf16_dot64 at their reduced sets),
# and mxfp8_dot32's E5M2 elements as a second set. Not here: fp32_acc (no STAGES, no handshake: its
# control is acc.* below) and transpose_buffer (tile protocol: T rows in, then T columns out, not
# one output per input).
CTRL_NOT = {"fp32_acc", "transpose_buffer"}
CTRL_UNITS = [(u, "", REDUCED.get(u, {})) for u in CATALOG if u not in CTRL_NOT] + [("mxfp8_dot32", "e5m2.", dict(E5M2=1))]
for _u, _, _ in CTRL_UNITS:
    if "STAGES" not in CATALOG[_u]:
        raise KeyError(f"formal/jobs.py: {_u} has no STAGES: give it a control job of its own and list it in CTRL_NOT")
# In the default suite: every hif4_dot64 depth and, for the other units, the depths a cut mutant
# targets (their Yosys elaboration costs 5-20 s each) and mxfp8_dot32's E5M2 at its default depth;
# the rest formal-long.
CTRL_DEFAULT = {("nvfp4_dot64", "", 2), ("nvfp4_dot64", "", 4), ("mxfp4_dot64", "", 1), ("mxfp4_dot64", "", 3),
                ("mxfp8_dot32", "", 2), ("hif8_dot", "", 3), ("bf16_dot64", "", 3), ("sparse_residual_add", "", 5),
                ("hif4_quantizer", "", 1), ("hadamard16", "", 1), ("hadamard16", "", 2), ("sr_quantizer", "", 2),
                ("mxfp8_dot32", "e5m2.", 2)}
for unit, tag, extra in CTRL_UNITS:
    for s in param_range(unit, "STAGES"):
        label = "formal" if unit == "hif4_dot64" or (unit, tag, s) in CTRL_DEFAULT else "formal-long"
        job(f"ctrl.{unit}.{tag}stages{s}", "ctrl_top", [], ["ctrl/handshake_props.sv"], "pdr", label,
            unit=unit, unit_params=unit_params(unit, **extra, STAGES=s))

# ---- transpose_buffer: its tile protocol and the transpose itself (formal/ctrl/tile_props.sv: T rows
# in, T columns out, column k element i = row i element k at a symbolic (i, k)), unbounded (ABC
# pdr), at both STAGES: the small tiles of the no-X jobs, and the default T=16 W=32 as the protocol
# alone (DATA = 0; with the transpose, `.data.`, pdr has 16,384 memory flops to relate)
TILE_SETS = [("t2_w1.", dict(T=2, W=1), 1), ("t4_w2.", dict(T=4, W=2), 1), ("t8_w4.", dict(T=8, W=4), 1),
             ("", {}, 0), ("data.", {}, 1)]
# In the default suite: the two small tiles at both depths and the default tile's protocol at its
# default depth, with their mutant checks (about 80 CPU seconds together); the T=8 tile (minutes)
# and the rest formal-long.
TILE_DEFAULT = {("t2_w1.", 0), ("t2_w1.", 1), ("t4_w2.", 0), ("t4_w2.", 1), ("", 1)}
for tag, over, data in TILE_SETS:
    for s in param_range("transpose_buffer", "STAGES"):
        job(f"ctrl.transpose_buffer.{tag}stages{s}", "tile_top", PKG + ["hifsim_pipe_reg.sv", "transpose_buffer.sv"],
            ["ctrl/tile_props.sv"], "pdr", "formal" if (tag, s) in TILE_DEFAULT else "formal-long",
            dict(unit_params("transpose_buffer", **over, STAGES=s), DATA=data))

# ---- fp32_acc control: clear > init > add priority, reset, register format (formal/ctrl/acc_props.sv)
for m, rz in [(23, 0), (10, 1), (1, 0), (13, 1)]:
    job(f"acc.m{m}_{'rz' if rz else 'rne'}", "acc_props", PKG + ["hifsim_fp_add.sv", "fp32_acc.sv"],
        ["ctrl/acc_props.sv"], "pdr", "formal", unit_params("fp32_acc", MANT_BITS=m, ROUND_RZ=rz))

# ---- hif4_dot64: the whole datapath against the HiF4 definition (formal-long: solver time), and
# the tail s2..s7 against its stage contract (the I x SS width)
job("hif4.dot_full", "hif4_miter", PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "hif4_dot_tail.sv", "hif4_dot64.sv"],
    ["ref/ref_round.sv", "ref/ref_hif4_dot.sv", "hif4/hif4_miter.sv"], "cec", "formal-long")
job("hif4.s6_tail", "tail_miter", PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "hif4_dot_tail.sv"],
    ["ref/ref_round.sv", "hif4/tail_miter.sv"], "cec", "formal")
# the front end s0, s1, s5 against the definition, followed by the same tail on both sides: with
# hif4.s6_tail, the whole datapath (formal/hif4/front_miter.sv states the composition)
job("hif4.s1_front", "front_miter", PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "hif4_dot_tail.sv", "hif4_dot64.sv"],
    ["hif4/front_miter.sv"], "cec", "formal")

# ---- sparse_residual_add at STAGES = 0 (docs/datapath.md section 7), by composition as hif4_dot64:
#   sp.front  the front end (the 2:4 select of the weight element 4g + idx[j], the 32 lane products,
#             SS, X, NaN) = the select-and-multiply definition, followed by the unit's own tail on
#             both sides; every front value inside the tail contract's bounds
#   sp.tail   hif4_dot_tail at the sparse parameters (4 products per group, SP_* widths) = its stage
#             contracts (formal/hif4/tail_miter.sv, re-parameterized) for every input in the bounds
#   sp.acc.*  the accumulate step around hifsim_fp_add (fpadd.* prove the adder): init_value or the
#             register, the register's enable and reset, for every dot value (dut.c7_dot cut)
SP_RTL = PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "hif4_dot_tail.sv", "hifsim_fp_add.sv",
                "sparse_residual_add.sv"]
job("sp.front", "sp_front_miter", SP_RTL, ["ref/ref_sp_front.sv", "sparse/sp_front_miter.sv"], "cec", "formal")
job("sp.tail", "sp_tail_miter", PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "hif4_dot_tail.sv"],
    ["ref/ref_round.sv", "hif4/tail_miter.sv", "sparse/sp_tail_miter.sv"], "cec", "formal")
# the accumulate step at every STAGES >= 1: the sideband through the ranks against a reference
# queue (formal/sparse/sp_acc_props.sv, as sp.acc.* below at STAGES 0), dot cut as above; 30-50 s
# of pdr each: formal-long
for st in param_range("sparse_residual_add", "STAGES")[1:]:
    job(f"sp.acc_pipe.stages{st}", "sp_acc_props", SP_RTL, ["sparse/sp_acc_props.sv"], "pdr",
        "formal-long", unit_params("sparse_residual_add", STAGES=st, MANT_BITS=10, ROUND_RZ=1),
        connect=[("dut.c7_dot", "dot")])
# references only: the select-and-multiply group sums = the dense HiF4 unit the residual
# decompresses to (formal/sparse/sp_decomp_lemma.sv); formal-long: 57 s of CPU, and no RTL to break
job("sp.decomp_lemma", "sp_decomp_lemma", [], ["ref/ref_sp_front.sv", "sparse/sp_decomp_lemma.sv"], "cec",
    "formal-long")
# every (MANT_BITS, ROUND_RZ) pair the unit accepts (as fpadd.*); 2 s of CPU each: the default
# suite runs the unit's default (m23_rne), a reduced RZ register (m10_rz) and m1_rne
SP_ACC_DEFAULT = {(23, 0), (10, 1), (1, 0)}
for m in param_range("sparse_residual_add", "MANT_BITS"):
    for rz in param_range("sparse_residual_add", "ROUND_RZ"):
        job(f"sp.acc.m{m}_{'rz' if rz else 'rne'}", "sp_acc_props", SP_RTL, ["sparse/sp_acc_props.sv"], "pdr",
            "formal" if (m, rz) in SP_ACC_DEFAULT else "formal-long",
            unit_params("sparse_residual_add", STAGES=0, MANT_BITS=m, ROUND_RZ=rz),
            connect=[("dut.c7_dot", "dot")])

# ---- hif4_quantizer against ref_hif4_quant (hif4.md section 2), split at the meta word
# (formal/quant/quant_miter.sv): the meta word for every input, the elements against the unit's meta
QUANT_RTL = PKG + ["hifsim_pipe_reg.sv", "hif4_quantizer.sv"]
QUANT_FORMAL = ["ref/ref_hif4_quant.sv", "quant/quant_miter.sv"]


def quant_job(name, label, **params):
    unit_params("hif4_quantizer", **{k: v for k, v in params.items() if k not in ("PART", "K0", "K1")})
    job(name, "quant_miter", QUANT_RTL, QUANT_FORMAL, "cec", label, params, early_flatten=True)


# The meta word depends on CMP_BF16 and INF_TO_NAN only, the elements on ELEM_RNE and the meta word:
# the option sets of the co-simulation (cosim/common/cosim_top.sv: 0, 1, 2, 3, 4, 7) by their parts.
# The default suite: the meta word of the default options and element 63 (the last level-2 and
# level-3 group); every other set, all 64 elements, formal-long.
for tag, opts in [("exact", {}), ("cmp", dict(CMP_BF16=1)), ("itn", dict(INF_TO_NAN=1)),
                  ("cmp_itn", dict(CMP_BF16=1, INF_TO_NAN=1)), ("a6", dict(ASCEND_A6=1))]:
    quant_job(f"quant.meta.{tag}", "formal" if tag == "exact" else "formal-long", PART=0, **opts)
for tag, opts in [("away", {}), ("rne", dict(ELEM_RNE=1, CMP_BF16=1, INF_TO_NAN=1)), ("a6", dict(ASCEND_A6=1))]:
    quant_job(f"quant.elem.{tag}.k63", "formal" if tag == "away" else "formal-long", PART=1, K0=63, K1=64, **opts)
    quant_job(f"quant.elem.{tag}.all", "formal-long", PART=1, K0=0, K1=64, **opts)

# ---- mxfp4_dot64 at STAGES = 0 against ref_mxfp4_dot (the MXFP4 definition, the exact two-term sum,
# formal/mx/mx4_miter.sv): the whole unit, and split at the s2 -> s4a boundary (c2_data): the front
# (decode, products, block sums, exponents) and the tail (alignment with its jam bit + rounding) for
# every block-sum and exponent pair. The tail is the part the jam argument of the RTL rests on.
MX4_RTL = PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "mxfp4_dot64.sv"]
MX4_FORMAL = ["ref/ref_round.sv", "ref/ref_round_wide.sv", "ref/ref_mxfp4_dot.sv", "mx/mx4_miter.sv"]
job("mx4.whole", "mx4_miter", MX4_RTL, MX4_FORMAL, "cec", "formal-long", dict(PART=0), early_flatten=True)
job("mx4.front", "mx4_miter", MX4_RTL, MX4_FORMAL, "cec", "formal", dict(PART=1),
    connect=[("tap", "dut.c2_data")])
job("mx4.tail", "mx4_miter", MX4_RTL, MX4_FORMAL, "cec", "formal-long", dict(PART=2),
    connect=[("dut.c2_data", "c2")])
# the tail for the exponent pairs at most 64 binades apart (every alignment and the first 24 jam
# distances; a 79-bit exact field instead of 525 bits)
job("mx4.tail.d64", "mx4_miter", MX4_RTL, MX4_FORMAL, "cec", "formal-long", dict(PART=2, DMAX=64),
    connect=[("dut.c2_data", "c2")])

# The tail in two proofs that together cover every (S, X) pair (docs/formal.md "MXFP4 tail"):
#   mx4.tail.lead40  the unit's tail (cut at c2_data as above) = ref_mx_lead KEEP = 40: the field
#                    framed at the leading term with the low term jammed beyond 40 binades, so the
#                    two sides share their alignment and the solver merges it (RTL mutants)
#   mx4.jam_lemma    the references alone: ref_mx_lead KEEP = 40 = ref_mx_lead KEEP = 510, the
#                    exact field (no jam reachable), i.e. the jam changes no rounded result
# `&fraig -x` first (SAT sweeping of the whole AIG), then dprove on what is left.
MX4_LEAD = ["ref/ref_round.sv", "ref/ref_round_wide.sv", "ref/ref_mx_lead.sv", "ref/ref_mxfp4_dot.sv", "mx/mx4_miter.sv"]
# lead40 in the default suite (9 s CPU; its mutant check, 3 CPU-minutes, formal-long): it is the
# part an RTL change can break; the lemma reads references only (7 CPU-minutes, formal-long)
job("mx4.tail.lead40", "mx4_miter", MX4_RTL, MX4_LEAD, "cec", "formal", dict(PART=3, KEEP=40),
    connect=[("dut.c2_data", "c2")], abc_pre="&get -n; &fraig -x; &put;")
job("mx4.jam_lemma", "mx4_jam_lemma", [], ["ref/ref_round.sv", "ref/ref_round_wide.sv", "ref/ref_mx_lead.sv", "mx/mx4_jam_lemma.sv"],
    "cec", "formal-long", dict(KBIG=510), abc_pre="&get -n; &fraig -x; &put;")

# ---- nvfp4_dot64 at STAGES = 0 against ref_nvfp4_dot (formal/nv/nv_miter.sv): the whole unit, and
# split at the sub-block sums c2_data[51:0] (front: decode, products, sums; tail: the scale decode,
# the four S x scA x scB products, the exact sum and the rounding, for every S and every scale)
NV_RTL = PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "nvfp4_dot64.sv"]
NV_FORMAL = ["ref/ref_round.sv", "ref/ref_nvfp4_dot.sv", "nv/nv_miter.sv"]
job("nv.whole", "nv_miter", NV_RTL, NV_FORMAL, "cec", "formal-long", dict(PART=0), early_flatten=True)
job("nv.front", "nv_miter", NV_RTL, NV_FORMAL, "cec", "formal", dict(PART=1),
    connect=[("tap", "dut.c2_data[51:0]")])
job("nv.tail", "nv_miter", NV_RTL, NV_FORMAL, "cec", "formal-long", dict(PART=2),
    connect=[("dut.c2_data[51:0]", "s")], abc_pre="&get -n; &fraig -x; &put;")

# ---- mxfp8_dot32 at STAGES = 0 against ref_mxfp8_dot (formal/mx/mx8_miter.sv), E4M3 and E5M2: the
# whole unit, and split at the s2 boundary c2_data = {scale_nan, nan, pinf, ninf, lsb, sum}: the
# front (decode, products, alignment, the exact 32-term sum, the lsb exponent, the NaN / Inf flags;
# c2_data read through a tap) and the tail (rounding and specials, c2_data cut and driven by a free
# input: every sum, lsb and flag value). In the default suite: the E4M3 tail and its mutant check
# (12 + 31 s CPU); the fronts (70 / 137 s CPU) and the E5M2 tail (26 s) formal-long.
MX8_RTL = PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "mxfp8_dot32.sv"]
MX8_FORMAL = ["ref/ref_round.sv", "ref/ref_mxfp8_dot.sv", "mx/mx8_miter.sv"]
for tag, e5 in (("e4m3", 0), ("e5m2", 1)):
    job(f"mx8.{tag}", "mx8_miter", MX8_RTL, MX8_FORMAL, "cec", "formal-long", dict(E5M2=e5, PART=0), early_flatten=True)
    job(f"mx8.{tag}.front", "mx8_miter", MX8_RTL, MX8_FORMAL, "cec", "formal-long", dict(E5M2=e5, PART=1),
        connect=[("tap", "dut.c2_data")])
    job(f"mx8.{tag}.tail", "mx8_miter", MX8_RTL, MX8_FORMAL, "cec", "formal" if e5 == 0 else "formal-long",
        dict(E5M2=e5, PART=2), connect=[("dut.c2_data", "c2")])

# ref_round_wide (the wide fields' rounding reference) = ref_round, every input of the width
for ws in (40, 80):
    job(f"round.wide_lemma.ws{ws}", "wide_lemma_miter", [], ["ref/ref_round.sv", "ref/ref_round_wide.sv",
        "round/wide_lemma_miter.sv"], "cec", "formal-long", dict(WS=ws, WE=12))
# ---- no X on the outputs from defined inputs: two copies of the unit, the same inputs, every
# unreset register arbitrary and independent in each copy; the handshake outputs always equal, the
# data outputs equal while out_valid (formal/nox_wrap.py), unbounded (ABC pdr).
# (unit, tag, parameters other than STAGES, depths, outputs compared in every cycle): tag "" is the
# catalog's default parameters, its depths start with the default STAGES (checked below: every
# catalog unit with a handshake has that entry); a tag names a reduced parameter set.
NOX_UNITS = [("hif4_dot64", "", {}, [3, 0, 1, 5], ()), ("nvfp4_dot64", "", {}, [3, 1], ()),
             ("mxfp4_dot64", "", {}, [2, 4], ()), ("mxfp8_dot32", "", {}, [2, 3], ()),
             ("hif8_dot", "", {}, [3], ()), ("bf16_dot64", "", {}, [3], ()),
             # the narrower alignment windows the control jobs use (REDUCED)
             ("hif8_dot", "n16_w24.", REDUCED["hif8_dot"], [3], ()),
             ("bf16_dot64", "w16.", REDUCED["bf16_dot64"], [3], ()),
             ("hif4_quantizer", "", {}, [3, 4], ()), ("sparse_residual_add", "", {}, [3, 0, 5], ("acc",)),
             ("hadamard16", "", {}, [2, 1, 5], ()), ("sr_quantizer", "", {}, [4, 1, 6], ()),
             # the tile memory: 2 x T x T x W flops per copy (32,768 in the two copies at T=16
             # W=32); the reduced tiles are the same RTL with a smaller generate loop
             ("transpose_buffer", "", {}, [1, 0], ()),
             ("transpose_buffer", "t4_w2.", dict(T=4, W=2), [1, 0], ()),
             ("transpose_buffer", "t8_w4.", dict(T=8, W=4), [1], ()),
             ("transpose_buffer", "t2_w1.", dict(T=2, W=1), [1, 0], ())]
for _u in CATALOG:
    if _u != "fp32_acc" and not any(u == _u and t == "" and "STAGES" in CATALOG[u] and st[0] == CATALOG[u]["STAGES"][0]
                                    for u, t, _, st, _ in NOX_UNITS):
        raise KeyError(f"formal/jobs.py: NOX_UNITS has no entry for {_u} at its default parameters and STAGES")
# In the default suite: the small tiles of transpose_buffer (a register rank and the tile memory;
# about a second each) and fp32_acc m1_rne (its accumulator register), with their mutant checks;
# every dot unit and the default tile take minutes of pdr (docs/formal.md): formal-long.
NOX_DEFAULT = {("transpose_buffer", "t2_w1.", 1), ("transpose_buffer", "t4_w2.", 1)}
for unit, tag, extra, stages, always in NOX_UNITS:
    for s in stages:
        job(f"nox.{unit}.{tag}stages{s}", "nox_top", [], [], "pdr",
            "formal" if (unit, tag, s) in NOX_DEFAULT else "formal-long",
            unit=unit, unit_params=unit_params(unit, **extra, STAGES=s), wrap="nox", always=always, keep_ffs=True)
# fp32_acc has no handshake: its one output, the accumulator register (reset), in every cycle
for m, rz in [(23, 0), (1, 0), (10, 1)]:
    job(f"nox.fp32_acc.m{m}_{'rz' if rz else 'rne'}", "nox_top", [], [], "pdr", "formal" if m == 1 else "formal-long",
        unit="fp32_acc", unit_params=unit_params("fp32_acc", MANT_BITS=m, ROUND_RZ=rz), wrap="nox", keep_ffs=True)
# ---- no X, second method: one copy of the unit and its gate-level taint model (formal/taint.py;
# the power-up contents of the unreset registers the only taint source), observed as above,
# unbounded (ABC pdr). Sound for the same property (a clean output cannot depend on the power-up
# contents); its invariant is "a valid rank's taint bits are 0", which pdr finds without proving
# two copies of the datapath equal, so it closes where the two-copy jobs do not.
# In the default suite: one depth of each dot unit whose job is seconds (the default STAGES; hif8_dot
# at the control jobs' N=16 W=24), the small transpose tile and fp32_acc m23_rne; the others formal-long.
TAINT_DEFAULT = {("hif4_dot64", "", 3), ("nvfp4_dot64", "", 3), ("mxfp4_dot64", "", 2), ("mxfp8_dot32", "", 2),
                 ("hif8_dot", "n16_w24.", 3), ("transpose_buffer", "t2_w1.", 1)}
# The taint rule (formal/taint.py): "precise" (GLIFT at every gate) or "or" (a gate whose two inputs
# are both data takes t(a) | t(b); the precise rule where one is control): the jobs the precise
# model left undecided, whose model it shrinks from 947k to 326k ANDs (hif8_dot) and makes the
# datapath's taint independent of the data values.
TAINT_OR = {("hif8_dot", "", 3), ("bf16_dot64", "", 3), ("transpose_buffer", "", 1), ("transpose_buffer", "", 0)}
for unit, tag, extra, stages, always in NOX_UNITS:
    for s in stages:
        job(f"taint.{unit}.{tag}stages{s}", "nox_top", [], [], "taint",
            "formal" if (unit, tag, s) in TAINT_DEFAULT else "formal-long",
            unit=unit, unit_params=unit_params(unit, **extra, STAGES=s), wrap="taint", always=always,
            taint_rule="or" if (unit, tag, s) in TAINT_OR else "precise")
for m, rz in [(23, 0), (1, 0), (10, 1)]:
    job(f"taint.fp32_acc.m{m}_{'rz' if rz else 'rne'}", "nox_top", [], [], "taint", "formal" if m == 23 else "formal-long",
        unit="fp32_acc", unit_params=unit_params("fp32_acc", MANT_BITS=m, ROUND_RZ=rz), wrap="taint")

# ---- hif8_dot / bf16_dot64 (hifsim_aligned_dot) at STAGES = 0 against ref_aligned_dot (docs/datapath.md
# sections 4-5, formal/aligned/aligned_miter.sv), split at the s2 -> s3 contract c2_data: the front
# (decode, products, specials, Emax over the nonzero products) taps it, the tail (alignment, sticky,
# sum, window LSB, rounding) cuts it and takes every c2_data of the contract's shape. `&fraig -x`
# first (on a mutant plain `fold; dprove`: see prove.py run_abc).
# (tag, unit, parameters: {} the catalog's defaults, front label, tail label, whole label); the front
# (s0-s2) does not read W or STICKY, so one front job per (unit, N) (None: the same logic as the set
# above it). bf16_dot64 has 64 lanes, no N. BF16's
# front compares the unit with the reference's Emax as a balanced tree (EMAX_TREE = 1; the scan
# did not close at 64 lanes); al.bf.emax_lemma: the tree = the scan, references only. BF16's
# one-job tail (`al.bf.*.tail`) does not close; its three-part form is below.
AL_RTL = PKG + ["hifsim_pipe_reg.sv", "hifsim_round_fp32.sv", "hifsim_aligned_dot.sv"]
AL_FORMAL = ["ref/ref_round.sv", "ref/ref_aligned_dot.sv", "aligned/aligned_miter.sv"]
AL_SETS = [("h8.n16_w24", "hif8_dot", REDUCED["hif8_dot"], "formal", "formal", "formal-long"),
           ("h8.n16_w8_s", "hif8_dot", dict(N=16, W=8, STICKY=1), None, "formal-long", "formal-long"),  # sticky
           ("h8.n64_exact", "hif8_dot", {}, "formal-long", "formal-long", "formal-long"),
           ("bf.w16", "bf16_dot64", REDUCED["bf16_dot64"], "formal-long", "formal-long", "formal-long"),
           ("bf.w64_s", "bf16_dot64", {}, None, "formal-long", "formal-long")]
def al_params(unit, over):
    """The aligned miter's parameters for the unit at `over` (bf16_dot64 has 64 lanes, no N) and the
    path of the unit's s2 -> s3 boundary inside the miter."""
    fmt = int(unit == "bf16_dot64")
    up = unit_params(unit, **over)
    c2 = f"{'g_bf16' if fmt else 'g_hif8'}.dut.u_dot.c2_data"
    return dict(FMT=fmt, N=up.get("N", 64), W=up["W"], STICKY=up["STICKY"]), c2


for tag, unit, over, lf, lt, lw in AL_SETS:
    p, c2 = al_params(unit, over)
    fmt = p["FMT"]
    if lf:
        job(f"al.{tag}.front", "aligned_miter", AL_RTL + [unit + ".sv"], AL_FORMAL, "cec", lf,
            dict(p, PART=1, EMAX_TREE=fmt),
            connect=[("tap", c2)], abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
    job(f"al.{tag}.tail", "aligned_miter", AL_RTL + [unit + ".sv"], AL_FORMAL, "cec", lt, dict(p, PART=2),
        connect=[(c2, "c2x")], abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
    job(f"al.{tag}.whole", "aligned_miter", AL_RTL + [unit + ".sv"], AL_FORMAL, "cec", lw,
        dict(p, PART=0, EMAX_TREE=fmt),
        early_flatten=True, abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
# bf16_dot64's tail in three jobs (the one-job tail did not close): `tail_clamped` is the tail on the
# domain where every lane's u <= E (CLAMP_ALL, not only the nz lanes'), where each lane's aligned
# term is one function on both sides; `tail_lemma` (the unit alone, two copies) and `tail_ref_lemma`
# (the reference alone) show that the u of a lane outside nz does not change the output, so the
# three give the tail's statement on the whole contract domain (aligned_miter.sv, PARTs 2-4).
for tag, over in [("bf.w16", REDUCED["bf16_dot64"]), ("bf.w64_s", {})]:
    p, c2 = al_params("bf16_dot64", over)
    job(f"al.{tag}.tail_clamped", "aligned_miter", AL_RTL + ["bf16_dot64.sv"], AL_FORMAL, "cec", "formal-long",
        dict(p, PART=2, CLAMP_ALL=1),
        connect=[(c2, "c2x")], abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
    job(f"al.{tag}.tail_sum", "aligned_miter", AL_RTL + ["bf16_dot64.sv"], AL_FORMAL, "cec", "formal-long",
        dict(p, PART=2, CLAMP_ALL=1, SUM_TAP=1),
        connect=[(c2, "c2x"), ("g_tail.g_sum.tap4", "g_bf16.dut.u_dot.c4_data"),
                 ("g_tail.g_sum.tap_s", "g_tail.ref_tail.s"), ("g_tail.g_sum.tap_l", "g_tail.ref_tail.lsb")],
        abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
    job(f"al.{tag}.tail_lemma", "aligned_miter", AL_RTL + ["bf16_dot64.sv"], AL_FORMAL, "cec", "formal-long",
        dict(p, PART=3),
        connect=[(c2, "c2x"), ("g_rtl_lemma.dut2.u_dot.c2_data", "c2y")],
        abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
    job(f"al.{tag}.tail_ref_lemma", "aligned_miter", AL_RTL + ["bf16_dot64.sv"], AL_FORMAL, "cec", "formal-long",
        dict(p, PART=4), early_flatten=True, abc_pre="&get -n; &fraig -x; &put;", abc_pre_mutant="fold;")
job("al.bf.emax_lemma", "emax_lemma", [], ["ref/ref_round.sv", "ref/ref_aligned_dot.sv", "aligned/emax_lemma.sv"],
    "cec", "formal-long", dict(FMT=1, N=64), abc_pre="&get -n; &fraig -x; &put;")

# ---- proof-open: the jobs that have not closed (UNKNOWN or undecided at their limits) or were never
# run to a verdict. They stay runnable (`prove.py run`) but not under a label ctest's `-L formal`
# matches, so every job labelled `formal` or `formal-long` has been seen proven at least once (not
# every formal-long mutant check has been run: docs/formal.md says which); docs/formal.md, Results
# and "Not done", give what each of these did. Their mutant checks (bug-finding only: a proof that is
# not closed proves nothing) are proof-open too.
OPEN = {
    # datapath miters: one-miter forms superseded by front + tail splits, and the open aligned sets
    "hif4.dot_full", "mx4.tail", "mx4.tail.d64", "mx4.whole", "nv.whole",
    "al.bf.w16.tail", "al.bf.w16.whole",
    # the bf16_dot64 W=64 sticky tail: tail_clamped UNKNOWN at 900 s of ABC, tail_lemma no answer
    # in 580 s, tail_ref_lemma UNKNOWN at 420 s (tail_sum, its part before the rounding, is proven);
    # W=16's tail_sum not run (W=16 closes with tail_clamped)
    "al.bf.w16.tail_sum", "al.bf.w64_s.tail_clamped", "al.bf.w64_s.tail_lemma", "al.bf.w64_s.tail_ref_lemma",
    "al.bf.w64_s.tail", "al.bf.w64_s.whole",
    # hif8_dot's default N=64 exact: the front is proven (formal-long), the tail and whole are open
    "al.h8.n64_exact.tail", "al.h8.n64_exact.whole", "al.h8.n16_w24.whole",
    "al.h8.n16_w8_s.whole", "al.bf.emax_lemma",
    # two-copy no-X jobs: undecided at 300 s of pdr or never run (the taint jobs prove the property
    # for these units, see docs/formal.md "No X on the outputs")
    "nox.hif4_dot64.stages5", "nox.nvfp4_dot64.stages3", "nox.nvfp4_dot64.stages1", "nox.mxfp4_dot64.stages4",
    "nox.mxfp8_dot32.stages2", "nox.mxfp8_dot32.stages3", "nox.hif8_dot.stages3", "nox.bf16_dot64.stages3",
    "nox.hif8_dot.n16_w24.stages3", "nox.bf16_dot64.w16.stages3", "nox.hif4_quantizer.stages3",
    "nox.hif4_quantizer.stages4", "nox.sparse_residual_add.stages3", "nox.sparse_residual_add.stages5",
    "nox.hadamard16.stages2", "nox.hadamard16.stages1", "nox.hadamard16.stages5", "nox.sr_quantizer.stages4",
    "nox.sr_quantizer.stages6", "nox.transpose_buffer.stages1", "nox.transpose_buffer.stages0",
    # the T=16 tile at STAGES 0 (not its default depth): undecided with the precise rule (300 s of
    # pdr) and with the `or` rule (600 s)
    "taint.transpose_buffer.stages0",
    # the transpose at T=8 STAGES 1 (undecided at 900 s of pdr) and at the default tile (not run)
    "ctrl.transpose_buffer.t8_w4.stages1", "ctrl.transpose_buffer.data.stages1", "ctrl.transpose_buffer.data.stages0",
}
for _n in OPEN:
    if _n not in JOBS:
        raise KeyError(f"formal/jobs.py: OPEN names {_n}, which is not a job")
    JOBS[_n]["label"] = "proof-open"
