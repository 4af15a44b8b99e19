"""Zero-delay simulation of a mapped netlist over a stream of operations, toggles per net,
and the energy per operation from the characterized Liberty.

Every net is a numpy bool vector over the operations (one operation per clock cycle, a full
pipeline: in_valid = out_ready = 1). A flip-flop's Q in cycle t is its D in cycle t-1, so a
pipelined unit is evaluated by repeating the combinational pass until the Q vectors settle
(one pass per register rank; a unit whose state lives across operations, such as the transpose
buffer's counters and storage, up to one pass per cycle). Glitches are not simulated (zero delay): the toggle counts are
the functional ones, as in the activity proxy of model/cost.

Energy of one toggle of a net with load C (fan-out input capacitances; primary outputs drive
one dfxtp_1 D pin) driven by cell output o:  mean over o's internal_power groups (its arcs and
when-states) of (rise_power + fall_power)/2 at the nominal input slew and load C, plus C*VDD^2/2,
plus the fan-out input pins' own internal_power, (rise + fall)/2 each (SkyWater's published data
book part of a cell's energy on its inputs; the ngspice subset has none). Flip-flops add their
clock energy (rise + fall of the clock pin) every cycle. Primary inputs (driven by the operand
registers outside the unit) cost C*VDD^2/2 plus their fan-out pins' internal energy (unit energy).
Leakage is not counted (dynamic energy per operation).
"""
import re

import numpy as np

from . import liberty_read as L
from .cells import PREFIX, VDD
from .flow_error import FlowError

NOM_SLEW = 0.1


class CellLib:
    """The cells of one Liberty, as the simulation needs them: functions, pin capacitances and
    the internal energies at the nominal input slew. Tables are read at their own index (the
    published files carry one per table) or their template's (the ngspice subset)."""

    def __init__(self, lib_path):
        self.path = lib_path
        lib = L.parse(lib_path)
        self.tmpl = L.templates(lib)
        self.cells = L.cells(lib)
        self._fn = {}
        self._e_in = {}

    def cell(self, name):
        c = self.cells.get(name)
        if c is None:
            raise FlowError(self.path, f"netlist cell {name} is not in the library")
        return c

    def function(self, cname, pin):
        key = (cname, pin)
        if key not in self._fn:
            f = self.cell(cname)["pins"][pin].get("function")
            if f is None:
                raise FlowError(self.path, f"{cname}.{pin}: no function")
            if not re.fullmatch(r"[A-Za-z0-9_!&|^+*() ]+", f):
                raise FlowError(self.path, f"{cname}.{pin}: function {f!r}: an operator this reader does not know")
            # Liberty: ! not, & and * and, | and + or, ^ xor
            py = f.replace("!", "~").replace("*", "&").replace("+", "|")
            py = re.sub(r"\b([A-Za-z_]\w*)\b", r"v['\1']", py)
            self._fn[key] = eval("lambda v: " + py)  # names and the operators checked above only
        return self._fn[key]

    def toggle_energy_pj(self, cname, pin, load_pf):
        """one toggle of output `pin` driving load_pf: its arcs' internal energy (mean over the
        internal_power groups: related pins and when-states) plus the load's C V^2 / 2."""
        e = self._energies(cname, pin, load_pf, own=False)
        if not e:
            raise FlowError(self.path, f"{cname}.{pin}: no internal_power")
        return sum(e) / len(e) / 2 + 0.5 * load_pf * VDD * VDD

    def _energies(self, cname, pin, load_pf, own):
        try:
            return L.internal_energies(self.cell(cname)["pins"][pin]["group"], self.tmpl, NOM_SLEW, load_pf, own)
        except FlowError as e:
            raise FlowError(self.path, f"{cname}.{pin}: {e}")

    def input_energy_pj(self, cname, pin):
        """one toggle of input `pin`: the pin's own internal_power (SkyWater books part of a
        cell's switching energy there), 0 where the library has none (the ngspice subset, whose
        output-arc figure holds the whole supply current); the clock pin's is clock_energy_pj."""
        key = (cname, pin)
        if key not in self._e_in:
            e = [] if self.cell(cname)["pins"][pin].get("clock") == "true" else self._energies(cname, pin, 0.0, own=True)
            self._e_in[key] = sum(e) / len(e) / 2 if e else 0.0
        return self._e_in[key]

    def clock_energy_pj(self, cname):
        """a flip-flop's energy per clock cycle: rise + fall of its clock pin's internal_power."""
        for p, d in self.cell(cname)["pins"].items():
            if d.get("clock") == "true":
                e = self._energies(cname, p, 0.0, own=True)
                if e:
                    return sum(e) / len(e)
        raise FlowError(self.path, f"{cname}: no clock pin energy")

    def pin_cap(self, cname, pin):
        return float(self.cell(cname)["pins"][pin]["capacitance"])


