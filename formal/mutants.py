"""The mutants each formal job must refute (formal/prove.py kill; tests/formal).

Two sources. The project's mutation table (cosim/mutation/mutants.py) is reused by id: a formal
job names the table's mutants of the logic it covers. NEW below are the sampling holes of issue
30 that the co-simulation campaign did not catch (each is one textual change to one rtl/ file,
applied to a copy, as in the table): a proof must refute every one of them.
"""
import os
import re

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _table():
    scope = {}
    path = os.path.join(_ROOT, "cosim", "mutation", "mutants.py")
    exec(compile(open(path).read(), path, "exec"), scope)
    return {m["id"]: m for m in scope["MUTANTS"]}


NEW = {
    # issue 30 class 1: a round-to-nearest bug that exists only at MANT_BITS = 1 (P = 2): the lsb
    # for the tie is read one place low (= the guard), so ties round away from zero.
    "formal.fpadd_m1_tie_lsb": dict(
        file="hifsim_fp_add.sv", find="lsb    = t[28 - P];", replace="lsb    = (P == 2) ? t[25] : t[28 - P];",
        what="fp32_acc MANT_BITS=1 round-to-nearest: ties read the guard as the lsb (ties away)"),
    # class 2: overflow threshold off by one: leading-bit exponent 128 (values just below 2^129)
    # passes as 'normal' and the packed add wraps {0xFF, 0x7FFFFF} + 1 to 0 -> +-0.
    "formal.round_ovf_off_by_one": dict(
        file="hifsim_round_fp32.sv", find="ovf     = normal && ($signed(ef_wide) > 254);",
        replace="ovf     = normal && ($signed(ef_wide) > 255);",
        what="rounder overflow threshold one binade high: just below 2^129 gives +-0"),
    # class 3: a subnormal result that rounds up to 2^-126 loses its carry into the exponent.
    "formal.round_subnormal_carry_lost": dict(
        file="hifsim_round_fp32.sv", find="rounded    = packed_mag + 31'(inc);",
        replace="rounded    = normal ? packed_mag + 31'(inc) : {8'd0, 23'(k + 23'(inc))};",
        what="a subnormal rounding up to 2^-126 drops the carry (gives +-0)"),
    # the one-bit width cut in hif4_dot64's I x SS product.
    "formal.h4_big_width_cut": dict(
        file="hif4_dot_tail.sv",
        find="s6_big = WBIG'($signed({{(WBIG-WI){i_sum[WI-1]}}, i_sum}) * $signed({{(WBIG-WSS){1'b0}}, ss}));",
        replace="s6_big = WBIG'($signed({{(WBIG-WI){i_sum[WI-1]}}, i_sum}) * $signed({{(WBIG-WSS){1'b0}}, ss}));\n"
                "    s6_big[WBIG-1] = s6_big[WBIG-2];",
        what="hif4 s6: I x SS kept in WBIG-1 bits (sign-extended back): one bit cut"),
    # hif4_quantizer (quant.* jobs): a threshold, a tie, a clamp and a flush boundary one step off.
    "formal.q_l23_lead_off_by_one": dict(
        file="hif4_quantizer.sv", find="+ (pt[9] ? 10'd15 : 10'd14));", replace="+ (pt[9] ? 10'd15 : 10'd15));",
        what="level-2/3 compare: a product below 2^15 gets the leading-bit exponent of one at 2^15 "
             "(V x REC in [2^(t-1), 2^t) passes the threshold 2^t)"),
    "formal.q_cmp_guard_ignored": dict(
        file="hif4_quantizer.sv", find="top9 = pt[9] ? (pt[9:1] == 9'h1FF) : (pt[8:0] == 9'h1FF);",
        replace="top9 = pt[9] ? (pt[9:2] == 8'hFF) : (pt[8:1] == 8'hFF);",
        what="CMP_BF16: a product one below the threshold counts as rounding up to it without its guard bit"),
    "formal.q_clamp_min_inclusive": dict(
        file="hif4_quantizer.sv", find="$signed(es) < $signed(9'(hifsim_pkg::HIF4Q_SF_MIN_EXP)))",
        replace="$signed(es) <= $signed(9'(hifsim_pkg::HIF4Q_SF_MIN_EXP)))",
        what="scale clamp at the wrong code: SF in [2^-48, 2^-47) clamps to 0x00 (1.25 x 2^-48 -> 1.0 x 2^-48)"),
    "formal.q_clamp_max_code": dict(
        file="hif4_quantizer.sv", find="($signed(es) == 15 && sf8 > 8'd192))", replace="($signed(es) == 15 && sf8 > 8'd224))",
        what="scale clamp at the wrong code: SF in (49152, 57344] is not clamped and encodes as 0xFF (NaN)"),
    "formal.q_elem_ties_down": dict(
        file="hif4_quantizer.sv", find="inc    = RNE ? (guard && (sticky || q[0])) : guard;",
        replace="inc    = RNE ? (guard && (sticky || q[0])) : (guard && sticky);",
        what="default (half away) element rounding: ties go toward zero"),
    "formal.q_elem_flush_off_by_one": dict(
        file="hif4_quantizer.sv", find="else if ($signed(sh) < -16)        m = 3'd0;",
        replace="else if ($signed(sh) < -15)        m = 3'd0;",
        what="element underflow flush one binade high: 4y in [1/2, 1) at shift -16 gives 0, not 1"),
    "formal.q_a6_code0_levels": dict(
        file="hif4_quantizer.sv", find="if (A6 && c2_data[WX + 24*WV +: 8] == 8'h00) q3_e1 = '0;",
        replace="if (1'b0) q3_e1 = '0;",
        what="ASCEND_A6: a code-0x00 unit keeps its level bits (computed against REC = 2^48, not 0)"),
    # mxfp4_dot64 tail (mx4.tail*): the jam bit dropped. S[h] x 2^X[h] alone is representable
    # whenever the result is normal, so only a subnormal or underflowing result (a tie at a
    # subnormal quantum, broken by the low term) tells the difference.
    "formal.mx4_jam_dropped": dict(
        file="mxfp4_dot64.sv", find="else                              lo = sl[WS-1] ? {WF{1'b1}} : WF'(1);  // the jam bit, +-1",
        replace="else                              lo = '0;",
        what="the low term more than 40 binades below is dropped instead of jammed"),
    # the jam distance one late: a low term 41 binades below is shifted by 40 - 41 (mod 64)
    "formal.mx4_jam_one_late": dict(
        file="mxfp4_dot64.sv", find="else if ($signed(d) <= $signed((WX+1)'(D))) lo",
        replace="else if ($signed(d) <= $signed((WX+1)'(D + 1))) lo",
        what="a low term exactly 41 binades below is aligned (out of the field) instead of jammed"),
    # mx4.jam_lemma checks two references against each other, no RTL: its mutants break the
    # jammed reference (tree="formal": applied to a copy of formal/, prove.py). KEEP = 510 never
    # reaches the jam branch, so only the KEEP = 40 side changes.
    "formal.ref_mx_lead_jam_dropped": dict(
        tree="formal", file="ref/ref_mx_lead.sv",
        find="else                           lo = $signed(sl) < 0 ? {WF{1'b1}} : WF'(1);",
        replace="else                           lo = '0;",
        what="ref_mx_lead: a low term more than KEEP binades below is dropped, not jammed"),
    "formal.ref_mx_lead_jam_sign": dict(
        tree="formal", file="ref/ref_mx_lead.sv",
        find="else                           lo = $signed(sl) < 0 ? {WF{1'b1}} : WF'(1);",
        replace="else                           lo = WF'(1);",
        what="ref_mx_lead: the jam bit is always +1 (a negative low term jams upwards)"),
    # sparse_residual_add's datapath (sp.* jobs): the classes the table does not have. The front
    # (sp.front): the 2:4 index decoded wrong, the wrong group or slot, a sign from the wrong element.
    "formal.sp_idx_bits_swapped": dict(
        file="sparse_residual_add.sv", find="vw = w[32 + 16*(j/2) + 4*ix +: 4];",
        replace="vw = w[32 + 16*(j/2) + 4*{ix[0], ix[1]} +: 4];",
        what="index decode: the 2-bit index read lsb first (idx 1 selects element 2 and 2 selects 1)"),
    "formal.sp_idx_of_partner": dict(
        file="sparse_residual_add.sv", find="ix = r[160 + 2*j +: 2];", replace="ix = r[160 + 2*(j ^ 1) +: 2];",
        what="index decode: each kept value takes the index of the other kept value of its group"),
    "formal.sp_select_group_swapped": dict(
        file="sparse_residual_add.sv", find="vw = w[32 + 16*(j/2) + 4*ix +: 4];",
        replace="vw = w[32 + 16*((j/2) ^ 1) + 4*ix +: 4];",
        what="wrong group: the weight element is selected from the neighbouring group of 4"),
    "formal.sp_w_l3_group": dict(
        file="sparse_residual_add.sv", find="mag_w = w[16 + j/2] ?", replace="mag_w = w[16 + j/4] ?",
        what="wrong group: the selected weight element takes the E1_16 bit of group j/4"),
    "formal.sp_sign_group_first": dict(
        file="sparse_residual_add.sv", find="(vr[3] ^ vw[3])", replace="(vr[3] ^ w[32 + 16*(j/2) + 3])",
        what="sign: the weight's sign is read from the group's first element, not the selected one"),
    # sp.decomp_lemma reads references only: its mutant breaks the select-and-multiply reference
    "formal.ref_sp_idx_of_partner": dict(
        tree="formal", file="ref/ref_sp_front.sv", find="k   = 6'(4 * (j >> 1)) + 6'(r[160 + 2*j +: 2]);",
        replace="k   = 6'(4 * (j >> 1)) + 6'(r[160 + 2*(j ^ 1) +: 2]);",
        what="ref_sp_front: each kept value is multiplied by the weight element at the other kept "
             "value's index"),
    # the accumulate step (sp.acc.*): the operand selection inverted
    "formal.sp_op_x_inverted": dict(
        file="sparse_residual_add.sv", find="assign op_x = start ? init_full : acc_full;",
        replace="assign op_x = start ? acc_full : init_full;",
        what="acc/init selection inverted: acc_start adds to the register, a continuing sum restarts "
             "from init_value"),
    # mxfp8_dot32 (mx8.* jobs): a width cut in the front, a specials priority in the tail, the
    # products' significand width (formal/mx/mx8_miter.sv splits the unit at c2_data).
    "formal.mx8_sum_width_cut": dict(
        file="mxfp8_dot32.sv", find="    s2_sum = sum;", replace="    s2_sum = {sum[WSUM-2], sum[WSUM-2:0]};",
        what="s2: the exact sum kept in WSUM-1 bits (sign-extended back): one bit cut; only sums with "
             "|sum| >= 2^(WSUM-2) (at least 21 / 21 near-largest products of one sign) see it"),
    "formal.mx8_psig_top_bit_lost": dict(
        file="mxfp8_dot32.sv", find="num ? PW'({{SW{1'b0}}, ga} * {{SW{1'b0}}, gb}) : PW'(0)",
        replace="num ? PW'({{SW{1'b0}}, ga} * {{SW{1'b0}}, gb}) & {1'b0, {(PW-1){1'b1}}} : PW'(0)",
        what="s1: the product significand sigA x sigB loses its top bit (products >= 128 / >= 32)"),
    "formal.mx8_inf_over_nan": dict(
        file="mxfp8_dot32.sv", find="if (scale_nan || nan || (pinf && ninf)) s4_out = hifsim_pkg::FP32_QNAN;",
        replace="if (pinf && !ninf) s4_out = hifsim_pkg::FP32_POS_INF;\n"
                "    else if (scale_nan || nan || (pinf && ninf)) s4_out = hifsim_pkg::FP32_QNAN;",
        what="s4: a +Inf product beats a NaN scale or a NaN product (gives +Inf, not NaN)"),
    # no X on the outputs (nox.* jobs): each lets a register's contents from before any defined
    # input reach an output the unit calls valid; the two-copy proof must see it.
    "formal.pipe_data_en_dn_ready": dict(
        file="hifsim_pipe_reg.sv", find="if (up_ready && up_valid) d_q <= up_data;",
        replace="if (dn_ready && up_valid) d_q <= up_data;",
        what="a register rank captures its data on the downstream ready instead of its own: an item "
             "taken into an empty rank while the output is stalled leaves the data register as it "
             "was (after reset: never written) and is delivered with those contents"),
    "formal.pipe_wire_holds_data": dict(
        file="hifsim_pipe_reg.sv", find="    assign dn_data  = up_data;\n    // clk and rst_n",
        replace="    logic [W-1:0] w_q;\n    always_ff @(posedge clk) w_q <= up_data;\n"
                "    assign dn_data  = w_q;\n    // clk and rst_n",
        what="a rank wired out (EN = 0) still registers its data, and not its valid: an item is "
             "delivered with the data of the cycle before (after reset: the power-up value)"),
    "formal.acc_no_reset": dict(
        file="fp32_acc.sv",
        find="always_ff @(posedge clk or negedge rst_n) begin\n    if (!rst_n)                 acc_q <= '0;\n"
             "    else if (clear)",
        replace="always_ff @(posedge clk) begin\n    if (clear)",
        what="fp32_acc: the register is not reset (only `clear` zeroes it): after reset `acc` is its "
             "power-up value until the first clear or init"),
    "formal.sp_acc_no_reset": dict(
        file="sparse_residual_add.sv",
        find="always_ff @(posedge clk or negedge rst_n) begin\n    if (!rst_n)                       acc_q <= '0;\n"
             "    else if (c7_valid && out_ready)",
        replace="always_ff @(posedge clk) begin\n    if (c7_valid && out_ready)",
        what="sparse_residual_add: the accumulator register is not reset: `acc`, and out_acc of a "
             "transaction without acc_start, carry its power-up value"),
    "formal.tpb_write_bank_from_read": dict(
        file="transpose_buffer.sv", find="if (fire_in && wb_q == b[0]", replace="if (fire_in && rb_q == b[0]",
        what="transpose_buffer: the row write enable selects the bank by the read side's bank, so the "
             "second tile is written over the first while bank 1 is never written and is read"),
    # hif8_dot / bf16_dot64 (hifsim_aligned_dot, al.* jobs): the alignment shift one place too far
    # for every product below the maximum (the leading lane stays right), a product's sign taken
    # from A alone.
    "formal.ad_align_off_by_one": dict(
        file="hifsim_aligned_dot.sv", find="t   = v >> g;", replace="t   = v >> (g + GW'(g != '0));",
        what="aligned dot s3: every product below Emax shifted one place too far right (its t halved)"),
    "formal.ad_sign_from_a": dict(
        file="hifsim_aligned_dot.sv", find="s1_lane[WL*k +: WL] = {num && (ps != '0), sga ^ sgb, ps,",
        replace="s1_lane[WL*k +: WL] = {num && (ps != '0), sga, ps,",
        what="aligned dot s1: a finite product's sign is A's sign (B's ignored)"),
    # al.bf.*.tail_lemma / tail_ref_lemma: the tail adds a lane outside nz when its u is at E (the
    # unit) or above it (the reference), so a lane's u outside the contract changes the output
    "formal.ad_tail_reads_zero_lane": dict(
        file="hifsim_aligned_dot.sv", find="if (ln[WL-1]) sum = sum + term;",
        replace="if (ln[WL-1] || gap == '0) sum = sum + term;",
        what="aligned dot s4: a lane without a nonzero product is added when its u equals Emax"),
    "formal.ref_tail_reads_zero_lane": dict(
        tree="formal", file="ref/ref_aligned_dot.sv", find="if (nz[k]) s = s + ",
        replace="if (nz[k] || k_sh > 0) s = s + ",
        what="ref_aligned_tail: a lane without a nonzero product is added when its u lies above E"),
    # al.bf.emax_lemma checks references alone: a broken reference tree keeps the smaller exponent
    "formal.ref_emax_tree_min": dict(
        tree="formal", file="ref/ref_aligned_dot.sv", find="else if (y[9:0] > x[9:0])   v[j] = y;",
        replace="else if (y[9:0] < x[9:0])   v[j] = y;",
        what="ref_aligned_front, EMAX_TREE = 1: of two nonzero neighbours the smaller exponent wins"),
    # the lemmas between references (fpadd.far_lemma.*, round.wide_lemma.*) check no RTL: a broken
    # reference on one side of each
    "formal.ref_fp_add_no_sticky": dict(
        tree="formal", file="ref/ref_fp_add.sv", find="place = {f >> shift, lost != 0};",
        replace="place = {f >> shift, 1'b0};",
        what="ref_fp_add: the bits an operand loses to its alignment are dropped, no sticky bit"),
    "formal.ref_fp_add_lsb_keep27": dict(
        tree="formal", file="ref/ref_fp_add.sv", find="lsb_exp = 10'(e) - 10'(151 + KEEP);",
        replace="lsb_exp = 10'(e) - 10'(151 + 27);",
        what="ref_fp_add: the field's LSB exponent written for KEEP = 27 whatever KEEP is (the wide side "
             "of a lemma scaled wrong)"),
    "formal.ref_round_wide_lowest_one": dict(
        tree="formal", file="ref/ref_round_wide.sv", find="if (mag[i]) begin",
        replace="if (mag[i] && !found) begin",
        what="ref_round_wide: the lowest one of the magnitude taken for its leading one"),
}

