"""Cell function from the package's functional Verilog model (<cell>.functional.v).

The models are netlists of Verilog gate primitives (and, or, nand, nor, xor, xnor, not,
buf) plus a few SkyWater UDPs. Combinational cells are evaluated over every input
combination to a truth table; the Liberty function is written as a sum of products of that
table (ABC and OpenSTA only need a correct Boolean expression). The D flip-flop (UDP
udp_dff$P) is returned as a sequential description.
"""
import itertools
import re

from .flow_error import FlowError
from .pdk_files import read_text

_GATES = {
    "and": lambda v: all(v), "nand": lambda v: not all(v),
    "or": lambda v: any(v), "nor": lambda v: not any(v),
    "xor": lambda v: sum(v) % 2 == 1, "xnor": lambda v: sum(v) % 2 == 0,
    "buf": lambda v: v[0], "not": lambda v: not v[0],
}
# SkyWater UDPs used by the subset: (output, inputs...) -> value.
_UDPS = {
    "sky130_fd_sc_hd__udp_mux_2to1": lambda v: v[1] if v[2] else v[0],  # (A0, A1, S)
}
_DFF_UDP = "sky130_fd_sc_hd__udp_dff$P"


def read_function(path, module):
    text = read_text(path)
    m = re.search(r"^module\s+" + re.escape(module) + r"\s*\((.*?)\);(.*?)^endmodule", text, re.S | re.M)
    if not m:
        raise FlowError(path, f"no module {module}")
    body = re.sub(r"//[^\n]*", "", m.group(2))
    outputs = re.findall(r"^\s*output\s+(\w+)\s*;", body, re.M)
    inputs = re.findall(r"^\s*input\s+(\w+)\s*;", body, re.M)
    insts = []
    for im in re.finditer(r"^\s*(\S+)\s+(?:`\w+\s+)?(\w+)\s*\(([^;]*)\)\s*;", body, re.M):
        kind, args = im.group(1), [a.strip() for a in im.group(3).split(",")]
        if kind in ("input", "output", "wire", "supply0", "supply1", "reg"):
            continue
        insts.append((kind, args))
    if not outputs or not inputs or not insts:
        raise FlowError(path, f"module {module}: no ports or no gates")
    dffs = [a for k, a in insts if k == _DFF_UDP]
    if dffs:
        return _sequential(path, module, inputs, outputs, insts, dffs)
    for kind, _ in insts:
        if kind not in _GATES and kind not in _UDPS:
            raise FlowError(path, f"module {module}: unsupported primitive {kind}")
    table = {}
    for bits in itertools.product((0, 1), repeat=len(inputs)):
        env = dict(zip(inputs, bits))
        _settle(path, module, insts, env)
        table[bits] = {o: int(env[o]) for o in outputs}
    return {"kind": "comb", "inputs": inputs, "outputs": outputs, "table": table,
            "functions": {o: sop(inputs, [b for b, r in table.items() if r[o]]) for o in outputs}}


def _settle(path, module, insts, env):
    pending = list(insts)
    while pending:
        left = []
        for kind, args in pending:
            out, ins = args[0], args[1:]
            if all(i in env for i in ins):
                f = _GATES.get(kind) or _UDPS[kind]
                env[out] = bool(f([bool(env[i]) for i in ins]))
            else:
                left.append((kind, args))
        if len(left) == len(pending):
            raise FlowError(path, f"module {module}: combinational loop or undriven net")
        pending = left


def _sequential(path, module, inputs, outputs, insts, dffs):
    if len(dffs) != 1 or len(outputs) != 1:
        raise FlowError(path, f"module {module}: only a single-output D flip-flop is supported")
    q_int, d, clk = dffs[0][:3]
    # The output must be a buffer of the flop's state (sky130 dfxtp: buf buf0 (Q, buf_Q)).
    if not any(k == "buf" and a == [outputs[0], q_int] for k, a in insts):
        raise FlowError(path, f"module {module}: output {outputs[0]} is not a buffer of the flop")
    return {"kind": "ff", "inputs": inputs, "outputs": outputs, "clock": clk, "data": d,
            "functions": {outputs[0]: "IQ"}}


def sop(inputs, minterms):
    """Sum of products over `inputs` for the given minterms ('0' / '1' for constants)."""
    if not minterms:
        return "0"
    if len(minterms) == 2 ** len(inputs):
        return "1"
    terms = []
    for bits in sorted(minterms):
        terms.append("(" + "&".join(n if b else "!" + n for n, b in zip(inputs, bits)) + ")")
    return "|".join(terms)