def simulate(netlist, lib, inputs, n_ops, out_load_pf):
    """inputs: {port: bool array (n_ops, width), bit 0 = LSB}. Returns (values, report)."""
    ports, cells, assigns = netlist["ports"], netlist["cells"], netlist["assigns"]
    alias = {}
    for lhs, rhs in assigns:
        alias[lhs] = rhs

    def canon(n):
        seen = 0
        while n in alias:
            n = alias[n]
            seen += 1
            if seen > 100000:
                raise FlowError("netlist", f"assign loop at {n}")
        return n

    val = {"1'b0": np.zeros(n_ops, bool), "1'b1": np.ones(n_ops, bool)}
    for p, (d, w) in ports.items():
        if d != "input":
            continue
        arr = inputs.get(p)
        if arr is None:
            raise FlowError("stimulus", f"no values for input port {p}")
        for i in range(w):
            val[p if w == 1 else f"{p}[{i}]"] = arr[:, i].astype(bool)
    comb, flops, driver = [], [], {}
    for ctype, inst, pins in cells:
        c = lib.cell(ctype)
        outs = [p for p, d in c["pins"].items() if d.get("direction") == "output"]
        for o in outs:
            if o in pins:
                driver[canon(pins[o])] = (ctype, o, inst)
        (flops if c["ff"] is not None else comb).append((ctype, inst, pins, outs, c))
    # Topological order of the combinational cells; flop outputs and inputs are sources.
    ready = set(val) | {canon(f[2][o]) for f in flops for o in f[3] if o in f[2]}
    order, pending = [], comb
    while pending:
        left = []
        for item in pending:
            ctype, inst, pins, outs, c = item
            ins = [canon(n) for p, n in pins.items() if p not in outs]
            if all(n in ready for n in ins):
                order.append(item)
                ready |= {canon(pins[o]) for o in outs if o in pins}
            else:
                left.append(item)
        if len(left) == len(pending):
            raise FlowError("netlist", f"combinational loop or undriven net near {left[0][1]}")
        pending = left
    for ctype, inst, pins, outs, c in flops:
        for o in outs:
            if o in pins:
                val[canon(pins[o])] = np.zeros(n_ops, bool)
    # Each pass settles at least one more cycle (cycle c's flop values are right once cycles
    # 0..c-1 were): a feed-forward pipeline settles in depth + 1 passes, a unit with state that
    # lives across operations (counters, a storage array) may need one pass per cycle, so the
    # bound is n_ops + 1 passes; still unsettled after that means a loop with no fixed point.
    for _ in range(len(flops) and n_ops + 2 or 1):
        for ctype, inst, pins, outs, c in order:
            env = {p: val[canon(n)] for p, n in pins.items() if p not in outs}
            for o in outs:
                if o in pins:
                    val[canon(pins[o])] = np.asarray(lib.function(ctype, o)(env), bool) & np.ones(n_ops, bool)
        changed = False
        for ctype, inst, pins, outs, c in flops:
            d_pin = c["ff"].attrs["next_state"]
            d = val[canon(pins[d_pin])]
            q = np.concatenate([[False], d[:-1]])
            for o in outs:
                if o in pins and not np.array_equal(val[canon(pins[o])], q):
                    val[canon(pins[o])] = q
                    changed = True
        if not changed:
            break
    else:
        raise FlowError("netlist", "flip-flop values did not settle (register loop?)")
    # Loads: fan-out input capacitance per net; primary outputs drive a flop D pin.
    # And per net the internal energy its fan-out input pins book for one toggle (published
    # data; 0 with the ngspice subset), counted as logic or flop energy by the pin's cell.
    load, pin_e = {}, {}
    for ctype, inst, pins, outs, c in order + flops:
        for p, n in pins.items():
            if p not in outs:
                load[canon(n)] = load.get(canon(n), 0.0) + lib.pin_cap(ctype, p)
                e = lib.input_energy_pj(ctype, p)
                if e:
                    lf = pin_e.setdefault(canon(n), [0.0, 0.0])
                    lf[c["ff"] is not None] += e
    for p, (d, w) in ports.items():
        if d == "output":
            for i in range(w):
                n = canon(p if w == 1 else f"{p}[{i}]")
                load[n] = load.get(n, 0.0) + out_load_pf
    trans = max(n_ops - 1, 1)
    e_logic = e_ff = e_in = 0.0
    toggles = 0
    for n, v in val.items():
        if n.startswith("1'b"):
            continue
        t = int(np.count_nonzero(v[1:] != v[:-1]))
        toggles += t
        if not t:
            continue
        if n in pin_e:
            e_logic += t * pin_e[n][0]
            e_ff += t * pin_e[n][1]
        if n in driver:
            ctype, o, inst = driver[n]
            e = t * lib.toggle_energy_pj(ctype, o, load.get(n, 0.0))
            if lib.cell(ctype)["ff"] is not None:
                e_ff += e
            else:
                e_logic += e
        else:
            e_in += t * 0.5 * load.get(n, 0.0) * VDD * VDD
    e_clk = sum(lib.clock_energy_pj(f[0]) for f in flops)
    rep = {"ops": n_ops, "toggles_per_op": toggles / trans, "logic_pj": e_logic / trans,
           "flop_data_pj": e_ff / trans, "clock_pj": e_clk, "input_nets_pj": e_in / trans}
    rep["total_pj"] = rep["logic_pj"] + rep["flop_data_pj"] + rep["clock_pj"] + rep["input_nets_pj"]
    rep["unit_pj"] = rep["total_pj"] - rep["input_nets_pj"]
    for p, (d, w) in ports.items():  # output bits under their port names (they may be aliases)
        if d == "output":
            for i in range(w):
                b = p if w == 1 else f"{p}[{i}]"
                if canon(b) in val:
                    val[b] = val[canon(b)]
    return val, rep


def output_ints(val, ports, name):
    """The words an output port shows in every cycle, as Python ints (any width)."""
    if name not in ports or ports[name][0] != "output":
        raise FlowError("netlist", f"no output port {name}")
    d, w = ports[name]
    bits = [val.get(name if w == 1 else f"{name}[{i}]") for i in range(w)]
    if any(b is None for b in bits):
        raise FlowError("netlist", f"output {name}: undriven bit")
    packed = np.packbits(np.stack(bits, axis=1), axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]
