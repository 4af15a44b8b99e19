"""The property wrapper of a control job (formal/prove.py): the unit with every data input free,
its handshake ports tied to formal/ctrl/handshake_props.sv. Generated from the unit's port list
(read from rtl/<unit>.sv's header) so that every unit gets the same properties."""
import re


def ports(sv_text, module):
    head = re.search(r"module\s+" + module + r"\b.*?\)\s*;", sv_text, re.S).group(0)
    head = re.sub(r"//[^\n]*", "", head)
    body = head[head.index(") (") + 3:] if ") (" in head else head  # the port list after #(...)
    out = []
    for m in re.finditer(r"(input|output)\s+logic\s*(\[[^\]]+\])?\s*(\w+)", body):
        out.append((m.group(1), m.group(2) or "", m.group(3)))
    return out


def wrapper(unit, sv_text, params):
    ps = ports(sv_text, unit)
    # a width written with the unit's parameters ([8*N-1:0]) gets the job's values
    for k, v in params.items():
        ps = [(d, re.sub(r"\b%s\b" % k, str(v), w), n) for d, w, n in ps]
    decl, conn = [], []
    for d, w, n in ps:
        conn.append(f".{n}({n})")
        if d == "input":
            decl.append(f"  input logic {w} {n}")
    outs = "\n".join(f"  logic {w} {n};" for d, w, n in ps if d == "output")
    par = ", ".join(f".{k}({v})" for k, v in params.items())
    stages = params.get("STAGES", 0)
    decls = ",\n".join(decl)
    return f"""module ctrl_top (
{decls}
);
{outs}
  {unit} #({par}) dut ({', '.join(conn)});
  handshake_props #(.STAGES({stages})) props (
    .clk, .rst_n, .in_valid, .in_ready, .out_valid, .out_ready);
endmodule
"""
