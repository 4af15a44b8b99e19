"""Which stimulus builder drives which RTL unit, with the unit's parameters.

  build(module, "N=16;W=24", a.npy, b.npy, hifsim, max_ops) -> stim_common.Stimulus

The parameters a synthesis run does not set take the module's defaults: the unit catalog's
(model/datapath/hw_catalog.cpp, printed below), which tests/hw checks against the
`parameter int NAME = value` lines of rtl/<module>.sv.
"""
import tempfile

from ..params import UnitParams
from .flow_error import FlowError
from . import stim_acc
from . import stim_fp4
from . import stim_fp8
from . import stim_had
from . import stim_quant
from . import stim_sr
from . import stim_tpb

BUILDERS = {
    "hif4_dot64": lambda *a: stim_fp4.build("hif4_dot64", *a),
    "nvfp4_dot64": lambda *a: stim_fp4.build("nvfp4_dot64", *a),
    "mxfp4_dot64": lambda *a: stim_fp4.build("mxfp4_dot64", *a),
    "mxfp8_dot32": lambda *a: stim_fp8.build("mxfp8_dot32", *a),
    "hif8_dot": lambda *a: stim_fp8.build("hif8_dot", *a),
    "bf16_dot64": lambda *a: stim_fp8.build("bf16_dot64", *a),
    "fp32_acc": stim_acc.build_acc,
    "sparse_residual_add": stim_acc.build_sparse,
    "hif4_quantizer": stim_quant.build,
    "hadamard16": stim_had.build,
    "sr_quantizer": stim_sr.build,
    "transpose_buffer": stim_tpb.build,
}


# ---- BEGIN generated from the unit catalog (hifsim units --update python/hifsim_flows/pdk/stimulus.py)
RTL_DEFAULTS = {
    "hif4_dot64": {"STAGES": "3"},
    "nvfp4_dot64": {"STAGES": "3"},
    "mxfp4_dot64": {"STAGES": "2"},
    "mxfp8_dot32": {"E5M2": "0", "STAGES": "2"},
    "hif8_dot": {"N": "64", "W": "0", "STICKY": "0", "STAGES": "3"},
    "bf16_dot64": {"W": "64", "STICKY": "1", "STAGES": "3"},
    "fp32_acc": {"MANT_BITS": "23", "ROUND_RZ": "0"},
    "sparse_residual_add": {"STAGES": "3", "MANT_BITS": "23", "ROUND_RZ": "0"},
    "hif4_quantizer": {"STAGES": "3", "ELEM_RNE": "0", "CMP_BF16": "0", "INF_TO_NAN": "0", "ASCEND_A6": "0"},
    "hadamard16": {"STAGES": "2"},
    "sr_quantizer": {"STAGES": "4", "SR_BITS": "8", "FMT": "0"},
    "transpose_buffer": {"T": "16", "W": "32", "STAGES": "1"},
}
# ---- END generated from the unit catalog


def rtl_defaults(module):
    if module not in RTL_DEFAULTS:
        raise FlowError(module, "not a unit of the catalog (hifsim units)")
    return dict(RTL_DEFAULTS[module])


def parameters(module, params):
    """{NAME: value text} of `module` at the parameter text `params` (the others at their defaults)."""
    p = rtl_defaults(module)
    for k, v in UnitParams.parse(params, module).items:
        if k not in p:
            raise FlowError(f"rtl/{module}.sv", f"no parameter {k}")
        p[k] = str(v)
    return p


def build(module, params, a_npy, b_npy, hifsim, max_ops):
    if module not in BUILDERS:
        raise FlowError(module, "no stimulus builder for this unit")
    with tempfile.TemporaryDirectory() as work:
        return BUILDERS[module](parameters(module, params), a_npy, b_npy, hifsim, max_ops, work)
