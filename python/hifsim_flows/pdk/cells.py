"""The characterized subset of sky130_fd_sc_hd and the characterization conditions.

One place for what the Liberty contains: the cell list, the operating point and the
slew x load grid. build_liberty.py, the tests and docs/cost.md all read these names.
"""

LIBRARY = "sky130_fd_sc_hd"
PREFIX = LIBRARY + "__"

# Cells of the list ("full and half adders or majority": the majority cell maj3_1;
# fa_1 / ha_1 would add 15 ngspice decks for their non-unate SUM arcs, and ABC builds adders
# from maj3 + xor2/xnor2), plus drive strength 2 of the inverter and buffer. Function, pins and
# area come from the package's files, not from here.
CELLS = [
    "inv_1", "inv_2", "buf_1", "buf_2",
    "nand2_1", "nand3_1", "nor2_1", "nor3_1", "and2_1", "or2_1",
    "xor2_1", "xnor2_1", "a21oi_1", "o21ai_1", "mux2_1",
    "maj3_1",
    "dfxtp_1",
]

# Operating point: typical corner, 25 C, 1.8 V (the "tt_025C_1v80" point of the open library).
CORNER = "tt"
TEMP_C = 25.0
VDD = 1.8

# Input transition (20-80 %, ns) x output load (pF) grid of every delay/power table.
SLEWS_NS = [0.02, 0.1, 0.4]
LOADS_PF = [0.002, 0.008, 0.032]

# Measurement thresholds (fractions of VDD).
DELAY_TH = 0.5
SLEW_LO, SLEW_HI = 0.2, 0.8

# Transient settings: one input edge every EDGE_PERIOD_NS; the step is small against the
# fastest edge (20 ps) so reruns and the committed Liberty agree to well under 1 %.
EDGE_PERIOD_NS = 3.0
TSTEP_PS = 5.0

# The node data the flow maps to and times against (docs/cost.md 11.10, 11.13): SkyWater's
# published characterization, converted by published_liberty.py. Mapping and energy at the
# typical corner; timing also at the slow corner (sign-off fmax).
PUBLISHED = {"tt": "sky130_fd_sc_hd__tt_025C_1v80.lib.gz",
             "ss": "sky130_fd_sc_hd__ss_100C_1v60.lib.gz",
             "ff": "sky130_fd_sc_hd__ff_n40C_1v95.lib.gz"}

# Cells of the published library the synthesis may not use, by the first part of the name after
# the prefix, each with why. The other 271 of the 428 cells (the logic gates, buffers and
# inverters at every drive strength, and dfxtp_1/2/4) are ABC's and dfflibmap's to choose.
MAP_EXCLUDE = {
    # The generic netlist has positive-edge D flip-flops only (dfflegalize): the flow's one
    # sequential cell is dfxtp (any drive strength); the others would only confuse dfflibmap.
    "df": "flip-flops with reset, set, inverted clock or two outputs: not produced by the flow",
    "edf": "enable flip-flops: the flow maps enables as a mux in front of dfxtp",
    "sdf": "scan flip-flops: no scan chain in these units",
    "sedf": "scan enable flip-flops: no scan chain",
    "dl": "latches and clock-gating latches (dlclkp): no latch in these units",
    "sdlclkp": "clock gating: not part of the datapath's logic",
    "clk": "clock-tree buffers and inverters (clkbuf, clkinv, clkdlybuf): reserved for the clock",
    "dlygate": "delay cells: hold fixing, not logic",
    "dlymetal": "delay cells: hold fixing, not logic",
    "lpflow": "low-power-flow cells (isolation, level shifters, KAPWR buffers): need power domains",
    "ebufn": "tri-state buffers: no tri-state net in these units",
    "einv": "tri-state inverters: no tri-state net in these units",
    "fa": "multi-output adders (fa, fah, fahcin, fahcon): ABC's mapper uses single-output gates",
    "ha": "multi-output half adder: ABC's mapper uses single-output gates",
    "conb": "tie cell: constants stay 1'b0/1'b1 in the netlist, as with the ngspice subset",
    "decap": "physical only", "diode": "physical only", "probe": "physical only",
    "macro": "spare-cell macro: physical only",
}
KEEP_SEQUENTIAL = "dfxtp"


def mapping_allowed(cell):
    """True if the flow maps to this cell (its name with or without the library prefix)."""
    name = cell[len(PREFIX):] if cell.startswith(PREFIX) else cell
    if name.startswith(KEEP_SEQUENTIAL + "_"):
        return True
    base = name.rsplit("_", 1)[0]
    return not any(base.startswith(k) for k in MAP_EXCLUDE)