# job name (regex) -> mutant ids it must refute
KILLS = [
    # every rounding set (the exact ones build g_exact, where these lines do not exist)
    (r"^round\.(ws|full)", ["round.ties_to_odd", "round.ties_away", "round.sticky_stuck_0", "round.guard_position"]),
    # subnormal: reachable where lsb_exp spans WE = 11 bits (not at nvfp4's WE = 6, L in [-32, 31]:
    # leading-bit exponent -32 .. 80, never subnormal, never overflowing)
    (r"^round\.(ws\d+_we11|full)", ["round.subnormal_boundary", "round.subnormal_quantum"]),
    # the lost subnormal carry needs a subnormal significand of 23 ones and a set guard bit below
    # it: 24 significant bits of |sum|, so WS >= 25 (at WS 14 and 23
    # the mutant is equivalent: prove.py run round.ws23_we11 --mutant ... is proven, 5.2 s)
    (r"^round\.(ws(2[5-9]|[3-9]\d|1\d\d)_we11|full)", ["formal.round_subnormal_carry_lost"]),
    # the overflow wrap needs 24 kept ones and a round-up, so |sum| >= 2^24: WS >= 26 (at WS 14 and
    # 23 the mutant is equivalent: formal/prove.py run round.ws23_we11 --mutant ... is proven)
    (r"^round\.(ws(2[6-9]|[3-9]\d|1\d\d)_we11|full)", ["formal.round_ovf_off_by_one"]),
    # the exact mode (g_exact: MAG_BITS < WS) of both users: hif4_dot64 and sparse_residual_add
    (r"^round\.(hif4|sp)_exact", ["h4.exp_bias", "h4.no_abs", "h4.frac_shift"]),
    # hifsim_fp_add: the table's fpadd mutants where they change the adder's output. Not listed:
    # fpadd.clamp_26 and fpadd.swap_on_equal (equivalent, and the proof says so: `prove.py run
    # fpadd.m23_rne --mutant fpadd.clamp_26` is proven), ties_away and guard_position under RZ
    # (the guard is unused there), no_mantissa_mask at MANT_BITS = 23 (the mask is all ones).
    (r"^fpadd\.m\d", ["fpadd.sticky_stuck_0", "fpadd.lz_limit", "fpadd.exp_plus_two", "fpadd.zero_sign_or",
                   "fpadd.cancel_keeps_sign"]),
    (r"^fpadd\.m\d+_rne", ["fpadd.ties_away", "fpadd.guard_position"]),
    (r"^fpadd\.m\d+_rz", ["fpadd.rz_overflow_inf"]),
    (r"^fpadd\.m([1-9]|1\d|2[0-2])_", ["fpadd.no_mantissa_mask"]),
    (r"^fpadd\.m1_rne", ["formal.fpadd_m1_tie_lsb"]),
    (r"^acc\.", ["acc.init_beats_clear", "acc.add_beats_init"]),
    (r"^ctrl\.hif4_dot64\.stages1$", ["h4.cut_s4_missing_at_1"]),
    (r"^ctrl\.hif4_dot64\.stages4$", ["h4.cut_s7_at_4"]),
    (r"^ctrl\.hif4_dot64\.stages3$", ["pipe.no_pass_through", "pipe.valid_never_clears"]),
    (r"^ctrl\.hif4_dot64\.stages0$", ["pipe.wire_ignores_ready"]),
    (r"^ctrl\.nvfp4_dot64\.stages2$", ["nv.cut_s6_at_3"]),
    (r"^ctrl\.nvfp4_dot64\.stages4$", ["nv.cut_s1_at_5"]),
    (r"^ctrl\.mxfp4_dot64\.stages1$", ["mx4.cut_s2_at_2"]),
    (r"^ctrl\.mxfp4_dot64\.stages3$", ["mx4.cut_s4b_at_3"]),
    (r"^ctrl\.mxfp8_dot32\.stages2$", ["mx8.cut_s1_at_3"]),
    (r"^ctrl\.(hif8_dot|bf16_dot64)\.stages3$", ["ad.cut_s2_at_4"]),
    (r"^ctrl\.sparse_residual_add\.stages5$", ["sp.cut_s7_missing"]),
    (r"^ctrl\.hif4_quantizer\.stages1$", ["q.cut_q2_missing_at_1"]),
    (r"^ctrl\.hadamard16\.stages[12]$", ["had.cut_b2_enable"]),
    (r"^ctrl\.sr_quantizer\.stages2$", ["sr.cut_t3_missing"]),
    # transpose_buffer's tile protocol and transpose (tile_props.sv): every control and index mutant of
    # the table; not tpb.write_ignores_valid (equivalent, and the proof says so: `prove.py run
    # ctrl.transpose_buffer.t4_w2.stages1 --mutant tpb.write_ignores_valid` is proven)
    (r"^ctrl\.transpose_buffer\.", ["tpb.in_ready_ignores_full", "tpb.in_ready_wrong_bank", "tpb.read_valid_wrong_bank",
                                     "tpb.last_row_early", "tpb.last_column_early", "tpb.write_bank_stuck",
                                     "tpb.read_bank_stuck", "tpb.read_ignores_ready", "tpb.reset_keeps_row",
                                     "tpb.reset_keeps_full"]),
    # the index mutants change the data only: the jobs with the transpose (not the default tile's
    # protocol-only jobs ctrl.transpose_buffer.stages0/1, where they are proven: they keep the protocol)
    (r"^ctrl\.transpose_buffer\.(t\d+_w\d+|data)\.", ["tpb.columns_reversed", "tpb.bank_select_inverted",
                                                       "tpb.rows_reversed"]),
    (r"^ctrl\.transpose_buffer\.(\w+\.)?stages0$", ["tpb.cut_always_built"]),
    # hifsim_pipe_reg, the register rank every unit is built from: every unit at every depth.
    # STAGES >= 1: a full rank that refuses a new item while its own moves on breaks "out_ready
    # implies in_ready"; a valid bit that never clears delivers an item twice. STAGES = 0: a
    # disabled rank that ignores back-pressure accepts an item nobody takes.
    (r"^ctrl\.[\w.]+\.stages[1-9]$", ["pipe.no_pass_through", "pipe.valid_never_clears"]),
    (r"^ctrl\.[\w.]+\.stages0$", ["pipe.wire_ignores_ready"]),
    # the tail (s2..s7): the table's tail mutants and the class-4 width cut
    (r"^hif4\.(s6_tail|dot_full)", ["formal.h4_big_width_cut"]),
    (r"^hif4\.s6_tail", ["h4.l2_shift_two_as_one", "h4.l2_shift_right", "h4.group_of_seven"]),
    # the front end (s0, s1, s5): the table's front mutants
    (r"^hif4\.s1_front", ["h4.l3_group_index", "h4.sign_or", "h4.exp_offset", "h4.ss_operand_repeated",
                          "h4.nan_needs_both"]),
    (r"^hif4\.dot_full", ["h4.l3_group_index", "h4.sign_or", "h4.exp_offset", "h4.ss_operand_repeated", "h4.nan_needs_both"]),
    (r"^quant\.meta\.", ["q.l2_threshold", "q.l3_ignores_l2", "q.peak_of_three", "q.rec_lut", "q.e6m2_ties_away",
                         "formal.q_l23_lead_off_by_one", "formal.q_clamp_min_inclusive", "formal.q_clamp_max_code"]),
    (r"^quant\.meta\..*itn", ["q.inf_to_nan_ignored"]),
    (r"^quant\.meta\..*cmp", ["formal.q_cmp_guard_ignored"]),
    (r"^quant\.elem\.", ["formal.q_elem_flush_off_by_one"]),
    # (not on the k63 jobs: default-suite time). Not on a6: under ASCEND_A6 a -0 input has the
    # product 0 (pzero), whose sign the A6 term clears, so the mutant is equivalent there
    # (formal-long's whole run of 2026-12-07 at b6a09ef: `prove.py run quant.elem.a6.all --mutant
    # q.neg_zero_sign` is proven, 176 s)
    (r"^quant\.elem\.(away|rne)\.all", ["q.neg_zero_sign"]),
    (r"^quant\.elem\.away", ["formal.q_elem_ties_down"]),
    (r"^quant\.elem\.rne", ["q.elem_rne_ignored"]),
    (r"^quant\.meta\.a6", ["formal.q_a6_code0_levels", "formal.q_cmp_guard_ignored"]),
    (r"^quant\.elem\.a6", ["q.a6_product_not_rounded", "q.a6_sign_from_x", "q.a6_code0_not_zero"]),
    # the dot datapaths against their format references (formal/mx, formal/nv)
    (r"^mx4\.(tail|whole)", ["mx4.jam_sign", "mx4.lsb_offset", "mx4.zero_block_not_skipped",
                             "formal.mx4_jam_dropped", "formal.mx4_jam_one_late"]),
    (r"^mx4\.jam_lemma", ["formal.ref_mx_lead_jam_dropped", "formal.ref_mx_lead_jam_sign"]),
    (r"^mx4\.(front|whole)", ["mx4.block_of_31", "mx4.exp_offset", "mx4.nan_scale_a1", "pkg.e2m1_six_as_five"]),
    (r"^nv\.(front|whole)", ["nv.sub_block_of_15", "nv.prod_sign_or", "pkg.e2m1_six_as_five"]),
    (r"^nv\.(tail|whole)", ["nv.scale_sign_dropped", "nv.tt_offset", "nv.ss_operand_repeated", "nv.nan_a_only",
                            "nv.align_offset", "pkg.e4m3_nan_code"]),
    # mxfp8_dot32, split at c2_data: the front's mutants (decode, products, alignment, sign, the
    # sum's width, the lsb exponent, the NaN / Inf flags) on the front and whole jobs, the tail's
    # (rounding, the specials' priority) on the tail and whole jobs. E4M3 has no infinity, so the
    # Inf mutants are equivalent in the E4M3 unit (front and whole); the tail job drives the flags
    # freely, so it refutes the specials' mutants at both element formats.
    (r"^mx8\.e(4m3|5m2)(\.front)?$", ["mx8.shift_operand_repeated", "mx8.scale_nan_a_only", "mx8.no_negate",
                                     "mx8.min_exp", "formal.mx8_sum_width_cut", "formal.mx8_psig_top_bit_lost"]),
    (r"^mx8\.e4m3(\.front)?$", ["pkg.e4m3_nan_code"]),
    (r"^mx8\.e5m2(\.front)?$", ["mx8.inf_times_zero_finite", "mx8.inf_sign_a", "pkg.e5m2_subnormal_exp"]),
    (r"^mx8\.e(4m3|5m2)(\.tail)?$", ["round.ties_to_odd", "round.subnormal_quantum"]),
    (r"^mx8\.(e4m3\.tail|e5m2(\.tail)?)$", ["mx8.inf_minus_inf", "formal.mx8_inf_over_nan"]),
    # sparse_residual_add (formal/sparse): front, tail at the sparse parameters, accumulate step
    (r"^sp\.front", ["sp.select_index", "sp.l3_group_index", "sp.nan_needs_both", "formal.sp_idx_bits_swapped",
                    "formal.sp_idx_of_partner", "formal.sp_select_group_swapped", "formal.sp_w_l3_group",
                    "formal.sp_sign_group_first"]),
    (r"^sp\.tail", ["sp.l2_shift_two_as_one", "sp.group_of_three", "sp.dot_nan_dropped", "formal.h4_big_width_cut"]),
    (r"^sp\.decomp_lemma", ["formal.ref_sp_idx_of_partner"]),
    (r"^sp\.acc\.", ["sp.init_ignored", "sp.adds_on_stall", "sp.start_dropped", "formal.sp_op_x_inverted"]),
    # the same at STAGES >= 1 (run at m10_rz: every one of them applies), and a rank that loads its
    # data on the wrong enable (the sideband of a stalled item is lost)
    (r"^sp\.acc_pipe\.", ["sp.init_ignored", "sp.adds_on_stall", "sp.start_dropped", "formal.sp_op_x_inverted",
                          "sp.init_low_bits_kept", "sp.acc_always_rne", "formal.pipe_data_en_dn_ready"]),
    # init_value's ignored low bits exist below MANT_BITS = 23; the RZ flag only matters under RZ
    (r"^sp\.acc\.m([1-9]|1\d|2[0-2])_", ["sp.init_low_bits_kept"]),
    (r"^sp\.acc\..*_rz$", ["sp.acc_always_rne"]),
    # no X: a unit's register ranks (every unit with a hifsim_pipe_reg rank at that depth), its
    # accumulator register, its tile memory. The table's tpb.bank_select_inverted (the column read
    # from the bank not yet written) and tpb.last_row_early (a bank read before its last row is
    # written) also read unwritten storage. pipe.data_loads_without_valid must stay proven (junk
    # loaded on a bubble is the defined input `up_data`, and never read).
    (r"^(nox|taint)\..*\.stages[1-9]$", ["formal.pipe_data_en_dn_ready"]),
    # at STAGES 0 every rank is wires: the fault is a rank that keeps a register where it should not
    (r"^(nox|taint)\..*\.stages0$", ["formal.pipe_wire_holds_data"]),
    (r"^(nox|taint)\.fp32_acc\.", ["formal.acc_no_reset"]),
    (r"^(nox|taint)\.sparse_residual_add\.", ["formal.sp_acc_no_reset"]),
    (r"^(nox|taint)\.transpose_buffer\.", ["formal.tpb_write_bank_from_read", "tpb.bank_select_inverted", "tpb.last_row_early"]),
    # hif8_dot / bf16_dot64 against ref_aligned_dot (formal/aligned): the front (decode, products,
    # specials, Emax over the nonzero products) and the tail (alignment, sticky, sum, window LSB,
    # rounding); the sticky mutants only where the window has its sticky bit
    (r"^al\.\w+\.[\w.]+\.(front|whole)$", ["ad.zero_raises_emax", "ad.emax_is_min", "ad.inf_sign_a",
                                          "ad.inf_times_zero_finite", "formal.ad_sign_from_a"]),
    (r"^al\.h8\.[\w.]+\.(front|whole)$", ["pkg.hif8_denormal_exp"]),
    (r"^al\.bf\.[\w.]+\.(front|whole)$", ["pkg.bf16_subnormal_exp"]),
    (r"^al\.\w+\.[\w.]+\.(tail|tail_clamped|whole)$", ["ad.no_negate", "ad.lsb_exp",
                                         "formal.ad_align_off_by_one"]),
    # round.guard_position where the rounder rounds: not at hif8_dot N=16 W=8 sticky, whose sum has
    # 14 bits (round_params.txt) and is never subnormal, so every result is exact and the mutant is
    # equivalent there (formal-long's whole run of 2026-12-07 at b6a09ef: proven, 23 s)
    (r"^al\.(?!h8\.n16_w8_s\.)\w+\.[\w.]+\.(tail|tail_clamped|whole)$", ["round.guard_position"]),
    # ad.gap_clamp_early only where the window has no sticky bit: with it, a product at gap WW-1
    # gives t = {0.., psig != 0} both ways (its top bit kept and the rest ORed into the sticky bit,
    # or all of it dropped into the sticky bit), so the mutant is equivalent there
    (r"^al\.\w+\.(?![\w.]*_s\.)[\w.]+\.(tail|tail_clamped|tail_sum|whole)$", ["ad.gap_clamp_early"]),
    (r"^al\.bf\.[\w.]+\.tail_sum$", ["ad.no_negate", "ad.lsb_exp", "formal.ad_align_off_by_one"]),
    (r"^al\.\w+\.[\w.]*_s\.(tail|tail_clamped|tail_sum|whole)$", ["ad.sticky_stuck_0", "ad.sticky_off_by_one"]),
    (r"^al\.bf\.[\w.]+\.tail_lemma$", ["formal.ad_tail_reads_zero_lane"]),
    (r"^al\.bf\.[\w.]+\.tail_ref_lemma$", ["formal.ref_tail_reads_zero_lane"]),
    (r"^al\.bf\.emax_lemma$", ["formal.ref_emax_tree_min"]),
    # the sticky bit is proven redundant at MANT_BITS 23 RNE (the far operand is under a quarter of
    # an ulp: formal.ref_fp_add_no_sticky is proven there, in 148 s / 529 s); at MANT_BITS 1 it is not
    (r"^fpadd\.far_lemma\.", ["formal.ref_fp_add_lsb_keep27"]),
    (r"^fpadd\.far_lemma\.m1_", ["formal.ref_fp_add_no_sticky"]),
    (r"^round\.wide_lemma\.", ["formal.ref_round_wide_lowest_one"]),
    (r"^dec\.e2m1", ["pkg.e2m1_six_as_five"]),
    (r"^dec\.e4m3", ["pkg.e4m3_nan_code"]),
    (r"^dec\.e5m2", ["pkg.e5m2_subnormal_exp"]),
    (r"^dec\.bf16", ["pkg.bf16_subnormal_exp"]),
    (r"^dec\.hif8", ["pkg.hif8_denormal_exp"]),
]

MUTANTS = dict(_table())
MUTANTS.update({k: dict(v, id=k) for k, v in NEW.items()})


def for_job(job):
    out = []
    for pat, ids in KILLS:
        if re.search(pat, job):
            out += [i for i in ids if i not in out]
    return out
