"""The self-composition wrapper of a no-X job (formal/prove.py, docs/formal.md "No X"): two copies
of the unit, dut_a and dut_b, driven by the SAME inputs (every input port of the unit: clk, rst_n,
the handshake, the data and any configuration or sideband input), reset asserted in the first cycle,
and the assertion that the copies cannot be told apart:
  - the handshake outputs (in_ready, out_valid) are equal in every cycle;
  - while out_valid is high, every data output is equal;
  - the outputs named in `always` (a register that is reset, e.g. sparse_residual_add's acc, and
    every output of a unit without out_valid, fp32_acc) are equal in every cycle.
Every register that is not reset starts with arbitrary contents, independently in the two copies
(prove.py keeps the flops of the copies apart and write_aiger -zinit gives each an own initial
value), so a proof says: the outputs are a function of the inputs since reset alone, whatever the
unreset registers held -- the two-valued meaning of "no X on the outputs from defined inputs".
The assertions hold from the first cycle on (the units' resets are asynchronous: out_valid is
low while rst_n is low). Generated from the unit's port list like formal/ctrl_wrap.py."""
import re

from ctrl_wrap import ports

HANDSHAKE_OUT = ("in_ready", "out_valid")


def unit_ports(unit, sv_text, params):
    """The unit's ports with `params` substituted into their widths: (inputs, outputs, has
    out_valid), each port as (width, name)."""
    ps = ports(sv_text, unit)
    for k, v in params.items():
        ps = [(d, re.sub(r"\b%s\b" % k, str(v), w), n) for d, w, n in ps]
    ins = [(w, n) for d, w, n in ps if d == "input"]
    outs = [(w, n) for d, w, n in ps if d == "output"]
    return ins, outs, any(n == "out_valid" for _, _, n in ps)


def observed_every_cycle(name, always, has_valid):
    """An output compared in every cycle (the handshake, `always`, every output of a unit without
    out_valid), not only while out_valid is high."""
    return name in HANDSHAKE_OUT or name in always or not has_valid


def wrapper(unit, sv_text, params, always=()):
    ins, outs, has_valid = unit_ports(unit, sv_text, params)
    decl = ",\n".join(f"  input logic {w} {n}" for w, n in ins)
    locs = "\n".join(f"  logic {w} a_{n}, b_{n};" for w, n in outs)
    par = ", ".join(f".{k}({v})" for k, v in params.items())

    def inst(tag):
        conn = [f".{n}({n})" for _, n in ins] + [f".{n}({tag}_{n})" for _, n in outs]
        return f"  {unit} #({par}) dut_{tag} ({', '.join(conn)});"

    checks = []
    for _, n in outs:
        if observed_every_cycle(n, always, has_valid):
            checks.append(f"    assert (a_{n} == b_{n});")
        else:
            checks.append(f"    if (a_out_valid) assert (a_{n} == b_{n});")
    body = "\n".join(checks)
    return f"""module nox_top (
{decl}
);
{locs}
{inst("a")}
{inst("b")}
  logic first = 1'b1;
  always_ff @(posedge clk) first <= 1'b0;
  always_comb begin
    if (first) assume (!rst_n);
{body}
  end
endmodule
"""


def taint_wrapper(unit, sv_text, params, always=()):
    """One copy of the unit for the taint model (formal/taint.py, prove.py method `taint`): reset
    asserted in the first cycle, and the observed signals as the outputs (`obs_<port>`): the
    handshake outputs, every data output gated by out_valid (an AND: its taint is out_valid & the
    data's taint once out_valid itself is clean), the outputs named in `always` (and every output
    of a unit without out_valid) as they are. The job proves no observed bit ever tainted by a
    register's power-up contents: the same three assertions as `wrapper`'s two copies."""
    ins, outs, has_valid = unit_ports(unit, sv_text, params)
    decl = ",\n".join([f"  input logic {w} {n}" for w, n in ins] + [f"  output logic {w} obs_{n}" for w, n in outs])
    locs = "\n".join(f"  logic {w} o_{n};" for w, n in outs)
    par = ", ".join(f".{k}({v})" for k, v in params.items())
    conn = [f".{n}({n})" for _, n in ins] + [f".{n}(o_{n})" for _, n in outs]
    obs = []
    for _, n in outs:
        if observed_every_cycle(n, always, has_valid):
            obs.append(f"  assign obs_{n} = o_{n};")
        else:
            obs.append(f"  assign obs_{n} = o_out_valid ? o_{n} : '0;")
    body = "\n".join(obs)
    return f"""module nox_top (
{decl}
);
{locs}
  {unit} #({par}) dut ({', '.join(conn)});
  logic first = 1'b1;
  always_ff @(posedge clk) first <= 1'b0;
  always_comb if (first) assume (!rst_n);
{body}
endmodule
"""
