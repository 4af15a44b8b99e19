"""Which stimulus builder drives which RTL unit, with the unit's parameters.

  build(module, "N=16;W=24", a.npy, b.npy, hifsim, max_ops) -> stim_common.Stimulus

The parameters a synthesis run does not set take the module's defaults, read from the
`parameter int NAME = value` lines of rtl/<module>.sv (the one place they are written).
"""
import os
import re
import tempfile

from flow_error import FlowError
import stim_acc
import stim_fp4
import stim_fp8
import stim_quant

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

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
}


def rtl_defaults(module):
    path = os.path.join(ROOT, "rtl", module + ".sv")
    try:
        text = open(path).read()
    except OSError as e:
        raise FlowError(path, f"cannot read the unit's RTL: {e.strerror}")
    return {k: v for k, v in re.findall(r"^\s*parameter\s+int\s+(\w+)\s*=\s*(-?\d+)", text, re.M)}


def parameters(module, params):
    p = rtl_defaults(module)
    for kv in params.split(";"):
        if kv and kv != "-":
            k, v = kv.split("=", 1)
            if k not in p:
                raise FlowError(f"rtl/{module}.sv", f"no parameter {k}")
            p[k] = v
    return p


def build(module, params, a_npy, b_npy, hifsim, max_ops):
    if module not in BUILDERS:
        raise FlowError(module, "no stimulus builder for this unit")
    with tempfile.TemporaryDirectory() as work:
        return BUILDERS[module](parameters(module, params), a_npy, b_npy, hifsim, max_ops, work)
