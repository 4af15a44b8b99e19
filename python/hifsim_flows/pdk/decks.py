"""SPICE decks for the characterization: one deck per timing arc, one cell instance per
(input slew, output load) point of the grid, each with its own supply so its energy is
measured separately. Also the flip-flop decks (clock-to-Q, setup, hold).

Input ramps are linear; a slew s (20-80 %) is a full 0-100 % ramp of s / 0.6.
"""
from .cells import DELAY_TH, EDGE_PERIOD_NS, LOADS_PF, PREFIX, SLEW_HI, SLEW_LO, SLEWS_NS, TEMP_C, TSTEP_PS, VDD

T0 = 1.0  # ns: first input edge (the DC operating point settles before it)
FF_EDGES = (1.0, 5.0, 9.0, 13.0)  # clock rising edges (ns); falling edges 2 ns later
FF_END = 17.0
# D-to-clock offsets tried for setup and hold (ns): 40 ps resolution over -0.2..0.4 ns. Each
# offset is one flip-flop instance per D edge, so the resolution is what the deck's size buys.
SETUP_HOLD_OFFSETS = [round(-0.2 + 0.04 * i, 3) for i in range(16)]
NOMINAL_SLEW, NOMINAL_LOAD = 0.1, 0.008


def ramp(slew_ns):
    return slew_ns / (SLEW_HI - SLEW_LO)


def pwl(points):
    return "PWL(" + " ".join(f"{t:.6g}n {v:.6g}" for t, v in points) + ")"


def edges_pwl(v0, times, slew_ns):
    """A waveform starting at v0 that toggles with its 50 % point at each of `times` (ns)."""
    r, v, pts = ramp(slew_ns), v0, [(0.0, v0)]
    for t in times:
        pts += [(t - r / 2, v), (t + r / 2, VDD - v)]
        v = VDD - v
    return pwl(pts)


def header(cell, models_path, subckt_path, title):
    return (f"* {title}: {PREFIX}{cell}\n.include \"{models_path}\"\n.include \"{subckt_path}\"\n"
            f".temp {TEMP_C}\n.option scale=1.0u\n"
            f"Vhi hi 0 {VDD}\nVlo lo 0 0\n")


def instance(cell, k, pin_order, conn):
    """X line: pins in the subckt's order; supply pins per instance, others from conn."""
    nodes = []
    for p in pin_order:
        if p in ("VPWR", "VPB"):
            nodes.append(f"vdd{k}")
        elif p in ("VGND", "VNB"):
            nodes.append("0")
        else:
            nodes.append(conn[p])
    return f"Vdd{k} vdd{k} 0 {VDD}\nX{k} {' '.join(nodes)} {PREFIX}{cell}\n"


def _close(text, meas, end):
    """The deck's transient analysis, its measurements and .end, after the instances.
    `end` is the stop time as written (its text is part of the cache key)."""
    return "".join(text) + f".tran {TSTEP_PS}p {end}n\n" + "\n".join(meas) + "\n.end\n"


def th(f):
    return f"{f * VDD:.6g}"


def comb_arc_deck(cell, models_path, subckt_path, pin_order, arc):
    """arc: pin, output, sense (+1 positive / -1 negative), side {pin: 0/1}, other outputs."""
    p, o, sense = arc["pin"], arc["output"], arc["sense"]
    t1, t2 = T0, T0 + EDGE_PERIOD_NS
    end = T0 + 2 * EDGE_PERIOD_NS
    out_first = "RISE" if sense > 0 else "FALL"
    out_second = "FALL" if sense > 0 else "RISE"
    text = [header(cell, models_path, subckt_path, f"arc {p}->{o} sense {sense:+d}")]
    meas, names = [], []
    for i, s in enumerate(SLEWS_NS):
        for j, c in enumerate(LOADS_PF):
            k = f"{i}{j}"
            conn = {q: ("hi" if v else "lo") for q, v in arc["side"].items()}
            conn[p] = f"in{k}"
            conn[o] = f"out{k}"
            for other in arc["other_outputs"]:
                conn[other] = f"nc_{other}{k}"
            text.append(f"Vin{k} in{k} 0 {edges_pwl(0.0, (t1, t2), s)}\n")
            text.append(instance(cell, k, pin_order, conn))
            text.append(f"C{k} out{k} 0 {c}p\n")
            w1, w2 = f"FROM={t1 - 0.1:.6g}n TO={t2 - 0.1:.6g}n", f"FROM={t2 - 0.1:.6g}n TO={end:.6g}n"
            for e, (edge_in, edge_out) in enumerate((("RISE", out_first), ("FALL", out_second)), 1):
                m = [f"d{e}_{k}", f"s{e}_{k}", f"e{e}_{k}", f"q{e}_{k}"]
                lo, hi = (SLEW_LO, SLEW_HI) if edge_out == "RISE" else (SLEW_HI, SLEW_LO)
                meas += [
                    f".meas tran {m[0]} TRIG v(in{k}) VAL={th(DELAY_TH)} {edge_in}=1 TARG v(out{k}) VAL={th(DELAY_TH)} {edge_out}=1",
                    f".meas tran {m[1]} TRIG v(out{k}) VAL={th(lo)} {edge_out}=1 TARG v(out{k}) VAL={th(hi)} {edge_out}=1",
                    f".meas tran {m[2]} INTEG i(Vdd{k}) {w1 if e == 1 else w2}",
                    f".meas tran {m[3]} INTEG i(Vin{k}) {w1 if e == 1 else w2}",
                ]
                names += m
    return _close(text, meas, end), names


