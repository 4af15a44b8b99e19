"""Read a Yosys-written gate netlist (write_verilog -noattr -noexpr) of Liberty cells.

Returns ports (name -> width, direction), cell instances (type, {pin: net}) and assigns
(net <- net or constant). Nets are bit names: "a[3]", "_0123_", "\\u_x.q [2]" (escaped
identifiers keep their backslash text up to the space, as Yosys writes them).
"""
import re

from .flow_error import FlowError
from .pdk_files import read_text

_ID = r"(?:\\\S+|[A-Za-z_][A-Za-z0-9_$]*)"
_BIT = _ID + r"(?:\s*\[\d+\])?"
_CONST = r"\d+'[bh][0-9a-fA-FxXzZ]+"


def _norm(s):
    s = s.strip()
    m = re.fullmatch(r"(" + _ID + r")\s*\[(\d+)\]", s)
    return f"{m.group(1)}[{m.group(2)}]" if m else s


def _expand(path, text, widths):
    """A signal expression -> list of bit nets/constants, MSB first."""
    text = text.strip()
    if text.startswith("{"):
        if not text.endswith("}"):
            raise FlowError(path, f"bad concatenation {text[:40]}")
        out = []
        for part in _split_top(text[1:-1]):
            out += _expand(path, part, widths)
        return out
    m = re.fullmatch(r"(\d+)'b([01xz]+)", text)
    if m:
        return ["1'b" + ("1" if c == "1" else "0") for c in m.group(2).rjust(int(m.group(1)), "0")]
    m = re.fullmatch(r"(" + _ID + r")\s*\[(\d+):(\d+)\]", text)
    if m:
        hi, lo = int(m.group(2)), int(m.group(3))
        return [f"{m.group(1)}[{i}]" for i in range(hi, lo - 1, -1)]
    n = _norm(text)
    if n in widths and widths[n] > 1:
        return [f"{n}[{i}]" for i in range(widths[n] - 1, -1, -1)]
    return [n]


def _split_top(s):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    return [p for p in parts if p.strip()]


def read_netlist(path, module):
    text = read_text(path)
    m = re.search(r"^module\s+" + re.escape(module) + r"\s*\(.*?\);(.*?)^endmodule", text, re.S | re.M)
    if not m:
        raise FlowError(path, f"no module {module}")
    body = m.group(1)
    ports, widths = {}, {}
    for d in re.finditer(r"^\s*(input|output|wire)\s+(?:\[(\d+):(\d+)\]\s+)?(" + _ID + r")\s*;", body, re.M):
        w = int(d.group(2)) - int(d.group(3)) + 1 if d.group(2) else 1
        name = d.group(4)
        widths[name] = w
        if d.group(1) != "wire":
            ports[name] = (d.group(1), w)
    cells = []
    for c in re.finditer(r"^\s*(\w+)\s+(" + _ID + r")\s*\((.*?)\);", body, re.S | re.M):
        if c.group(1) in ("input", "output", "wire", "assign", "module"):
            continue
        pins = {}
        for pm in re.finditer(r"\.(\w+)\(([^()]*)\)", c.group(3)):
            bits = _expand(path, pm.group(2), widths)
            if len(bits) != 1:
                raise FlowError(path, f"cell {c.group(2)}: pin {pm.group(1)} is not one bit")
            pins[pm.group(1)] = bits[0]
        cells.append((c.group(1), c.group(2), pins))
    assigns = []
    for a in re.finditer(r"^\s*assign\s+(.*?)\s*=\s*(.*?);", body, re.S | re.M):
        lhs, rhs = _expand(path, a.group(1), widths), _expand(path, a.group(2), widths)
        if len(lhs) != len(rhs):
            raise FlowError(path, f"assign widths differ: {a.group(0)[:60]}")
        assigns += list(zip(lhs, rhs))
    return {"ports": ports, "cells": cells, "assigns": assigns}
