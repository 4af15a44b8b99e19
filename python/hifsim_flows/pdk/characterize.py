"""Characterize one cell from its ngspice results: timing arcs, tables, pin capacitances.

Conventions (docs/cost.md, sky130 section):
  delay       input 50 % -> output 50 %; transition 20 -> 80 % (output), input slews likewise
  energy      -INTEG i(Vdd) x VDD over the window of one input edge; the internal energy of an
              output rise is that minus C_load x VDD^2 (the load's charge), of a fall all of it
  input cap   charge delivered by the input source over the edge / VDD, mean of rise and fall
Tables are [slew][load] in ns and pJ; capacitance in pF.
"""
import itertools

from .cells import LOADS_PF, SLEWS_NS, VDD
from .decks import (SETUP_HOLD_OFFSETS, comb_arc_deck, ff_clk_q_deck, ff_constraint_deck)
from .flow_error import FlowError

NS, PJ, PF = 1e9, 1e12, 1e12


def comb_arcs(func):
    """Every (input, output, sense) the truth table has, with the first side assignment that
    sensitizes it. An input that drives the output both ways (XOR, MUX select) has two."""
    arcs = []
    ins, outs, table = func["inputs"], func["outputs"], func["table"]
    for o in outs:
        for p in ins:
            others = [q for q in ins if q != p]
            seen = set()
            for side in itertools.product((0, 1), repeat=len(others)):
                env = dict(zip(others, side))
                lo = table[tuple(0 if q == p else env[q] for q in ins)][o]
                hi = table[tuple(1 if q == p else env[q] for q in ins)][o]
                if lo == hi:
                    continue
                sense = 1 if hi else -1
                if sense in seen:
                    continue
                seen.add(sense)
                arcs.append({"pin": p, "output": o, "sense": sense, "side": env,
                             "other_outputs": [x for x in outs if x != o]})
    return arcs


def _grid(res, fmt, scale=1.0, sub=None):
    return [[res[fmt.format(f"{i}{j}")] * scale - (sub(j) if sub else 0.0)
             for j in range(len(LOADS_PF))] for i in range(len(SLEWS_NS))]


def comb_decks(cell, models_path, subckt_path, pin_order, func):
    decks, arcs = {}, comb_arcs(func)
    for n, arc in enumerate(arcs):
        text, names = comb_arc_deck(cell, models_path, subckt_path, pin_order, arc)
        decks[f"{cell}.arc{n}"] = (text, names)
    return decks, arcs


def comb_tables(cell, arcs, results):
    cv2 = lambda j: LOADS_PF[j] * 1e-12 * VDD * VDD * PJ  # load energy of one rise, pJ
    timing, caps = {}, {}
    for n, arc in enumerate(arcs):
        r = results[f"{cell}.arc{n}"]
        # Edge 1 = input rise, edge 2 = input fall. The output rises on edge 1 if positive.
        e_rise, e_fall = (1, 2) if arc["sense"] > 0 else (2, 1)
        t = {
            "cell_rise": _grid(r, f"d{e_rise}_{{}}", NS), "rise_transition": _grid(r, f"s{e_rise}_{{}}", NS),
            "cell_fall": _grid(r, f"d{e_fall}_{{}}", NS), "fall_transition": _grid(r, f"s{e_fall}_{{}}", NS),
            "rise_power": _grid(r, f"e{e_rise}_{{}}", -VDD * PJ, cv2),
            "fall_power": _grid(r, f"e{e_fall}_{{}}", -VDD * PJ),
        }
        key = (arc["pin"], arc["output"])
        if key in timing:  # second sense of a non-unate pin: worst delay, mean energy
            old = timing[key]
            for name in t:
                f = (lambda a, b: (a + b) / 2) if name.endswith("power") else max
                old[name] = [[f(a, b) for a, b in zip(ra, rb)] for ra, rb in zip(old[name], t[name])]
            old["sense"] = "non_unate"
        else:
            t["sense"] = "positive_unate" if arc["sense"] > 0 else "negative_unate"
            timing[key] = t
        qr = [-v for row in _grid(r, "q1_{}") for v in row]  # charge into the pin on its rise
        qf = [v for row in _grid(r, "q2_{}") for v in row]   # charge out of it on its fall
        caps.setdefault(arc["pin"], []).extend([q / VDD * PF for q in qr + qf])
    for key, t in timing.items():
        for name, grid in t.items():
            if name.startswith("cell_") and any(v <= 0 for row in grid for v in row):
                raise FlowError(cell, f"arc {key[0]}->{key[1]}: non-positive {name}")
    return timing, {p: sum(v) / len(v) for p, v in caps.items()}