def ff_clk_q_deck(cell, models_path, subckt_path, pin_order, clk, d, q):
    """Clock edges at FF_EDGES: #1 loads 0, #2 loads 1 (Q rises), #3 loads 0 (Q falls), #4 no change."""
    text = [header(cell, models_path, subckt_path, "clock-to-Q")]
    meas, names = [], []
    e = FF_EDGES
    for i, s in enumerate(SLEWS_NS):
        for j, c in enumerate(LOADS_PF):
            k = f"{i}{j}"
            clk_times = [t + dt for t in e for dt in (0.0, 2.0)]
            text.append(f"Vclk{k} clk{k} 0 {edges_pwl(0.0, clk_times, s)}\n")
            text.append(f"Vd{k} d{k} 0 {edges_pwl(0.0, (e[1] - 2.0, e[2] - 2.0), NOMINAL_SLEW)}\n")
            text.append(instance(cell, k, pin_order, {clk: f"clk{k}", d: f"d{k}", q: f"q{k}"}))
            text.append(f"C{k} q{k} 0 {c}p\n")
            td2, td3 = f"TD={e[1] - 0.5:.6g}n", f"TD={e[2] - 0.5:.6g}n"
            m = [f"dr_{k}", f"sr_{k}", f"df_{k}", f"sf_{k}", f"er_{k}", f"ef_{k}", f"ec1_{k}", f"ec2_{k}",
                 f"qc_{k}", f"qd_{k}"]
            meas += [
                f".meas tran {m[0]} TRIG v(clk{k}) VAL={th(DELAY_TH)} {td2} RISE=1 TARG v(q{k}) VAL={th(DELAY_TH)} {td2} RISE=1",
                f".meas tran {m[1]} TRIG v(q{k}) VAL={th(SLEW_LO)} {td2} RISE=1 TARG v(q{k}) VAL={th(SLEW_HI)} {td2} RISE=1",
                f".meas tran {m[2]} TRIG v(clk{k}) VAL={th(DELAY_TH)} {td3} RISE=1 TARG v(q{k}) VAL={th(DELAY_TH)} {td3} FALL=1",
                f".meas tran {m[3]} TRIG v(q{k}) VAL={th(SLEW_HI)} {td3} FALL=1 TARG v(q{k}) VAL={th(SLEW_LO)} {td3} FALL=1",
                f".meas tran {m[4]} INTEG i(Vdd{k}) FROM={e[1] - 0.5:.6g}n TO={e[2] - 0.5:.6g}n",
                f".meas tran {m[5]} INTEG i(Vdd{k}) FROM={e[2] - 0.5:.6g}n TO={e[3] - 0.5:.6g}n",
                f".meas tran {m[6]} INTEG i(Vdd{k}) FROM={e[3] - 0.5:.6g}n TO={e[3] + 1.5:.6g}n",
                f".meas tran {m[7]} INTEG i(Vdd{k}) FROM={e[3] + 1.5:.6g}n TO={FF_END:.6g}n",
                f".meas tran {m[8]} INTEG i(Vclk{k}) FROM={e[3] - 0.5:.6g}n TO={e[3] + 1.5:.6g}n",
                f".meas tran {m[9]} INTEG i(Vd{k}) FROM={e[1] - 2.5:.6g}n TO={e[1] - 0.5:.6g}n",
            ]
            names += m
    return _close(text, meas, FF_END), names


def ff_constraint_deck(cell, models_path, subckt_path, pin_order, clk, d, q, kind):
    """kind 'setup': D changes `off` ns before clock edge #2; 'hold': `off` ns after it.
    Instances r<n> (D rising) and f<n> (D falling) per offset; nominal slews and load."""
    text = [header(cell, models_path, subckt_path, kind)]
    meas = []
    e = FF_EDGES
    clk_times = [t + dt for t in e[:2] for dt in (0.0, 2.0)]  # edge #1 loads v0, #2 is the test
    for n, off in enumerate(SETUP_HOLD_OFFSETS):
        t_d = e[1] - off if kind == "setup" else e[1] + off
        for typ, v0 in (("r", 0.0), ("f", VDD)):
            k = f"{typ}{n}"
            text.append(f"Vclk{k} clk{k} 0 {edges_pwl(0.0, clk_times, NOMINAL_SLEW)}\n")
            # D holds v0 through edge #1 (so Q starts at v0) and changes once at t_d.
            text.append(f"Vd{k} d{k} 0 {edges_pwl(v0, (t_d,), NOMINAL_SLEW)}\n")
            text.append(instance(cell, k, pin_order, {clk: f"clk{k}", d: f"d{k}", q: f"q{k}"}))
            text.append(f"C{k} q{k} 0 {NOMINAL_LOAD}p\n")
            td = f"TD={e[1] - 0.5:.6g}n"
            if kind == "setup":
                edge = "RISE" if typ == "r" else "FALL"
                meas.append(f".meas tran dq_{k} TRIG v(clk{k}) VAL={th(DELAY_TH)} {td} RISE=1 "
                            f"TARG v(q{k}) VAL={th(DELAY_TH)} {td} {edge}=1")
            else:
                fn = "MAX" if typ == "r" else "MIN"
                meas.append(f".meas tran qx_{k} {fn} v(q{k}) FROM={e[1]:.6g}n TO={e[1] + 2.5:.6g}n")
    return _close(text, meas, f"{e[1] + 2.5:.6g}")
