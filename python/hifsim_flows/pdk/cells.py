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