def ff_decks(cell, models_path, subckt_path, pin_order, func):
    clk, d, q = func["clock"], func["data"], func["outputs"][0]
    text, names = ff_clk_q_deck(cell, models_path, subckt_path, pin_order, clk, d, q)
    decks = {f"{cell}.clkq": (text, names)}
    for kind in ("setup", "hold"):
        decks[f"{cell}.{kind}"] = (ff_constraint_deck(cell, models_path, subckt_path, pin_order, clk, d, q, kind), [])
    return decks


def _first_pass(offsets, ok):
    """Smallest offset from which every larger offset passes; FlowError if none does."""
    best = None
    for off, good in sorted(zip(offsets, ok), reverse=True):
        if not good:
            break
        best = off
    return best


def ff_tables(cell, func, results):
    clk, d, q = func["clock"], func["data"], func["outputs"][0]
    r = results[f"{cell}.clkq"]
    cv2 = lambda j: LOADS_PF[j] * 1e-12 * VDD * VDD * PJ
    e_clk = [[-(r[f"ec1_{i}{j}"] + r[f"ec2_{i}{j}"]) * VDD * PJ for j in range(len(LOADS_PF))]
             for i in range(len(SLEWS_NS))]
    rise = _grid(r, "er_{}", -VDD * PJ, cv2)
    fall = _grid(r, "ef_{}", -VDD * PJ)
    arc = {
        "sense": "non_unate", "timing_type": "rising_edge",
        "cell_rise": _grid(r, "dr_{}", NS), "rise_transition": _grid(r, "sr_{}", NS),
        "cell_fall": _grid(r, "df_{}", NS), "fall_transition": _grid(r, "sf_{}", NS),
        # A cycle in which Q changes costs the clock's own energy plus this.
        "rise_power": [[a - c for a, c in zip(ra, rc)] for ra, rc in zip(rise, e_clk)],
        "fall_power": [[a - c for a, c in zip(ra, rc)] for ra, rc in zip(fall, e_clk)],
    }
    clock_energy = [row[0] for row in e_clk]  # per clock cycle, by clock slew (no load dependence)
    cons = {}
    s = results[f"{cell}.setup"]
    ref = {t: s.get(f"dq_{t}0") for t in "rf"}
    for t in "rf":
        # SETUP_HOLD_OFFSETS[0] is the most negative; the reference is the largest offset.
        ref[t] = s.get(f"dq_{t}{len(SETUP_HOLD_OFFSETS) - 1}")
        if ref[t] is None:
            raise FlowError(cell, "setup deck: the flop does not capture even with the largest setup margin")
        ok = [s.get(f"dq_{t}{n}") is not None and s[f"dq_{t}{n}"] <= 1.1 * ref[t] for n in range(len(SETUP_HOLD_OFFSETS))]
        cons[("setup", t)] = _first_pass(SETUP_HOLD_OFFSETS, ok)
    h = results[f"{cell}.hold"]
    for t in "rf":
        vals = [h.get(f"qx_{t}{n}") for n in range(len(SETUP_HOLD_OFFSETS))]
        if t == "r":  # Q must stay low (old value 0) within 10 % of VDD
            ok = [v is not None and v < 0.1 * VDD for v in vals]
        else:
            ok = [v is not None and v > 0.9 * VDD for v in vals]
        cons[("hold", t)] = _first_pass(SETUP_HOLD_OFFSETS, ok)
    for k, v in cons.items():
        if v is None:
            raise FlowError(cell, f"{k[0]} ({'D rise' if k[1] == 'r' else 'D fall'}): no offset in "
                            f"{SETUP_HOLD_OFFSETS[0]}..{SETUP_HOLD_OFFSETS[-1]} ns passes")
    c_clk = sum(-r[f"qc_{i}{j}"] for i in range(len(SLEWS_NS)) for j in range(len(LOADS_PF))) / 9 / VDD * PF
    c_d = sum(-r[f"qd_{i}{j}"] for i in range(len(SLEWS_NS)) for j in range(len(LOADS_PF))) / 9 / VDD * PF
    return {"clk_q": arc, "clock_energy": clock_energy, "constraints": cons,
            "caps": {clk: c_clk, d: c_d}}
